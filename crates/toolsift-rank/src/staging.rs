//! Analysis of a batch of documents into staged postings: each document's fields are
//! analyzed, their terms interned and their origin-weighted frequencies summed, before
//! [`Index`](crate::Index) lays the postings out with the rest. Large batches are analyzed
//! through two memos that live for the batch (repeated lines, repeated chunks).

use crate::config::origin_slot;
use crate::document::Document;
use crate::postings::encode;
use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::vocab::{Vocab, str_hash};
use toolsift_text::Analyzer;

/// Postings of documents being added, before they join the flat arrays.
#[derive(Default)]
pub(crate) struct Staged {
    pub(crate) term: Vec<u32>,
    pub(crate) doc: Vec<u32>,
    /// `nfields` frequencies per posting, unless `code` holds them.
    pub(crate) tf: Vec<f32>,
    /// The frequencies already packed, one code per posting (spilled ones into `extra`), or
    /// empty when `tf` holds them.
    pub(crate) code: Vec<u32>,
    /// The spilled frequencies of `code`.
    pub(crate) extra: Vec<u32>,
}

/// Per-document term accumulation during analysis, reused across documents.
#[derive(Default)]
struct Staging {
    /// Per term id: the document stamp it was last seen in and its local slot.
    slot_of: Vec<(u32, u32)>,
    stamp: u32,
    /// Term ids of the current document, in order of first occurrence.
    local_terms: Vec<u32>,
    /// `nfields` tf values per local term.
    local_tf: Vec<f32>,
}

impl Staging {
    /// Adds weight `w` to the frequency of term `t` in field `f` of the current document.
    #[inline]
    fn add(&mut self, t: u32, w: f32, f: usize, nf: usize) {
        let ti = t as usize;
        if self.slot_of.len() <= ti {
            self.slot_of.resize(ti + 1, (0, 0));
        }
        let slot = if self.slot_of[ti].0 == self.stamp {
            self.slot_of[ti].1 as usize
        } else {
            let s = self.local_terms.len();
            self.slot_of[ti] = (self.stamp, s as u32);
            self.local_terms.push(t);
            self.local_tf.resize(self.local_tf.len() + nf, 0.0);
            s
        };
        self.local_tf[slot * nf + f] += w;
    }
}

/// How a batch's documents are analyzed and staged: the same for every part of it.
pub(crate) struct Job<'a> {
    pub(crate) analyzer: &'a Analyzer,
    /// The index's weight per token origin.
    pub(crate) weights: [f32; 3],
    /// The number of fields.
    pub(crate) nf: usize,
    /// Whether to analyze through [`TextMemo`]s (large batches).
    pub(crate) memoize: bool,
}

/// Where analyzed words get their term ids: the index's vocabulary, or a part's new words
/// (in [`parts`]).
pub(crate) trait Terms {
    /// The term id of `word` (with `stem`), interned if new; `None` past capacity.
    fn id(&mut self, word: &str, stem: &str) -> Option<u32>;
}

impl Terms for Vocab {
    #[inline]
    fn id(&mut self, word: &str, stem: &str) -> Option<u32> {
        self.intern(word, stem)
    }
}

impl Staged {
    /// Empty staging arrays sized for `bytes` of text (tool text has about one posting every
    /// 12 to 16 bytes), so that they are seldom copied as they grow.
    pub(crate) fn for_bytes(bytes: usize) -> Staged {
        let guess = bytes / 12;
        Staged {
            term: Vec::with_capacity(guess),
            doc: Vec::with_capacity(guess),
            code: Vec::with_capacity(guess),
            ..Staged::default()
        }
    }
}

