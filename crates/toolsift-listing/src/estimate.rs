//! Token estimates: the trait a budget is measured with, the default [`PieceEstimate`], and the
//! plain [`CharsPerToken`] estimate.

use std::fmt;
use std::hash::Hasher;
use std::ops::Range;
use std::sync::OnceLock;

use rustc_hash::{FxBuildHasher, FxHashMap, FxHasher};

/// Estimates how many tokens a text costs a model.
///
/// The listing uses it to fit a token budget. It has one required method. Any
/// `Fn(&str) -> usize + Send + Sync` closure is an estimator too, so a host with a real
/// tokenizer can plug it in directly.
///
/// The listing estimates each server block once and adds the parts, then checks the final
/// text with one more call; an estimator that is roughly additive (the cost of two texts
/// joined is about the sum of their costs) gets the best use of the budget, and any
/// estimator gets a listing that is never over budget by its own measure.
///
/// ```
/// use toolsift_listing::{CharsPerToken, TokenEstimator};
///
/// assert_eq!(CharsPerToken::default().estimate("twelve chars"), 3);
/// let words = |text: &str| text.split_whitespace().count();
/// assert_eq!(words.estimate("three short words"), 3);
/// ```
pub trait TokenEstimator {
    /// The estimated number of tokens of `text`.
    fn estimate(&self, text: &str) -> usize;
}

impl<F> TokenEstimator for F
where
    F: Fn(&str) -> usize,
{
    fn estimate(&self, text: &str) -> usize {
        self(text)
    }
}

/// One token per `n` characters (Unicode scalar values), rounded up; `n` is 4 by default.
///
/// A blunt estimate: tool names and identifiers tokenize densely, so on listings it counts up
/// to a fifth fewer tokens than OpenAI's tokenizers do, and on other text more (the tables are
/// in `docs/listing.md`). The default estimator is [`PieceEstimate`]; this one stays for hosts
/// that want the simplest rule.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CharsPerToken {
    chars: usize,
}

impl CharsPerToken {
    /// One token per `chars` characters; `0` is treated as `1`.
    pub fn new(chars: usize) -> Self {
        CharsPerToken { chars: chars.max(1) }
    }

    /// The number of characters per token.
    pub fn chars(self) -> usize {
        self.chars
    }
}

impl Default for CharsPerToken {
    fn default() -> Self {
        CharsPerToken::new(4)
    }
}

impl fmt::Debug for CharsPerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CharsPerToken({})", self.chars)
    }
}

impl TokenEstimator for CharsPerToken {
    fn estimate(&self, text: &str) -> usize {
        text.chars().count().div_ceil(self.chars)
    }
}

/// The default estimate: text cut into the pieces a byte-pair tokenizer makes, words encoded
/// with cl100k's merges of letters, and every count weighed by a fitted cost.
///
/// Tokenizers such as OpenAI's cl100k and o200k first cut text into pieces (a word with the
/// one space, `_` or `-` before it, digit groups, punctuation runs, line breaks) and then
/// encode each piece with one token or a few. This estimate makes the same cuts (also where a
/// lower-case letter meets a capital: `getDashboardProperty` is three words) and encodes each
/// word with the byte-pair merges of the cl100k tokens made of letters (64,034 of them, built
/// in), so `datadog` costs its three tokens and `description` its one. Everything else it
/// counts by kind ([`PieceEstimate::FEATURES`]): all-caps words and their capitals, digit
/// groups, punctuation runs and characters, spaces that start no word, line breaks, CJK
/// characters, characters outside the Basic Multilingual Plane (emoji) and other non-ASCII
/// characters.
///
/// Each count has a weight in thousandths of a token. The default weights were fitted by
/// non-negative least squares to cl100k's count of every distinct line of the tuning
/// catalogs' listings, then raised by 11%: a Claude-like tokenizer counts this text about 10%
/// denser than cl100k, and o200k up to 10% denser on some catalogs; `docs/listing.md` has the
/// calibration and the error to expect per tokenizer. A host with another tokenizer can fit its own weights the same way
/// ([`PieceEstimate::with_weights`], and the `calibrate` example of this crate).
///
/// The estimate is deterministic (integer arithmetic), takes one pass over the text, and is
/// additive over lines: the estimate of a text is the sum of its lines' weighted counts,
/// rounded up once to whole tokens. The table of merges is built on first use (about 15 ms on
/// a loaded 2-core machine), and each thread keeps the counts of the words it has encoded (in
/// at most 640 KiB), so a word seen before costs one look-up.
///
/// ```
/// use toolsift_listing::{CharsPerToken, PieceEstimate, TokenEstimator};
///
/// let line = "- mcp__datadog__list_incidents\n";
/// // `-`, ` m` `cp`, `__`, `dat` `ad` `og`, `__`, `list`, `_inc` `idents`: identifiers cost
/// // more than a quarter of their characters.
/// assert_eq!(PieceEstimate::counts(line)[0], 8);
/// assert!(PieceEstimate::default().estimate(line) > CharsPerToken::default().estimate(line));
/// assert_eq!(PieceEstimate::default().estimate(""), 0);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PieceEstimate {
    weights: [u32; PieceEstimate::COUNTS],
}

