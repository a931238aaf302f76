//! The interned vocabulary: words and stems in string arenas, the sorted stem table that
//! resolves related terms, and the slot order that lays related terms out contiguously.
//!
//! Every term has a *slot*: its position when terms are sorted by (stem text, word). The
//! postings are stored in slot order (see [`crate::postings`]), so the words of one stem, and
//! the words of all the stems that extend a stem by a prefix, occupy one contiguous range of
//! slots and of postings. Related terms are therefore resolved into a handful of slot ranges
//! ([`Form`]s), never into per-word lists.
//!
//! The hash tables here only answer lookups; every iteration that can reach output goes through
//! the sorted structures.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::config::Relation;
use crate::score::idf;

const EMPTY: u32 = u32::MAX;

/// The one string hash of the crate: rustc-hash's `FxHasher` over the bytes, whose low bits
/// the open-addressing tables here use. The vocabulary's tables, the search cache and the
/// batch memos of [`Index::insert`](crate::Index) use it.
#[inline]
pub(crate) fn str_hash(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    h.finish()
}

/// The first 8 bytes of `s` as a big-endian number, zero-padded: comparing two keys orders
/// the strings as comparing their bytes would, except that equal keys need the whole strings.
#[inline]
fn prefix_key(s: &str) -> u64 {
    let mut buf = [0u8; 8];
    for (b, &c) in buf.iter_mut().zip(s.as_bytes()) {
        *b = c;
    }
    u64::from_be_bytes(buf)
}

/// Interned strings: one arena, ids in order of interning, and an open-addressing table for
/// lookups (load factor at most 3/4).
#[derive(Debug, Clone, Default)]
pub(crate) struct StrTable {
    arena: String,
    /// End offset of string `i` in the arena; it starts where string `i - 1` ends.
    ends: Vec<u32>,
    table: Vec<u32>,
}

impl StrTable {
    /// The string with id `id`.
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &str {
        let i = id as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.arena[start..self.ends[i] as usize]
    }

    /// The number of interned strings.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The bytes of all interned strings.
    pub(crate) fn bytes(&self) -> usize {
        self.arena.len()
    }

