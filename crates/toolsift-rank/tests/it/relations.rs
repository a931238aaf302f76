//! Related terms: same stem, stem prefix, and the idf they share.

use crate::{check_search, index, index_with};
use toolsift_rank::{IndexBuilder, Relation};

/// d0 "issues" (stem issue), d1 "issue", d2 "repo"; every name has length 1 = avg, so each
/// posting's pseudo-frequency is 3. N = 3.
fn docs() -> (toolsift_rank::Index, Vec<toolsift_rank::DocId>) {
    index(&[&[("name", "issues")], &[("name", "issue")], &[("name", "repo")]])
}

#[test]
fn same_stem_weighs_less_and_shares_rarity() {
    let (ix, ids) = docs();
    // df(issue) = documents with exact or same-stem forms = 2: idf = ln(1 + 1.5 / 2.5) = 0.470004
    // d1 exact: x = 3, sat = 1.571429, score = 0.738578
    // d0 same stem: x = 0.3 * 3 = 0.9, sat = 1.98 / 2.1 = 0.942857, score = 0.443147
    check_search(&ix, &ids, "issue", &[(1, 0.738578), (0, 0.443147)]);
    check_search(&ix, &ids, "issues", &[(0, 0.738578), (1, 0.443147)]);
}

#[test]
fn prefix_relation_both_ways() {
    let (ix, ids) = docs();
    // "repository" is not indexed; "repo" (4 chars) is a prefix of its stem. No exact or
    // same-stem form, so df = documents with any form = 1: idf = ln(1 + 2.5 / 1.5) = 0.980829.
    // x = 0.3 * 3 = 0.9, sat = 0.942857, score = 0.924782
    check_search(&ix, &ids, "repository", &[(2, 0.924782)]);
    let (ix, ids) = index(&[&[("name", "repositories")], &[("name", "list")]]);
    // "repo" extends to "repositorie" (stem of "repositories"): N = 2, df = 1,
    // idf = ln(1 + 1.5 / 1.5) = 0.693147, score = 0.693147 * 0.942857 = 0.653539
    check_search(&ix, &ids, "repo", &[(0, 0.653539)]);
}

#[test]
fn short_stems_do_not_extend() {
    let (ix, ids) = index(&[&[("name", "report")], &[("name", "rep")]]);
    // "rep" has 3 characters: it neither finds "report" nor is found from it.
    // N = 2, df = 1, idf = ln 2 = 0.693147, x = 3, score = 0.693147 * 1.571429 = 1.089231
    check_search(&ix, &ids, "rep", &[(1, 1.089231)]);
    check_search(&ix, &ids, "report", &[(0, 1.089231)]);
}

#[test]
fn rare_word_is_not_made_common_by_extensions() {
    // "list" occurs once exactly; "listing", "listings", "listed"... would extend it. Its idf
    // counts only exact and same-stem forms: df = 1 of N = 4, idf = ln(1 + 3.5 / 1.5) = 1.203973.
    let (ix, ids) = index(&[
        &[("name", "list")],
        &[("name", "listing")],
        &[("name", "listings")],
        &[("name", "listeners")],
    ]);
    let out = ix.search("list", 10);
    assert_eq!(out.terms()[0].df(), 1);
    assert!((out.terms()[0].idf() - 1.203973).abs() < 1e-5);
    // d0 exact: 1.203973 * 1.571429 = 1.891958; the others by prefix: 1.203973 * 0.942857 =
    // 1.135174, ties in insertion order.
    check_search(&ix, &ids, "list", &[(0, 1.891958), (1, 1.135174), (2, 1.135174), (3, 1.135174)]);
}

#[test]
fn relation_weights_are_configurable() {
    let b = IndexBuilder::new()
        .analyzer(crate::analyzer())
        .relation_weight(Relation::Stem, 0.0)
        .relation_weight(Relation::Prefix, 1.0);
    let (ix, ids) =
        index_with(b, &[&[("name", "issues")], &[("name", "issue")], &[("name", "repo")]]);
    // Same-stem off: only d1. (df still counts both same-stem documents: idf 0.470004.)
    check_search(&ix, &ids, "issue", &[(1, 0.738578)]);
    // Prefix at 1: "repository" scores "repo" like an exact match with df 1 (idf 0.980829).
    check_search(&ix, &ids, "repository", &[(2, 1.541303)]);
}