/// The default weights, in thousandths of a token per count, in the order of
/// [`PieceEstimate::FEATURES`]: fitted to cl100k, times 1.11.
const WEIGHTS: [u32; PieceEstimate::COUNTS] =
    [1091, 550, 241, 1062, 719, 476, 408, 686, 0, 990, 3347, 205];

impl PieceEstimate {
    /// The number of counts the estimate weighs.
    pub const COUNTS: usize = 12;

    /// What each count counts, in the order of [`PieceEstimate::counts`] and of the weights.
    pub const FEATURES: [&'static str; PieceEstimate::COUNTS] = [
        "word tokens (cl100k's byte-pair merges of each word with its space, `_` or `-`)",
        "all-caps words of two or more letters",
        "capitals of all-caps words",
        "digit groups (a run of digits in groups of three)",
        "punctuation runs, but for one character before a word",
        "punctuation characters, but for `_` and `-` before a word",
        "punctuation characters other than `_` and `-` before a word",
        "spaces before neither a word nor punctuation",
        "line breaks",
        "CJK characters (Han, kana, Hangul, full-width forms)",
        "characters outside the Basic Multilingual Plane (emoji)",
        "other non-ASCII characters",
    ];

    /// The default estimate, with the calibrated weights.
    pub fn new() -> Self {
        PieceEstimate { weights: WEIGHTS }
    }

    /// An estimate with other weights: thousandths of a token per count, in the order of
    /// [`PieceEstimate::FEATURES`].
    pub fn with_weights(weights: [u32; PieceEstimate::COUNTS]) -> Self {
        PieceEstimate { weights }
    }

    /// The weights, in thousandths of a token per count.
    pub fn weights(&self) -> [u32; PieceEstimate::COUNTS] {
        self.weights
    }

    /// The counts of `text`, in the order of [`PieceEstimate::FEATURES`]. The counts of a text
    /// ending in a line break followed by another text are the sums of their counts.
    pub fn counts(text: &str) -> [u32; PieceEstimate::COUNTS] {
        let mut counts = [0; PieceEstimate::COUNTS];
        scan(text, true, &mut counts);
        counts
    }

    /// The estimate of `text` in thousandths of a token, before rounding. Additive over lines
    /// and over a cut between a `:` and a space.
    pub(crate) fn units(&self, text: &str) -> u64 {
        let mut counts = [0; PieceEstimate::COUNTS];
        scan(text, true, &mut counts);
        self.weigh(&counts)
    }

    /// A lower bound of [`PieceEstimate::units`] that encodes no word (each costs one token at
    /// least), for a fraction of the time.
    pub(crate) fn units_lower(&self, text: &str) -> u64 {
        let mut counts = [0; PieceEstimate::COUNTS];
        scan(text, false, &mut counts);
        self.weigh(&counts)
    }