    /// The id of `s`, if interned.
    #[inline]
    pub(crate) fn find(&self, s: &str) -> Option<u32> {
        if self.table.is_empty() {
            return None;
        }
        let mask = self.table.len() - 1;
        let mut i = str_hash(s.as_bytes()) as usize & mask;
        loop {
            let id = self.table[i];
            if id == EMPTY {
                return None;
            }
            if self.get(id) == s {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Interns `s`, which must not be interned yet; `None` past `u32` capacity.
    pub(crate) fn push(&mut self, s: &str) -> Option<u32> {
        let id = u32::try_from(self.ends.len()).ok().filter(|&i| i < EMPTY - 1)?;
        let end = u32::try_from(self.arena.len() + s.len()).ok()?;
        if (self.ends.len() + 1) * 4 > self.table.len() * 3 {
            self.grow();
        }
        self.arena.push_str(s);
        self.ends.push(end);
        self.place(id);
        Some(id)
    }

    /// The table size the growth in [`StrTable::push`] reaches with `len` strings: the
    /// smallest power of two of at least 16 that holds them at a load of at most 3/4 (none for
    /// no strings).
    fn natural_size(len: usize) -> usize {
        if len == 0 {
            return 0;
        }
        let mut size = 16;
        while len * 4 > size * 3 {
            size *= 2;
        }
        size
    }

    /// Sizes the table for `additional` more strings at once, so that pushing them does not
    /// place every string again at each doubling. Call [`StrTable::fit`] after the pushes: it
    /// brings the table back to the size the pushes alone would have given it.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let size = Self::natural_size(self.ends.len() + additional);
        if size > self.table.len() {
            self.resize_table(size);
        }
    }

    /// Shrinks a table that [`StrTable::reserve`] made larger than the pushes needed to the
    /// size they would have given it, so that what a table holds never depends on reservations.
    pub(crate) fn fit(&mut self) {
        let size = Self::natural_size(self.ends.len());
        if size < self.table.len() {
            self.resize_table(size);
        }
    }

    fn resize_table(&mut self, size: usize) {
        self.table = vec![EMPTY; size];
        for id in 0..self.ends.len() as u32 {
            self.place(id);
        }
    }

    fn place(&mut self, id: u32) {
        let mask = self.table.len() - 1;
        let mut i = str_hash(self.get(id).as_bytes()) as usize & mask;
        while self.table[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.table[i] = id;
    }

    fn grow(&mut self) {
        self.resize_table((self.table.len() * 2).max(16));
    }

    pub(crate) fn shrink(&mut self) {
        self.arena.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.arena.capacity() + 4 * (self.ends.capacity() + self.table.capacity())
    }
}

/// [`Vocab::finish`] inserts new terms into the slot order when they are at most one in this
/// many of the terms, and lays the order out again otherwise (a first batch, a large update).
const INSERT_AT_MOST: usize = 32;

/// One interned stem's place in the sorted stem table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StemInfo {
    /// Documents that contain at least one term with this stem.
    pub(crate) df: u32,
    /// Length in characters.
    pub(crate) chars: u32,
    /// Position in `Vocab::sorted_stems`.
    pub(crate) rank: u32,
    /// End (exclusive) of the range of ranks after `rank` holding the stems that extend this
    /// one.
    pub(crate) ext_end: u32,
    /// The longest other stem that is a prefix of this one, or `u32::MAX`.
    pub(crate) parent: u32,
}

/// A range of slots whose terms are related to a query term in the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Form {
    /// Slots `start..end`.
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) relation: Relation,
    /// The relation weight (for expansions, times the expander's weight).
    pub(crate) weight: f32,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Vocab {
    pub(crate) words: StrTable,
    pub(crate) stems: StrTable,
    /// Stem id per term id.
    pub(crate) term_stem: Vec<u32>,
    /// Slot per term id (terms interned since the last [`Vocab::finish`] have none yet).
    pub(crate) term_slot: Vec<u32>,
    /// Term id per slot.
    pub(crate) slot_term: Vec<u32>,
    /// Byte length of the word per slot, `u8::MAX` for 255 or more: typo matching skips the
    /// words of the wrong length without reading them.
    pub(crate) slot_len: Vec<u8>,
    pub(crate) stem: Vec<StemInfo>,
    /// Stem ids sorted by stem text.
    pub(crate) sorted_stems: Vec<u32>,
    /// The first slot of the stem at each rank, and the number of slots at the end.
    pub(crate) rank_slot: Vec<u32>,
    /// Terms interned since the last [`Vocab::finish`].
    pending_terms: Vec<u32>,
    /// Stems interned since the last [`Vocab::finish`].
    pending_stems: Vec<u32>,
}

impl Vocab {
    /// The id of `word`, interning it (with `stem`) if new. `None` past `u32` capacity.
    #[inline]
    pub(crate) fn intern(&mut self, word: &str, stem: &str) -> Option<u32> {
        if let Some(id) = self.words.find(word) {
            return Some(id);
        }
        self.intern_new(word, stem)
    }

    #[cold]
    fn intern_new(&mut self, word: &str, stem: &str) -> Option<u32> {
        let stem_id = match self.stems.find(stem) {
            Some(s) => s,
            None => {
                let s = self.stems.push(stem)?;
                self.stem.push(StemInfo {
                    df: 0,
                    chars: stem.chars().count() as u32,
                    rank: 0,
                    ext_end: 0,
                    parent: EMPTY,
                });
                self.pending_stems.push(s);
                s
            }
        };
        let id = self.words.push(word)?;
        self.term_stem.push(stem_id);
        self.pending_terms.push(id);
        Some(id)
    }

    /// Whether terms or stems were interned since the last [`Vocab::finish`].
    pub(crate) fn has_pending(&self) -> bool {
        !self.pending_terms.is_empty()
    }

