//! The `serde` feature: save, load, and refuse a different analyzer.

use crate::{analyzer, builder, doc};
use toolsift_rank::{ErrorKind, Index, SavedIndex};
use toolsift_text::Analyzer;

fn sample() -> Index {
    let mut ix = builder().gate(true).build().expect("config");
    ix.add([
        doc(&[("name", "create issue"), ("summary", "opens issues")])
            .key("create_issue")
            .group("gh"),
        doc(&[("name", "list repos")]).group("gh"),
        doc(&[("name", "send message")]).group("slack"),
    ])
    .expect("fields");
    ix.remove_group("slack");
    ix.add([doc(&[("name", "read file")])]).expect("fields");
    ix
}

#[test]
fn round_trip_through_json() {
    let ix = sample();
    let json = serde_json::to_string(&ix).expect("serialize");
    let saved: SavedIndex = serde_json::from_str(&json).expect("deserialize");
    let loaded = Index::from_saved(saved, analyzer()).expect("load");
    for q in ["issue", "repository", "create_issue", "file", "nothing here"] {
        assert_eq!(loaded.search(q, 10), ix.search(q, 10), "query {q:?}");
    }
    assert_eq!(loaded.config(), ix.config());
    assert_eq!(loaded.groups().collect::<Vec<_>>(), ["gh"]);
    assert_eq!(loaded.docs().collect::<Vec<_>>(), ix.docs().collect::<Vec<_>>());
    // Saving is deterministic.
    assert_eq!(serde_json::to_string(&loaded).expect("serialize"), json);
}

#[test]
fn another_analyzer_is_refused() {
    let saved = sample().to_saved();
    let err = Index::from_saved(saved, Analyzer::builder().stemmer(Upper).build());
    assert_eq!(err.map(|_| ()).map_err(|e| e.kind().clone()), Err(ErrorKind::AnalyzerMismatch));
}

#[derive(Debug)]
struct Upper;
impl toolsift_text::Stemmer for Upper {
    fn stem<'a>(&self, word: &'a str) -> std::borrow::Cow<'a, str> {
        word.to_uppercase().into()
    }
}

#[test]
fn corrupt_data_is_refused() {
    let json = serde_json::to_string(&sample()).expect("serialize");
    // Point a posting past the last document.
    let bad = json.replacen("\"docs\":[0]", "\"docs\":[99]", 1);
    assert_ne!(bad, json);
    let saved: SavedIndex = serde_json::from_str(&bad).expect("well-formed json");
    let err = Index::from_saved(saved, analyzer()).map(|_| ());
    assert!(matches!(err.map_err(|e| e.kind().clone()), Err(ErrorKind::Corrupt(_))));
}
