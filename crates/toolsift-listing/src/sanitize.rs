//! Character policy for untrusted text: what is kept, what becomes a space, what is dropped.
//!
//! Every name, description, parameter and query word that reaches the model passes through one
//! of the functions here. The policy is the same everywhere:
//!
//! - every Unicode whitespace character, line and paragraph separators included, is a space
//!   (runs collapse to one space in inline text, so no field can start a new line);
//! - control characters (`Cc`) and invisible format characters (bidi embeddings, overrides and
//!   isolates, zero-width characters, the byte-order mark, soft hyphens, Hangul fillers,
//!   variation selectors and the tag block used to smuggle hidden ASCII) are dropped;
//! - everything else is kept as it is.

use std::borrow::Cow;

/// What the policy does with one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// Kept as it is.
    Keep,
    /// Whitespace: becomes one space (or `_` in names).
    Space,
    /// Control or invisible: removed.
    Drop,
}

/// Classifies one character under the policy in the module doc.
pub(crate) fn classify(c: char) -> Class {
    if c.is_ascii() {
        return match c {
            ' ' | '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}' => Class::Space,
            '\u{00}'..='\u{1F}' | '\u{7F}' => Class::Drop,
            _ => Class::Keep,
        };
    }
    if c.is_whitespace() {
        return Class::Space;
    }
    if c.is_control() || is_invisible(c) { Class::Drop } else { Class::Keep }
}

/// Invisible format characters that can hide or reorder text.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'                      // soft hyphen
        | '\u{034F}'                    // combining grapheme joiner
        | '\u{061C}'                    // Arabic letter mark
        | '\u{115F}' | '\u{1160}'       // Hangul fillers
        | '\u{17B4}' | '\u{17B5}'       // Khmer inherent vowels
        | '\u{180B}'..='\u{180F}'       // Mongolian selectors and vowel separator
        | '\u{200B}'..='\u{200F}'       // zero-width space, (non-)joiner, LRM, RLM
        | '\u{202A}'..='\u{202E}'       // bidi embeddings and overrides
        | '\u{2060}'..='\u{206F}'       // word joiner, invisible operators, bidi isolates
        | '\u{3164}'                    // Hangul filler
        | '\u{FE00}'..='\u{FE0F}'       // variation selectors
        | '\u{FEFF}'                    // byte-order mark / zero-width no-break space
        | '\u{FFA0}'                    // halfwidth Hangul filler
        | '\u{FFF0}'..='\u{FFFB}'       // interlinear annotation controls
        | '\u{1BCA0}'..='\u{1BCA3}'     // shorthand format controls
        | '\u{1D173}'..='\u{1D17A}'     // musical format controls
        | '\u{E0000}'..='\u{E0FFF}'     // tag characters and variation selectors supplement
    )
}

/// Inline text: whitespace runs collapse to one space, dropped characters vanish, and the
/// result has no leading or trailing space. The output never contains a line break.
pub(crate) fn inline(text: &str) -> Cow<'_, str> {
    if is_clean_inline(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    push_inline(&mut out, text);
    Cow::Owned(out)
}

/// Appends `text` to `out` as inline text (see [`inline`]).
pub(crate) fn push_inline(out: &mut String, text: &str) {
    let mut pending_space = false;
    let start = out.len();
    for c in text.chars() {
        match classify(c) {
            Class::Keep => {
                if pending_space && out.len() > start {
                    out.push(' ');
                }
                pending_space = false;
                out.push(c);
            }
            Class::Space => pending_space = true,
            Class::Drop => {}
        }
    }
}

fn is_clean_inline(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ') {
        return false;
    }
    let mut prev_space = false;
    for c in text.chars() {
        match classify(c) {
            Class::Keep => prev_space = false,
            Class::Space if c == ' ' && !prev_space => prev_space = true,
            _ => return false,
        }
    }
    true
}

/// A name (tool, server or parameter), escaped so that it is one word and tells names apart:
/// every whitespace or dropped character, and `%` itself, becomes `%XX` for each of its UTF-8
/// bytes (`a b` → `a%20b`, `github\u{200B}` → `github%E2%80%8B`); everything else is kept.
/// The escape is injective, so two different names never show the same, and the empty name is
/// `%` (which no escape produces). Names that obey the model-facing rule
/// (`^[a-zA-Z0-9_-]{1,64}$`) come back unchanged.
pub(crate) fn name(text: &str) -> Cow<'_, str> {
    if !text.is_empty() && plain_ascii(text) {
        return Cow::Borrowed(text);
    }
    if !text.is_empty() && text.chars().all(|c| c != '%' && classify(c) == Class::Keep) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_name(&mut out, text);
    Cow::Owned(out)
}

/// Whether `text` is printable ASCII other than `%`, which a name keeps as it is
/// (model-facing names are always that). A fold without early exit, which compiles to a
/// vectorized loop.
fn plain_ascii(text: &str) -> bool {
    text.bytes().fold(true, |ok, b| ok & (b.wrapping_sub(0x21) < 0x5E) & (b != b'%'))
}

/// Appends `text` to `out` as a name (see [`name`]).
pub(crate) fn push_name(out: &mut String, text: &str) {
    if text.is_empty() {
        out.push('%');
        return;
    }
    // Nearly every name is printable ASCII without `%`: every character is kept as it is.
    if plain_ascii(text) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        if c != '%' && classify(c) == Class::Keep {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push('%');
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 0xF)]));
            }
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Multi-line text for full definitions: dropped characters vanish, every line break
/// (`\r\n`, `\r`, U+0085, U+2028, U+2029) becomes `\n`, other whitespace is kept.
pub(crate) fn multiline(text: &str) -> Cow<'_, str> {
    let clean = text.chars().all(|c| match classify(c) {
        Class::Keep => true,
        Class::Space => matches!(c, ' ' | '\n' | '\t'),
        Class::Drop => false,
    });
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match classify(c) {
            Class::Keep => out.push(c),
            Class::Space => match c {
                '\r' => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    out.push('\n');
                }
                '\n' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push('\n'),
                '\t' => out.push('\t'),
                _ => out.push(' '),
            },
            Class::Drop => {}
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests;