impl Job<'_> {
    /// Analyzes `docs`, whose field indices are `fields` (flattened, as [`Index::check`](crate::Index::check) gives
    /// them) and whose ordinals start at `first`: their field lengths go to `lens` (`nf` per
    /// document) and their postings to `staged`, in document order.
    pub(crate) fn run<T: Terms>(
        &self,
        terms: &mut T,
        docs: &[Document<'_>],
        fields: &[usize],
        first: u32,
        lens: &mut [f32],
        staged: &mut Staged,
    ) {
        let (nf, weights) = (self.nf, self.weights);
        let mut st = Staging::default();
        // Sized for what the 70 copied catalogs need per tool: about 7 distinct lines of 50
        // tokens together, 8 distinct chunks of 17.
        let n = docs.len();
        let (mut lines, mut chunks) = if self.memoize {
            (
                TextMemo::with_capacity(n.saturating_mul(8), n.saturating_mul(56)),
                TextMemo::with_capacity(n.saturating_mul(10), n.saturating_mul(24)),
            )
        } else {
            (TextMemo::default(), TextMemo::default())
        };
        let mut fields = fields;
        let mut doc_lens = lens.chunks_exact_mut(nf.max(1));
        for (i, doc) in docs.iter().enumerate() {
            let (doc_fields, rest) = fields.split_at(doc.fields.len().min(fields.len()));
            fields = rest;
            let Some(lens) = doc_lens.next() else { return };
            let ord = first + i as u32;
            st.stamp = st.stamp.wrapping_add(1);
            if st.stamp == 0 {
                st.slot_of.iter_mut().for_each(|s| s.0 = 0);
                st.stamp = 1;
            }
            st.local_terms.clear();
            st.local_tf.clear();
            for ((_, text), &f) in doc.fields.iter().zip(doc_fields) {
                let text: &str = text;
                if !self.memoize {
                    self.analyzer.for_each_token(text, |tok| {
                        let w = weights[origin_slot(tok.origin)];
                        if w <= 0.0 {
                            return;
                        }
                        if let Some(t) = terms.id(tok.word, tok.stem) {
                            st.add(t, w, f, nf);
                            lens[f] += w;
                        }
                    });
                    continue;
                }
                // A chunk's tokens never depend on the text around it and no chunk spans a
                // line break, so a text's tokens are its lines' tokens in order.
                for_each_line(text, |line, hash| {
                    if let Some(tokens) = lines.get(hash, line) {
                        for &(t, w) in tokens {
                            st.add(t, w, f, nf);
                            lens[f] += w;
                        }
                        return;
                    }
                    let mut line_rec = lines.start();
                    for_each_chunk(line, |chunk| {
                        let hash = str_hash(chunk.as_bytes());
                        if let Some(tokens) = chunks.get(hash, chunk) {
                            for &(t, w) in tokens {
                                st.add(t, w, f, nf);
                                lens[f] += w;
                                lines.record(&mut line_rec, t, w);
                            }
                            return;
                        }
                        let mut rec = chunks.start();
                        self.analyzer.for_each_token(chunk, |tok| {
                            let w = weights[origin_slot(tok.origin)];
                            if w <= 0.0 {
                                return;
                            }
                            let Some(t) = terms.id(tok.word, tok.stem) else {
                                rec.ok = false;
                                line_rec.ok = false;
                                return;
                            };
                            st.add(t, w, f, nf);
                            lens[f] += w;
                            chunks.record(&mut rec, t, w);
                            lines.record(&mut line_rec, t, w);
                        });
                        chunks.finish(rec, hash, chunk);
                    });
                    lines.finish(line_rec, hash, line);
                });
            }
            staged.term.extend_from_slice(&st.local_terms);
            staged.doc.extend(std::iter::repeat_n(ord, st.local_terms.len()));
            for row in st.local_tf.chunks_exact(nf.max(1)) {
                staged.code.push(encode(row, &mut staged.extra));
            }
        }
    }
}

/// Batches of fewer documents are analyzed without [`TextMemo`]s.
pub(crate) const MEMO_MIN_DOCS: usize = 256;

/// At most this many texts in a [`TextMemo`].
const MAX_TEXTS: usize = 1 << 16;

