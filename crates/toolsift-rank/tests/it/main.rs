//! Integration tests of toolsift-rank's public API, in one binary.
//!
//! Modules: `scoring` (hand-computed BM25F scores), `relations` (related terms and their
//! idf), `abstention` (empty answers and why), `keys` (exact-key override), `updates` (add,
//! remove, replace a group), `expansion` (query expansion and the order key), `lexicon` (the intent lexicon of
//! toolsift-text as the expander), `golden` (explain output), `props` (proptest laws), `saved` (the
//! `serde` feature), `config` (builder validation), `batches` (a large batch against small ones, bit for
//! bit), `typos` (typo matching).

mod abstention;
// One large batch (line and chunk memos) against small batches, bit for bit.
mod batches;
mod config;
mod expansion;
mod golden;
mod keys;
mod lexicon;
mod props;
mod relations;
// Save → load → same results for arbitrary documents and queries (#10).
#[cfg(feature = "serde")]
mod roundtrip;
#[cfg(feature = "serde")]
mod saved;
mod scoring;
mod typos;
mod updates;

use std::borrow::Cow;
use toolsift_rank::{DocId, Document, Index, IndexBuilder};
use toolsift_text::{Analyzer, Stemmer};

/// A predictable stemmer: drops one trailing `s` from words longer than 3 characters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TrimS;

impl Stemmer for TrimS {
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        match word.strip_suffix('s') {
            Some(stem) if word.chars().count() > 3 => Cow::Borrowed(stem),
            _ => Cow::Borrowed(word),
        }
    }
}

pub(crate) fn analyzer() -> Analyzer {
    Analyzer::builder().stemmer(TrimS).build()
}

/// The default builder with the test analyzer.
pub(crate) fn builder() -> IndexBuilder {
    IndexBuilder::new().analyzer(analyzer())
}

/// Documents as `(field, text)` lists.
pub(crate) type Spec<'a> = &'a [(&'a str, &'a str)];

pub(crate) fn doc<'a>(fields: Spec<'a>) -> Document<'a> {
    fields.iter().fold(Document::new(), |d, &(f, t)| d.field(f, t))
}

/// An index with the default configuration and the test analyzer.
#[track_caller]
pub(crate) fn index(docs: &[Spec<'_>]) -> (Index, Vec<DocId>) {
    index_with(builder(), docs)
}

#[track_caller]
pub(crate) fn index_with(builder: IndexBuilder, docs: &[Spec<'_>]) -> (Index, Vec<DocId>) {
    let mut index = builder.build().expect("valid config");
    let ids = index.add(docs.iter().map(|d| doc(d))).expect("known fields");
    (index, ids)
}

/// Asserts the hits of `query`: `(position in ids, score)`, best first, scores to 1e-5.
#[track_caller]
pub(crate) fn check_search(index: &Index, ids: &[DocId], query: &str, expect: &[(usize, f32)]) {
    let out = index.search(query, 10);
    let got: Vec<(usize, f32)> = out
        .hits()
        .iter()
        .map(|h| (ids.iter().position(|&d| d == h.doc()).unwrap_or(usize::MAX), h.score()))
        .collect();
    let same = got.len() == expect.len()
        && got.iter().zip(expect).all(|(g, e)| g.0 == e.0 && (g.1 - e.1).abs() < 1e-5);
    assert!(same, "query {query:?}\n got: {got:?}\nwant: {expect:?}");
}
