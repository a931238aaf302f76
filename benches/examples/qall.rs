#![allow(clippy::print_stdout, missing_docs)]
use std::time::Instant;
fn med(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}
fn main() {
    let what = std::env::args().nth(1).unwrap_or_default();
    let catalog = benches::all_catalog();
    if what.contains('b') {
        let mut t = Vec::new();
        for _ in 0..25 {
            let c = catalog.clone();
            let t0 = Instant::now();
            let s = if what.contains('1') {
                benches::build_search_one_thread(c)
            } else {
                benches::build_search(c)
            };
            t.push(t0.elapsed().as_secs_f64() * 1e3);
            drop(s);
        }
        print!("build {:.2} ms  ", med(t));
    }
    let search = if what.contains('1') {
        benches::build_search_one_thread(catalog)
    } else {
        benches::build_search(catalog)
    };
    let server = benches::REPLACED_SERVER;
    if what.contains('r') {
        for (label, tools) in [
            ("all", benches::replacement_tools(search.catalog())),
            ("one", benches::replacement_with_one_revised(search.catalog())),
        ] {
            let mut t = Vec::new();
            for _ in 0..60 {
                let mut s = search.clone();
                let tl = tools.clone();
                let t0 = Instant::now();
                let r = s.replace_tools(server, tl);
                t.push(t0.elapsed().as_secs_f64() * 1e6);
                drop(r);
                drop(s);
            }
            print!("replace {label} {:.0} us  ", med(t));
        }
    }
    if what.contains('q') {
        let queries = benches::queries();
        for q in &queries {
            let _ = search.search(q, 10);
        }
        let mut times = vec![Vec::new(); queries.len()];
        for _ in 0..7 {
            for (i, q) in queries.iter().enumerate() {
                let t = Instant::now();
                let r = search.search(q, 10);
                times[i].push(t.elapsed().as_secs_f64() * 1e6);
                drop(r);
            }
        }
        let mut m: Vec<f64> = times.into_iter().map(med).collect();
        m.sort_by(|a, b| a.total_cmp(b));
        print!("query median {:.2} us p99 {:.1} us", m[m.len() / 2], m[m.len() * 99 / 100]);
    }
    println!();
}
