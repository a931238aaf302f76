//! A reference scorer written from the crate docs (lib.rs: *Scoring*, *Related terms*,
//! *Queries*, *Ranking order*, *Abstention*; [`Expander`](crate::Expander)), and the law
//! that every search agrees with it: the pruned and the exhaustive search, with and without
//! the search cache and matched-term masks, on a fresh index and after updates, return the
//! hits the reference ranks, in its order, with scores equal within 1e-5 relative.
//!
//! The reference shares nothing with the index but the analyzer (tokens, stems) and
//! `normalize_key` (the documented key comparison). It keeps the live documents' texts,
//! scores every one of them in `f64` by the formula, and sorts.
//!
//! What the generator leaves out, so what this law does not cover:
//! - particle joining (no particle is a word of the generator) and past-tense query weights
//!   (no word ends in `ed`): the reference does not model them;
//! - identifier queries of two words or more (keys differ from every query but `k3`), so
//!   the plural and abbreviation variants of exact keys are not modeled;
//! - identifier splitting (every word is a plain lowercase word, one token of origin
//!   `Whole`), so origin weights are all 1;
//! - the gate, coverage, `min_answerable` and the floor (all off); `require_own_match` is
//!   on, as by default;
//! - more than 64 distinct query terms.
//!
//! Two documents whose reference scores are within the tolerance may come in either order
//! (the index sums in `f32`): at such a near-tie the law checks the score, not the document.

use super::Synonyms;
use crate::keys::normalize_key;
use crate::{DocId, Document, Expander, Index, Outcome};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use toolsift_text::{Analyzer, within_one_edit};

/// Skewed: a few words are in most documents, most in few. Stems and stem prefixes
/// (`repo`, `repos`, `report`, `repository`), synonyms of [`Synonyms`], and words one edit
/// from each other (`file`/`files`, `pod`/`pods`).
pub(super) const WORDS: &[&str] = &[
    "list",
    "list",
    "list",
    "lists",
    "listing",
    "get",
    "get",
    "create",
    "issue",
    "issues",
    "repo",
    "repos",
    "repository",
    "repositories",
    "report",
    "delete",
    "remove",
    "show",
    "project",
    "alpha",
    "beta",
    "file",
    "files",
    "filesystem",
    "message",
    "messages",
    "channel",
    "zebra",
    "pod",
    "pods",
];

/// Query words besides [`WORDS`]: typos of catalog words, words the catalog lacks whose
/// stems extend or shorten catalog stems, and unknown words.
const QUERY_ONLY: &[&str] = &[
    "chanel",
    "isssue",
    "mesage",
    "reposiotry",
    "reposit",
    "filesys",
    "listings",
    "projects",
    "unknown",
    "zebras",
    "k3",
];

const WEIGHTS: [f64; 3] = [3.0, 1.5, 1.0];
const B: f64 = 0.75;
const K1: f64 = 1.2;
const STEM: f64 = 0.3;
const PREFIX: f64 = 0.3;
const EXPANSION: f64 = 0.5;
const TYPO: f64 = 0.3;
const TYPO_MIN_CHARS: usize = 5;
const PREFIX_MIN_CHARS: usize = 4;

/// A live document of the model: its id, field texts, key and order key.
#[derive(Debug, Clone)]
struct Doc {
    id: DocId,
    fields: [String; 3],
    key: String,
    order: u64,
}

/// One document's analyzed fields: `tf[f][word]` and `len[f]`.
struct Analyzed {
    tf: [BTreeMap<String, f64>; 3],
    len: [f64; 3],
}

/// The reference: the live documents' statistics, from their texts alone.
struct Reference<'a> {
    analyzer: &'a Analyzer,
    expander: Option<&'a dyn Expander>,
    docs: &'a [Doc],
    analyzed: Vec<Analyzed>,
    /// Live catalog words and their stems.
    stem_of: BTreeMap<String, String>,
    avg: [f64; 3],
}

