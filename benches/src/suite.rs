//! The short in-process measurement behind `cargo xtask bench`: every target of issue #8 as
//! one [`Row`], measured on the same inputs and with the same operations as the criterion
//! benches ([`fixtures`](crate::fixtures), [`synth`](crate::synth)).
//!
//! Method. Each operation runs once untimed (warm-up, and the result every timed run must
//! reproduce), then `rounds`-proportional times with its input prepared outside the timed
//! region (a catalog clone for a build, a fresh search for a replacement). A row reports the
//! median, which a busy machine moves far less than the mean. Queries are timed one by one:
//! each query's time is its median over the rounds, and the rows give the median and the 99th
//! percentile of those per-query times over the 390 queries, so the p99 describes the slow
//! queries, not the scheduler. Every timed result is checked (token count, hit count, tool
//! count, token budget), so a bench that stops doing its work fails instead of getting fast.

use std::fmt;
use std::hint::black_box;
use std::time::Instant;

use toolsift::ToolSearch;
use toolsift::catalog::{Catalog, Tool};
use toolsift::text::Analyzer;

use crate::fixtures::{self, ALL_QUERIES, ALL_TOOLS, LIMIT, LISTING_BUDGET, REPLACED_SERVER};
use crate::synth::{self, SCALE_SIZES, SEED, Vocabulary};

/// Query median on `all`: 5 µs.
pub const QUERY_MEDIAN_NS: f64 = 5_000.0;
/// Query 99th percentile on `all`: 50 µs.
pub const QUERY_P99_NS: f64 = 50_000.0;
/// Build on `all`: 10 ms.
pub const BUILD_NS: f64 = 10e6;
/// Ingest of the 70 files: 300 ms.
pub const INGEST_NS: f64 = 300e6;
/// Index heap on `all`: below 4 MB.
pub const INDEX_BYTES: u64 = 4_000_000;
/// Query median on the 100k synthetic catalog: 100 µs.
pub const QUERY_MEDIAN_100K_NS: f64 = 100_000.0;
/// Replacing one server's ~100 tools in the 4k index: 1 ms.
pub const REPLACE_NS: f64 = 1e6;
/// Listing of `all` within 4,000 tokens: 1 ms.
pub const LISTING_NS: f64 = 1e6;
/// Text analysis: 100 MB/s.
pub const TEXT_BYTES_PER_SEC: f64 = 100e6;
/// "Build grows linearly": the build cost per tool at 100k may exceed the cost per tool at 10k
/// by at most this factor (an n log n build gives 1.25; a quadratic one 10).
pub const BUILD_GROWTH: f64 = 1.5;

/// How long `cargo xtask bench` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuiteOptions {
    /// Passes over the queries, builds of each catalog, ingests; fast operations run a fixed
    /// multiple of it. 5 (the default) takes well under a minute.
    pub rounds: usize,
}

impl Default for SuiteOptions {
    fn default() -> Self {
        SuiteOptions { rounds: 5 }
    }
}

/// A measured value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Quantity {
    /// A time, in nanoseconds.
    Nanos(f64),
    /// A size, in bytes.
    Bytes(u64),
    /// A dimensionless ratio.
    Ratio(f64),
}

/// What a throughput counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes of input.
    Bytes,
    /// Named items (`queries`, `tools`).
    Items(&'static str),
}

/// A rate: units per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Units per second.
    pub per_sec: f64,
    /// What is counted.
    pub unit: Unit,
}

impl Rate {
    /// `amount` units done in `nanos` nanoseconds.
    #[must_use]
    pub fn of(amount: f64, unit: Unit, nanos: f64) -> Rate {
        Rate { per_sec: if nanos > 0.0 { amount * 1e9 / nanos } else { 0.0 }, unit }
    }
}

/// The target a row is held to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// The time is at most this many nanoseconds.
    TimeAtMost(f64),
    /// The throughput is at least this many units per second.
    RateAtLeast(f64, Unit),
    /// The size is below this many bytes.
    BytesBelow(u64),
    /// The ratio is at most this.
    RatioAtMost(f64),
}

