//! `bench-suite`, the program behind `cargo xtask bench`: measure every performance target of
//! issue #8 in-process ([`benches::run_suite`]), print one summary table, shout about missed
//! targets, and fail only on a 3x regression against the committed `benches/baseline.json`.
//!
//! `cargo xtask bench` checks its options and runs this binary in release mode
//! (`cargo run --release -p benches --bin bench-suite -- OPTIONS`), so that nothing in the
//! workspace depends on the `benches` package.
//!
//! Missed targets do not fail: CI machines are shared and noisy, and a target is a goal, not a
//! gate. A regression of 3x or worse on any time or size is no noise, so `--check` fails on it.
//! `--out DIR` writes `results.json` and `scale.svg`, the plot of build time, query time and
//! index memory against catalog size that docs/performance.md shows.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use benches::{Quantity, Report, Row, ScalePoint, SuiteOptions};
use serde_json::{Value, json};

/// Errors end the program with a message.
type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The options (see [`USAGE`]).
#[derive(Debug, Clone, PartialEq, Eq)]
struct BenchFlags {
    /// Timing rounds.
    rounds: usize,
    /// Compare with the committed baseline.
    check: bool,
    /// Rewrite the committed baseline.
    bless: bool,
    /// Where to write results.json and scale.svg.
    out: Option<PathBuf>,
}

/// The command line, for errors.
const USAGE: &str = "usage: bench-suite [--rounds N] [--check] [--bless] [--out DIR] \
(normally run through `cargo xtask bench`; see `cargo xtask help`)";

/// Parses the options after the program name.
fn parse_flags(args: &[String]) -> Result<BenchFlags> {
    let mut flags = BenchFlags { rounds: 5, check: false, bless: false, out: None };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("`{name}` needs a value; {USAGE}"))
        };
        match name {
            "--rounds" => {
                let v = value()?;
                flags.rounds = match v.parse::<usize>() {
                    Ok(n) if n >= 1 => n,
                    _ => {
                        return Err(
                            format!("`--rounds` must be a count of at least 1, not `{v}`").into()
                        );
                    }
                };
            }
            "--out" => flags.out = Some(PathBuf::from(value()?)),
            "--check" | "--bless" if inline.is_some() => {
                return Err(format!("`{name}` takes no value").into());
            }
            "--check" => flags.check = true,
            "--bless" => flags.bless = true,
            other => return Err(format!("unknown option `{other}`; {USAGE}").into()),
        }
    }
    Ok(flags)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse_flags(&args).and_then(|flags| run(&flags)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `value` as pretty JSON with sorted keys (serde_json's `preserve_order` is on) and a
/// final newline.
fn write_json(path: &Path, value: Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(&sorted(value))?;
    text.push('\n');
    write(path, &text)
}

/// `value` with every object's keys sorted.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// Writes `text` to `path`, creating the parent folder.
fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()).into())
}

/// The commit the work tree is on, and whether it has uncommitted changes; `None` without git.
fn git_revision(dir: &Path) -> Option<(String, bool)> {
    let run = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).current_dir(dir).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let rev = run(&["rev-parse", "HEAD"])?;
    let dirty =
        run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some((rev, dirty))
}

/// A time or size this many times its baseline, or more, fails `--check`.
const REGRESSION_FACTOR: f64 = 3.0;

/// The committed baseline.
fn baseline_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("baseline.json")
}

