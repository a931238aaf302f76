//! [`Index`]: the inverted BM25F index and its updates (add, remove, replace a group).

use crate::cache::SearchCache;
use crate::config::{Config, DEFAULT_SEARCH_CACHE_BUDGET, IndexBuilder, origin_slot};
use crate::document::{DocId, Document};
use crate::error::{Error, ErrorKind};
use crate::expand::Expander;
use crate::keys::KeyTable;
use crate::parts;
use crate::postings::{OldRuns, Postings, encode, shift_code};
use crate::vocab::{Vocab, fx_finish, fx_hash, fx_step, tail_le};
use std::collections::BTreeMap;
use std::sync::Arc;
use toolsift_text::Analyzer;

/// Marks a document without a group.
pub(crate) const NO_GROUP: u32 = u32::MAX;

/// An inverted BM25F index over documents with weighted fields; see the [crate docs](crate).
///
/// Documents are kept in insertion order under dense ordinals; [`DocId`]s are stable handles.
/// Search takes `&self` and the index is `Send + Sync`. Every update (add, remove, replace a
/// group) ends with linear passes over all postings that lay them out again, so batch
/// documents into one call; the pseudo-frequencies, which the new statistics change, are
/// worked out for each slot when a search first reads it.
#[derive(Debug, Clone)]
pub struct Index {
    pub(crate) config: Config,
    pub(crate) analyzer: Analyzer,
    pub(crate) expander: Option<Arc<dyn Expander>>,
    pub(crate) vocab: Vocab,
    pub(crate) post: Postings,
    /// Live document ids by ordinal, strictly ascending.
    pub(crate) ids: Vec<u32>,
    /// Origin-weighted field lengths, `nfields` per ordinal.
    pub(crate) lens: Vec<f32>,
    /// Average field lengths over the live documents.
    pub(crate) avg: Vec<f32>,
    /// Tie-break key per ordinal.
    pub(crate) orders: Vec<u64>,
    /// Group id per ordinal, or [`NO_GROUP`].
    pub(crate) doc_groups: Vec<u32>,
    /// Group id → name.
    pub(crate) group_names: Vec<Box<str>>,
    /// Group name → id.
    pub(crate) group_ids: BTreeMap<Box<str>, u32>,
    /// Live documents per group id.
    pub(crate) group_counts: Vec<u32>,
    /// Per group id, the ordinals `start..end` that hold all its documents (a group added in
    /// one batch holds a run of them), `(u32::MAX, 0)` for an empty group: postings of other
    /// ordinals need no look at their group. Worked out again by every update.
    pub(crate) group_spans: Vec<(u32, u32)>,
    pub(crate) keys: KeyTable,
    /// The id the next added document gets.
    pub(crate) next_id: u32,
    /// What searches worked out from the index; emptied by every update.
    pub(crate) cache: SearchCache,
}

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
    analyzer: &'a Analyzer,
    /// The index's weight per token origin.
    weights: [f32; 3],
    /// The number of fields.
    pub(crate) nf: usize,
    /// Whether to analyze through [`TextMemo`]s (large batches).
    memoize: bool,
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
    /// Analyzes `docs`, whose field indices are `fields` (flattened, as [`Index::check`] gives
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
                        let hash = fx_hash(chunk.as_bytes());
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
const MEMO_MIN_DOCS: usize = 256;

/// At most this many texts in a [`TextMemo`].
const MAX_TEXTS: usize = 1 << 16;

/// At most this many tokens in a [`TextMemo`] (8 bytes each).
const MAX_TEXT_TOKENS: usize = 1 << 18;

/// The indexed tokens of the texts (lines, or chunks of lines) already analyzed in one batch
/// of documents, so that a text seen before is replayed as (term id, weight) pairs instead of
/// being analyzed and interned again. Tool catalogs repeat whole lines (parameter
/// descriptions, enum lists, server names) and, far more, chunks (parameter names, common
/// words): [`Index::insert`] keeps one memo of lines and one of chunks.
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

/// Calls `f(line, fx_hash(line))` for every line of `text` (its pieces between `\n` bytes,
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
        let mut h = 0u64;
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
                    h = fx_step(h, w);
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
        f(line, fx_finish(h, rest, end - start));
        if end >= bytes.len() {
            return;
        }
        start = end + 1;
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

