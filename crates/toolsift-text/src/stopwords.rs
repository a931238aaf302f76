//! The stopword list: data in `data/stopwords.txt`, loaded into a small hash set.
//!
//! The set is only ever probed, never iterated, so its layout cannot reach any output.

use std::fmt;
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

use crate::fold::fold;

/// The default list: one word per line, `#` starts a comment.
const DEFAULT_LIST: &str = include_str!("../data/stopwords.txt");

/// The words of the default stopword list, in file order.
///
/// The list (`data/stopwords.txt` in the crate) holds English function words, words that carry
/// no intent in a tool search (`tool`, `please`, `want`, `using`, …), and the function words of
/// Spanish, French, German, Portuguese and Italian that are not also English words (`un`,
/// `les`, `der`, `und`, …). Pass a changed copy to
/// [`AnalyzerBuilder::stopwords`](crate::AnalyzerBuilder::stopwords) to tune it.
///
/// ```
/// let words: Vec<&str> = toolsift_text::default_stopwords().collect();
/// assert!(words.contains(&"the") && words.contains(&"please") && words.contains(&"und"));
/// assert!(!words.contains(&"get"));
/// ```
pub fn default_stopwords() -> impl Iterator<Item = &'static str> {
    parse_list(DEFAULT_LIST)
}

/// The words of a list in the `data/stopwords.txt` format.
fn parse_list(list: &str) -> impl Iterator<Item = &str> {
    list.lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|word| !word.is_empty())
}

/// A set of folded stopwords: an open-addressing table of words packed into `u128` keys, plus a
/// sorted list for the (unusual) words longer than 16 bytes.
#[derive(Clone)]
pub(crate) struct Stopwords {
    /// How many distinct words the set holds.
    len: usize,
    /// Packed words ([`pack`]); `0` marks an empty slot. The length is a power of two and at
    /// least four times the number of words, so probing always ends at an empty slot.
    slots: Box<[u128]>,
    /// Words longer than 16 bytes, sorted.
    long: Vec<Box<str>>,
    /// For each first byte, bit `n` is set if some word of `n` bytes (`n` < 32) starts with it;
    /// bit 0 stands for all longer words. Most words are rejected here without hashing.
    shapes: [u32; 256],
}

impl Stopwords {
    /// The default list.
    pub(crate) fn default_list() -> Self {
        Self::from_words(default_stopwords())
    }

    /// A set of the given words, each folded as the analyzer folds words.
    pub(crate) fn from_words<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> Self {
        let mut short = Vec::new();
        let mut long = Vec::new();
        let mut shapes = [0; 256];
        for word in words {
            let word = fold(word.as_ref().trim()).into_owned();
            if let Some(&first) = word.as_bytes().first() {
                shapes[usize::from(first)] |= shape_bit(word.len());
            }
            match pack(word.as_bytes()) {
                Some(key) => short.push(key),
                None if !word.is_empty() => long.push(word.into_boxed_str()),
                None => {}
            }
        }
        long.sort_unstable();
        long.dedup();
        let mut slots = vec![0; (short.len() * 4).next_power_of_two().max(16)].into_boxed_slice();
        let mask = slots.len() - 1;
        let mut len = long.len();
        for key in short {
            let mut i = slot(key, mask);
            while slots[i] != 0 && slots[i] != key {
                i = (i + 1) & mask;
            }
            len += usize::from(slots[i] == 0);
            slots[i] = key;
        }
        Stopwords { len, slots, long, shapes }
    }

    /// Whether the folded `word` is in the set.
    #[inline]
    pub(crate) fn contains(&self, word: &str) -> bool {
        let Some(&first) = word.as_bytes().first() else { return false };
        if self.shapes[usize::from(first)] & shape_bit(word.len()) == 0 {
            return false;
        }
        let Some(key) = pack(word.as_bytes()) else {
            return word.len() > 16 && self.long.binary_search_by(|w| (**w).cmp(word)).is_ok();
        };
        let mask = self.slots.len() - 1;
        let mut i = slot(key, mask);
        loop {
            match self.slots[i] {
                0 => return false,
                found if found == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

impl fmt::Debug for Stopwords {
    /// A summary: the table itself is a thousand numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stopwords").field("len", &self.len).finish_non_exhaustive()
    }
}

/// The bit of [`Stopwords::shapes`] for a word of `len` bytes.
#[inline]
fn shape_bit(len: usize) -> u32 {
    if len < 32 { 1 << len } else { 1 }
}

/// Packs a word of 1 to 16 bytes into a non-zero `u128` (little-endian, zero-padded); words never
/// contain NUL, so different words give different keys.
#[inline]
fn pack(word: &[u8]) -> Option<u128> {
    if word.is_empty() || word.len() > 16 {
        return None;
    }
    // Shifts rather than a copy into a byte array: no store-to-load stall on the hot path.
    let key = word.iter().rev().fold(0u128, |key, &b| (key << 8) | u128::from(b));
    Some(key)
}

/// The home slot of a packed word.
#[inline]
fn slot(key: u128, mask: usize) -> usize {
    FxBuildHasher.hash_one(key) as usize & mask
}
