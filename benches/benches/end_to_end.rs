//! The whole pipeline, as a host runs it.
//!
//! What's measured:
//! - `end_to_end/cold-start`: from the 70 catalog files on disk to a ready search and the
//!   catalog listing within 4,000 tokens (`benches::cold_start`: ingest, listing, build).
//!   Throughput: bytes of catalog files.
//! - `end_to_end/answer`: one pass over the 390 queries of the `all` dataset, each searched
//!   for its top 10 and rendered as the model reads the answer (compact text lines, or the two
//!   lines of an empty result; `benches::answer`). Throughput: queries.
//!
//! Every iteration asserts its result: the tool count and a non-empty listing after a cold
//! start, the total length of all rendered answers as found before timing.

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn cold_start(c: &mut Criterion) {
    let files = benches::catalog_files();
    let lister = benches::lister();
    let mut group = c.benchmark_group("end_to_end");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(benches::total_bytes(&files)));
    group.bench_function(BenchmarkId::new("cold-start", "all"), |b| {
        b.iter_batched(
            || (),
            |()| {
                let (search, listing) = benches::cold_start(black_box(&files), &lister);
                assert_eq!(search.len(), benches::ALL_TOOLS);
                assert!(!listing.text().is_empty());
                // Returned, so that dropping them is not timed.
                (search, listing)
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

fn answer(c: &mut Criterion) {
    let search = benches::build_search(benches::all_catalog());
    let lister = benches::lister();
    let queries = benches::queries();
    let pass = || queries.iter().map(|q| benches::answer(&search, &lister, q).len()).sum::<usize>();
    let expected = pass();
    assert!(expected > 0);
    let mut group = c.benchmark_group("end_to_end");
    group.throughput(Throughput::Elements(queries.len() as u64));
    group.bench_function(BenchmarkId::new("answer", "all"), |b| {
        b.iter(|| assert_eq!(black_box(pass()), expected));
    });
    group.finish();
}

criterion_group!(end_to_end, cold_start, answer);
criterion_main!(end_to_end);
