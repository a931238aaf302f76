//! The real inputs, read the way `cargo xtask eval` reads them: the `all` tuning dataset's 70
//! catalog files (`xtask/tuning/all/dataset.json` names each file's kind and server) and its
//! 390 queries (`xtask/tuning/all/queries.jsonl`); and the operations every bench times, so
//! that a criterion bench and `cargo xtask bench` run exactly the same code on the same input.

use std::path::{Path, PathBuf};

use serde_json::Value;
use toolsift::catalog::{Catalog, Loader, Tool, ToolKind, load_file};
use toolsift::listing::{Hit, Lister, Listing, NoMatch, ResultForm};
use toolsift::{Index, SearchResults, ToolSearch};

/// The tuning folder copied into the repository.
const TUNING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../xtask/tuning");

/// Catalog files of the `all` dataset.
pub const ALL_FILES: usize = 70;
/// Tools of the `all` dataset (`xtask/tuning/catalogs/SOURCES.md`: 2,146 MCP tools, 1,759
/// OpenAPI operations, 47 function tools).
pub const ALL_TOOLS: usize = 3_952;
/// Queries of the `all` dataset.
pub const ALL_QUERIES: usize = 390;
/// How many results a search asks for (the eval cutoff).
pub const LIMIT: usize = 10;
/// The listing budget the listing target is stated for, in tokens.
pub const LISTING_BUDGET: usize = 4_000;
/// The server whose tools the incremental bench replaces: the real server closest to 100
/// tools (98).
pub const REPLACED_SERVER: &str = "atlassian";

/// The tools the replacement benches give [`REPLACED_SERVER`]: its own, each with a sentence
/// added to its description, as a new version of the server might list them. So every tool
/// changed and is indexed again: a replacement with the same tools changes nothing
/// ([`ToolSearch::replace_tools`]).
///
/// # Panics
///
/// If `catalog` has no [`REPLACED_SERVER`] or it has fewer than 90 tools.
#[must_use]
pub fn replacement_tools(catalog: &Catalog) -> Vec<Tool> {
    revised(catalog, |_| true)
}

/// [`REPLACED_SERVER`]'s tools with only the one in the middle revised as
/// [`replacement_tools`] revises them all: the usual `tools/list_changed`, which a replacement
/// answers by indexing that one tool again.
///
/// # Panics
///
/// As [`replacement_tools`].
#[must_use]
pub fn replacement_with_one_revised(catalog: &Catalog) -> Vec<Tool> {
    let middle = catalog.server(REPLACED_SERVER).map_or(0, |s| s.tools.len() / 2);
    revised(catalog, |i| i == middle)
}

/// [`REPLACED_SERVER`]'s tools, those at the positions `which` takes with a sentence added to
/// their description.
fn revised(catalog: &Catalog, which: impl Fn(usize) -> bool) -> Vec<Tool> {
    let server = catalog
        .server(REPLACED_SERVER)
        .unwrap_or_else(|| panic!("the catalog has no server {REPLACED_SERVER}"));
    assert!(server.tools.len() > 90, "{REPLACED_SERVER} has {} tools", server.tools.len());
    (server.tools.iter().enumerate())
        .map(|(i, tool)| {
            let mut tool = tool.clone();
            if which(i) {
                tool.description.push_str(" Revised.");
            }
            tool
        })
        .collect()
}

/// One catalog file of the `all` dataset.
#[derive(Debug, Clone)]
pub struct CatalogFile {
    /// The file.
    pub path: PathBuf,
    /// Its kind.
    pub kind: ToolKind,
    /// The server name its tools get.
    pub server: String,
    /// Its size on disk.
    pub bytes: u64,
}