impl<'a> Reference<'a> {
    fn new(analyzer: &'a Analyzer, expander: Option<&'a dyn Expander>, docs: &'a [Doc]) -> Self {
        let mut stem_of = BTreeMap::new();
        let analyzed: Vec<Analyzed> = docs
            .iter()
            .map(|d| {
                let mut a = Analyzed { tf: Default::default(), len: [0.0; 3] };
                for f in 0..3 {
                    analyzer.for_each_token(&d.fields[f], |t| {
                        // Every origin weighs 1 by default, in tf and len alike.
                        *a.tf[f].entry(t.word.to_owned()).or_insert(0.0) += 1.0;
                        a.len[f] += 1.0;
                        stem_of.insert(t.word.to_owned(), t.stem.to_owned());
                    });
                }
                a
            })
            .collect();
        let n = docs.len().max(1) as f64;
        let avg = [0, 1, 2].map(|f| analyzed.iter().map(|a| a.len[f]).sum::<f64>() / n);
        Reference { analyzer, expander, docs, analyzed, stem_of, avg }
    }

    /// `pf(c, d) = Σ_f w_f · tf(c, d, f) / (1 − b + b · len(d, f) / avg_f)`.
    fn pf(&self, c: &str, d: usize) -> f64 {
        let a = &self.analyzed[d];
        (0..3)
            .map(|f| {
                let tf = a.tf[f].get(c).copied().unwrap_or(0.0);
                let norm =
                    if self.avg[f] > 0.0 { 1.0 - B + B * a.len[f] / self.avg[f] } else { 1.0 };
                WEIGHTS[f] * tf / norm
            })
            .sum()
    }

    fn contains(&self, d: usize, c: &str) -> bool {
        self.analyzed[d].tf.iter().any(|t| t.contains_key(c))
    }

