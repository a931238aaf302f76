//! Helpers for human output: an 80-column terminal, untrusted text made safe to print, and
//! JSON numbers that do not show `f32` noise.
//!
//! Widths count characters, not terminal cells: a CJK character takes two cells, so lines with
//! such text can run past column 80.

use serde_json::Value;

/// The width human output is laid out for.
pub(crate) const WIDTH: usize = 80;

/// The longest word [`wrap`] keeps whole (on a line of its own when it is longer than the
/// line); longer ones (hostile text) are broken so no line grows without bound.
pub(crate) const LONGEST_WORD: usize = 240;

/// `text` with control characters removed (tabs become a space), so that a hostile description
/// cannot move the cursor or recolour the terminal. Line breaks are kept when `keep_lines`.
pub(crate) fn clean(text: &str, keep_lines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' if keep_lines => out.push('\n'),
            '\n' | '\r' | '\t' => out.push(' '),
            // Bidi overrides and zero-width characters could make text look like other text.
            '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The number of characters of `text`.
pub(crate) fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `text` cut to at most `max` characters, with `…` as the last one when cut.
pub(crate) fn clip(text: &str, max: usize) -> String {
    if chars(text) <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `left` and `right` on one line of [`WIDTH`] characters, `right` flush with the right edge;
/// when both do not fit, `right` goes on the next line, still flush right.
pub(crate) fn two_ends(left: &str, right: &str) -> String {
    let (l, r) = (chars(left), chars(right));
    if l + 2 + r <= WIDTH {
        format!("{left}{}{right}\n", " ".repeat(WIDTH - l - r))
    } else {
        format!("{left}\n{}{right}\n", " ".repeat(WIDTH.saturating_sub(r)))
    }
}

/// `text` wrapped into lines of at most [`WIDTH`] characters, each starting with `indent`
/// spaces; line breaks in `text` are kept, blank lines are kept once. A word longer than the
/// line (a `$ref`, a JSON pointer, a path) goes whole on a line of its own, so it can be
/// copied; only a word longer than [`LONGEST_WORD`] characters is broken across lines.
pub(crate) fn wrap(text: &str, indent: usize) -> String {
    let room = WIDTH.saturating_sub(indent).max(20);
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut blank = false;
    for line in text.lines() {
        if line.trim().is_empty() {
            if !blank && !out.is_empty() {
                out.push('\n');
            }
            blank = true;
            continue;
        }
        blank = false;
        let mut current = String::new();
        let mut width = 0usize;
        let pieces = line.split_whitespace().flat_map(|word| {
            let cs: Vec<char> = word.chars().collect();
            let size = if cs.len() <= LONGEST_WORD { cs.len().max(1) } else { room };
            cs.chunks(size).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>()
        });
        for word in pieces {
            let w = chars(&word);
            if width > 0 && width + 1 + w > room {
                out.push_str(&pad);
                out.push_str(&current);
                out.push('\n');
                current.clear();
                width = 0;
            }
            if width > 0 {
                current.push(' ');
                width += 1;
            }
            current.push_str(&word);
            width += w;
        }
        if !current.is_empty() {
            out.push_str(&pad);
            out.push_str(&current);
            out.push('\n');
        }
    }
    out
}

/// `1 tool`, `2 tools`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// A score or statistic as a JSON number with at most four decimals (`f32` values printed as
/// `f64` would show digits the computation never had).
pub(crate) fn number(x: f32) -> Value {
    let rounded: f64 = format!("{x:.4}").parse().unwrap_or(0.0);
    serde_json::Number::from_f64(rounded).map_or(Value::Null, Value::Number)
}

/// A JSON document as the commands print it: pretty, one trailing line break, and no control
/// character but the line breaks of the layout. serde_json escapes U+0000 to U+001F in
/// strings but writes DEL and the C1 controls (U+0080 to U+009F) as they are; those can only
/// be inside strings, so they are written as `\u` escapes, which read back the same.
pub(crate) fn json_document(value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| String::from("null"));
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    out
}

/// `text` with every control character but line break and tab removed: the last guard before
/// anything reaches stdout or stderr, so no input can move the cursor, recolour the terminal
/// or forge a line with a carriage return.
pub(crate) fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars().filter(|&c| !c.is_control() || c == '\n' || c == '\t').collect(),
    )
}

/// Prints one line on stderr through [`printable`].
#[allow(clippy::print_stderr)] // The command's notes and errors go to stderr.
pub(crate) fn note(line: &str) {
    eprintln!("{}", printable(line));
}

/// The prefix of every line of untrusted text in `describe`: no line of a description or a
/// schema can start where toolsift's own lines start, or look like a heading or list entry.
pub(crate) const QUOTE: &str = "  | ";

/// `text` with [`QUOTE`] before every line.
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for line in text.lines() {
        if line.is_empty() {
            out.push_str(QUOTE.trim_end());
        } else {
            out.push_str(QUOTE);
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// `text` wrapped to fit [`WIDTH`] after the [`QUOTE`] prefix, then quoted.
pub(crate) fn quoted_wrap(text: &str) -> String {
    let pad = " ".repeat(QUOTE.len());
    let wrapped = wrap(text, QUOTE.len());
    let lines: Vec<&str> =
        wrapped.lines().map(|l| l.strip_prefix(pad.as_str()).unwrap_or(l)).collect();
    quoted(&lines.join("\n"))
}

#[cfg(test)]
mod tests;