/// One line of the summary table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The stage, named like its bench file: `text`, `catalog`, `rank`, `listing`,
    /// `end_to_end`.
    pub stage: &'static str,
    /// What was measured on which input (`query all`, `build synth-100k`).
    pub input: String,
    /// The median time, or the size or ratio the row is about.
    pub value: Quantity,
    /// The work per second, where it means something.
    pub throughput: Option<Rate>,
    /// The target, if it states one.
    pub target: Option<Target>,
}

impl Row {
    /// The row's stable name, `stage/input`, the key of the committed baseline.
    #[must_use]
    pub fn key(&self) -> String {
        format!("{}/{}", self.stage, self.input)
    }

    /// Whether the row meets its target; `None` without a target.
    #[must_use]
    pub fn met(&self) -> Option<bool> {
        let target = self.target?;
        Some(match (target, self.value) {
            (Target::TimeAtMost(max), Quantity::Nanos(ns)) => ns <= max,
            (Target::RateAtLeast(min, _), _) => self.throughput.is_some_and(|t| t.per_sec >= min),
            (Target::BytesBelow(max), Quantity::Bytes(b)) => b < max,
            (Target::RatioAtMost(max), Quantity::Ratio(r)) => r <= max,
            _ => false,
        })
    }
}

/// One catalog size of the scale measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalePoint {
    /// The input (`all`, `synth-10k`, …).
    pub input: String,
    /// Tools in the catalog.
    pub tools: usize,
    /// Median build time, in nanoseconds.
    pub build_ns: f64,
    /// Median per-query time over the 390 queries, in nanoseconds.
    pub query_median_ns: f64,
    /// 99th percentile of the per-query times, in nanoseconds.
    pub query_p99_ns: f64,
    /// [`toolsift::rank::Index::heap_bytes`] of the built index.
    pub heap_bytes: usize,
}

/// Everything one run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The options it ran with.
    pub options: SuiteOptions,
    /// The summary rows, in stage order.
    pub rows: Vec<Row>,
    /// Build, query and memory per catalog size, smallest first (`all` and the synthetic
    /// sizes), for the growth plot.
    pub scale: Vec<ScalePoint>,
}

/// Runs every measurement; `progress` hears what is being measured next.
///
/// # Panics
///
/// If a fixture cannot be read (see [`catalog_files`](crate::catalog_files)), or an operation's result
/// differs from the one its warm-up produced.
#[must_use]
pub fn run_suite(options: SuiteOptions, progress: &mut dyn FnMut(&str)) -> Report {
    let r = options.rounds.max(1);
    let mut rows = Vec::new();
    let mut scale = Vec::new();

    progress("text: analyzing every tool description of the 70 catalogs");
    rows.push(text(r));

    progress("catalog: ingesting the 70 files");
    let files = fixtures::catalog_files();
    rows.extend(ingest(&files, r));

    progress("rank: build, memory, queries and replacement on `all`");
    let catalog = fixtures::all_catalog();
    let queries = fixtures::queries();
    let (rank_rows, point) = rank_all(&catalog, &queries, r);
    rows.extend(rank_rows);
    scale.push(point);

    let vocabulary = Vocabulary::of(&catalog);
    for tools in SCALE_SIZES {
        progress(&format!("rank: synthetic catalog of {tools} tools"));
        let (row, point) = scale_point(&vocabulary, tools, &queries, r);
        rows.extend(row);
        scale.push(point);
    }
    if let (Some(small), Some(large)) = (scale.get(1), scale.last()) {
        let per_tool = |p: &ScalePoint| p.build_ns / p.tools.max(1) as f64;
        rows.push(Row {
            stage: "rank",
            input: format!("build growth {} -> {}, per tool", small.input, large.input),
            value: Quantity::Ratio(per_tool(large) / per_tool(small)),
            throughput: None,
            target: Some(Target::RatioAtMost(BUILD_GROWTH)),
        });
    }

    progress("listing: rendering `all` within 4,000 tokens");
    rows.extend(listing(&catalog, r));

    progress("end_to_end: cold start and answering every query");
    rows.extend(end_to_end(&files, &queries, r));
    Report { options, rows, scale }
}

