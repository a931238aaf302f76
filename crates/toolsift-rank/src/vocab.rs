//! The interned vocabulary: terms with their postings, stems, and the sorted stem table that
//! resolves related terms.
//!
//! Hash maps here only answer lookups; every iteration that can reach output goes through the
//! sorted structures (`StemEntry::terms` sorted by word, `Vocab::sorted_stems` sorted by text).

use crate::config::Relation;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small, fast, deterministic hasher for short strings (the rustc "Fx" mixing step).
///
/// Only lookups use it; nothing iterates a hash map in an order that reaches output.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(c);
            self.add(u64::from_le_bytes(buf));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// One posting: a document (by its dense ordinal) and the term's precomputed BM25F
/// pseudo-frequency in it, `Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avg_f)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Posting {
    pub(crate) doc: u32,
    pub(crate) pf: f32,
}

/// One interned term.
#[derive(Debug, Clone)]
pub(crate) struct TermEntry {
    pub(crate) word: Box<str>,
    // Read only when saving an index; kept in all builds so the layout does not depend on it.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) stem: u32,
    /// Sorted by document ordinal.
    pub(crate) postings: Vec<Posting>,
    /// Per-field (origin-weighted) term frequencies, one row of `nfields` per posting.
    pub(crate) tf: Vec<f32>,
}

/// One interned stem.
#[derive(Debug, Clone)]
pub(crate) struct StemEntry {
    pub(crate) text: Box<str>,
    /// Terms with this stem, sorted by word.
    pub(crate) terms: Vec<u32>,
    /// Documents that contain at least one term with this stem.
    pub(crate) df: u32,
    /// Length in characters.
    pub(crate) chars: u32,
    /// Position in `Vocab::sorted_stems`.
    pub(crate) rank: u32,
    /// End (exclusive) of the range of `sorted_stems` after `rank` holding the stems that
    /// extend this one.
    pub(crate) ext_end: u32,
    /// The longest other stem that is a prefix of this one, or `u32::MAX`.
    pub(crate) parent: u32,
}

/// A related catalog term of a query term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Form {
    pub(crate) term: u32,
    pub(crate) relation: Relation,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Vocab {
    word_ids: FxMap<Box<str>, u32>,
    stem_ids: FxMap<Box<str>, u32>,
    pub(crate) terms: Vec<TermEntry>,
    pub(crate) stems: Vec<StemEntry>,
    /// Stem ids sorted by stem text, for prefix ranges.
    pub(crate) sorted_stems: Vec<u32>,
    /// Stems interned since the last [`Vocab::finish`], not yet in `sorted_stems`.
    pending_stems: Vec<u32>,
}

impl Vocab {
    /// The id of `word`, interning it (with `stem`) if new. `None` past `u32` capacity.
    #[inline]
    pub(crate) fn intern(&mut self, word: &str, stem: &str) -> Option<u32> {
        if let Some(&id) = self.word_ids.get(word) {
            return Some(id);
        }
        self.intern_new(word, stem)
    }

    #[cold]
    fn intern_new(&mut self, word: &str, stem: &str) -> Option<u32> {
        let id = u32::try_from(self.terms.len()).ok().filter(|&i| i < u32::MAX)?;
        let stem_id = match self.stem_ids.get(stem) {
            Some(&s) => s,
            None => {
                let s = u32::try_from(self.stems.len()).ok()?;
                self.stem_ids.insert(stem.into(), s);
                self.stems.push(StemEntry {
                    text: stem.into(),
                    terms: Vec::new(),
                    df: 0,
                    chars: stem.chars().count() as u32,
                    rank: 0,
                    ext_end: 0,
                    parent: u32::MAX,
                });
                self.pending_stems.push(s);
                s
            }
        };
        self.word_ids.insert(word.into(), id);
        self.terms.push(TermEntry {
            word: word.into(),
            stem: stem_id,
            postings: Vec::new(),
            tf: Vec::new(),
        });
        let terms = &self.terms;
        let list = &mut self.stems[stem_id as usize].terms;
        let at = list.partition_point(|&t| *terms[t as usize].word < *word);
        list.insert(at, id);
        Some(id)
    }

