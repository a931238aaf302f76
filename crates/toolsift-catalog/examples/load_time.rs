//! Measures loading every real catalog under `xtask/tuning/catalogs` (70 files, 15.7 MB).
//!
//! Run with `cargo run --release -p toolsift-catalog --example load_time [runs]`; prints the
//! fastest and the median of the runs (default 10), each covering reading, parsing and
//! adapting all files and adding them to one [`Catalog`], first one file after the other with
//! `load_file`, then with `Loader::load_files` on all cores. On Linux it also prints the CPU
//! time of the one-thread runs, which is less sensitive to other load on the machine.
#![allow(clippy::print_stdout)] // An example reports on stdout.

use std::time::{Duration, Instant};

use toolsift_catalog::{Catalog, Loader, ToolKind, load_file};

const CATALOGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize = std::env::args().nth(1).map_or(Ok(10), |a| a.parse())?;
    let mut files = Vec::new();
    for (dir, kind) in
        [("mcp", ToolKind::Mcp), ("openapi", ToolKind::OpenApi), ("plugin", ToolKind::Plugin)]
    {
        for entry in std::fs::read_dir(format!("{CATALOGS}/{dir}"))? {
            let path = entry?.path();
            let server =
                path.file_stem().and_then(|s| s.to_str()).ok_or("bad file name")?.to_owned();
            files.push((path, kind, server));
        }
    }
    files.sort();
    let bytes: u64 =
        files.iter().map(|(p, _, _)| std::fs::metadata(p).map_or(0, |m| m.len())).sum();
    let jobs: Vec<_> = files.iter().map(|(p, k, s)| (p.clone(), *k, s.as_str())).collect();
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut cpu: Vec<Duration> = Vec::with_capacity(runs);
    let mut parallel: Vec<Duration> = Vec::with_capacity(runs);
    let mut tools = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let cpu_start = cpu_time();
        let mut catalog = Catalog::new();
        for (path, kind, server) in &files {
            let loaded = load_file(path, *kind, server)?;
            catalog.add_server(loaded.server);
        }
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu_start, cpu_time()) {
            cpu.push(b.saturating_sub(a));
        }
        tools = catalog.len();
        let start = Instant::now();
        let mut catalog = Catalog::new();
        for loaded in Loader::default().load_files(&jobs) {
            catalog.add_server(loaded?.server);
        }
        parallel.push(start.elapsed());
        assert_eq!(catalog.len(), tools);
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    cpu.sort();
    if let (Some(first), Some(mid)) = (cpu.first(), cpu.get(cpu.len() / 2)) {
        println!(
            "load_file, one thread: cpu time: least {:.0} ms, median {:.0} ms (10 ms ticks)",
            ms(*first),
            ms(*mid)
        );
    }
    for (what, times) in
        [("load_file, one thread", &mut times), ("Loader::load_files, all cores", &mut parallel)]
    {
        times.sort();
        println!(
            "{what}: {} files, {bytes} bytes, {tools} tools: fastest {:.1} ms, median {:.1} ms over {} runs",
            files.len(),
            ms(times[0]),
            ms(times[times.len() / 2]),
            times.len()
        );
    }
    Ok(())
}

/// The time this thread has spent on a CPU (Linux `/proc/thread-self/stat`, user plus system,
/// in ticks of 10 ms), which a busy machine inflates less than wall time.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after = text.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
