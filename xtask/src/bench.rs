//! `cargo xtask bench`: runs the `bench-suite` program of the `benches` package in release
//! mode with the checked options, so that nothing in the workspace depends on `benches`
//! (docs/style.md). The measuring, the table, the regression check against
//! `benches/baseline.json` and the plot live in `benches/src/bin/bench-suite/`.

use std::path::Path;
use std::process::Command;

use crate::Result;
use crate::flags::BenchFlags;

/// The `bench-suite` command line for `flags`.
pub(crate) fn suite_args(flags: &BenchFlags) -> Vec<String> {
    let mut args = vec!["--rounds".to_owned(), flags.rounds.to_string()];
    if flags.check {
        args.push("--check".to_owned());
    }
    if flags.bless {
        args.push("--bless".to_owned());
    }
    if let Some(out) = &flags.out {
        args.push("--out".to_owned());
        args.push(out.display().to_string());
    }
    args
}

/// Runs `cargo xtask bench`.
pub(crate) fn run(flags: &BenchFlags) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = xtask.parent().unwrap_or(xtask);
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["run", "--release", "--quiet", "--package", "benches", "--bin", "bench-suite", "--"])
        .args(suite_args(flags))
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("bench-suite failed ({status})").into()) }
}

#[cfg(test)]
mod tests;
