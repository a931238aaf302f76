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