/// Text analysis of every description, light stemmer: the `text` bench's
/// `light/descriptions/all` input.
fn text(r: usize) -> Row {
    let texts: Vec<String> =
        crate::catalog_texts().into_iter().flat_map(|k| k.descriptions).collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let analyzer = Analyzer::default();
    let count = |texts: &[String]| {
        let mut n = 0usize;
        for t in texts {
            analyzer.for_each_token(t, |token| {
                black_box(token);
                n += 1;
            });
        }
        n
    };
    let expected = count(&texts);
    assert!(expected > texts.len(), "the descriptions give only {expected} tokens");
    let (times, _) = time_each(2 * r, || (), |()| count(&texts), |n| assert_eq!(*n, expected));
    let ns = median(&times);
    Row {
        stage: "text",
        input: "analyze descriptions/all".to_owned(),
        value: Quantity::Nanos(ns),
        throughput: Some(Rate::of(bytes as f64, Unit::Bytes, ns)),
        target: Some(Target::RateAtLeast(TEXT_BYTES_PER_SEC, Unit::Bytes)),
    }
}

/// Ingest of the 70 files, one after the other and on all cores.
fn ingest(files: &[fixtures::CatalogFile], r: usize) -> Vec<Row> {
    let bytes = fixtures::total_bytes(files) as f64;
    let check = |c: &Catalog| assert_eq!(c.len(), ALL_TOOLS, "ingest lost tools");
    let sequential = median(&time_each(r, || (), |()| fixtures::ingest(files), check).0);
    let parallel = median(&time_each(r, || (), |()| fixtures::ingest_parallel(files), check).0);
    vec![
        Row {
            stage: "catalog",
            input: "ingest all (70 files)".to_owned(),
            value: Quantity::Nanos(sequential),
            throughput: Some(Rate::of(bytes, Unit::Bytes, sequential)),
            target: Some(Target::TimeAtMost(INGEST_NS)),
        },
        Row {
            stage: "catalog",
            input: "ingest all (70 files), all cores".to_owned(),
            value: Quantity::Nanos(parallel),
            throughput: Some(Rate::of(bytes, Unit::Bytes, parallel)),
            target: Some(Target::TimeAtMost(INGEST_NS)),
        },
    ]
}

