//! `cargo xtask gateway-e2e`: `toolsift serve` against servers and a client nobody here wrote.
//!
//! The npm reference servers `@modelcontextprotocol/server-everything`, `-filesystem` and
//! `-memory` run behind the gateway, and the official Python MCP SDK (`mcp` on PyPI) drives it,
//! over stdio and over streamable HTTP with a bearer token (`xtask/gateway-e2e/client.py` says
//! what is checked). Versions are pinned in `xtask/gateway-e2e/`: `package.json` with its
//! `package-lock.json` (installed with `npm ci`) and `requirements.txt` (every Python package,
//! installed in a virtual environment). Both are installed under `target/gateway-e2e/` and
//! reused while the pinned files are unchanged.
//!
//! Without node, npm or Python 3.10+ the task says so and succeeds without running.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::Result;

/// The longest the checks may run (installing excluded).
const TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `cargo xtask gateway-e2e`.
pub(crate) fn run() -> Result<()> {
    if let Some(missing) = missing_tools() {
        println!("gateway-e2e: skipped: {missing}");
        return Ok(());
    }
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = xtask.parent().unwrap_or(xtask);
    let pinned = xtask.join("gateway-e2e");
    let work = root.join("target").join("gateway-e2e");
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;

    let start = Instant::now();
    install_node(&pinned, &work)?;
    let python = install_python(&pinned, &work)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    status(
        Command::new(cargo).current_dir(root).args([
            "build",
            "--quiet",
            "--package",
            "toolsift-cli",
        ]),
        "cargo build --package toolsift-cli",
    )?;
    println!("gateway-e2e: installed and built in {:.1} s", start.elapsed().as_secs_f64());

    let toolsift = root.join("target").join("debug").join("toolsift");
    let start = Instant::now();
    let mut child = Command::new(&python)
        .arg(pinned.join("client.py"))
        .arg(&toolsift)
        .arg(&work)
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    loop {
        if let Some(exit) = child.try_wait().map_err(|e| format!("waiting for the client: {e}"))? {
            println!("gateway-e2e: checks ran in {:.1} s", start.elapsed().as_secs_f64());
            return if exit.success() {
                Ok(())
            } else {
                Err(format!("gateway-e2e failed ({exit})").into())
            };
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("gateway-e2e took longer than {} s", TIMEOUT.as_secs()).into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What is missing to run, if anything.
fn missing_tools() -> Option<String> {
    for (tool, arg) in [("node", "--version"), ("npm", "--version")] {
        if !runs(Command::new(tool).arg(arg)) {
            return Some(format!("`{tool}` is not on PATH (needs Node 20 and Python 3.10+)"));
        }
    }
    let python_ok = Command::new("python3")
        .args(["-c", "import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    (!python_ok).then(|| "`python3` 3.10 or newer with venv is not on PATH".to_owned())
}

fn runs(command: &mut Command) -> bool {
    command.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

fn status(command: &mut Command, what: &str) -> Result<()> {
    let exit = command.status().map_err(|e| format!("cannot run {what}: {e}"))?;
    if exit.success() { Ok(()) } else { Err(format!("{what} failed ({exit})").into()) }
}

/// Whether `installed` holds the same bytes as `pinned` (the stamp of a finished install).
fn same(pinned: &Path, installed: &Path) -> bool {
    matches!((std::fs::read(pinned), std::fs::read(installed)), (Ok(a), Ok(b)) if a == b)
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to).map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
    Ok(())
}

/// `npm ci` of the pinned servers into `work`, unless the same lock file is installed.
fn install_node(pinned: &Path, work: &Path) -> Result<()> {
    let lock = pinned.join("package-lock.json");
    let stamp = work.join("installed-package-lock.json");
    if same(&lock, &stamp) && work.join("node_modules").is_dir() {
        return Ok(());
    }
    copy(&pinned.join("package.json"), &work.join("package.json"))?;
    copy(&lock, &work.join("package-lock.json"))?;
    status(
        Command::new("npm").current_dir(work).args([
            "ci",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ]),
        "npm ci",
    )?;
    copy(&lock, &stamp)
}

/// A virtual environment with the pinned Python packages; returns its interpreter.
fn install_python(pinned: &Path, work: &Path) -> Result<PathBuf> {
    let venv = work.join("venv");
    let python = venv.join("bin").join("python");
    let requirements = pinned.join("requirements.txt");
    let stamp = work.join("installed-requirements.txt");
    if same(&requirements, &stamp) && python.exists() {
        return Ok(python);
    }
    status(Command::new("python3").arg("-m").arg("venv").arg(&venv), "python3 -m venv")?;
    status(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(&requirements),
        "pip install",
    )?;
    copy(&requirements, &stamp)?;
    Ok(python)
}
