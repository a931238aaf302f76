//! Tests of the baseline check.

use std::collections::BTreeMap;

use super::{Entry, compare, parse, render};

fn entry(hash: &str, metrics: &[(&str, f64)]) -> Entry {
    Entry {
        content_hash: hash.to_owned(),
        metrics: metrics.iter().map(|&(k, v)| (k.to_owned(), v)).collect(),
    }
}

#[track_caller]
fn check(base: &[(&str, f64)], now: &[(&str, f64)], want_ok: bool) {
    let (lines, ok) = compare("all", Some(&entry("h", base)), &entry("h", now));
    assert_eq!(ok, want_ok, "{lines:#?}");
}

#[test]
fn drops_within_tolerance_pass() {
    let base = [("nDCG@10", 0.63), ("hit@1", 0.6), ("abstain", 0.5), ("empty", 0.01)];
    check(&base, &base, true);
    check(
        &base,
        &[("nDCG@10", 0.626), ("hit@1", 0.596), ("abstain", 0.4951), ("empty", 0.0149)],
        true,
    );
    // Improvements always pass, and other metrics are not checked.
    check(
        &base,
        &[("nDCG@10", 0.9), ("hit@1", 0.9), ("abstain", 1.0), ("empty", 0.0), ("R@5", 0.0)],
        true,
    );
}

#[test]
fn larger_drops_or_a_rise_of_empty_fail() {
    let base = [("nDCG@10", 0.63), ("hit@1", 0.6), ("abstain", 0.5), ("empty", 0.01)];
    check(&base, &[("nDCG@10", 0.624), ("hit@1", 0.6), ("abstain", 0.5), ("empty", 0.01)], false);
    check(&base, &[("nDCG@10", 0.63), ("hit@1", 0.59), ("abstain", 0.5), ("empty", 0.01)], false);
    check(&base, &[("nDCG@10", 0.63), ("hit@1", 0.6), ("abstain", 0.49), ("empty", 0.01)], false);
    check(&base, &[("nDCG@10", 0.63), ("hit@1", 0.6), ("abstain", 0.5), ("empty", 0.016)], false);
}

#[test]
fn missing_entry_or_changed_data_fail() {
    let now = entry("h", &[("nDCG@10", 0.5)]);
    assert!(!compare("all", None, &now).1);
    assert!(!compare("all", Some(&entry("other", &[("nDCG@10", 0.5)])), &now).1);
}

#[test]
fn render_then_parse_round_trips() {
    let mut entries = BTreeMap::new();
    entries.insert("all".to_owned(), entry("fnv1a64:00", &[("nDCG@10", 0.6312), ("abstain", 0.0)]));
    entries.insert("dev".to_owned(), entry("fnv1a64:01", &[("hit@1", 1.0)]));
    let text = render(&entries).unwrap();
    assert!(text.ends_with("}\n"));
    assert_eq!(parse(&text).unwrap(), entries);
}

#[test]
fn group_shares_must_not_drop() {
    let base = [("abstain", 0.7), ("group_abstain", 0.5), ("group_hit@5", 0.9)];
    check(&base, &[("abstain", 0.7), ("group_abstain", 0.496), ("group_hit@5", 0.9)], true);
    check(&base, &[("abstain", 0.7), ("group_abstain", 0.49), ("group_hit@5", 0.9)], false);
    check(&base, &[("abstain", 0.7), ("group_abstain", 0.5), ("group_hit@5", 0.89)], false);
}

#[test]
fn an_entry_records_group_shares_only_with_groups() {
    use crate::groups::{GroupReport, Tally};
    use crate::metrics::{QueryScore, Summary};
    let summary = Summary::of(&[QueryScore::NoAnswer { abstained: true }]);
    let plain = Entry::of("h", &summary, None);
    assert_eq!(plain.metrics.keys().collect::<Vec<_>>(), ["abstain"]);
    let groups = GroupReport {
        no_answer: Tally { groups: 3, held: 1, queries: 9, queries_held: 6 },
        answerable: Tally::default(),
    };
    let grouped = Entry::of("h", &summary, Some(&groups));
    assert_eq!(grouped.metrics.get("group_abstain"), Some(&0.3333));
    assert_eq!(grouped.metrics.get("group_hit@5"), None);
}
