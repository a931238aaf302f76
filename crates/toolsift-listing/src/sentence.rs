//! Short descriptions: the first sentence of a tool description, cleaned and clipped.
//!
//! One forward pass over the description (plus bounded look-ahead over runs the pass skips
//! anyway), so the work is linear in the input and stops early once the clip length is reached.

use crate::sanitize::{Class, classify};

/// Words that end with a period without ending the sentence (compared case-insensitively,
/// without their final period).
const ABBREVIATIONS: &[&str] =
    &["e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "esp", "viz", "al", "resp", "ca"];

/// The short description of a tool: the first sentence of `text`, cleaned and clipped to at
/// most `max_chars` characters.
///
/// The rules, in order:
///
/// - Leading whitespace and leading Markdown block markers (`#` headings, `-`, `*`, `+` list
///   markers, `>` quotes) are skipped.
/// - The sentence ends at `.`, `!` or `?` (optionally followed by closing quotes or
///   brackets) followed by whitespace or the end of the text, at `。`, `！` or `？`, at a blank
///   line, or at a line break followed by a Markdown block (heading, list item, quote, code
///   fence). A period does **not** end it inside a word (`v1.2`, `https://x.io/a.b`,
///   `config.yaml`) or after an abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`, `cf.`, `approx.`,
///   `incl.`, `esp.`, `viz.`, `al.`, `resp.`, `ca.`, or any word with an inner period such as
///   `U.S.`).
/// - Whitespace runs (line breaks included) collapse to one space; control characters and
///   invisible format characters (bidi overrides, zero-width characters, tag characters) are
///   dropped, so the result is always a single line.
/// - One final period and a final `:`, `;` or `,` are removed.
/// - If the sentence is longer than `max_chars` characters it is cut on a word boundary (a space,
///   or between two CJK characters; inside a word only if the first word alone is too long)
///   and `…` is appended; the result, ellipsis included, has at most `max_chars` characters.
///
/// The work is linear in the length of `text`, and stops once `max_chars + 2` characters of
/// output are known. `max_chars == 0` gives an empty string.
///
/// ```
/// use toolsift_listing::short_description;
///
/// let text = "Create an issue, e.g. a bug report.\n\nArgs:\n  owner: the owner";
/// assert_eq!(short_description(text, 80), "Create an issue, e.g. a bug report");
/// assert_eq!(short_description(text, 20), "Create an issue…");
/// ```
pub fn short_description(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    push_short_description(&mut out, text, max_chars);
    out
}

/// Appends the short description of `text` to `out` (see [`short_description`]).
pub(crate) fn push_short_description(out: &mut String, text: &str, max_chars: usize) {
    if max_chars == 0 {
        return;
    }
    let base = out.len();
    // Two characters of slack: one to know the sentence is too long, one for the final
    // period that `trim_end` may remove.
    let limit = max_chars.saturating_add(2);
    let (truncated, mut chars) = first_sentence(out, text, limit, true);
    if !truncated {
        chars -= trim_end(out, base);
    }
    if truncated || chars > max_chars {
        clip(out, base, max_chars);
    }
}

/// Writes the first sentence to `out` (from `out.len()`), stopping after `limit` characters.
/// Returns whether it stopped there, and the number of characters written. `fast` enables the
/// bulk copy of plain ASCII runs (tests compare it with the character-by-character path).
fn first_sentence(out: &mut String, text: &str, limit: usize, fast: bool) -> (bool, usize) {
    let base = out.len();
    let mut n = 0usize;
    let mut word_start = base;
    let mut pending_space = false;
    let mut line_breaks = 0u32;
    let mut iter = text.get(skip_leading_markup(text)..).unwrap_or_default().chars();
    loop {
        if fast && !pending_space {
            // Fast path: copy at once a run of printable ASCII words separated by single
            // spaces, which needs no cleaning and cannot end a sentence.
            let rest = iter.as_str();
            let bytes = rest.as_bytes();
            let room = limit - n;
            let (mut run, mut last_space) = (0, None);
            while run < room {
                match bytes.get(run) {
                    Some(&b) if is_plain(b) => run += 1,
                    Some(b' ')
                        if (run > 0 || out.len() > base)
                            && bytes.get(run + 1).is_some_and(|&b| is_plain(b)) =>
                    {
                        last_space = Some(run);
                        run += 1;
                    }
                    _ => break,
                }
            }
            if run > 0 {
                let start = out.len();
                out.push_str(&rest[..run]);
                if let Some(space) = last_space {
                    word_start = start + space + 1;
                }
                n += run;
                iter = rest[run..].chars();
                if n >= limit {
                    return (true, n);
                }
            }
        }
        let Some(c) = iter.next() else { break };
        match classify(c) {
            Class::Drop => continue,
            Class::Space => {
                if out.len() > base {
                    pending_space = true;
                    // `\r\n` is one line break: count the `\n` only.
                    let is_break = matches!(c, '\n' | '\u{0B}' | '\u{0C}' | '\u{85}')
                        || matches!(c, '\u{2028}' | '\u{2029}')
                        || (c == '\r' && !iter.as_str().starts_with('\n'));
                    if is_break {
                        line_breaks += 1;
                    }
                }
                continue;
            }
            Class::Keep => {}
        }
        if pending_space {
            if line_breaks >= 2 || (line_breaks == 1 && starts_block(c, iter.clone())) {
                return (false, n);
            }
            pending_space = false;
            line_breaks = 0;
            out.push(' ');
            n += 1;
            word_start = out.len();
            if n >= limit {
                return (true, n);
            }
        }
        out.push(c);
        n += 1;
        if n >= limit {
            return (true, n);
        }
        if matches!(c, '。' | '！' | '？') {
            return (false, n);
        }
        if matches!(c, '.' | '!' | '?') {
            let word_end = out.len() - c.len_utf8();
            while let Some(d) = iter.clone().next() {
                if !matches!(d, ')' | ']' | '"' | '\'' | '’' | '”' | '»') {
                    break;
                }
                iter.next();
                out.push(d);
                n += 1;
                if n >= limit {
                    return (true, n);
                }
            }
            let boundary = match iter.clone().find(|&d| classify(d) != Class::Drop) {
                None => true,
                Some(d) => classify(d) == Class::Space,
            };
            if boundary && !(c == '.' && is_abbreviation(&out[word_start..word_end])) {
                return (false, n);
            }
        }
    }
    (false, n)
}

/// Printable ASCII other than the space and sentence punctuation: copied as is, and never
/// ends a sentence or needs cleaning.
fn is_plain(b: u8) -> bool {
    b.is_ascii_graphic() && !matches!(b, b'.' | b'!' | b'?')
}

/// Byte offset after leading whitespace, invisible characters and Markdown block markers.
fn skip_leading_markup(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        // Whitespace and dropped characters.
        while let Some(c) = text[i..].chars().next() {
            if classify(c) == Class::Keep {
                break;
            }
            i += c.len_utf8();
        }
        let mut j = i;
        match bytes.get(i) {
            Some(b'#') => {
                while bytes.get(j) == Some(&b'#') {
                    j += 1;
                }
            }
            Some(b'-' | b'*' | b'+' | b'>') => j += 1,
            _ => return i,
        }
        if !matches!(bytes.get(j), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            return i;
        }
        i = j;
    }
}

