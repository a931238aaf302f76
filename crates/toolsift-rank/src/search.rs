//! Searching: query analysis, related forms, abstention, and a pruned BM25F top-k.
//!
//! # How the top-k is found
//!
//! Every query term has an upper bound on what it can add to any document's score:
//! `qw · idf · sat(X)`, where `X` sums, over its forms, the relation weight times the largest
//! pseudo-frequency of the form's terms (stored per term at every update); a term with a
//! merged list in the search cache ([`crate::cache`]) is bounded by the list's largest
//! saturated sum instead, what a document really gets. Terms are processed in
//! `score_order`, shortest postings first (MaxScore, term at a time):
//!
//! 1. While documents not seen yet could still reach the top k, a term's postings (or its
//!    merged list) are all walked and every document that matches it becomes a candidate.
//! 2. As soon as the bounds of the remaining terms add up to less than the k-th best
//!    candidate's partial score among the candidates that already pass the gate (or than the
//!    score floor), no new document can make it: the remaining terms only update the
//!    surviving candidates, by walking their postings or by binary search in them, whichever
//!    is cheaper, and candidates that cannot reach the k-th score any more are dropped.
//! 3. The survivors are sorted by (score, order key, id). Every score is summed in one fixed
//!    order of the terms (`score_order`: shortest postings first), with pruning or without,
//!    in `explain` and for exact-key hits alike, so it is bit for bit the exhaustive
//!    computation's.
//!
//! Partial scores are lower bounds and the term bounds are upper bounds; comparisons keep a
//! relative margin of 4·10⁻⁵ for the rounding of `f32` sums in different orders, so a document
//! is only dropped when it certainly scores below the k-th. `Index::search_exhaustive` skips
//! steps 2 and 3's pruning; a property test holds the two to identical outcomes.

use crate::cache::{Merged, Word, word_key};
use crate::config::{Config, Relation, origin_slot};
use crate::document::DocId;
use crate::index::Index;
use crate::keys::{is_identifier, name_variants, normalize_key_into};
use crate::score::{idf, saturate, term_score};
use crate::vocab::Form;
use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;
use std::sync::Arc;
use toolsift_text::{Analyzed, Origin, is_past_tense};

/// The result of [`Index::search`]: hits, the query's terms and, when empty, why.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    hits: Vec<Hit>,
    terms: Vec<QueryTerm>,
    abstention: Option<Abstention>,
    best_possible: f32,
}

impl Outcome {
    /// The hits, best first: exact-key matches first (by ascending
    /// [order key](crate::Document::order), then [`DocId`]), then by score descending, ties by
    /// ascending order key, then ascending [`DocId`] (by default both are insertion order).
    pub fn hits(&self) -> &[Hit] {
        &self.hits
    }

    /// The query's scored terms: distinct analyzed words (lowercased and folded by the
    /// analyzer, not as the user typed them; stopwords already dropped by the analyzer), in
    /// order of first occurrence.
    pub fn terms(&self) -> &[QueryTerm] {
        &self.terms
    }

    /// Why the answer is empty; `None` when there are hits (or the limit was 0).
    pub fn abstention(&self) -> Option<Abstention> {
        self.abstention
    }

    /// Whether there are no hits.
    pub fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }

    /// The query's best possible score, `Σ qw · idf · (k1 + 1)` over its answerable terms: the
    /// reference of [`IndexBuilder::min_relative_score`](crate::IndexBuilder::min_relative_score).
    pub fn best_possible(&self) -> f32 {
        self.best_possible
    }

    /// The terms that occur in no document (through any relation).
    pub fn unknown_terms(&self) -> impl Iterator<Item = &QueryTerm> {
        self.terms.iter().filter(|t| t.status == TermStatus::Unknown)
    }

    /// The terms that occur in the index but in none of the hits.
    pub fn filtered_terms(&self) -> impl Iterator<Item = &QueryTerm> {
        self.terms.iter().filter(|t| t.status == TermStatus::Filtered)
    }

    /// The terms `hit` matched.
    pub fn matched_terms<'s>(&'s self, hit: &Hit) -> impl Iterator<Item = &'s QueryTerm> + 's {
        let mask = hit.matched;
        self.terms.iter().enumerate().filter(move |(i, _)| mask >> i & 1 == 1).map(|(_, t)| t)
    }
}

/// One result of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    doc: DocId,
    score: f32,
    exact_key: bool,
    matched: u64,
}

impl Hit {
    /// The document.
    pub fn doc(&self) -> DocId {
        self.doc
    }
    /// The BM25F score (for an exact-key hit, its ordinary score, possibly 0).
    pub fn score(&self) -> f32 {
        self.score
    }
    /// Whether the query equals one of the document's exact keys (or, written as one
    /// identifier that equals no key, equals one but for the number or the abbreviation of a
    /// word: [`Document::key`](crate::Document::key)).
    pub fn is_exact_key(&self) -> bool {
        self.exact_key
    }
    /// Indices into [`Outcome::terms`] of the terms this document matched, ascending.
    pub fn matched(&self) -> impl Iterator<Item = usize> + use<> {
        let mut mask = self.matched;
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        })
    }
}

/// A distinct scored query term.
#[derive(Clone)]
pub struct QueryTerm {
    /// The words and stems of all the query's terms, shared by them (one allocation for the
    /// outcome): this term's word is `text[start..split]`, its stem `text[split..end]`.
    text: Arc<str>,
    start: usize,
    split: usize,
    end: usize,
    origin: Origin,
    weight: f32,
    df: u32,
    idf: f32,
    status: TermStatus,
    corrected: bool,
    /// The catalog words a corrected term was taken for, sorted; empty otherwise.
    corrections: Box<[Box<str>]>,
}

/// Equal when the word, the stem and everything measured of them are: the text the terms of
/// one query share is not compared.
impl PartialEq for QueryTerm {
    fn eq(&self, other: &QueryTerm) -> bool {
        self.word() == other.word()
            && self.stem() == other.stem()
            && self.origin == other.origin
            && self.weight == other.weight
            && self.df == other.df
            && self.idf == other.idf
            && self.status == other.status
            && self.corrected == other.corrected
            && self.corrections == other.corrections
    }
}

/// The word and stem, then the rest (not the text the terms of one query share).
impl fmt::Debug for QueryTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryTerm")
            .field("word", &self.word())
            .field("stem", &self.stem())
            .field("origin", &self.origin)
            .field("weight", &self.weight)
            .field("df", &self.df)
            .field("idf", &self.idf)
            .field("status", &self.status)
            .field("corrected", &self.corrected)
            .field("corrections", &self.corrections)
            .finish()
    }
}

impl QueryTerm {
    /// The analyzed word (lowercased and folded by the analyzer).
    pub fn word(&self) -> &str {
        self.text.get(self.start..self.split).unwrap_or("")
    }
    /// Its stem.
    pub fn stem(&self) -> &str {
        self.text.get(self.split..self.end).unwrap_or("")
    }
    /// Its origin (the strongest among its occurrences in the query).
    pub fn origin(&self) -> Origin {
        self.origin
    }
    /// The query-side weight from its origin.
    pub fn weight(&self) -> f32 {
        self.weight
    }
    /// Documents counted for its rarity: those containing its exact or same-stem forms, or, if
    /// there are none, those containing any related form, or, if there are none either, those
    /// containing an [expansion](crate::Expander) form. 0 for an unknown term.
    pub fn df(&self) -> u32 {
        self.df
    }
    /// Its inverse document frequency, `ln(1 + (N − df + 0.5) / (df + 0.5))`.
    pub fn idf(&self) -> f32 {
        self.idf
    }
    /// Whether it matched anything, and whether that reached the hits.
    pub fn status(&self) -> TermStatus {
        self.status
    }
    /// Whether it was taken for a typo: the catalog has neither the word nor its stem and the
    /// expander does not know it, so its forms are those of the catalog words one edit away
    /// ([`Relation::Typo`]). True even if no such word exists (then it is
    /// [`Unknown`](TermStatus::Unknown)); false for words typo matching leaves alone (too
    /// short, not lowercase ASCII, joined from a particle, or typo matching off).
    pub fn corrected(&self) -> bool {
        self.corrected
    }
    /// The catalog words one edit away that a [corrected](QueryTerm::corrected) term was taken
    /// for (`toggle` for `toggel`), sorted and distinct; not the other words of their stems,
    /// which it matches at a lower weight. Empty for a term that was not corrected or found no
    /// such word.
    pub fn corrections(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.corrections.iter().map(|w| &**w)
    }
}

/// What became of a query term.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TermStatus {
    /// No document contains it or any related form.
    Unknown,
    /// At least one hit contains it.
    Matched,
    /// Documents contain it, but none of the hits: they failed the gate or the floor, or ranked
    /// below the limit.
    Filtered,
}

/// Why an answer is empty.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Abstention {
    /// The query has no terms (empty, only punctuation, or only stopwords).
    NoTerms,
    /// No query term occurs in the index.
    AllUnknown,
    /// Fewer query terms occur in the index than
    /// [`min_answerable`](crate::IndexBuilder::min_answerable) requires.
    TooFewAnswerable,
    /// No document passed the gate (most specific answerable term, or coverage).
    Gate,
    /// Documents passed the gate but none reached the
    /// [`min_relative_score`](crate::IndexBuilder::min_relative_score).
    Floor,
}