    /// The documents containing any of `words`.
    fn df_of<'w>(&self, words: impl Iterator<Item = &'w String> + Clone) -> usize {
        (0..self.docs.len()).filter(|&d| words.clone().any(|c| self.contains(d, c))).count()
    }

    fn idf(&self, df: usize) -> f64 {
        let (n, df) = (self.docs.len() as f64, df as f64);
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The live words of stem `s`.
    fn words_of(&self, s: &str) -> Vec<String> {
        self.stem_of.iter().filter(|(_, st)| st.as_str() == s).map(|(w, _)| w.clone()).collect()
    }

    fn stems(&self) -> BTreeSet<&str> {
        self.stem_of.values().map(String::as_str).collect()
    }

    /// One query term `(word, stem)`: its forms `(catalog word, weight)`, whether its own
    /// forms match, whether it is answerable, and its idf.
    fn term(&self, word: &str, stem: &str) -> (Vec<(String, f64)>, bool, bool, f64) {
        let stems = self.stems();
        let chars = |s: &str| s.chars().count();
        let mut own: Vec<(String, f64)> = Vec::new();
        // Exact and same stem.
        for c in self.words_of(stem) {
            own.push((c.clone(), if c == word { 1.0 } else { STEM }));
        }
        let known = !own.is_empty();
        let own_stem_df = if known { self.df_of(own.iter().map(|(c, _)| c)) } else { 0 };
        // Stem prefixes: a shorter catalog stem (scaled by its idf over the term's when the
        // catalog has the term's stem), a longer one extending it.
        let mut related_stems = vec![stem.to_owned()];
        for &s in &stems {
            if s == stem || chars(s) == chars(stem) {
                continue;
            }
            let (shorter, longer) = if chars(s) < chars(stem) { (s, stem) } else { (stem, s) };
            if !longer.starts_with(shorter) || chars(shorter) < PREFIX_MIN_CHARS {
                continue;
            }
            let words = self.words_of(s);
            let mut w = PREFIX;
            if shorter == s && known {
                let df = self.df_of(words.iter());
                w *= (self.idf(df) / self.idf(own_stem_df)).min(1.0);
            }
            related_stems.push(s.to_owned());
            own.extend(words.into_iter().map(|c| (c, w)));
        }
        // Expansions: each emitted word's stem, at the largest weight emitting it, unless
        // the term's own forms already hold that stem.
        let mut expansions: BTreeMap<String, f64> = BTreeMap::new();
        if let Some(e) = self.expander {
            e.expand(word, stem, &mut |e: &str, ew: f32| {
                if e.is_empty()
                    || e == word
                    || ew.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
                {
                    return;
                }
                let es = self.analyzer.stem(e).into_owned();
                if related_stems.contains(&es) || !stems.contains(es.as_str()) {
                    return;
                }
                let w = EXPANSION * f64::from(ew.min(1.0));
                let slot = expansions.entry(es).or_insert(0.0);
                *slot = slot.max(w);
            });
        }
        let exp: Vec<(String, f64)> = expansions
            .iter()
            .flat_map(|(s, &w)| self.words_of(s).into_iter().map(move |c| (c, w)))
            .collect();
        let mut own_any = !own.is_empty();
        let exp_any = !exp.is_empty();
        // A typo: neither the word nor its stem in the catalog, nothing from the expander, at
        // least 5 lowercase ASCII letters and digits. The catalog words one edit away with
        // the same first letter, at the typo weight, the other words of their stems at the
        // typo weight times the stem weight; expansions dropped.
        let corrected = !known
            && !exp_any
            && word.len() >= TYPO_MIN_CHARS
            && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        let mut forms = own;
        let own_len =
            |forms: &[(String, f64)]| if corrected { forms.len() } else { forms.len() - exp.len() };
        if corrected {
            let first = word.as_bytes()[0];
            let is_typo =
                |c: &str| c != word && c.as_bytes()[0] == first && within_one_edit(c, word);
            for &s in &stems {
                let words = self.words_of(s);
                if words.iter().any(|c| is_typo(c)) {
                    for c in words {
                        let w = if is_typo(&c) { TYPO } else { TYPO * STEM };
                        forms.push((c, w));
                    }
                }
            }
            own_any = !forms.is_empty();
        } else {
            forms.extend(exp.iter().cloned());
        }
        let answerable = own_any || exp_any;
        // df: the stem's documents; else those of the own forms; else of the expansions.
        let df = if own_stem_df > 0 {
            own_stem_df
        } else if own_any {
            self.df_of(forms[..own_len(&forms)].iter().map(|(c, _)| c))
        } else {
            self.df_of(exp.iter().map(|(c, _)| c))
        };
        let idf = if answerable { self.idf(df) } else { 0.0 };
        (forms, own_any, answerable, idf)
    }

    /// The ranked hits `(doc, score, exact key)` of `query`, all of them.
    fn search(&self, query: &str) -> Vec<(DocId, f64, bool)> {
        let mut terms: Vec<(String, String)> = Vec::new();
        self.analyzer.for_each_token(query, |t| {
            if !terms.iter().any(|(w, _)| w == t.word) {
                terms.push((t.word.to_owned(), t.stem.to_owned()));
            }
        });
        let terms: Vec<_> = terms.iter().map(|(w, s)| self.term(w, s)).collect();
        let key = normalize_key(query);
        let exact = |d: &Doc| !key.is_empty() && normalize_key(&d.key) == key;
        let abstain = terms.is_empty() || !terms.iter().any(|t| t.2) || !terms.iter().any(|t| t.1);
        let mut hits: Vec<(DocId, f64, bool, u64)> = Vec::new();
        for (d, doc) in self.docs.iter().enumerate() {
            let score: f64 = terms
                .iter()
                .map(|(forms, _, _, idf)| {
                    let x: f64 = forms.iter().map(|(c, w)| w * self.pf(c, d)).sum();
                    if x > 0.0 { idf * x * (K1 + 1.0) / (x + K1) } else { 0.0 }
                })
                .sum();
            let e = exact(doc);
            if e || (!abstain && score > 0.0) {
                hits.push((doc.id, score, e, doc.order));
            }
        }
        hits.sort_by(|a, b| {
            b.2.cmp(&a.2)
                .then(if a.2 { std::cmp::Ordering::Equal } else { b.1.total_cmp(&a.1) })
                .then(a.3.cmp(&b.3))
                .then(a.0.cmp(&b.0))
        });
        hits.into_iter().map(|(d, s, e, _)| (d, s, e)).collect()
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1e-6)
}