/// `w / (1 − b + b · len / avg)`: the factor that turns a field's tf into its share of the
/// pseudo-frequency. The one place this is computed, for indexing and [`Index::explain`] alike.
#[inline]
pub(crate) fn field_norm(b: f32, len: f32, avg: f32) -> f32 {
    if avg > 0.0 { 1.0 - b + b * len / avg } else { 1.0 }
}

/// Takes the documents of dropped postings, (slot, document) pairs in slot order, out of
/// their stems' document frequencies; `docs` bounds the documents. Only these documents
/// change the counts, which stay exact: the same as counting every stem afresh.
///
/// A stem's slots are contiguous, so its dropped postings are one run; `seen` holds, per
/// document, the last run that counted it.
fn drop_stem_df(vocab: &mut Vocab, dropped: &[(u32, u32)], docs: usize) {
    if dropped.is_empty() {
        return;
    }
    let stem_of = |slot: u32| {
        vocab.slot_term.get(slot as usize).and_then(|&t| vocab.term_stem.get(t as usize)).copied()
    };
    let mut seen = vec![u32::MAX; docs];
    let mut counts = Vec::new();
    for (run, postings) in dropped.chunk_by(|a, b| stem_of(a.0) == stem_of(b.0)).enumerate() {
        let Some(stem) = postings.first().and_then(|&(slot, _)| stem_of(slot)) else { continue };
        let mut count = 0u32;
        for &(_, d) in postings {
            if let Some(last) = seen.get_mut(d as usize)
                && *last != run as u32
            {
                *last = run as u32;
                count += 1;
            }
        }
        counts.push((stem, count));
    }
    for (stem, count) in counts {
        if let Some(entry) = vocab.stem.get_mut(stem as usize) {
            entry.df = entry.df.saturating_sub(count);
        }
    }
}

/// Adds the documents of the staged postings to their stems' document frequencies, given
/// `post` laid out with them (each slot's staged postings last) and `bucket`, where the
/// staged postings of slot `s` are `bucket[s]..bucket[s + 1]`; `docs` bounds the documents.
/// Only these documents change the counts, which stay exact: the same as counting every stem
/// afresh.
///
/// A slot's postings are of distinct documents, so a stem of one slot counts them all; a
/// stem of several counts each document once, `seen` holding per document the last stem (by
/// rank) that counted it.
#[inline(never)]
fn add_stem_df(vocab: &mut Vocab, post: &Postings, bucket: &[u32], docs: usize) {
    if bucket.last().is_none_or(|&b| b == 0) {
        return;
    }
    let staged = |slot: usize| match (bucket.get(slot), bucket.get(slot + 1)) {
        (Some(&a), Some(&b)) => b.saturating_sub(a),
        _ => 0,
    };
    let mut seen: Vec<u32> = Vec::new();
    for (rank, w) in vocab.rank_slot.windows(2).enumerate() {
        // The stem's staged postings.
        let count = match (bucket.get(w[0] as usize), bucket.get(w[1] as usize)) {
            (Some(&a), Some(&b)) => b.saturating_sub(a),
            _ => 0,
        };
        if count == 0 {
            continue;
        }
        let count = if w[1] - w[0] <= 1 {
            count
        } else {
            if seen.is_empty() {
                seen = vec![u32::MAX; docs];
            }
            let mut count = 0;
            for slot in w[0] as usize..w[1] as usize {
                let end = post.offsets.get(slot + 1).copied().unwrap_or(0);
                let start = end.saturating_sub(staged(slot) as usize);
                for &d in post.doc.get(start..end).unwrap_or_default() {
                    if let Some(last) = seen.get_mut(d as usize)
                        && *last != rank as u32
                    {
                        *last = rank as u32;
                        count += 1;
                    }
                }
            }
            count
        };
        if let Some(&s) = vocab.sorted_stems.get(rank)
            && let Some(entry) = vocab.stem.get_mut(s as usize)
        {
            entry.df = entry.df.saturating_add(count);
        }
    }
}

impl Index {
    /// A builder with the default configuration.
    pub fn builder() -> IndexBuilder {
        IndexBuilder::new()
    }

