//! The intent lexicon of `toolsift-text` as the expander: laws that hold whatever the text.

use std::sync::Arc;

use proptest::prelude::*;
use toolsift_rank::{Document, Index, Relation};
use toolsift_text::Lexicon;

/// Words the lexicon knows (members of its groups) and words it does not.
const WORDS: &[&str] = &[
    "delete",
    "remove",
    "drop",
    "create",
    "add",
    "new",
    "list",
    "issue",
    "ticket",
    "bug",
    "repo",
    "repository",
    "file",
    "document",
    "send",
    "post",
    "search",
    "find",
    "user",
    "member",
    "zebra",
    "quartz",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..6).prop_map(|w| w.join(" "))
}

fn index(expand: bool, docs: &[(String, String)]) -> (Index, Vec<toolsift_rank::DocId>) {
    let mut builder = Index::builder();
    if expand {
        builder = builder
            .expander(Arc::new(Lexicon::default()))
            .relation_weight(Relation::Expansion, 0.2);
    }
    let mut index = builder.build().unwrap_or_else(|e| panic!("{e}"));
    let ids = index
        .add(docs.iter().map(|(name, summary)| {
            Document::new().field("name", name.as_str()).field("summary", summary.as_str())
        }))
        .unwrap_or_else(|e| panic!("{e}"));
    (index, ids)
}

/// The score of every document for `query` (0 when not a hit).
fn scores(index: &Index, ids: &[toolsift_rank::DocId], query: &str) -> Vec<f32> {
    let hits = index.search(query, ids.len());
    ids.iter()
        .map(|&id| hits.hits().iter().find(|h| h.doc() == id).map_or(0.0, |h| h.score()))
        .collect()
}

#[test]
fn the_lexicon_finds_a_synonym_below_the_exact_word() {
    let docs = [
        ("remove_file".to_owned(), "Removes a file.".to_owned()),
        ("delete_file".to_owned(), "Deletes a file.".to_owned()),
        ("read_file".to_owned(), "Reads a file.".to_owned()),
    ];
    let (index, ids) = index(true, &docs);
    let hits = index.search("delete file", 3);
    let order: Vec<_> = hits.hits().iter().map(|h| h.doc()).collect();
    // Exact first, the synonym second, the unrelated file tool last.
    assert_eq!(order, [ids[1], ids[0], ids[2]]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Expansion only adds: no document scores lower with the lexicon than without it, and
    /// every hit without it is still a hit.
    #[test]
    fn expansion_never_lowers_a_score(
        docs in prop::collection::vec((text(), text()), 1..6),
        query in text(),
    ) {
        let (plain, ids) = index(false, &docs);
        let (expanded, ids2) = index(true, &docs);
        prop_assert_eq!(&ids, &ids2);
        let before = scores(&plain, &ids, &query);
        let after = scores(&expanded, &ids, &query);
        for (b, a) in before.iter().zip(&after) {
            prop_assert!(*a >= *b - 1e-4 * b.abs().max(1.0), "{} < {} for {:?}", a, b, query);
        }
    }

    /// For a one-word query, a document saying the word itself outranks one that says only a
    /// synonym, all else equal (the same other words, the same length).
    #[test]
    fn the_exact_word_beats_its_synonym(rest in text(), pick in 0usize..6) {
        let pairs = [("delete", "remove"), ("create", "add"), ("ticket", "issue"),
            ("repo", "repository"), ("send", "post"), ("search", "find")];
        let (word, synonym) = pairs[pick];
        let docs = [
            (format!("{synonym} {rest}"), String::new()),
            (format!("{word} {rest}"), String::new()),
        ];
        let (index, ids) = index(true, &docs);
        let s = scores(&index, &ids, word);
        prop_assert!(s[1] > s[0], "{:?} for {} in {:?}", s, word, docs);
    }
}
