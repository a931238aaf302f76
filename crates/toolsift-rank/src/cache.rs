//! The search cache: what searches work out from the index alone, kept until it changes.
//!
//! Two things, both pure functions of the index (its vocabulary, postings and settings), so
//! results never depend on what the cache holds:
//!
//! - **Resolved words** ([`Word`]): a query word's forms (the word, the other words of its
//!   stem, the words it is a prefix of, its lexicon expansions, or its typo corrections),
//!   document frequency, and the sum behind its score bound. Working them out looks the word
//!   up in several tables, expands it through the lexicon and may scan for typos; a cached
//!   word is one hash lookup and a copy of its forms.
//! - **Merged lists** ([`Merged`]), one per resolved word of two slots or more and at least
//!   [`MIN_POSTINGS`] postings: each document once, with its weighted pseudo-frequencies
//!   summed over the forms in the order `Index::walk` sums them and saturated (the same
//!   `f32` bits as a walk of the forms computes), and the largest and smallest. A search reads
//!   one list instead of many, updates a few surviving candidates by binary search in it, and
//!   prunes with the list's exact bound.
//!
//! Every update of the index empties the cache and sets its budget again (`Index::rebuild`);
//! a clone starts empty, with the same budget. The cache holds at most its budget
//! ([`IndexBuilder::search_cache_budget`](crate::IndexBuilder::search_cache_budget); by
//! default the larger of 8 MiB and the index's heap): once it is spent, searches work words
//! out and walk their forms as without a cache. It is shared by all threads behind a lock a
//! search takes once per query word.

use crate::config::DEFAULT_SEARCH_CACHE_BUDGET;
use crate::vocab::{Form, str_hash};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

/// A word is given a merged list only when its forms span at least two slots and this many
/// postings: walking fewer costs less than a list's memory.
pub(crate) const MIN_POSTINGS: usize = 64;

/// A resolved query word: what `Index::resolve` works out for it.
#[derive(Debug)]
pub(crate) struct Word {
    /// The word, its stem and whether it was joined from a particle (see [`word_key`]).
    key: Box<[u8]>,
    pub(crate) forms: Box<[Form]>,
    pub(crate) corrected: bool,
    pub(crate) answerable: bool,
    pub(crate) own: bool,
    pub(crate) df: u32,
    pub(crate) idf: f32,
    pub(crate) postings: usize,
    pub(crate) slots: usize,
    /// `Σ weight × largest pseudo-frequency` over the forms' slots: the score bound before
    /// the query weight, idf and saturation.
    pub(crate) x_bound: f64,
    /// The merged list, once a search built it.
    pub(crate) list: OnceLock<Arc<Merged>>,
}

impl Word {
    /// A word resolved from `key` ([`word_key`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        key: &[u8],
        forms: &[Form],
        (corrected, answerable, own): (bool, bool, bool),
        df: u32,
        idf: f32,
        (postings, slots): (usize, usize),
        x_bound: f64,
    ) -> Word {
        Word {
            key: key.into(),
            forms: forms.into(),
            corrected,
            answerable,
            own,
            df,
            idf,
            postings,
            slots,
            x_bound,
            list: OnceLock::new(),
        }
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Word>() + self.key.len() + std::mem::size_of_val(&*self.forms)
    }
}

/// The cache key of a query word: its text, a 0 byte, its stem, and 1 if it was joined from
/// a particle (a joined word is never taken for a typo), written into `buf`.
pub(crate) fn word_key(buf: &mut Vec<u8>, word: &str, stem: &str, joined: bool) {
    buf.clear();
    buf.extend_from_slice(word.as_bytes());
    buf.push(0);
    buf.extend_from_slice(stem.as_bytes());
    buf.push(u8::from(joined));
}

/// The entries of a merged list per [`Merged::skips`] entry.
const SKIP: usize = 64;

/// The searches [`Merged::find_each`] makes at once.
const LANES: usize = 8;

/// The merged list of one word's forms.
#[derive(Debug)]
pub(crate) struct Merged {
    /// (document ordinal, saturated sum of pseudo-frequencies `sat(x)`, see
    /// `score::saturate`), by ordinal; sums of 0 are left out.
    pub(crate) entries: Box<[(u32, f32)]>,
    /// The ordinal of every [`SKIP`]-th entry, from the first: a search finds an entry's
    /// block in this short array, then searches only that block ([`Merged::find`]).
    skips: Box<[u32]>,
    /// The largest saturated sum.
    pub(crate) max_sat: f32,
    /// The smallest saturated sum that is not NaN (`+inf` when there is none): when it and
    /// `qw · idf` times it are above 0, so is every contribution the list makes.
    pub(crate) min_sat: f32,
}

