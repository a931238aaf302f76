//! The listing stage: rendering the `all` catalog for a model within a token budget.
//!
//! What's measured:
//! - `listing/listing`: [`Lister::listing`](toolsift::listing::Lister::listing) of the `all`
//!   catalog (3,952 tools in 70 servers) at 1,000, 4,000 and 16,000 tokens: every server
//!   block rendered in every form, then the forms chosen for the budget. 4,000 is the budget
//!   the listing target is stated for.
//! - `listing/prepare`: [`Lister::prepare`](toolsift::listing::Lister::prepare) alone.
//! - `listing/render`: [`PreparedListing::render`](toolsift::listing::PreparedListing::render)
//!   at the same budgets: what each further request costs a host that keeps the prepared
//!   listing.
//!
//! Throughput: tools in the catalog. Every iteration asserts that the listing is the one
//! rendered before timing (same length, within the budget).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// The budgets measured, in tokens.
const BUDGETS: [usize; 3] = [1_000, benches::LISTING_BUDGET, 16_000];

fn listing(c: &mut Criterion) {
    let catalog = benches::all_catalog();
    let lister = benches::lister();
    let prepared = lister.prepare(&catalog);
    let mut group = c.benchmark_group("listing");
    group.throughput(Throughput::Elements(catalog.len() as u64));
    group.bench_function(BenchmarkId::new("prepare", "all"), |b| {
        b.iter(|| assert_eq!(lister.prepare(black_box(&catalog)).server_count(), 70));
    });
    for budget in BUDGETS {
        let expected = prepared.render(budget);
        assert!(!expected.text().is_empty() && expected.tokens() <= budget);
        let len = expected.text().len();
        let id = format!("all@{budget}");
        group.bench_function(BenchmarkId::new("listing", &id), |b| {
            b.iter(|| assert_eq!(lister.listing(black_box(&catalog), budget).text().len(), len));
        });
        group.bench_function(BenchmarkId::new("render", &id), |b| {
            b.iter(|| assert_eq!(prepared.render(black_box(budget)).text().len(), len));
        });
    }
    group.finish();
}

criterion_group!(benches, listing);
criterion_main!(benches);