/// Build, memory, queries (facade and bare index) and replacement on the `all` catalog.
fn rank_all(catalog: &Catalog, queries: &[String], r: usize) -> (Vec<Row>, ScalePoint) {
    let tools = catalog.len();
    let (times, search) = time_each(
        4 * r,
        || catalog.clone(),
        fixtures::build_search,
        |s| assert_eq!(s.len(), tools),
    );
    let build_ns = median(&times);
    let heap = search.index().heap_bytes();
    // The same build on the calling thread alone: what the default's other threads save.
    let one_thread = time_each(
        4 * r,
        || catalog.clone(),
        fixtures::build_search_one_thread,
        |s| assert_eq!(s.len(), tools),
    );
    let build_one_ns = median(&one_thread.0);
    drop(one_thread);

    let expected = fixtures::search_all(&search, queries);
    assert!(expected > 0, "no query of `all` found anything");
    let facade = query_times(queries, r, |q| search.search(q, LIMIT).len(), expected);
    let index = search.index();
    let cache = index.search_cache_bytes();
    let fresh = fresh_query_times(queries, r, expected, || {
        let fresh = search.clone();
        assert_eq!(fresh.index().search_cache_bytes(), 0, "a clone starts with an empty cache");
        fresh
    });
    let expected_index = fixtures::search_all_index(&search, queries);
    let bare = query_times(queries, r, |q| index.search(q, LIMIT).hits().len(), expected_index);

    let revised = fixtures::replacement_tools(catalog);
    let replaced = revised.len();
    // Replaces the server's tools in a clone of `search` with `new_tools`, of which `changed`
    // differ from the server's: as many new documents, and no other change to the index.
    let replace_in = |new_tools: Vec<Tool>, changed: usize| {
        // New documents get ids after every existing one.
        let last = search.index().docs().max();
        time_each(
            10 * r,
            || (search.clone(), new_tools.clone()),
            |(mut s, new_tools): (ToolSearch, _)| {
                let result = s.replace_tools(REPLACED_SERVER, new_tools).map(|d| d.len());
                (s, result)
            },
            |(s, result)| {
                assert!(matches!(result, Ok(0)), "replace_tools failed: {result:?}");
                assert_eq!(s.len(), tools, "replace_tools changed the tool count");
                let new = s.index().docs().filter(|&d| Some(d) > last).count();
                assert_eq!(new, changed, "replace_tools indexed another number of tools");
            },
        )
    };
    let (replace, revised_search) = replace_in(revised.clone(), replaced);
    let replace = median(&replace);
    // The same tools again (a `tools/list_changed` that changed nothing).
    let same = catalog.server(REPLACED_SERVER).map(|s| s.tools.clone()).unwrap_or_default();
    let unchanged = median(&replace_in(same, 0).0);
    // One tool revised (the usual `tools/list_changed`): that one is indexed again.
    let one = median(&replace_in(fixtures::replacement_with_one_revised(catalog), 1).0);
    // What a replacement leaves to the queries after it: the search cache is empty, and the
    // slots a query reads are scored when it first reads them.
    let expected_revised = fixtures::search_all(&revised_search.0, queries);
    let after = fresh_query_times(queries, r, expected_revised, || {
        let mut fresh = search.clone();
        let result = fresh.replace_tools(REPLACED_SERVER, revised.clone());
        assert!(matches!(result, Ok(ref d) if d.is_empty()), "replace_tools failed: {result:?}");
        fresh
    });

    let queries_n = ALL_QUERIES as f64;
    let rows = vec![
        Row {
            stage: "rank",
            input: format!("build all ({tools} tools)"),
            value: Quantity::Nanos(build_ns),
            throughput: Some(Rate::of(tools as f64, Unit::Items("tools"), build_ns)),
            target: Some(Target::TimeAtMost(BUILD_NS)),
        },
        Row {
            stage: "rank",
            input: format!("build all ({tools} tools), one thread"),
            value: Quantity::Nanos(build_one_ns),
            throughput: Some(Rate::of(tools as f64, Unit::Items("tools"), build_one_ns)),
            target: Some(Target::TimeAtMost(BUILD_NS)),
        },
        Row {
            stage: "rank",
            input: "index heap all".to_owned(),
            value: Quantity::Bytes(heap as u64),
            throughput: None,
            target: Some(Target::BytesBelow(INDEX_BYTES)),
        },
        Row {
            stage: "rank",
            input: "search cache all, after the 390 queries".to_owned(),
            value: Quantity::Bytes(cache as u64),
            throughput: None,
            target: None,
        },
        Row {
            stage: "rank",
            input: "query all, median of 390".to_owned(),
            value: Quantity::Nanos(facade.median),
            throughput: Some(Rate::of(queries_n, Unit::Items("queries"), facade.pass)),
            target: Some(Target::TimeAtMost(QUERY_MEDIAN_NS)),
        },
        Row {
            stage: "rank",
            input: "query all, p99 of 390".to_owned(),
            value: Quantity::Nanos(facade.p99),
            throughput: None,
            target: Some(Target::TimeAtMost(QUERY_P99_NS)),
        },
        Row {
            stage: "rank",
            input: "query all, empty search cache, median of 390".to_owned(),
            value: Quantity::Nanos(fresh.median),
            throughput: Some(Rate::of(queries_n, Unit::Items("queries"), fresh.pass)),
            target: None,
        },
        Row {
            stage: "rank",
            input: "query all, empty search cache, p99 of 390".to_owned(),
            value: Quantity::Nanos(fresh.p99),
            throughput: None,
            target: None,
        },
        Row {
            stage: "rank",
            input: "query all, index only, median".to_owned(),
            value: Quantity::Nanos(bare.median),
            throughput: Some(Rate::of(queries_n, Unit::Items("queries"), bare.pass)),
            target: None,
        },
        Row {
            stage: "rank",
            input: format!("replace {REPLACED_SERVER} ({replaced} tools, all changed) in all"),
            value: Quantity::Nanos(replace),
            throughput: Some(Rate::of(replaced as f64, Unit::Items("tools"), replace)),
            target: Some(Target::TimeAtMost(REPLACE_NS)),
        },
        Row {
            stage: "rank",
            input: format!("replace {REPLACED_SERVER} ({replaced} tools, 1 changed) in all"),
            value: Quantity::Nanos(one),
            throughput: Some(Rate::of(replaced as f64, Unit::Items("tools"), one)),
            target: None,
        },
        Row {
            stage: "rank",
            input: format!("replace {REPLACED_SERVER} with the same tools in all"),
            value: Quantity::Nanos(unchanged),
            throughput: Some(Rate::of(replaced as f64, Unit::Items("tools"), unchanged)),
            target: None,
        },
        Row {
            stage: "rank",
            input: "query all, first pass after a replacement, median of 390".to_owned(),
            value: Quantity::Nanos(after.median),
            throughput: Some(Rate::of(queries_n, Unit::Items("queries"), after.pass)),
            target: None,
        },
        Row {
            stage: "rank",
            input: "query all, first pass after a replacement, p99 of 390".to_owned(),
            value: Quantity::Nanos(after.p99),
            throughput: None,
            target: None,
        },
    ];
    let point = ScalePoint {
        input: "all".to_owned(),
        tools,
        build_ns,
        query_median_ns: facade.median,
        query_p99_ns: facade.p99,
        heap_bytes: heap,
    };
    (rows, point)
}