/// A query term during scoring.
#[derive(Debug, Clone)]
pub(crate) struct PTerm {
    /// The word is `Query::text[start..split]`, the stem `Query::text[split..end]`.
    pub(crate) start: usize,
    pub(crate) split: usize,
    pub(crate) end: usize,
    pub(crate) origin: Origin,
    pub(crate) weight: f32,
    pub(crate) df: u32,
    pub(crate) idf: f32,
    pub(crate) answerable: bool,
    /// Whether one of its own forms (not an expansion) occurs in the index.
    pub(crate) own: bool,
    /// Its forms are `Query::forms[forms.0..forms.1]`.
    pub(crate) forms: (usize, usize),
    /// Whether [`Index::join_particles`] made it (`login` for "log in"): not a word the
    /// query wrote, so never corrected as a typo.
    pub(crate) joined: bool,
    /// Whether it was taken for a typo ([`QueryTerm::corrected`]).
    pub(crate) corrected: bool,
    /// An upper bound of its score in any document; 0 if it can match none. It orders the
    /// terms ([`score_order`]), so it never depends on the merged lists.
    pub(crate) ub: f64,
    /// The bound pruning uses: `ub`, or the exact bound of the merged list if there is one.
    pub(crate) bound: f64,
    /// The merged list of its forms, if the search has one ([`crate::cache`]).
    pub(crate) merged: Option<Arc<Merged>>,
    /// Its entry in the search cache, if it has one.
    pub(crate) cached: Option<Arc<Word>>,
    /// Whether the entry was there before this search: a word seen once is not given a
    /// merged list (one-off words would cost a list each and gain nothing).
    pub(crate) seen_before: bool,
    /// The postings and the slots of its forms.
    pub(crate) postings: usize,
    pub(crate) slots: usize,
}

/// Appends a new, not yet resolved query term for `word` (with `stem`) to `terms`, its text to
/// `text`.
fn push_term(
    text: &mut String,
    terms: &mut Vec<PTerm>,
    word: &str,
    stem: &str,
    origin: Origin,
    weight: f32,
) {
    let start = text.len();
    text.push_str(word);
    let split = text.len();
    text.push_str(stem);
    terms.push(PTerm {
        start,
        split,
        end: text.len(),
        origin,
        weight,
        df: 0,
        idf: 0.0,
        answerable: false,
        own: false,
        forms: (0, 0),
        joined: false,
        corrected: false,
        ub: 0.0,
        bound: 0.0,
        merged: None,
        cached: None,
        seen_before: false,
        postings: 0,
        slots: 0,
    });
}

/// An analyzed query: its distinct terms, their text and their forms.
#[derive(Debug, Default)]
pub(crate) struct Query {
    pub(crate) text: String,
    pub(crate) terms: Vec<PTerm>,
    pub(crate) forms: Vec<Form>,
}

impl Query {
    pub(crate) fn word(&self, t: &PTerm) -> &str {
        &self.text[t.start..t.split]
    }
    pub(crate) fn forms(&self, t: &PTerm) -> &[Form] {
        &self.forms[t.forms.0..t.forms.1]
    }
}

/// Reusable per-thread buffers, dense over document ordinals.
///
/// Between searches every `acc`, `mask` and `xacc` entry is 0. A document is a candidate
/// exactly where its accumulator is not `+0.0` (every contribution added is above 0, or
/// NaN): once pruning keeps only the live candidates ([`Index::top_k`]), every other
/// document's accumulator (and mask) is 0 again, so a nonzero accumulator is what makes a
/// document live.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) query: Query,
    /// Partial score per document: `+0.0` exactly where the document is not a candidate
    /// (before, during and after a search), never `+0.0` for a candidate (a sum of
    /// contributions above 0, or NaN).
    acc: Vec<f32>,
    /// Matched query terms per candidate, kept only where [`Ctx::masks`] says (the gate or
    /// coverage is on, or the index is small); all zeros between searches.
    mask: Vec<u64>,
    /// Pseudo-frequency of the current term per document; all zeros between walks.
    xacc: Vec<f32>,
    /// Documents already counted by [`Index::union`], where it equals `epoch`.
    xstamp: Vec<u32>,
    epoch: u32,
    /// The candidates, documents with a nonzero accumulator: `cands[..ncands]`. The buffer
    /// holds one entry more than there are documents, so that a document is written at
    /// `ncands` before knowing whether it is new (no branch on a data-dependent condition in
    /// the hot loop).
    cands: Vec<u32>,
    ncands: usize,
    live: Vec<u32>,
    tdocs: Vec<u32>,
    /// One bit per document, all zeros between merges ([`Index::merge`]).
    bitmap: Vec<u64>,
    /// A query word's search-cache key.
    word_key: Vec<u8>,
    /// The best `k` partial scores as [`total_order_key`]s, the least on top ([`Index::kth`]).
    tmp: BinaryHeap<std::cmp::Reverse<u32>>,
    order: Vec<usize>,
    rest: Vec<(f64, u64, usize)>,
    hits: BinaryHeap<Cand>,
    pub(crate) key: String,
}

impl Scratch {
    fn ensure(&mut self, n: usize) {
        if self.acc.len() < n {
            self.acc.resize(n, 0.0);
            self.mask.resize(n, 0);
            self.xacc.resize(n, 0.0);
            self.xstamp.resize(n, 0);
        }
        if self.cands.len() <= n {
            self.cands.resize(n + 1, 0);
        }
        if self.bitmap.len() < n.div_ceil(64) {
            self.bitmap.resize(n.div_ceil(64), 0);
        }
    }

    fn next_epoch(&mut self) -> u32 {
        if self.epoch == u32::MAX {
            self.xstamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }
}

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// Whether this thread's scratch is as a search must leave it: every accumulator `+0.0` and
/// every mask 0.
#[cfg(test)]
pub(crate) fn scratch_is_clear() -> bool {
    with_scratch(|s| s.acc.iter().all(|a| a.to_bits() == 0) && s.mask.iter().all(|&m| m == 0))
}

/// Runs `f` with this thread's scratch (moved out and back, so re-entrance or a destroyed
/// thread-local only costs a fresh scratch, never a panic).
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = SCRATCH.try_with(Cell::take).unwrap_or_default();
    let r = f(&mut s);
    // The terms' cache entries and lists belong to the index, not to this thread.
    s.query.terms.clear();
    let _ = SCRATCH.try_with(move |c| c.set(s));
    r
}

/// A number that increases with `v` in the order of [`f32::total_cmp`].
#[inline(always)]
fn total_order_key(v: f32) -> u32 {
    const SIGN: u32 = 1 << 31;
    let b = v.to_bits();
    if b & SIGN != 0 { !b } else { b | SIGN }
}

/// The value whose [`total_order_key`] is `k`.
#[inline(always)]
fn from_total_order_key(k: u32) -> f32 {
    const SIGN: u32 = 1 << 31;
    f32::from_bits(if k & SIGN != 0 { k & !SIGN } else { !k })
}

/// A top-k candidate with its exact score; `Ord` puts the WORST candidate greatest, so a
/// max-heap evicts it first: score descending, then order key, then ordinal (id) ascending.
#[derive(Debug, Clone, Copy)]
struct Cand {
    /// The order as one number (see [`Cand::new`]): a comparison is one `u128` comparison.
    key: u128,
    score: f32,
    ord: u32,
    mask: u64,
}

impl Cand {
    /// A candidate whose `key` orders as (score descending in `f32::total_cmp`'s order, order
    /// key ascending, ordinal ascending).
    #[inline]
    fn new(score: f32, order: u64, ord: u32, mask: u64) -> Cand {
        // Inverted, so that a lower score is greater.
        let up = total_order_key(score);
        let key = (u128::from(!up) << 96) | (u128::from(order) << 32) | u128::from(ord);
        Cand { key, score, ord, mask }
    }
}

