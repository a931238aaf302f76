//! Query expansion ([`Expander`]) and the tie-break order key ([`Document::order`]).

use crate::{analyzer, doc};
use std::sync::Arc;
use toolsift_rank::{Document, Expander, Index, IndexBuilder, Relation, TermStatus};

/// A fixed lexicon: (query word, emitted word, weight).
#[derive(Debug)]
struct Lexicon(&'static [(&'static str, &'static str, f32)]);

impl Expander for Lexicon {
    fn expand(&self, word: &str, _stem: &str, emit: &mut dyn FnMut(&str, f32)) {
        for &(from, to, w) in self.0 {
            if from == word {
                emit(to, w);
            }
        }
    }
}

/// An index expanding through `lexicon`, where expansion forms alone may answer a query (the
/// scoring tests below query single unknown words; `expansions_alone_do_not_answer` covers the
/// default).
fn with(lexicon: &'static [(&'static str, &'static str, f32)]) -> IndexBuilder {
    IndexBuilder::new()
        .analyzer(analyzer())
        .expander(Arc::new(Lexicon(lexicon)))
        .require_own_match(false)
}

/// By default a query none of whose own words occurs in the index abstains, even when its
/// expansions match ("book a flight": `book` → `reserve` alone is a coincidence); one own word
/// is enough for the expansions to count.
#[test]
fn expansions_alone_do_not_answer() {
    let docs = [&[("name", "reserve table")][..], &[("name", "list flights")]];
    let lexicon: &'static [(&'static str, &'static str, f32)] = &[("book", "reserve", 1.0)];
    let strict = || IndexBuilder::new().analyzer(analyzer()).expander(Arc::new(Lexicon(lexicon)));
    let mut ix = strict().build().expect("config");
    let ids = ix.add(docs.iter().map(|d| doc(d))).expect("fields");
    let out = ix.search("book", 10);
    assert!(out.is_empty());
    assert_eq!(out.abstention(), Some(toolsift_rank::Abstention::AllUnknown));
    // With an own word ("table") the expansion counts again.
    let out = ix.search("book table", 10);
    assert_eq!(out.hits().first().map(|h| h.doc()), Some(ids[0]));
    // Switched off, the expansion alone answers.
    let mut ix = strict().require_own_match(false).build().expect("config");
    let ids = ix.add(docs.iter().map(|d| doc(d))).expect("fields");
    let out = ix.search("book", 10);
    assert_eq!(out.hits().first().map(|h| h.doc()), Some(ids[0]));
}

/// Scores of `query` per document (in `ids` order; 0 if not a hit), to 1e-5.
#[track_caller]
fn check(ix: &Index, ids: &[toolsift_rank::DocId], query: &str, want: &[f32]) {
    let out = ix.search(query, 10);
    let got: Vec<f32> = ids
        .iter()
        .map(|&id| out.hits().iter().find(|h| h.doc() == id).map_or(0.0, |h| h.score()))
        .collect();
    let ok = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-5);
    assert!(ok, "query {query:?}\n got: {got:?}\nwant: {want:?}");
}

/// N = 3, every name field has length 1 (avg 1, norm 1, pf 3).
/// "remove" is known (df 1): idf = ln(1 + 2.5 / 1.5) = 0.980829.
/// - "remove": d0 exact, x = 3, sat = 6.6 / 4.2 = 1.571429, score 1.541303.
/// - "delete" (unknown alone; expands to "remove" at 0.5 × 1.0): it occurs only through its
///   expansion, so its df is the expansion's (1) and idf 0.980829; x = 0.5 * 3 = 1.5,
///   sat = 3.3 / 2.7 = 1.222222, score 1.198791.
/// - "delete" with weight 0.5 for the word: x = 0.75, sat = 1.65 / 1.95 = 0.846154,
///   score 0.829932.
#[test]
fn expansions_add_before_saturation() {
    let docs = [&[("name", "remove")][..], &[("name", "create")], &[("name", "list")]];
    let mut ix = with(&[("delete", "remove", 1.0)]).build().expect("config");
    let ids = ix.add(docs.iter().map(|d| doc(d))).expect("fields");
    check(&ix, &ids, "remove", &[1.541303, 0.0, 0.0]);
    check(&ix, &ids, "delete", &[1.198791, 0.0, 0.0]);
    let out = ix.search("delete", 10);
    assert_eq!(out.terms()[0].status(), TermStatus::Matched);
    assert_eq!(out.terms()[0].df(), 1);
    let mut ix = with(&[("delete", "remove", 0.5)]).build().expect("config");
    let ids = ix.add(docs.iter().map(|d| doc(d))).expect("fields");
    check(&ix, &ids, "delete", &[0.829932, 0.0, 0.0]);
    // The relation weight is configurable, and 0 turns expansion off.
    let mut ix = with(&[("delete", "remove", 1.0)])
        .relation_weight(Relation::Expansion, 0.0)
        .build()
        .expect("config");
    ix.add(docs.iter().map(|d| doc(d))).expect("fields");
    assert!(ix.search("delete", 10).is_empty());
}

/// A term the catalog contains keeps its own df: "create" is in d1 and d2 (df 2,
/// idf = ln(1 + 1.5 / 2.5) = 0.470004); its synonym "make" in d0 counts only in x.
/// d0: x = 0.5 * 3 = 1.5, sat 1.222222, score 0.574449. d1, d2: x = 3, sat 1.571429,
/// score 0.738578.
#[test]
fn expansions_never_change_a_known_terms_rarity() {
    let mut ix = with(&[("create", "make", 1.0)]).build().expect("config");
    let ids = ix
        .add([doc(&[("name", "make")]), doc(&[("name", "create")]), doc(&[("name", "create")])])
        .expect("fields");
    check(&ix, &ids, "create", &[0.574449, 0.738578, 0.738578]);
    assert_eq!(ix.search("create", 10).terms()[0].df(), 2);
}