/// The listing of `all` within 4,000 tokens, from the catalog and from a prepared listing.
fn listing(catalog: &Catalog, r: usize) -> Vec<Row> {
    let lister = fixtures::lister();
    let tools = catalog.len() as f64;
    let check = |l: &toolsift::listing::Listing| {
        assert!(!l.text().is_empty() && l.tokens() <= LISTING_BUDGET, "listing over budget");
    };
    let full =
        median(&time_each(20 * r, || (), |()| lister.listing(catalog, LISTING_BUDGET), check).0);
    let prepared = lister.prepare(catalog);
    let render = median(&time_each(100 * r, || (), |()| prepared.render(LISTING_BUDGET), check).0);
    vec![
        Row {
            stage: "listing",
            input: "listing all @4000 tokens".to_owned(),
            value: Quantity::Nanos(full),
            throughput: Some(Rate::of(tools, Unit::Items("tools"), full)),
            target: Some(Target::TimeAtMost(LISTING_NS)),
        },
        Row {
            stage: "listing",
            input: "render prepared all @4000 tokens".to_owned(),
            value: Quantity::Nanos(render),
            throughput: Some(Rate::of(tools, Unit::Items("tools"), render)),
            target: Some(Target::TimeAtMost(LISTING_NS)),
        },
    ]
}

/// Build and query on a synthetic catalog of `tools` tools.
fn scale_point(
    vocabulary: &Vocabulary,
    tools: usize,
    queries: &[String],
    r: usize,
) -> (Vec<Row>, ScalePoint) {
    let catalog = synth::synthetic_catalog(vocabulary, tools, SEED);
    assert_eq!(catalog.len(), tools, "the synthetic catalog lost tools");
    let name = format!("synth-{}k", tools / 1000);
    // Large builds take seconds: half the rounds (at least one) keep the short run short.
    let (times, search) = time_each(
        r.div_ceil(2),
        || catalog.clone(),
        fixtures::build_search,
        |s| assert_eq!(s.len(), tools),
    );
    let build_ns = median(&times);
    drop(catalog);
    let expected = fixtures::search_all(&search, queries);
    assert!(expected > 0, "no query found anything in {name}");
    let q = query_times(queries, r, |q| search.search(q, LIMIT).len(), expected);
    let heap = search.index().heap_bytes();
    let cache = search.index().search_cache_bytes();
    // The default budget follows the index's size (82.9 MB of lists at 100k need it).
    assert_eq!(
        search.index().search_cache_budget(),
        heap.max(toolsift::rank::DEFAULT_SEARCH_CACHE_BUDGET),
        "the search cache's default budget did not follow {name}"
    );
    let big = tools == SCALE_SIZES[SCALE_SIZES.len() - 1];
    let mut rows = vec![
        Row {
            stage: "rank",
            input: format!("build {name}"),
            value: Quantity::Nanos(build_ns),
            throughput: Some(Rate::of(tools as f64, Unit::Items("tools"), build_ns)),
            target: None,
        },
        Row {
            stage: "rank",
            input: format!("query {name}, median of 390"),
            value: Quantity::Nanos(q.median),
            throughput: Some(Rate::of(ALL_QUERIES as f64, Unit::Items("queries"), q.pass)),
            target: big.then_some(Target::TimeAtMost(QUERY_MEDIAN_100K_NS)),
        },
    ];
    if big {
        // What the default budget (as large as the index) lets the queries keep.
        rows.push(Row {
            stage: "rank",
            input: format!("search cache {name}, after the 390 queries"),
            value: Quantity::Bytes(cache as u64),
            throughput: None,
            target: None,
        });
    }
    let point = ScalePoint {
        input: name,
        tools,
        build_ns,
        query_median_ns: q.median,
        query_p99_ns: q.p99,
        heap_bytes: heap,
    };
    (rows, point)
}

