//! Runs one stage in a loop, for a profiler: `valgrind --tool=callgrind` or `perf record`.
//!
//! ```text
//! cargo build --profile bench -p benches --example profile
//! valgrind --tool=callgrind --toggle-collect='profile::stage_*' \
//!     target/release/examples/profile query
//! callgrind_annotate --inclusive=yes callgrind.out.<pid>
//! ```
//!
//! Each stage prepares its input first (loading catalogs, generating a synthetic one), then
//! calls a `stage_*` function, never inlined, that does only the measured work, so
//! `--toggle-collect='profile::stage_*'` counts that work alone. The inputs and operations are
//! the ones `cargo xtask bench` and the criterion benches measure (`benches::*`). An optional
//! second argument sets the repetitions.

// A command-line tool: printing is its output.
#![allow(clippy::print_stdout)]

use std::hint::black_box;

use toolsift::ToolSearch;
use toolsift::catalog::{Catalog, Tool};
use toolsift::listing::Lister;
use toolsift::text::Analyzer;

/// The stages, with what each repeats.
const USAGE: &str = "\
usage: profile <stage> [repetitions]
stages:
  text        analyze every tool description of the 70 catalogs (default 5 times)
  ingest      ingest the 70 catalog files (default 2)
  build       build the index of `all` on one thread (default 5)
  query       search the 390 queries on `all` (default 20 passes)
  replace     replace the atlassian server's tools, all revised, in `all` (default 5)
  replace-one   replace them with only one of them revised (default 5)
  replace-same  replace them with the same tools, which changes nothing (default 5)
  answer      search and render the answer to the 390 queries on `all` (default 5 passes)
  listing     render the listing of `all` within 4,000 tokens (default 20)
  build-10k   build the index of the 10k synthetic catalog on one thread (default 1)
  build-100k  build the index of the 100k synthetic catalog on one thread (default 1)
  query-10k   search the 390 queries on the 10k synthetic catalog (default 2 passes)
  query-100k  search the 390 queries on the 100k synthetic catalog (default 2 passes)
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stage = args.first().map_or("", String::as_str);
    let reps = |default: usize| args.get(1).and_then(|n| n.parse().ok()).unwrap_or(default);
    let done = match stage {
        "text" => {
            let texts: Vec<String> =
                benches::catalog_texts().into_iter().flat_map(|k| k.descriptions).collect();
            let analyzer = Analyzer::default();
            (0..reps(5)).map(|_| stage_text(&analyzer, &texts)).sum::<usize>()
        }
        "ingest" => {
            let files = benches::catalog_files();
            (0..reps(2)).map(|_| stage_ingest(&files).len()).sum()
        }
        "build" => {
            let catalog = benches::all_catalog();
            (0..reps(5)).map(|_| stage_build(catalog.clone()).len()).sum()
        }
        "query" => {
            let search = benches::build_search(benches::all_catalog());
            let queries = benches::queries();
            (0..reps(20)).map(|_| stage_query(&search, &queries)).sum()
        }
        "replace" => {
            let search = benches::build_search(benches::all_catalog());
            let server = benches::REPLACED_SERVER;
            let tools = benches::replacement_tools(search.catalog());
            (0..reps(5)).map(|_| stage_replace(search.clone(), server, tools.clone()).len()).sum()
        }
        "replace-one" => {
            let search = benches::build_search(benches::all_catalog());
            let server = benches::REPLACED_SERVER;
            let tools = benches::replacement_with_one_revised(search.catalog());
            (0..reps(5)).map(|_| stage_replace(search.clone(), server, tools.clone()).len()).sum()
        }
        "replace-same" => {
            let search = benches::build_search(benches::all_catalog());
            let server = benches::REPLACED_SERVER;
            let tools =
                search.catalog().server(server).map(|s| s.tools.clone()).unwrap_or_default();
            (0..reps(5)).map(|_| stage_replace(search.clone(), server, tools.clone()).len()).sum()
        }
        "answer" => {
            let search = benches::build_search(benches::all_catalog());
            let queries = benches::queries();
            let lister = benches::lister();
            (0..reps(5)).map(|_| stage_answer(&search, &lister, &queries)).sum()
        }
        "listing" => {
            let catalog = benches::all_catalog();
            let lister = benches::lister();
            (0..reps(20)).map(|_| stage_listing(&lister, &catalog)).sum()
        }
        "build-10k" | "build-100k" => {
            let catalog = synthetic(stage);
            (0..reps(1)).map(|_| stage_build(catalog.clone()).len()).sum()
        }
        "query-10k" | "query-100k" => {
            let search = benches::build_search(synthetic(stage));
            let queries = benches::queries();
            (0..reps(2)).map(|_| stage_query(&search, &queries)).sum()
        }
        _ => {
            print!("{USAGE}");
            std::process::exit(2);
        }
    };
    println!("{stage}: done ({done} units of work)");
}

/// The synthetic catalog of the scale benches the stage names (`…-10k` or `…-100k`).
fn synthetic(stage: &str) -> Catalog {
    let vocabulary = benches::Vocabulary::of(&benches::all_catalog());
    let size = if stage.ends_with("-100k") { 100_000 } else { 10_000 };
    benches::synthetic_catalog(&vocabulary, size, benches::SEED)
}

#[inline(never)]
fn stage_text(analyzer: &Analyzer, texts: &[String]) -> usize {
    let mut n = 0;
    for t in texts {
        analyzer.for_each_token(t, |token| {
            black_box(token);
            n += 1;
        });
    }
    n
}

#[inline(never)]
fn stage_ingest(files: &[benches::CatalogFile]) -> Catalog {
    benches::ingest(files)
}

/// On the calling thread alone: callgrind's `--toggle-collect` counts only the thread that
/// enters a `stage_*` function, and a default build analyzes on every core.
#[inline(never)]
fn stage_build(catalog: Catalog) -> ToolSearch {
    benches::build_search_one_thread(catalog)
}

#[inline(never)]
fn stage_query(search: &ToolSearch, queries: &[String]) -> usize {
    benches::search_all(search, queries)
}

#[inline(never)]
fn stage_replace(mut search: ToolSearch, server: &str, tools: Vec<Tool>) -> ToolSearch {
    let result = search.replace_tools(server, tools);
    assert!(result.is_ok(), "{result:?}");
    search
}

#[inline(never)]
fn stage_answer(search: &ToolSearch, lister: &Lister, queries: &[String]) -> usize {
    queries.iter().map(|q| benches::answer(search, lister, q).len()).sum()
}

#[inline(never)]
fn stage_listing(lister: &Lister, catalog: &Catalog) -> usize {
    lister.listing(catalog, benches::LISTING_BUDGET).text().len()
}
