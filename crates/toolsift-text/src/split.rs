//! Splitting text into chunks, words and parts, with an ASCII fast path.
//!
//! A *chunk* is a maximal run of non-whitespace characters. Inside a chunk, a *word* is a maximal
//! run of alphanumeric grapheme clusters of one kind (CJK or not): a cluster without an
//! alphanumeric character is a separator, and a change between CJK and other scripts also ends
//! a word. A non-CJK word is then cut into *parts* on case boundaries. Every word is lowercased
//! and folded into one scratch buffer; words and cut points are offsets into it, so the whole
//! chunk is segmented without allocating per word. An ASCII word that lowercasing would not
//! change is not even copied: its offsets point into the analyzed text.
//!
//! For an all-ASCII chunk the grapheme clusters are single bytes, so the fast path scans bytes
//! and gives exactly what the general path would.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

use crate::cjk::is_cjk;
use crate::fold::fold_char;
use crate::memo::{ChunkKey, Memo};

/// The case class of an alphanumeric character, for finding case boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// An uppercase (or titlecase) letter.
    Upper,
    /// A lowercase letter.
    Lower,
    /// A digit or other numeric character.
    Digit,
    /// A letter without case (Arabic, Hebrew, Thai, …).
    Other,
}

impl Class {
    /// The class of an ASCII alphanumeric byte.
    #[inline]
    fn of_ascii(b: u8) -> Class {
        if b.is_ascii_uppercase() {
            Class::Upper
        } else if b.is_ascii_lowercase() {
            Class::Lower
        } else {
            Class::Digit
        }
    }

    /// The class of an alphanumeric character.
    #[inline]
    fn of_char(c: char) -> Class {
        if c.is_ascii() {
            Class::of_ascii(c as u8)
        } else if c.is_lowercase() {
            Class::Lower
        } else if c.is_uppercase() {
            Class::Upper
        } else if c.is_numeric() {
            Class::Digit
        } else if c.to_lowercase().ne(std::iter::once(c)) {
            // Titlecase letters (`ǅ`) have a lowercase mapping but are neither upper nor lower.
            Class::Upper
        } else {
            Class::Other
        }
    }
}

/// One word of a chunk: its folded text is `Scratch::text[start..end]`, or `input[start..end]` of
/// the analyzed text itself when `in_input` (an ASCII word that lowercasing would not change is
/// not copied).
#[derive(Debug, Clone)]
pub(crate) struct Word {
    /// Start of the folded word.
    pub(crate) start: usize,
    /// End of the folded word.
    pub(crate) end: usize,
    /// Whether `start..end` is a range of the analyzed text rather than of the scratch text.
    pub(crate) in_input: bool,
    /// Range into `Scratch::cuts`: the interior part boundaries of a non-CJK word (empty when
    /// it does not split), or the end of every grapheme cluster of a CJK run.
    pub(crate) cuts: Range<usize>,
    /// Whether this is a run of CJK clusters.
    pub(crate) cjk: bool,
}

/// Reusable buffers for analyzing text.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// The folded words of the current chunk, concatenated.
    pub(crate) text: String,
    /// The words of the current chunk.
    pub(crate) words: Vec<Word>,
    /// Cut points (offsets into `text`) referenced by `Word::cuts`.
    pub(crate) cuts: Vec<usize>,
    /// The stem of the current token.
    pub(crate) stem: String,
    /// Case class, output offset and "is the letter `s`" of the characters of the current
    /// non-ASCII word.
    chars: Vec<(Class, usize, bool)>,
    /// The tokens of recently analyzed chunks (bounded; not released by [`Scratch::trim`]).
    pub(crate) memo: Memo,
}

impl Scratch {
    /// Bytes of capacity a pooled scratch may keep between calls.
    const KEEP: usize = 1 << 16;

