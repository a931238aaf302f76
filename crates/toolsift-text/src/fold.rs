//! Character normalization: full Unicode lowercasing, then Latin diacritic folding.
//!
//! Folding maps Latin-1 Supplement and Latin Extended-A letters to ASCII (`é` → `e`,
//! `ß` → `ss`, `Æ` → `ae`, `Ł` → `l`), fullwidth ASCII letters and digits to ASCII
//! (`Ａ` → `a`), superscript digits to digits, and drops the combining marks U+0300–U+036F
//! (so `e` + U+0301 also becomes `e`). Other scripts are only lowercased: no normalization
//! crate is pulled in, so Latin Extended-B and Vietnamese precomposed letters are left as they
//! are. The analyzer applies the same per-character mapping and additionally drops every
//! character that is not alphanumeric.

use std::borrow::Cow;

/// ASCII folding of U+00C0..=U+017F (both cases); `""` for the two symbols × and ÷, which
/// [`fold_lower`] never looks up.
#[rustfmt::skip]
const LATIN: [&str; 192] = [
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", // U+00C0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "ss", // U+00D0
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", // U+00E0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "y", // U+00F0
    "a", "a", "a", "a", "a", "a", "c", "c", "c", "c", "c", "c", "c", "c", "d", "d", // U+0100
    "d", "d", "e", "e", "e", "e", "e", "e", "e", "e", "e", "e", "g", "g", "g", "g", // U+0110
    "g", "g", "g", "g", "h", "h", "h", "h", "i", "i", "i", "i", "i", "i", "i", "i", // U+0120
    "i", "i", "ij", "ij", "j", "j", "k", "k", "k", "l", "l", "l", "l", "l", "l", "l", // U+0130
    "l", "l", "l", "n", "n", "n", "n", "n", "n", "n", "ng", "ng", "o", "o", "o", "o", // U+0140
    "o", "o", "oe", "oe", "r", "r", "r", "r", "r", "r", "s", "s", "s", "s", "s", "s", // U+0150
    "s", "s", "t", "t", "t", "t", "t", "t", "u", "u", "u", "u", "u", "u", "u", "u", // U+0160
    "u", "u", "u", "u", "w", "w", "y", "y", "y", "z", "z", "z", "z", "z", "z", "s", // U+0170
];

/// The first code point of [`LATIN`].
const LATIN_START: u32 = 0xC0;

/// A folded character: one `char`, or a short ASCII string from the table.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Folded {
    /// The character maps to one character (often itself).
    Char(char),
    /// The character maps to a (possibly empty) ASCII string.
    Str(&'static str),
}

/// Folds one character that is already lowercase.
#[inline]
pub(crate) fn fold_lower(c: char) -> Folded {
    let cp = c as u32;
    match cp {
        0..=0x7F => Folded::Char(c),
        0xAA => Folded::Char('a'),
        0xBA => Folded::Char('o'),
        0xB2 => Folded::Char('2'),
        0xB3 => Folded::Char('3'),
        0xB9 => Folded::Char('1'),
        0xD7 | 0xF7 => Folded::Char(c),
        0xC0..=0x17F => Folded::Str(LATIN[(cp - LATIN_START) as usize]),
        0x300..=0x36F => Folded::Str(""),
        // Fullwidth digits and letters (the uppercase ones are lowercased before this).
        0xFF10..=0xFF19 | 0xFF21..=0xFF3A | 0xFF41..=0xFF5A => {
            let ascii = (cp - 0xFEE0) as u8;
            Folded::Char(char::from(ascii.to_ascii_lowercase()))
        }
        _ => Folded::Char(c),
    }
}

/// Lowercases and folds `c`, calling `push` for every resulting character.
#[inline]
pub(crate) fn fold_char(c: char, mut push: impl FnMut(char)) {
    if c.is_ascii() {
        push(c.to_ascii_lowercase());
        return;
    }
    for lower in c.to_lowercase() {
        match fold_lower(lower) {
            Folded::Char(f) => push(f),
            Folded::Str(s) => s.chars().for_each(&mut push),
        }
    }
}

/// Lowercases `text` and folds Latin diacritics, the way the analyzer normalizes every word.
///
/// Unlike the analyzer, `fold` keeps every character that is not a combining mark: it does not
/// split, drop punctuation or stem. Folding is idempotent: `fold(&fold(s)) == fold(s)`.
/// The result borrows `text` when nothing changes.
///
/// ```
/// use toolsift_text::fold;
///
/// assert_eq!(fold("Café Straße"), "cafe strasse");
/// assert_eq!(fold("ＡＰＩ"), "api");
/// assert_eq!(fold("already folded"), "already folded");
/// ```
#[must_use]
pub fn fold(text: &str) -> Cow<'_, str> {
    let unchanged = text.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase());
    if unchanged {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char(c, |f| out.push(f));
    }
    if out == text { Cow::Borrowed(text) } else { Cow::Owned(out) }
}
