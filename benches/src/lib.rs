//! Shared bench fixtures and the short measurement suite of toolsift, used by every bench file
//! in `benches/benches/` and by `cargo xtask bench`, so that both measure the same inputs with
//! the same operations.
//!
//! # Brief overview
//!
//! - Real inputs: [`catalog_files`] lists the 70 catalogs of the `all` tuning dataset
//!   (`xtask/tuning/all/dataset.json`: file, kind, server); [`ingest`] reads them into one
//!   [`Catalog`](toolsift::Catalog) ([`all_catalog`]: 3,952 tools); [`queries`] gives the 390
//!   query texts of `xtask/tuning/all/queries.jsonl`. [`catalog_texts`] reads the raw tool
//!   names and descriptions per catalog kind, for the text bench.
//! - Synthetic inputs: [`Vocabulary::of`] takes the words and shapes of a real catalog and
//!   [`synthetic_catalog`] draws a catalog of any size from them with a seeded [`SplitMix64`].
//! - Operations: [`build_search`], [`build_search_one_thread`], [`search_all`], [`search_all_index`], [`answer`],
//!   [`cold_start`]: what the benches time, written once.
//! - [`run_suite`] measures every target of issue #8 in-process in well under a minute and
//!   returns a [`Report`] of [`Row`]s; the `bench-suite` program (`src/bin/bench-suite/`, run by
//!   `cargo xtask bench`) prints it, checks it against `benches/baseline.json` and plots it.
//! - [`CpuTime`] is a criterion measurement of the benchmark thread's CPU time, for numbers that
//!   hold up on a machine shared with other work.
//!
//! Fixtures read files and panic when they cannot: a bench must not silently run on less data.
//! Loading happens outside any timed region.

#![forbid(unsafe_code)]

mod fixtures;
mod rng;
mod suite;
mod synth;

pub use fixtures::{
    ALL_FILES, ALL_QUERIES, ALL_TOOLS, CatalogFile, LIMIT, LISTING_BUDGET, REPLACED_SERVER,
    all_catalog, answer, build_search, build_search_one_thread, catalog_files, cold_start, ingest,
    ingest_parallel, lister, queries, replacement_tools, replacement_with_one_revised, search_all,
    search_all_index, total_bytes,
};
pub use rng::SplitMix64;
pub use suite::{
    BUILD_GROWTH, BUILD_NS, INDEX_BYTES, INGEST_NS, LISTING_NS, QUERY_MEDIAN_100K_NS,
    QUERY_MEDIAN_NS, QUERY_P99_NS, Quantity, REPLACE_NS, Rate, Report, Row, ScalePoint,
    SuiteOptions, TEXT_BYTES_PER_SEC, Target, Unit, run_suite,
};
pub use synth::{SCALE_SIZES, SEED, TOOLS_PER_SERVER, Vocabulary, synthetic_catalog};

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use serde_json::Value;

/// A criterion measurement of the CPU time of the benchmark thread, in nanoseconds.
///
/// On Linux it reads `/proc/thread-self/schedstat` (time on a CPU, in nanoseconds), so time spent
/// waiting for a CPU that other processes hold is not counted; elsewhere it falls back to wall
/// time. The kernel updates that counter at scheduler ticks, so samples must be long (use flat
/// sampling with a few samples of hundreds of milliseconds). Values print like criterion's wall
/// time (`ms`, `MiB/s`).
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuTime;

/// Criterion's wall-time measurement, whose formatter [`CpuTime`] reuses.
static WALL_TIME: WallTime = WallTime;