    /// Puts the terms and stems interned since the last call into the sorted tables and the
    /// slot order.
    pub(crate) fn finish(&mut self) {
        let new_stems = !self.pending_stems.is_empty();
        if new_stems {
            self.merge_stems();
        }
        if self.pending_terms.is_empty() {
            return;
        }
        // Not `clear`: the capacity would stay allocated for the index's life.
        let pending = std::mem::take(&mut self.pending_terms);
        if new_stems || pending.len().saturating_mul(INSERT_AT_MOST) > self.slot_term.len() {
            self.order_slots();
        } else {
            self.insert_slots(&pending);
        }
        self.words.shrink();
        self.stems.shrink();
        self.term_stem.shrink_to_fit();
        self.term_slot.shrink_to_fit();
        self.stem.shrink_to_fit();
    }

    /// Puts a few new terms into the slot order of the others: where [`Vocab::order_slots`]
    /// would put them. The stems' ranks have not moved (no new stem), so the old terms keep
    /// their order and each new term goes into its stem's bucket, among its words by word.
    /// Reads every slot once (copying the others in runs) instead of sorting every term again.
    fn insert_slots(&mut self, pending: &[u32]) {
        let words = &self.words;
        let rank = |t: u32| self.stem[self.term_stem[t as usize] as usize].rank;
        // (old slot it goes before, stem rank, term), in the slot order.
        let mut new: Vec<(u32, u32, u32)> = (pending.iter())
            .map(|&t| {
                let r = rank(t);
                let (from, to) = self.rank_range(r, r + 1);
                let bucket = self.slot_term.get(from as usize..to as usize).unwrap_or_default();
                let at = bucket.partition_point(|&u| words.get(u) < words.get(t));
                (from + at as u32, r, t)
            })
            .collect();
        new.sort_unstable_by(|a, b| {
            (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| words.get(a.2).cmp(words.get(b.2)))
        });
        let total = self.slot_term.len() + new.len();
        let mut slot_term = Vec::with_capacity(total);
        let mut slot_len = Vec::with_capacity(total);
        let mut copied = 0;
        for &(at, _, t) in &new {
            let at = at as usize;
            slot_term.extend_from_slice(self.slot_term.get(copied..at).unwrap_or_default());
            slot_len.extend_from_slice(self.slot_len.get(copied..at).unwrap_or_default());
            copied = at;
            slot_term.push(t);
            slot_len.push(u8::try_from(words.get(t).len()).unwrap_or(u8::MAX));
        }
        slot_term.extend_from_slice(self.slot_term.get(copied..).unwrap_or_default());
        slot_len.extend_from_slice(self.slot_len.get(copied..).unwrap_or_default());
        // Each rank's first slot moves by the new terms of the ranks before it.
        let mut added = 0;
        let mut next = new.iter().map(|&(_, r, _)| r).peekable();
        for (r, first) in (0u32..).zip(self.rank_slot.iter_mut()) {
            while next.next_if(|&nr| nr < r).is_some() {
                added += 1;
            }
            *first += added;
        }
        self.term_slot.resize(self.term_stem.len(), 0);
        for (slot, &t) in (0u32..).zip(&slot_term) {
            if let Some(s) = self.term_slot.get_mut(t as usize) {
                *s = slot;
            }
        }
        self.slot_term = slot_term;
        self.slot_len = slot_len;
    }

