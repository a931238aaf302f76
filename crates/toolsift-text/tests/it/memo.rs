//! The chunk memo: replaying a chunk gives exactly the tokens analyzing it gives.

use std::borrow::Cow;

use proptest::prelude::*;
use toolsift_text::{Analyzer, Stemmer, StopwordPolicy, Term};

/// Text of every kind, with chunks that repeat (so the memo replays within one call too).
fn repeating_text() -> impl Strategy<Value = String> {
    let chunk = prop_oneof![
        any::<String>(),
        "[A-Za-z0-9_./{}:'-]{1,12}",
        "[a-zA-Zé日本語テスト한국_\u{301}\u{0}🚀-]{1,8}",
        "[a-z]{40,60}",
        Just("the".to_owned()),
        Just("getIssue".to_owned()),
    ];
    (proptest::collection::vec(chunk, 1..6), proptest::collection::vec(0usize..6, 0..12)).prop_map(
        |(chunks, picks)| {
            let mut text = chunks.join(" ");
            for i in picks {
                text.push(' ');
                text.push_str(&chunks[i % chunks.len()]);
            }
            text
        },
    )
}

/// Stems every word to its first three bytes (or the word itself): a stemmer that differs from
/// the default one, to tell apart entries of two analyzers.
#[derive(Debug)]
struct FirstThree;

impl Stemmer for FirstThree {
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(word.get(..3).unwrap_or(word))
    }
}

/// Asserts that `memoized` gives what `plain` gives for `text`, twice (record, then replay).
fn check_same(memoized: &Analyzer, plain: &Analyzer, text: &str) -> Result<(), TestCaseError> {
    let expect = plain.analyze(text);
    prop_assert_eq!(&memoized.analyze(text), &expect, "first pass of {:?}", text);
    prop_assert_eq!(&memoized.analyze(text), &expect, "replay of {:?}", text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_memo_replays_what_analysis_gives(text in repeating_text()) {
        let plain = Analyzer::builder().memoize(false).build();
        check_same(&Analyzer::default(), &plain, &text)?;
    }

    #[test]
    fn analyzers_never_share_memo_entries(text in repeating_text()) {
        // Interleaved on one thread: each analyzer must get its own tokens back.
        let analyzers = [
            (Analyzer::default(), Analyzer::builder().memoize(false).build()),
            (
                Analyzer::builder().stopword_policy(StopwordPolicy::Everywhere).build(),
                Analyzer::builder().stopword_policy(StopwordPolicy::Everywhere).memoize(false).build(),
            ),
            (
                Analyzer::builder().stemmer(FirstThree).stopwords(["get"]).build(),
                Analyzer::builder().stemmer(FirstThree).stopwords(["get"]).memoize(false).build(),
            ),
        ];
        for (memoized, plain) in &analyzers {
            check_same(memoized, plain, &text)?;
        }
        for (memoized, plain) in &analyzers {
            check_same(memoized, plain, &text)?;
        }
    }
}

#[test]
fn a_full_memo_empties_and_stays_exact() {
    // More distinct chunks (80,000) than the memo holds (32,768 entries), each seen twice.
    let plain = Analyzer::builder().memoize(false).build();
    let memoized = Analyzer::default();
    let words: Vec<String> = (0..40_000).map(|i| format!("getItem{i}s item_{i} the")).collect();
    for batch in words.chunks(500) {
        let text = batch.join(" ");
        let expect = plain.analyze(&text);
        assert_eq!(memoized.analyze(&text), expect);
        assert_eq!(memoized.analyze(&text), expect);
    }
}

#[test]
fn memoized_tokens_keep_their_positions() {
    let text = "get the issue. get the issue, getIssue getIssue";
    let plain: Vec<Term> = Analyzer::builder().memoize(false).build().analyze(text);
    let memoized = Analyzer::default();
    assert_eq!(memoized.analyze(text), plain);
    let positions: Vec<u32> = memoized.analyze(text).iter().map(|t| t.position).collect();
    assert_eq!(positions, [0, 2, 3, 5, 6, 6, 6, 7, 7, 7]);
}
