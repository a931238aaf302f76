//! The ranking stage: building the index, searching it, and replacing one server's tools.
//!
//! What's measured:
//! - `rank/build`: [`ToolSearch::new`](toolsift::ToolSearch::new) from tools in memory to a
//!   ready index (field texts, analysis, postings, statistics); the catalog clone it consumes
//!   is made outside the timing. Throughput: tools.
//! - `rank/search`: one pass over the 390 queries of `xtask/tuning/all/queries.jsonl`, top 10
//!   each, through the facade (`facade/…`: hits with names and matched terms) and through the
//!   bare index (`index/…`: [`Index::search`](toolsift::rank::Index::search)). Throughput:
//!   queries, so the report reads as queries per second and the time divided by 390 is the mean
//!   query.
//! - `rank/replace`: [`replace_tools`](toolsift::ToolSearch::replace_tools) of the `atlassian`
//!   server's 98 tools in the `all` index, each with a revised description
//!   ([`replacement_tools`](benches::replacement_tools): the same tools would change
//!   nothing); the search clone it mutates is made outside the timing. Throughput: tools
//!   replaced.
//!
//! Corpus model: `all` is the 70 real catalogs (3,952 tools). `synth-10k`, `synth-50k` and
//! `synth-100k` are drawn from their vocabulary and tool shapes by `benches::synthetic_catalog`
//! with the fixed seed `benches::SEED`, so every run measures the same catalogs.
//!
//! Every iteration asserts its result (the tool count of a build, the total hit count of a
//! query pass as found before timing), so a bench that silently does no work fails.

use std::hint::black_box;
use std::sync::OnceLock;

use benches::{ALL_QUERIES, REPLACED_SERVER, SCALE_SIZES, SEED, Vocabulary};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use toolsift::ToolSearch;
use toolsift::catalog::Catalog;

/// One named catalog.
struct Input {
    name: String,
    catalog: Catalog,
}

/// `all` and the synthetic catalogs, made once for every group.
fn inputs() -> &'static [Input] {
    static INPUTS: OnceLock<Vec<Input>> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let all = benches::all_catalog();
        let vocabulary = Vocabulary::of(&all);
        let mut inputs = vec![Input { name: "all".to_owned(), catalog: all }];
        for tools in SCALE_SIZES {
            let catalog = benches::synthetic_catalog(&vocabulary, tools, SEED);
            assert_eq!(catalog.len(), tools, "the synthetic catalog lost tools");
            inputs.push(Input { name: format!("synth-{}k", tools / 1000), catalog });
        }
        inputs
    })
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("rank/build");
    group.sample_size(10);
    for input in inputs() {
        let tools = input.catalog.len();
        group.throughput(Throughput::Elements(tools as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(&input.name),
            &input.catalog,
            |b, catalog| {
                b.iter_batched(
                    || catalog.clone(),
                    |catalog| {
                        let search = benches::build_search(black_box(catalog));
                        assert_eq!(search.len(), tools);
                        // Returned, so that dropping the index is not timed.
                        search
                    },
                    BatchSize::PerIteration,
                );
            },
        );
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let queries = benches::queries();
    let mut group = c.benchmark_group("rank/search");
    group.throughput(Throughput::Elements(ALL_QUERIES as u64));
    for input in inputs() {
        let search = benches::build_search(input.catalog.clone());
        let expected = benches::search_all(&search, &queries);
        assert!(expected > 0, "no query found anything in {}", input.name);
        group.bench_with_input(BenchmarkId::new("facade", &input.name), &search, |b, s| {
            b.iter(|| assert_eq!(benches::search_all(s, black_box(&queries)), expected));
        });
        let expected = benches::search_all_index(&search, &queries);
        group.bench_with_input(BenchmarkId::new("index", &input.name), &search, |b, s| {
            b.iter(|| assert_eq!(benches::search_all_index(s, black_box(&queries)), expected));
        });
    }
    group.finish();
}

fn replace(c: &mut Criterion) {
    let all = &inputs()[0];
    let search = benches::build_search(all.catalog.clone());
    let tools = benches::replacement_tools(&all.catalog);
    let total = search.len();
    // A replacement that changed something moves the catalog's epoch (the same tools do not).
    let epoch = search.catalog().epoch();
    let mut group = c.benchmark_group("rank/replace");
    group.throughput(Throughput::Elements(tools.len() as u64));
    let id = BenchmarkId::from_parameter(format!("{REPLACED_SERVER}-in-all"));
    group.bench_function(id, |b| {
        b.iter_batched(
            || (search.clone(), tools.clone()),
            |(mut s, tools): (ToolSearch, _)| {
                let result = s.replace_tools(REPLACED_SERVER, black_box(tools));
                assert!(matches!(result, Ok(ref d) if d.is_empty()), "{result:?}");
                assert_eq!(s.len(), total);
                assert_ne!(s.catalog().epoch(), epoch, "the tools were not replaced");
                s
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(rank, build, search, replace);
criterion_main!(rank);
