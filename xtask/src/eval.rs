//! `cargo xtask eval`: search every query of the tuning datasets and measure the ranking.
//!
//! Per dataset: load the catalogs into one [`Catalog`], build a [`ToolSearch`] (timed), search
//! every query for its top 10 through the [`SearchEngine`] trait, score the rankings with
//! [`metrics`], run the [`scale`] check (a dataset of several servers) and the [`groups`]
//! report (a dataset with groups of phrasings), print the tables,
//! and optionally write files, print failures, check or bless the baseline.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Value, json};
use toolsift::catalog::{self, Catalog, ToolKind};
use toolsift::{SearchEngine, ToolId, ToolSearch};

use crate::params;

use crate::Result;
use crate::baseline::{self, Entry};
use crate::dataset::{self, CatalogKind, Dataset, Query, ToolKey};
use crate::flags::EvalFlags;
use crate::groups::{self, GroupReport};
use crate::metrics::{self, CUTOFF, QueryScore, Summary};
use crate::report;
use crate::scale::{self, ScaleCheck};

/// The xtask folder (holds `tuning/` and `baseline.json`).
fn xtask_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cargo xtask eval`.
pub(crate) fn run(flags: &EvalFlags) -> Result<()> {
    let mut flags = flags.clone();
    let mut settings = params::from_env()?;
    settings.append(&mut flags.settings);
    if flags.bless && !settings.is_empty() {
        return Err(format!("`--bless` records the defaults: unset {}", params::ENV).into());
    }
    // Fail on a bad setting before any dataset is loaded.
    params::builder(&settings)?;
    flags.settings = settings;
    let flags = &flags;
    let dirs = if flags.datasets.is_empty() {
        let found = dataset::discover(&xtask_dir().join("tuning"))?;
        if found.is_empty() {
            return Err("no dataset folder under xtask/tuning".into());
        }
        found
    } else {
        for dir in &flags.datasets {
            if !dataset::is_dataset_dir(dir) {
                return Err(format!("{} has no dataset.json", dir.display()).into());
            }
        }
        flags.datasets.clone()
    };
    let git = report::git_revision(&xtask_dir());
    let mut results = Vec::new();
    let mut names = BTreeSet::new();
    for dir in &dirs {
        let ds = dataset::load(dir)?;
        let ds = match flags.typos {
            Some(seed) => crate::typos::with_typos(&ds, seed),
            None => ds,
        };
        if !names.insert(ds.name.clone()) {
            return Err(format!("two datasets are named `{}`", ds.name).into());
        }
        let result = evaluate(&ds, flags)?;
        print_dataset(&ds, &result, flags);
        if let Some(out) = &flags.out {
            write_outputs(&out.join(&ds.name), &ds, &result, flags, git.as_ref())?;
        }
        results.push((ds, result));
    }
    if results.len() > 1 {
        let rows: Vec<(String, Summary)> =
            results.iter().map(|(ds, r)| (ds.name.clone(), r.summary)).collect();
        println!("\n{}", report::table("dataset", &rows));
        println!(
            "scale check (a relevant tool in the top {} with only its servers connected, out \
             of it with all):",
            scale::TOP
        );
        for (ds, r) in &results {
            if let Some(c) = &r.scale {
                println!(
                    "  {:<16} {:>4} of {:>4} ({:.1}%)",
                    ds.name,
                    c.lost(),
                    c.alone_in_top(),
                    100.0 * c.lost_share()
                );
            }
        }
        if results.iter().any(|(_, r)| r.groups.is_some()) {
            println!("groups of phrasings:");
            for (ds, r) in &results {
                for line in r.groups.iter().flat_map(GroupReport::lines) {
                    println!("  {:<16} {line}", ds.name);
                }
            }
        }
    }
    let baseline_path = xtask_dir().join("baseline.json");
    if flags.check {
        check(&baseline_path, &results)?;
    }
    if flags.bless {
        bless(&baseline_path, &results)?;
    }
    Ok(())
}

/// Everything measured on one dataset.
struct Evaluation {
    tools: usize,
    diagnostics: usize,
    unknown_labels: Vec<(String, ToolKey)>,
    rankings: Vec<Vec<ToolKey>>,
    scores: Vec<QueryScore>,
    summary: Summary,
    by_tag: BTreeMap<String, Summary>,
    build_ms: f64,
    query_us_median: f64,
    query_us_p95: f64,
    parameters: BTreeMap<String, Value>,
    failures: Vec<String>,
    /// The scale check; `None` for a dataset of one server or without answerable queries.
    scale: Option<ScaleCheck>,
    /// The group report; `None` for a dataset without groups.
    groups: Option<GroupReport>,
}

fn evaluate(ds: &Dataset, flags: &EvalFlags) -> Result<Evaluation> {
    let (catalog, diagnostics) = load_catalog(ds)?;
    let tools = catalog.len();
    let known: BTreeSet<ToolKey> =
        catalog.tools().map(|(_, t)| ToolKey::new(&t.id.server, &t.id.name)).collect();
    let unknown_labels = ds
        .queries
        .iter()
        .flat_map(|q| q.relevant.keys().map(move |k| (q.id.clone(), k.clone())))
        .filter(|(_, k)| !known.contains(k))
        .collect();

    // Build: from loaded tools to a ready index, timed `rounds` times (median kept).
    let mut build_ms = Vec::with_capacity(flags.rounds);
    let mut search = None;
    for _ in 0..flags.rounds {
        let copy = catalog.clone();
        let start = Instant::now();
        let built = params::builder(&flags.settings)?.build(copy)?;
        build_ms.push(start.elapsed().as_secs_f64() * 1e3);
        search = Some(built);
    }
    let search = search.ok_or("no build round ran")?;
    let (build_ms, _) = report::median_p95(&build_ms);

    let engine: &dyn SearchEngine = &search;
    let rankings: Vec<Vec<ToolKey>> = ds.queries.iter().map(|q| ranking(engine, &q.text)).collect();

    // Query timing: one search call, every query, `rounds` passes.
    let mut samples = Vec::with_capacity(ds.queries.len() * flags.rounds);
    for _ in 0..flags.rounds {
        for q in &ds.queries {
            let start = Instant::now();
            let results = engine.search(&q.text, CUTOFF);
            samples.push(start.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(results);
        }
    }
    let (query_us_median, query_us_p95) = report::median_p95(&samples);

    let scores: Vec<QueryScore> =
        ds.queries.iter().zip(&rankings).map(|(q, r)| metrics::score(&q.relevant, r)).collect();
    let summary = Summary::of(&scores);
    let mut tagged: BTreeMap<&str, Vec<QueryScore>> = BTreeMap::new();
    for (q, s) in ds.queries.iter().zip(&scores) {
        for tag in &q.tags {
            tagged.entry(tag).or_default().push(*s);
        }
    }
    let by_tag = tagged.into_iter().map(|(t, s)| (t.to_owned(), Summary::of(&s))).collect();
    let failures = failures(engine, ds, &rankings, &scores, flags.failures);
    let scale = scale::check(ds, &catalog, &rankings, &flags.settings)?;
    let groups = groups::report(&ds.queries, &scores);
    Ok(Evaluation {
        tools,
        diagnostics,
        unknown_labels,
        rankings,
        scores,
        summary,
        by_tag,
        build_ms,
        query_us_median,
        query_us_p95,
        parameters: parameters(&search),
        failures,
        scale,
        groups,
    })
}

/// The top 10 of `query`, as dataset keys.
fn ranking(engine: &dyn SearchEngine, query: &str) -> Vec<ToolKey> {
    engine
        .search(query, CUTOFF)
        .hits()
        .iter()
        .map(|h| ToolKey::new(&h.tool().server, &h.tool().name))
        .collect()
}

/// Loads every catalog of the dataset into one catalog; returns it and the diagnostic count.
fn load_catalog(ds: &Dataset) -> Result<(Catalog, usize)> {
    let mut catalog = Catalog::new();
    let mut diagnostics = 0;
    for c in &ds.catalogs {
        let kind = match c.kind {
            CatalogKind::Mcp => ToolKind::Mcp,
            CatalogKind::OpenApi => ToolKind::OpenApi,
            CatalogKind::Plugin => ToolKind::Plugin,
        };
        let loaded = catalog::load_file(&c.file, kind, &c.server)
            .map_err(|e| format!("{}: {e}", c.file.display()))?;
        diagnostics += loaded.diagnostics.len();
        diagnostics += catalog.add_server(loaded.server).len();
    }
    Ok((catalog, diagnostics))
}

/// The settings the run used, for report.json.
fn parameters(search: &ToolSearch) -> BTreeMap<String, Value> {
    let config = search.index_config();
    let mut p = BTreeMap::new();
    for f in config.fields() {
        p.insert(format!("field.{}.weight", f.name()), json!(f.weight()));
        p.insert(format!("field.{}.b", f.name()), json!(f.b()));
    }
    p.insert("k1".to_owned(), json!(config.k1()));
    for r in [
        toolsift::rank::Relation::Stem,
        toolsift::rank::Relation::Prefix,
        toolsift::rank::Relation::Expansion,
        toolsift::rank::Relation::Typo,
    ] {
        p.insert(format!("relation.{r:?}.weight"), json!(config.relation_weight(r)));
    }
    p.insert("prefix_min_chars".to_owned(), json!(config.prefix_min_chars()));
    p.insert("typo_min_chars".to_owned(), json!(config.typo_min_chars()));
    p.insert("expander".to_owned(), json!(search.index().expander().is_some()));
    p.insert("gate".to_owned(), json!(config.gate()));
    p.insert(
        "coverage".to_owned(),
        config
            .coverage()
            .map_or(Value::Null, |c| json!({"min_terms": c.min_terms, "fraction": c.fraction})),
    );
    p.insert("min_answerable".to_owned(), json!(config.min_answerable()));
    p.insert("min_relative_score".to_owned(), json!(config.min_relative_score()));
    p.insert("max_query_terms".to_owned(), json!(config.max_query_terms()));
    p.insert("fields.max_enum_values".to_owned(), json!(search.max_enum_values()));
    p.insert("action_mismatch".to_owned(), json!(search.action_mismatch()));
    p.insert("service_mismatch".to_owned(), json!(search.service_mismatch()));
    p.insert("implied_words".to_owned(), json!(search.implied_words()));
    p.insert("limit".to_owned(), json!(CUTOFF));
    p
}

fn print_dataset(ds: &Dataset, r: &Evaluation, flags: &EvalFlags) {
    println!(
        "\n== {}: {} tools from {} catalogs ({} diagnostics), {} queries; build {:.2} ms, \
         query median {:.1} us, p95 {:.1} us",
        ds.name,
        r.tools,
        ds.catalogs.len(),
        r.diagnostics,
        ds.queries.len(),
        r.build_ms,
        r.query_us_median,
        r.query_us_p95,
    );
    if !r.unknown_labels.is_empty() {
        println!(
            "warning: {} labels name tools the catalog does not have, e.g. {} in {}",
            r.unknown_labels.len(),
            r.unknown_labels[0].1,
            r.unknown_labels[0].0
        );
    }
    let mut rows = vec![(ds.name.clone(), r.summary)];
    if flags.by_tag {
        rows.extend(r.by_tag.iter().map(|(t, s)| (format!("  {t}"), *s)));
    }
    print!("{}", report::table("dataset", &rows));
    for line in r.groups.iter().flat_map(GroupReport::lines) {
        println!("{line}");
    }
    if let Some(scale) = &r.scale {
        println!("{}", scale.line());
        if flags.failures > 0 {
            for line in scale.lost_lines().iter().take(flags.failures) {
                println!("  lost to scale: {line}");
            }
        }
    }
    for f in &r.failures {
        print!("{f}");
    }
}

/// The `n` worst queries, rendered: lowest quality first (nDCG@10; for a no-answer query 0 when
/// it did not abstain), answerable before no-answer at equal quality, then by id.
fn failures(
    search: &dyn SearchEngine,
    ds: &Dataset,
    rankings: &[Vec<ToolKey>],
    scores: &[QueryScore],
    n: usize,
) -> Vec<String> {
    let mut order: Vec<usize> =
        (0..ds.queries.len()).filter(|&i| scores[i].quality() < 1.0).collect();
    order.sort_by(|&a, &b| {
        scores[a]
            .quality()
            .total_cmp(&scores[b].quality())
            .then_with(|| ds.queries[b].is_answerable().cmp(&ds.queries[a].is_answerable()))
            .then_with(|| ds.queries[a].id.cmp(&ds.queries[b].id))
    });
    order
        .into_iter()
        .take(n)
        .enumerate()
        .map(|(i, qi)| failure(search, i + 1, &ds.queries[qi], &rankings[qi], &scores[qi]))
        .collect()
}

fn failure(
    search: &dyn SearchEngine,
    nth: usize,
    q: &Query,
    got: &[ToolKey],
    s: &QueryScore,
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let what = match s {
        QueryScore::Answerable(a) => format!("nDCG@10 {:.3}", a.ndcg10),
        QueryScore::NoAnswer { .. } => "no answer expected".to_owned(),
    };
    let _ = writeln!(out, "\n#{nth} {} [{}] {what}: {:?}", q.id, q.tags.join(", "), q.text);
    let mut expected: Vec<(&ToolKey, u32)> = q.relevant.iter().map(|(k, g)| (k, *g)).collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let expected: Vec<String> = expected.iter().map(|(k, g)| format!("{k} ({g})")).collect();
    let _ = writeln!(
        out,
        "   expected: {}",
        if expected.is_empty() { "nothing".to_owned() } else { expected.join(", ") }
    );
    if got.is_empty() {
        let why = search.search(&q.text, CUTOFF);
        let _ = writeln!(out, "   got:      nothing ({})", why.refusal_text());
        return out;
    }
    let got_text: Vec<String> = got
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let mark = q.relevant.get(k).map_or(String::new(), |g| format!(" ({g})"));
            format!("{}. {k}{mark}", i + 1)
        })
        .collect();
    let _ = writeln!(out, "   got:      {}", got_text.join("  "));
    let top_grade = q.relevant.values().copied().max().unwrap_or(0);
    if let Some(wrong) = got.iter().find(|k| q.relevant.get(*k) != Some(&top_grade)) {
        let id = ToolId::new(wrong.server.clone(), wrong.tool.clone());
        let _ = writeln!(out, "   top wrong hit {wrong}:");
        match search.explain_text(&q.text, &id) {
            Some(e) => {
                for line in e.lines() {
                    let _ = writeln!(out, "     {line}");
                }
            }
            None => {
                let _ = writeln!(out, "     (no explanation)");
            }
        }
    }
    out
}

fn write_outputs(
    dir: &Path,
    ds: &Dataset,
    r: &Evaluation,
    flags: &EvalFlags,
    git: Option<&(String, bool)>,
) -> Result<()> {
    let mut lines = String::new();
    for (q, ranking) in ds.queries.iter().zip(&r.rankings) {
        lines.push_str(&report::ranking_line(&q.id, ranking));
        lines.push('\n');
    }
    report::write(&dir.join("rankings.jsonl"), &lines)?;
    let timing = json!({
        "system": "toolsift",
        "tools": r.tools,
        "queries": ds.queries.len(),
        "build_ms": round3(r.build_ms),
        "query_us_median": round3(r.query_us_median),
        "query_us_p95": round3(r.query_us_p95),
    });
    report::write_json(&dir.join("timing.json"), timing.clone())?;
    let by_tag: serde_json::Map<String, Value> =
        r.by_tag.iter().map(|(t, s)| (t.clone(), report::summary_json(s))).collect();
    let per_query: serde_json::Map<String, Value> =
        ds.queries.iter().zip(&r.scores).map(|(q, s)| (q.id.clone(), json!(s.quality()))).collect();
    let report_json = json!({
        "dataset": {
            "name": ds.name,
            "dir": ds.dir.display().to_string(),
            "content_hash": ds.content_hash,
            "catalogs": ds.catalogs.len(),
            "tools": r.tools,
            "catalog_diagnostics": r.diagnostics,
            "queries": ds.queries.len(),
            "unknown_labels": r.unknown_labels.len(),
        },
        "git": git.map_or(Value::Null, |(rev, dirty)| json!({"revision": rev, "dirty": dirty})),
        "parameters": r.parameters,
        "rounds": flags.rounds,
        "metrics": report::summary_json(&r.summary),
        "by_tag": by_tag,
        "per_query_quality": per_query,
        "scale_check": r.scale.as_ref().map_or(Value::Null, ScaleCheck::to_json),
        "groups": r.groups.map_or(Value::Null, GroupReport::to_json),
        "timing": timing,
    });
    report::write_json(&dir.join("report.json"), report_json)
}

/// Timings to a thousandth of their unit: finer digits are noise.
fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn check(path: &Path, results: &[(Dataset, Evaluation)]) -> Result<()> {
    let base = baseline::read(path)?;
    let mut all_ok = true;
    println!("\nbaseline check against {} (tolerance {}):", path.display(), baseline::TOLERANCE);
    for (ds, r) in results {
        let current = Entry::of(&ds.content_hash, &r.summary, r.groups.as_ref());
        let (lines, ok) = baseline::compare(&ds.name, base.get(&ds.name), &current);
        for line in lines {
            println!("  {line}");
        }
        all_ok &= ok;
    }
    if all_ok {
        println!("baseline check passed");
        Ok(())
    } else {
        Err("baseline check failed".into())
    }
}

fn bless(path: &Path, results: &[(Dataset, Evaluation)]) -> Result<()> {
    let mut base = baseline::read(path)?;
    for (ds, r) in results {
        base.insert(ds.name.clone(), Entry::of(&ds.content_hash, &r.summary, r.groups.as_ref()));
    }
    report::write(path, &baseline::render(&base)?)?;
    println!("\nwrote {}", path.display());
    Ok(())
}