impl Ord for Cand {
    #[inline]
    fn cmp(&self, other: &Cand) -> Ordering {
        self.key.cmp(&other.key)
    }
}
impl PartialOrd for Cand {
    #[inline]
    fn partial_cmp(&self, other: &Cand) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Cand {
    fn eq(&self, other: &Cand) -> bool {
        self.key == other.key
    }
}
impl Eq for Cand {}

/// The order in which a query's terms are walked and their contributions summed, into `out`:
/// the terms that can score (bound above 0) by increasing postings, then decreasing bound,
/// then query order. Short lists first raise the k-th best partial score cheaply, so that
/// the long lists of common words and their expansions come when pruning can already limit
/// them to the surviving candidates (7% fewer instructions than by decreasing bound, on `all`
/// and at 100k tools). Every sum of the same terms (pruned or not, in `explain`, for exact-key
/// hits) follows this order, so a score is the same bits everywhere.
pub(crate) fn score_order(q: &Query, out: &mut Vec<usize>) {
    out.clear();
    out.extend((0..q.terms.len()).filter(|&t| q.terms[t].ub > 0.0));
    out.sort_by(|&a, &b| {
        let (ta, tb) = (&q.terms[a], &q.terms[b]);
        ta.postings.cmp(&tb.postings).then(tb.ub.total_cmp(&ta.ub)).then(a.cmp(&b))
    });
}

/// The fewest documents from which a query whose gate is open ([`Ctx::open`]) keeps no
/// matched-term masks while it walks its terms, and finds its hits' matched terms after
/// ([`Index::matched_terms`]): a walk then reads and writes 4 bytes per document, not 12.
/// Below it, the masks cost less than that search (query medians without masks: 10k tools
/// 22.5-25.4 µs against 25.2-27.5 µs with; `all`, 3,952 tools, 10.5-12.7 against 10.1-10.4).
const MASK_FREE_MIN_DOCS: usize = 8_192;

#[cfg(test)]
thread_local! {
    /// A test's own [`MASK_FREE_MIN_DOCS`] on this thread, to search its small indexes both
    /// ways.
    pub(crate) static MASK_FREE_MIN_DOCS_HERE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// [`MASK_FREE_MIN_DOCS`] (or a test's own).
fn mask_free_min_docs() -> usize {
    #[cfg(test)]
    if let Some(n) = MASK_FREE_MIN_DOCS_HERE.with(Cell::get) {
        return n;
    }
    MASK_FREE_MIN_DOCS
}

/// What a binary-search step in a merged list costs, in entries walked (see `top_k`). A step
/// is a dependent load; at 4 the query p99 on `all` was 44.1-44.5 µs against 47.4-48.1 µs at 1.
const PROBE_STEP_COST: f64 = 4.0;

/// Relative slack for comparing sums of `f32` computed in different orders.
const SLACK: f64 = 4e-5;

/// Whether a document whose score is at most `bound` certainly scores below `threshold`.
#[inline]
pub(crate) fn below(bound: f64, threshold: f64) -> bool {
    bound * (1.0 + SLACK) < threshold
}

/// The least `f32` (not NaN) for which `holds` is true, NaN if there is none; `holds` must be
/// monotone over the `f32` values in order (false below some value, true from it on). By
/// bisection over the values in order: 32 tests of `holds`.
///
/// A loop over the candidates then tests each partial score with one `f32` comparison
/// against it ([`not_below`]) instead of evaluating `holds` (a conversion to `f64`, a sum, a
/// product and a comparison), with the same answer for every score not NaN. A NaN score (no
/// finite weights make one) is kept where it would have been: the tests that use this
/// (reaching the threshold) hold for NaN.
pub(crate) fn least_f32(holds: impl Fn(f32) -> bool) -> f32 {
    const SIGN: u32 = 1 << 31;
    // The order key of a value: increasing with the value, from -inf to +inf.
    let key = |v: f32| {
        let b = v.to_bits();
        if b & SIGN != 0 { !b } else { b | SIGN }
    };
    let value = |k: u32| f32::from_bits(if k & SIGN != 0 { k & !SIGN } else { !k });
    if !holds(f32::INFINITY) {
        return f32::NAN;
    }
    let (mut lo, mut hi) = (key(f32::NEG_INFINITY), key(f32::INFINITY));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if holds(value(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    value(lo)
}

/// [`least_f32`], searched from `guess` first: when the answer is within a few values of it
/// (in the order of the `f32` values), a handful of tests of `holds` instead of 32. `holds`
/// must be monotone as for [`least_f32`]; any guess gives the same answer.
pub(crate) fn least_f32_near(guess: f32, holds: impl Fn(f32) -> bool) -> f32 {
    /// The most values walked from the guess before bisecting.
    const STEPS: usize = 6;
    if guess.is_finite() {
        let mut key = total_order_key(guess);
        if holds(guess) {
            // The least value is the guess or below it: walk down while the one below holds.
            for _ in 0..STEPS {
                let below = from_total_order_key(key - 1);
                if !holds(below) {
                    return from_total_order_key(key);
                }
                key -= 1;
            }
        } else {
            // Above the guess: walk up to the first value that holds.
            for _ in 0..STEPS {
                key += 1;
                let above = from_total_order_key(key);
                if above.is_finite() && holds(above) {
                    return above;
                }
            }
        }
    }
    least_f32(holds)
}

/// The least partial score `a` for which `a + rest` may still reach `threshold`:
/// `not_below(a, reach(rest, threshold))` exactly where `!below(a + rest, threshold)`.
/// Searched from the `f64` estimate ([`least_f32_near`]).
#[inline]
fn reach(rest: f64, threshold: f64) -> f32 {
    let guess = (threshold / (1.0 + SLACK) - rest) as f32;
    least_f32_near(guess, |a| !below(f64::from(a) + rest, threshold))
}

/// Whether `a` is not below `least` ([`least_f32`]): true for a NaN `a`, as
/// `!below(NaN + rest, threshold)` is.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub(crate) fn not_below(a: f32, least: f32) -> bool {
    !(a < least)
}

/// Adds one term's contributions to the accumulators, and to the matched-term masks when
/// `MASKS` ([`Ctx::masks`]).
struct Scorer<'a, const MASKS: bool> {
    acc: &'a mut [f32],
    mask: &'a mut [u64],
    cands: &'a mut [u32],
    ncands: usize,
    bit: u64,
    /// `qw · idf`, computed once as [`term_score`] computes it.
    wi: f32,
    k1: f32,
    max: f32,
}

impl<const MASKS: bool> Scorer<'_, MASKS> {
    #[inline(always)]
    fn score(&mut self, d: usize, x: f32) {
        // term_score, with `qw · idf` hoisted (the same operations in the same order).
        if x <= 0.0 {
            return;
        }
        self.add(d, saturate(x, self.k1));
    }

    /// Adds `qw · idf · sat` to document `d`, `sat` being its saturated pseudo-frequency.
    #[inline(always)]
    fn add(&mut self, d: usize, sat: f32) {
        let c = self.wi * sat;
        if c <= 0.0 {
            return;
        }
        self.add_positive(d, c);
    }

    /// Adds the contribution `c` (above 0, or NaN) to document `d`, which is not a candidate
    /// yet: the first term walked, whose list has each document once.
    #[inline(always)]
    fn add_first(&mut self, d: usize, c: f32) {
        // `0 + c == c`, bit for bit, for every such `c`.
        self.acc[d] = c;
        if MASKS {
            self.mask[d] = self.bit;
        }
        self.cands[self.ncands] = d as u32;
        self.ncands += 1;
        self.max = if c > self.max { c } else { self.max };
    }

    /// Adds the contribution `c` to document `d`; `c` is above 0 (or NaN, which
    /// [`Scorer::add`] adds too).
    #[inline(always)]
    fn add_positive(&mut self, d: usize, c: f32) {
        // Branch-free: whether the document is new is data-dependent and mispredicts often.
        // A new document's accumulator is `+0.0`, and `0 + c == c` exactly.
        let base = self.acc[d];
        let a = base + c;
        self.cands[self.ncands] = d as u32;
        self.ncands += usize::from(base.to_bits() == 0);
        self.acc[d] = a;
        if MASKS {
            self.mask[d] |= self.bit;
        }
        // A select, not `f32::max` (which spends instructions on NaN, impossible here).
        self.max = if a > self.max { a } else { self.max };
    }
}

/// What the top-k selection needs to know about the query.
struct Ctx<'a> {
    /// Whether every document passes the gate and coverage (both off, or coverage off for a
    /// query this short): the per-document check is skipped.
    open: bool,
    /// Whether the candidates' matched-term masks are kept as terms are walked: where the
    /// gate needs them (not [`Ctx::open`]), and in an index small enough that they cost less
    /// than finding the hits' matched terms after ([`MASK_FREE_MIN_DOCS`]).
    masks: bool,
    gate_bit: u64,
    n_ans: usize,
    floor: f32,
    /// Ordinals of the exact-key documents, which are not candidates.
    exact: &'a [u32],
}

impl Ctx<'_> {
    /// [`passes_gate`] for this query.
    #[inline]
    fn passes(&self, cfg: &Config, mask: u64) -> bool {
        self.open || passes_gate(cfg, mask, self.gate_bit, self.n_ans)
    }

    /// [`Ctx::passes`] in a loop specialized on [`Ctx::open`] (`OPEN` is `self.open`): an open
    /// query's loops carry no gate check at all.
    #[inline(always)]
    fn passes_in<const OPEN: bool>(&self, cfg: &Config, mask: u64) -> bool {
        OPEN || passes_gate(cfg, mask, self.gate_bit, self.n_ans)
    }
}

impl Index {
    /// Reads an analyzed query's distinct terms (the analyzer has dropped stopwords) and
    /// resolves each term's forms, document frequency, idf and score bound into `s.query`.
    pub(crate) fn prepare(&self, s: &mut Scratch, query: &Analyzed) {
        let cfg = &self.config;
        s.ensure(self.ids.len());
        let Query { text, terms, forms } = &mut s.query;
        text.clear();
        terms.clear();
        forms.clear();
        for tok in query.tokens() {
            let mut w = cfg.query_origin_weights[origin_slot(tok.origin)];
            if tok.origin == Origin::Whole && is_past_tense(tok.word, tok.stem) {
                w *= cfg.past_tense_weight;
            }
            if let Some(t) = terms.iter_mut().find(|t| &text[t.start..t.split] == tok.word) {
                if w > t.weight {
                    t.weight = w;
                    t.origin = tok.origin;
                }
            } else if terms.len() < cfg.max_query_terms {
                push_term(text, terms, tok.word, tok.stem, tok.origin, w);
            }
        }
        if self.config.join_particles {
            self.join_particles(query, &mut s.query);
        }
        for i in 0..s.query.terms.len() {
            let epoch = s.next_epoch();
            self.resolve(&mut s.query, i, &mut s.xstamp, epoch, &mut s.word_key);
        }
    }

    /// Adds the joined form of each word followed by a particle ("tear down" → `teardown`,
    /// "log in" → `login`) as a term of its own, with origin [`Origin::Part`] and its weight
    /// ([`IndexBuilder::join_particles`](crate::IndexBuilder::join_particles)). A particle
    /// joined this way is no longer a term of its own: in "look up", `up` says nothing the
    /// joined `lookup` does not, and alone it matches any tool that says `up`.
    ///
    /// The words are the query's chunks (runs between white space) without the punctuation
    /// around them: a comma or a dropped value between two words keeps them apart.
    fn join_particles(&self, query: &Analyzed, q: &mut Query) {
        let cfg = &self.config;
        let w = cfg.query_origin_weights[origin_slot(Origin::Part)];
        // The particles (by index in `PARTICLES`) that joined the word before them.
        let mut joined_particles = 0u32;
        let mut words = query
            .chunks()
            .map(|c| c.text.trim_matches(|ch: char| !ch.is_alphanumeric()))
            .peekable();
        while let (Some(a), Some(&b)) = (words.next(), words.peek()) {
            if q.terms.len() >= cfg.max_query_terms {
                break;
            }
            if a.is_empty() || !a.chars().all(char::is_alphabetic) {
                continue;
            }
            let Some(particle) =
                crate::config::PARTICLES.iter().position(|p| p.eq_ignore_ascii_case(b))
            else {
                continue;
            };
            let mut joined = String::with_capacity(a.len() + b.len());
            joined.push_str(a);
            joined.push_str(b);
            let Query { text, terms, .. } = q;
            self.analyzer.for_each_token(&joined, |tok| {
                if tok.origin != Origin::Whole {
                    return;
                }
                if terms.iter().any(|t| &text[t.start..t.split] == tok.word) {
                    joined_particles |= 1 << particle;
                    return;
                }
                if terms.len() >= cfg.max_query_terms {
                    return;
                }
                push_term(text, terms, tok.word, tok.stem, Origin::Part, w);
                if let Some(t) = terms.last_mut() {
                    t.joined = true;
                }
                joined_particles |= 1 << particle;
            });
        }
        if joined_particles != 0 {
            let Query { text, terms, .. } = q;
            terms.retain(|t| {
                t.joined
                    || !crate::config::PARTICLES.iter().enumerate().any(|(i, p)| {
                        joined_particles >> i & 1 == 1 && &text[t.start..t.split] == *p
                    })
            });
        }
    }