impl Merged {
    /// A list from its entries (sorted by ordinal), their largest saturated sum (0 when there
    /// are none) and their smallest that is not NaN (`+inf` when there is none), which the
    /// caller tracks as it builds them.
    pub(crate) fn new(entries: Vec<(u32, f32)>, max_sat: f32, min_sat: f32) -> Merged {
        let skips = entries.iter().step_by(SKIP).map(|&(d, _)| d).collect();
        Merged { entries: entries.into_boxed_slice(), skips, max_sat, min_sat }
    }

    /// The bytes of a list of at most `entries` entries.
    pub(crate) fn most_bytes(entries: usize) -> usize {
        std::mem::size_of::<Merged>()
            + entries * std::mem::size_of::<(u32, f32)>()
            + entries.div_ceil(SKIP) * std::mem::size_of::<u32>()
    }

    /// The saturated sum of document `d` (0 if it has none).
    #[inline]
    pub(crate) fn sat(&self, d: u32) -> f32 {
        self.find(0, d).1
    }

    /// The saturated sum of document `d` (0 if it has none), and the block it is in (or
    /// would be), searched from block `from`, which is 0 or a block whose first ordinal is
    /// not after `d` (the block returned for an earlier ordinal is one).
    ///
    /// The block is found in [`Merged::skips`], a short array, by galloping from `from`
    /// (steps that double, then a binary search), the entry by a binary search within the
    /// block. The next search, for a later ordinal, starts from the block returned: it
    /// depends on this one only through that short array, not through the block's entries,
    /// so the core can search several blocks at once.
    #[inline]
    pub(crate) fn find(&self, from: usize, d: u32) -> (usize, f32) {
        let block = self.block_of(from, d);
        let start = block * SKIP;
        let end = (start + SKIP).min(self.entries.len());
        let sat = self.entries.get(start..end).and_then(|b| {
            let i = b.partition_point(|&(e, _)| e < d);
            b.get(i).filter(|&&(e, _)| e == d).map(|&(_, sat)| sat)
        });
        (block, sat.unwrap_or(0.0))
    }

    /// Calls `found(d, sat)` for each document `d` of `docs` (in increasing order) that the
    /// list has, with its saturated sum, in the order of `docs`.
    ///
    /// As [`Merged::find`] for each, but the searches within blocks go [`LANES`] at a time,
    /// step by step: their loads do not wait on each other, so the core has that many cache
    /// misses in flight instead of one.
    pub(crate) fn find_each(&self, docs: &[u32], mut found: impl FnMut(u32, f32)) {
        let entries = &self.entries[..];
        let mut block = 0;
        for chunk in docs.chunks(LANES) {
            let mut lo = [0usize; LANES];
            let mut size = [0usize; LANES];
            for (l, &d) in chunk.iter().enumerate() {
                block = self.block_of(block, d);
                lo[l] = block * SKIP;
                size[l] = entries.len().saturating_sub(lo[l]).min(SKIP);
            }
            // A branch-free binary search per lane, all lanes a step at a time: the first
            // entry of a lane's block that is `d` or after it is at `lo` once `size` is 1 (or
            // 0, for no entry).
            for _ in 0..SKIP.ilog2() {
                for (l, &d) in chunk.iter().enumerate() {
                    let half = size[l] / 2;
                    let mid = lo[l] + half;
                    let before = entries.get(mid).is_some_and(|&(e, _)| e < d);
                    lo[l] = if before { mid } else { lo[l] };
                    size[l] -= half;
                }
            }
            for (l, &d) in chunk.iter().enumerate() {
                // `lo` is the last entry before `d`, or the one a search lands on.
                let at = lo[l] + usize::from(entries.get(lo[l]).is_some_and(|&(e, _)| e < d));
                if let Some(&(e, sat)) = entries.get(at).filter(|_| size[l] > 0)
                    && e == d
                {
                    found(d, sat);
                }
            }
        }
    }

    /// The block document `d` is in (or would be), searched from block `from` as
    /// [`Merged::find`] does.
    #[inline]
    fn block_of(&self, from: usize, d: u32) -> usize {
        let skips = &self.skips[..];
        let mut lo = from + 1;
        let mut step = 1;
        let hi = loop {
            let at = lo + step - 1;
            match skips.get(at) {
                None => break skips.len().max(lo),
                Some(&first) if first > d => break at,
                Some(_) => {
                    lo = at + 1;
                    step *= 2;
                }
            }
        };
        lo + skips.get(lo..hi).map_or(0, |s| s.partition_point(|&first| first <= d)) - 1
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Merged>()
            + std::mem::size_of_val(&*self.entries)
            + std::mem::size_of_val(&*self.skips)
    }
}