#[test]
fn an_expansion_that_matches_nothing_leaves_the_term_unknown() {
    let mut ix = with(&[("flight", "plane", 1.0), ("flight", "", 1.0), ("flight", "trip", -1.0)])
        .build()
        .expect("config");
    ix.add([doc(&[("name", "trip")]), doc(&[("name", "list files")])]).expect("fields");
    let out = ix.search("flight", 10);
    assert!(out.is_empty());
    assert_eq!(out.unknown_terms().count(), 1);
}

/// Same-stem forms of the emitted word count (TrimS stems "removes" to "remove"); a word
/// already a form of the term keeps its relation; the explanation lists expansion forms.
#[test]
fn expansion_forms_in_explain() {
    let mut ix =
        with(&[("delete", "remove", 0.8), ("delete", "deletes", 1.0)]).build().expect("config");
    let ids = ix
        .add([doc(&[("name", "removes"), ("summary", "deletes")]), doc(&[("name", "delete")])])
        .expect("fields");
    let ex = ix.explain(ids[0], "delete").expect("indexed");
    let forms: Vec<(&str, Relation, f32)> = ex.terms[0]
        .forms
        .iter()
        .map(|f| (f.word.as_str(), f.relation, f.relation_weight))
        .collect();
    assert_eq!(forms, [("deletes", Relation::Stem, 0.3), ("removes", Relation::Expansion, 0.4)]);
    assert!(ex.to_string().contains("form \"removes\" (expansion, weight 0.4)"), "{ex}");
    assert_eq!(ex.score.to_bits(), ix.search("delete", 10).hits()[1].score().to_bits());
}

/// Ties break by the order key, then by id; exact-key hits too.
#[test]
fn ties_follow_the_order_key() {
    let mut ix = Index::builder().analyzer(analyzer()).build().expect("config");
    let same = |order: u64| Document::new().field("name", "list issues").key("same").order(order);
    let ids =
        ix.add([same(5), same(2), same(2), Document::new().field("name", "list")]).expect("fields");
    let order: Vec<_> = ix.search("issues", 10).hits().iter().map(|h| h.doc()).collect();
    assert_eq!(order, [ids[1], ids[2], ids[0]]);
    let exact: Vec<_> = ix.search("same", 10).hits().iter().map(|h| h.doc()).collect();
    assert_eq!(exact, [ids[1], ids[2], ids[0]]);
    assert_eq!(ix.order_of(ids[0]), Some(5));
    // The default key is the insertion sequence.
    assert_eq!(ix.order_of(ids[3]), Some(3));
    // A replaced group keeps its place among ties through its order keys.
    let mut ix = Index::builder().analyzer(analyzer()).build().expect("config");
    let a = ix.add([same(0).group("a"), same(1).group("b")]).expect("fields");
    let new = ix.replace_group("a", [same(0)]).expect("fields");
    let order: Vec<_> = ix.search("issues", 10).hits().iter().map(|h| h.doc()).collect();
    assert_eq!(order, [new[0], a[1]]);
}

/// A word followed by a particle also counts written as one word: "log in" finds `login`, and
/// "tear down" reaches the lexicon's `teardown`. Off, the two words count only on their own.
#[test]
fn particles_join_the_word_before_them() {
    let docs = [&[("name", "login")][..], &[("name", "destroy cluster")], &[("name", "list logs")]];
    let lexicon: &'static [(&'static str, &'static str, f32)] = &[("teardown", "destroy", 1.0)];
    let build = |join: bool| {
        let mut ix = with(lexicon).join_particles(join).build().expect("config");
        let ids = ix.add(docs.iter().map(|d| doc(d))).expect("fields");
        (ix, ids)
    };
    let (ix, ids) = build(true);
    assert!(ix.config().join_particles());
    let out = ix.search("Log in, please", 10);
    assert_eq!(out.hits().first().map(|h| h.doc()), Some(ids[0]));
    assert!(out.terms().iter().any(|t| t.word() == "login"), "{:?}", out.terms());
    let out = ix.search("tear down the cluster", 10);
    assert_eq!(out.hits().first().map(|h| h.doc()), Some(ids[1]));
    // A joined particle is not a term of its own any more; one that joined nothing is.
    let words = |q: &str| -> Vec<String> {
        ix.search(q, 10).terms().iter().map(|t| t.word().to_owned()).collect()
    };
    assert_eq!(words("tear down the cluster"), ["tear", "cluster", "teardown"]);
    assert_eq!(words("look up cluster logs"), ["look", "cluster", "logs", "lookup"]);
    assert_eq!(words("v2 up"), ["v2", "up"]);
    // Only a particle joins, and identifiers or numbers do not.
    assert!(!ix.search("log files", 10).terms().iter().any(|t| t.word() == "logfiles"));
    assert!(!ix.search("v2 up", 10).terms().iter().any(|t| t.word() == "v2up"));
    let (ix, ids) = build(false);
    assert!(!ix.search("log in", 10).terms().iter().any(|t| t.word() == "login"));
    assert_ne!(ix.search("log in", 10).hits().first().map(|h| h.doc()), Some(ids[0]));
}