    /// Fills in term `i`'s forms and statistics: from the search cache if it has the word,
    /// else worked out and then kept there if the budget allows.
    fn resolve(&self, q: &mut Query, i: usize, seen: &mut [u32], epoch: u32, key: &mut Vec<u8>) {
        let cfg = &self.config;
        let Query { text, terms, forms } = q;
        let t = &mut terms[i];
        let (word, stem) = (&text[t.start..t.split], &text[t.split..t.end]);
        let start = forms.len();
        let caching = self.cache.budget() > 0;
        if caching {
            word_key(key, word, stem, t.joined);
            if let Some(w) = self.cache.word(key) {
                forms.extend_from_slice(&w.forms);
                t.corrected = w.corrected;
                t.answerable = w.answerable;
                t.own = w.own;
                t.df = w.df;
                t.idf = w.idf;
                t.forms = (start, forms.len());
                t.postings = w.postings;
                t.slots = w.slots;
                t.ub = self.term_bound(t, w.x_bound);
                t.bound = t.ub;
                t.merged = None;
                t.cached = Some(w);
                t.seen_before = true;
                return;
            }
        }
        let weight = |r| cfg.relation_weight(r);
        self.vocab.related(word, stem, cfg.prefix_min_chars, weight, self.ids.len(), forms);
        let mut kept = start;
        for r in start..forms.len() {
            if forms[r].weight > 0.0 {
                forms[kept] = forms[r];
                kept += 1;
            }
        }
        forms.truncate(kept);
        let own_end = forms.len();
        if let Some(expander) = &self.expander {
            expander.expand(word, stem, &mut |e: &str, ew: f32| {
                self.add_expansion(word, e, ew, forms, start..own_end);
            });
        }
        let post = &self.post;
        let count = |f: &Form| post.range(f.start, f.end).len();
        let mut own_end = own_end;
        let mut own_any = forms[start..own_end].iter().any(|f| count(f) > 0);
        let exp_any = forms[own_end..].iter().any(|f| count(f) > 0);
        // A word neither the catalog (as itself or its stem) nor the expander knows may be a
        // typo: its forms become those of the catalog words one edit away. The expansion forms
        // found nothing, so they are dropped and the corrected forms join the word's own.
        let known = forms[start..own_end]
            .iter()
            .any(|f| matches!(f.relation, Relation::Exact | Relation::Stem) && count(f) > 0);
        t.corrected = !known
            && !exp_any
            && !t.joined
            && cfg.typo_weight > 0.0
            && word.len() >= cfg.typo_min_chars
            && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if t.corrected {
            forms.truncate(own_end);
            self.add_typos(word, forms);
            own_end = forms.len();
            own_any = forms[start..].iter().any(|f| count(f) > 0);
        }
        t.answerable = own_any || exp_any;
        t.own = own_any;
        let stem_df = self.vocab.stem_id(stem).map_or(0, |s| self.vocab.stem[s as usize].df);
        t.df = if stem_df > 0 {
            stem_df
        } else if own_any {
            self.union(&forms[start..own_end], seen, epoch)
        } else {
            self.union(&forms[own_end..], seen, epoch)
        };
        t.idf = if t.answerable { idf(self.ids.len(), t.df) } else { 0.0 };
        t.forms = (start, forms.len());
        t.postings = forms[start..].iter().map(count).sum();
        t.slots = forms[start..].iter().map(|f| (f.end - f.start) as usize).sum();
        let mut x = 0f64;
        for f in &forms[start..] {
            // The first read of these slots since the last update scores them.
            post.ensure(f.start, f.end);
            x += f64::from(f.weight)
                * (f.start..f.end).map(|slot| f64::from(post.max_pf(slot))).sum::<f64>();
        }
        t.ub = self.term_bound(t, x);
        t.bound = t.ub;
        t.merged = None;
        t.cached = None;
        t.seen_before = false;
        if caching {
            let w = Word::new(
                key,
                &forms[start..],
                (t.corrected, t.answerable, t.own),
                t.df,
                t.idf,
                (t.postings, t.slots),
                x,
            );
            t.cached = self.cache.insert_word(w);
        }
    }

    /// The upper bound of term `t`'s score in any document, from `x`, the sum over its forms
    /// of the relation weight times the largest pseudo-frequency of each slot; 0 if it can
    /// match none.
    fn term_bound(&self, t: &PTerm, x: f64) -> f64 {
        if !t.answerable || t.weight <= 0.0 || x <= 0.0 {
            return 0.0;
        }
        let k1 = f64::from(self.config.k1);
        f64::from(t.weight) * f64::from(t.idf) * (x * (k1 + 1.0) / (x + k1))
    }

    /// Adds the forms of an expansion word `e` (weight `ew`) of the query word `word`, unless
    /// the term's own forms (`forms[own]`) already cover them.
    fn add_expansion(
        &self,
        word: &str,
        e: &str,
        ew: f32,
        forms: &mut Vec<Form>,
        own: std::ops::Range<usize>,
    ) {
        // NaN and non-positive weights are ignored.
        if e.is_empty() || e == word || ew.partial_cmp(&0.0) != Some(Ordering::Greater) {
            return;
        }
        let weight = self.config.expansion_weight * ew.min(1.0);
        if weight <= 0.0 {
            return;
        }
        let stem = self.analyzer.stem(e);
        let (a, b) = match self.vocab.stem_id(&stem) {
            Some(s) => self.vocab.stem_slots(s),
            None => {
                match self.vocab.term_id(e).and_then(|t| self.vocab.term_slot.get(t as usize)) {
                    Some(&slot) => (slot, slot + 1),
                    None => return,
                }
            }
        };
        if a >= b {
            return;
        }
        let covered: u32 =
            forms[own.clone()].iter().map(|f| f.end.min(b).saturating_sub(f.start.max(a))).sum();
        if covered >= b - a {
            return;
        }
        if let Some(f) = forms[own.end..].iter_mut().find(|f| (f.start, f.end) == (a, b)) {
            f.weight = f.weight.max(weight);
            return;
        }
        forms.push(Form { start: a, end: b, relation: Relation::Expansion, weight });
    }

    /// Appends, as [`Relation::Typo`] forms, the catalog words one edit away from `word`
    /// (weighted by the typo weight) and the other words of their stems (the typo weight
    /// times the stem weight), in slot order, each slot once.
    ///
    /// Only the words of the stems that start with `word`'s first byte are compared (typos
    /// seldom hit the first letter, and a changed first letter turns most short words into
    /// unrelated ones: `hotel` → `otel`): a contiguous run of slots, found by binary search,
    /// scanned with a length check and [`toolsift_text::within_one_edit`].
    fn add_typos(&self, word: &str, forms: &mut Vec<Form>) {
        let cfg = &self.config;
        let v = &self.vocab;
        let Some(&first) = word.as_bytes().first() else { return };
        let (a, b) = v.first_byte_slots(first);
        let typo = cfg.typo_weight;
        let sibling = cfg.stem_weight * typo;
        let n = word.len();
        let is_typo = |slot: u32| {
            // The length first, from a byte per slot (a saturated length is checked in full).
            let len = v.slot_len.get(slot as usize).copied().unwrap_or(u8::MAX);
            if len != u8::MAX && usize::from(len).abs_diff(n) > 1 {
                return false;
            }
            // A word no document has any more (its documents were removed) is no catalog
            // word: an updated index corrects typos as a fresh build of it does.
            if self.post.range(slot, slot + 1).is_empty() {
                return false;
            }
            let w = v.slot_word(slot);
            w.len().abs_diff(n) <= 1 && w != word && toolsift_text::within_one_edit(w, word)
        };
        let mut push = |start: u32, end: u32, weight: f32| {
            if start < end && weight > 0.0 {
                forms.push(Form { start, end, relation: Relation::Typo, weight });
            }
        };
        let mut slot = a;
        while slot < b {
            if !is_typo(slot) {
                slot += 1;
                continue;
            }
            // The whole stem of the first match: its matches at the typo weight, the other
            // words at the sibling weight, as runs of equal weight.
            let (sa, sb) = v.slot_stem_slots(slot);
            let (mut run, mut run_w) = (sa, sibling);
            for s in sa..sb.min(b) {
                let w = if s < slot {
                    sibling
                } else if s == slot || is_typo(s) {
                    typo
                } else {
                    sibling
                };
                if w.to_bits() != run_w.to_bits() {
                    push(run, s, run_w);
                    (run, run_w) = (s, w);
                }
            }
            push(run, sb.min(b), run_w);
            slot = sb.max(slot + 1);
        }
    }

    /// The number of documents with a posting in any of `forms`.
    fn union(&self, forms: &[Form], seen: &mut [u32], epoch: u32) -> u32 {
        if let [f] = forms
            && f.end - f.start <= 1
        {
            return self.post.range(f.start, f.end).len() as u32;
        }
        let mut count = 0;
        for f in forms {
            for &d in &self.post.doc[self.post.range(f.start, f.end)] {
                if let Some(s) = seen.get_mut(d as usize)
                    && *s != epoch
                {
                    *s = epoch;
                    count += 1;
                }
            }
        }
        count
    }

