//! The `serde` feature as a law (issue #10): for any documents (words from a small vocabulary
//! mixed with arbitrary Unicode), any removals and any queries, an index saved to JSON and
//! loaded back answers every query exactly as the original, and saves to the same bytes.

use crate::{analyzer, builder};
use proptest::prelude::*;
use toolsift_rank::{DocId, Document, Index, SavedIndex};

const WORDS: &[&str] = &[
    "create",
    "issue",
    "issues",
    "repo",
    "repository",
    "list",
    "file",
    "files",
    "send",
    "message",
];

/// Text of vocabulary words, with an occasional arbitrary string (control characters, bidi
/// overrides, emoji and all).
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(WORDS).prop_map(str::to_owned),
            1 => any::<String>(),
        ],
        0..6,
    )
    .prop_map(|words| words.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn saved_index_answers_like_the_original(
        docs in prop::collection::vec((text(), text(), 0..3u8), 1..12),
        removed in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        queries in prop::collection::vec(text(), 1..6),
    ) {
        let mut index = builder().build().expect("config");
        let ids: Vec<DocId> = index
            .add(docs.iter().map(|(name, summary, group)| {
                Document::new()
                    .field("name", name.as_str())
                    .field("summary", summary.as_str())
                    .group(format!("g{group}"))
            }))
            .expect("fields");
        let gone: Vec<DocId> = removed.iter().map(|i| ids[i.index(ids.len())]).collect();
        index.remove(&gone);
        let json = serde_json::to_string(&index).expect("serialize");
        let saved: SavedIndex = serde_json::from_str(&json).expect("deserialize");
        let loaded = Index::from_saved(saved, analyzer()).expect("load");
        for query in &queries {
            prop_assert_eq!(loaded.search(query, 5), index.search(query, 5), "query {:?}", query);
        }
        prop_assert_eq!(loaded.docs().collect::<Vec<_>>(), index.docs().collect::<Vec<_>>());
        prop_assert_eq!(serde_json::to_string(&loaded).expect("serialize"), json);
    }
}

/// An index saved when keys were normalized with `_` between words (`create_issue`) loads
/// with today's normalization, so a query in any naming convention still finds its key.
#[test]
fn keys_saved_with_separators_still_match() {
    let mut index = builder().build().expect("config");
    index.add([Document::new().field("name", "create issue").key("create_issue")]).expect("fields");
    let json = serde_json::to_string(&index).expect("serialize");
    assert!(json.contains("\"createissue\""), "{json}");
    let old = json.replace("\"createissue\"", "\"create_issue\"");
    let saved: SavedIndex = serde_json::from_str(&old).expect("deserialize");
    let loaded = Index::from_saved(saved, analyzer()).expect("load");
    for query in ["create_issue", "createIssue", "Create-Issue"] {
        assert!(loaded.search(query, 1).hits()[0].is_exact_key(), "{query}");
    }
}