    /// Lower bounds of [`PieceEstimate::units`] of a tool's names-only line `- {shown}\n` and
    /// of the start of its full line, `- {shown}:`, from one quick pass over `shown`: each word
    /// costs what the cheapest word can (one token, or an all-caps word of two letters).
    pub(crate) fn name_lines_lower(&self, shown: &str) -> (u64, u64) {
        let bytes = shown.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return (self.units_lower("- \n"), self.units_lower("- :"));
        };
        if !shown.is_ascii() || matches!(class(last), Class::Space | Class::Break) {
            // Never in a model-facing name (whitespace is escaped, names are ASCII in
            // practice); counted the long way.
            return (
                self.units_lower(&format!("- {shown}\n")),
                self.units_lower(&format!("- {shown}:")),
            );
        }
        let w = |count: usize| u64::from(self.weights[count]);
        let word = w(WORD_TOKENS).min(w(CAPS_WORDS) + 2 * w(CAPS_LETTERS));
        // `-` is a punctuation run; the space joins what follows unless that is a digit.
        let mut units = w(PUNCT_RUNS) + w(PUNCT_CHARS);
        if !joins_space(Some(&first)) {
            units += w(SPACES);
        }
        for (kind, run) in runs(bytes) {
            let len = run.len() as u64;
            match kind {
                Class::Letter => {
                    // One word, and one more where a lower-case letter meets a capital.
                    let cuts = bytes[run]
                        .windows(2)
                        .filter(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase())
                        .count();
                    units += (1 + cuts as u64) * word;
                }
                Class::Digit => units += len.div_ceil(3) * w(DIGIT_GROUPS),
                Class::Punct if joins_word(bytes, &run) => {
                    if !matches!(bytes[run.start], b'_' | b'-') {
                        units += w(PUNCT_BEFORE_WORD);
                    }
                }
                Class::Punct => units += w(PUNCT_RUNS) + len * w(PUNCT_CHARS),
                // Spaces, line breaks and non-ASCII characters are ruled out above.
                Class::Space | Class::Break | Class::NonAscii => {}
            }
        }
        // `:` ends the last punctuation run, or is one.
        let colon = if class(last) == Class::Punct {
            w(PUNCT_CHARS)
        } else {
            w(PUNCT_RUNS) + w(PUNCT_CHARS)
        };
        (units + w(BREAKS), units + colon)
    }

    /// A lower bound of the units of any tool line `- {name}\n` or `- {name}: …\n` with a
    /// name of one character or more: the `-`, and the least any character can add (a name
    /// holds a word, a digit group, a punctuation run, a space or a non-ASCII character).
    pub(crate) fn min_tool_line(&self) -> u64 {
        let w = |count: usize| u64::from(self.weights[count]);
        let least = [
            w(WORD_TOKENS),
            w(CAPS_WORDS) + 2 * w(CAPS_LETTERS),
            w(DIGIT_GROUPS),
            w(PUNCT_RUNS) + w(PUNCT_CHARS),
            w(SPACES),
            w(CJK),
            w(ASTRAL),
            w(NON_ASCII),
        ]
        .into_iter()
        .min()
        .unwrap_or(0);
        w(PUNCT_RUNS) + w(PUNCT_CHARS) + least
    }

    fn weigh(&self, counts: &[u32; PieceEstimate::COUNTS]) -> u64 {
        counts.iter().zip(self.weights).map(|(&n, w)| u64::from(n) * u64::from(w)).sum()
    }
}

impl Default for PieceEstimate {
    fn default() -> Self {
        PieceEstimate::new()
    }
}

impl fmt::Debug for PieceEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PieceEstimate").field("weights", &self.weights).finish()
    }
}

impl TokenEstimator for PieceEstimate {
    fn estimate(&self, text: &str) -> usize {
        usize::try_from(self.units(text).div_ceil(1000)).unwrap_or(usize::MAX)
    }
}

// The counts, by index.
const WORD_TOKENS: usize = 0;
const CAPS_WORDS: usize = 1;
const CAPS_LETTERS: usize = 2;
const DIGIT_GROUPS: usize = 3;
const PUNCT_RUNS: usize = 4;
const PUNCT_CHARS: usize = 5;
const PUNCT_BEFORE_WORD: usize = 6;
const SPACES: usize = 7;
const BREAKS: usize = 8;
const CJK: usize = 9;
const ASTRAL: usize = 10;
const NON_ASCII: usize = 11;

/// What a byte is to the scan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Digit,
    Space,
    Break,
    Punct,
    NonAscii,
}

/// The class of every byte.
static CLASS: [Class; 256] = {
    let mut table = [Class::Punct; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            b' ' | b'\t' => Class::Space,
            b'\n' | b'\r' => Class::Break,
            0x80.. => Class::NonAscii,
            _ => Class::Punct,
        };
        b += 1;
    }
    table
};

fn class(b: u8) -> Class {
    CLASS[usize::from(b)]
}

/// Whether a space before this byte joins it (a letter, punctuation or a non-ASCII character).
fn joins_space(b: Option<&u8>) -> bool {
    b.is_some_and(|&b| matches!(class(b), Class::Letter | Class::Punct | Class::NonAscii))
}

