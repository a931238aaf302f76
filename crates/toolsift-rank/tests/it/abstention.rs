//! Empty answers: which mechanism abstains, and what the outcome says.

use crate::{builder, index_with};
use toolsift_rank::{Abstention, IndexBuilder, TermStatus};

/// Six tools: the first three about issues, the others about messages and files.
const DOCS: &[crate::Spec<'static>] = &[
    &[("name", "create issue"), ("details", "github tracker")],
    &[("name", "close issue"), ("details", "github tracker")],
    &[("name", "list issues"), ("details", "github tracker")],
    &[("name", "send message"), ("details", "slack channel")],
    &[("name", "read file"), ("details", "filesystem")],
    &[("name", "write file"), ("details", "filesystem")],
];

#[track_caller]
fn check(b: IndexBuilder, query: &str, hits: usize, reason: Option<Abstention>) {
    let (ix, _) = index_with(b, DOCS);
    let out = ix.search(query, 10);
    assert_eq!((out.hits().len(), out.abstention()), (hits, reason), "query {query:?}: {out:?}");
}

#[test]
fn no_terms_and_all_unknown() {
    check(builder(), "", 0, Some(Abstention::NoTerms));
    check(builder(), " ,;! ", 0, Some(Abstention::NoTerms));
    check(builder(), "zebra quokka", 0, Some(Abstention::AllUnknown));
}

#[test]
fn one_unknown_word_does_not_abstain() {
    // "rerun" matches nothing; the other terms still answer, with every mechanism on (the gate
    // keeps only documents with "close", the most specific answerable term).
    let strict = builder().gate(true).coverage(3, 0.5).min_answerable(0.5).min_relative_score(0.05);
    check(strict, "rerun close issue", 1, None);
    check(builder(), "rerun close issue", 3, None);
    let (ix, _) = index_with(builder(), DOCS);
    let out = ix.search("rerun close issue", 10);
    let unknown: Vec<&str> = out.unknown_terms().map(|t| t.word()).collect();
    assert_eq!(unknown, ["rerun"]);
}

#[test]
fn min_answerable() {
    check(
        builder().min_answerable(0.5),
        "zebra quokka issue",
        0,
        Some(Abstention::TooFewAnswerable),
    );
    check(builder().min_answerable(0.5), "zebra issue", 3, None);
}

#[test]
fn gate_requires_the_most_specific_term() {
    // "message" (df 1) is more specific than "file" (df 2): only d3 passes.
    check(builder(), "message file", 3, None);
    check(builder().gate(true), "message file", 1, None);
    // Coverage as an alternative: with 2 answerable terms and fraction 0.5, matching either
    // term is enough.
    check(builder().gate(true).coverage(2, 0.5), "message file", 3, None);
    // Coverage alone: documents must match both terms; none does.
    check(builder().coverage(2, 1.0), "message file", 0, Some(Abstention::Gate));
    // Coverage applies only from min_terms answerable terms up.
    check(builder().coverage(3, 1.0), "message file", 3, None);
}

#[test]
fn floor_relative_to_best_possible() {
    let (ix, _) = index_with(builder(), DOCS);
    let out = ix.search("github slack", 10);
    let best = out.best_possible();
    // best = (idf(github) + idf(slack)) * (k1 + 1)
    let idfs: f32 = out.terms().iter().map(|t| t.idf()).sum();
    assert!((best - idfs * 2.2).abs() < 1e-5);
    let top = out.hits()[0].score() / best;
    // A floor just above the top hit's relative score empties the answer, and says so.
    check(builder().min_relative_score(top + 0.01), "github slack", 0, Some(Abstention::Floor));
    let (ix, _) = index_with(builder().min_relative_score(top + 0.01), DOCS);
    let out = ix.search("github slack", 10);
    let filtered: Vec<&str> = out.filtered_terms().map(|t| t.word()).collect();
    assert_eq!(filtered, ["github", "slack"]);
    assert!(out.terms().iter().all(|t| t.status() == TermStatus::Filtered));
    check(builder().min_relative_score(top - 0.01), "github slack", 1, None);
}

#[test]
fn matched_terms_of_hits() {
    let (ix, ids) = index_with(builder(), DOCS);
    let out = ix.search("close github issue zebra", 10);
    let first = &out.hits()[0];
    assert_eq!(first.doc(), ids[1]);
    let words: Vec<&str> = out.matched_terms(first).map(|t| t.word()).collect();
    assert_eq!(words, ["close", "github", "issue"]);
    assert_eq!(first.matched().collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(out.terms()[3].status(), TermStatus::Unknown);
}

#[test]
fn limit_zero_and_limit_truncation() {
    let (ix, _) = index_with(builder(), DOCS);
    let out = ix.search("issue", 0);
    assert_eq!((out.hits().len(), out.abstention()), (0, None));
    assert_eq!(ix.search("issue", 2).hits().len(), 2);
}