    pub(crate) fn empty(config: Config, analyzer: Analyzer) -> Index {
        let nfields = config.fields.len();
        let mut index = Index {
            config,
            analyzer,
            expander: None,
            vocab: Vocab::default(),
            post: Postings::default(),
            ids: Vec::new(),
            lens: Vec::new(),
            avg: vec![0.0; nfields],
            orders: Vec::new(),
            doc_groups: Vec::new(),
            group_names: Vec::new(),
            group_ids: BTreeMap::new(),
            group_counts: Vec::new(),
            group_spans: Vec::new(),
            keys: KeyTable::default(),
            next_id: 0,
            cache: SearchCache::default(),
        };
        let budget = index.budget_for_size();
        index.cache.reset(budget);
        index
    }

    /// The frozen configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The analyzer that indexed the documents and analyzes queries.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The query expander, if one was set with
    /// [`IndexBuilder::expander`](crate::IndexBuilder::expander).
    pub fn expander(&self) -> Option<&Arc<dyn Expander>> {
        self.expander.as_ref()
    }

    /// The tie-break key of `doc` (see [`Document::order`]), if it is in the index.
    pub fn order_of(&self, doc: DocId) -> Option<u64> {
        self.orders.get(self.ord(doc)?).copied()
    }

    /// The number of documents.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the index has no documents.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether `doc` is in the index.
    pub fn contains(&self, doc: DocId) -> bool {
        self.ord(doc).is_some()
    }