/// How a scan counts words: one token each (a lower bound), or encoded.
trait Words {
    /// The tokens of `piece`: letters, perhaps after one space, `_` or `-`.
    fn tokens(&mut self, piece: &[u8]) -> usize;
}

/// One token a word.
struct One;

impl Words for One {
    fn tokens(&mut self, _: &[u8]) -> usize {
        1
    }
}

/// Adds the counts of `text` to `counts`. Every count is a sum over pieces that never span a
/// line break and look one byte ahead at most (and one or two behind, for a word's prefix),
/// so counts are additive over lines. With `encode` false, each word counts one token (a
/// lower bound: a word encodes to one token at least).
fn scan(text: &str, encode: bool, counts: &mut [u32; PieceEstimate::COUNTS]) {
    if encode {
        MEMO.with_borrow_mut(|memo| {
            let mut encoder = Encoder { ranks: ranks(), memo };
            scan_with(text, &mut encoder, counts);
        });
    } else {
        scan_with(text, &mut One, counts);
    }
}

fn scan_with(text: &str, words: &mut impl Words, counts: &mut [u32; PieceEstimate::COUNTS]) {
    let bytes = text.as_bytes();
    for (kind, run) in runs(bytes) {
        let (start, len) = (run.start, run.len());
        match kind {
            Class::Letter => {
                // The one space, `_` or `-` before a word is part of its piece, unless it
                // ends a longer punctuation run.
                let prefix = match start.checked_sub(1).map(|p| bytes[p]) {
                    Some(b' ') => 1,
                    Some(b'_' | b'-')
                        if !start
                            .checked_sub(2)
                            .is_some_and(|p| class(bytes[p]) == Class::Punct) =>
                    {
                        1
                    }
                    _ => 0,
                };
                letters(&bytes[start - prefix..run.end], prefix, words, counts);
            }
            Class::Digit => add(counts, DIGIT_GROUPS, len.div_ceil(3)),
            Class::Space => {
                if !joins_space(bytes.get(run.end)) {
                    add(counts, SPACES, 1);
                }
            }
            Class::Break => add(counts, BREAKS, 1),
            // Joined to the word after it: `_` and `-` are encoded with the word.
            Class::Punct if joins_word(bytes, &run) => {
                if !matches!(bytes[start], b'_' | b'-') {
                    add(counts, PUNCT_BEFORE_WORD, 1);
                }
            }
            Class::Punct => {
                add(counts, PUNCT_RUNS, 1);
                add(counts, PUNCT_CHARS, len);
            }
            Class::NonAscii => {
                let ch = text.get(start..).and_then(|s| s.chars().next()).unwrap_or(' ');
                let count = if is_cjk(ch) {
                    CJK
                } else if ch.len_utf8() == 4 {
                    ASTRAL
                } else {
                    NON_ASCII
                };
                add(counts, count, 1);
            }
        }
    }
}

/// The runs a scan counts, in order, each with its class: a run of ASCII letters, of digits
/// or of punctuation, one space, one line break or one non-ASCII character.
fn runs(bytes: &[u8]) -> Runs<'_> {
    Runs { bytes, at: 0 }
}

/// The iterator of [`runs`].
struct Runs<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Iterator for Runs<'_> {
    type Item = (Class, Range<usize>);

    #[inline]
    fn next(&mut self) -> Option<(Class, Range<usize>)> {
        let (bytes, start) = (self.bytes, self.at);
        let first = *bytes.get(start)?;
        let kind = class(first);
        let n = bytes.len();
        let mut i = start + 1;
        match kind {
            Class::Letter => {
                while i < n && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
            }
            Class::Digit => {
                while i < n && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            Class::Punct => {
                while i < n && class(bytes[i]) == Class::Punct {
                    i += 1;
                }
            }
            // A character's length, from its first byte.
            Class::NonAscii => i = (start + first.leading_ones().max(1) as usize).min(n),
            Class::Space | Class::Break => {}
        }
        self.at = i;
        Some((kind, start..i))
    }
}

/// Whether the punctuation `run` is a single character followed by a letter, which a
/// tokenizer joins to the word after it.
fn joins_word(bytes: &[u8], run: &Range<usize>) -> bool {
    run.len() == 1 && bytes.get(run.end).is_some_and(u8::is_ascii_alphabetic)
}

