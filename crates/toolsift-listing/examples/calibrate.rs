//! Fits the weights of the default estimate ([`PieceEstimate`]) and measures estimates against
//! OpenAI's cl100k and o200k encodings on the listings of every tuning catalog.
//!
//! The weights are fitted by non-negative least squares to the cl100k count of every distinct
//! line of the listings (every catalog file alone and every tuning dataset, with and without
//! descriptions, at every budget from 500 to 16,000, and in full), then multiplied by the
//! headroom (default 1.11: a Claude-like count, taken as cl100k's times 1.10, must fit, and so
//! must o200k's, which runs up to 10% over cl100k's on some catalogs). It prints the fit, the
//! weights to compile in, and for characters / 4, the compiled-in default and the fitted
//! weights a table per budget of the real count over the budget (least and most over
//! catalogs, listers and forms) and the listings over a limit.
//!
//! ```text
//! cargo run --release -p toolsift-listing --example calibrate [-- HEADROOM]
//! cargo run --release -p toolsift-listing --example calibrate -- --write-words
//! ```
//!
//! `--write-words` rewrites `src/estimate/cl100k-words.txt`, the cl100k tokens the estimate
//! encodes words with, from the encoding.
// An example reports to the terminal.
#![allow(clippy::print_stdout)]

use toolsift_listing::{CharsPerToken, PieceEstimate, TokenEstimator};

#[path = "../tests/support/measure.rs"]
#[allow(dead_code)]
mod measure;

use measure::{BUDGETS, CLAUDE_FACTOR, Measured, Real};

/// One distinct line: its counts and its cl100k and o200k counts.
type Row = ([u32; PieceEstimate::COUNTS], f64, f64);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("--write-words") {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/estimate/cl100k-words.txt");
        let words = measure::cl100k_words();
        std::fs::write(path, words.join("\n") + "\n")?;
        println!("{} tokens written to {path}", words.len());
        return Ok(());
    }
    let headroom: f64 = arg.and_then(|a| a.parse().ok()).unwrap_or(1.11);
    let catalogs = measure::catalogs();
    let mut real = Real::default();

    // The lines to fit: every line of the characters/4 and default sweeps, and every catalog
    // listed in full.
    let chars = measure::measure(&catalogs, CharsPerToken::default(), &mut real);
    let default = measure::measure(&catalogs, PieceEstimate::default(), &mut real);
    for (_, catalog) in &catalogs {
        for (_, lister) in measure::listers(PieceEstimate::default()) {
            real.text(lister.listing(catalog, usize::MAX).text());
        }
    }
    for m in chars.iter().filter(|m| m.catalog == "all") {
        assert_eq!(real.whole(&m.text), (m.cl100k, m.o200k), "lines do not add up");
    }

    let mut rows: Vec<Row> = real
        .lines()
        .map(|(line, (cl, o2))| (PieceEstimate::counts(line), cl as f64, o2 as f64))
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let fit = nnls(&rows);
    println!("{} distinct lines; cl100k fit, thousandths of a token per count:", rows.len());
    for (name, w) in PieceEstimate::FEATURES.iter().zip(fit) {
        println!("  {:>8.1}  {name}", w * 1000.0);
    }
    let mut weights = [0u32; PieceEstimate::COUNTS];
    for (w, f) in weights.iter_mut().zip(fit) {
        *w = (f * headroom * 1000.0).round() as u32;
    }
    println!("weights with headroom {headroom}: {weights:?}");
    let (mut cl, mut o2, mut e_cl, mut e_o2) = (0.0, 0.0, 0.0, 0.0);
    for (counts, c, o) in &rows {
        let e: f64 = counts.iter().zip(fit).map(|(&n, w)| f64::from(n) * w).sum();
        (cl, o2, e_cl, e_o2) = (cl + c, o2 + o, e_cl + (e - c).abs(), e_o2 + (e - o).abs());
    }
    let n = rows.len() as f64;
    println!(
        "mean absolute line error of the fit: cl100k {:.3}, o200k {:.3} tokens; \
         o200k / cl100k over all lines {:.3}",
        e_cl / n,
        e_o2 / n,
        o2 / cl
    );
    let fitted = measure::measure(&catalogs, PieceEstimate::with_weights(weights), &mut real);

    table("characters / 4", &chars);
    table("default (compiled in)", &default);
    table("fitted", &fitted);
    if std::env::var_os("CALIBRATE_DETAIL").is_some() {
        detail(&catalogs, PieceEstimate::with_weights(weights), &mut real);
    }
    Ok(())
}

