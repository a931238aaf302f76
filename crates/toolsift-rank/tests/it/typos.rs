//! Typo matching ([`Relation::Typo`]): a query word the catalog and the expander do not know
//! matches the catalog words one edit away, and the other words of their stems, at a reduced
//! weight.

use crate::{analyzer, doc};
use std::sync::Arc;
use toolsift_rank::{
    Abstention, DocId, Expander, Index, IndexBuilder, Outcome, Relation, TermStatus,
};

fn build(b: IndexBuilder) -> (Index, Vec<DocId>) {
    let mut ix = b.build().expect("valid settings");
    let ids = ix
        .add(
            [
                &[("name", "list repositories"), ("summary", "repository listing")][..],
                &[("name", "create issue")],
                &[("name", "send message")],
                &[("name", "hotel booking")],
                &[("name", "list repository")],
            ]
            .iter()
            .map(|d| doc(d)),
        )
        .expect("known fields");
    (ix, ids)
}

fn default_index() -> (Index, Vec<DocId>) {
    build(IndexBuilder::new().analyzer(analyzer()))
}

/// The hit documents of `query`, best first.
fn hits(ix: &Index, query: &str) -> Vec<DocId> {
    ix.search(query, 10).hits().iter().map(|h| h.doc()).collect()
}

#[test]
fn a_typo_finds_the_word_it_misspells() {
    let (ix, ids) = default_index();
    // (query, documents expected among the hits, in that order, and documents not expected)
    let cases: &[(&str, &[usize], &[usize])] = &[
        ("isssue", &[1], &[0, 2, 3, 4]),       // insertion
        ("mesage", &[2], &[0, 1, 3, 4]),       // deletion
        ("mesasge", &[2], &[0, 1, 3, 4]),      // swap
        ("creste issue", &[1], &[0, 2, 3, 4]), // replacement next to a known word
        // The exact misspelt word first, the other word of its stem after it.
        ("repositry", &[4, 0], &[1, 2, 3]),
    ];
    for &(query, want, not) in cases {
        let got = hits(&ix, query);
        let want: Vec<DocId> = want.iter().map(|&i| ids[i]).collect();
        assert_eq!(&got[..want.len().min(got.len())], &want[..], "query {query:?}");
        for &i in not {
            assert!(!got.contains(&ids[i]), "query {query:?} found doc {i}");
        }
    }
}

#[test]
fn what_is_not_taken_for_a_typo() {
    let (ix, ids) = default_index();
    for (query, why) in [
        ("ssue", "a changed first letter"),
        ("mesg", "shorter than typo_min_chars (5)"),
        ("massive", "more than one edit from any word"),
    ] {
        let out = ix.search(query, 10);
        assert_eq!(out.abstention(), Some(Abstention::AllUnknown), "{query:?}: {why}");
    }
    // Identifier parts are words like any other: `isssue` in `isssue_tracker` is corrected.
    assert_eq!(hits(&ix, "isssue_tracker").first(), Some(&ids[1]));
}

#[test]
fn known_words_are_never_corrected() {
    let (ix, ids) = default_index();
    // `hotel` is in the catalog: it does not also match `hotels`-like neighbours, and the term
    // is not marked corrected.
    let out = ix.search("hotel", 10);
    assert_eq!(out.hits().iter().map(|h| h.doc()).collect::<Vec<_>>(), vec![ids[3]]);
    assert!(out.terms().iter().all(|t| !t.corrected()));
    // A misspelling is marked corrected, and matched.
    let out = ix.search("isssue", 10);
    let t = &out.terms()[0];
    assert!(t.corrected());
    assert_eq!(t.status(), TermStatus::Matched);
    assert_eq!(t.corrections().collect::<Vec<_>>(), ["issue"]);
    // The words one edit away, not the other words of their stems: `repositry` is
    // `repository`, and matches `repositories` only as its stem's sibling.
    let out = ix.search("repositry", 10);
    assert_eq!(out.terms()[0].corrections().collect::<Vec<_>>(), ["repository"]);
    // A known word has none.
    assert_eq!(ix.search("hotel", 10).terms()[0].corrections().len(), 0);
    // Corrected but nothing one edit away: unknown, and the query abstains as before.
    let out = ix.search("zzzzzz", 10);
    assert_eq!(out.terms()[0].corrections().len(), 0);
    assert!(out.terms()[0].corrected());
    assert_eq!(out.terms()[0].status(), TermStatus::Unknown);
    assert_eq!(out.abstention(), Some(Abstention::AllUnknown));
}