    /// Lays out the slot order of all terms: by stem rank, then by word.
    fn order_slots(&mut self) {
        // Slot order: terms bucketed by their stem's rank (a counting sort), each bucket by
        // word (buckets are a stem's words: a handful).
        let nstems = self.sorted_stems.len();
        let mut first = vec![0u32; nstems + 1];
        for &s in &self.term_stem {
            first[self.stem[s as usize].rank as usize + 1] += 1;
        }
        for r in 0..nstems {
            first[r + 1] += first[r];
        }
        let mut fill = first.clone();
        let mut order = vec![0u32; self.term_stem.len()];
        for (t, &s) in self.term_stem.iter().enumerate() {
            let r = self.stem[s as usize].rank as usize;
            order[fill[r] as usize] = t as u32;
            fill[r] += 1;
        }
        for r in 0..nstems {
            let bucket = &mut order[first[r] as usize..first[r + 1] as usize];
            if bucket.len() > 1 {
                let words = &self.words;
                bucket.sort_unstable_by(|&a, &b| words.get(a).cmp(words.get(b)));
            }
        }
        self.term_slot.resize(self.term_stem.len(), 0);
        for (slot, &t) in order.iter().enumerate() {
            self.term_slot[t as usize] = slot as u32;
        }
        let words = &self.words;
        self.slot_len =
            order.iter().map(|&t| u8::try_from(words.get(t).len()).unwrap_or(u8::MAX)).collect();
        self.slot_term = order;
        self.rank_slot = first;
    }

