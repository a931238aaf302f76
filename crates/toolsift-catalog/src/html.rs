//! HTML in descriptions made text. Some API descriptions (Stripe's) are HTML fragments:
//! `<p>`, `<code>`, `<a href>`, `<ul><li>`, entities. Left as they are, the tags reach the
//! index as words and the listing as markup. Only the tags below are read as HTML; any other
//! `<...>` (such as `<id>` in "replace `<id>` with the id") stays as written.

/// Tags whose start or end is a paragraph break.
const BLOCK: [&str; 13] =
    ["p", "div", "ul", "ol", "pre", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6"];
/// Tags dropped without a break (their text is kept).
const INLINE: [&str; 14] =
    ["a", "code", "b", "i", "em", "strong", "span", "tt", "kbd", "var", "td", "th", "u", "small"];

/// `text` with HTML markup turned into plain text, or `None` when it holds no HTML tag of the
/// lists above and no entity (most descriptions), so nothing is copied.
///
/// `<p>`, `<div>`, lists, `<pre>` and headings become paragraph breaks, `<br>` a line break,
/// `<li>` a line starting with `- `, other known tags are dropped with their text kept (a
/// link keeps its text, not its address), and the entities `&amp;`, `&lt;`, `&gt;`, `&quot;`,
/// `&apos;`, `&#39;`, `&nbsp;` and numeric ones become their characters.
pub(crate) fn to_text(text: &str) -> Option<String> {
    if !text.contains('<') && !text.contains('&') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some(i) = rest.find(['<', '&']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with('<') {
            match tag(rest) {
                Some((len, name, closing)) => {
                    changed = true;
                    if name == "br" {
                        out.push('\n');
                    } else if name == "li" {
                        if !closing {
                            out.push_str("\n- ");
                        }
                    } else if BLOCK.contains(&name.as_str()) {
                        out.push_str("\n\n");
                    }
                    rest = &rest[len..];
                }
                None => {
                    out.push('<');
                    rest = &rest[1..];
                }
            }
        } else {
            match entity(rest) {
                Some((len, c)) => {
                    changed = true;
                    out.push(c);
                    rest = &rest[len..];
                }
                None => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
        }
    }
    out.push_str(rest);
    changed.then(|| tidy(&out))
}

/// A known tag at the start of `s`: its length, lower-case name, and whether it closes.
fn tag(s: &str) -> Option<(usize, String, bool)> {
    let end = s.find('>')?;
    let inner = &s[1..end];
    // A tag has no line break and no further `<` inside.
    if inner.contains(['<', '\n']) || inner.len() > 2000 {
        return None;
    }
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let name_end = inner.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(inner.len());
    let name = inner[..name_end].to_ascii_lowercase();
    let after = &inner[name_end..];
    let known = name == "br"
        || name == "li"
        || BLOCK.contains(&name.as_str())
        || INLINE.contains(&name.as_str());
    let well_formed = after.is_empty() || (after.starts_with([' ', '/']) && !closing);
    (known && well_formed).then_some((end + 1, name, closing))
}

/// An entity at the start of `s`: its length and character.
fn entity(s: &str) -> Option<(usize, char)> {
    let end = s[..s.len().min(12)].find(';')?;
    let body = &s[1..end];
    let c = match body {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => {
            let number = body.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code).filter(|c| !c.is_control() || *c == '\n')?
        }
    };
    Some((end + 1, c))
}

/// Spaces around line breaks trimmed, at most one blank line in a row, no blank ends.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0usize;
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_text;

    #[test]
    fn stripe_like_html_becomes_text() {
        let html = "<p>Creates a <code>Customer</code>. See <a href=\"https://x\">the docs</a>.</p><p>Second &amp; last.</p>";
        assert_eq!(
            to_text(html).as_deref(),
            Some("Creates a Customer. See the docs.\n\nSecond & last.")
        );
        let list = "Modes:<ul><li>one</li><li>two</li></ul>Done.<br>Next";
        assert_eq!(to_text(list).as_deref(), Some("Modes:\n\n- one\n- two\n\nDone.\nNext"));
    }

    #[test]
    fn text_that_is_not_html_is_left_alone() {
        assert_eq!(to_text("Replace <id> with the id; a < b && c > d"), None);
        assert_eq!(to_text("plain text"), None);
        assert_eq!(to_text("Tom &amp Jerry"), None);
        assert_eq!(to_text("x &#0; y"), None);
    }
}