    /// Scores term `t` in every document of its postings (only the live candidates, those
    /// whose accumulator is not `+0.0`, if `LIVE`): documents not seen yet become candidates.
    /// Sets the term's bit in the matched-term masks if `MASKS`. Returns the largest partial
    /// score it produced.
    ///
    /// Not inlined: kept apart from [`Index::top_k`], its loops get registers of their own.
    ///
    /// Reads `list` or the term's merged list if there is one; else the first walk of a word
    /// worth a list (not `LIVE`) builds it.
    #[inline(never)]
    fn walk<const LIVE: bool, const MASKS: bool>(
        &self,
        s: &mut Scratch,
        q: &Query,
        t: usize,
        list: Option<&Merged>,
    ) -> f32 {
        let term = &q.terms[t];
        let forms = q.forms(term);
        let post = &self.post;
        let n = self.ids.len();
        let Scratch { acc, mask, xacc, cands, ncands, tdocs, bitmap, .. } = s;
        let mut sc = Scorer::<MASKS> {
            acc: &mut acc[..n],
            mask: &mut mask[..n],
            cands: &mut cands[..=n],
            ncands: *ncands,
            bit: 1u64 << t,
            wi: term.weight * term.idf,
            k1: self.config.k1,
            max: 0.0,
        };
        let list = list.or(term.merged.as_deref());
        if !LIVE
            && list.is_none()
            && let Some(reserved) = self.reserve_list(term)
        {
            // The first walk of a word worth a merged list builds it as it scores.
            let (k1, bitmap) = (self.config.k1, &mut bitmap[..n.div_ceil(64)]);
            let list = merge_forms(post, forms, k1, &mut xacc[..n], bitmap, |d, s| sc.add(d, s));
            *ncands = sc.ncands;
            let max = sc.max;
            self.keep_list(term, list, reserved);
            return max;
        }
        if let Some(m) = list {
            // The forms' saturated sums, precomputed: every document once.
            // When `qw · idf` times the smallest sum is above 0, so is every contribution not
            // NaN (`f32` products round monotonically; `Scorer::add` adds a NaN too): the loop
            // needs no check for a zero contribution. Both loops add the same contributions in
            // the same order.
            if !LIVE && sc.ncands == 0 && m.min_sat > 0.0 && sc.wi * m.min_sat > 0.0 {
                // The first term walked: no document is a candidate yet, and the list has
                // each one once.
                for &(d, sat) in &m.entries[..] {
                    sc.add_first(d as usize, sc.wi * sat);
                }
            } else if m.min_sat > 0.0 && sc.wi * m.min_sat > 0.0 {
                for &(d, sat) in &m.entries[..] {
                    let d = d as usize;
                    if LIVE && sc.acc[d].to_bits() == 0 {
                        continue;
                    }
                    sc.add_positive(d, sc.wi * sat);
                }
            } else {
                for &(d, sat) in &m.entries[..] {
                    let d = d as usize;
                    if LIVE && sc.acc[d].to_bits() == 0 {
                        continue;
                    }
                    sc.add(d, sat);
                }
            }
            *ncands = sc.ncands;
            return sc.max;
        }
        if let [f] = forms
            && f.end - f.start == 1
        {
            // One slot: every document once, nothing to sum over forms.
            let r = post.range(f.start, f.end);
            if !LIVE && sc.ncands == 0 {
                // The first term walked: no document is a candidate yet.
                for (d, pf) in post.docs_pfs(r) {
                    let x = f.weight * pf;
                    // `Scorer::score`'s tests, then a new candidate.
                    if x <= 0.0 {
                        continue;
                    }
                    let c = sc.wi * saturate(x, sc.k1);
                    if c <= 0.0 {
                        continue;
                    }
                    sc.add_first(d as usize, c);
                }
                *ncands = sc.ncands;
                return sc.max;
            }
            for (d, pf) in post.docs_pfs(r) {
                let d = d as usize;
                if LIVE && sc.acc[d].to_bits() == 0 {
                    continue;
                }
                sc.score(d, f.weight * pf);
            }
            *ncands = sc.ncands;
            return sc.max;
        }
        // Several slots: sum each document's weighted pseudo-frequencies over the forms, in
        // form order, before saturating. `xacc` is all zeros between walks: a document is
        // new to this term where it still reads 0 (one that gathered only zeros may be listed
        // twice; its second listing reads 0 again and scores nothing).
        // Branch-free like `Scorer::score`: every document is written at `nt`, which moves on
        // only for a new one (`0 + v == v` exactly, as `v` is not negative).
        let xacc = &mut xacc[..n];
        if tdocs.len() <= term.postings {
            tdocs.resize(term.postings + 1, 0);
        }
        let mut nt = 0;
        for f in forms {
            let r = post.range(f.start, f.end);
            let w = f.weight;
            for (d, pf) in post.docs_pfs(r) {
                let du = d as usize;
                if LIVE && sc.acc[du].to_bits() == 0 {
                    continue;
                }
                let old = xacc[du];
                xacc[du] = old + w * pf;
                if let Some(slot) = tdocs.get_mut(nt) {
                    *slot = d;
                }
                // `xacc` holds +0.0 or a positive sum: comparing the bits is exact and cheaper.
                nt += usize::from(old.to_bits() == 0);
            }
        }
        for &d in &tdocs[..nt.min(tdocs.len())] {
            let d = d as usize;
            let x = std::mem::replace(&mut xacc[d], 0.0);
            sc.score(d, x);
        }
        *ncands = sc.ncands;
        sc.max
    }

    /// The pseudo-frequency of document `d` for a term with `forms`, by binary search, summed
    /// in the same order as [`Index::walk`].
    pub(crate) fn probe_x(&self, forms: &[Form], d: u32) -> f32 {
        let mut x = 0.0f32;
        for f in forms {
            for slot in f.start..f.end {
                if let Some(i) = self.post.find(slot, d) {
                    x += f.weight * self.post.pf(i);
                }
            }
        }
        x
    }

    /// Gives every term whose cached word has a merged list that list and its exact bound.
    /// (Lists are built where a search first walks or probes the word: [`Index::walk`],
    /// [`Index::top_k`].)
    fn attach_lists(&self, s: &mut Scratch) {
        for t in &mut s.query.terms {
            let Some(m) = t.cached.as_ref().and_then(|w| w.list.get()).filter(|_| t.ub > 0.0)
            else {
                continue;
            };
            let m = Arc::clone(m);
            // The largest contribution, computed as a walk of the list computes each one.
            let exact = f64::from(t.weight * t.idf * m.max_sat);
            t.bound = t.ub.min(exact);
            t.merged = Some(m);
        }
    }

    /// The bytes reserved in the search cache for a merged list of term `term`, if it has
    /// a cached word from an earlier search, worth a list and without one yet, and the
    /// budget has room.
    fn reserve_list(&self, term: &PTerm) -> Option<usize> {
        let w = term.cached.as_ref().filter(|_| term.seen_before)?;
        if term.merged.is_some() || !self.cache.worth_list(w) || w.list.get().is_some() {
            return None;
        }
        self.cache.reserve_list(w)
    }

    /// The merged list of term `term` (reserved `reserved` bytes), kept in its cached word.
    fn merge(&self, s: &mut Scratch, term: &PTerm, forms: &[Form], reserved: usize) -> Arc<Merged> {
        let n = self.ids.len();
        let k1 = self.config.k1;
        let bitmap = &mut s.bitmap[..n.div_ceil(64)];
        let list = merge_forms(&self.post, forms, k1, &mut s.xacc[..n], bitmap, |_, _| {});
        self.keep_list(term, list, reserved)
    }

    /// Keeps `list` in term `term`'s cached word (see [`Index::reserve_list`]).
    fn keep_list(&self, term: &PTerm, list: Merged, reserved: usize) -> Arc<Merged> {
        match &term.cached {
            Some(w) => self.cache.keep_list(w, list, reserved),
            None => Arc::new(list),
        }
    }

    /// The exact score and matched-term mask of document `d`, summed in [`score_order`] as a
    /// search sums it.
    pub(crate) fn score_doc(&self, q: &Query, d: u32) -> (f32, u64) {
        let k1 = self.config.k1;
        let mut score = 0.0f32;
        let mut mask = 0u64;
        let mut order = Vec::with_capacity(q.terms.len());
        score_order(q, &mut order);
        for i in order {
            let t = &q.terms[i];
            let c = term_score(t.weight, t.idf, self.probe_x(q.forms(t), d), k1);
            if c > 0.0 {
                score += c;
                mask |= 1 << i;
            }
        }
        (score, mask)
    }

