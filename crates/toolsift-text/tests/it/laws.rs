//! The laws of analysis, as property tests.

use proptest::prelude::*;
use toolsift_text::{Analyzer, Origin, StopwordPolicy, Term, default_stopwords, fold};

/// Text of every kind: arbitrary Unicode, identifier-like ASCII, and mixed scripts.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[A-Za-z0-9_ ./{}:'-]{0,40}",
        "[a-zA-Zé日本語テスト한국 _\u{301}\u{0}🚀-]{0,30}",
    ]
}

/// Text without CJK characters (whose bigrams overlap, so they cannot be concatenated back).
fn text_without_cjk() -> impl Strategy<Value = String> {
    let no_cjk = "[^\u{1100}-\u{11FF}\u{3000}-\u{9FFF}\u{A960}-\u{A97F}\u{AC00}-\u{D7FF}\
                  \u{F900}-\u{FAFF}\u{FF00}-\u{FFEF}\u{1B000}-\u{1B16F}\u{20000}-\u{323AF}]{0,40}";
    prop_oneof![no_cjk, "[A-Za-z0-9_ ./{}:'-]{0,40}"]
}

/// The alphanumeric characters of `text`, each lowercased and folded as the analyzer does.
fn folded_alphanumerics(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        out.extend(fold(c.encode_utf8(&mut [0; 4])).chars().filter(|f| f.is_alphanumeric()));
    }
    out
}

/// Asserts the invariants of every single term.
fn check_term(term: &Term) -> Result<(), TestCaseError> {
    prop_assert!(!term.word.is_empty(), "empty word in {term:?}");
    prop_assert!(!term.stem.is_empty(), "empty stem in {term:?}");
    prop_assert!(term.word.chars().all(char::is_alphanumeric), "not alphanumeric: {term:?}");
    let lower: String = term.word.chars().flat_map(char::to_lowercase).collect();
    prop_assert_eq!(&lower, &term.word, "not lowercase");
    prop_assert_eq!(fold(&term.word), term.word.as_str(), "not folded");
    Ok(())
}

/// Asserts that the parts after each whole word concatenate back to it.
fn check_parts(terms: &[Term]) -> Result<(), TestCaseError> {
    let mut i = 0;
    while i < terms.len() {
        let whole = &terms[i];
        let mut j = i + 1;
        let mut joined = String::new();
        while j < terms.len() && terms[j].origin == Origin::Part {
            prop_assert_eq!(terms[j].position, whole.position, "a part left its word");
            joined.push_str(&terms[j].word);
            j += 1;
        }
        if j > i + 1 {
            prop_assert_eq!(whole.origin, Origin::Whole);
            prop_assert!(j > i + 2, "a word split into one part: {:?}", &terms[i..j]);
            prop_assert_eq!(&joined, &whole.word, "parts do not concatenate to the whole");
        }
        i = j;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn terms_are_nonempty_lowercase_folded_alphanumerics(text in any_text()) {
        let terms = Analyzer::default().analyze(&text);
        for term in &terms {
            check_term(term)?;
        }
        check_parts(&terms)?;
        prop_assert!(terms.windows(2).all(|w| w[0].position <= w[1].position));
    }

    #[test]
    fn analysis_is_deterministic(text in any_text()) {
        let first = Analyzer::default().analyze(&text);
        let rebuilt = Analyzer::builder().build().analyze(&text);
        prop_assert_eq!(&first, &rebuilt);
        // Analyzing from inside the callback uses other buffers and changes nothing.
        let analyzer = Analyzer::default();
        let mut outer = Vec::new();
        let mut inner_runs = Vec::new();
        analyzer.for_each_token(&text, |t| {
            outer.push(Term::from(t));
            inner_runs.push(analyzer.analyze(&text));
        });
        prop_assert_eq!(&outer, &first);
        prop_assert!(inner_runs.iter().all(|run| *run == first));
    }

    #[test]
    fn folding_is_idempotent(text in any::<String>()) {
        let once = fold(&text);
        prop_assert_eq!(fold(&once), once.clone());
    }

    #[test]
    fn an_identifier_splits_into_its_lowercase_alphanumerics(ident in "[A-Za-z0-9]{1,24}") {
        let terms = Analyzer::builder().stopword_policy(StopwordPolicy::Nowhere).build()
            .analyze(&ident);
        let lower = ident.to_ascii_lowercase();
        prop_assert_eq!(&terms[0].word, &lower);
        prop_assert!(terms[1..].iter().all(|t| t.origin == Origin::Part));
        let parts: String = terms[1..].iter().map(|t| t.word.as_str()).collect();
        prop_assert!(parts.is_empty() || parts == lower, "parts {:?} of {:?}", parts, ident);
        check_parts(&terms)?;
    }

    #[test]
    fn no_letter_or_digit_is_lost(text in text_without_cjk()) {
        let analyzer = Analyzer::builder().stopword_policy(StopwordPolicy::Nowhere).build();
        let wholes: String = analyzer
            .analyze(&text)
            .iter()
            .filter(|t| t.origin == Origin::Whole)
            .map(|t| t.word.as_str())
            .collect();
        prop_assert_eq!(wholes, folded_alphanumerics(&text));
    }

    #[test]
    fn the_ascii_fast_path_agrees_with_the_unicode_path(text in "[ -~\t\n]{0,40}") {
        // `é` folds to `e` and sends its chunk down the grapheme path; `e` keeps it ASCII.
        let analyzer = Analyzer::default();
        let unicode = analyzer.analyze(&format!("{text}é"));
        let ascii = analyzer.analyze(&format!("{text}e"));
        prop_assert_eq!(unicode, ascii);
    }

    #[test]
    fn a_text_of_only_stopwords_yields_no_terms(
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..12),
        punctuation in "[ ,.;!?\n]{1,3}",
    ) {
        let words: Vec<&str> = default_stopwords().collect();
        let text: Vec<&str> = picks.iter().map(|i| *i.get(&words)).collect();
        let text = text.join(&punctuation.replace(['.', ',', ';', '!', '?'], " "));
        prop_assert_eq!(Analyzer::default().analyze(&text), Vec::<Term>::new(), "{:?}", text);
    }
}