/// The least and most of `values`.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::MAX, f64::MIN), |(lo, hi), r| (lo.min(r), hi.max(r)))
}

fn table(title: &str, listings: &[Measured]) {
    println!("\n{title}: real tokens / budget, least and most over every catalog, lister and form");
    println!(
        "| budget | cl100k | o200k | Claude-like (cl100k x {CLAUDE_FACTOR}) | cl100k, datasets \
         not complete | cl100k / estimate, 300+ tokens | o200k / estimate, 300+ tokens |"
    );
    println!("|---:|---|---|---|---|---|---|");
    for budget in BUDGETS {
        let at: Vec<&Measured> =
            listings.iter().filter(|m| m.budget == budget && m.estimate > 0).collect();
        let b = budget as f64;
        let cl = range(at.iter().map(|m| m.cl100k as f64 / b));
        let o2 = range(at.iter().map(|m| m.o200k as f64 / b));
        let claude = range(at.iter().map(|m| m.claude() / b));
        let bound = range(
            at.iter()
                .filter(|m| !m.complete && !m.catalog.contains('/'))
                .map(|m| m.cl100k as f64 / b),
        );
        let est = range(
            at.iter().filter(|m| m.estimate >= 300).map(|m| m.cl100k as f64 / m.estimate as f64),
        );
        let est_o2 = range(
            at.iter().filter(|m| m.estimate >= 300).map(|m| m.o200k as f64 / m.estimate as f64),
        );
        println!(
            "| {budget} | {:.3}–{:.3} | {:.3}–{:.3} | {:.3}–{:.3} | {:.3}–{:.3} | {:.3}–{:.3} \
             | {:.3}–{:.3} |",
            cl.0,
            cl.1,
            o2.0,
            o2.1,
            claude.0,
            claude.1,
            bound.0,
            bound.1,
            est.0,
            est.1,
            est_o2.0,
            est_o2.1
        );
    }
    println!(
        "  the merged catalog `all`, with descriptions: budget: estimate, cl100k, o200k, Claude-like"
    );
    for m in listings.iter().filter(|m| m.catalog == "all" && m.lister == "described") {
        println!("    {}: {}, {}, {}, {:.0}", m.budget, m.estimate, m.cl100k, m.o200k, m.claude());
    }
    for form in ["full", "names", "summary", "mixed"] {
        let of: Vec<&Measured> =
            listings.iter().filter(|m| m.forms == form && m.estimate > 0).collect();
        let r = range(of.iter().map(|m| m.cl100k as f64 / m.budget as f64));
        let o = range(of.iter().map(|m| m.o200k as f64 / m.budget as f64));
        println!(
            "  {form}: {} listings, cl100k / budget {:.3}–{:.3}, o200k / budget {:.3}–{:.3}",
            of.len(),
            r.0,
            r.1,
            o.0,
            o.1
        );
    }
    let over: Vec<&Measured> = listings
        .iter()
        .filter(|m| {
            m.cl100k > m.budget || m.o200k > m.budget || m.claude() > 1.05 * m.budget as f64
        })
        .collect();
    println!("  listings over a limit: {} of {}", over.len(), listings.len());
    for m in over.iter().take(10) {
        println!(
            "    {} {} @{} {}: estimate {} cl100k {} o200k {}",
            m.catalog, m.lister, m.budget, m.forms, m.estimate, m.cl100k, m.o200k
        );
    }
    if std::env::var_os("CALIBRATE_DETAIL").is_some() {
        for m in listings.iter().filter(|m| !m.complete && !m.catalog.contains('/')) {
            println!(
                "    {} {} @{} {}: estimate/b {:.3} cl100k/b {:.3} o200k/b {:.3}",
                m.catalog,
                m.lister,
                m.budget,
                m.forms,
                m.estimate as f64 / m.budget as f64,
                m.cl100k as f64 / m.budget as f64,
                m.o200k as f64 / m.budget as f64
            );
        }
    }
}