fn add(counts: &mut [u32; PieceEstimate::COUNTS], count: usize, n: usize) {
    counts[count] = counts[count].saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
}

/// Counts a run of ASCII letters (after `prefix` bytes of space, `_` or `-`): words cut where
/// a lower-case letter meets a capital, each encoded, but for all-caps words.
fn letters(
    run: &[u8],
    prefix: usize,
    words: &mut impl Words,
    counts: &mut [u32; PieceEstimate::COUNTS],
) {
    let mut start = 0;
    let mut word_start = prefix;
    let mut capitals = 0;
    let mut last_lower = false;
    for (i, &b) in run.iter().enumerate().skip(prefix) {
        let upper = b.is_ascii_uppercase();
        if upper && last_lower {
            word(&run[start..i], i - word_start, capitals, words, counts);
            (start, word_start, capitals) = (i, i, 0);
        }
        capitals += usize::from(upper);
        last_lower = !upper;
    }
    word(&run[start..], run.len() - word_start, capitals, words, counts);
}

/// Counts one word of `letters` letters, `capitals` of them capitals; `piece` is the word with
/// its prefix, if any.
fn word(
    piece: &[u8],
    letters: usize,
    capitals: usize,
    words: &mut impl Words,
    counts: &mut [u32; PieceEstimate::COUNTS],
) {
    if letters >= 2 && capitals == letters {
        add(counts, CAPS_WORDS, 1);
        add(counts, CAPS_LETTERS, letters);
    } else {
        let n = words.tokens(piece);
        add(counts, WORD_TOKENS, n);
    }
}

/// The cl100k tokens made of letters (with one space, `_` or `-` before them), in rank order:
/// derived from OpenAI's `cl100k_base` encoding (MIT licence, via `tiktoken-rs`), regenerated
/// by `cargo run -p toolsift-listing --example calibrate -- --write-words` and checked against
/// the encoding by the test suite.
pub(crate) const WORDS: &str = include_str!("estimate/cl100k-words.txt");

/// The ranks of [`WORDS`], by token (only looked up, so the table's order never shows).
type Ranks = FxHashMap<&'static [u8], u32>;

fn ranks() -> &'static Ranks {
    static RANKS: OnceLock<Ranks> = OnceLock::new();
    RANKS.get_or_init(|| {
        let mut ranks = Ranks::with_capacity_and_hasher(70_000, FxBuildHasher);
        for (rank, token) in WORDS.lines().enumerate() {
            ranks.insert(token.as_bytes(), u32::try_from(rank).unwrap_or(u32::MAX));
        }
        ranks
    })
}

/// The longest piece encoded by merges; a longer one is encoded in slices of this length.
const MAX_PIECE: usize = 48;

/// Words encoded with the ranks of [`WORDS`], through the thread's memo.
struct Encoder<'m> {
    ranks: &'static Ranks,
    memo: &'m mut Memo,
}

impl Words for Encoder<'_> {
    /// The number of tokens of `piece` under byte-pair merges with the ranks of [`WORDS`].
    fn tokens(&mut self, piece: &[u8]) -> usize {
        if piece.len() <= 1 {
            return 1;
        }
        let Some(key) = Key::of(piece) else {
            return encode(piece, self.ranks);
        };
        if let Some(n) = self.memo.get(&key) {
            return n;
        }
        let n = encode(piece, self.ranks);
        self.memo.put(key, n);
        n
    }
}

/// The number of tokens of `piece` under byte-pair merges with the ranks of [`WORDS`].
fn encode(piece: &[u8], ranks: &Ranks) -> usize {
    if ranks.contains_key(piece) {
        1
    } else {
        piece.chunks(MAX_PIECE).map(|chunk| merge(chunk, ranks)).sum()
    }
}

/// The longest piece the memo keeps.
const MEMO_BYTES: usize = 24;

/// Slots of the memo (a power of two): 16,384 of 32 bytes, 512 KiB per thread.
const MEMO_SLOTS: usize = 16_384;

/// A piece of at most [`MEMO_BYTES`] bytes, as words (zero-padded) and its length.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Key {
    words: [u64; 3],
    len: u64,
}

