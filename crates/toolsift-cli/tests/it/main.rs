//! Integration tests: each runs the built `toolsift` binary and checks its exit status,
//! stdout and stderr.
//!
//! Catalog fixtures are tiny documents written at test time under Cargo's per-target temporary
//! directory; the embedded demo catalog and the repository's tuning catalogs are the real ones.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// `check`: its findings, grouping, caps, skips and exit status.
mod check;
/// The embedded demo catalogs: identical to the tuning set's, sourced and licensed.
mod demo;
/// `describe`: name resolution, suggestions, both outputs.
mod describe;
/// Catalog input: files, servers, order, datasets, broken files, `--keep-going`, help.
mod input;
/// `listing`: budgets and forms.
mod listing;
/// `search`: hits, empty results, filters, explanations.
mod search;
/// `serve`: config errors, a stdio session, logs on stderr only, the HTTP token rule.
mod serve;

/// What one run of the binary did.
#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The stdout parsed as one JSON document.
    #[track_caller]
    fn json(&self) -> Value {
        match serde_json::from_str(&self.stdout) {
            Ok(v) => v,
            Err(e) => panic!("stdout is not one JSON document ({e}):\n{}", self.stdout),
        }
    }

    /// Asserts the exit status, showing the output when it differs.
    #[track_caller]
    fn status(self, code: i32) -> Run {
        assert_eq!(self.code, code, "stdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self
    }
}

/// Runs `toolsift` with `args`.
#[track_caller]
fn toolsift<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_toolsift"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run toolsift: {e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes a fixture file (under a folder of its own per test) and returns its path.
#[track_caller]
fn fixture(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixtures").join(test);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {dir:?}: {e}"));
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap_or_else(|e| panic!("cannot write {path:?}: {e}"));
    path
}

/// A path as a command-line argument.
fn arg(path: &Path) -> String {
    path.display().to_string()
}

/// A file of the repository's tuning set.
fn tuning(rel: &str) -> String {
    format!("{}/../../xtask/tuning/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// Asserts that no line of `text` is wider than 80 characters.
#[track_caller]
fn fits_80(text: &str) {
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "line wider than 80 columns: {line:?}");
    }
}

/// A small MCP catalog: two well-described tools.
const NOTES: &str = r#"{"tools": [
  {"name": "create_note", "description": "Create a new note with a title and a body.",
   "inputSchema": {"type": "object", "required": ["title"],
                   "properties": {"title": {"type": "string"}, "body": {"type": "string"}}}},
  {"name": "delete_note", "description": "Delete a note by its identifier.",
   "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}
]}"#;
