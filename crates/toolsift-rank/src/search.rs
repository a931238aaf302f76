//! Searching: query analysis, BM25F accumulation over postings, abstention, and top-k.

use crate::config::{Config, origin_slot};
use crate::document::DocId;
use crate::index::Index;
use crate::keys::normalize_key_into;
use crate::vocab::Form;
use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use toolsift_text::Origin;

/// The result of [`Index::search`]: hits, the query's terms and, when empty, why.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    hits: Vec<Hit>,
    terms: Vec<QueryTerm>,
    abstention: Option<Abstention>,
    best_possible: f32,
}

impl Outcome {
    /// The hits, best first: exact-key matches first (by ascending [`DocId`]), then by score
    /// descending, ties by ascending [`DocId`] (insertion order).
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
    /// Whether the query equals one of the document's exact keys.
    pub fn is_exact_key(&self) -> bool {
        self.exact_key
    }
    /// Indices into [`Outcome::terms`] of the terms this document matched, ascending.
    pub fn matched(&self) -> impl Iterator<Item = usize> + use<> {
        let mask = self.matched;
        (0..64).filter(move |i| mask >> i & 1 == 1)
    }
}

/// A distinct scored query term.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryTerm {
    word: String,
    stem: String,
    origin: Origin,
    weight: f32,
    df: u32,
    idf: f32,
    status: TermStatus,
}

impl QueryTerm {
    /// The analyzed word (lowercased and folded by the analyzer).
    pub fn word(&self) -> &str {
        &self.word
    }
    /// Its stem.
    pub fn stem(&self) -> &str {
        &self.stem
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
    /// there are none, those containing any related form. 0 for an unknown term.
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
    pub(crate) word: String,
    pub(crate) stem: String,
    pub(crate) origin: Origin,
    pub(crate) weight: f32,
    pub(crate) df: u32,
    pub(crate) idf: f32,
    pub(crate) answerable: bool,
}

/// The analyzed query.
#[derive(Debug, Default)]
pub(crate) struct Prepared {
    pub(crate) terms: Vec<PTerm>,
}

/// Reusable per-thread buffers; between searches `score` and `mask` are all zero.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Accumulated pseudo-frequency of the current query term, valid where `stamp == epoch`.
    pf: Vec<f32>,
    stamp: Vec<u32>,
    epoch: u32,
    pub(crate) score: Vec<f32>,
    pub(crate) mask: Vec<u64>,
    /// Documents touched by the current query term.
    term_docs: Vec<u32>,
    /// Documents touched by any query term.
    pub(crate) docs: Vec<u32>,
    pub(crate) forms: Vec<Form>,
    heap: BinaryHeap<Cand>,
    pub(crate) key: String,
}

impl Scratch {
    fn ensure(&mut self, n: usize) {
        if self.score.len() < n {
            self.pf.resize(n, 0.0);
            self.stamp.resize(n, 0);
            self.score.resize(n, 0.0);
            self.mask.resize(n, 0);
        }
    }