    /// Releases memory after an unusually large input.
    pub(crate) fn trim(&mut self) {
        if self.text.capacity() > Self::KEEP {
            self.text = String::new();
        }
        if self.cuts.capacity() > Self::KEEP {
            self.cuts = Vec::new();
        }
        if self.words.capacity() > Self::KEEP / 8 {
            self.words = Vec::new();
        }
        if self.chars.capacity() > Self::KEEP / 8 {
            self.chars = Vec::new();
        }
        if self.stem.capacity() > Self::KEEP {
            self.stem = String::new();
        }
    }

    /// The next chunk (run of non-whitespace) of `text` at or after byte `*at`, as its byte
    /// range; moves `*at` past it. `None` when only whitespace is left.
    ///
    /// On the way, `key` gets the chunk's memo key when the chunk is printable ASCII and not
    /// at the very end of the text (`key.ready`); otherwise the caller completes it.
    // Inlined into the analyzer's loop, which calls it once per chunk.
    #[inline(always)]
    pub(crate) fn next_chunk(
        text: &str,
        at: &mut usize,
        key: &mut ChunkKey,
    ) -> Option<Range<usize>> {
        let bytes = text.as_bytes();
        // Skip whitespace.
        while *at < bytes.len() {
            match BYTE_CLASS[usize::from(bytes[*at])] {
                WS => *at += 1,
                HIGH => match whitespace_width(text, *at) {
                    Some(width) => *at += width,
                    None => break,
                },
                _ => break,
            }
        }
        if *at >= bytes.len() {
            return None;
        }
        let start = *at;
        let mut end = start;
        key.reset();
        // Eight bytes at a time while none is a control, space or non-ASCII byte, building
        // the memo key from the same words.
        while end + 8 <= bytes.len() {
            let mut word = [0; 8];
            word.copy_from_slice(&bytes[end..end + 8]);
            let word = u64::from_le_bytes(word);
            // The high bit of each byte below 0x21 or at least 0x80. A borrow can only mark a
            // byte after a marked one, and only the first marked byte is used.
            let special = (word.wrapping_sub(0x2121_2121_2121_2121) | word) & 0x8080_8080_8080_8080;
            if special != 0 {
                let inside = (special.trailing_zeros() / 8) as usize;
                if inside > 0 {
                    key.push(word & (u64::MAX >> (64 - 8 * inside)));
                }
                end += inside;
                // The chunk ends here if this byte is whitespace (checked below).
                key.ready = BYTE_CLASS[usize::from(bytes[end])] == WS;
                break;
            }
            key.push(word);
            end += 8;
        }
        if key.ready {
            // `bytes[end]` is ASCII whitespace: the next call need not look at it again.
            *at = end + 1;
            return Some(start..end);
        }
        while end < bytes.len() {
            match BYTE_CLASS[usize::from(bytes[end])] {
                WS => break,
                HIGH => match whitespace_width(text, end) {
                    Some(_) => break,
                    None => end += utf8_width(bytes[end]),
                },
                _ => end += 1,
            }
        }
        *at = end;
        Some(start..end)
    }

    /// Segments the chunk `text[chunk]` (from [`Scratch::next_chunk`]) into `words`, replacing
    /// the previous chunk.
    ///
    /// Returns whether the chunk is an identifier: two of its words are separated by something
    /// other than an apostrophe (`get_me`, `API-post-search`, `/repos/{owner}`, `node.js`).
    pub(crate) fn segment(&mut self, text: &str, chunk: Range<usize>) -> bool {
        self.text.clear();
        self.words.clear();
        self.cuts.clear();
        // The ASCII fast path segments while it scans; it gives up at the first non-ASCII byte.
        if let Some(identifier) = self.segment_ascii(&text[..chunk.end], chunk.start) {
            return identifier;
        }
        self.text.clear();
        self.words.clear();
        self.cuts.clear();
        self.segment_unicode(&text[chunk])
    }

