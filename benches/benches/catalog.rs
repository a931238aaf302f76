//! The catalog stage: ingesting the real catalog files from disk.
//!
//! What's measured: reading, parsing (JSON, and YAML for two OpenAPI documents) and converting
//! the catalog files of `xtask/tuning/all/dataset.json` into one
//! [`Catalog`](toolsift::catalog::Catalog), per kind (`mcp`: 61 files, `openapi`: 6,
//! `plugin`: 3) and all 70 together (`benches::ingest`: one file after the other, the path the
//! ingest target is stated for), plus all 70 on every core (`all-cores`,
//! [`Loader::load_files`](toolsift::catalog::Loader::load_files)). Throughput: bytes of files.
//!
//! Corpus: the 70 catalogs copied into `xtask/tuning/catalogs/` (15.6 MB; SOURCES.md lists
//! them). The operating system caches the files after the first read, so this measures parsing
//! and conversion, not the disk.
//!
//! Every iteration asserts the number of tools loaded, as counted before timing.

use std::hint::black_box;

use benches::CatalogFile;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn ingest(c: &mut Criterion) {
    let files = benches::catalog_files();
    let mut inputs: Vec<(String, Vec<CatalogFile>)> = ["mcp", "openapi", "plugin"]
        .iter()
        .map(|kind| {
            let of_kind = files.iter().filter(|f| f.kind.as_str() == *kind).cloned().collect();
            ((*kind).to_owned(), of_kind)
        })
        .collect();
    inputs.push(("all".to_owned(), files));
    let mut group = c.benchmark_group("catalog/ingest");
    group.sample_size(10);
    for (name, files) in &inputs {
        assert!(!files.is_empty(), "no {name} catalog");
        let tools = benches::ingest(files).len();
        group.throughput(Throughput::Bytes(benches::total_bytes(files)));
        group.bench_with_input(BenchmarkId::new("sequential", name), files, |b, files| {
            b.iter(|| assert_eq!(benches::ingest(black_box(files)).len(), tools));
        });
        if name == "all" {
            assert_eq!(tools, benches::ALL_TOOLS);
            group.bench_with_input(BenchmarkId::new("all-cores", name), files, |b, files| {
                b.iter(|| assert_eq!(benches::ingest_parallel(black_box(files)).len(), tools));
            });
        }
    }
    group.finish();
}

criterion_group!(catalog, ingest);
criterion_main!(catalog);