/// Holds `got` (a search's first `limit` hits) to `all` (the reference's whole ranking):
/// the same number of hits, the same exact-key flags, each score within the tolerance of
/// the reference's at that position, and the reference's document there, or one the
/// reference scores within the tolerance of it (a near-tie, which `f32` sums may order
/// either way).
fn agrees(
    got: &Outcome,
    all: &[(DocId, f64, bool)],
    limit: usize,
    what: &str,
) -> Result<(), TestCaseError> {
    let want = &all[..all.len().min(limit)];
    let ctx = || format!("{what}\n got: {:?}\nwant: {want:?}", got.hits());
    prop_assert_eq!(got.hits().len(), want.len(), "{}", ctx());
    for (i, (h, w)) in got.hits().iter().zip(want).enumerate() {
        prop_assert_eq!(h.is_exact_key(), w.2, "position {}: {}", i, ctx());
        prop_assert!(close(f64::from(h.score()), w.1), "position {i} score: {}", ctx());
        if h.doc() != w.0 {
            prop_assert!(!w.2, "exact-key order at {i}: {}", ctx());
            let tie = all.iter().find(|o| o.0 == h.doc()).is_some_and(|o| !o.2 && close(o.1, w.1));
            prop_assert!(tie, "position {i}: {}", ctx());
        }
    }
    Ok(())
}

/// `f`'s result with every search on this thread keeping no matched-term masks where the
/// gate is open, as in a large index.
fn mask_free<R>(f: impl FnOnce() -> R) -> R {
    crate::search::MASK_FREE_MIN_DOCS_HERE.with(|n| n.set(Some(0)));
    let r = f();
    crate::search::MASK_FREE_MIN_DOCS_HERE.with(|n| n.set(None));
    r
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..7).prop_map(|w| w.join(" "))
}

fn query() -> impl Strategy<Value = String> {
    let word = prop_oneof![3 => prop::sample::select(WORDS), 1 => prop::sample::select(QUERY_ONLY)];
    prop::collection::vec(word, 1..5).prop_map(|w| w.join(" "))
}

fn docs() -> impl Strategy<Value = Vec<([String; 3], u64)>> {
    prop::collection::vec(
        ((text(), text(), text()).prop_map(|(a, b, c)| [a, b, c]), 0..4u64),
        1..40,
    )
}

fn build(expander: bool, budget: usize) -> Index {
    let mut b = Index::builder().search_cache_budget(budget);
    if expander {
        b = b.expander(Arc::new(Synonyms));
    }
    let mut ix = b.build().expect("valid settings");
    ix.cache.min_postings = 1;
    ix
}

fn add(ix: &mut Index, model: &mut Vec<Doc>, specs: &[([String; 3], u64)], first: usize) {
    let ids = ix
        .add(specs.iter().enumerate().map(|(i, (f, order))| {
            Document::new()
                .field("name", f[0].as_str())
                .field("summary", f[1].as_str())
                .field("details", f[2].as_str())
                .key(format!("k{}", (first + i) % 7))
                .order(*order)
        }))
        .expect("known fields");
    for (i, (id, (f, order))) in ids.into_iter().zip(specs).enumerate() {
        model.push(Doc {
            id,
            fields: f.clone(),
            key: format!("k{}", (first + i) % 7),
            order: *order,
        });
    }
}

