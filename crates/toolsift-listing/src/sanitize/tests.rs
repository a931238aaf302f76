//! Unit tests of the character policy.

use super::{inline, multiline, name, push_name};

#[track_caller]
fn check_inline(input: &str, expect: &str) {
    assert_eq!(inline(input), expect, "inline({input:?})");
}

#[track_caller]
fn check_name(input: &str, expect: &str) {
    assert_eq!(name(input), expect, "name({input:?})");
    let mut pushed = "- ".to_owned();
    push_name(&mut pushed, input);
    assert_eq!(pushed, format!("- {expect}"), "push_name({input:?})");
}

#[test]
fn inline_collapses_whitespace_and_drops_invisibles() {
    check_inline("plain text", "plain text");
    check_inline("  two\n\nlines\r\n", "two lines");
    check_inline("a\u{2028}b\u{2029}c\u{85}d", "a b c d");
    check_inline("tab\tand\u{0B}vt\u{0C}ff", "tab and vt ff");
    check_inline("e\u{202E}vil\u{2066}x\u{2069}", "evilx");
    check_inline("zero\u{200B}width\u{FEFF}", "zerowidth");
    check_inline("esc\u{1B}[2Jape\u{7F}", "esc[2Jape");
    check_inline("tag\u{E0041}\u{E0042}s", "tags");
    check_inline("\u{3000}ideographic\u{3000}space", "ideographic space");
    check_inline("", "");
    check_inline("\u{200B}\n", "");
}

#[test]
fn names_are_one_escaped_word() {
    check_name("mcp__github__create_issue", "mcp__github__create_issue");
    check_name("two words", "two%20words");
    check_name("line\nbreak", "line%0Abreak");
    check_name("trailing ", "trailing%20");
    check_name("", "%");
    check_name("%", "%25");
    check_name("100%20", "100%2520");
    check_name("\u{202E}", "%E2%80%AE");
    check_name("github\u{200B}", "github%E2%80%8B");
    check_name("飞书", "飞书");
}

#[test]
fn multiline_keeps_line_breaks_only() {
    assert_eq!(multiline("a\r\nb\rc\u{2028}d"), "a\nb\nc\nd");
    assert_eq!(multiline("keep\ttabs\n"), "keep\ttabs\n");
    assert_eq!(multiline("x\u{202E}y\u{0}"), "xy");
}

proptest::proptest! {
    // `push_name`'s ASCII shortcut writes what escaping character by character writes, and
    // `name` agrees with it, for any text.
    #[test]
    fn push_name_escapes_each_character(
        text in proptest::prop_oneof![
            "[ -~]{0,12}",
            "[a-z%_ \\t\\x7f\\x00-\\x1f]{0,12}",
            proptest::prelude::any::<String>(),
        ],
    ) {
        let mut want = String::new();
        if text.is_empty() {
            want.push('%');
        }
        for c in text.chars() {
            if c != '%' && super::classify(c) == super::Class::Keep {
                want.push(c);
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    want.push_str(&format!("%{b:02X}"));
                }
            }
        }
        let mut got = String::new();
        push_name(&mut got, &text);
        proptest::prop_assert_eq!(&got, &want);
        proptest::prop_assert_eq!(name(&text), want);
    }
}