/// Measures, prints, and checks or blesses.
fn run(flags: &BenchFlags) -> Result<()> {
    let options = SuiteOptions { rounds: flags.rounds };
    let load = load_average();
    println!(
        "cargo xtask bench: {} rounds, {} cores, load average {}",
        options.rounds,
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        load.as_deref().unwrap_or("unknown"),
    );
    let started = std::time::Instant::now();
    let report = benches::run_suite(options, &mut |what| println!("  measuring {what}"));
    println!("measured in {:.1} s\n", started.elapsed().as_secs_f64());
    print!("{}", table(&report.rows));
    let missed = missed_targets(&report.rows);
    if missed.is_empty() {
        println!("\nevery target met");
    } else {
        println!("\n{missed}");
    }
    if let Some(dir) = &flags.out {
        let git = git_revision(Path::new(env!("CARGO_MANIFEST_DIR")));
        write_json(&dir.join("results.json"), results_json(&report, load, git))?;
        write(&dir.join("scale.svg"), &scale_svg(&report.scale))?;
        println!("wrote {0}/results.json and {0}/scale.svg", dir.display());
    }
    let path = baseline_path();
    if flags.check {
        let base = read_baseline(&path)?;
        let (lines, ok) = compare(&base, &measured(&report.rows));
        println!("\nregression check against {} (fails at {REGRESSION_FACTOR}x):", path.display());
        for line in lines {
            println!("  {line}");
        }
        if !ok {
            return Err(format!("a time or size regressed {REGRESSION_FACTOR}x or more").into());
        }
        println!("regression check passed");
    }
    if flags.bless {
        write(&path, &render_baseline(&measured(&report.rows))?)?;
        println!("\nwrote {}", path.display());
    }
    Ok(())
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`), where the system has them.
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3).then(|| fields.join(" "))
}

/// The summary table: stage, input, median, throughput, target, met?.
fn table(rows: &[Row]) -> String {
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.stage.to_owned(),
                r.input.clone(),
                r.value.to_string(),
                r.throughput.map_or_else(|| "-".to_owned(), |t| t.to_string()),
                r.target.map_or_else(|| "-".to_owned(), |t| t.to_string()),
                match r.met() {
                    Some(true) => "yes".to_owned(),
                    Some(false) => "NO".to_owned(),
                    None => "-".to_owned(),
                },
            ]
        })
        .collect();
    let head = ["stage", "input", "median", "throughput", "target", "met?"];
    let mut widths = head.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: [&str; 6]| {
        let mut out = String::from("|");
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            // Text columns align left, numbers right.
            let _ = if i < 2 { write!(out, " {c:<w$} |") } else { write!(out, " {c:>w$} |") };
        }
        out.push('\n');
        out
    };
    let mut out = line(head);
    out.push('|');
    for (i, w) in widths.iter().enumerate() {
        let _ = if i < 2 {
            write!(out, "{}|", "-".repeat(w + 2))
        } else {
            write!(out, "{}:|", "-".repeat(w + 1))
        };
    }
    out.push('\n');
    for row in &cells {
        out.push_str(&line(row.each_ref().map(String::as_str)));
    }
    out
}

/// A loud block naming every missed target; empty when all are met.
fn missed_targets(rows: &[Row]) -> String {
    let missed: Vec<&Row> = rows.iter().filter(|r| r.met() == Some(false)).collect();
    if missed.is_empty() {
        return String::new();
    }
    let bar = "!".repeat(78);
    let mut out = format!(
        "{bar}\n!!! MISSED TARGETS: {} of {} (reported, not failed: timings on shared machines are noisy)\n",
        missed.len(),
        rows.iter().filter(|r| r.target.is_some()).count()
    );
    for r in missed {
        let target = r.target.map(|t| t.to_string()).unwrap_or_default();
        let value = match (r.value, r.throughput) {
            (Quantity::Nanos(_), Some(t)) if target.starts_with('>') => t.to_string(),
            _ => r.value.to_string(),
        };
        let _ = writeln!(out, "!!!   {}: {value}, target {target}", r.key());
    }
    out.push_str(&bar);
    out.push('\n');
    out
}

/// A baseline value: a time in nanoseconds or a size in bytes.
#[derive(Debug, Clone, PartialEq)]
struct Measured {
    value: f64,
    unit: String,
}

/// The rows the regression check covers (times and sizes; ratios are derived from times),
/// keyed by [`Row::key`].
fn measured(rows: &[Row]) -> BTreeMap<String, Measured> {
    rows.iter()
        .filter_map(|r| {
            let (value, unit) = match r.value {
                Quantity::Nanos(ns) => (ns, "ns"),
                Quantity::Bytes(b) => (b as f64, "bytes"),
                Quantity::Ratio(_) => return None,
            };
            Some((r.key(), Measured { value, unit: unit.to_owned() }))
        })
        .collect()
}

/// Reads the baseline.
fn read_baseline(path: &Path) -> Result<BTreeMap<String, Measured>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!("cannot read {}: {e} (write it with `cargo xtask bench --bless`)", path.display())
    })?;
    parse_baseline(&text).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn parse_baseline(text: &str) -> Result<BTreeMap<String, Measured>> {
    let doc: Value = serde_json::from_str(text)?;
    let rows = doc.get("rows").and_then(Value::as_object).ok_or("no `rows` object")?;
    rows.iter()
        .map(|(key, entry)| {
            let value = entry.get("value").and_then(Value::as_f64);
            let unit = entry.get("unit").and_then(Value::as_str);
            match (value, unit) {
                (Some(value), Some(unit @ ("ns" | "bytes"))) => {
                    Ok((key.clone(), Measured { value, unit: unit.to_owned() }))
                }
                _ => {
                    Err(format!("row `{key}`: needs a number `value` and `unit` ns or bytes")
                        .into())
                }
            }
        })
        .collect()
}

/// The baseline file's text: sorted keys, two-space indent, final newline.
fn render_baseline(rows: &BTreeMap<String, Measured>) -> Result<String> {
    let entries: serde_json::Map<String, Value> = rows
        .iter()
        .map(|(k, m)| (k.clone(), json!({"value": m.value.round(), "unit": m.unit})))
        .collect();
    let doc = json!({
        "about": "Performance baseline of `cargo xtask bench`: median times (ns) and sizes \
                  (bytes) per row. `--check` fails when a row is 3x its baseline or worse, or \
                  when the rows and the baseline differ. Rewrite with `cargo xtask bench \
                  --bless` on a quiet machine and commit it with the table in the message.",
        "rows": entries,
    });
    let mut text = serde_json::to_string_pretty(&sorted(doc))?;
    text.push('\n');
    Ok(text)
}

/// Compares a run with the baseline; returns one line per row and whether the check passed.
/// A row missing on either side fails: the baseline must be re-blessed when rows change.
fn compare(
    base: &BTreeMap<String, Measured>,
    now: &BTreeMap<String, Measured>,
) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut ok = true;
    for (key, was) in base {
        let Some(cur) = now.get(key) else {
            lines.push(format!("FAIL {key}: not measured any more (re-bless the baseline)"));
            ok = false;
            continue;
        };
        if cur.unit != was.unit {
            lines.push(format!("FAIL {key}: unit changed from {} to {}", was.unit, cur.unit));
            ok = false;
            continue;
        }
        let factor = if was.value > 0.0 { cur.value / was.value } else { 1.0 };
        let pass = factor < REGRESSION_FACTOR;
        ok &= pass;
        let show = |m: &Measured| match m.unit.as_str() {
            "ns" => Quantity::Nanos(m.value).to_string(),
            _ => Quantity::Bytes(m.value as u64).to_string(),
        };
        lines.push(format!(
            "{} {key}: baseline {}, now {} ({factor:.2}x)",
            if pass { "ok  " } else { "FAIL" },
            show(was),
            show(cur)
        ));
    }
    for key in now.keys().filter(|k| !base.contains_key(*k)) {
        lines.push(format!("FAIL {key}: no baseline entry (run `cargo xtask bench --bless`)"));
        ok = false;
    }
    (lines, ok)
}

/// results.json: every row with its numbers, the scale points, and the conditions of the run.
fn results_json(report: &Report, load: Option<String>, git: Option<(String, bool)>) -> Value {
    let rows: Vec<Value> = report
        .rows
        .iter()
        .map(|r| {
            let (value, unit) = match r.value {
                Quantity::Nanos(ns) => (ns, "ns"),
                Quantity::Bytes(b) => (b as f64, "bytes"),
                Quantity::Ratio(x) => (x, "ratio"),
            };
            json!({
                "stage": r.stage,
                "input": r.input,
                "value": value,
                "unit": unit,
                "shown": r.value.to_string(),
                "throughput": r.throughput.map(|t| t.to_string()),
                "target": r.target.map(|t| t.to_string()),
                "met": r.met(),
            })
        })
        .collect();
    let scale: Vec<Value> = report
        .scale
        .iter()
        .map(|p| {
            json!({
                "input": p.input,
                "tools": p.tools,
                "build_ns": p.build_ns.round(),
                "query_median_ns": p.query_median_ns.round(),
                "query_p99_ns": p.query_p99_ns.round(),
                "heap_bytes": p.heap_bytes,
            })
        })
        .collect();
    json!({
        "rounds": report.options.rounds,
        "load_average": load,
        "git": git.map(|(rev, dirty)| json!({"revision": rev, "dirty": dirty})),
        "rows": rows,
        "scale": scale,
    })
}

/// One panel of the scale plot: a title, a unit, and one value per point.
struct Panel<'a> {
    title: &'a str,
    unit: &'a str,
    values: Vec<f64>,
    /// Draw the line through the origin and the first synthetic point: what linear growth
    /// would give.
    linear_reference: bool,
}

/// The scale plot: build time, query median (and p99) and index heap against tools, one panel
/// each, with a dashed line for linear growth from the smallest synthetic catalog.
fn scale_svg(points: &[ScalePoint]) -> String {
    let tools: Vec<f64> = points.iter().map(|p| p.tools as f64).collect();
    let panels = [
        Panel {
            title: "build time, median",
            unit: "ms",
            values: points.iter().map(|p| p.build_ns / 1e6).collect(),
            linear_reference: true,
        },
        Panel {
            title: "query time, median of 390",
            unit: "µs",
            values: points.iter().map(|p| p.query_median_ns / 1e3).collect(),
            linear_reference: true,
        },
        Panel {
            title: "index heap",
            unit: "MB",
            values: points.iter().map(|p| p.heap_bytes as f64 / 1e6).collect(),
            linear_reference: true,
        },
    ];
    let (pw, ph, left, top, bottom) = (300.0, 240.0, 56.0, 40.0, 44.0);
    let width = pw * panels.len() as f64;
    let height = ph + 36.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let x_max = tools.iter().copied().fold(0.0, f64::max).max(1.0);
    for (i, panel) in panels.iter().enumerate() {
        let x0 = i as f64 * pw + left;
        let (plot_w, plot_h) = (pw - left - 16.0, ph - top - bottom + 20.0);
        let y_base = top + plot_h;
        let y_max = nice_ceiling(panel.values.iter().copied().fold(0.0, f64::max) * 1.1);
        let sx = |x: f64| x0 + x / x_max * plot_w;
        let sy = |y: f64| y_base - y / y_max * plot_h;
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"18\" text-anchor=\"middle\" font-size=\"13\">{} ({})</text>",
            x0 + plot_w / 2.0,
            panel.title,
            panel.unit
        );
        // Axes, ticks and grid.
        for k in 0..=4 {
            let v = y_max * f64::from(k) / 4.0;
            let y = sy(v);
            let _ = writeln!(
                out,
                "<line x1=\"{x0:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                x0 + plot_w,
                x0 - 4.0,
                y + 4.0,
                tick(v)
            );
            let xv = x_max * f64::from(k) / 4.0;
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}k</text>",
                sx(xv),
                y_base + 14.0,
                tick(xv / 1e3)
            );
        }
        let _ = writeln!(
            out,
            "<line x1=\"{x0:.1}\" y1=\"{y_base:.1}\" x2=\"{:.1}\" y2=\"{y_base:.1}\" stroke=\"black\"/>\
             <line x1=\"{x0:.1}\" y1=\"{top:.1}\" x2=\"{x0:.1}\" y2=\"{y_base:.1}\" stroke=\"black\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">tools in the catalog</text>",
            x0 + plot_w,
            x0 + plot_w / 2.0,
            y_base + 30.0
        );
        // The linear reference through the first synthetic point (index 1; index 0 is `all`).
        if panel.linear_reference
            && let (Some(&t), Some(&v)) = (tools.get(1), panel.values.get(1))
            && t > 0.0
        {
            let end = (v / t * x_max).min(y_max);
            let x_end = end / (v / t);
            let _ = writeln!(
                out,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#999\" \
                 stroke-dasharray=\"4 3\"/>",
                sx(0.0),
                sy(0.0),
                sx(x_end),
                sy(end)
            );
        }
        let path: Vec<String> = tools
            .iter()
            .zip(&panel.values)
            .map(|(&x, &y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>",
            path.join(" ")
        );
        for (j, (&x, &y)) in tools.iter().zip(&panel.values).enumerate() {
            let color = if j == 0 { "#d62728" } else { "#1f77b4" };
            // Labels sit right of a point, except at the right edge; the first (real) point's
            // label goes below its neighbour's.
            let (dx, anchor) = if x >= x_max * 0.8 { (-6.0, "end") } else { (5.0, "start") };
            let dy = if j == 0 { 14.0 } else { -6.0 };
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{color}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"{anchor}\">{}</text>",
                sx(x),
                sy(y),
                sx(x) + dx,
                sy(y) + dy,
                tick(y)
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"8\" y=\"{:.1}\" font-size=\"10\" fill=\"#555\">red: the 70 real catalogs \
         (all); blue: synthetic catalogs from their vocabulary; dashed: linear growth from the \
         smallest synthetic catalog</text>",
        height - 6.0
    );
    out.push_str("</svg>\n");
    out
}

/// The smallest of 1, 2, 2.5, 5 times a power of ten at or above `v` (1 for `v <= 0`).
fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let power = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * power).find(|&c| c >= v).unwrap_or(10.0 * power)
}

/// A tick label: up to three significant digits, no trailing zeros.
fn tick(v: f64) -> String {
    let text = if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests;