/// Every search path of `ix` (and of `plain`, the same documents without a search cache)
/// against the reference, for `q` at `limit`.
fn check(
    ix: &Index,
    plain: &Index,
    model: &[Doc],
    expander: bool,
    q: &str,
    limit: usize,
) -> Result<(), TestCaseError> {
    let analyzer = ix.analyzer();
    let syn = Synonyms;
    let reference = Reference::new(analyzer, expander.then_some(&syn as &dyn Expander), model);
    let want = reference.search(q);
    agrees(&ix.search(q, limit), &want, limit, &format!("pruned {q:?} limit {limit}"))?;
    agrees(&ix.search(q, limit), &want, limit, &format!("pruned again (cached) {q:?}"))?;
    agrees(&ix.search_exhaustive(q, limit), &want, limit, &format!("exhaustive {q:?}"))?;
    agrees(&plain.search(q, limit), &want, limit, &format!("no cache {q:?}"))?;
    agrees(
        &plain.search_exhaustive(q, limit),
        &want,
        limit,
        &format!("no cache, exhaustive {q:?}"),
    )?;
    let free = mask_free(|| (ix.search(q, limit), ix.search_exhaustive(q, limit)));
    agrees(&free.0, &want, limit, &format!("without masks {q:?}"))?;
    agrees(&free.1, &want, limit, &format!("without masks, exhaustive {q:?}"))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    /// Every search of a fresh index ranks as the reference does.
    #[test]
    fn searches_agree_with_the_reference(
        expander in any::<bool>(),
        specs in docs(),
        queries in prop::collection::vec(query(), 1..6),
        limit in prop_oneof![1..6usize, Just(usize::MAX)],
    ) {
        let (mut ix, mut plain) = (build(expander, crate::DEFAULT_SEARCH_CACHE_BUDGET), build(expander, 0));
        let (mut model, mut unused) = (Vec::new(), Vec::new());
        add(&mut ix, &mut model, &specs, 0);
        add(&mut plain, &mut unused, &specs, 0);
        for q in &queries {
            check(&ix, &plain, &model, expander, q, limit)?;
        }
    }

    /// After removals and additions, every search still ranks as the reference does on the
    /// documents left: updates keep every statistic exact.
    #[test]
    fn searches_after_updates_agree_with_the_reference(
        expander in any::<bool>(),
        specs in docs(),
        removed in prop::collection::vec(any::<prop::sample::Index>(), 0..10),
        added in docs(),
        queries in prop::collection::vec(query(), 1..5),
        limit in prop_oneof![1..6usize, Just(usize::MAX)],
    ) {
        let (mut ix, mut plain) = (build(expander, crate::DEFAULT_SEARCH_CACHE_BUDGET), build(expander, 0));
        let (mut model, mut unused) = (Vec::new(), Vec::new());
        add(&mut ix, &mut model, &specs, 0);
        add(&mut plain, &mut unused, &specs, 0);
        // Cached words and lists from before the updates must not survive them.
        for q in &queries {
            let _ = ix.search(q, limit);
        }
        let gone: BTreeSet<DocId> = removed.iter().map(|i| model[i.index(model.len())].id).collect();
        let gone_v: Vec<DocId> = gone.iter().copied().collect();
        ix.remove(&gone_v);
        plain.remove(&gone_v);
        model.retain(|d| !gone.contains(&d.id));
        add(&mut ix, &mut model, &added, specs.len());
        add(&mut plain, &mut unused, &added, specs.len());
        for q in &queries {
            check(&ix, &plain, &model, expander, q, limit)?;
        }
    }
}

/// A case the generator seldom reaches: a typo whose only catalog word one edit away was
/// removed, while another word of its stem stays. Removed words match nothing, and an
/// updated index scores like a fresh one: the typo scan skips words no document has.
#[test]
fn typo_of_a_removed_word_matches_nothing() {
    let specs = [
        (["message".to_owned(), String::new(), String::new()], 0),
        (["messages alpha".to_owned(), String::new(), String::new()], 1),
    ];
    let (mut ix, mut model) = (build(false, 0), Vec::new());
    add(&mut ix, &mut model, &specs, 0);
    let gone = model[0].id;
    ix.remove(&[gone]);
    model.retain(|d| d.id != gone);
    let want = Reference::new(ix.analyzer(), None, &model).search("mesage");
    assert!(want.is_empty());
    assert_eq!(ix.search("mesage", 5).hits(), &[], "a removed word's typo matched");
}