    /// The terms of `q` that document `d` matches: those a search adds a contribution above 0
    /// for ([`score_order`]'s terms), as the bits a walk sets in its mask. Searched in the
    /// terms' merged lists, or their postings.
    fn matched_terms(&self, q: &Query, d: u32) -> u64 {
        let k1 = self.config.k1;
        let mut mask = 0u64;
        for (i, t) in q.terms.iter().enumerate().filter(|(_, t)| t.ub > 0.0) {
            let c = match &t.merged {
                // As a walk of the list computes it.
                Some(m) => t.weight * t.idf * m.sat(d),
                None => term_score(t.weight, t.idf, self.probe_x(q.forms(t), d), k1),
            };
            if c > 0.0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The k-th largest partial score among the candidates that already pass the gate and
    /// are not exact-key documents, if at least `k` of them score above `min` (with the
    /// slack): only those are considered.
    fn kth(&self, s: &mut Scratch, ctx: &Ctx<'_>, k: usize, min: f64) -> Option<f64> {
        if ctx.open {
            self.kth_in::<true>(s, ctx, k, min)
        } else {
            self.kth_in::<false>(s, ctx, k, min)
        }
    }

    /// [`Index::kth`], specialized on [`Ctx::open`].
    fn kth_in<const OPEN: bool>(
        &self,
        s: &mut Scratch,
        ctx: &Ctx<'_>,
        k: usize,
        min: f64,
    ) -> Option<f64> {
        let cfg = &self.config;
        let Scratch { acc, mask, cands, ncands, tmp, .. } = s;
        // The buffers as slices, so that the loop keeps them in registers.
        // `acc` and `mask` of one length, so that one bounds check covers both.
        let n = acc.len().min(mask.len());
        let (acc, mask, cands) = (&acc[..n], &mask[..n], &cands[..*ncands]);
        tmp.clear();
        // `a >= least` exactly where `below(min, a)` (both false for NaN): one `f32`
        // comparison per candidate.
        // Once `k` are kept, `least` is the k-th best: only a better score is kept then.
        let mut least = least_f32_near((min * (1.0 + SLACK)) as f32, |a| below(min, f64::from(a)));
        for &d in cands {
            let a = acc[d as usize];
            if a >= least && ctx.passes_in::<OPEN>(cfg, mask[d as usize]) && !ctx.exact.contains(&d)
            {
                // Integer comparisons, in the order `f32::total_cmp` gives the scores.
                let key = std::cmp::Reverse(total_order_key(a));
                if tmp.len() < k {
                    tmp.push(key);
                } else if let Some(mut top) = tmp.peek_mut()
                    && key < *top
                {
                    *top = key;
                }
                if tmp.len() == k
                    && let Some(top) = tmp.peek()
                {
                    least = from_total_order_key(top.0);
                }
            }
        }
        if tmp.len() >= k && k > 0 {
            tmp.peek().map(|v| f64::from(from_total_order_key(v.0)))
        } else {
            None
        }
    }

    /// Makes the candidates that can still reach `threshold` with at most `rest` more, and
    /// still pass the gate with the terms in `bits`, the live ones (`s.live`); the others are
    /// no longer candidates (their accumulators and masks become 0). `OPEN` is
    /// [`Ctx::open`].
    fn go_live<const OPEN: bool>(
        &self,
        s: &mut Scratch,
        ctx: &Ctx<'_>,
        rest: f64,
        bits: u64,
        threshold: f64,
    ) {
        let cfg = &self.config;
        let Scratch { acc, mask, cands, ncands, live, .. } = s;
        live.clear();
        live.extend_from_slice(&cands[..*ncands]);
        // The buffers as slices, so that the loop keeps them in registers. Branch-free like
        // `Scorer::add`: every candidate is written back at `nl`, which moves on only for a
        // live one.
        // `acc` and `mask` of one length, so that one bounds check covers both (an open
        // query keeps no masks: they stay all zeros).
        let n = acc.len().min(mask.len());
        let (acc, mask, lv) = (&mut acc[..n], &mut mask[..n], &mut live[..]);
        let reach = reach(rest, threshold);
        let mut nl = 0;
        for i in 0..lv.len() {
            let d = lv[i];
            let du = d as usize;
            let a = acc[du];
            let keep = if !ctx.masks {
                not_below(a, reach)
            } else {
                let m = mask[du];
                let keep = not_below(a, reach) && ctx.passes_in::<OPEN>(cfg, m | bits);
                mask[du] = if keep { m } else { 0 };
                keep
            };
            acc[du] = if keep { a } else { 0.0 };
            lv[nl] = d;
            nl += usize::from(keep);
        }
        live.truncate(nl);
    }

    /// Drops the live candidates that can no longer reach `threshold` with at most `rest`
    /// more, or can no longer pass the gate with the terms in `bits` (their accumulators and
    /// masks become 0).
    fn prune_live(&self, s: &mut Scratch, ctx: &Ctx<'_>, rest: f64, bits: u64, threshold: f64) {
        if ctx.open {
            self.prune_live_in::<true>(s, ctx, rest, bits, threshold);
        } else {
            self.prune_live_in::<false>(s, ctx, rest, bits, threshold);
        }
    }

    /// [`Index::prune_live`], specialized on [`Ctx::open`].
    fn prune_live_in<const OPEN: bool>(
        &self,
        s: &mut Scratch,
        ctx: &Ctx<'_>,
        rest: f64,
        bits: u64,
        threshold: f64,
    ) {
        let cfg = &self.config;
        let Scratch { acc, mask, live, .. } = s;
        let n = acc.len().min(mask.len());
        let (acc, mask) = (&mut acc[..n], &mut mask[..n]);
        let reach = reach(rest, threshold);
        live.retain(|&d| {
            let d = d as usize;
            let keep = not_below(acc[d], reach)
                && (!ctx.masks || ctx.passes_in::<OPEN>(cfg, mask[d] | bits));
            if !keep {
                acc[d] = 0.0;
                if ctx.masks {
                    mask[d] = 0;
                }
            }
            keep
        });
    }

    /// Collects into `s.hits` the best `k` eligible documents (passing the gate, not an
    /// exact-key document, scoring at least the floor). Returns whether any candidate passed
    /// the gate, and whether pruning kept documents from being candidates (then a `false`
    /// first answer is not conclusive).
    fn top_k(
        &self,
        s: &mut Scratch,
        q: &Query,
        ctx: &Ctx<'_>,
        k: usize,
        prune: bool,
    ) -> (bool, bool) {
        let cfg = &self.config;
        let m = q.terms.len();
        s.hits.clear();
        s.ncands = 0;
        s.live.clear();
        // Terms are walked, and every score summed, in `score_order` (shortest postings
        // first), and in the same order with pruning off, in `explain` and for exact-key
        // hits, so that scores are the same bits everywhere.
        let prune = prune && m > 1;
        score_order(q, &mut s.order);
        // rest[j]: the bound, the bits and the postings of the terms from the j-th on.
        s.rest.clear();
        s.rest.resize(s.order.len() + 1, (0.0, 0, 0));
        for j in (0..s.order.len()).rev() {
            let (ub, bits, posts) = s.rest[j + 1];
            let t = &q.terms[s.order[j]];
            s.rest[j] = (ub + t.bound, bits | 1 << s.order[j], posts + t.postings);
        }
        let floor = f64::from(ctx.floor);
        let mut threshold = floor;
        let mut and_mode = false;
        // Whether `s.live` is in ordinal order yet (sorted when first probed).
        let mut live_sorted = false;
        let mut max_acc = 0f32;
        let order = std::mem::take(&mut s.order);
        for (j, &t) in order.iter().enumerate() {
            if prune && !and_mode && j > 0 {
                // May documents not seen yet still make the top k? Worth asking only when
                // the best partial score is above what the rest can add and the rest has
                // more postings than there are candidates.
                let (rest, bits, posts) = s.rest[j];
                let mut switch = below(rest, floor);
                if !switch
                    && below(rest, f64::from(max_acc))
                    && posts > s.ncands
                    && s.ncands >= k
                    && let Some(th) = self.kth(s, ctx, k, rest)
                {
                    threshold = threshold.max(th);
                    switch = below(rest, threshold);
                }
                if switch {
                    and_mode = true;
                    if ctx.open {
                        self.go_live::<true>(s, ctx, rest, bits, threshold);
                    } else {
                        self.go_live::<false>(s, ctx, rest, bits, threshold);
                    }
                }
            }
            if !and_mode {
                let max = if ctx.masks {
                    self.walk::<false, true>(s, q, t, None)
                } else {
                    self.walk::<false, false>(s, q, t, None)
                };
                max_acc = max_acc.max(max);
                continue;
            }
            if s.live.is_empty() {
                break;
            }
            // Update the live candidates: walk the postings or search them, whichever is
            // cheaper.
            let term = &q.terms[t];
            // A word worth a merged list that has none yet gets it here.
            let built = self.reserve_list(term).map(|r| self.merge(s, term, q.forms(term), r));
            if let Some(m) = built.as_deref().or(term.merged.as_deref()) {
                // A search's steps are dependent loads, each several times the cost of a
                // streamed entry ([`PROBE_STEP_COST`]): probing pays only for few candidates
                // in a long list.
                let len = m.entries.len() as f64;
                let probe = (s.live.len() as f64) * (2.0 + (1.0 + len).log2()) * PROBE_STEP_COST;
                if probe < 2.0 * len {
                    // The live candidates in ordinal order (the order of the others does
                    // not matter: scores and the top k are the same), so that each search
                    // starts from the block where the last one ended.
                    if !live_sorted {
                        s.live.sort_unstable();
                        live_sorted = true;
                    }
                    let bit = 1u64 << t;
                    let wi = term.weight * term.idf;
                    let Scratch { acc, mask, live, .. } = &mut *s;
                    m.find_each(live, |d, sat| {
                        // term_score, from the kept saturation (the same bits).
                        let c = wi * sat;
                        if c > 0.0 {
                            let d = d as usize;
                            acc[d] += c;
                            if ctx.masks {
                                mask[d] |= bit;
                            }
                        }
                    });
                } else if ctx.masks {
                    self.walk::<true, true>(s, q, t, Some(m));
                } else {
                    self.walk::<true, false>(s, q, t, Some(m));
                }
                let (rest, bits, _) = s.rest[j + 1];
                self.prune_live(s, ctx, rest, bits, threshold);
                continue;
            }
            let avg = term.postings as f64 / term.slots.max(1) as f64;
            let probe_cost = s.live.len() as f64 * term.slots as f64 * (2.0 + (1.0 + avg).log2());
            if probe_cost < 2.0 * term.postings as f64 {
                let bit = 1u64 << t;
                for li in 0..s.live.len() {
                    let d = s.live[li] as usize;
                    let x = self.probe_x(q.forms(term), d as u32);
                    let c = term_score(term.weight, term.idf, x, cfg.k1);
                    if c > 0.0 {
                        s.acc[d] += c;
                        if ctx.masks {
                            s.mask[d] |= bit;
                        }
                    }
                }
            } else if ctx.masks {
                self.walk::<true, true>(s, q, t, None);
            } else {
                self.walk::<true, false>(s, q, t, None);
            }
            let (rest, bits, _) = s.rest[j + 1];
            self.prune_live(s, ctx, rest, bits, threshold);
        }
        s.order = order;
        // The survivors' scores, summed in score order as they were walked.
        let mut passed_gate = false;
        let mut heap = std::mem::take(&mut s.hits);
        // The heap's worst score once it is full: anything below it is out at once.
        let mut worst_score = f32::NEG_INFINITY;
        // Every other candidate's accumulator and mask are 0 already; the survivors' become 0
        // as they are read. Without masks ([`Ctx::masks`]) they are all zeros: the hits'
        // matched terms are worked out after (`Index::matched_terms`).
        let Scratch { acc, mask, cands, ncands, live, .. } = s;
        let (acc, mask) = (&mut acc[..], &mut mask[..]);
        let survivors = if and_mode { &live[..] } else { &cands[..*ncands] };
        for &d in survivors {
            let du = d as usize;
            let score = std::mem::take(&mut acc[du]);
            let mask = if ctx.masks { std::mem::take(&mut mask[du]) } else { 0 };
            if !ctx.passes(cfg, mask) {
                continue;
            }
            passed_gate = true;
            if score < ctx.floor || score < worst_score {
                continue;
            }
            let cand = Cand::new(score, self.orders[du], d, mask);
            if heap.len() < k {
                if !ctx.exact.contains(&d) {
                    heap.push(cand);
                    if heap.len() == k {
                        worst_score = heap.peek().map_or(worst_score, |w| w.score);
                    }
                }
            } else {
                if let Some(mut worst) = heap.peek_mut()
                    && cand < *worst
                    && !ctx.exact.contains(&d)
                {
                    *worst = cand;
                }
                worst_score = heap.peek().map_or(worst_score, |w| w.score);
            }
        }
        s.hits = heap;
        (passed_gate, and_mode)
    }

    /// Searches for the `limit` best documents.
    ///
    /// Never fails and never panics: an empty or unanswerable query gives an empty
    /// [`Outcome`] whose [`abstention`](Outcome::abstention) says why.
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Abstention, Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "create issue").field("details", "github"),
    ///     Document::new().field("name", "send message").field("details", "slack"),
    /// ])?;
    /// let out = index.search("create a github issue", 10);
    /// assert_eq!(out.hits()[0].doc(), ids[0]);
    /// assert_eq!(out.hits().len(), 1);
    /// let none = index.search("zzyzx", 10);
    /// assert_eq!(none.abstention(), Some(Abstention::AllUnknown));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search(&self, query: &str, limit: usize) -> Outcome {
        self.search_analyzed(&self.analyzer.analyze_text(query), limit)
    }