/// At most this many tokens in a [`TextMemo`] (8 bytes each).
const MAX_TEXT_TOKENS: usize = 1 << 18;

/// The indexed tokens of the texts (lines, or chunks of lines) already analyzed in one batch
/// of documents, so that a text seen before is replayed as (term id, weight) pairs instead of
/// being analyzed and interned again. Tool catalogs repeat whole lines (parameter
/// descriptions, enum lists, server names) and, far more, chunks (parameter names, common
/// words): [`Index::insert`](crate::Index::insert) keeps one memo of lines and one of chunks.
///
/// The pairs are those the index makes of the text's tokens in order (tokens of weight zero
/// left out), so a replay adds exactly what analysis would, in the same order. Texts are
/// borrowed from the batch and a memo lives for one [`Job::run`] (a batch, or one part of a
/// batch analyzed in parts), so its term ids are the ones that run gives (this index's, or a
/// part's provisional ones). It is bounded ([`MAX_TEXTS`] texts of 32 bytes,
/// [`MAX_TEXT_TOKENS`] pairs of 8 bytes and a table of 4 bytes per slot: at most 4.5 MiB,
/// freed when the batch is indexed; a build of the 70 copied catalogs reserves about 5.5 MiB
/// for both memos, split between the parts' threads when it is analyzed in parts). Once full it is
/// emptied and fills again with what follows: texts repeat mostly near each other (one
/// server's tools), and a memo that stopped recording would make the per-document cost of a
/// very large batch grow. Only batches of [`MEMO_MIN_DOCS`] documents or more use memos. It is
/// only probed, never iterated.
#[derive(Default)]
struct TextMemo<'d> {
    /// Open-addressing table of entry index plus one (`0` is empty); a power of two at least
    /// twice the number of entries, or empty.
    slots: Vec<u32>,
    entries: Vec<TextEntry<'d>>,
    /// The (term id, weight) pairs of all entries, each entry's contiguous.
    tokens: Vec<(u32, f32)>,
}

/// One memoized text.
struct TextEntry<'d> {
    hash: u64,
    text: &'d str,
    /// The text's pairs: `tokens[start..end]`.
    start: u32,
    end: u32,
}

/// A text being analyzed after a miss.
struct TextRecording {
    /// Length of [`TextMemo::tokens`] before the text.
    start: usize,
    /// Whether the text's pairs are all recorded.
    ok: bool,
}

/// Calls `f` with every run of `text` between ASCII whitespace bytes (space, tab, line feed,
/// form feed, carriage return), in order.
///
/// The analyzer splits chunks at all of these (and at other whitespace), so a run's tokens are
/// the tokens of the analyzer's chunks in it, and a text's tokens are its runs' tokens in
/// order. Scans 8 bytes at a time.
#[inline]
fn for_each_chunk<'t>(text: &'t str, mut f: impl FnMut(&'t str)) {
    const ONES: u64 = 0x2121_2121_2121_2121;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut at = 0;
    loop {
        while at < n && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at >= n {
            return;
        }
        let start = at;
        // The end: the first whitespace byte. A word's first byte below 0x21 is marked
        // exactly (a borrow only marks bytes after a marked one); control bytes other than
        // whitespace belong to the run.
        'scan: while at < n {
            if at + 8 <= n {
                let mut buf = [0u8; 8];
                buf.copy_from_slice(&bytes[at..at + 8]);
                let w = u64::from_le_bytes(buf);
                let low = w.wrapping_sub(ONES) & !w & HIGH;
                if low == 0 {
                    at += 8;
                    continue;
                }
                at += (low.trailing_zeros() / 8) as usize;
                if bytes[at].is_ascii_whitespace() {
                    break 'scan;
                }
                at += 1;
                continue;
            }
            if bytes[at].is_ascii_whitespace() {
                break;
            }
            at += 1;
        }
        // Cut at ASCII bytes only, so both ends are character boundaries.
        if let Some(chunk) = text.get(start..at) {
            f(chunk);
        }
    }
}

