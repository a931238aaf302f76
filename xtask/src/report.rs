//! What `cargo xtask eval` prints and writes: metric tables, failure listings, and the files of
//! `--out` (rankings.jsonl, timing.json, report.json).
//!
//! Every JSON object written here has its keys in sorted (BTreeMap) order, so two runs on the
//! same code and data write byte-identical reports apart from the timings.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde_json::{Map, Value};

use crate::Result;
use crate::dataset::ToolKey;
use crate::metrics::{METRIC_NAMES, Summary};

/// Header and rows of one metrics table: the first column names the row.
pub(crate) fn table(title: &str, rows: &[(String, Summary)]) -> String {
    let label_width = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0).max(8);
    let mut out = String::new();
    let _ = write!(out, "{title:<label_width$} {:>5} {:>5}", "n", "n_no");
    for name in METRIC_NAMES {
        let _ = write!(out, " {name:>7}");
    }
    out.push('\n');
    for (label, s) in rows {
        let _ = write!(out, "{label:<label_width$} {:>5} {:>5}", s.n_answerable, s.n_no_answer);
        for name in METRIC_NAMES {
            match s.get(name) {
                Some(v) => {
                    let _ = write!(out, " {v:>7.3}");
                }
                None => {
                    let _ = write!(out, " {:>7}", "-");
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Median and 95th percentile (nearest rank) of `samples`; `(0, 0)` when empty.
pub(crate) fn median_p95(samples: &[f64]) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let median = if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 };
    let rank = (0.95 * n as f64).ceil() as usize;
    (median, s[rank.clamp(1, n) - 1])
}

/// Rebuilds `value` with every object's keys in sorted order (the BTreeMap order).
pub(crate) fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let by_key: BTreeMap<String, Value> = map.into_iter().collect();
            let mut out = Map::new();
            for (k, v) in by_key {
                out.insert(k, sorted(v));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// A summary as a JSON object: every defined metric and the two counts.
pub(crate) fn summary_json(s: &Summary) -> Value {
    let mut map = Map::new();
    for (k, v) in s.to_map() {
        let value = if k.starts_with("n_") { Value::from(v as u64) } else { Value::from(v) };
        map.insert(k, value);
    }
    Value::Object(map)
}

/// Writes `value` as pretty JSON with sorted keys and a final newline.
pub(crate) fn write_json(path: &Path, value: Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(&sorted(value))?;
    text.push('\n');
    write(path, &text)
}

/// One line of rankings.jsonl: `{"id": …, "results": [{"server": …, "tool": …}, …]}`.
pub(crate) fn ranking_line(id: &str, results: &[ToolKey]) -> String {
    let results: Vec<Value> =
        results.iter().map(|k| serde_json::json!({"server": k.server, "tool": k.tool})).collect();
    let line = sorted(serde_json::json!({"id": id, "results": results}));
    line.to_string()
}

/// Writes `text` to `path`, creating the parent folder.
pub(crate) fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()).into())
}

/// The commit the work tree is on, and whether it has uncommitted changes; `None` without git.
pub(crate) fn git_revision(dir: &Path) -> Option<(String, bool)> {
    let run = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).current_dir(dir).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let rev = run(&["rev-parse", "HEAD"])?;
    let dirty =
        run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some((rev, dirty))
}

#[cfg(test)]
mod tests;