    /// [`Index::search`] for a query the index's analyzer has already analyzed
    /// ([`Analyzer::analyze_text`](toolsift_text::Analyzer::analyze_text) on
    /// [`Index::analyzer`]), perhaps edited since: a caller that reads the request itself
    /// analyzes it once. A query another analyzer made is analyzed again from its text.
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "read file"),
    ///     Document::new().field("name", "fetch url"),
    /// ])?;
    /// let mut query = index.analyzer().analyze_text("open notes.txt");
    /// query.append(index.analyzer(), "file"); // a word the caller knows the query implies
    /// assert_eq!(index.search_analyzed(&query, 10).hits()[0].doc(), ids[0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search_analyzed(&self, query: &Analyzed, limit: usize) -> Outcome {
        if query.is_of(&self.analyzer) {
            self.search_with(query, limit, true)
        } else {
            self.search_with(&self.analyzer.analyze_text(query.text()), limit, true)
        }
    }

    /// [`Index::search`] without pruning: every matching document is scored. The reference
    /// the pruned search is tested against.
    #[cfg(test)]
    pub(crate) fn search_exhaustive(&self, query: &str, limit: usize) -> Outcome {
        self.search_with(&self.analyzer.analyze_text(query), limit, false)
    }

    /// Whether some document of one of `groups` matches `word` through a form a search would
    /// score for it: the word, its same-stem and prefix forms, and its expansions. `word` is
    /// analyzed like a query and its first term counts; an unknown group matches nothing.
    ///
    /// One walk over those forms' postings, without scoring: a caller that needs to know
    /// whether a part of the index can answer a word at all gets it without a full search.
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().field("name", 1.0).build()?;
    /// index.add([
    ///     Document::new().field("name", "cancel pipeline").group("gitlab"),
    ///     Document::new().field("name", "rerun workflows").group("circleci"),
    /// ])?;
    /// assert!(index.matches_in_groups("workflow", &["circleci"]));
    /// assert!(!index.matches_in_groups("cancel", &["circleci"]));
    /// assert!(index.matches_in_groups("cancel", &["circleci", "gitlab"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn matches_in_groups(&self, word: &str, groups: &[&str]) -> bool {
        self.any_match_in_groups(word, groups, |_| true)
    }

    /// Whether `accept` takes some document of one of `groups` that matches `word`, as in
    /// [`Index::matches_in_groups`]: the documents are offered in the order of the word's
    /// forms, then of their postings, and the walk stops at the first one taken (a document
    /// several forms match may be offered more than once).
    ///
    /// `accept` tests each matching document in some other way than matching: for example,
    /// whether the thing behind it also has a property the index does not store.
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().field("name", 1.0).build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "list branches").group("git"),
    ///     Document::new().field("name", "delete branch").group("git"),
    /// ])?;
    /// assert!(index.any_match_in_groups("branch", &["git"], |d| d == ids[1]));
    /// assert!(!index.any_match_in_groups("list", &["git"], |d| d == ids[1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn any_match_in_groups(
        &self,
        word: &str,
        groups: &[&str],
        mut accept: impl FnMut(DocId) -> bool,
    ) -> bool {
        self.any_posting_in_groups(word, groups, |_, d| {
            self.ids.get(d as usize).is_some_and(|&id| accept(DocId(id)))
        })
    }

    /// Whether `accept` takes some posting (its position and document ordinal) of `word`'s
    /// forms, as a search would score them (its first term when analyzed like a query), whose
    /// document is in one of `groups`: the walk behind [`Index::any_match_in_groups`] and
    /// [`Index::any_field_match_in_groups`], stopping at the first posting taken.
    fn any_posting_in_groups(
        &self,
        word: &str,
        groups: &[&str],
        mut accept: impl FnMut(usize, u32) -> bool,
    ) -> bool {
        // Looked up by name: a scan of every group's name cost more than the walk on a
        // catalog of a thousand servers.
        let ids: Vec<u32> = groups.iter().filter_map(|g| self.group_ids.get(*g).copied()).collect();
        // Every document of these groups has an ordinal in `lo..hi`: each slot's postings,
        // sorted by ordinal, are read from `lo` to `hi` only, in the same order as a whole walk.
        let (lo, hi) = ids
            .iter()
            .filter_map(|&g| self.group_spans.get(g as usize))
            .fold((u32::MAX, 0), |(lo, hi), &(a, b)| (lo.min(a), hi.max(b)));
        self.any_posting_between(word, lo, hi, |i, d| {
            self.doc_groups.get(d as usize).is_some_and(|g| ids.contains(g)) && accept(i, d)
        })
    }

    /// Whether `accept` takes some posting (its position and document ordinal) of `word`'s
    /// forms, as a search would score them, whose document ordinal is in `lo..hi`.
    fn any_posting_between(
        &self,
        word: &str,
        lo: u32,
        hi: u32,
        mut accept: impl FnMut(usize, u32) -> bool,
    ) -> bool {
        if lo >= hi {
            return false;
        }
        with_scratch(|s| {
            self.prepare(s, &self.analyzer.analyze_text(word));
            let q = &s.query;
            let Some(t) = q.terms.first() else { return false };
            q.forms(t).iter().flat_map(|f| f.start..f.end).any(|slot| {
                let range = self.post.range(slot, slot + 1);
                let docs = self.post.doc.get(range.clone()).unwrap_or_default();
                let from = docs.partition_point(|&d| d < lo);
                (range.start + from..)
                    .zip(docs.get(from..).unwrap_or_default())
                    .take_while(|&(_, &d)| d < hi)
                    .any(|(i, &d)| accept(i, d))
            })
        })
    }

    /// [`Index::any_match_in_groups`] counting only the matches in `fields` (by name; an
    /// unknown field name is ignored): whether `accept` takes some document of one of `groups`
    /// whose text in one of those fields matches `word`.
    ///
    /// It tells whether a word occurs in chosen fields of a part of the index (say, the
    /// fields that name what a document is, not those that describe it at length).
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().field("name", 1.0).field("details", 0.5).build()?;
    /// index.add([
    ///     Document::new().field("name", "list releases").group("git"),
    ///     Document::new().field("name", "create tag").field("details", "release").group("git"),
    /// ])?;
    /// assert!(index.any_field_match_in_groups("release", &["git"], &["name"], |_| true));
    /// assert!(index.any_field_match_in_groups("release", &["git"], &["details"], |_| true));
    /// assert!(!index.any_field_match_in_groups("tag", &["git"], &["details"], |_| true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn any_field_match_in_groups(
        &self,
        word: &str,
        groups: &[&str],
        fields: &[&str],
        accept: impl FnMut(DocId) -> bool,
    ) -> bool {
        self.any_field_posting(fields, accept, |walk| {
            self.any_posting_in_groups(word, groups, walk)
        })
    }

    /// [`Index::any_field_match_in_groups`] over every document, whatever its group: whether
    /// `accept` takes some document whose text in one of `fields` matches `word`.
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().field("name", 1.0).field("details", 0.5).build()?;
    /// index.add([
    ///     Document::new().field("name", "list releases").group("git"),
    ///     Document::new().field("name", "get user").field("details", "e.g. jane").group("idp"),
    /// ])?;
    /// assert!(index.any_field_match("user", &["name"], |_| true));
    /// assert!(!index.any_field_match("jane", &["name"], |_| true));
    /// assert!(index.any_field_match("jane", &["details"], |_| true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn any_field_match(
        &self,
        word: &str,
        fields: &[&str],
        accept: impl FnMut(DocId) -> bool,
    ) -> bool {
        let end = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        self.any_field_posting(fields, accept, |walk| self.any_posting_between(word, 0, end, walk))
    }

    /// The field test of [`Index::any_field_match_in_groups`] and [`Index::any_field_match`]:
    /// runs `walk` with a posting test that takes a posting when its text is in one of
    /// `fields` and `accept` takes its document.
    fn any_field_posting(
        &self,
        fields: &[&str],
        mut accept: impl FnMut(DocId) -> bool,
        walk: impl FnOnce(&mut dyn FnMut(usize, u32) -> bool) -> bool,
    ) -> bool {
        let wanted: Vec<usize> = fields.iter().filter_map(|f| self.config.field_index(f)).collect();
        if wanted.is_empty() {
            return false;
        }
        let mut row = vec![0f32; self.config.fields.len()];
        walk(&mut |i, d| {
            self.post.tf_row(i, &mut row);
            wanted.iter().any(|&w| row.get(w).is_some_and(|&t| t > 0.0))
                && self.ids.get(d as usize).is_some_and(|&id| accept(DocId(id)))
        })
    }

    fn search_with(&self, query: &Analyzed, limit: usize, prune: bool) -> Outcome {
        with_scratch(|s| {
            self.prepare(s, query);
            // The exhaustive reference reads no kept list: it sums the forms' postings itself
            // (its first walk of a word may build the word's list as it does).
            if prune {
                self.attach_lists(s);
            }
            let exact = self.exact_ords(query.text(), &mut s.key);
            let q = std::mem::take(&mut s.query);
            let out = self.select(s, &q, &exact, limit, prune);
            s.query = q;
            out
        })
    }

    /// Ordinals of the documents with an exact key equal to `query`, by (order key, ordinal);
    /// when there are none and `query` is one identifier, of those whose key it equals with one
    /// word in the other number (`list_page` for `list_pages`), or else abbreviated otherwise
    /// (`keys::name_variants`, the nearest tier that names any).
    pub(crate) fn exact_ords(&self, query: &str, buf: &mut String) -> Vec<u32> {
        if self.keys.is_empty() {
            return Vec::new();
        }
        // Adds the ordinals of the live documents with normalized key `key`.
        let add = |ords: &mut Vec<u32>, key: &str| {
            ords.extend(
                self.keys
                    .get(key)
                    .filter_map(|id| self.ids.binary_search(&id).ok().map(|o| o as u32)),
            );
        };
        normalize_key_into(query, buf);
        let mut ords: Vec<u32> = Vec::new();
        add(&mut ords, buf);
        // A tool's name written with one word in the other number (`list_page` for
        // `list_pages`), or abbreviated otherwise (`get_app` for `getApplication`), names it
        // too, when nothing is named exactly.
        if ords.is_empty() && is_identifier(query) {
            for tier in name_variants(query) {
                for key in &tier {
                    add(&mut ords, key);
                }
                if !ords.is_empty() {
                    break;
                }
            }
        }
        ords.sort_unstable_by_key(|&o| (self.orders[o as usize], o));
        ords.dedup();
        ords
    }

    fn select(
        &self,
        s: &mut Scratch,
        q: &Query,
        exact: &[u32],
        limit: usize,
        prune: bool,
    ) -> Outcome {
        let cfg: &Config = &self.config;
        let terms = &q.terms;
        let n_terms = terms.len();
        let n_ans = terms.iter().filter(|t| t.answerable).count();
        let best_possible: f32 =
            terms.iter().filter(|t| t.answerable).map(|t| t.weight * t.idf * (cfg.k1 + 1.0)).sum();
        // The most specific answerable term: highest idf, ties to the earliest.
        let gate_bit = terms
            .iter()
            .enumerate()
            .filter(|(_, t)| t.answerable)
            .fold(None::<(usize, f32)>, |best, (i, t)| match best {
                Some((_, idf)) if idf >= t.idf => best,
                _ => Some((i, t.idf)),
            })
            .map_or(0, |(i, _)| 1u64 << i);
        let mut reason = if n_terms == 0 {
            Some(Abstention::NoTerms)
        } else if n_ans == 0
            || (cfg.require_own_match
                && !terms.iter().any(|t| t.own || (t.origin == Origin::Bigram && t.answerable)))
        {
            Some(Abstention::AllUnknown)
        } else if (n_ans as f32) < cfg.min_answerable * n_terms as f32 {
            Some(Abstention::TooFewAnswerable)
        } else {
            None
        };
        let open = !cfg.gate && cfg.coverage.is_none_or(|c| n_ans < c.min_terms);
        let masks = !open || self.ids.len() < mask_free_min_docs();
        let floor = cfg.min_relative_score * best_possible;
        let ctx = Ctx { open, masks, gate_bit, n_ans, floor, exact };
        let mut passed_gate = false;
        s.hits.clear();
        if reason.is_none() && limit > exact.len() {
            let k = limit - exact.len();
            let (passed, pruned) = self.top_k(s, q, &ctx, k, prune);
            passed_gate = passed;
            if s.hits.is_empty() && pruned && !passed_gate {
                // Pruning skipped documents; whether one of them passed the gate decides
                // between the gate and the floor as the reason for the empty answer.
                passed_gate = self.top_k(s, q, &ctx, k, false).0;
            }
        }
        let mut hits: Vec<Hit> = Vec::with_capacity(limit.min(exact.len() + s.hits.len()));
        for &d in exact.iter().take(limit) {
            let (score, matched) = self.score_doc(q, d);
            hits.push(Hit { doc: DocId(self.ids[d as usize]), score, exact_key: true, matched });
        }
        let mut sorted = std::mem::take(&mut s.hits).into_sorted_vec();
        for c in &sorted {
            hits.push(Hit {
                doc: DocId(self.ids[c.ord as usize]),
                score: c.score,
                exact_key: false,
                matched: if ctx.masks { c.mask } else { self.matched_terms(q, c.ord) },
            });
        }
        sorted.clear();
        s.hits = BinaryHeap::from(sorted);
        if hits.is_empty() && limit > 0 && reason.is_none() {
            reason = Some(if passed_gate { Abstention::Floor } else { Abstention::Gate });
        }
        if !hits.is_empty() || limit == 0 {
            reason = None;
        }
        let in_hits = hits.iter().fold(0u64, |m, h| m | h.matched);
        // One copy of the query's words and stems for all its terms.
        let text: Arc<str> = Arc::from(q.text.as_str());
        let terms = terms
            .iter()
            .enumerate()
            .map(|(i, t)| QueryTerm {
                status: if !t.answerable {
                    TermStatus::Unknown
                } else if in_hits >> i & 1 == 1 {
                    TermStatus::Matched
                } else {
                    TermStatus::Filtered
                },
                text: Arc::clone(&text),
                start: t.start,
                split: t.split,
                end: t.end,
                origin: t.origin,
                weight: t.weight,
                df: t.df,
                idf: t.idf,
                corrected: t.corrected,
                corrections: if t.corrected {
                    self.corrections(q.forms(t))
                } else {
                    Box::default()
                },
            })
            .collect();
        Outcome { hits, terms, abstention: reason, best_possible }
    }
}

