//! The default estimate held to real tokenizers on the tuning catalogs: every catalog file
//! alone and every tuning dataset, listed with and without descriptions at every budget from
//! 500 to 16,000 (`tests/support/measure.rs` says how), counted with OpenAI's cl100k and o200k
//! encodings (`tiktoken-rs`).

use std::fmt::Write as _;

use proptest::prelude::*;
use toolsift_listing::{PieceEstimate, TokenEstimator};

use crate::support::{self, Measured, Real};

/// The limits of `docs/listing.md`: never over the budget in cl100k or o200k, at most 5% over
/// it in the Claude-like count (cl100k × 1.10), at least 85% of the estimate in cl100k (the
/// estimate does not over-count) for listings of 300 estimated tokens or more, and at least
/// 85% of the budget in cl100k for listings that fill it by their own estimate.
#[test]
fn the_default_estimate_holds_in_real_tokens() {
    let catalogs = support::catalogs();
    assert!(catalogs.len() >= 75, "{} catalogs", catalogs.len());
    let mut real = Real::default();
    let listings = support::measure(&catalogs, PieceEstimate::default(), &mut real);
    let mut failures = String::new();
    for m in &listings {
        let budget = m.budget as f64;
        let over = m.cl100k > m.budget || m.o200k > m.budget || m.claude() > 1.05 * budget;
        let low = m.estimate >= 300 && (m.cl100k as f64) < 0.85 * m.estimate as f64;
        if over || low {
            let _ = writeln!(failures, "{}", describe(m));
        }
    }
    assert!(failures.is_empty(), "listings outside the limits:\n{failures}");
    // Every form is covered.
    for form in ["full", "names", "summary", "mixed"] {
        assert!(listings.iter().any(|m| m.forms == form), "no {form} listing");
    }
    // Wherever the listing fills its budget by its own estimate (96% or more; how close it
    // gets depends on how finely its servers' forms divide), it fills 85% of it in cl100k.
    let filled: Vec<&Measured> =
        listings.iter().filter(|m| m.estimate as f64 >= 0.96 * m.budget as f64).collect();
    assert!(filled.len() >= 30, "{} listings fill their budget", filled.len());
    for m in filled {
        assert!(m.cl100k as f64 >= 0.85 * m.budget as f64, "{}", describe(m));
    }
}

fn describe(m: &Measured) -> String {
    format!(
        "{} ({}, {} forms) at {}: estimate {}, cl100k {}, o200k {}, Claude-like {:.0}",
        m.catalog,
        m.lister,
        m.forms,
        m.budget,
        m.estimate,
        m.cl100k,
        m.o200k,
        m.claude()
    )
}

/// A listing is counted by its lines, because OpenAI's encodings never join a line break with
/// the text after it: checked on the merged catalog's listings, counted whole.
#[test]
fn listings_count_by_lines() {
    let catalogs = support::catalogs();
    let all: Vec<_> = catalogs.into_iter().filter(|(name, _)| name == "all").collect();
    let mut real = Real::default();
    for m in support::measure(&all, PieceEstimate::default(), &mut real) {
        assert_eq!(real.whole(&m.text), (m.cl100k, m.o200k), "{}", describe(&m));
    }
}

/// The built-in word table is the one the encoding gives.
#[test]
fn the_word_table_is_cl100k() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/estimate/cl100k-words.txt");
    let file = std::fs::read_to_string(path).unwrap_or_default();
    let expected = support::cl100k_words();
    assert_eq!(expected.len(), 64_034);
    assert!(file.lines().eq(expected.iter().map(String::as_str)), "rerun the calibrate example");
}

/// Words cost what cl100k encodes them to; the rest is counted by kind.
#[test]
fn words_are_encoded_with_cl100k_merges() {
    let bpe = tiktoken_rs::cl100k_base_singleton();
    for word in ["datadog", " description", "_issue", "-management", " Confluence", "tavily"] {
        let counts = PieceEstimate::counts(word);
        assert_eq!(counts[0] as usize, bpe.count_ordinary(word), "{word:?}");
    }
    // `get` `Pet` `By` `Id`: words cut where a lower-case letter meets a capital.
    assert_eq!(PieceEstimate::counts("getPetById")[0], 4);
    // All-caps words are counted apart: one word, four capitals.
    assert_eq!(PieceEstimate::counts("HTTP")[1..3], [1, 4]);
    // `2024` is two digit groups; `__` one punctuation run of two characters.
    assert_eq!(PieceEstimate::counts("2024")[3], 2);
    assert_eq!(PieceEstimate::counts("a__b")[4..6], [1, 2]);
    let estimate = PieceEstimate::default();
    assert_eq!(estimate.estimate(""), 0);
    assert_eq!(estimate.weights(), PieceEstimate::new().weights());
    assert_eq!(PieceEstimate::with_weights([1000; 12]).estimate("a b"), 2);
}

proptest! {
    /// The estimate adds up over lines (rounded once), so the listing can add block costs.
    #[test]
    fn the_estimate_adds_up_over_lines(a in "[ -~é—日🛡\\t]{0,40}", b in "[ -~é—日🛡\\n]{0,40}") {
        let joined = format!("{a}\n{b}");
        let first = format!("{a}\n");
        let sum: Vec<u32> = PieceEstimate::counts(&first)
            .iter()
            .zip(PieceEstimate::counts(&b))
            .map(|(x, y)| x + y)
            .collect();
        prop_assert_eq!(PieceEstimate::counts(&joined).to_vec(), sum);
    }

    /// A tool line costs at least its name with the `:` (what the listing bounds a full form's
    /// cost with before rendering descriptions).
    #[test]
    fn a_name_costs_at_most_its_line(name in "[a-zA-Z0-9_%-]{1,30}", desc in "[ -~]{1,40}") {
        let estimate = PieceEstimate::default();
        let line = format!("- {name}: {desc}\n");
        let head = format!("- {name}:");
        prop_assert!(estimate.estimate(&head) <= estimate.estimate(&line));
    }
}