/// A word whose documents were all removed is not a correction, whatever the vocabulary
/// still holds: the answer is the same as for a fresh or reloaded index.
#[test]
fn removed_words_are_not_corrections() {
    let mut ix = IndexBuilder::new().analyzer(analyzer()).build().expect("valid settings");
    let ids = ix.add([doc(&[("name", "issues")]), doc(&[("name", "hotel")])]).expect("fields");
    assert_eq!(ix.search("isues", 5).terms()[0].corrections().collect::<Vec<_>>(), ["issues"]);
    ix.remove(&ids[..1]);
    let out = ix.search("isues", 5);
    assert!(out.terms()[0].corrected());
    assert_eq!(out.terms()[0].corrections().len(), 0);
    let mut fresh = IndexBuilder::new().analyzer(analyzer()).build().expect("valid settings");
    fresh.add([doc(&[("name", "hotel")])]).expect("fields");
    assert_eq!(out, fresh.search("isues", 5));
}

/// A word the expander knows is its business, not a typo, even if a catalog word is one
/// edit away.
#[test]
fn expander_words_are_not_corrected() {
    #[derive(Debug)]
    struct Books;
    impl Expander for Books {
        fn expand(&self, word: &str, _stem: &str, emit: &mut dyn FnMut(&str, f32)) {
            if word == "hotels" {
                emit("booking", 1.0);
            }
        }
    }
    let (ix, ids) = build(IndexBuilder::new().analyzer(analyzer()).expander(Arc::new(Books)));
    // `hotels` has the catalog stem `hotel` (the test stemmer drops one `s`), so it is known.
    let out = ix.search("hotels", 10);
    assert!(!out.terms()[0].corrected());
    assert_eq!(out.hits()[0].doc(), ids[3]);
}

#[test]
fn typo_weight_and_length_settings() {
    // Off: the misspelling is unknown.
    let (ix, _) =
        build(IndexBuilder::new().analyzer(analyzer()).relation_weight(Relation::Typo, 0.0));
    let out: Outcome = ix.search("isssue", 10);
    assert_eq!(out.abstention(), Some(Abstention::AllUnknown));
    assert!(!out.terms()[0].corrected());
    // A lower minimum length corrects shorter words.
    let (ix, ids) = build(IndexBuilder::new().analyzer(analyzer()).typo_min_chars(4));
    assert_eq!(hits(&ix, "mesg").first(), None, "two edits from `message`");
    assert_eq!(hits(&ix, "lisst").first(), Some(&ids[0]));
    let (ix, ids) = build(IndexBuilder::new().analyzer(analyzer()).typo_min_chars(4));
    assert_eq!(hits(&ix, "sned").first(), Some(&ids[2]));
    // The typo weight scales the score: half the weight, a lower score for the same document.
    let score = |w: f32| {
        let (ix, ids) =
            build(IndexBuilder::new().analyzer(analyzer()).relation_weight(Relation::Typo, w));
        let out = ix.search("isssue", 10);
        out.hits().iter().find(|h| h.doc() == ids[1]).map(|h| h.score())
    };
    let (low, high) = (score(0.2).unwrap_or(0.0), score(0.6).unwrap_or(0.0));
    assert!(low > 0.0 && low < high, "{low} < {high}");
}

/// The explanation names the relation.
#[test]
fn explain_shows_typo_forms() {
    let (ix, ids) = default_index();
    let e = ix.explain(ids[4], "repositry").expect("indexed");
    let forms: Vec<Relation> =
        e.terms.iter().flat_map(|t| t.forms.iter().map(|f| f.relation)).collect();
    assert!(!forms.is_empty());
    assert!(forms.iter().all(|&r| r == Relation::Typo), "{forms:?}");
}