/// Calls `f(line, line_hash(line))` for every line of `text` (its pieces between `\n` bytes,
/// as `text.split('\n')` gives them, a last empty one included), in order.
///
/// Finding a line's end and hashing it are one pass over 8 bytes at a time: each 8 bytes
/// without a line feed are one step of the hash, and the 8 bytes with one hold the line's
/// last bytes, the remainder of the hash. (A `split` finds each end with a `memchr` call,
/// which costs more than that on lines this short, and the hash would read the line again.)
#[inline]
fn for_each_line<'t>(text: &'t str, mut f: impl FnMut(&'t str, u64)) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const FEEDS: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let bytes = text.as_bytes();
    let mut start = 0;
    loop {
        let mut h = FxHasher::default();
        let mut at = start;
        // The end of the line and the hash of its last bytes.
        let (end, rest) = loop {
            if let Some(&word) = bytes.get(at..).and_then(|b| b.first_chunk::<8>()) {
                let w = u64::from_le_bytes(word);
                // The first line feed is marked exactly (a borrow only marks bytes after a
                // marked one).
                let x = w ^ FEEDS;
                let feeds = x.wrapping_sub(ONES) & !x & HIGH;
                if feeds == 0 {
                    h.write_u64(w);
                    at += 8;
                    continue;
                }
                let j = (feeds.trailing_zeros() / 8) as usize;
                let rest = if j == 0 { 0 } else { w & (u64::MAX >> (64 - 8 * j)) };
                break (at + j, rest);
            }
            let tail = bytes.get(at..).unwrap_or_default();
            let j = tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len());
            break (at + j, tail_le(tail.get(..j).unwrap_or_default()));
        };
        // Line feeds are ASCII, so both ends are character boundaries.
        let line = text.get(start..end).unwrap_or_default();
        h.write_u64(rest);
        h.write_usize(end - start);
        f(line, h.finish());
        if end >= bytes.len() {
            return;
        }
        start = end + 1;
    }
}

