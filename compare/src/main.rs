//! `cargo run --release --manifest-path compare/Cargo.toml`: the README's comparison of toolsift
//! with tantivy, the `bm25` crate and plain BM25F on the tuning datasets.
//!
//! Per dataset: load the catalogs as `cargo xtask eval` does, build every engine from them
//! (build time: median of three builds), rank every query's top 10 once (a warm-up pass whose
//! rankings are scored with the eval's own metrics), then time every engine on every query,
//! `--rounds` passes. In each round every engine runs over all queries, the engines in a
//! rotating order (`--interleave`: query by query instead). A query's time is the median of
//! its passes; the table gives the median and 95th percentile of those over the queries. Every
//! timed search must return the ranking of the warm-up pass.
//!
//! The dataset reader and the metrics are xtask's own files (`#[path]` below), so the numbers
//! are computed exactly as `cargo xtask eval` computes them.

// A command-line tool: printing is its output.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[rustfmt::skip]
#[allow(dead_code, unreachable_pub)]
#[path = "../../xtask/src/dataset.rs"]
mod dataset;
#[rustfmt::skip]
#[allow(dead_code, unreachable_pub)]
#[path = "../../xtask/src/metrics.rs"]
mod metrics;
#[rustfmt::skip]
#[allow(dead_code, unreachable_pub)]
#[path = "../../xtask/src/report.rs"]
mod report;


use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use toolsift::catalog::{self, Catalog, ToolKind};

pub(crate) use toolsift_compare::Result;
use toolsift_compare::engines::{self, Bm25Crate, Engine, PlainBm25f, Tantivy, Toolsift};

use crate::dataset::{CatalogKind, Dataset, ToolKey};
use crate::metrics::{QueryScore, Summary};

// The engines rank as deep as the eval's metrics read.
const _: () = assert!(metrics::CUTOFF == toolsift_compare::CUTOFF);

const HELP: &str = "\
toolsift-compare: toolsift beside tantivy, the bm25 crate and plain BM25F

USAGE: cargo run --release --manifest-path compare/Cargo.toml -- [OPTIONS]

OPTIONS:
  --dataset DIR   a dataset folder (repeatable); default: every dataset under xtask/tuning,
                  as `cargo xtask eval` runs them
  --rounds N      timed passes over the queries (default 5)
  --out FILE      also write the tables (Markdown) to FILE
  --engine NAME   only this engine (repeatable): toolsift, toolsift-nocache, plain, tantivy,
                  bm25; default all
  --interleave    time query by query, the engines interleaved (each search runs after the
                  others touched memory), instead of each engine's warm pass over all queries
  -h, --help      this text
";

struct Flags {
    datasets: Vec<PathBuf>,
    rounds: usize,
    out: Option<PathBuf>,
    engines: Vec<String>,
    interleave: bool,
}