    /// Segments `text[start..]`, a chunk without whitespace: returns whether it is an
    /// identifier, or `None` (with the scratch half filled) if the chunk has a non-ASCII byte.
    #[inline]
    fn segment_ascii(&mut self, text: &str, start: usize) -> Option<bool> {
        let bytes = text.as_bytes();
        let mut identifier = false;
        let mut seen_word = false;
        let mut separated = false;
        let mut i = start;
        while i < bytes.len() {
            match BYTE_CLASS[usize::from(bytes[i])] {
                WS => break,
                HIGH => return None,
                SEP => {
                    separated = true;
                    i += 1;
                }
                APOSTROPHE => i += 1,
                _ => {
                    let word_start = i;
                    let first_upper = BYTE_CLASS[usize::from(bytes[i])] == UPPER;
                    let mut upper_inside = false;
                    i += 1;
                    while i < bytes.len() {
                        let class = BYTE_CLASS[usize::from(bytes[i])];
                        if class < LOWER {
                            break;
                        }
                        upper_inside |= class == UPPER;
                        i += 1;
                    }
                    identifier |= seen_word && separated;
                    seen_word = true;
                    separated = false;
                    if first_upper || upper_inside {
                        // The word is ASCII, so both ends are char boundaries.
                        self.push_ascii_word(&text[word_start..i], upper_inside);
                    } else {
                        self.words.push(Word {
                            start: word_start,
                            end: i,
                            in_input: true,
                            cuts: 0..0,
                            cjk: false,
                        });
                    }
                }
            }
        }
        Some(identifier)
    }

    /// Lowercases one ASCII word into the scratch and finds its case boundaries; `upper_inside`
    /// tells whether an uppercase letter follows the first byte (only then can the word split).
    #[inline]
    fn push_ascii_word(&mut self, word: &str, upper_inside: bool) {
        let start = self.text.len();
        self.text.push_str(word);
        self.text[start..].make_ascii_lowercase();
        let word = word.as_bytes();
        let cuts_start = self.cuts.len();
        if upper_inside {
            let cuts = &mut self.cuts;
            case_cuts(
                word.len(),
                |i| (Class::of_ascii(word[i]), word[i] == b's'),
                |i| cuts.push(start + i),
            );
        }
        self.words.push(Word {
            start,
            end: self.text.len(),
            in_input: false,
            cuts: cuts_start..self.cuts.len(),
            cjk: false,
        });
    }

    /// Segments a chunk with non-ASCII characters: works on grapheme clusters.
    fn segment_unicode(&mut self, chunk: &str) -> bool {
        let mut identifier = false;
        let mut seen_word = false;
        let mut separated = false;
        // The kind of the word being built: `None` between words, `Some(cjk)` inside one.
        let mut current: Option<bool> = None;
        let mut start = 0;
        let mut cuts_start = 0;
        for cluster in chunk.graphemes(true) {
            let Some(first) = cluster.chars().find(|c| c.is_alphanumeric()) else {
                if let Some(cjk) = current.take() {
                    self.finish_word(start, cuts_start, cjk);
                }
                separated |= !matches!(cluster, "'" | "\u{2019}");
                continue;
            };
            let cjk = is_cjk(first);
            if current != Some(cjk) {
                if let Some(previous) = current {
                    self.finish_word(start, cuts_start, previous);
                }
                identifier |= seen_word && separated;
                seen_word = true;
                separated = false;
                current = Some(cjk);
                start = self.text.len();
                cuts_start = self.cuts.len();
                self.chars.clear();
            }
            for c in cluster.chars().filter(|c| c.is_alphanumeric()) {
                if !cjk {
                    self.chars.push((Class::of_char(c), self.text.len(), c == 's'));
                }
                let text = &mut self.text;
                fold_char(c, |f| {
                    if f.is_alphanumeric() {
                        text.push(f);
                    }
                });
            }
            if cjk && self.text.len() > self.cuts.last().copied().unwrap_or(start).max(start) {
                self.cuts.push(self.text.len());
            }
        }
        if let Some(cjk) = current {
            self.finish_word(start, cuts_start, cjk);
        }
        identifier
    }

