//! Measures the listing of the whole tuning catalog (all 70 catalogs, 3,952 tools).
//!
//! What's measured: `Lister::prepare` (every server block rendered once in each form),
//! `PreparedListing::render` at several budgets (choosing forms and joining strings), and
//! `Lister::listing` (both) at 4,000 tokens. Each number is the median of many runs.
//!
//! ```text
//! cargo run --release -p toolsift-listing --example listing_timing
//! cargo run --release -p toolsift-listing --example listing_timing -- --dump 4000
//! ```
// An example reports to the terminal.
#![allow(clippy::print_stdout)]

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use toolsift_catalog::{Catalog, ToolKind, load_file};
use toolsift_listing::{Form, Lister};

fn main() -> Result<(), Box<dyn Error>> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs"));
    let mut catalog = Catalog::new();
    for (folder, kind) in
        [("mcp", ToolKind::Mcp), ("openapi", ToolKind::OpenApi), ("plugin", ToolKind::Plugin)]
    {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(folder))?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        files.sort();
        for path in files {
            let stem = path.file_stem().and_then(|s| s.to_str()).ok_or("file name")?.to_owned();
            catalog.add_server(load_file(&path, kind, &stem)?.server);
        }
    }
    let lister = Lister::default();

    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, budget] = args.as_slice()
        && flag == "--dump"
    {
        let budget = if budget == "max" { usize::MAX } else { budget.parse()? };
        print!("{}", lister.listing(&catalog, budget));
        return Ok(());
    }

    println!("catalog: {} servers, {} tools", catalog.servers().len(), catalog.len());
    // On a loaded machine a run of milliseconds is often preempted: report the fastest run
    // (the unloaded cost) with the median.
    let prepare = times(50, || {
        let prepared = lister.prepare(&catalog);
        assert_eq!(prepared.server_count(), 70);
    });
    let prepared = lister.prepare(&catalog);
    println!(
        "prepare (all blocks, all forms): median {}, fastest {}",
        micros(prepare[25]),
        micros(prepare[0])
    );
    println!("full listing: {} tokens (estimated)", prepared.full_tokens());
    println!(
        "{:>8}  {:>10}  {:>6}  {:>5}  {:>7}  {:>7}  {:>7}",
        "budget", "render", "tokens", "full", "names", "summary", "omitted"
    );
    for budget in [0, 100, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, usize::MAX] {
        let time = median(2_000, || {
            let listing = prepared.render(budget);
            assert!(listing.tokens() <= budget);
        });
        let listing = prepared.render(budget);
        let count = |form: Form| listing.servers().iter().filter(|s| s.form() == form).count();
        let shown = if budget == usize::MAX { "max".to_owned() } else { budget.to_string() };
        println!(
            "{shown:>8}  {:>10}  {:>6}  {:>5}  {:>7}  {:>7}  {:>7}",
            micros(time),
            listing.tokens(),
            count(Form::Full),
            count(Form::NamesOnly),
            count(Form::Summary),
            count(Form::Omitted),
        );
    }
    let both = median(50, || {
        let listing = lister.listing(&catalog, 4_000);
        assert!(listing.tokens() <= 4_000);
    });
    println!("prepare + render at 4,000 tokens: {}", micros(both));
    Ok(())
}

/// The median wall time of `runs` calls of `f` (after one warm-up call).
fn median(runs: usize, f: impl FnMut()) -> Duration {
    let times = times(runs, f);
    times[runs / 2]
}

/// The wall times of `runs` calls of `f` (after one warm-up call), sorted.
fn times(runs: usize, mut f: impl FnMut()) -> Vec<Duration> {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}