fn parse(args: &[String]) -> Result<Option<Flags>> {
    let mut flags = Flags {
        datasets: Vec::new(),
        rounds: 5,
        out: None,
        engines: Vec::new(),
        interleave: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--dataset" => flags.datasets.push(PathBuf::from(value()?)),
            "--rounds" => {
                flags.rounds = value()?.parse().map_err(|_| "--rounds needs a whole number")?;
                if flags.rounds == 0 {
                    return Err("--rounds must be at least 1".into());
                }
            }
            "--interleave" => flags.interleave = true,
            "--out" => flags.out = Some(PathBuf::from(value()?)),
            "--engine" => {
                let name = value()?;
                if !ENGINES.contains(&name.as_str()) {
                    return Err(
                        format!("unknown engine `{name}`: one of {}", ENGINES.join(", ")).into()
                    );
                }
                flags.engines.push(name.clone());
            }
            other => return Err(format!("unknown argument `{other}` (see --help)").into()),
        }
    }
    if flags.datasets.is_empty() {
        let tuning = Path::new(env!("CARGO_MANIFEST_DIR")).join("../xtask/tuning");
        flags.datasets = dataset::discover(&tuning)?;
    }
    Ok(Some(flags))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match parse(&args) {
        Ok(None) => {
            print!("{HELP}");
            Ok(())
        }
        Ok(Some(flags)) => run(&flags),
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One engine's results on one dataset.
struct Row {
    engine: &'static str,
    summary: Option<Summary>,
    build_ms: f64,
    query_us_median: f64,
    query_us_p95: f64,
}

fn run(flags: &Flags) -> Result<()> {
    let mut out = String::new();
    let mut all_rows = Vec::new();
    for dir in &flags.datasets {
        let ds = dataset::load(dir)?;
        let catalog = load_catalog(&ds)?;
        eprintln!("{}: {} tools, {} queries", ds.name, catalog.len(), ds.queries.len());
        let rows = compare(&ds, &catalog, flags)?;
        let table = dataset_table(&ds, &catalog, &rows);
        print!("{table}");
        out.push_str(&table);
        all_rows.push((ds.name.clone(), rows));
    }
    if all_rows.len() > 1 {
        let table = summary_table(&all_rows);
        print!("{table}");
        out.push_str(&table);
    }
    if let Some(path) = &flags.out {
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Loads every catalog of the dataset into one catalog, as `cargo xtask eval` does.
fn load_catalog(ds: &Dataset) -> Result<Catalog> {
    let mut catalog = Catalog::new();
    for c in &ds.catalogs {
        let kind = match c.kind {
            CatalogKind::Mcp => ToolKind::Mcp,
            CatalogKind::OpenApi => ToolKind::OpenApi,
            CatalogKind::Plugin => ToolKind::Plugin,
        };
        let loaded = catalog::load_file(&c.file, kind, &c.server)
            .map_err(|e| format!("{}: {e}", c.file.display()))?;
        catalog.add_server(loaded.server);
    }
    Ok(catalog)
}

/// Builds `build` three times; returns the last engine and the median build time in ms.
fn build3<E>(mut build: impl FnMut() -> Result<E>) -> Result<(E, f64)> {
    let mut times = Vec::new();
    let mut engine = None;
    for _ in 0..3 {
        let start = Instant::now();
        let built = build()?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
        engine = Some(built);
    }
    let engine = engine.ok_or("no build ran")?;
    Ok((engine, report::median_p95(&times).0))
}

/// The engines' keys for `--engine`, in table order.
const ENGINES: [&str; 5] = ["toolsift", "toolsift-nocache", "plain", "tantivy", "bm25"];

fn boxed<E: Engine + 'static>((engine, ms): (E, f64)) -> (Box<dyn Engine>, f64) {
    (Box::new(engine), ms)
}

fn compare(ds: &Dataset, catalog: &Catalog, flags: &Flags) -> Result<Vec<Row>> {
    let (rounds, only, interleave) = (flags.rounds, &flags.engines, flags.interleave);
    let mut engines: Vec<(Box<dyn Engine>, f64)> = Vec::new();
    for &key in ENGINES.iter().filter(|k| only.is_empty() || only.iter().any(|o| o == *k)) {
        engines.push(match key {
            "toolsift" => boxed(build3(|| Toolsift::build(catalog, true))?),
            "toolsift-nocache" => boxed(build3(|| Toolsift::build(catalog, false))?),
            "plain" => boxed(build3(|| PlainBm25f::build(catalog))?),
            "tantivy" => boxed(build3(|| Tantivy::build(catalog))?),
            _ => boxed(build3(|| Ok(Bm25Crate::build(catalog)))?),
        });
    }

    let keys: Vec<ToolKey> =
        engines::tools(catalog).iter().map(|t| ToolKey::new(&t.id.server, &t.id.name)).collect();
    let n_queries = ds.queries.len();

    // Warm-up pass: the rankings that are scored.
    let rankings: Vec<Vec<Vec<usize>>> = engines
        .iter()
        .map(|(e, _)| ds.queries.iter().map(|q| e.search(&q.text).0).collect())
        .collect();
    // The cache changes only the time: both toolsift rows rank alike.
    let with_cache = engines.iter().position(|(e, _)| e.name() == "toolsift");
    let without = engines.iter().position(|(e, _)| e.name() == Toolsift::NO_CACHE);
    if let (Some(a), Some(b)) = (with_cache, without)
        && rankings[a] != rankings[b]
    {
        return Err("toolsift ranks differently with its search cache off".into());
    }

    // Timed passes. Warm (the default): each round runs every engine over all queries, the
    // engines in a rotating order, so an engine's data stays in the CPU caches through its
    // pass. Interleaved: query by query, every engine in a rotating order, so each search
    // starts after the other engines have run.
    let n_engines = engines.len();
    let mut order = Vec::with_capacity(rounds * n_queries * n_engines);
    for round in 0..rounds {
        if interleave {
            for qi in 0..n_queries {
                order.extend((0..n_engines).map(|k| ((qi + round + k) % n_engines, qi)));
            }
        } else {
            for k in 0..n_engines {
                order.extend((0..n_queries).map(|qi| ((round + k) % n_engines, qi)));
            }
        }
    }
    let mut samples = vec![vec![Vec::with_capacity(rounds); n_queries]; n_engines];
    for (ei, qi) in order {
        let q = &ds.queries[qi];
        let (ranks, took) = engines[ei].0.search(&q.text);
        if ranks != rankings[ei][qi] {
            return Err(format!("{} ranked {} differently", engines[ei].0.name(), q.id).into());
        }
        samples[ei][qi].push(took.as_secs_f64() * 1e6);
    }

    let mut rows = Vec::new();
    for (ei, (engine, build_ms)) in engines.iter().enumerate() {
        let per_query: Vec<f64> = samples[ei].iter().map(|s| report::median_p95(s).0).collect();
        let (median, p95) = report::median_p95(&per_query);
        // Relevance of the cache-off row is the toolsift row's: not repeated.
        let summary = (engine.name() != Toolsift::NO_CACHE).then(|| {
            let scores: Vec<QueryScore> = ds
                .queries
                .iter()
                .zip(&rankings[ei])
                .map(|(q, ranks)| {
                    let ranking: Vec<ToolKey> = ranks.iter().map(|&i| keys[i].clone()).collect();
                    metrics::score(&q.relevant, &ranking)
                })
                .collect();
            Summary::of(&scores)
        });
        rows.push(Row {
            engine: engine.name(),
            summary,
            build_ms: *build_ms,
            query_us_median: median,
            query_us_p95: p95,
        });
    }
    Ok(rows)
}

fn metric(s: Option<&Summary>, name: &str) -> String {
    s.and_then(|s| s.get(name)).map_or_else(|| "–".to_owned(), |v| format!("{v:.3}"))
}

fn dataset_table(ds: &Dataset, catalog: &Catalog, rows: &[Row]) -> String {
    let answerable = ds.queries.iter().filter(|q| q.is_answerable()).count();
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\n`{}`: {} tools, {} answerable and {} no-answer queries\n",
        ds.name,
        catalog.len(),
        answerable,
        ds.queries.len() - answerable
    );
    let _ = writeln!(
        t,
        "| engine | nDCG@10 | hit@1 | hit@5 | MRR@10 | abstain | query median | query p95 | build |"
    );
    let _ = writeln!(t, "|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for r in rows {
        let s = r.summary.as_ref();
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {:.1} µs | {:.1} µs | {:.1} ms |",
            r.engine,
            metric(s, "nDCG@10"),
            metric(s, "hit@1"),
            metric(s, "hit@5"),
            metric(s, "MRR@10"),
            metric(s, "abstain"),
            r.query_us_median,
            r.query_us_p95,
            r.build_ms,
        );
    }
    t
}

fn summary_table(all: &[(String, Vec<Row>)]) -> String {
    let mut t = String::from("\nnDCG@10 by dataset, query median in µs in brackets\n\n| engine |");
    for (name, _) in all {
        let _ = write!(t, " `{name}` |");
    }
    t.push_str("\n|---|");
    for _ in all {
        t.push_str("--:|");
    }
    t.push('\n');
    let Some((_, first)) = all.first() else { return t };
    for (ei, row) in first.iter().enumerate() {
        let _ = write!(t, "| {} |", row.engine);
        for (_, rows) in all {
            let r = &rows[ei];
            // A dataset of no-answer queries only (`rephrase`) has no nDCG: its abstain rate.
            let s = r.summary.as_ref();
            let value = match s.map(|s| s.n_answerable) {
                Some(0) => format!("abstain {}", metric(s, "abstain")),
                _ => metric(s, "nDCG@10"),
            };
            let _ = write!(t, " {value} ({:.1}) |", r.query_us_median);
        }
        t.push('\n');
    }
    t
}