    /// Merges the stems interned since the last call into the sorted stem table.
    pub(crate) fn finish(&mut self) {
        if self.pending_stems.is_empty() {
            return;
        }
        let stems = &self.stems;
        let mut pending = std::mem::take(&mut self.pending_stems);
        pending.sort_unstable_by(|&a, &b| stems[a as usize].text.cmp(&stems[b as usize].text));
        let old = std::mem::take(&mut self.sorted_stems);
        let mut merged = Vec::with_capacity(old.len() + pending.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < pending.len() {
            if stems[old[i] as usize].text <= stems[pending[j] as usize].text {
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
        let stems = &mut self.stems;
        for (rank, &s) in self.sorted_stems.iter().enumerate() {
            while let Some(&top) = stack.last() {
                let (t, c) = (&stems[top as usize].text, &stems[s as usize].text);
                if c.len() > t.len() && c.starts_with(&**t) {
                    break;
                }
                stems[top as usize].ext_end = rank as u32;
                stack.pop();
            }
            let entry = &mut stems[s as usize];
            entry.rank = rank as u32;
            entry.parent = stack.last().copied().unwrap_or(u32::MAX);
            stack.push(s);
        }
        let end = self.sorted_stems.len() as u32;
        for s in stack {
            stems[s as usize].ext_end = end;
        }
    }

    pub(crate) fn term_id(&self, word: &str) -> Option<u32> {
        self.word_ids.get(word).copied()
    }

    pub(crate) fn stem_id(&self, stem: &str) -> Option<u32> {
        self.stem_ids.get(stem).copied()
    }

    /// Appends the catalog terms related to a query term (`word` with `stem`) to `out`, in a
    /// history-independent order: the exact word; same-stem words by word; then the stems
    /// related by prefix, shorter ones first from the longest down, then longer ones in sorted
    /// order, each stem's words by word. Terms without postings are skipped.
    pub(crate) fn related(&self, word: &str, stem: &str, min_chars: usize, out: &mut Vec<Form>) {
        if let Some(t) = self.term_id(word).filter(|&t| self.live(t)) {
            out.push(Form { term: t, relation: Relation::Exact });
        }
        let min_chars = min_chars as u32;
        match self.stem_id(stem) {
            Some(s) => {
                let entry = &self.stems[s as usize];
                for &t in &entry.terms {
                    if self.live(t) && *self.terms[t as usize].word != *word {
                        out.push(Form { term: t, relation: Relation::Stem });
                    }
                }
                // Shorter stems: the chain of parents, longest first.
                let mut p = entry.parent;
                while let Some(parent) = self.stems.get(p as usize) {
                    if parent.chars < min_chars {
                        break;
                    }
                    self.push_prefix_stem(p, out);
                    p = parent.parent;
                }
                // Longer stems: the precomputed range after this one.
                if entry.chars >= min_chars {
                    let range = entry.rank as usize + 1..entry.ext_end as usize;
                    for &e in self.sorted_stems.get(range).unwrap_or(&[]) {
                        self.push_prefix_stem(e, out);
                    }
                }
            }
            None => {
                // A stem the catalog does not have: look its prefixes up one by one, longest
                // first, and find its extensions by binary search.
                let ends: Vec<usize> =
                    stem.char_indices().map(|(at, _)| at).skip(min_chars as usize).collect();
                for &at in ends.iter().rev() {
                    if let Some(s) = self.stem_id(&stem[..at]) {
                        self.push_prefix_stem(s, out);
                    }
                }
                if stem.chars().count() >= min_chars as usize {
                    let stems = &self.stems;
                    let start =
                        self.sorted_stems.partition_point(|&s| *stems[s as usize].text < *stem);
                    for &s in &self.sorted_stems[start..] {
                        if !stems[s as usize].text.starts_with(stem) {
                            break;
                        }
                        self.push_prefix_stem(s, out);
                    }
                }
            }
        }
    }

    fn live(&self, t: u32) -> bool {
        !self.terms[t as usize].postings.is_empty()
    }

    fn push_prefix_stem(&self, s: u32, out: &mut Vec<Form>) {
        for &t in &self.stems[s as usize].terms {
            if self.live(t) {
                out.push(Form { term: t, relation: Relation::Prefix });
            }
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(Box<str>, u32)>() + 8;
        let mut bytes = (self.word_ids.capacity() + self.stem_ids.capacity()) * entry;
        for t in &self.terms {
            bytes += std::mem::size_of::<TermEntry>() + 2 * t.word.len();
            bytes += t.postings.capacity() * std::mem::size_of::<Posting>();
            bytes += t.tf.capacity() * 4;
        }
        for s in &self.stems {
            bytes += std::mem::size_of::<StemEntry>() + 2 * s.text.len() + s.terms.capacity() * 4;
        }
        bytes += (self.sorted_stems.capacity() + self.pending_stems.capacity()) * 4;
        bytes
    }
}
