//! Unit tests of the output helpers.

use super::*;

#[test]
fn wraps_and_clips() {
    assert_eq!(clip("abcdef", 4), "abc…");
    assert_eq!(clip("abc", 4), "abc");
    let long = "word ".repeat(30);
    for line in wrap(&long, 4).lines() {
        assert!(line.chars().count() <= WIDTH, "{line:?}");
        assert!(line.starts_with("    word"));
    }
    assert_eq!(wrap("a\n\n\nb", 0), "a\n\nb\n");
    assert_eq!(clean("a\u{1b}[31mb\tc\u{202e}", false), "a[31mb c");
    assert_eq!(two_ends("left", "right").chars().count(), WIDTH + 1);
    assert_eq!(number(1.0 / 3.0), serde_json::json!(0.3333));
    assert_eq!(count(1, "tool"), "1 tool");
}