/// The 70 catalog files of the `all` dataset, in dataset.json order.
///
/// # Panics
///
/// If dataset.json cannot be read or is malformed, a file is missing, or there are not
/// [`ALL_FILES`] of them: a bench must not silently run on less data.
#[must_use]
pub fn catalog_files() -> Vec<CatalogFile> {
    let dir = Path::new(TUNING).join("all");
    let path = dir.join("dataset.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    let entries = doc.get("catalogs").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let files: Vec<CatalogFile> = entries
        .iter()
        .map(|entry| {
            let field = |name: &str| {
                entry
                    .get(name)
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| panic!("{}: a catalog without `{name}`", path.display()))
            };
            let file = dir.join(field("file"));
            let kind = ToolKind::from_word(field("kind"))
                .unwrap_or_else(|| panic!("{}: unknown kind", path.display()));
            let bytes = std::fs::metadata(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
                .len();
            CatalogFile { path: file, kind, server: field("server").to_owned(), bytes }
        })
        .collect();
    assert_eq!(files.len(), ALL_FILES, "{} lists {} catalogs", path.display(), files.len());
    files
}

/// Total bytes of `files` on disk.
#[must_use]
pub fn total_bytes(files: &[CatalogFile]) -> u64 {
    files.iter().map(|f| f.bytes).sum()
}

/// Ingests `files` one after the other: read, parse (JSON or YAML), convert, and add to one
/// catalog. This is the ingest the catalog target is stated for.
///
/// # Panics
///
/// If a file cannot be loaded.
#[must_use]
pub fn ingest(files: &[CatalogFile]) -> Catalog {
    let mut catalog = Catalog::new();
    for f in files {
        let loaded = load_file(&f.path, f.kind, &f.server)
            .unwrap_or_else(|e| panic!("loading {}: {e}", f.path.display()));
        catalog.add_server(loaded.server);
    }
    catalog
}

/// Ingests `files` with [`Loader::load_files`], which parses on all available cores.
///
/// # Panics
///
/// If a file cannot be loaded.
#[must_use]
pub fn ingest_parallel(files: &[CatalogFile]) -> Catalog {
    let requests: Vec<(&Path, ToolKind, &str)> =
        files.iter().map(|f| (f.path.as_path(), f.kind, f.server.as_str())).collect();
    let mut catalog = Catalog::new();
    for (result, f) in Loader::default().load_files(&requests).into_iter().zip(files) {
        let loaded = result.unwrap_or_else(|e| panic!("loading {}: {e}", f.path.display()));
        catalog.add_server(loaded.server);
    }
    catalog
}

/// The `all` catalog: [`ingest`] of [`catalog_files`].
///
/// # Panics
///
/// As [`catalog_files`] and [`ingest`], and if it does not hold [`ALL_TOOLS`] tools.
#[must_use]
pub fn all_catalog() -> Catalog {
    let catalog = ingest(&catalog_files());
    assert_eq!(catalog.len(), ALL_TOOLS, "the all catalog has {} tools", catalog.len());
    catalog
}

/// The text of every query of the `all` dataset, in file order (keyword, natural, name and
/// no-answer queries alike).
///
/// # Panics
///
/// If queries.jsonl cannot be read, a line has no `query` string, or there are not
/// [`ALL_QUERIES`] of them.
#[must_use]
pub fn queries() -> Vec<String> {
    let path = Path::new(TUNING).join("all").join("queries.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let queries: Vec<String> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let doc: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1));
            doc.get("query")
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{} line {}: no `query`", path.display(), i + 1))
                .to_owned()
        })
        .collect();
    assert_eq!(queries.len(), ALL_QUERIES, "{} has {} queries", path.display(), queries.len());
    queries
}

/// The lister every bench renders with: the default configuration.
#[must_use]
pub fn lister() -> Lister {
    Lister::default()
}

/// Searches every query for its top [`LIMIT`] through the facade; returns the total number of
/// hits, which a bench compares with the count found before timing.
#[must_use]
pub fn search_all(search: &ToolSearch, queries: &[String]) -> usize {
    queries.iter().map(|q| std::hint::black_box(search.search(q, LIMIT)).len()).sum()
}

/// Searches every query for its top [`LIMIT`] in the rank layer alone
/// ([`toolsift::rank::Index::search`], without the facade's hits); returns the total hits.
#[must_use]
pub fn search_all_index(search: &ToolSearch, queries: &[String]) -> usize {
    let index = search.index();
    queries.iter().map(|q| std::hint::black_box(index.search(q, LIMIT)).hits().len()).sum()
}

/// One agent turn after start-up: search `query` and render the answer as the model reads it
/// (compact text lines, or the two lines of an empty result). Returns the rendered text.
#[must_use]
pub fn answer(search: &ToolSearch, lister: &Lister, query: &str) -> String {
    let results = search.search(query, LIMIT);
    render_results(search, lister, query, &results)
}

/// Renders search results as [`answer`] does.
fn render_results(
    search: &ToolSearch,
    lister: &Lister,
    query: &str,
    results: &SearchResults,
) -> String {
    if let Some(why) = results.refusal() {
        let none = NoMatch::new(query)
            .unknown_words(why.unknown_terms().iter().cloned())
            .weak_words(why.filtered_terms().iter().cloned());
        return lister.render_empty(&none);
    }
    let catalog = search.catalog();
    let hits: Vec<Hit<'_>> = results
        .hits()
        .iter()
        .filter_map(|h| Some(Hit::new(catalog.tool(h.tool())?, h.name()).with_score(h.score())))
        .collect();
    lister.render_hits(&hits, ResultForm::Text).to_string()
}

/// A cold start: ingest `files`, index them, and render the catalog listing within
/// [`LISTING_BUDGET`] tokens.
///
/// # Panics
///
/// As [`ingest`], and if the index cannot be built.
#[must_use]
pub fn cold_start(files: &[CatalogFile], lister: &Lister) -> (ToolSearch, Listing) {
    let catalog = ingest(files);
    let listing = lister.listing(&catalog, LISTING_BUDGET);
    let search = ToolSearch::new(catalog).unwrap_or_else(|e| panic!("building the index: {e}"));
    (search, listing)
}

/// Builds the search over `catalog`.
///
/// # Panics
///
/// If the index cannot be built (the default settings are valid, so it can).
#[must_use]
pub fn build_search(catalog: Catalog) -> ToolSearch {
    ToolSearch::new(catalog).unwrap_or_else(|e| panic!("building the index: {e}"))
}

/// Builds the search over `catalog` on the calling thread alone (`IndexBuilder::threads(1)`;
/// [`build_search`] uses every core for a large catalog).
///
/// # Panics
///
/// If the index cannot be built (the default settings are valid, so it can).
#[must_use]
pub fn build_search_one_thread(catalog: Catalog) -> ToolSearch {
    ToolSearch::builder()
        .index(Index::tuned().threads(1))
        .build(catalog)
        .unwrap_or_else(|e| panic!("building the index: {e}"))
}
