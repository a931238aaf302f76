//! The committed relevance baseline (`xtask/baseline.json`): `--check` compares a run with it,
//! `--bless` rewrites it.
//!
//! A check fails when, for any evaluated dataset, nDCG@10, hit@1, abstain or (a dataset with
//! groups of phrasings, see [`crate::groups`]) `group_abstain` or `group_hit@5` dropped by more
//! than [`TOLERANCE`], or empty rose by more than it; when the dataset's content changed since the
//! baseline was blessed (the numbers would not be comparable); or when the dataset has no
//! baseline at all.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::{Map, Value};

use crate::Result;
use crate::groups::{GROUP_ABSTAIN, GROUP_HIT5, GroupReport};
use crate::metrics::{METRIC_NAMES, Summary};
use crate::report;

/// The largest change a check lets through.
pub(crate) const TOLERANCE: f64 = 0.005;

/// Metrics that must not drop, and the one that must not rise.
const MUST_NOT_DROP: [&str; 5] = ["nDCG@10", "hit@1", "abstain", GROUP_ABSTAIN, GROUP_HIT5];
const MUST_NOT_RISE: [&str; 1] = ["empty"];

/// One dataset's entry in the baseline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// The dataset's content hash when it was blessed.
    pub(crate) content_hash: String,
    /// Metric values, rounded to 4 decimals.
    pub(crate) metrics: BTreeMap<String, f64>,
}

impl Entry {
    /// The entry a run of `summary` (and `groups`, for a dataset with groups of phrasings) on
    /// a dataset with `content_hash` blesses.
    pub(crate) fn of(content_hash: &str, summary: &Summary, groups: Option<&GroupReport>) -> Entry {
        let group_metrics = groups.map(GroupReport::metrics).unwrap_or_default();
        let metrics = METRIC_NAMES
            .iter()
            .filter_map(|&n| summary.get(n).map(|v| (n.to_owned(), round4(v))))
            .chain(group_metrics.into_iter().map(|(n, v)| (n.to_owned(), round4(v))))
            .collect();
        Entry { content_hash: content_hash.to_owned(), metrics }
    }
}

fn round4(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

/// Reads the baseline; a missing file is an empty baseline.
pub(crate) fn read(path: &Path) -> Result<BTreeMap<String, Entry>> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display()).into()),
    };
    parse(&text).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn parse(text: &str) -> Result<BTreeMap<String, Entry>> {
    let value: Value = serde_json::from_str(text)?;
    let datasets =
        value.get("datasets").and_then(Value::as_object).ok_or("no `datasets` object")?;
    let mut out = BTreeMap::new();
    for (name, entry) in datasets {
        let content_hash = entry
            .get("content_hash")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("dataset `{name}`: no `content_hash`"))?
            .to_owned();
        let metrics = entry
            .get("metrics")
            .and_then(Value::as_object)
            .ok_or_else(|| format!("dataset `{name}`: no `metrics` object"))?
            .iter()
            .map(|(k, v)| {
                v.as_f64()
                    .map(|v| (k.clone(), v))
                    .ok_or_else(|| format!("dataset `{name}`: metric `{k}` is not a number"))
            })
            .collect::<std::result::Result<BTreeMap<_, _>, _>>()?;
        out.insert(name.clone(), Entry { content_hash, metrics });
    }
    Ok(out)
}

/// The baseline file's text: sorted keys, two-space indent, final newline.
pub(crate) fn render(entries: &BTreeMap<String, Entry>) -> Result<String> {
    let mut datasets = Map::new();
    for (name, e) in entries {
        let metrics: Map<String, Value> =
            e.metrics.iter().map(|(k, v)| (k.clone(), Value::from(*v))).collect();
        datasets.insert(
            name.clone(),
            serde_json::json!({"content_hash": e.content_hash, "metrics": metrics}),
        );
    }
    let doc = serde_json::json!({
        "about": "Relevance baseline of `cargo xtask eval`; `--check` fails if a dataset's nDCG@10, \
                  hit@1, abstain, group_abstain or group_hit@5 drops, or empty rises, by more \
                  than 0.005. Rewrite with \
                  `cargo xtask eval --bless` and commit it with the numbers in the message.",
        "datasets": datasets,
    });
    let mut text = serde_json::to_string_pretty(&report::sorted(doc))?;
    text.push('\n');
    Ok(text)
}

/// Compares one dataset's run with its baseline entry; returns one line per compared metric and
/// whether the check passed.
pub(crate) fn compare(
    name: &str,
    baseline: Option<&Entry>,
    current: &Entry,
) -> (Vec<String>, bool) {
    let Some(base) = baseline else {
        return (
            vec![format!("{name}: FAIL no baseline entry (run `cargo xtask eval --bless`)")],
            false,
        );
    };
    if base.content_hash != current.content_hash {
        return (
            vec![format!(
                "{name}: FAIL dataset content changed since the baseline ({} -> {}); re-bless",
                base.content_hash, current.content_hash
            )],
            false,
        );
    }
    let mut lines = Vec::new();
    let mut ok = true;
    for (metric, sign) in
        MUST_NOT_DROP.iter().map(|m| (*m, 1.0)).chain(MUST_NOT_RISE.iter().map(|m| (*m, -1.0)))
    {
        let (Some(&was), Some(&now)) = (base.metrics.get(metric), current.metrics.get(metric))
        else {
            continue;
        };
        // `loss` is how much worse the run is, in the metric's bad direction.
        let loss = sign * (was - now);
        let pass = loss <= TOLERANCE;
        ok &= pass;
        lines.push(format!(
            "{name}: {} {metric:<13} baseline {was:.4}  now {now:.4}  change {:+.4}",
            if pass { "ok  " } else { "FAIL" },
            now - was
        ));
    }
    (lines, ok)
}

#[cfg(test)]
mod tests;
