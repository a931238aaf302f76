//! A text analyzed once ([`Analyzed`]): the same terms as the streaming analysis, chunks that
//! cover the text's runs between white space, and edits equal to analyzing the edited text.

use proptest::prelude::*;
use toolsift_text::{Analyzed, Analyzer, Term};

/// Text of every kind, as in the laws: arbitrary Unicode and identifier-like ASCII.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[A-Za-z0-9_ ./@{}:'\",-]{0,40}",
        "[a-zA-Zé日本語 _\u{301}\u{3000}\u{85}-]{0,30}",
    ]
}

/// The terms of `a` as owned terms.
fn terms(a: &Analyzed) -> Vec<Term> {
    a.tokens().map(Term::from).collect()
}

#[test]
fn chunks_keep_what_the_terms_drop() {
    let analyzer = Analyzer::default();
    let a = analyzer.analyze_text("  don't  delete 'main', — ok?");
    let chunks: Vec<(&str, std::ops::Range<usize>)> =
        a.chunks().map(|c| (c.text, c.span)).collect();
    assert_eq!(
        chunks,
        [("don't", 2..7), ("delete", 9..15), ("'main',", 16..23), ("—", 24..27), ("ok?", 28..31)]
    );
    let words: Vec<&str> = a.tokens().map(|t| t.word).collect();
    assert_eq!(words, ["delete", "main", "ok"]);
    // Each chunk's terms are its own.
    let of = |i: usize| {
        let c = a.chunk(i).expect("chunk");
        c.terms.map(|t| a.token_at(t).expect("term").word).collect::<Vec<_>>()
    };
    assert_eq!(of(1), ["delete"]);
    assert_eq!(of(2), ["main"]);
    assert!(of(3).is_empty());
}

#[test]
fn an_analyzed_text_knows_its_analyzer() {
    let analyzer = Analyzer::default();
    let other = Analyzer::builder().build();
    let a = analyzer.analyze_text("list issues");
    assert!(a.is_of(&analyzer.clone()));
    assert!(!a.is_of(&other));
}

proptest! {
    /// The terms are those of the streaming analysis, and the chunks are the text's runs
    /// between white space, in order.
    #[test]
    fn analyzed_text_is_the_streaming_analysis(text in any_text()) {
        let analyzer = Analyzer::default();
        let a = analyzer.analyze_text(&text);
        prop_assert_eq!(a.text(), text.as_str());
        prop_assert_eq!(terms(&a), analyzer.analyze(&text));
        let chunks: Vec<&str> = a.chunks().map(|c| c.text).collect();
        let runs: Vec<&str> = text.split_whitespace().collect();
        prop_assert_eq!(chunks, runs);
        for c in a.chunks() {
            prop_assert_eq!(&text[c.span.clone()], c.text);
        }
        // The chunks' term ranges tile the terms.
        let mut next = 0;
        for c in a.chunks() {
            prop_assert_eq!(c.terms.start, next);
            next = c.terms.end;
        }
        prop_assert_eq!(next, a.tokens().len());
    }

    /// Appending words or replacing a chunk equals analyzing the edited text.
    #[test]
    fn edits_equal_analyzing_the_edited_text(
        text in any_text(),
        added in any_text(),
        pick in any::<prop::sample::Index>(),
        with in "[a-zA-Z@.,]{0,12}",
    ) {
        let analyzer = Analyzer::default();
        let mut a = analyzer.analyze_text(&text);
        a.append(&analyzer, &added);
        let appended = match (text.is_empty(), added.is_empty()) {
            (_, true) => text.clone(),
            (true, false) => added.clone(),
            (false, false) => format!("{text} {added}"),
        };
        prop_assert_eq!(&a, &analyzer.analyze_text(&appended));
        if a.chunks().len() > 0 {
            let i = pick.index(a.chunks().len());
            let span = a.chunk(i).map(|c| c.span).unwrap_or_default();
            let mut edited = appended.clone();
            edited.replace_range(span, &with);
            a.replace_chunk(&analyzer, i, &with);
            prop_assert_eq!(&a, &analyzer.analyze_text(&edited));
        }
    }
}
