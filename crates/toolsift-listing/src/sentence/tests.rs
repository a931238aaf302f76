//! The fast path of the first-sentence scan against the character-by-character path.

use proptest::prelude::*;
use proptest::sample::select;

use super::first_sentence;

const PIECES: &[&str] = &[
    "a",
    "word",
    "Word",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    ".",
    ". ",
    "e.g. ",
    "etc.",
    "!",
    "? ",
    ")",
    "\"",
    "- ",
    "## ",
    "1. ",
    "```",
    ",",
    ":",
    "\u{200B}",
    "\u{202E}",
    "\u{2028}",
    "é",
    "长",
    "。",
    "v1.2",
    "https://a.b/c",
];

fn check(text: &str, limit: usize) {
    let (mut fast, mut slow) = (String::from("> "), String::from("> "));
    let a = first_sentence(&mut fast, text, limit, true);
    let b = first_sentence(&mut slow, text, limit, false);
    assert_eq!((a, &fast), (b, &slow), "text {text:?}, limit {limit}");
}

#[test]
fn fast_path_examples() {
    check("Create a new issue in a GitHub repository with a title. More.", 82);
    check("Create a new issue in a GitHub repository with a title. More.", 12);
    check("e.g. a b.c d", 82);
    check("x  y\n\nz", 82);
    check("word\u{200B} word", 82);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fast_path_equals_slow_path(
        pieces in prop::collection::vec(select(PIECES), 0..24),
        limit in 1usize..40,
    ) {
        check(&pieces.concat(), limit);
    }
}