/// Per catalog: cl100k over the estimate of its full listings; then the lines the estimate
/// misses most.
fn detail(catalogs: &[(String, toolsift_catalog::Catalog)], est: PieceEstimate, real: &mut Real) {
    let mut rows = Vec::new();
    for (name, catalog) in catalogs {
        for (lister_name, lister) in measure::listers(est) {
            let text = lister.listing(catalog, usize::MAX).into_text();
            let (cl, o2) = real.text(&text);
            let e = est.estimate(&text);
            rows.push((cl as f64 / e as f64, name.clone(), lister_name, e, cl, o2));
        }
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    for r in &rows {
        println!("  full {:.3} {} {} est {} cl100k {} o200k {}", r.0, r.1, r.2, r.3, r.4, r.5);
    }
    let units = |l: &str| -> f64 {
        let c = PieceEstimate::counts(l);
        c.iter().zip(est.weights()).map(|(&n, w)| f64::from(n) * f64::from(w)).sum::<f64>() / 1e3
    };
    let mut lines: Vec<(f64, String, usize)> =
        real.lines().map(|(l, (cl, _))| (cl as f64 - units(l), l.to_owned(), cl)).collect();
    lines.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (d, l, cl) in lines.iter().take(15).chain(lines.iter().rev().take(15)) {
        println!("  line {d:+.2} cl100k {cl}: {}", l.trim_end());
    }
}

/// Non-negative least squares: solve the normal equations, drop the most negative weight,
/// repeat.
fn nnls(rows: &[Row]) -> [f64; PieceEstimate::COUNTS] {
    const N: usize = PieceEstimate::COUNTS;
    let mut active = [true; N];
    loop {
        let idx: Vec<usize> = (0..N).filter(|&i| active[i]).collect();
        let k = idx.len();
        let mut a = vec![vec![0.0f64; k + 1]; k];
        for (x, y, _) in rows {
            for (r, &i) in idx.iter().enumerate() {
                for (c, &j) in idx.iter().enumerate() {
                    a[r][c] += f64::from(x[i]) * f64::from(x[j]);
                }
                a[r][k] += f64::from(x[i]) * y;
            }
        }
        // A tiny ridge keeps counts that never occur at zero.
        for (r, row) in a.iter_mut().enumerate() {
            row[r] += 1e-6;
        }
        let solution = solve(a);
        let mut w = [0.0; N];
        for (r, &i) in idx.iter().enumerate() {
            w[i] = solution[r];
        }
        match idx.iter().copied().filter(|&i| w[i] < 0.0).min_by(|&a, &b| w[a].total_cmp(&w[b])) {
            Some(i) => active[i] = false,
            None => return w,
        }
    }
}

/// Gauss–Jordan elimination with partial pivoting of an augmented matrix.
fn solve(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let k = a.len();
    for col in 0..k {
        let pivot =
            (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        let p = a[col][col];
        if p == 0.0 {
            continue;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / p;
                for (x, &y) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * y;
                }
            }
        }
    }
    (0..k).map(|r| if a[r][r] == 0.0 { 0.0 } else { a[r][k] / a[r][r] }).collect()
}
