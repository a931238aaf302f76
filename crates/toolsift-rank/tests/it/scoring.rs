//! Hand-computed BM25F scores (k1 = 1.2, b = 0.75, name 3.0, summary 1.5, details 1.0).

use crate::{check_search, index, index_with};
use toolsift_rank::IndexBuilder;

/// Two documents:
/// - d0: name "alpha beta" (len 2), summary "gamma" (len 1)
/// - d1: name "gamma" (len 1), summary "alpha delta delta" (len 3)
///
/// avg name = 1.5, avg summary = 2, N = 2.
fn two_docs() -> (toolsift_rank::Index, Vec<toolsift_rank::DocId>) {
    index(&[
        &[("name", "alpha beta"), ("summary", "gamma")],
        &[("name", "gamma"), ("summary", "alpha delta delta")],
    ])
}

#[test]
fn one_term_in_two_documents() {
    let (ix, ids) = two_docs();
    // idf(alpha) = ln(1 + (2 - 2 + 0.5) / (2 + 0.5)) = ln 1.2 = 0.182322
    // d0: name tf 1, norm = 1 - 0.75 + 0.75 * 2 / 1.5 = 1.25, x = 3 / 1.25 = 2.4,
    //     sat = 2.4 * 2.2 / 3.6 = 1.466667, score = 0.267405
    // d1: summary tf 1, norm = 0.25 + 0.75 * 3 / 2 = 1.375, x = 1.5 / 1.375 = 1.090909,
    //     sat = 1.090909 * 2.2 / 2.290909 = 1.047619, score = 0.191003
    check_search(&ix, &ids, "alpha", &[(0, 0.267405), (1, 0.191003)]);
    // gamma: d1 name len 1: norm = 0.25 + 0.75 / 1.5 = 0.75, x = 4, sat = 8.8 / 5.2 = 1.692308,
    //     score = 0.308541; d0 summary len 1: norm = 0.625, x = 2.4, score = 0.267405
    check_search(&ix, &ids, "gamma", &[(1, 0.308541), (0, 0.267405)]);
}

#[test]
fn term_frequency_and_rarity() {
    let (ix, ids) = two_docs();
    // idf(delta) = ln(1 + 1.5 / 1.5) = ln 2 = 0.693147; d1 summary tf 2:
    // x = 2 * 1.5 / 1.375 = 2.181818, sat = 4.8 / 3.381818 = 1.419355, score = 0.983822
    check_search(&ix, &ids, "delta", &[(1, 0.983822)]);
}

#[test]
fn terms_add_up() {
    let (ix, ids) = two_docs();
    // d0: 0.267405 + 0.267405; d1: 0.191003 + 0.308541
    check_search(&ix, &ids, "alpha gamma", &[(0, 0.534810), (1, 0.499544)]);
    // Repeating a word changes nothing: query terms are deduplicated.
    check_search(&ix, &ids, "alpha gamma alpha alpha gamma", &[(0, 0.534810), (1, 0.499544)]);
}

#[test]
fn fields_are_summed_before_saturation() {
    let (ix, ids) = index(&[&[("name", "alpha"), ("summary", "alpha")]]);
    // N = 1: idf = ln(1 + 0.5 / 1.5) = 0.287682. Both fields at average length (norm 1):
    // x = 3 + 1.5 = 4.5, sat = 4.5 * 2.2 / 5.7 = 1.736842, score = 0.499658.
    // (A sum of per-field BM25 scores would give 0.287682 * (1.65 + 1.222222) = 0.826292.)
    check_search(&ix, &ids, "alpha", &[(0, 0.499658)]);
}

#[test]
fn field_b_zero_ignores_length() {
    let b = IndexBuilder::new().analyzer(crate::analyzer()).field_b("name", 0.0);
    let (ix, ids) = index_with(b, &[&[("name", "alpha beta gamma")], &[("name", "alpha")]]);
    // b = 0: norm = 1 for both; x = 3, sat = 6.6 / 4.2 = 1.571429;
    // idf = ln(1 + 0.5 / 2.5) = 0.182322, score = 0.286506 for both, ties in insertion order.
    check_search(&ix, &ids, "alpha", &[(0, 0.286506), (1, 0.286506)]);
}

#[test]
fn origin_weight_scales_tf_and_length() {
    use toolsift_text::Origin;
    let b = IndexBuilder::new().analyzer(crate::analyzer()).origin_weight(Origin::Whole, 0.5);
    let (ix, ids) = index_with(b, &[&[("name", "alpha")]]);
    // tf = 0.5, len = 0.5 = avg: norm 1, x = 1.5, sat = 3.3 / 2.7 = 1.222222,
    // idf = 0.287682, score = 0.351611
    check_search(&ix, &ids, "alpha", &[(0, 0.351611)]);
}

#[test]
fn a_word_in_the_past_tense_weighs_less() {
    // The default analyzer stems `uploaded` to `upload`: a past tense, weighed 0.75 by default,
    // and a score is linear in the query weight. `feed` ends in `ed` but is its own stem.
    let docs: &[crate::Spec<'_>] = &[&[("name", "uploaded files feed upload")]];
    let top = |b: IndexBuilder, query: &str| {
        let (ix, _) = index_with(b, docs);
        ix.search(query, 10).hits().first().map(|h| h.score()).expect("a hit")
    };
    let ratio = |query: &str| {
        top(IndexBuilder::new(), query) / top(IndexBuilder::new().past_tense_weight(1.0), query)
    };
    assert!((ratio("uploaded") - toolsift_rank::DEFAULT_PAST_TENSE_WEIGHT).abs() < 1e-5);
    assert!((ratio("upload") - 1.0).abs() < 1e-6);
    assert!((ratio("feed") - 1.0).abs() < 1e-6);
    // Clamped to [0, 1]; NaN is 1.
    let weight = |w: f32| {
        let index = IndexBuilder::new().past_tense_weight(w).build().expect("config");
        index.config().past_tense_weight()
    };
    assert!((weight(2.0) - 1.0).abs() < f32::EPSILON);
    assert!((weight(f32::NAN) - 1.0).abs() < f32::EPSILON);
    assert!(weight(-1.0).abs() < f32::EPSILON);
}
