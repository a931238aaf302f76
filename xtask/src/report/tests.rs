//! Tests of report formatting.

use serde_json::json;

use super::{median_p95, ranking_line, sorted, table};
use crate::dataset::ToolKey;
use crate::metrics::{QueryScore, Summary, score};

#[test]
fn percentiles_use_nearest_rank() {
    assert_eq!(median_p95(&[]), (0.0, 0.0));
    assert_eq!(median_p95(&[3.0]), (3.0, 3.0));
    assert_eq!(median_p95(&[4.0, 1.0, 3.0, 2.0]), (2.5, 4.0));
    // 20 samples 1..=20: the 95th percentile is the 19th smallest.
    let s: Vec<f64> = (1..=20).map(f64::from).collect();
    assert_eq!(median_p95(&s), (10.5, 19.0));
}

#[test]
fn json_keys_are_sorted_at_every_depth() {
    let v = sorted(json!({"b": 1, "a": {"z": 1, "y": [{"d": 1, "c": 2}]}}));
    assert_eq!(v.to_string(), r#"{"a":{"y":[{"c":2,"d":1}],"z":1},"b":1}"#);
}

#[test]
fn ranking_lines_follow_the_format() {
    let line = ranking_line("code-001", &[ToolKey::new("github", "create_pull_request")]);
    assert_eq!(
        line,
        r#"{"id":"code-001","results":[{"server":"github","tool":"create_pull_request"}]}"#
    );
    assert_eq!(ranking_line("x", &[]), r#"{"id":"x","results":[]}"#);
}

#[test]
fn table_prints_a_dash_for_undefined_metrics() {
    let one = [ToolKey::new("s", "a")];
    let rel = [(ToolKey::new("s", "a"), 2)].into_iter().collect();
    let scores: Vec<QueryScore> = vec![score(&rel, &one)];
    let t = table("dataset", &[("all".to_owned(), Summary::of(&scores))]);
    let expect = "\
dataset      n  n_no   hit@1   hit@3   hit@5     R@5  MRR@10 nDCG@10   empty abstain
all          1     0   1.000   1.000   1.000   1.000   1.000   1.000   0.000       -
";
    assert_eq!(t, expect);
}