/// Whether a line starting with `c` (followed by `rest`) begins a Markdown block.
fn starts_block(c: char, mut rest: impl Iterator<Item = char>) -> bool {
    match c {
        '#' => matches!(rest.next(), Some('#' | ' ' | '\t')),
        '-' | '*' | '+' | '>' | '•' => matches!(rest.next(), Some(' ' | '\t')),
        '`' => rest.next() == Some('`') && rest.next() == Some('`'),
        '0'..='9' => loop {
            match rest.next() {
                Some('0'..='9') => {}
                Some('.' | ')') => break matches!(rest.next(), Some(' ' | '\t')),
                _ => break false,
            }
        },
        _ => false,
    }
}

/// Whether `word` (the text before a period) is an abbreviation.
fn is_abbreviation(word: &str) -> bool {
    let word = word.trim_start_matches(['(', '[', '"', '\'', '‘', '“', '«']);
    if word.len() > 8 {
        return false;
    }
    // An inner period followed by a letter: `e.g`, `i.e`, `U.S`.
    if let Some(p) = word.rfind('.')
        && word[p + 1..].chars().next().is_some_and(char::is_alphabetic)
    {
        return true;
    }
    ABBREVIATIONS.iter().any(|a| word.eq_ignore_ascii_case(a))
}

/// Removes one final period (unless it closes an abbreviation) and final `:`, `;`, `,` and
/// spaces. Returns the number of characters removed.
fn trim_end(out: &mut String, base: usize) -> usize {
    let before = out.len();
    let strip = |out: &mut String| {
        while out.len() > base && out.ends_with([' ', ':', ';', ',']) {
            out.pop();
        }
    };
    strip(out);
    if out.len() > base && out.ends_with('.') && !out.ends_with("..") {
        let body = &out[base..out.len() - 1];
        let word_start = body.rfind(' ').map_or(0, |p| p + 1);
        if !is_abbreviation(&body[word_start..]) {
            out.pop();
            strip(out);
        }
    }
    // Only one-byte characters were removed.
    before - out.len()
}

/// Cuts `out[base..]` (which holds more than `max_chars` characters) to at most `max_chars`
/// characters, ellipsis included, on a word boundary when there is one.
fn clip(out: &mut String, base: usize, max_chars: usize) {
    let keep = max_chars - 1;
    let text = &out[base..];
    let hard = text.char_indices().nth(keep).map_or(text.len(), |(i, _)| i);
    let mut cut = hard;
    if !text[hard..].starts_with(' ') && !boundary_at(text, hard) {
        // Walk back to the last boundary inside the kept part; none means one long word.
        let mut found = None;
        for (i, c) in text[..hard].char_indices().rev() {
            if c == ' ' || boundary_at(text, i) {
                found = Some(i);
                break;
            }
        }
        cut = match found {
            Some(i) if i > 0 => i,
            _ => hard,
        };
    }
    let end = match text[..cut].trim_end_matches(SEPARATORS).len() {
        // Only separators before the cut: keep the hard cut as it is.
        0 => hard,
        n => n,
    };
    out.truncate(base + end);
    out.push('…');
}

/// Characters removed before the ellipsis of a clipped description.
const SEPARATORS: &[char] = &[' ', ',', ';', ':', '-', '–', '—', '(', '[', '{', '/', '_'];

/// Whether byte offset `i` of `text` lies between two characters one of which is CJK-wide
/// (every such position is a word boundary).
fn boundary_at(text: &str, i: usize) -> bool {
    let before = text[..i].chars().next_back();
    let after = text[i..].chars().next();
    match (before, after) {
        (Some(b), Some(a)) => is_wide(b) || is_wide(a),
        _ => false,
    }
}

/// CJK ideographs, kana, Hangul syllables and full-width forms.
fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{2E80}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF00}'..='\u{FFEF}'
        | '\u{20000}'..='\u{3FFFF}')
}

#[cfg(test)]
mod tests;