impl CpuTime {
    /// Nanoseconds of CPU time of this thread so far (or of wall time since first use).
    fn now() -> u64 {
        let schedstat = std::fs::read_to_string("/proc/thread-self/schedstat").ok();
        let on_cpu = schedstat.as_deref().and_then(|s| s.split_whitespace().next()?.parse().ok());
        on_cpu.unwrap_or_else(|| {
            static START: OnceLock<Instant> = OnceLock::new();
            let nanos = START.get_or_init(Instant::now).elapsed().as_nanos();
            u64::try_from(nanos).unwrap_or(u64::MAX)
        })
    }
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        Self::now()
    }

    fn end(&self, start: u64) -> u64 {
        Self::now().saturating_sub(start)
    }

    fn add(&self, v1: &u64, v2: &u64) -> u64 {
        v1.saturating_add(*v2)
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        // Nanoseconds stay far below 2^53 for any benchmark run.
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        WALL_TIME.formatter()
    }
}

/// The copied catalogs.
const CATALOGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../xtask/tuning/catalogs");

/// The HTTP methods whose objects under an OpenAPI path are operations.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// The tool texts of all catalogs of one kind.
#[derive(Debug, Clone, Default)]
pub struct CatalogTexts {
    /// The kind: `mcp`, `openapi` or `plugin`.
    pub kind: &'static str,
    /// How many catalog files were read.
    pub files: usize,
    /// Tool names (OpenAPI: operation ids), one per tool that has one.
    pub names: Vec<String>,
    /// Tool descriptions (OpenAPI: summary and description joined by a newline).
    pub descriptions: Vec<String>,
}

impl CatalogTexts {
    /// Total bytes of the descriptions.
    #[must_use]
    pub fn description_bytes(&self) -> usize {
        self.descriptions.iter().map(String::len).sum()
    }
}

/// Reads every catalog, grouped by kind in the order `mcp`, `openapi`, `plugin`.
///
/// # Panics
///
/// Panics if a catalog cannot be read or parsed: a bench must not silently run on less data.
#[must_use]
pub fn catalog_texts() -> Vec<CatalogTexts> {
    ["mcp", "openapi", "plugin"].into_iter().map(read_kind).collect()
}

/// Reads the catalogs of one kind.
fn read_kind(kind: &'static str) -> CatalogTexts {
    let mut texts = CatalogTexts { kind, ..CatalogTexts::default() };
    for path in sorted_files(&Path::new(CATALOGS).join(kind)) {
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        // JSON or YAML, read as the loaders read them.
        let doc: Value =
            toolsift::catalog::parse_document(&bytes, &toolsift::catalog::Limits::default())
                .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
        match kind {
            "openapi" => collect_openapi(&doc, &mut texts),
            _ => collect_tools(&doc, &mut texts),
        }
        texts.files += 1;
    }
    texts
}

/// The catalog files in `dir`, sorted by name.
fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap_or_else(|e| panic!("listing {}: {e}", dir.display())).path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "yaml" || e == "yml"))
        .collect();
    paths.sort();
    paths
}

/// Collects an MCP `{"tools": [...]}` result or a function-tool array.
fn collect_tools(doc: &Value, texts: &mut CatalogTexts) {
    let tools = doc.get("tools").unwrap_or(doc).as_array().map(Vec::as_slice).unwrap_or_default();
    for tool in tools {
        let tool = tool.get("function").unwrap_or(tool);
        push_str(tool.get("name"), &mut texts.names);
        push_str(tool.get("description"), &mut texts.descriptions);
    }
}

/// Collects the operations of an OpenAPI (or Swagger 2.0) document.
fn collect_openapi(doc: &Value, texts: &mut CatalogTexts) {
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else { return };
    for item in paths.values() {
        for method in METHODS {
            let Some(operation) = item.get(method) else { continue };
            push_str(operation.get("operationId"), &mut texts.names);
            let parts: Vec<&str> = ["summary", "description"]
                .iter()
                .filter_map(|key| operation.get(*key).and_then(Value::as_str))
                .collect();
            if !parts.is_empty() {
                texts.descriptions.push(parts.join("\n"));
            }
        }
    }
}

/// Pushes `value` if it is a non-empty string.
fn push_str(value: Option<&Value>, out: &mut Vec<String>) {
    if let Some(s) = value.and_then(Value::as_str).filter(|s| !s.is_empty()) {
        out.push(s.to_owned());
    }
}
