//! The [`Stemmer`] trait and the in-crate [`LightStemmer`].

use std::borrow::Cow;
use std::fmt;

/// A pluggable stemmer: maps a lowercased, folded word to its stem.
///
/// A stemmer must be a pure function of the word: the analyzer memoizes the tokens of the
/// chunks it has analyzed (see [`AnalyzerBuilder::memoize`](crate::AnalyzerBuilder::memoize)),
/// so a word is not necessarily stemmed again when it comes back.
///
/// Only [`stem`](Stemmer::stem) is required. The analyzer calls
/// [`stem_buffered`](Stemmer::stem_buffered), whose default delegates to `stem`; override it to
/// return a slice of the word or write into the caller's buffer without allocating, as
/// [`LightStemmer`] does.
///
/// ```
/// use std::borrow::Cow;
/// use toolsift_text::{Analyzer, Stemmer};
///
/// /// Keeps every word as it is.
/// #[derive(Debug)]
/// struct Identity;
///
/// impl Stemmer for Identity {
///     fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
///         Cow::Borrowed(word)
///     }
/// }
///
/// let analyzer = Analyzer::builder().stemmer(Identity).build();
/// assert_eq!(analyzer.stem("issues"), "issues");
/// ```
pub trait Stemmer: Send + Sync + fmt::Debug {
    /// The stem of a lowercased, folded word.
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str>;

    /// The stem of `word`, either borrowed from `word` or written into `buf` (which may hold
    /// anything beforehand), so that no call needs to allocate.
    ///
    /// The default calls [`stem`](Stemmer::stem) and moves an owned result into `buf`.
    fn stem_buffered<'a>(&self, word: &'a str, buf: &'a mut String) -> &'a str {
        match self.stem(word) {
            Cow::Borrowed(stem) => stem,
            Cow::Owned(stem) => {
                *buf = stem;
                buf.as_str()
            }
        }
    }
}

/// The light English stemmer: plurals, `-ing`, `-ed` and a final `-e`, nothing more.
///
/// It conflates the inflections that differ between a query and a tool description
/// (`create`, `created`, `creates`, `creating` → `creat`) without the over-stemming of a full
/// Porter stemmer (`general` and `generic` stay apart). Stems need not be words; what matters is
/// that the forms of one word share a stem. Words that are not all ASCII lowercase letters
/// (`s3`, `v1`, `café` before folding, `日本`) are left as they are.
///
/// The rules, applied in this order to a word of three or more letters; no rule ever leaves
/// fewer than three letters:
///
/// 1. A few exceptions stay whole or have a fixed stem: `news`, `series`, `species`, `alias`,
///    `canvas`, `atlas`, `bias`, `lens`, `chaos`, `kudos`, `macos`; `menus` → `menu`.
/// 2. `-sis` of a long word drops `is`: `analysis` → `analys` (so `analyses` → `analyse` →
///    `analys` meets it).
/// 3. Plural: a final `s` is dropped, except after `s` (`address`, `process`), after `u`
///    (`status`, `bus`, `focus`) and after `i` in words of five or more letters (`redis`).
///    `-es` and `-ies` need no rule of their own: step 5 and 6 finish them
///    (`processes` → `processe` → `process`, `queries` → `querie` → `queri`).
/// 4. `-ing` and `-ed` (not `-eed`: `speed`, `need`) are dropped when what remains has a vowel
///    and three or more letters (`listing` → `list`, `string` and `thing` stay); a doubled final
///    consonant other than `l`, `s`, `z`, `f` is then undoubled (`running` → `run`,
///    `stopped` → `stop`, `calling` → `call`). A remainder of two letters, vowel then
///    consonant, gets its `e` back (`using`, `used` → `use`). `embed` is kept whole.
/// 5. A final `e` is dropped unless it follows another `e` (`update` → `updat`,
///    `message` → `messag`, `employee` stays) or a *short word*: one vowel between a run of
///    consonants and one final consonant other than `w`, `x`, `y` (`note`, `state`, `type`,
///    `side`, `page` stay whole, so they do not meet `not`, `stats`, `typ`, `sid`). Step 4
///    gives such a short remainder its `e` back (`noting`, `noted` → `note`; `typing` →
///    `type`), unless it undoubled a consonant (`planned` → `plan`).
/// 6. A final `y` after a consonant becomes `i` (`query` → `queri`, `repository` →
///    `repositori`, `key` stays).
///
/// ```
/// use toolsift_text::{LightStemmer, Stemmer};
///
/// let s = LightStemmer;
/// for word in ["create", "created", "creates", "creating"] {
///     assert_eq!(s.stem(word), "creat");
/// }
/// assert_eq!(s.stem("repositories"), s.stem("repository"));
/// for word in ["status", "address", "news", "string", "bus"] {
///     assert_eq!(s.stem(word), word);
/// }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct LightStemmer;

impl Stemmer for LightStemmer {
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        match light_stem(word.as_bytes()) {
            (keep, None) => Cow::Borrowed(&word[..keep]),
            (keep, Some(last)) => {
                let mut stem = String::with_capacity(keep + 1);
                stem.push_str(&word[..keep]);
                stem.push(char::from(last));
                Cow::Owned(stem)
            }
        }
    }

    fn stem_buffered<'a>(&self, word: &'a str, buf: &'a mut String) -> &'a str {
        match light_stem(word.as_bytes()) {
            (keep, None) => &word[..keep],
            (keep, Some(last)) => {
                buf.clear();
                buf.push_str(&word[..keep]);
                buf.push(char::from(last));
                buf.as_str()
            }
        }
    }
}