impl Index {
    /// The words of the [`Relation::Typo`] forms of `forms` at the full typo weight (the
    /// catalog words one edit away, not their stems' other words) that some document has,
    /// sorted and distinct. A word whose documents were all removed may keep its slot until
    /// the vocabulary is compacted; it is not a correction, so the answer does not depend on
    /// the history of updates.
    fn corrections(&self, forms: &[Form]) -> Box<[Box<str>]> {
        let typo = self.config.typo_weight.to_bits();
        let mut words: Vec<Box<str>> = forms
            .iter()
            .filter(|f| f.relation == Relation::Typo && f.weight.to_bits() == typo)
            .flat_map(|f| f.start..f.end)
            .filter(|&slot| !self.post.range(slot, slot + 1).is_empty())
            .map(|slot| self.vocab.slot_word(slot).into())
            .collect();
        words.sort_unstable();
        words.dedup();
        words.into_boxed_slice()
    }
}

/// The merged list of `forms`: each document's weighted pseudo-frequencies summed over the
/// forms in the order [`Index::walk`] sums them (the same `f32` bits), saturated with `k1`,
/// in document order; `visit(d, sat)` sees each document as it is listed. `xacc` and
/// `bitmap` (one bit per document) are all zeros before and after.
fn merge_forms(
    post: &crate::postings::Postings,
    forms: &[Form],
    k1: f32,
    xacc: &mut [f32],
    bitmap: &mut [u64],
    mut visit: impl FnMut(usize, f32),
) -> Merged {
    for f in forms {
        let r = post.range(f.start, f.end);
        let w = f.weight;
        for (d, pf) in post.docs_pfs(r) {
            let du = d as usize;
            xacc[du] += w * pf;
            if let Some(b) = bitmap.get_mut(du / 64) {
                *b |= 1 << (du % 64);
            }
        }
    }
    let len = bitmap.iter().map(|b| b.count_ones() as usize).sum();
    let mut entries = Vec::with_capacity(len);
    let mut max_sat = 0f32;
    let mut min_sat = f32::INFINITY;
    for (wi, word) in bitmap.iter_mut().enumerate() {
        let mut bits = std::mem::take(word);
        while bits != 0 {
            let d = wi * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let x = std::mem::replace(&mut xacc[d], 0.0);
            if x > 0.0 {
                let sat = saturate(x, k1);
                visit(d, sat);
                if sat > max_sat {
                    max_sat = sat;
                }
                if sat < min_sat {
                    min_sat = sat;
                }
                entries.push((d as u32, sat));
            }
        }
    }
    Merged::new(entries, max_sat, min_sat)
}

/// Whether a document that matched the query terms in `mask` passes the gate and coverage.
/// Monotone: matching more terms never makes a document fail.
pub(crate) fn passes_gate(cfg: &Config, mask: u64, gate_bit: u64, n_ans: usize) -> bool {
    let covered = |c: crate::config::Coverage| {
        n_ans >= c.min_terms && mask.count_ones() as f32 >= c.fraction * n_ans as f32
    };
    match (cfg.gate, cfg.coverage) {
        (false, None) => true,
        (true, None) => mask & gate_bit != 0,
        (false, Some(c)) => n_ans < c.min_terms || covered(c),
        (true, Some(c)) => mask & gate_bit != 0 || covered(c),
    }
}