    fn next_epoch(&mut self) -> u32 {
        if self.epoch == u32::MAX {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }

    /// Restores the all-zero invariant.
    pub(crate) fn clear(&mut self) {
        for &d in &self.docs {
            self.score[d as usize] = 0.0;
            self.mask[d as usize] = 0;
        }
        self.docs.clear();
    }
}

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch (moved out and back, so re-entrance or a destroyed
/// thread-local only costs a fresh scratch, never a panic).
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = SCRATCH.try_with(Cell::take).unwrap_or_default();
    let r = f(&mut s);
    let _ = SCRATCH.try_with(move |c| c.set(s));
    r
}

/// A top-k candidate; `Ord` puts the WORST candidate greatest, so a max-heap evicts it first.
#[derive(Debug, Clone, Copy)]
struct Cand {
    score: f32,
    ord: u32,
}

impl Ord for Cand {
    fn cmp(&self, other: &Cand) -> Ordering {
        other.score.total_cmp(&self.score).then(self.ord.cmp(&other.ord))
    }
}
impl PartialOrd for Cand {
    fn partial_cmp(&self, other: &Cand) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Cand {
    fn eq(&self, other: &Cand) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Cand {}

/// BM25 inverse document frequency, always positive.
pub(crate) fn idf(n: usize, df: u32) -> f32 {
    let n = n as f64;
    let df = f64::from(df).min(n);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// One query term's score in a document: `qw · idf · x (k1 + 1) / (x + k1)`.
#[inline]
pub(crate) fn term_score(weight: f32, idf: f32, x: f32, k1: f32) -> f32 {
    if x <= 0.0 {
        return 0.0;
    }
    weight * idf * (x * (k1 + 1.0) / (x + k1))
}

impl Index {
    /// Analyzes a query into its distinct terms (the analyzer has dropped stopwords).
    pub(crate) fn prepare(&self, query: &str) -> Prepared {
        let cfg = &self.config;
        let mut terms: Vec<PTerm> = Vec::new();
        self.analyzer.for_each_token(query, |tok| {
            let w = cfg.query_origin_weights[origin_slot(tok.origin)];
            if let Some(t) = terms.iter_mut().find(|t| t.word == tok.word) {
                if w > t.weight {
                    t.weight = w;
                    t.origin = tok.origin;
                }
            } else if terms.len() < cfg.max_query_terms {
                terms.push(PTerm {
                    word: tok.word.to_owned(),
                    stem: tok.stem.to_owned(),
                    origin: tok.origin,
                    weight: w,
                    df: 0,
                    idf: 0.0,
                    answerable: false,
                });
            }
        });
        Prepared { terms }
    }

    /// Accumulates every term's BM25F contribution into `s.score`, sets the match bits in
    /// `s.mask`, lists touched documents in `s.docs`, and fills each term's df, idf and
    /// answerability. The caller must call [`Scratch::clear`] afterwards.
    pub(crate) fn accumulate(&self, s: &mut Scratch, terms: &mut [PTerm]) {
        let cfg = &self.config;
        let n = self.ids.len();
        s.ensure(n);
        let k1 = cfg.k1;
        for (i, term) in terms.iter_mut().enumerate() {
            s.forms.clear();
            self.vocab.related(&term.word, &term.stem, cfg.prefix_min_chars, &mut s.forms);
            s.forms.retain(|f| cfg.relation_weight(f.relation) > 0.0);
            let stem_df =
                self.vocab.stem_id(&term.stem).map_or(0, |st| self.vocab.stems[st as usize].df);
            let bit = 1u64 << i;
            if let [form] = s.forms[..] {
                // One form (the common case): score its postings directly.
                let rw = cfg.relation_weight(form.relation);
                let postings = &self.vocab.terms[form.term as usize].postings;
                term.answerable = !postings.is_empty();
                term.df = if stem_df > 0 { stem_df } else { postings.len() as u32 };
                term.idf = if term.answerable { idf(n, term.df) } else { 0.0 };
                for p in postings {
                    let c = term_score(term.weight, term.idf, rw * p.pf, k1);
                    if c <= 0.0 {
                        continue;
                    }
                    let d = p.doc as usize;
                    s.score[d] += c;
                    if s.mask[d] == 0 {
                        s.docs.push(p.doc);
                    }
                    s.mask[d] |= bit;
                }
                continue;
            }
            // Several forms: accumulate each document's pseudo-frequency over the forms
            // before saturating it.
            let epoch = s.next_epoch();
            s.term_docs.clear();
            for form in &s.forms {
                let rw = cfg.relation_weight(form.relation);
                for p in &self.vocab.terms[form.term as usize].postings {
                    let d = p.doc as usize;
                    if s.stamp[d] == epoch {
                        s.pf[d] += rw * p.pf;
                    } else {
                        s.stamp[d] = epoch;
                        s.pf[d] = rw * p.pf;
                        s.term_docs.push(p.doc);
                    }
                }
            }
            let union = s.term_docs.len() as u32;
            term.answerable = union > 0;
            term.df = if stem_df > 0 { stem_df } else { union };
            term.idf = if term.answerable { idf(n, term.df) } else { 0.0 };
            for &d in &s.term_docs {
                let d = d as usize;
                let c = term_score(term.weight, term.idf, s.pf[d], k1);
                if c <= 0.0 {
                    continue;
                }
                s.score[d] += c;
                if s.mask[d] == 0 {
                    s.docs.push(d as u32);
                }
                s.mask[d] |= bit;
            }
        }
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
        let Prepared { mut terms } = self.prepare(query);
        with_scratch(|s| {
            let exact = self.exact_ords(query, &mut s.key);
            self.accumulate(s, &mut terms);
            let out = self.select(s, terms, &exact, limit);
            s.clear();
            out
        })
    }

    /// Ordinals of the documents with an exact key equal to `query`, ascending.
    pub(crate) fn exact_ords(&self, query: &str, buf: &mut String) -> Vec<u32> {
        if self.keys.map.is_empty() {
            return Vec::new();
        }
        normalize_key_into(query, buf);
        let mut ords: Vec<u32> = self
            .keys
            .get(buf)
            .iter()
            .filter_map(|&id| self.ids.binary_search(&id).ok().map(|o| o as u32))
            .collect();
        ords.sort_unstable();
        ords.dedup();
        ords
    }

    fn select(
        &self,
        s: &mut Scratch,
        mut terms: Vec<PTerm>,
        exact: &[u32],
        limit: usize,
    ) -> Outcome {
        let cfg: &Config = &self.config;
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
        } else if n_ans == 0 {
            Some(Abstention::AllUnknown)
        } else if (n_ans as f32) < cfg.min_answerable * n_terms as f32 {
            Some(Abstention::TooFewAnswerable)
        } else {
            None
        };
        let floor = cfg.min_relative_score * best_possible;
        let mut passed_gate = false;
        s.heap.clear();
        if reason.is_none() && limit > exact.len() {
            let k = limit - exact.len();
            for &d in &s.docs {
                let m = s.mask[d as usize];
                if !passes_gate(cfg, m, gate_bit, n_ans) {
                    continue;
                }
                passed_gate = true;
                let score = s.score[d as usize];
                if score < floor || exact.contains(&d) {
                    continue;
                }
                let cand = Cand { score, ord: d };
                if s.heap.len() < k {
                    s.heap.push(cand);
                } else if let Some(mut worst) = s.heap.peek_mut()
                    && cand < *worst
                {
                    *worst = cand;
                }
            }
        }
        let mut hits: Vec<Hit> = Vec::with_capacity(limit.min(exact.len() + s.heap.len()));
        for &d in exact.iter().take(limit) {
            let d = d as usize;
            hits.push(Hit {
                doc: DocId(self.ids[d]),
                score: s.score.get(d).copied().unwrap_or(0.0),
                exact_key: true,
                matched: s.mask.get(d).copied().unwrap_or(0),
            });
        }
        let heap = std::mem::take(&mut s.heap);
        let mut sorted = heap.into_sorted_vec();
        for c in &sorted {
            hits.push(Hit {
                doc: DocId(self.ids[c.ord as usize]),
                score: c.score,
                exact_key: false,
                matched: s.mask[c.ord as usize],
            });
        }
        sorted.clear();
        s.heap = BinaryHeap::from(sorted);
        if hits.is_empty() && limit > 0 && reason.is_none() {
            reason = Some(if passed_gate { Abstention::Floor } else { Abstention::Gate });
        }
        if !hits.is_empty() || limit == 0 {
            reason = None;
        }
        let in_hits = hits.iter().fold(0u64, |m, h| m | h.matched);
        let terms = terms
            .drain(..)
            .enumerate()
            .map(|(i, t)| QueryTerm {
                status: if !t.answerable {
                    TermStatus::Unknown
                } else if in_hits >> i & 1 == 1 {
                    TermStatus::Matched
                } else {
                    TermStatus::Filtered
                },
                word: t.word,
                stem: t.stem,
                origin: t.origin,
                weight: t.weight,
                df: t.df,
                idf: t.idf,
            })
            .collect();
        Outcome { hits, terms, abstention: reason, best_possible }
    }
}

/// Whether a document that matched the query terms in `mask` passes the gate and coverage.
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