/// The search cache of an index.
pub(crate) struct SearchCache {
    words: RwLock<FxHashMap<u64, Arc<Word>>>,
    bytes: AtomicUsize,
    /// The most bytes it may hold, set by every update ([`SearchCache::reset`]).
    budget: usize,
    /// The fewest postings a merged word has ([`MIN_POSTINGS`]; tests lower it).
    pub(crate) min_postings: usize,
}

impl Default for SearchCache {
    fn default() -> SearchCache {
        SearchCache {
            words: RwLock::new(FxHashMap::default()),
            bytes: AtomicUsize::new(0),
            budget: DEFAULT_SEARCH_CACHE_BUDGET,
            min_postings: MIN_POSTINGS,
        }
    }
}

/// A clone starts empty, with the same budget.
impl Clone for SearchCache {
    fn clone(&self) -> SearchCache {
        SearchCache {
            budget: self.budget,
            min_postings: self.min_postings,
            ..SearchCache::default()
        }
    }
}

impl std::fmt::Debug for SearchCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchCache")
            .field("words", &self.words.read().map_or(0, |m| m.len()))
            .field("bytes", &self.bytes())
            .field("budget", &self.budget)
            .finish()
    }
}

impl SearchCache {
    /// How many cached words have a merged list.
    #[cfg(test)]
    pub(crate) fn lists(&self) -> usize {
        let map = self.words.read().unwrap_or_else(PoisonError::into_inner);
        map.values().filter(|w| w.list.get().is_some()).count()
    }

    /// The bytes the cache holds.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// The most bytes the cache may hold.
    pub(crate) fn budget(&self) -> usize {
        self.budget
    }

    /// Empties the cache (the index changed) and sets its budget.
    pub(crate) fn reset(&mut self, budget: usize) {
        self.words.get_mut().unwrap_or_else(PoisonError::into_inner).clear();
        *self.bytes.get_mut() = 0;
        self.budget = budget;
    }

    /// Counts `size` more bytes if they fit in the budget.
    fn reserve(&self, size: usize) -> bool {
        let budget = self.budget;
        self.bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                b.checked_add(size).filter(|&n| n <= budget)
            })
            .is_ok()
    }

    /// The resolved word with `key`, if cached.
    pub(crate) fn word(&self, key: &[u8]) -> Option<Arc<Word>> {
        let map = self.words.read().unwrap_or_else(PoisonError::into_inner);
        map.get(&str_hash(key)).filter(|w| *w.key == *key).map(Arc::clone)
    }

    /// Keeps `word` if the budget allows; returns the cached entry for its key (another
    /// thread's, if it was first), or `None` if none is kept. Entries are keyed by the key's
    /// hash: a word whose hash another word's entry already holds is not kept (rare; its
    /// searches work it out every time, with the same result).
    pub(crate) fn insert_word(&self, word: Word) -> Option<Arc<Word>> {
        let h = str_hash(&word.key);
        let size = word.bytes();
        let mut map = self.words.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(w) = map.get(&h) {
            return (w.key == word.key).then(|| Arc::clone(w));
        }
        if !self.reserve(size) {
            return None;
        }
        let word = Arc::new(word);
        map.insert(h, Arc::clone(&word));
        Some(word)
    }

    /// Whether `word` is worth a merged list.
    pub(crate) fn worth_list(&self, word: &Word) -> bool {
        word.slots >= 2 && word.postings >= self.min_postings
    }

    /// Reserves the bytes of the largest merged list `word` can have (one entry per posting)
    /// if the budget has room; returns them, for [`SearchCache::keep_list`].
    pub(crate) fn reserve_list(&self, word: &Word) -> Option<usize> {
        let most = Merged::most_bytes(word.postings);
        self.reserve(most).then_some(most)
    }

    /// Keeps `list` as `word`'s merged list, giving back what of the `reserved` bytes it
    /// does not use; returns the list kept (another thread's, if it was first).
    pub(crate) fn keep_list(&self, word: &Word, list: Merged, reserved: usize) -> Arc<Merged> {
        let list = Arc::new(list);
        let used = list.bytes().min(reserved);
        if word.list.set(Arc::clone(&list)).is_err() {
            self.bytes.fetch_sub(reserved, Ordering::Relaxed);
            return word.list.get().map_or(list, Arc::clone);
        }
        self.bytes.fetch_sub(reserved - used, Ordering::Relaxed);
        list
    }
}