impl Key {
    fn of(piece: &[u8]) -> Option<Key> {
        if piece.len() > MEMO_BYTES {
            return None;
        }
        let mut words = [0u64; 3];
        for (word, chunk) in words.iter_mut().zip(piece.chunks(8)) {
            *word = match <[u8; 8]>::try_from(chunk) {
                Ok(full) => u64::from_le_bytes(full),
                Err(_) => chunk.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)),
            };
        }
        Some(Key { words, len: piece.len() as u64 })
    }

    fn slot(&self) -> usize {
        let mut h = FxHasher::default();
        h.write_u64(self.len);
        for w in self.words {
            h.write_u64(w);
        }
        h.finish() as usize & (MEMO_SLOTS - 1)
    }
}

/// The counts of recently encoded pieces, per thread: a direct-mapped cache, so a word seen
/// before costs one hash and one comparison instead of table look-ups and merges. It holds
/// only what encoding gives, so results never depend on it.
struct Memo {
    slots: Vec<(Key, u8)>,
}

impl Memo {
    fn get(&self, key: &Key) -> Option<usize> {
        let (k, n) = self.slots.get(key.slot())?;
        (k == key).then_some(usize::from(*n))
    }

    fn put(&mut self, key: Key, n: usize) {
        if self.slots.is_empty() {
            self.slots = vec![(Key::default(), 0); MEMO_SLOTS];
        }
        if let (Some(slot), Ok(n)) = (self.slots.get_mut(key.slot()), u8::try_from(n)) {
            *slot = (key, n);
        }
    }
}

thread_local! {
    static MEMO: std::cell::RefCell<Memo> =
        const { std::cell::RefCell::new(Memo { slots: Vec::new() }) };
}

/// Byte-pair merging: repeatedly joins the adjacent pair whose union has the lowest rank.
fn merge(piece: &[u8], ranks: &Ranks) -> usize {
    let n = piece.len();
    if n <= 1 {
        return n;
    }
    // `starts[k]` is where part `k` starts (`starts[parts]` is `n`); `pair[k]` is the rank of
    // parts `k` and `k + 1` joined.
    let mut starts = [0usize; MAX_PIECE + 1];
    let mut pair = [u32::MAX; MAX_PIECE];
    let rank = |from: usize, to: usize| {
        piece.get(from..to).and_then(|s| ranks.get(s)).copied().unwrap_or(u32::MAX)
    };
    for (k, s) in starts.iter_mut().enumerate().take(n + 1) {
        *s = k;
    }
    for (k, p) in pair.iter_mut().enumerate().take(n - 1) {
        *p = rank(k, k + 2);
    }
    let mut parts = n;
    while parts > 1 {
        let Some((k, &best)) =
            pair.get(..parts - 1).unwrap_or_default().iter().enumerate().min_by_key(|&(_, r)| *r)
        else {
            break;
        };
        if best == u32::MAX {
            break;
        }
        // Join parts k and k + 1.
        starts.copy_within(k + 2..=parts, k + 1);
        pair.copy_within(k + 1..parts - 1, k);
        parts -= 1;
        let at = |j: usize| starts.get(j).copied().unwrap_or(n);
        if k + 1 < parts
            && let Some(p) = pair.get_mut(k)
        {
            *p = rank(at(k), at(k + 2));
        }
        if let Some(p) = k.checked_sub(1).and_then(|j| pair.get_mut(j)) {
            *p = rank(at(k - 1), at(k + 1));
        }
    }
    parts
}

/// Han, kana, Hangul and the CJK punctuation and full-width forms.
fn is_cjk(ch: char) -> bool {
    matches!(ch as u32,
        0x2E80..=0x2FDF | 0x3000..=0x30FF | 0x3100..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::PieceEstimate;

    proptest! {
        /// The quick bounds of a tool's lines are bounds of the lines.
        #[test]
        fn name_line_bounds_bound_the_lines(shown in "[a-zA-Z0-9_%:. é日🛡-]{0,30}") {
            let p = PieceEstimate::default();
            let (bare, described) = p.name_lines_lower(&shown);
            let (line, head) = (format!("- {shown}\n"), format!("- {shown}:"));
            prop_assert!(bare <= p.units(&line));
            prop_assert!(described <= p.units(&head));
        }

        /// The lower bound is one.
        #[test]
        fn the_lower_bound_is_lower(text in "[ -~é日🛡\n]{0,60}") {
            let p = PieceEstimate::default();
            prop_assert!(p.units_lower(&text) <= p.units(&text));
        }
    }
}