    /// Merges the pending stems into the sorted stem table and relinks the prefix relations.
    fn merge_stems(&mut self) {
        let stems = &self.stems;
        let pending = std::mem::take(&mut self.pending_stems);
        // Sorted by the first 8 bytes as a number first (the same order as the bytes), the
        // whole strings compared only on a tie.
        let mut keyed: Vec<(u64, u32)> =
            pending.iter().map(|&s| (prefix_key(stems.get(s)), s)).collect();
        keyed.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| stems.get(a.1).cmp(stems.get(b.1)))
        });
        let pending: Vec<u32> = keyed.into_iter().map(|(_, s)| s).collect();
        let old = std::mem::take(&mut self.sorted_stems);
        let mut merged = Vec::with_capacity(old.len() + pending.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < pending.len() {
            if stems.get(old[i]) <= stems.get(pending[j]) {
                merged.push(old[i]);
                i += 1;
            } else {
                merged.push(pending[j]);
                j += 1;
            }
        }
        merged.extend_from_slice(&old[i..]);
        merged.extend_from_slice(&pending[j..]);
        self.sorted_stems = merged;
        self.link_prefixes();
    }

    /// One pass over the sorted stems that records, for every stem, its rank, the end of the
    /// range of stems extending it (they follow it contiguously), and its longest proper prefix
    /// among the stems (the chain of parents lists all of them, longest first).
    fn link_prefixes(&mut self) {
        let mut stack: Vec<u32> = Vec::new();
        for (rank, &s) in self.sorted_stems.iter().enumerate() {
            while let Some(&top) = stack.last() {
                let (t, c) = (self.stems.get(top), self.stems.get(s));
                if c.len() > t.len() && c.starts_with(t) {
                    break;
                }
                self.stem[top as usize].ext_end = rank as u32;
                stack.pop();
            }
            let entry = &mut self.stem[s as usize];
            entry.rank = rank as u32;
            entry.parent = stack.last().copied().unwrap_or(EMPTY);
            stack.push(s);
        }
        let end = self.sorted_stems.len() as u32;
        for s in stack {
            self.stem[s as usize].ext_end = end;
        }
    }

    pub(crate) fn term_id(&self, word: &str) -> Option<u32> {
        self.words.find(word)
    }

    pub(crate) fn stem_id(&self, stem: &str) -> Option<u32> {
        self.stems.find(stem)
    }

    /// The slots of the stems at ranks `from..to`.
    fn rank_range(&self, from: u32, to: u32) -> (u32, u32) {
        let at = |r: u32| self.rank_slot.get(r as usize).copied().unwrap_or(0);
        (at(from), at(to))
    }

    /// The slots of stem `s`.
    pub(crate) fn stem_slots(&self, s: u32) -> (u32, u32) {
        let r = self.stem[s as usize].rank;
        self.rank_range(r, r + 1)
    }

    /// The word in slot `slot`.
    pub(crate) fn slot_word(&self, slot: u32) -> &str {
        self.slot_term.get(slot as usize).map_or("", |&t| self.words.get(t))
    }

    /// The slots of the stem of the word in slot `slot`.
    pub(crate) fn slot_stem_slots(&self, slot: u32) -> (u32, u32) {
        match self.slot_term.get(slot as usize).and_then(|&t| self.term_stem.get(t as usize)) {
            Some(&s) => self.stem_slots(s),
            None => (slot, slot + 1),
        }
    }

    /// The slots of the stems that start with byte `first`: a contiguous run, as slots are
    /// in stem order.
    pub(crate) fn first_byte_slots(&self, first: u8) -> (u32, u32) {
        let stems = &self.stems;
        let sorted = &self.sorted_stems;
        let key = |s: &u32| stems.get(*s).as_bytes().first().copied();
        let lo = sorted.partition_point(|s| key(s) < Some(first));
        let hi = lo + sorted[lo..].partition_point(|s| key(s) == Some(first));
        self.rank_range(lo as u32, hi as u32)
    }

    /// Appends the forms of a query term (`word` with `stem`) to `out`, in a
    /// history-independent order: the exact word; the other words of its stem, by word; then
    /// the stems related by prefix, shorter ones first from the longest down, then longer ones
    /// in sorted order, each stem's words by word. Weights come from `weight`; a shorter stem
    /// of a stem the catalog has is a more general word, so its weight is also scaled by its
    /// idf over the stem's (at most 1; `docs` documents): `readme` reaches `read` at 0.3 ×
    /// 2.3 / 6.1.
    pub(crate) fn related(
        &self,
        word: &str,
        stem: &str,
        min_chars: usize,
        weight: impl Fn(Relation) -> f32,
        docs: usize,
        out: &mut Vec<Form>,
    ) {
        let mut push = |(start, end): (u32, u32), relation: Relation, scale: f32| {
            if start < end {
                out.push(Form { start, end, relation, weight: weight(relation) * scale });
            }
        };
        let exact = self.term_id(word).and_then(|t| self.term_slot.get(t as usize).copied());
        if let Some(s) = exact {
            push((s, s + 1), Relation::Exact, 1.0);
        }
        let min_chars = min_chars as u32;
        match self.stem_id(stem) {
            Some(s) => {
                let entry = self.stem[s as usize];
                let (a, b) = self.rank_range(entry.rank, entry.rank + 1);
                match exact.filter(|&e| (a..b).contains(&e)) {
                    Some(e) => {
                        push((a, e), Relation::Stem, 1.0);
                        push((e + 1, b), Relation::Stem, 1.0);
                    }
                    None => push((a, b), Relation::Stem, 1.0),
                }
                // Shorter stems: the chain of parents, longest first.
                let mut p = entry.parent;
                let own_idf = idf(docs, entry.df);
                while let Some(parent) = self.stem.get(p as usize) {
                    if parent.chars < min_chars {
                        break;
                    }
                    // A stem in no document any more is as good as unknown (as after a
                    // fresh build): its prefixes keep their weight, as in the branch below.
                    let scale =
                        if entry.df == 0 { 1.0 } else { (idf(docs, parent.df) / own_idf).min(1.0) };
                    push(self.rank_range(parent.rank, parent.rank + 1), Relation::Prefix, scale);
                    p = parent.parent;
                }
                // Longer stems: the precomputed range after this one.
                if entry.chars >= min_chars {
                    push(self.rank_range(entry.rank + 1, entry.ext_end), Relation::Prefix, 1.0);
                }
            }
            None => {
                // A stem the catalog does not have: look its prefixes up one by one, longest
                // first, and find its extensions by binary search.
                // Char `k` starts at byte `at`: `stem[..at]` is the prefix of `k` characters.
                let chars = stem.chars().count();
                let cuts = stem.char_indices().rev().zip((0..chars).rev());
                for ((at, _), _) in cuts.take_while(|&(_, k)| k >= min_chars as usize) {
                    if let Some(s) = self.stem_id(&stem[..at]) {
                        push(self.stem_slots(s), Relation::Prefix, 1.0);
                    }
                }
                if chars >= min_chars as usize {
                    let stems = &self.stems;
                    let sorted = &self.sorted_stems;
                    let start = sorted.partition_point(|&s| stems.get(s) < stem);
                    let len = sorted[start..].partition_point(|&s| stems.get(s).starts_with(stem));
                    push(
                        self.rank_range(start as u32, (start + len) as u32),
                        Relation::Prefix,
                        1.0,
                    );
                }
            }
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.words.heap_bytes()
            + self.stems.heap_bytes()
            + 4 * (self.term_stem.capacity()
                + self.term_slot.capacity()
                + self.slot_term.capacity()
                + self.sorted_stems.capacity()
                + self.rank_slot.capacity()
                + self.pending_terms.capacity()
                + self.pending_stems.capacity())
            + self.slot_len.capacity()
            + self.stem.capacity() * std::mem::size_of::<StemInfo>()
    }
}