/// A cold start (ingest, build, listing) and an agent turn (search and render the answer).
fn end_to_end(files: &[fixtures::CatalogFile], queries: &[String], r: usize) -> Vec<Row> {
    let lister = fixtures::lister();
    let bytes = fixtures::total_bytes(files) as f64;
    let (cold, (search, _)) = time_each(
        r,
        || (),
        |()| fixtures::cold_start(files, &lister),
        |(s, l)| assert!(s.len() == ALL_TOOLS && !l.text().is_empty(), "cold start lost work"),
    );
    let cold = median(&cold);
    let expected: usize = queries.iter().map(|q| fixtures::answer(&search, &lister, q).len()).sum();
    let turn = query_times(queries, r, |q| fixtures::answer(&search, &lister, q).len(), expected);
    vec![
        Row {
            stage: "end_to_end",
            input: "cold start all (ingest, build, listing)".to_owned(),
            value: Quantity::Nanos(cold),
            throughput: Some(Rate::of(bytes, Unit::Bytes, cold)),
            target: None,
        },
        Row {
            stage: "end_to_end",
            input: "answer all (search + render), median".to_owned(),
            value: Quantity::Nanos(turn.median),
            throughput: Some(Rate::of(ALL_QUERIES as f64, Unit::Items("queries"), turn.pass)),
            target: None,
        },
    ]
}

/// Runs `op` once on `setup()` untimed, then `n` times timed, each on a fresh `setup()` made
/// outside the timed region; `check` sees every result, and results are dropped untimed.
/// Returns the times in nanoseconds and the untimed run's result.
fn time_each<I, O>(
    n: usize,
    mut setup: impl FnMut() -> I,
    mut op: impl FnMut(I) -> O,
    mut check: impl FnMut(&O),
) -> (Vec<f64>, O) {
    let first = op(setup());
    check(&first);
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let input = setup();
        let start = Instant::now();
        let out = black_box(op(black_box(input)));
        times.push(start.elapsed().as_secs_f64() * 1e9);
        check(&out);
    }
    (times, first)
}

/// Per-query timing over several passes.
#[derive(Debug, Clone, Copy)]
struct QueryTimes {
    /// Median over queries of each query's median time.
    median: f64,
    /// 99th percentile over queries of each query's median time.
    p99: f64,
    /// Median time of one whole pass over the queries.
    pass: f64,
}

/// Times `f` on every query, `rounds` passes after one untimed pass; every pass must sum to
/// `expected`.
fn query_times(
    queries: &[String],
    rounds: usize,
    mut f: impl FnMut(&str) -> usize,
    expected: usize,
) -> QueryTimes {
    let mut per_query: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); queries.len()];
    let mut passes = Vec::with_capacity(rounds);
    for round in 0..=rounds {
        let mut total = 0;
        let pass_start = Instant::now();
        for (q, times) in queries.iter().zip(&mut per_query) {
            let start = Instant::now();
            total += black_box(f(black_box(q)));
            if round > 0 {
                times.push(start.elapsed().as_secs_f64() * 1e9);
            }
        }
        if round > 0 {
            passes.push(pass_start.elapsed().as_secs_f64() * 1e9);
        }
        assert_eq!(total, expected, "a pass over the queries gave another result");
    }
    let mut medians: Vec<f64> = per_query.iter().map(|t| median(t)).collect();
    medians.sort_by(f64::total_cmp);
    QueryTimes { median: median(&medians), p99: percentile(&medians, 0.99), pass: median(&passes) }
}