/// The hash [`for_each_line`] gives `line`: rustc-hash's `FxHasher` over its bytes as
/// little-endian 8-byte numbers, the last (of fewer than 8 bytes, perhaps none) zero-padded,
/// then its length.
#[cfg(test)]
fn line_hash(line: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    let mut chunks = line.chunks_exact(8);
    for c in &mut chunks {
        h.write_u64(u64::from_le_bytes(c.try_into().unwrap_or_default()));
    }
    let mut last = [0; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h.write_u64(u64::from_le_bytes(last));
    h.write_usize(line.len());
    h.finish()
}

/// The bytes of `tail` (fewer than 8) as a little-endian number, zero-padded: two fixed-size
/// loads that may overlap (a copy of a variable length would call `memcpy`, and a loop over
/// the bytes costs a few instructions each). Equal to folding the bytes in one at a time.
#[inline]
fn tail_le(tail: &[u8]) -> u64 {
    let n = tail.len();
    if n >= 4 {
        // Bytes `0..4` and `n - 4..n`; the overlap holds the same bytes in both.
        let lo = tail.first_chunk::<4>().map_or(0, |b| u32::from_le_bytes(*b));
        let hi = tail.last_chunk::<4>().map_or(0, |b| u32::from_le_bytes(*b));
        u64::from(lo) | (u64::from(hi) << (8 * (n - 4)))
    } else if n >= 2 {
        let lo = tail.first_chunk::<2>().map_or(0, |b| u16::from_le_bytes(*b));
        let hi = tail.last_chunk::<2>().map_or(0, |b| u16::from_le_bytes(*b));
        u64::from(lo) | (u64::from(hi) << (8 * (n - 2)))
    } else {
        tail.first().map_or(0, |&b| u64::from(b))
    }
}

impl<'d> TextMemo<'d> {
    /// A memo with room for `texts` texts and `tokens` pairs (within the bounds), so that it
    /// is seldom copied as it grows.
    fn with_capacity(texts: usize, tokens: usize) -> Self {
        let texts = texts.min(MAX_TEXTS);
        TextMemo {
            slots: vec![0; (2 * texts).next_power_of_two()],
            entries: Vec::with_capacity(texts),
            tokens: Vec::with_capacity(tokens.min(MAX_TEXT_TOKENS)),
        }
    }

    /// The pairs of `text` (with `hash`), if it was recorded.
    #[inline]
    fn get(&self, hash: u64, text: &str) -> Option<&[(u32, f32)]> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let e = self.slots[i];
            if e == 0 {
                return None;
            }
            let entry = &self.entries[e as usize - 1];
            if entry.hash == hash && entry.text == text {
                return self.tokens.get(entry.start as usize..entry.end as usize);
            }
            i = (i + 1) & mask;
        }
    }

    /// Starts recording a text that [`TextMemo::get`] did not find, emptying the memo first
    /// if it is full.
    #[inline]
    fn start(&mut self) -> TextRecording {
        if self.entries.len() >= MAX_TEXTS || self.tokens.len() >= MAX_TEXT_TOKENS {
            self.slots.iter_mut().for_each(|e| *e = 0);
            self.entries.clear();
            self.tokens.clear();
        }
        TextRecording { start: self.tokens.len(), ok: true }
    }

    /// Records the next pair of the text being recorded.
    #[inline]
    fn record(&mut self, rec: &mut TextRecording, t: u32, w: f32) {
        if rec.ok {
            if self.tokens.len() < MAX_TEXT_TOKENS {
                self.tokens.push((t, w));
            } else {
                rec.ok = false;
            }
        }
    }

    /// Keeps the recorded text if every pair was recorded, else drops its pairs.
    fn finish(&mut self, rec: TextRecording, hash: u64, text: &'d str) {
        if !rec.ok {
            self.tokens.truncate(rec.start);
            return;
        }
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            let len = (self.slots.len() * 2).max(1 << 10);
            self.slots = vec![0; len];
            for n in 0..self.entries.len() {
                self.place(self.entries[n].hash, n as u32 + 1);
            }
        }
        self.entries.push(TextEntry {
            hash,
            text,
            start: rec.start as u32,
            end: self.tokens.len() as u32,
        });
        self.place(hash, self.entries.len() as u32);
    }

    /// Puts entry number `entry` (index plus one) with `hash` into the table.
    fn place(&mut self, hash: u64, entry: u32) {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = entry;
    }
}

#[cfg(test)]
mod line_tests {
    use super::{for_each_line, line_hash, tail_le};

    #[test]
    fn lines_and_hashes_are_those_of_split_and_line_hash() {
        let texts = [
            "",
            "\n",
            "\n\n",
            "a",
            "abcdefgh",
            "abcdefghi\n",
            "short\nlines\n\nand a much longer line of text, é and 搜索\nend",
            "12345678\n12345678\n1234567\n123456789abcdefg\nx",
            "\nleading feed and trailing\n",
        ];
        for text in texts {
            let want: Vec<(&str, u64)> =
                text.split('\n').map(|l| (l, line_hash(l.as_bytes()))).collect();
            let mut got = Vec::new();
            for_each_line(text, |l, h| got.push((l, h)));
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn tail_le_equals_folding_the_bytes_in() {
        let bytes = [0x01u8, 0x82, 0x03, 0xf4, 0x05, 0x96, 0x07, 0xa8];
        for n in 0..8 {
            let tail = &bytes[..n];
            let folded = tail.iter().rev().fold(0u64, |w, &b| (w << 8) | u64::from(b));
            assert_eq!(tail_le(tail), folded, "{n} bytes");
        }
    }
}