    /// All documents, in insertion order (ascending id).
    pub fn docs(&self) -> impl ExactSizeIterator<Item = DocId> + '_ {
        self.ids.iter().map(|&id| DocId(id))
    }

    /// The documents of `group`, in insertion order.
    pub fn group_docs<'s>(&'s self, group: &str) -> impl Iterator<Item = DocId> + 's {
        let gid = self.group_ids.get(group).copied().unwrap_or(NO_GROUP);
        self.ids
            .iter()
            .zip(&self.doc_groups)
            .filter(move |&(_, &g)| g == gid && gid != NO_GROUP)
            .map(|(&id, _)| DocId(id))
    }

    /// The names of the groups that have documents, sorted.
    pub fn groups(&self) -> impl Iterator<Item = &str> + '_ {
        self.group_ids
            .iter()
            .filter(|&(_, &g)| self.group_counts.get(g as usize).is_some_and(|&c| c > 0))
            .map(|(name, _)| &**name)
    }

    /// The group of `doc`, if it is in the index and has one.
    pub fn group_of(&self, doc: DocId) -> Option<&str> {
        let g = *self.doc_groups.get(self.ord(doc)?)?;
        self.group_names.get(g as usize).map(|s| &**s)
    }

    /// Index statistics: documents, vocabulary, postings and average field lengths.
    pub fn stats(&self) -> Stats {
        Stats {
            docs: self.ids.len(),
            terms: self.post.offsets.windows(2).filter(|w| w[1] > w[0]).count(),
            postings: self.post.doc.len(),
            avg_field_len: self.avg.clone(),
        }
    }

    /// The heap bytes the index holds (vocabulary, postings, per-document arrays, keys,
    /// groups; allocator overhead not included), not counting the analyzer, the expander,
    /// what searches keep: the per-thread search scratch (about 8 bytes per document and
    /// thread) and the search cache ([`Index::search_cache_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.vocab.heap_bytes()
            + self.post.heap_bytes()
            + self.ids.capacity() * 4
            + self.lens.capacity() * 4
            + self.orders.capacity() * 8
            + self.doc_groups.capacity() * 4
            + self.group_spans.capacity() * 8
            + self.keys.heap_bytes()
            + self.group_names.iter().map(|g| 2 * g.len() + 48).sum::<usize>()
    }

    /// The heap bytes of the search cache: the query words and merged lists searches have
    /// worked out since the last update, at most the
    /// [`search_cache_budget`](Index::search_cache_budget).
    pub fn search_cache_bytes(&self) -> usize {
        self.cache.bytes()
    }

    /// The most heap bytes the search cache may hold until the next update: the
    /// [configured budget](IndexBuilder::search_cache_budget), or by default the larger of
    /// [`DEFAULT_SEARCH_CACHE_BUDGET`] and [`heap_bytes`](Index::heap_bytes) as of the last
    /// update.
    ///
    /// ```
    /// use toolsift_rank::{DEFAULT_SEARCH_CACHE_BUDGET, Index};
    /// let small = Index::builder().build()?;
    /// assert_eq!(small.search_cache_budget(), DEFAULT_SEARCH_CACHE_BUDGET);
    /// let none = Index::builder().search_cache_budget(0).build()?;
    /// assert_eq!(none.search_cache_budget(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search_cache_budget(&self) -> usize {
        self.cache.budget()
    }

    pub(crate) fn ord(&self, doc: DocId) -> Option<usize> {
        self.ids.binary_search(&doc.0).ok()
    }

    /// Adds documents, returning their ids in the same order.
    ///
    /// The whole batch is checked before anything changes: on error the index is unchanged.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownField`] if a document names a field the index does not have;
    /// [`ErrorKind::Capacity`] if the ids would pass `u32::MAX`.
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "create issue"),
    ///     Document::new().field("name", "list issues"),
    /// ])?;
    /// assert_eq!(ids.len(), 2);
    /// assert!(ids[0] < ids[1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add<'a>(
        &mut self,
        docs: impl IntoIterator<Item = Document<'a>>,
    ) -> Result<Vec<DocId>, Error> {
        let docs: Vec<Document<'a>> = docs.into_iter().collect();
        let fields = self.check(&docs)?;
        let (ids, staged) = self.insert(&docs, &fields, None);
        self.rebuild(None, staged);
        Ok(ids)
    }

    /// Removes documents; ids not in the index are ignored. Returns how many were removed.
    pub fn remove(&mut self, docs: &[DocId]) -> usize {
        let (removed, count) = self.removal(docs);
        if count > 0 {
            let remap = self.delete(&removed);
            self.rebuild(Some(&remap), Staged::default());
        }
        count
    }

    /// Removes every document of `group`, returning how many were removed.
    pub fn remove_group(&mut self, group: &str) -> usize {
        let (count, remap) = self.delete_group(group);
        if count > 0 {
            self.rebuild(remap.as_deref(), Staged::default());
        }
        count
    }

    /// Replaces the documents of `group` with `docs` (which join `group` whatever their own
    /// group says), as after an MCP `tools/list_changed`; returns the new documents' ids.
    ///
    /// The new documents get new ids, after every existing one. The batch is checked first: on
    /// error the index is unchanged.
    ///
    /// # Errors
    ///
    /// As [`Index::add`].
    pub fn replace_group<'a>(
        &mut self,
        group: &str,
        docs: impl IntoIterator<Item = Document<'a>>,
    ) -> Result<Vec<DocId>, Error> {
        let docs: Vec<Document<'a>> = docs.into_iter().collect();
        let fields = self.check(&docs)?;
        let (_, remap) = self.delete_group(group);
        let (ids, staged) = self.insert(&docs, &fields, Some(group));
        self.rebuild(remap.as_deref(), staged);
        Ok(ids)
    }

    /// Removes the documents `remove` (ids not in the index are ignored) and adds `docs` to
    /// `group` (whatever their own group says), in one update: a replacement that keeps the
    /// documents that did not change. Returns the new documents' ids, after every existing one.
    ///
    /// The batch is checked first: on error the index is unchanged. With nothing to remove or
    /// add, nothing changes (the search cache included).
    ///
    /// # Errors
    ///
    /// As [`Index::add`].
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "create issue").group("gh"),
    ///     Document::new().field("name", "list issues").group("gh"),
    /// ])?;
    /// // The second tool changed; the first is kept as it is.
    /// let new = index.update_group("gh", &ids[1..], [Document::new().field("name", "list pulls")])?;
    /// assert_eq!(index.group_docs("gh").collect::<Vec<_>>(), [ids[0], new[0]]);
    /// assert_eq!(index.search("pulls", 5).hits()[0].doc(), new[0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update_group<'a>(
        &mut self,
        group: &str,
        remove: &[DocId],
        docs: impl IntoIterator<Item = Document<'a>>,
    ) -> Result<Vec<DocId>, Error> {
        let docs: Vec<Document<'a>> = docs.into_iter().collect();
        let fields = self.check(&docs)?;
        let (removed, count) = self.removal(remove);
        if count == 0 && docs.is_empty() {
            return Ok(Vec::new());
        }
        let remap = if count > 0 { Some(self.delete(&removed)) } else { None };
        let (ids, staged) = self.insert(&docs, &fields, Some(group));
        self.rebuild(remap.as_deref(), staged);
        Ok(ids)
    }

    /// Sets the tie-break [order](Document::order) key of document `doc`; returns whether the
    /// index has it. Scores and the search cache do not depend on it: a host whose documents
    /// moved (a tool's catalog position changed) sets it without indexing them again.
    pub fn set_order(&mut self, doc: DocId, order: u64) -> bool {
        match self.ord(doc).and_then(|o| self.orders.get_mut(o)) {
            Some(slot) => {
                *slot = order;
                true
            }
            None => false,
        }
    }

    /// Which ordinals `docs` name (ids not in the index are ignored), and how many.
    fn removal(&self, docs: &[DocId]) -> (Vec<bool>, usize) {
        let mut removed = vec![false; self.ids.len()];
        let mut count = 0;
        for &d in docs {
            if let Some(o) = self.ord(d)
                && !removed[o]
            {
                removed[o] = true;
                count += 1;
            }
        }
        (removed, count)
    }

    /// Deletes the documents of `group`: how many, and the ordinal remap if any.
    fn delete_group(&mut self, group: &str) -> (usize, Option<Vec<u32>>) {
        let Some(&gid) = self.group_ids.get(group) else { return (0, None) };
        let removed: Vec<bool> = self.doc_groups.iter().map(|&g| g == gid).collect();
        let count = removed.iter().filter(|&&r| r).count();
        if count == 0 {
            return (0, None);
        }
        (count, Some(self.delete(&removed)))
    }

    /// Resolves every document's field names to field indices, or fails without side effects.
    ///
    /// The indices of all documents' fields, in order, in one array (one allocation per batch,
    /// not per document): document after document, as many as it has fields.
    fn check(&self, docs: &[Document<'_>]) -> Result<Vec<usize>, Error> {
        let room = u32::MAX - self.next_id;
        if docs.len() > room as usize {
            return Err(Error::new(ErrorKind::Capacity));
        }
        let mut groups = self.group_names.len();
        let mut out = Vec::with_capacity(docs.iter().map(|d| d.fields.len()).sum());
        for doc in docs {
            for (name, _) in &doc.fields {
                match self.config.field_index(name) {
                    Some(i) => out.push(i),
                    None => return Err(Error::new(ErrorKind::UnknownField(name.to_string()))),
                }
            }
            if doc.group.is_some() {
                groups += 1;
            }
        }
        if groups >= NO_GROUP as usize {
            return Err(Error::new(ErrorKind::Capacity));
        }
        Ok(out)
    }

    fn group_id(&mut self, name: &str) -> u32 {
        if let Some(&g) = self.group_ids.get(name) {
            return g;
        }
        // `check` guarantees room below NO_GROUP.
        let g = u32::try_from(self.group_names.len()).unwrap_or(NO_GROUP - 1);
        self.group_names.push(name.into());
        self.group_counts.push(0);
        self.group_ids.insert(name.into(), g);
        g
    }

    /// Analyzes and appends checked documents; their postings are returned staged, for
    /// [`Index::rebuild`].
    ///
    /// A large batch is analyzed in parts on several threads ([`parts`]); what it stages is
    /// the same, bit for bit, as one thread stages.
    fn insert(
        &mut self,
        docs: &[Document<'_>],
        fields: &[usize],
        group: Option<&str>,
    ) -> (Vec<DocId>, Staged) {
        let nf = self.config.fields.len();
        let first = self.ids.len();
        let mut out = Vec::with_capacity(docs.len());
        self.ids.reserve(docs.len());
        self.orders.reserve(docs.len());
        self.doc_groups.reserve(docs.len());
        self.keys.reserve(docs.iter().map(|d| d.keys.len()).sum());
        // Ids, order keys, groups and exact keys first, in document order; the analysis
        // below only fills the documents' field lengths and stages their postings.
        for doc in docs {
            let id = self.next_id;
            self.next_id += 1;
            self.ids.push(id);
            self.orders.push(doc.order.unwrap_or(u64::from(id)));
            out.push(DocId(id));
            let gid = match group.or(doc.group.as_deref()) {
                Some(g) => {
                    let g = self.group_id(g);
                    self.group_counts[g as usize] += 1;
                    g
                }
                None => NO_GROUP,
            };
            self.doc_groups.push(gid);
            for k in &doc.keys {
                self.keys.insert(k, id);
            }
        }
        self.keys.finish();
        self.lens.resize(self.lens.len() + docs.len() * nf, 0.0);
        let bytes: usize = docs.iter().flat_map(|d| &d.fields).map(|(_, text)| text.len()).sum();
        let (words, stems) = (&self.vocab.words, &self.vocab.stems);
        let used = words.len().max(words.bytes()).max(stems.bytes());
        let parts = parts::split(docs, bytes, self.config.parallelism(), used);
        let Index { analyzer, vocab, lens, config, .. } = self;
        let job = Job {
            analyzer,
            weights: config.origin_weights,
            nf,
            // Small batches (one server's update) repeat too little to pay for the memos; the
            // analyzer's own chunk memo serves them.
            memoize: docs.len() >= MEMO_MIN_DOCS,
        };
        let lens = lens.get_mut(first * nf..).unwrap_or_default();
        let in_parts = (parts.len() > 1)
            .then(|| parts::run(&job, vocab, &parts, docs, fields, first as u32, lens))
            .flatten();
        let staged = in_parts.unwrap_or_else(|| {
            // One part, or a part's thread could not be started (what the parts wrote is
            // written again).
            lens.fill(0.0);
            let mut staged = Staged::for_bytes(bytes);
            job.run(vocab, docs, fields, first as u32, lens, &mut staged);
            staged
        });
        (out, staged)
    }

    /// Drops the documents whose ordinal is marked, compacting ordinals; returns the old →
    /// new ordinal map (`u32::MAX` for dropped documents). The postings are remapped by the
    /// [`Index::rebuild`] that must follow.
    fn delete(&mut self, removed: &[bool]) -> Vec<u32> {
        let nf = self.config.fields.len();
        let mut remap = vec![u32::MAX; removed.len()];
        let mut next = 0u32;
        for (o, &r) in removed.iter().enumerate() {
            if !r {
                remap[o] = next;
                next += 1;
            } else if let Some(&g) = self.doc_groups.get(o)
                && let Some(c) = self.group_counts.get_mut(g as usize)
            {
                *c = c.saturating_sub(1);
            }
        }
        // `ids` ascends, so the removed ids do too. A group's documents usually have nearby
        // ids: then a flag per id of their span answers each key pair in one lookup.
        let removed_ids: Vec<u32> =
            self.ids.iter().zip(removed).filter(|(_, r)| **r).map(|(&id, _)| id).collect();
        if let (Some(&lo), Some(&hi)) = (removed_ids.first(), removed_ids.last()) {
            let span = (hi - lo) as usize + 1;
            if span <= 8 * removed_ids.len() + 1024 {
                let mut dead = vec![false; span];
                for &id in &removed_ids {
                    dead[(id - lo) as usize] = true;
                }
                self.keys.retain(|id| {
                    !id.checked_sub(lo).and_then(|i| dead.get(i as usize)).copied().unwrap_or(false)
                });
            } else {
                self.keys.retain(|id| removed_ids.binary_search(&id).is_err());
            }
        }
        let mut keep = removed.iter().map(|r| !r);
        self.ids.retain(|_| keep.next().unwrap_or(false));
        let mut keep = removed.iter().map(|r| !r);
        self.doc_groups.retain(|_| keep.next().unwrap_or(false));
        let mut keep = removed.iter().map(|r| !r);
        self.orders.retain(|_| keep.next().unwrap_or(false));
        let mut w = 0;
        for (o, &r) in removed.iter().enumerate() {
            if !r {
                self.lens.copy_within(o * nf..(o + 1) * nf, w * nf);
                w += 1;
            }
        }
        self.lens.truncate(w * nf);
        remap
    }

    /// Recomputes the statistics (averages; the stem document frequencies, exact counts, move
    /// by the dropped and staged documents) and lays the postings out again in slot order:
    /// the old ones (renumbered by `remap`, dropped where it says `u32::MAX`) then the
    /// `staged` ones, with the field factors their pseudo-frequencies are worked out from when
    /// searches first read their slots. The result depends only on the live documents and
    /// their order, never on the history of updates.
    pub(crate) fn rebuild(&mut self, remap: Option<&[u32]>, staged: Staged) {
        self.cache.reset(0);
        let nf = self.config.fields.len();
        let n = self.ids.len();
        let mut sums = vec![0f64; nf];
        for row in self.lens.chunks_exact(nf) {
            for (s, &l) in sums.iter_mut().zip(row) {
                *s += f64::from(l);
            }
        }
        self.avg = sums.iter().map(|&s| if n > 0 { (s / n as f64) as f32 } else { 0.0 }).collect();
        // factor[o * nf + f] = w_f / (1 − b_f + b_f · len / avg_f), each field's constants
        // taken out of the loop (`lens` holds `nf` lengths per document).
        let fields: Vec<(f32, f32, f32)> = (self.config.fields.iter().zip(&self.avg))
            .map(|(spec, &avg)| (spec.weight(), spec.b(), avg))
            .collect();
        let factor: Vec<f32> = (self.lens.iter().zip(fields.iter().cycle()))
            .map(|(&len, &(w, b, avg))| w / field_norm(b, len, avg))
            .collect();
        // The old postings renumbered, and the stem document frequencies without the dropped
        // ones: their stems come from the slot order before this update.
        let mut old = std::mem::take(&mut self.post);
        let mut dropped_at = Vec::new();
        if let Some(rm) = remap {
            let (dropped, at) = old.renumber(rm);
            drop_stem_df(&mut self.vocab, &dropped, rm.len());
            dropped_at = at;
        }
        // The new slot order; `old_slot` maps a term to its slot before this update.
        let old_slots = if self.vocab.has_pending() {
            let old = self.vocab.term_slot.clone();
            self.vocab.finish();
            Some(old)
        } else {
            None
        };
        let vocab = &self.vocab;
        let nslots = vocab.slot_term.len();
        // Staged postings bucketed by their new slot, in document order within a slot.
        let mut bucket = vec![0u32; nslots + 1];
        for &t in &staged.term {
            bucket[vocab.term_slot[t as usize] as usize + 1] += 1;
        }
        for s in 0..nslots {
            bucket[s + 1] += bucket[s];
        }
        let mut order = vec![0u32; staged.term.len()];
        let mut fill = bucket.clone();
        for (i, &t) in staged.term.iter().enumerate() {
            let s = vocab.term_slot[t as usize] as usize;
            order[fill[s] as usize] = i as u32;
            fill[s] += 1;
        }
        // Staged frequencies as codes (the callers that stage `tf` rows are encoded here).
        let (codes, staged_extra) = if staged.code.len() == staged.term.len() {
            (staged.code, staged.extra)
        } else {
            let mut extra = Vec::new();
            let codes =
                staged.tf.chunks_exact(nf.max(1)).map(|row| encode(row, &mut extra)).collect();
            (codes, extra)
        };
        // The spilled frequencies of old and staged codes in one array: the staged ones after
        // the old ones, their codes shifted to match as they are laid out.
        let mut spilled = std::mem::take(&mut old.extra);
        let shift = spilled.len();
        spilled.extend_from_slice(&staged_extra);
        // The layout, in slot order: each slot's old postings then its staged ones. Old terms
        // keep their order in the slot order (it sorts terms by stem and word), so the old
        // postings keep theirs: each slot starts where its old postings start (a new term's,
        // none, where the previous slot's end) plus the staged postings of the slots before.
        // The kept old postings (`old.offsets` counts only those).
        let old_len = old.doc.len().saturating_sub(dropped_at.len());
        let mut offsets = Vec::with_capacity(nslots + 1);
        match &old_slots {
            // The slots of before, one to one: a sum of two arrays.
            None if old.offsets.len() == nslots + 1 => {
                offsets.extend(old.offsets.iter().zip(&bucket).map(|(&o, &b)| o + b as usize));
            }
            // No old postings (a first batch): the staged ones alone.
            _ if old_len == 0 => offsets.extend(bucket.iter().map(|&b| b as usize)),
            _ => {
                let mut old_end = 0;
                for (slot, (&t, &b)) in vocab.slot_term.iter().zip(&bucket).enumerate() {
                    let old_slot = match &old_slots {
                        Some(o) => o.get(t as usize).copied(),
                        None => Some(slot as u32),
                    };
                    let old_start = match old_slot {
                        Some(os) => {
                            let r = old.range(os, os + 1);
                            old_end = r.end;
                            r.start
                        }
                        None => old_end,
                    };
                    offsets.push(old_start + b as usize);
                }
                offsets.push(old_len + staged.term.len());
            }
        }
        // The old postings go over in runs, from one slot with staged postings to the next,
        // into arrays of the final size (nothing zeroed first).
        let total = old_len + staged.term.len();
        let mut doc: Vec<u32> = Vec::with_capacity(total);
        let mut tf: Vec<u32> = Vec::with_capacity(total);
        let mut runs = OldRuns::new(&old, &dropped_at);
        for (w, &end) in bucket.windows(2).zip(offsets.iter().skip(1)) {
            let Some(mine) = order.get(w[0] as usize..w[1] as usize).filter(|m| !m.is_empty())
            else {
                continue;
            };
            // The end of this slot's old postings.
            runs.copy_to(end.saturating_sub(w[1] as usize), &mut doc, &mut tf);
            doc.extend(mine.iter().map(|&i| staged.doc.get(i as usize).copied().unwrap_or(0)));
            tf.extend(
                mine.iter().map(|&i| codes.get(i as usize).map_or(0, |&c| shift_code(c, shift))),
            );
        }
        runs.copy_to(old_len, &mut doc, &mut tf);
        // Full already, unless the staged postings were inconsistent.
        doc.shrink_to_fit();
        tf.shrink_to_fit();
        // The old pseudo-frequencies' array holds the new ones, once searches work them out.
        let pf = old.take_pf();
        drop(old);
        self.post = Postings::laid_out(offsets, doc, tf, pf, &spilled, factor, nf);
        add_stem_df(&mut self.vocab, &self.post, &bucket, n);
        group_spans(&self.doc_groups, self.group_names.len(), &mut self.group_spans);
        let budget = self.budget_for_size();
        self.cache.reset(budget);
    }

    /// The search cache's budget for the index as it is: the configured one, or the larger
    /// of [`DEFAULT_SEARCH_CACHE_BUDGET`] and the index's heap.
    fn budget_for_size(&self) -> usize {
        self.config
            .search_cache_budget
            .unwrap_or_else(|| DEFAULT_SEARCH_CACHE_BUDGET.max(self.heap_bytes()))
    }
}

/// Writes into `spans`, for each of `groups` group ids, the least and one past the greatest
/// ordinal of `doc_groups` in that group (`(u32::MAX, 0)` for none): one pass.
fn group_spans(doc_groups: &[u32], groups: usize, spans: &mut Vec<(u32, u32)>) {
    spans.clear();
    spans.resize(groups, (u32::MAX, 0));
    for (o, &g) in (0u32..).zip(doc_groups) {
        if let Some(s) = spans.get_mut(g as usize) {
            s.0 = s.0.min(o);
            s.1 = o + 1;
        }
    }
}

/// Index statistics, from [`Index::stats`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Live documents (`N`).
    pub docs: usize,
    /// Distinct terms that occur in at least one document.
    pub terms: usize,
    /// Postings (term, document) pairs.
    pub postings: usize,
    /// Average origin-weighted length of each field, in field order.
    pub avg_field_len: Vec<f32>,
}

#[cfg(test)]
mod line_tests {
    use super::for_each_line;
    use crate::vocab::fx_hash;

    #[test]
    fn lines_and_hashes_are_those_of_split_and_fx_hash() {
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
                text.split('\n').map(|l| (l, fx_hash(l.as_bytes()))).collect();
            let mut got = Vec::new();
            for_each_line(text, |l, h| got.push((l, h)));
            assert_eq!(got, want, "{text:?}");
        }
    }
}