/// Like [`query_times`], but every round searches a new search from `fresh` (made outside the
/// timed region: a clone, whose search cache is empty, or a clone after a replacement), so
/// each query pays for what no earlier query of its pass did: the cost of a first pass over
/// the 390 queries.
fn fresh_query_times(
    queries: &[String],
    rounds: usize,
    expected: usize,
    fresh: impl Fn() -> ToolSearch,
) -> QueryTimes {
    let mut per_query: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); queries.len()];
    let mut passes = Vec::with_capacity(rounds);
    for _ in 0..rounds.max(1) {
        let fresh = fresh();
        let mut total = 0;
        let pass_start = Instant::now();
        for (q, times) in queries.iter().zip(&mut per_query) {
            let start = Instant::now();
            total += black_box(fresh.search(black_box(q), LIMIT).len());
            times.push(start.elapsed().as_secs_f64() * 1e9);
        }
        passes.push(pass_start.elapsed().as_secs_f64() * 1e9);
        assert_eq!(total, expected, "a pass over the queries gave another result");
        drop(fresh);
    }
    let mut medians: Vec<f64> = per_query.iter().map(|t| median(t)).collect();
    medians.sort_by(f64::total_cmp);
    QueryTimes { median: median(&medians), p99: percentile(&medians, 0.99), pass: median(&passes) }
}

/// The median (the mean of the two middle values for an even count); 0 for no values.
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The nearest-rank percentile `p` (0..=1) of sorted values; 0 for no values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Quantity::Nanos(ns) => f.write_str(&nanos(ns)),
            Quantity::Bytes(b) => f.write_str(&bytes(b as f64)),
            Quantity::Ratio(r) => write!(f, "{r:.2}x"),
        }
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.unit {
            Unit::Bytes => write!(f, "{}/s", bytes(self.per_sec)),
            Unit::Items(what) => write!(f, "{} {what}/s", count(self.per_sec)),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Target::TimeAtMost(ns) => write!(f, "<= {}", nanos(ns)),
            Target::RateAtLeast(rate, unit) => {
                write!(f, ">= {}", Rate { per_sec: rate, unit })
            }
            Target::BytesBelow(b) => write!(f, "< {}", bytes(b as f64)),
            Target::RatioAtMost(r) => write!(f, "<= {r:.2}x"),
        }
    }
}

/// A time with three significant digits and a unit (`812 ns`, `4.21 us`, `12.3 ms`).
fn nanos(ns: f64) -> String {
    let (v, unit) = match ns {
        n if n < 1e3 => (n, "ns"),
        n if n < 1e6 => (n / 1e3, "us"),
        n if n < 1e9 => (n / 1e6, "ms"),
        n => (n / 1e9, "s"),
    };
    format!("{} {unit}", sig3(v))
}

/// A size in decimal units (`812 B`, `3.41 MB`).
fn bytes(b: f64) -> String {
    let (v, unit) = match b {
        n if n < 1e3 => (n, "B"),
        n if n < 1e6 => (n / 1e3, "kB"),
        n if n < 1e9 => (n / 1e6, "MB"),
        n => (n / 1e9, "GB"),
    };
    format!("{} {unit}", sig3(v))
}

/// A count in decimal units (`812`, `31.2 k`, `1.20 M`).
fn count(n: f64) -> String {
    match n {
        n if n < 1e3 => sig3(n),
        n if n < 1e6 => format!("{} k", sig3(n / 1e3)),
        n => format!("{} M", sig3(n / 1e6)),
    }
}

/// Three significant digits for values from 1 to 1000, fewer decimals as they grow.
fn sig3(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