    /// Records the word that was built from `start`; finds the case boundaries of a non-CJK word.
    fn finish_word(&mut self, start: usize, cuts_start: usize, cjk: bool) {
        let end = self.text.len();
        if end == start {
            // Every character folded away; nothing to emit.
            self.cuts.truncate(cuts_start);
            return;
        }
        if !cjk {
            let chars = &self.chars;
            let cuts = &mut self.cuts;
            case_cuts(
                chars.len(),
                |i| (chars[i].0, chars[i].2),
                |i| {
                    let at = chars[i].1;
                    // A character may fold to nothing; never emit an empty part.
                    if at > cuts.last().copied().unwrap_or(start).max(start) && at < end {
                        cuts.push(at);
                    }
                },
            );
        }
        self.words.push(Word {
            start,
            end,
            in_input: false,
            cuts: cuts_start..self.cuts.len(),
            cjk,
        });
    }
}

/// Calls `cut(i)` for every index `i` of a word of `len` characters where a new part starts.
///
/// A part starts at an uppercase letter that follows
/// - a lowercase letter: `get|Issue`, `i|Phone`;
/// - an uppercase letter, when a lowercase letter follows it, unless that is a lone plural `s`:
///   `HTTP|Server`, but `IDs`, `URLs|List`;
/// - a digit, when a lowercase letter follows it or the letter before the digits is lowercase:
///   `base64|Encode`, `S3|Bucket`, `base64|URL`, but `K8S`.
///
/// Digits never start a part (`s3`, `oauth2`, `v1`), and neither does a lowercase letter after a
/// digit (`k8s`, `v1beta1`, `2fa`).
///
/// `class(i)` gives the class of character `i` and whether it is the letter `s`.
fn case_cuts(len: usize, class: impl Fn(usize) -> (Class, bool), mut cut: impl FnMut(usize)) {
    let mut letter_before_digits = Class::Other;
    let mut previous = if len > 0 { class(0).0 } else { return };
    if previous != Class::Digit {
        letter_before_digits = previous;
    }
    for i in 1..len {
        let current = class(i).0;
        if current == Class::Upper {
            let next = if i + 1 < len { Some(class(i + 1)) } else { None };
            let boundary = match previous {
                Class::Lower => true,
                Class::Upper => match next {
                    // A lone plural `s` after an acronym (`IDs`, `URLsList`) is no new part.
                    Some((Class::Lower, true)) => i + 2 < len && class(i + 2).0 == Class::Lower,
                    Some((Class::Lower, false)) => true,
                    _ => false,
                },
                Class::Digit => {
                    matches!(next, Some((Class::Lower, _))) || letter_before_digits == Class::Lower
                }
                Class::Other => false,
            };
            if boundary {
                cut(i);
            }
        }
        if current != Class::Digit {
            letter_before_digits = current;
        }
        previous = current;
    }
}

/// [`BYTE_CLASS`]: ASCII whitespace.
const WS: u8 = 0;
/// [`BYTE_CLASS`]: an ASCII separator other than the apostrophe.
const SEP: u8 = 1;
/// [`BYTE_CLASS`]: the apostrophe, which separates words but does not make an identifier.
const APOSTROPHE: u8 = 2;
/// [`BYTE_CLASS`]: a byte of a non-ASCII character.
const HIGH: u8 = 3;
/// [`BYTE_CLASS`]: a lowercase ASCII letter; the classes from here on are alphanumeric.
const LOWER: u8 = 4;
/// [`BYTE_CLASS`]: an uppercase ASCII letter.
const UPPER: u8 = 5;
/// [`BYTE_CLASS`]: an ASCII digit.
const DIGIT: u8 = 6;

/// The class of every byte, for the ASCII fast path.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [HIGH; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        table[b] = match byte {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => WS,
            b'\'' => APOSTROPHE,
            b'a'..=b'z' => LOWER,
            b'A'..=b'Z' => UPPER,
            b'0'..=b'9' => DIGIT,
            _ => SEP,
        };
        b += 1;
    }
    table
};

/// The width of the whitespace character at byte `at` of `text`, if it is one.
#[inline]
fn whitespace_width(text: &str, at: usize) -> Option<usize> {
    let c = text.get(at..)?.chars().next()?;
    c.is_whitespace().then(|| c.len_utf8())
}

/// The length of the UTF-8 sequence that starts with `lead`.
#[inline]
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}
