//! Integration tests of toolsift-text: one binary, one module per area.

/// Splitting identifiers into whole words and parts, from real tool names.
mod split;

/// Lowercasing, diacritic folding, CJK bigrams and hostile input.
mod unicode;

/// The stopword list and the stopword policies.
mod stopwords;

/// The light stemmer's tables and the Snowball stemmer.
mod stem;

/// Property tests: the laws every analysis obeys.
mod laws;

/// Every copied real catalog analyzed end to end.
mod catalogs;

/// The small value types and the analyzer's traits.
mod api;

/// The intent lexicon and the CJK–English word list.
mod lexicon;

/// Words one edit away, for typo-tolerant lookups.
mod fuzzy;

/// The chunk memo replays exactly what analysis gives.
mod memo;

/// A text analyzed once, with its chunks, and edits to it.
mod analyzed;

use toolsift_text::{Analyzer, Origin, Term};

/// Renders terms compactly: a whole word as itself, a part as `+part`, a bigram as `~gram`.
pub(crate) fn render(terms: &[Term]) -> String {
    let rendered: Vec<String> = terms
        .iter()
        .map(|t| match t.origin {
            Origin::Whole => t.word.clone(),
            Origin::Part => format!("+{}", t.word),
            Origin::Bigram => format!("~{}", t.word),
            other => format!("?{other}:{}", t.word),
        })
        .collect();
    rendered.join(" ")
}

/// Asserts what the default analyzer emits for `text` (see [`render`] for the notation).
#[track_caller]
pub(crate) fn check(text: &str, expect: &str) {
    check_with(&Analyzer::default(), text, expect);
}

/// Asserts what `analyzer` emits for `text` (see [`render`] for the notation).
#[track_caller]
pub(crate) fn check_with(analyzer: &Analyzer, text: &str, expect: &str) {
    let got = render(&analyzer.analyze(text));
    assert_eq!(got, expect, "analyzing {text:?}");
}
