//! Merged lists: the postings of a query term's forms summed into one list per document,
//! built the first time a search needs them and kept until the index changes.
//!
//! A query term is usually many slots: the word, the other words of its stem, the words it is
//! a prefix of, and the lexicon's expansions (20 slots and 5,000 postings for `lookup`). A
//! search walks them all and sums each document's weighted pseudo-frequencies before
//! saturating (`Index::walk`). The merged list of the same forms holds each document once
//! with that sum, computed in the same order as the walk computes it, so it is the same `f32`
//! bits, and the largest sum: a search reads one list instead of many, updates a few surviving
//! candidates by binary search in it, and bounds the term by what a document can really get.
//!
//! A list is a pure function of the forms (slot ranges and weights) and the postings, so
//! results never depend on which lists exist: every update of the index empties the cache
//! (`Index::rebuild`), and a search that finds no list (the budget is spent, or the term is
//! too small to be worth one) walks the forms as before. The cache is shared by all threads
//! behind a lock that a search takes once per eligible term.

use crate::vocab::Form;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

/// A term is merged only when its forms span at least two slots and this many postings:
/// walking fewer costs less than a lookup and a list's memory.
pub(crate) const MIN_POSTINGS: usize = 64;

/// The merged list of one set of forms.
#[derive(Debug)]
pub(crate) struct Merged {
    /// The forms, as (first slot, end slot, weight bits), to tell hash collisions apart.
    key: Box<[(u32, u32, u32)]>,
    /// (document ordinal, summed pseudo-frequency), by ordinal; sums of 0 are left out.
    pub(crate) entries: Box<[(u32, f32)]>,
    /// The largest sum.
    pub(crate) max_x: f32,
}

impl Merged {
    /// A list from its forms and its entries (sorted by ordinal).
    pub(crate) fn new(forms: &[Form], entries: Vec<(u32, f32)>) -> Merged {
        let max_x = entries.iter().fold(0f32, |m, &(_, x)| if x > m { x } else { m });
        Merged { key: key_of(forms), entries: entries.into_boxed_slice(), max_x }
    }

    /// The summed pseudo-frequency of document `d` (0 if it has none), by binary search.
    #[inline]
    pub(crate) fn x(&self, d: u32) -> f32 {
        match self.entries.binary_search_by_key(&d, |&(e, _)| e) {
            Ok(i) => self.entries[i].1,
            Err(_) => 0.0,
        }
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Merged>()
            + self.key.len() * std::mem::size_of::<(u32, u32, u32)>()
            + self.entries.len() * std::mem::size_of::<(u32, f32)>()
    }
}

fn key_of(forms: &[Form]) -> Box<[(u32, u32, u32)]> {
    forms.iter().map(|f| (f.start, f.end, f.weight.to_bits())).collect()
}

fn hash_of(forms: &[Form]) -> u64 {
    let mut h = 0u64;
    for f in forms {
        for v in [f.start, f.end, f.weight.to_bits()] {
            h = (h.rotate_left(5) ^ u64::from(v)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    h
}

/// A hasher for keys that are already hashes.
#[derive(Default)]
pub(crate) struct Pass(u64);

impl Hasher for Pass {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// The cache of merged lists of an index, at most `budget` bytes of them.
pub(crate) struct MergedLists {
    map: RwLock<HashMap<u64, Arc<Merged>, BuildHasherDefault<Pass>>>,
    bytes: AtomicUsize,
    /// The fewest postings a merged term has ([`MIN_POSTINGS`]; tests lower it).
    pub(crate) min_postings: usize,
}

impl Default for MergedLists {
    fn default() -> MergedLists {
        MergedLists {
            map: RwLock::new(HashMap::default()),
            bytes: AtomicUsize::new(0),
            min_postings: MIN_POSTINGS,
        }
    }
}

/// A clone starts empty: the lists are rebuilt on demand.
impl Clone for MergedLists {
    fn clone(&self) -> MergedLists {
        MergedLists { min_postings: self.min_postings, ..MergedLists::default() }
    }
}

impl std::fmt::Debug for MergedLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MergedLists")
            .field("lists", &self.map.read().map_or(0, |m| m.len()))
            .field("bytes", &self.bytes())
            .finish()
    }
}

impl MergedLists {
    /// Whether a term with `slots` slots and `postings` postings is worth a list.
    pub(crate) fn worth(&self, slots: usize, postings: usize) -> bool {
        slots >= 2 && postings >= self.min_postings
    }

    /// The bytes the lists hold.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Drops every list (the postings changed).
    pub(crate) fn clear(&mut self) {
        self.map.get_mut().unwrap_or_else(PoisonError::into_inner).clear();
        *self.bytes.get_mut() = 0;
    }

    /// The list of `forms`, if one was built.
    pub(crate) fn get(&self, forms: &[Form]) -> Option<Arc<Merged>> {
        let h = hash_of(forms);
        let map = self.map.read().unwrap_or_else(PoisonError::into_inner);
        let m = map.get(&h)?;
        let same = m.key.len() == forms.len()
            && m.key
                .iter()
                .zip(forms)
                .all(|(&(a, b, w), f)| (a, b, w) == (f.start, f.end, f.weight.to_bits()));
        same.then(|| Arc::clone(m))
    }

    /// Keeps `list` (built for `forms`) if the budget allows, and returns the list to use:
    /// the one kept already if another thread was first.
    pub(crate) fn insert(&self, forms: &[Form], list: Merged, budget: usize) -> Arc<Merged> {
        let size = list.bytes();
        let list = Arc::new(list);
        if self.bytes().saturating_add(size) > budget {
            return list;
        }
        let h = hash_of(forms);
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        let kept = map.entry(h).or_insert_with(|| {
            self.bytes.fetch_add(size, Ordering::Relaxed);
            Arc::clone(&list)
        });
        if kept.key == list.key { Arc::clone(kept) } else { list }
    }

    /// Whether a list of about `postings` entries would still fit in `budget`.
    pub(crate) fn has_room(&self, postings: usize, budget: usize) -> bool {
        self.bytes().saturating_add(postings.saturating_mul(8)) <= budget
    }
}