#[cfg(test)]
mod tests {
    use super::{INSERT_AT_MOST, Vocab};
    use proptest::prelude::*;

    /// Words of a small alphabet, so that stems (their first three letters) are shared.
    fn word() -> impl Strategy<Value = String> {
        "[a-d]{1,6}"
    }

    /// The first three letters, reversed: stems shared by several words, and an order of
    /// stems that is not the order of their words.
    fn stem(word: &str) -> String {
        word[..word.len().min(3)].chars().rev().collect()
    }

    /// The slot order and what follows from it.
    fn slots(v: &Vocab) -> (Vec<u32>, Vec<u32>, Vec<u8>, Vec<u32>) {
        (v.slot_term.clone(), v.term_slot.clone(), v.slot_len.clone(), v.rank_slot.clone())
    }

    proptest! {
        /// Law: after every batch, the slot order is the one a single batch of the same words
        /// lays out, whether the new terms were inserted or the order laid out again.
        #[test]
        fn inserted_terms_take_the_slots_a_full_layout_gives(
            first in prop::collection::vec(word(), 0..200),
            batches in prop::collection::vec(prop::collection::vec(word(), 0..6), 0..12),
        ) {
            let mut vocab = Vocab::default();
            let mut all = Vec::new();
            for batch in std::iter::once(first).chain(batches) {
                for w in &batch {
                    vocab.intern(w, &stem(w));
                    all.push(w.clone());
                }
                vocab.finish();
                let mut fresh = Vocab::default();
                for w in &all {
                    fresh.intern(w, &stem(w));
                }
                fresh.finish();
                prop_assert_eq!(slots(&vocab), slots(&fresh));
            }
        }
    }

    #[test]
    fn a_few_new_words_of_known_stems_are_inserted() {
        // The path the law above must cover: enough terms that one new word is inserted.
        let mut vocab = Vocab::default();
        let words: Vec<String> = (0..4 * INSERT_AT_MOST).map(|i| format!("w{i:03}")).collect();
        for w in &words {
            vocab.intern(w, &stem(w));
        }
        vocab.finish();
        vocab.intern("w0505", "50w");
        assert!(
            vocab.pending_stems.is_empty()
                && vocab.pending_terms.len() * INSERT_AT_MOST <= vocab.slot_term.len()
        );
        vocab.finish();
        let t = vocab.term_id("w0505").expect("interned");
        let slot = vocab.term_slot[t as usize] as usize;
        assert_eq!(vocab.slot_word(slot as u32 - 1), "w050");
        assert_eq!(vocab.slot_word(slot as u32 + 1), "w051");
        // Two new words before the same old slot: the end of one stem's words and the start
        // of the next stem's go by stem first, not by word.
        vocab.intern("x1", "s1");
        vocab.intern("z1", "s2");
        vocab.finish();
        vocab.intern("y", "s1");
        vocab.intern("a", "s2");
        vocab.finish();
        let slot = |w: &str| vocab.term_id(w).map(|t| vocab.term_slot[t as usize]);
        let order = [slot("x1"), slot("y"), slot("a"), slot("z1")];
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    }
}
