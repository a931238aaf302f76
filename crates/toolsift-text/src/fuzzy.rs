//! [`for_each_edit`]: the words one edit away from a word, for typo-tolerant lookups.
//!
//! A ranker that does not find a query word in its vocabulary can look up these variants in
//! its word table (a hash lookup each) instead of scanning the vocabulary for close words:
//! about `54 n + 25` variants for a word of `n` letters, only for words that matched nothing.

/// Calls `f` with every distinct lowercase ASCII word at Damerau–Levenshtein distance 1 from
/// `word` (one letter deleted, inserted, replaced, or two neighbours swapped), in a fixed
/// order, never `word` itself.
///
/// Only lowercase ASCII words of `min_len` or more letters and digits are varied (inserted
/// and replacing characters are `a`–`z`); for any other word nothing is emitted.
///
/// ```
/// let mut seen = Vec::new();
/// toolsift_text::for_each_edit("reop", 4, |w| seen.push(w.to_owned()));
/// assert!(seen.contains(&"repo".to_owned()));   // swap
/// assert!(seen.contains(&"rep".to_owned()));    // deletion
/// assert!(seen.contains(&"reopn".to_owned()));  // insertion
/// assert!(!seen.contains(&"reop".to_owned()));
/// let mut none = 0;
/// toolsift_text::for_each_edit("repo", 5, |_| none += 1);
/// assert_eq!(none, 0);
/// ```
pub fn for_each_edit(word: &str, min_len: usize, mut f: impl FnMut(&str)) {
    let bytes = word.as_bytes();
    let ok = bytes.len() >= min_len.max(1)
        && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !ok {
        return;
    }
    let n = bytes.len();
    let mut buf: Vec<u8> = Vec::with_capacity(n + 1);
    let mut emit = |buf: &[u8]| {
        // Only ASCII bytes are ever written, so this always succeeds.
        if let Ok(s) = std::str::from_utf8(buf) {
            f(s);
        }
    };
    // Deletions (a run of equal letters gives one variant).
    for i in 0..n {
        if i > 0 && bytes[i] == bytes[i - 1] {
            continue;
        }
        buf.clear();
        buf.extend_from_slice(&bytes[..i]);
        buf.extend_from_slice(&bytes[i + 1..]);
        emit(&buf);
    }
    // Swaps of two different neighbours.
    for i in 0..n.saturating_sub(1) {
        if bytes[i] == bytes[i + 1] {
            continue;
        }
        buf.clear();
        buf.extend_from_slice(bytes);
        buf.swap(i, i + 1);
        emit(&buf);
    }
    // Replacements.
    for i in 0..n {
        for c in b'a'..=b'z' {
            if c == bytes[i] {
                continue;
            }
            buf.clear();
            buf.extend_from_slice(bytes);
            buf[i] = c;
            emit(&buf);
        }
    }
    // Insertions (inserting the letter already before the gap repeats the insertion after it;
    // skip that duplicate).
    for i in 0..=n {
        for c in b'a'..=b'z' {
            if i > 0 && bytes[i - 1] == c {
                continue;
            }
            buf.clear();
            buf.extend_from_slice(&bytes[..i]);
            buf.push(c);
            buf.extend_from_slice(&bytes[i..]);
            emit(&buf);
        }
    }
}

/// Whether `a` and `b` are at most one edit apart: equal, or one letter deleted, inserted or
/// replaced, or two neighbours swapped (the optimal-string-alignment distance is at most 1).
///
/// Compares bytes, so for ASCII words it agrees with [`for_each_edit`]: `b` is one of the
/// variants `for_each_edit(a, ..)` emits exactly when `a != b` and this is true for lowercase
/// ASCII `a` and `b`. A few instructions per byte and no allocation: cheap enough to test a
/// word against every catalog word of a bucket.
///
/// ```
/// use toolsift_text::within_one_edit;
/// assert!(within_one_edit("repositry", "repository")); // insertion
/// assert!(within_one_edit("reop", "repo"));             // swap
/// assert!(within_one_edit("issue", "issue"));
/// assert!(!within_one_edit("issue", "tissues"));
/// ```
#[must_use]
pub fn within_one_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if a.len() == b.len() {
        if p == a.len() {
            return true;
        }
        // A replacement at `p`, or `p` and `p + 1` swapped.
        a[p + 1..] == b[p + 1..]
            || (p + 1 < a.len() && a[p] == b[p + 1] && a[p + 1] == b[p] && a[p + 2..] == b[p + 2..])
    } else {
        // The longer one with its letter at `p` deleted.
        let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
        short[p..] == long[p + 1..]
    }
}