/// No rule leaves a stem shorter than this.
const MIN_STEM: usize = 3;

/// Whether `b` is one of `aeiou`.
#[inline]
fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Whether `s` has a vowel, counting a `y` that is not the first letter.
#[inline]
fn has_vowel(s: &[u8]) -> bool {
    s.iter().enumerate().any(|(i, &b)| is_vowel(b) || (b == b'y' && i > 0))
}

/// Whether `s` is a *short word* (after Porter2): one vowel, preceded only by consonants and
/// followed by exactly one consonant other than `w`, `x` and `y` (`not`, `stat`, `typ`,
/// `plan`). Its final `e` belongs to it: `note` and `not`, `state` and `stats`, `side` and
/// `sid`, `plane` and `plan` stay apart. Longer words lose the `e` (`updat`, `delet`).
fn is_short_word(s: &[u8]) -> bool {
    let n = s.len();
    if n < 2 {
        return false;
    }
    let vowel_at = |i: usize| is_vowel(s[i]) || (s[i] == b'y' && i > 0 && !is_vowel(s[i - 1]));
    !vowel_at(n - 1)
        && !matches!(s[n - 1], b'w' | b'x' | b'y')
        && vowel_at(n - 2)
        && (0..n - 2).all(|i| !vowel_at(i))
}

/// The stem of `w` as the length of the prefix to keep plus an optional ASCII letter to append.
///
/// Every returned prefix length is at a char boundary: only all-ASCII words are ever cut.
fn light_stem(w: &[u8]) -> (usize, Option<u8>) {
    let len = w.len();
    // Every rule needs one of these last letters: most words leave here, before any scan.
    let Some(&last) = w.last().filter(|&&b| matches!(b, b's' | b'g' | b'd' | b'e' | b'y')) else {
        return (len, None);
    };
    if len < MIN_STEM || !w.iter().all(u8::is_ascii_lowercase) {
        return (len, None);
    }
    // Rule 1: exceptions (all of them end in `s` or `d`).
    if last == b's' || last == b'd' {
        match w {
            b"news" | b"series" | b"species" | b"alias" | b"canvas" | b"atlas" | b"bias"
            | b"lens" | b"chaos" | b"kudos" | b"macos" | b"embed" => return (len, None),
            b"menus" => return (4, None),
            _ => {}
        }
    }
    // Rule 2: -sis.
    if len >= 6 && w.ends_with(b"sis") {
        return (len - 2, None);
    }
    // Rule 3: plural -s.
    let mut n = len;
    if w[n - 1] == b's' && n > MIN_STEM {
        let before = w[n - 2];
        let protected = before == b's' || before == b'u' || (before == b'i' && len >= 5);
        if !protected {
            n -= 1;
        }
    }
    // Rule 4: -ing and -ed.
    let stem = &w[..n];
    let cut = if stem.ends_with(b"ing") {
        Some(n - 3)
    } else if stem.ends_with(b"ed") && !stem.ends_with(b"eed") && stem != b"embed" {
        Some(n - 2)
    } else {
        None
    };
    if let Some(rest) = cut {
        let remainder = &w[..rest];
        if rest >= MIN_STEM && has_vowel(remainder) {
            n = rest;
            let last = w[n - 1];
            let undouble = n > MIN_STEM
                && last == w[n - 2]
                && !is_vowel(last)
                && !matches!(last, b'l' | b's' | b'z' | b'f');
            if undouble {
                n -= 1;
            } else if is_short_word(remainder) {
                // `noting` → `note`, `typed` → `type`: rule 5 keeps the `e` of a short word.
                return (n, Some(b'e'));
            }
        } else if rest == 2
            && is_vowel(remainder[0])
            && !is_vowel(remainder[1])
            && !matches!(remainder[1], b'w' | b'x' | b'y')
        {
            return (rest, Some(b'e'));
        }
    }
    // Rule 5: final -e, except after a short word (`note`, `state`, `side`, `type`).
    if n > MIN_STEM && w[n - 1] == b'e' && w[n - 2] != b'e' && !is_short_word(&w[..n - 1]) {
        n -= 1;
    }
    // Rule 6: final consonant + y.
    if n >= MIN_STEM && w[n - 1] == b'y' && !is_vowel(w[n - 2]) {
        return (n - 1, Some(b'i'));
    }
    (n, None)
}

/// Whether a word (lowercased, as the analyzer emits it) reads as a verb in the past tense or
/// a past participle: it ends in `ed` and its stem under the analyzer's stemmer is shorter
/// (`uploaded` → `upload`, `posted` → `post`; not `need`, `speed` or `embed`).
///
/// Such a word usually describes what happened or what state a thing is in ("the files I
/// uploaded", "tickets assigned to me", "rerun failed jobs"), not the action asked for.
///
/// ```
/// use toolsift_text::is_past_tense;
///
/// assert!(is_past_tense("uploaded", "upload"));
/// assert!(!is_past_tense("upload", "upload"));
/// assert!(!is_past_tense("need", "need"));
/// ```
#[must_use]
pub fn is_past_tense(word: &str, stem: &str) -> bool {
    word.ends_with("ed") && stem.len() < word.len()
}
