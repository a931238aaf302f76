//! Tests of `bench-suite` (`cargo xtask bench`): its command line, table, regression check and
//! plot.

use std::collections::BTreeMap;
use std::path::PathBuf;

use benches::{Quantity, Rate, Row, ScalePoint, Target, Unit};

use super::{
    BenchFlags, Measured, compare, measured, missed_targets, parse_baseline, parse_flags,
    render_baseline, scale_svg, table,
};

#[track_caller]
fn check_flags(args: &str, expect: Result<BenchFlags, &str>) {
    let args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
    match (parse_flags(&args).map_err(|e| e.to_string()), expect) {
        (Ok(got), Ok(want)) => assert_eq!(got, want, "args: {args:?}"),
        (Err(got), Err(want)) => assert!(got.contains(want), "args: {args:?}: error `{got}`"),
        (got, want) => panic!("args: {args:?}: got {got:?}, want {want:?}"),
    }
}

#[test]
fn command_lines() {
    let default = BenchFlags { rounds: 5, check: false, bless: false, out: None };
    check_flags("", Ok(default.clone()));
    check_flags(
        "--rounds=9 --check --out o",
        Ok(BenchFlags { rounds: 9, check: true, bless: false, out: Some(PathBuf::from("o")) }),
    );
    check_flags("--rounds 3 --bless", Ok(BenchFlags { rounds: 3, bless: true, ..default }));
    check_flags("--rounds 0", Err("at least 1"));
    check_flags("--rounds", Err("needs a value"));
    check_flags("--check=yes", Err("takes no value"));
    check_flags("--dataset x", Err("unknown option `--dataset`"));
}

fn time_row(input: &str, ns: f64, target_ns: Option<f64>) -> Row {
    Row {
        stage: "rank",
        input: input.to_owned(),
        value: Quantity::Nanos(ns),
        throughput: Some(Rate::of(390.0, Unit::Items("queries"), ns * 390.0)),
        target: target_ns.map(Target::TimeAtMost),
    }
}

fn rows() -> Vec<Row> {
    vec![
        time_row("query all", 3_120.0, Some(5_000.0)),
        time_row("query all, p99", 61_000.0, Some(50_000.0)),
        Row {
            stage: "text",
            input: "analyze".to_owned(),
            value: Quantity::Nanos(20e6),
            throughput: Some(Rate::of(3e6, Unit::Bytes, 20e6)),
            target: Some(Target::RateAtLeast(100e6, Unit::Bytes)),
        },
        Row {
            stage: "rank",
            input: "index heap all".to_owned(),
            value: Quantity::Bytes(2_950_000),
            throughput: None,
            target: Some(Target::BytesBelow(4_000_000)),
        },
        Row {
            stage: "rank",
            input: "growth".to_owned(),
            value: Quantity::Ratio(1.2),
            throughput: None,
            target: None,
        },
    ]
}

#[test]
fn the_table_has_one_line_per_row_and_marks_targets() {
    let text = table(&rows());
    let cells: Vec<Vec<&str>> =
        text.lines().map(|l| l.trim_matches('|').split('|').map(str::trim).collect()).collect();
    assert_eq!(cells.len(), 2 + 5, "{text}");
    assert_eq!(cells[0], ["stage", "input", "median", "throughput", "target", "met?"]);
    assert_eq!(cells[2], ["rank", "query all", "3.12 us", "321 k queries/s", "<= 5.00 us", "yes"]);
    assert_eq!(cells[3][5], "NO");
    assert_eq!(cells[4][3..], ["150 MB/s", ">= 100 MB/s", "yes"]);
    assert_eq!(cells[5][2..], ["2.95 MB", "-", "< 4.00 MB", "yes"]);
    assert_eq!(cells[6][2..], ["1.20x", "-", "-", "-"]);
    // Every line has the same width.
    assert!(
        text.lines()
            .all(|l| l.chars().count() == text.lines().next().map_or(0, |h| h.chars().count()))
    );
}

#[test]
fn missed_targets_are_loud_and_met_ones_silent() {
    let text = missed_targets(&rows());
    assert!(text.contains("MISSED TARGETS: 1 of 4"), "{text}");
    assert!(text.contains("rank/query all, p99: 61.0 us, target <= 50.0 us"), "{text}");
    assert!(!text.contains("query all:"), "{text}");
    assert_eq!(missed_targets(&rows()[..1]), "");
}

fn entries(items: &[(&str, f64, &str)]) -> BTreeMap<String, Measured> {
    items
        .iter()
        .map(|(k, v, u)| ((*k).to_owned(), Measured { value: *v, unit: (*u).to_owned() }))
        .collect()
}

#[track_caller]
fn check_compare(base: &[(&str, f64, &str)], now: &[(&str, f64, &str)], ok: bool, line: &str) {
    let (lines, passed) = compare(&entries(base), &entries(now));
    assert_eq!(passed, ok, "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains(line)), "no line with `{line}` in {lines:#?}");
}

#[test]
fn only_a_threefold_regression_or_a_changed_row_set_fails() {
    check_compare(&[("a", 100.0, "ns")], &[("a", 299.0, "ns")], true, "ok   a: baseline");
    check_compare(&[("a", 100.0, "ns")], &[("a", 20.0, "ns")], true, "(0.20x)");
    check_compare(&[("a", 100.0, "ns")], &[("a", 300.0, "ns")], false, "FAIL a: baseline");
    check_compare(&[("m", 1e6, "bytes")], &[("m", 3.5e6, "bytes")], false, "now 3.50 MB");
    check_compare(&[("a", 1.0, "ns")], &[], false, "not measured any more");
    check_compare(&[], &[("b", 1.0, "ns")], false, "no baseline entry");
    check_compare(&[("a", 1.0, "ns")], &[("a", 1.0, "bytes")], false, "unit changed");
}

#[test]
fn the_baseline_round_trips_and_skips_ratios() {
    let now = measured(&rows());
    assert_eq!(now.len(), 4, "the ratio row is derived, not checked");
    let text = render_baseline(&now).expect("renders");
    assert!(text.ends_with("}\n"));
    let back = parse_baseline(&text).expect("parses");
    assert_eq!(back.keys().collect::<Vec<_>>(), now.keys().collect::<Vec<_>>());
    assert_eq!(back["rank/index heap all"], Measured { value: 2_950_000.0, unit: "bytes".into() });
    assert!(parse_baseline(r#"{"rows": {"a": {"value": 1, "unit": "s"}}}"#).is_err());
    assert!(parse_baseline("{}").is_err());
}

#[test]
fn the_plot_has_three_panels_and_every_point() {
    let points: Vec<ScalePoint> = [(3_952, 4e6), (10_000, 9e6), (100_000, 95e6)]
        .iter()
        .map(|&(tools, build_ns)| ScalePoint {
            input: format!("{tools}"),
            tools,
            build_ns,
            query_median_ns: 4_000.0,
            query_p99_ns: 30_000.0,
            heap_bytes: tools * 700,
        })
        .collect();
    let svg = scale_svg(&points);
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<polyline").count(), 3);
    assert_eq!(svg.matches("<circle").count(), 9);
    assert_eq!(svg.matches("stroke-dasharray").count(), 3);
    for title in ["build time, median (ms)", "query time, median of 390 (µs)", "index heap (MB)"] {
        assert!(svg.contains(title), "{title}");
    }
    assert!(svg.contains(">95<"), "the 100k build is labelled 95 ms");
}
