//! Unit tests of private internals: key normalization, the vocabulary's related terms, the
//! packed term frequencies of the postings, the merged lists, the pruning's score cut; and
//! (`reference`) every search against a reference scorer written from the crate docs.

use crate::config::{DEFAULT_SEARCH_CACHE_BUDGET, Relation};
use crate::keys::normalize_key;
use crate::postings::{Postings, copy_code, encode, pseudo_frequency};
use crate::vocab::{Form, Vocab};
use crate::{Document, Index, Outcome};
use std::sync::Arc;

#[test]
fn key_normalization() {
    for (input, want) in [
        ("create_issue", "createissue"),
        ("Create-Issue", "createissue"),
        ("  create  issue ", "createissue"),
        ("createIssue", "createissue"),
        ("CreatePullRequest", "createpullrequest"),
        ("mcp__github__create_issue", "mcpgithubcreateissue"),
        ("github/create.issue", "github/createissue"),
        ("-_.", ""),
        ("ÉTAT", "état"),
        ("Été-Nouveau", "éténouveau"),
    ] {
        assert_eq!(normalize_key(input), want, "input {input:?}");
    }
}

fn vocab(words: &[(&str, &str)]) -> Vocab {
    let mut v = Vocab::default();
    for &(w, s) in words {
        v.intern(w, s);
    }
    v.finish();
    v
}

/// The forms' words, one per slot of each form's range.
#[track_caller]
fn check_related(v: &Vocab, word: &str, stem: &str, want: &[(&str, Relation)]) {
    let mut out: Vec<Form> = Vec::new();
    v.related(word, stem, 4, |_| 1.0, 100, &mut out);
    let got: Vec<(&str, Relation)> = out
        .iter()
        .flat_map(|f| {
            (f.start..f.end).map(|slot| (v.words.get(v.slot_term[slot as usize]), f.relation))
        })
        .collect();
    assert_eq!(got, want, "related({word:?}, {stem:?})");
}

#[test]
fn a_shorter_stem_counts_with_its_own_idf() {
    let mut ix = Index::builder().build().expect("valid settings");
    ix.add(
        (0..10).map(|i| {
            Document::new().field("name", if i == 0 { "readme file" } else { "read file" })
        }),
    )
    .expect("known fields");
    let n = ix.ids.len();
    let weights = |word: &str| {
        let mut stem = String::new();
        ix.analyzer().for_each_token(word, |t| stem = t.stem.to_owned());
        let mut out: Vec<Form> = Vec::new();
        ix.vocab.related(word, &stem, 4, |_| 1.0, n, &mut out);
        out.iter().map(|f| (f.relation, f.weight)).collect::<Vec<_>>()
    };
    // `readme` (1 document) reaches `read` (9) as a prefix, at `read`'s idf over its own.
    let scaled = crate::score::idf(n, 9) / crate::score::idf(n, 1);
    assert!(scaled < 0.5, "{scaled}");
    assert_eq!(weights("readme"), [(Relation::Exact, 1.0), (Relation::Prefix, scaled)]);
    // A longer stem is a more specific word: `read` reaches `readme` at the full weight.
    assert_eq!(weights("read"), [(Relation::Exact, 1.0), (Relation::Prefix, 1.0)]);
}

#[test]
fn related_terms_from_sorted_tables() {
    let v = vocab(&[
        ("repository", "repository"),
        ("repositories", "repository"),
        ("repos", "repo"),
        ("repo", "repo"),
        ("report", "report"),
        ("rep", "rep"),
        ("list", "list"),
    ]);
    use Relation::*;
    check_related(
        &v,
        "repo",
        "repo",
        &[
            ("repo", Exact),
            ("repos", Stem),
            ("report", Prefix),
            ("repositories", Prefix),
            ("repository", Prefix),
        ],
    );
    check_related(
        &v,
        "repository",
        "repository",
        &[("repository", Exact), ("repositories", Stem), ("repo", Prefix), ("repos", Prefix)],
    );
    // Not in the vocabulary, but its stem is.
    check_related(
        &v,
        "repositorys",
        "repository",
        &[("repositories", Stem), ("repository", Stem), ("repo", Prefix), ("repos", Prefix)],
    );
    // Shorter than 4 characters: no prefix relations.
    check_related(&v, "rep", "rep", &[("rep", Exact)]);
    check_related(&v, "unknown", "unknown", &[]);
    // Neither word nor stem indexed: prefixes by lookup (longest first), extensions by search.
    check_related(
        &v,
        "repositoryx",
        "repositoryx",
        &[("repositories", Prefix), ("repository", Prefix), ("repo", Prefix), ("repos", Prefix)],
    );
    check_related(&v, "repor", "repor", &[("repo", Prefix), ("repos", Prefix), ("report", Prefix)]);
    // A stem with a chain of indexed prefixes: longest first.
    let v = vocab(&[
        ("abcd", "abcd"),
        ("abcde", "abcde"),
        ("abcdef", "abcdef"),
        ("abcdefg", "abcdefg"),
        ("abd", "abd"),
    ]);
    check_related(
        &v,
        "abcdef",
        "abcdef",
        &[("abcdef", Exact), ("abcde", Prefix), ("abcd", Prefix), ("abcdefg", Prefix)],
    );
    check_related(
        &v,
        "abcd",
        "abcd",
        &[("abcd", Exact), ("abcde", Prefix), ("abcdef", Prefix), ("abcdefg", Prefix)],
    );
}

/// Expands a few words, for the differential law.
#[derive(Debug)]
struct Synonyms;

impl crate::Expander for Synonyms {
    fn expand(&self, word: &str, _stem: &str, emit: &mut dyn FnMut(&str, f32)) {
        match word {
            "delete" => emit("remove", 1.0),
            "list" => {
                emit("show", 0.6);
                emit("lists", 1.0);
            }
            "repository" => emit("project", 0.8),
            "zebra" => emit("alpha", 0.5),
            _ => {}
        }
    }
}

mod reference;

mod differential {
    //! Law: the pruned top-k equals the exhaustive one (hits, scores bit for bit, order,
    //! matched terms, abstention), for any documents, query, limit and abstention settings.
    //! The pruned search reads merged lists for every term of two slots or more (the
    //! exhaustive one walks the forms), so the law holds them to the forms' sums too; and
    //! an index without a search cache answers the same, so cached words are what a search
    //! works out.

    use super::Synonyms;
    // The reference law's skewed words: a few are in most documents, most in few.
    use super::reference::WORDS;
    use crate::{Document, Index, Outcome};
    use proptest::prelude::*;
    use std::sync::Arc;

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(WORDS), 0..7).prop_map(|w| w.join(" "))
    }

    fn docs() -> impl Strategy<Value = Vec<(String, String, String, u64)>> {
        prop::collection::vec((text(), text(), text(), 0..4u64), 1..60)
    }

    #[derive(Debug, Clone)]
    struct Settings {
        gate: bool,
        coverage: Option<(usize, f32)>,
        floor: f32,
        expander: bool,
    }

    fn settings() -> impl Strategy<Value = Settings> {
        (
            any::<bool>(),
            prop::option::of((1..4usize, prop::sample::select(vec![0.3f32, 0.5, 1.0]))),
            prop::sample::select(vec![0.0f32, 0.05, 0.2, 0.4]),
            any::<bool>(),
        )
            .prop_map(|(gate, coverage, floor, expander)| Settings {
                gate,
                coverage,
                floor,
                expander,
            })
    }

    fn index(set: &Settings, docs: &[(String, String, String, u64)]) -> Index {
        index_with(set, docs, crate::DEFAULT_SEARCH_CACHE_BUDGET)
    }

    fn index_with(set: &Settings, docs: &[(String, String, String, u64)], cache: usize) -> Index {
        let mut b = Index::builder()
            .gate(set.gate)
            .min_relative_score(set.floor)
            .search_cache_budget(cache);
        if let Some((n, f)) = set.coverage {
            b = b.coverage(n, f);
        }
        if set.expander {
            b = b.expander(Arc::new(Synonyms));
        }
        let mut ix = b.build().expect("valid settings");
        ix.add(docs.iter().enumerate().map(|(i, (n, s, d, order))| {
            Document::new()
                .field("name", n.as_str())
                .field("summary", s.as_str())
                .field("details", d.as_str())
                .key(format!("k{}", i % 7))
                .order(*order)
        }))
        .expect("known fields");
        ix.cache.min_postings = 1;
        ix
    }

    /// `f`'s result with every search on this thread keeping no matched-term masks where
    /// the gate is open, as in a large index.
    fn mask_free<R>(f: impl FnOnce() -> R) -> R {
        crate::search::MASK_FREE_MIN_DOCS_HERE.with(|n| n.set(Some(0)));
        let r = f();
        crate::search::MASK_FREE_MIN_DOCS_HERE.with(|n| n.set(None));
        r
    }

    fn same(ix: &Index, plain: &Index, q: &str, k: usize) -> Result<(), TestCaseError> {
        let pruned: Outcome = ix.search(q, k);
        prop_assert!(crate::search::scratch_is_clear(), "scratch left dirty by {:?}", q);
        let full: Outcome = ix.search_exhaustive(q, k);
        prop_assert_eq!(&pruned, &full, "query {:?} limit {}", q, k);
        prop_assert_eq!(&pruned, &plain.search(q, k), "no cache: query {:?} limit {}", q, k);
        let (free, free_full) = mask_free(|| (ix.search(q, k), ix.search_exhaustive(q, k)));
        prop_assert!(crate::search::scratch_is_clear(), "scratch left dirty by {:?}", q);
        prop_assert_eq!(&pruned, &free, "without masks: query {:?} limit {}", q, k);
        prop_assert_eq!(&pruned, &free_full, "without masks, exhaustive: {:?} limit {}", q, k);
        for h in pruned.hits() {
            let e = ix.explain(h.doc(), q).expect("hit is indexed");
            prop_assert_eq!(e.score.to_bits(), h.score().to_bits());
        }
        Ok(())
    }

    /// A partial score the pruning tests, its f32 neighbours and the edges.
    fn near(v: f32) -> impl Iterator<Item = f32> {
        let b = v.to_bits();
        [v, f32::from_bits(b.saturating_sub(1)), f32::from_bits(b.saturating_add(1)), 0.0, -0.0]
            .into_iter()
            .chain([f32::INFINITY, f32::NAN, f32::MIN_POSITIVE, f32::MAX])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The one-comparison test of a partial score against the least one that may reach
        /// the threshold answers as the sum it replaces, for every score.
        #[test]
        fn least_reaching_score_is_exact(
            rest in 0.0f64..40.0,
            threshold in 0.0f64..60.0,
            scores in prop::collection::vec(0.0f32..60.0, 1..20),
        ) {
            let holds = |a: f32| !crate::search::below(f64::from(a) + rest, threshold);
            let reach = crate::search::least_f32(holds);
            // Near the cut, where rounding decides.
            let edge = (threshold / (1.0 + 4e-5) - rest) as f32;
            for a in scores.iter().copied().chain(near(edge)).flat_map(near) {
                prop_assert_eq!(crate::search::not_below(a, reach), holds(a), "score {}", a);
            }
            // Searched from a guess (the one the search makes, or any other), the same value.
            for guess in near(edge).chain(scores.iter().copied()) {
                let found = crate::search::least_f32_near(guess, holds);
                prop_assert_eq!(found.to_bits(), reach.to_bits(), "guess {}", guess);
            }
        }

        /// The one-comparison test of `kth` (`a >= least`) answers as `below(min, a)`.
        #[test]
        fn least_above_min_is_exact(
            min in 0.0f64..60.0,
            scores in prop::collection::vec(0.0f32..60.0, 1..20),
        ) {
            let holds = |a: f32| crate::search::below(min, f64::from(a));
            let edge = (min * (1.0 + 4e-5)) as f32;
            let least = crate::search::least_f32_near(edge, holds);
            prop_assert_eq!(least.to_bits(), crate::search::least_f32(holds).to_bits());
            for a in scores.into_iter().chain(near(edge)).flat_map(near) {
                prop_assert_eq!(a >= least, holds(a), "score {}", a);
            }
        }
    }

    proptest! {
        /// A merged list's search from the block of the last one, for ordinals in order,
        /// finds what a binary search of the whole list finds.
        #[test]
        fn merged_list_search_from_last_block_is_binary_search(
            gaps in prop::collection::vec(1..90u32, 0..400),
            wanted in prop::collection::vec(0..20_000u32, 0..60),
        ) {
            let mut d = 0u32;
            let entries: Vec<(u32, f32)> = gaps.iter().enumerate().map(|(i, &g)| {
                d += g;
                (d, i as f32 + 1.0)
            }).collect();
            let list = crate::cache::Merged::new(entries.clone(), 0.0, 0.0);
            let mut wanted = wanted;
            // Ordinals in the list, then others.
            wanted.extend(entries.iter().step_by(7).map(|&(d, _)| d));
            wanted.sort_unstable();
            wanted.dedup();
            let mut block = 0;
            for &d in &wanted {
                let expected = entries.binary_search_by_key(&d, |&(e, _)| e).map_or(0.0, |i| entries[i].1);
                let (b, sat) = list.find(block, d);
                prop_assert_eq!(sat.to_bits(), expected.to_bits(), "ordinal {}", d);
                prop_assert_eq!(list.sat(d).to_bits(), expected.to_bits(), "ordinal {}", d);
                prop_assert!(b >= block);
                block = b;
            }
            let mut each = Vec::new();
            list.find_each(&wanted, |d, sat| each.push((d, sat.to_bits())));
            let expected: Vec<(u32, u32)> = wanted.iter().filter_map(|&d| {
                entries.binary_search_by_key(&d, |&(e, _)| e).ok().map(|i| (d, entries[i].1.to_bits()))
            }).collect();
            prop_assert_eq!(each, expected);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(160))]

        #[test]
        fn pruned_equals_exhaustive(
            set in settings(),
            docs in docs(),
            queries in prop::collection::vec(text(), 1..6),
            k in 1..6usize,
        ) {
            let ix = index(&set, &docs);
            let plain = index_with(&set, &docs, 0);
            // Typos of catalog words (`chanel`, `isssue`, `mesage`, `reposiotry`), corrected
            // through typo forms.
            let typos = ["k3", "list zebra report", "chanel isssue", "mesage reposiotry files"];
            for q in queries.iter().map(String::as_str).chain(typos) {
                same(&ix, &plain, q, k)?;
                same(&ix, &plain, q, 1)?;
            }
        }

        #[test]
        fn pruned_equals_exhaustive_after_updates(
            set in settings(),
            docs in docs(),
            removed in prop::collection::vec(any::<prop::sample::Index>(), 0..10),
            queries in prop::collection::vec(text(), 1..4),
            k in 1..4usize,
        ) {
            let mut ix = index(&set, &docs);
            // Lists built before the updates must not survive them.
            for q in &queries {
                let _ = ix.search(q, k);
            }
            let ids: Vec<_> = ix.docs().collect();
            let gone: Vec<_> = removed.iter().map(|i| ids[i.index(ids.len())]).collect();
            ix.remove(&gone);
            ix.add([Document::new().field("name", "list issues").order(1)]).expect("fields");
            let mut plain = index_with(&set, &docs, 0);
            plain.remove(&gone);
            plain.add([Document::new().field("name", "list issues").order(1)]).expect("fields");
            for q in &queries {
                same(&ix, &plain, q, k)?;
            }
        }
    }
}

/// Encodes `row`, checks that it decodes to itself (also after copying the code into another
/// side array), that the pseudo-frequency is the field-order sum, and whether the code spilled
/// into the side array.
fn check_tf_code(row: &[f32], spills: bool) {
    let mut extra = vec![7, 7];
    let code = encode(row, &mut extra);
    assert_eq!(extra.len() > 2, spills, "row {row:?}: spilled");
    let factor: Vec<f32> = (0..row.len()).map(|f| 0.5 + f as f32 * 0.25).collect();
    // Two documents' rows of factors; the code is evaluated against the second.
    let factors: Vec<f32> = factor.iter().map(|f| f * 3.0).chain(factor.iter().copied()).collect();
    let want =
        row.iter().zip(&factor).filter(|(t, _)| **t != 0.0).fold(0.0f32, |a, (t, f)| a + t * f);
    assert_eq!(pseudo_frequency(code, &extra, &factors, row.len()).to_bits(), want.to_bits());
    let mut copied = Vec::new();
    let code2 = copy_code(code, &extra, &mut copied);
    let mut post = Postings::default();
    (post.tf, post.extra) = (vec![code, code2], copied.clone());
    let mut got = vec![9.0; row.len()];
    post.tf_row(1, &mut got);
    assert_eq!(got, row, "row {row:?} after copying");
    (post.tf, post.extra) = (vec![code], extra);
    post.tf_row(0, &mut got);
    assert_eq!(got, row, "row {row:?}");
}

#[test]
fn term_frequencies_pack_into_codes() {
    check_tf_code(&[1.0, 0.0, 0.0], false);
    check_tf_code(&[0.0, 0.0, 5.0], false);
    check_tf_code(&[2.0, 3.0, 0.0], false);
    check_tf_code(&[1.0, 1.0, 1023.0], false);
    check_tf_code(&[0.0, 0.0, 0.0, 70_000.0], false);
    // Too large for 10 bits next to another field, fractional, or past the third field.
    check_tf_code(&[1024.0, 1.0, 0.0], true);
    check_tf_code(&[0.5, 0.0, 0.0], true);
    check_tf_code(&[1.0, 0.0, 0.0, 2.0], true);
    let mut wide = vec![0.0; 17];
    wide[16] = 3.0;
    check_tf_code(&wide, true);
    check_tf_code(&[0.0, 0.0, 0.0], false);
}

/// An index of one-field documents `docs`, with the test synonyms and a search cache of
/// `budget` bytes.
fn synonym_index(docs: &[String], budget: usize) -> Index {
    let mut ix = Index::builder()
        .search_cache_budget(budget)
        .expander(Arc::new(Synonyms))
        .build()
        .expect("valid");
    ix.add(docs.iter().map(|d| Document::new().field("name", d.as_str()))).expect("fields");
    ix
}

/// The search cache: within its budget, counted by `search_cache_bytes` and not by
/// `heap_bytes`, emptied by an update and by a clone, and never changing an outcome.
#[test]
fn merged_lists_stay_within_budget_and_change_nothing() {
    let words = ["list", "lists", "listing", "show", "get", "fetch", "read"];
    let docs: Vec<String> = (0..300)
        .map(|i| {
            format!("{} {} item{}", words[i % words.len()], words[(i / 7) % words.len()], i % 13)
        })
        .collect();
    let build = |budget: usize| synonym_index(&docs, budget);
    let queries = ["list item3", "show the listing", "fetch item7 lists", "get"];
    let none = build(0);
    let ix = build(DEFAULT_SEARCH_CACHE_BUDGET);
    let before = ix.heap_bytes();
    for q in queries {
        assert_eq!(ix.search(q, 5), none.search(q, 5), "{q}");
    }
    assert!(ix.search_cache_bytes() > 0, "the words were kept");
    assert_eq!(ix.cache.lists(), 0, "a word seen once has no list");
    for q in queries {
        assert_eq!(ix.search(q, 5), none.search(q, 5), "{q}");
    }
    assert!(ix.cache.lists() > 0, "`list` (its stem and prefix words) has a list");
    assert!(ix.search_cache_bytes() <= DEFAULT_SEARCH_CACHE_BUDGET);
    assert_eq!(ix.heap_bytes(), before, "the lists are not the index's own heap");
    assert_eq!(none.search_cache_bytes(), 0);
    assert_eq!(ix.clone().search_cache_bytes(), 0);
    let mut updated = ix.clone();
    let _ = updated.search("list item3", 5);
    updated.add([Document::new().field("name", "list item3")]).expect("fields");
    assert_eq!(updated.search_cache_bytes(), 0, "an update empties the lists");
    // A budget smaller than one list keeps none, and still answers the same.
    let small = build(64);
    for q in queries {
        assert_eq!(small.search(q, 5), none.search(q, 5), "{q}");
    }
    assert_eq!(small.search_cache_bytes(), 0);
    // A stream of distinct words fills a small budget and no more.
    let tight = build(4096);
    for i in 0..400 {
        let q = format!("list item{} word{i} lists", i % 13);
        assert_eq!(tight.search(&q, 5), none.search(&q, 5), "{q}");
        assert!(tight.search_cache_bytes() <= 4096);
    }
    assert!(tight.search_cache_bytes() > 2048, "the budget was used");
}

/// By default the search cache's budget follows the index (the larger of 8 MiB and its heap,
/// as of its last update); a budget set on the builder holds whatever the size, and a clone
/// keeps it.
#[test]
fn search_cache_budget_follows_the_index_unless_set() {
    let docs: Vec<String> = (0..200).map(|i| format!("list item{i} word{}", i % 17)).collect();
    let mut auto = Index::builder().build().expect("valid");
    assert_eq!(auto.config().search_cache_budget(), None);
    assert_eq!(auto.search_cache_budget(), DEFAULT_SEARCH_CACHE_BUDGET);
    auto.add(docs.iter().map(|d| Document::new().field("name", d.as_str()))).expect("fields");
    assert_eq!(auto.search_cache_budget(), DEFAULT_SEARCH_CACHE_BUDGET.max(auto.heap_bytes()));
    assert_eq!(auto.clone().search_cache_budget(), auto.search_cache_budget());
    for budget in [0, 4096, 1 << 30] {
        let mut set = Index::builder().search_cache_budget(budget).build().expect("valid");
        assert_eq!(set.search_cache_budget(), budget);
        set.add(docs.iter().map(|d| Document::new().field("name", d.as_str()))).expect("fields");
        assert_eq!(set.search_cache_budget(), budget);
        assert_eq!(set.config().search_cache_budget(), Some(budget));
        assert_eq!(set.clone().search_cache_budget(), budget);
    }
}

/// A word joined from a particle is never taken for a typo; typed as one word it may be. The
/// cache keeps the two apart.
#[test]
fn search_cache_tells_joined_words_from_typed_ones() {
    let build = |budget: usize| {
        let mut ix = Index::builder().search_cache_budget(budget).build().expect("valid");
        ix.add([
            Document::new().field("name", "signing certificates"),
            Document::new().field("name", "sign documents"),
        ])
        .expect("fields");
        ix
    };
    let (ix, plain) = (build(DEFAULT_SEARCH_CACHE_BUDGET), build(0));
    let typed = ix.search("signin", 5);
    assert!(typed.terms()[0].corrected(), "`signin` is one edit from `signing`");
    assert_eq!(typed, plain.search("signin", 5));
    let joined = ix.search("sign in", 5);
    assert!(joined.terms().iter().all(|t| !t.corrected()), "{joined:?}");
    assert_eq!(joined, plain.search("sign in", 5));
}

/// Words of one intent (and others) for the concurrency tests' documents.
const LIST_WORDS: [&str; 8] =
    ["list", "lists", "listing", "show", "get", "fetch", "read", "create"];

/// `n` documents of two [`LIST_WORDS`] and one of `items` item words each.
fn list_documents(n: usize, items: usize) -> Vec<String> {
    let w = LIST_WORDS;
    (0..n).map(|i| format!("{} {} item{}", w[i % 8], w[(i / 8) % 8], i % items)).collect()
}

/// Threads searching one index fill its cache concurrently; every answer is still the
/// answer of an index without a cache.
#[test]
fn concurrent_searches_share_the_cache_and_agree() {
    let (words, docs) = (LIST_WORDS, list_documents(400, 17));
    let build = |budget: usize| {
        let mut ix = synonym_index(&docs, budget);
        ix.cache.min_postings = 1;
        ix
    };
    let queries: Vec<String> = (0..60)
        .map(|i| format!("{} item{} {}", words[i % 8], i % 17, words[(i / 3) % 8]))
        .collect();
    let plain = build(0);
    let want: Vec<_> = queries.iter().map(|q| plain.search(q, 5)).collect();
    // No slot is scored yet: the threads score them as they first read them, at once.
    let shared = Arc::new(build(DEFAULT_SEARCH_CACHE_BUDGET));
    assert!((0..shared.vocab.slot_term.len() as u32).all(|slot| !shared.post.is_scored(slot)));
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (ix, queries) = (Arc::clone(&shared), queries.clone());
            std::thread::spawn(move || {
                // Each thread starts at another query, so words are first seen on all of them.
                (0..3 * queries.len())
                    .map(|i| {
                        let q = (i + 15 * t) % queries.len();
                        (q, ix.search(&queries[q], 5))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for handle in threads {
        for (q, got) in handle.join().expect("no panic") {
            assert_eq!(got, want[q], "{}", queries[q]);
        }
    }
    assert!(shared.cache.lists() > 0);
}

/// Clones taken while other threads search, and score slots, search like the original.
#[test]
fn clones_taken_during_searches_agree() {
    let (words, docs) = (LIST_WORDS, list_documents(300, 13));
    let queries: Vec<String> =
        (0..40).map(|i| format!("{} item{}", words[i % 8], i % 13)).collect();
    let reference = synonym_index(&docs, DEFAULT_SEARCH_CACHE_BUDGET);
    let want: Vec<_> = queries.iter().map(|q| reference.search(q, 5)).collect();
    for _ in 0..4 {
        let shared = Arc::new(synonym_index(&docs, DEFAULT_SEARCH_CACHE_BUDGET));
        let searcher = {
            let (ix, queries) = (Arc::clone(&shared), queries.clone());
            std::thread::spawn(move || queries.iter().map(|q| ix.search(q, 5)).collect::<Vec<_>>())
        };
        let clones: Vec<Index> = (0..8).map(|_| (*shared).clone()).collect();
        assert_eq!(searcher.join().expect("no panic"), want);
        for clone in &clones {
            for (q, w) in queries.iter().zip(&want) {
                assert_eq!(&clone.search(q, 5), w, "{q}");
            }
        }
    }
}

/// An update scores no posting; a search scores the slots of its words' forms, and only
/// those, with the values a fresh build gives.
#[test]
fn searches_score_only_the_slots_they_read() {
    let mut ix = Index::builder().build().expect("config");
    ix.add([
        Document::new().field("name", "alpha beta").group("a"),
        Document::new().field("name", "gamma").group("b"),
    ])
    .expect("fields");
    ix.replace_group("a", [Document::new().field("name", "alpha delta")]).expect("fields");
    let slot = |ix: &Index, w: &str| {
        let t = ix.vocab.words.find(w).expect("indexed");
        ix.vocab.term_slot[t as usize]
    };
    let slots = ix.vocab.slot_term.len() as u32;
    assert!((0..slots).all(|s| !ix.post.is_scored(s)), "an update scores nothing");
    let out = ix.search("alpha", 10);
    assert!(ix.post.is_scored(slot(&ix, "alpha")));
    assert!(!ix.post.is_scored(slot(&ix, "gamma")));
    let mut fresh = Index::builder().build().expect("config");
    fresh
        .add([
            Document::new().field("name", "gamma").group("b"),
            Document::new().field("name", "alpha delta").group("a"),
        ])
        .expect("fields");
    let bits = |o: &Outcome| o.hits().iter().map(|h| h.score().to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&out), bits(&fresh.search("alpha", 10)));
    assert_eq!(bits(&ix.search("gamma delta", 10)), bits(&fresh.search("gamma delta", 10)));
}

/// One word's postings, bit for bit: the word, its documents, their frequency rows, their
/// pseudo-frequencies and the largest.
type WordPostings = (String, Vec<u32>, Vec<Vec<u32>>, Vec<u32>, u32);

/// What an index holds, bit for bit and keyed by text (term and stem ids, and the slots of
/// words without documents, depend on the history): the words with postings in slot order,
/// the stems with documents and their document frequencies, and the average field lengths.
fn contents(ix: &Index) -> (Vec<WordPostings>, Vec<(String, u32)>, Vec<u32>) {
    let nf = ix.config.fields.len();
    let post = &ix.post;
    post.ensure_all();
    let mut words = Vec::new();
    for slot in 0..ix.vocab.slot_term.len() as u32 {
        let r = post.range(slot, slot + 1);
        if r.is_empty() {
            assert_eq!(post.max_pf(slot).to_bits(), 0, "slot {slot} without postings");
            continue;
        }
        let rows = r
            .clone()
            .map(|i| {
                let mut row = vec![0.0; nf];
                post.tf_row(i, &mut row);
                row.iter().map(|t| t.to_bits()).collect()
            })
            .collect();
        words.push((
            ix.vocab.slot_word(slot).to_owned(),
            post.doc[r.clone()].to_vec(),
            rows,
            r.map(|i| post.pf(i).to_bits()).collect(),
            post.max_pf(slot).to_bits(),
        ));
    }
    let mut stems: Vec<(String, u32)> = (0..ix.vocab.stem.len())
        .filter(|&s| ix.vocab.stem[s].df > 0)
        .map(|s| (ix.vocab.stems.get(s as u32).to_owned(), ix.vocab.stem[s].df))
        .collect();
    stems.sort();
    (words, stems, ix.avg.iter().map(|a| a.to_bits()).collect())
}

/// The arrays an update lays out are sized to fit, and `offsets` covers them.
fn check_layout(ix: &Index) {
    let post = &ix.post;
    let n = post.doc.len();
    let (pf_len, pf_capacity, slots) = post.layout_sizes();
    assert_eq!((post.tf.len(), pf_len), (n, n));
    assert_eq!(post.offsets.len(), ix.vocab.slot_term.len() + 1);
    assert_eq!(slots, ix.vocab.slot_term.len());
    assert_eq!(post.offsets.last().copied(), Some(n));
    assert!(post.offsets.windows(2).all(|w| w[0] <= w[1]));
    for v in [&post.doc, &post.tf] {
        assert_eq!(v.capacity(), v.len());
    }
    assert_eq!(pf_capacity, n);
    assert_eq!(post.extra.capacity(), post.extra.len());
}

/// Adds, removals and group replacements leave exactly what a fresh build of the live
/// documents holds: every pseudo-frequency and maximum to the bit, every stem document
/// frequency. Part tokens weigh 0.5 and there is a fourth field, so that frequencies pack in
/// all three ways (one field, three fields, spilled).
#[test]
fn updates_equal_a_fresh_build_bit_for_bit() {
    const WORDS: &[&str] = &[
        "list",
        "lists",
        "listing",
        "issue",
        "issues",
        "getIssues",
        "createIssue",
        "repo",
        "repos",
        "repository",
        "file",
        "files",
        "deleteFile",
        "alpha",
        "beta",
        "gamma",
    ];
    const FIELDS: &[&str] = &["name", "summary", "details", "notes"];
    let builder =
        || Index::builder().field("notes", 0.7).origin_weight(toolsift_text::Origin::Part, 0.5);
    // A small linear congruential generator: the same sequence on every run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % n as u64) as usize
    };
    // A document as (field, text) pairs and a group.
    type Spec = (Vec<(usize, String)>, usize);
    let spec = |next: &mut dyn FnMut(usize) -> usize| -> Spec {
        let fields = (0..1 + next(4))
            .map(|_| {
                let words: Vec<&str> = (0..1 + next(6)).map(|_| WORDS[next(WORDS.len())]).collect();
                (next(FIELDS.len()), words.join(" "))
            })
            .collect();
        (fields, next(3))
    };
    let document = |s: &Spec| {
        s.0.iter()
            .fold(Document::new(), |d, (f, t)| d.field(FIELDS[*f], t.clone()))
            .group(["g0", "g1", "g2"][s.1])
    };
    let mut ix = builder().build().expect("config");
    // The live documents in order, with their ids.
    let mut live: Vec<(crate::DocId, Spec)> = Vec::new();
    for round in 0..60 {
        match next(4) {
            0 | 1 => {
                let specs: Vec<Spec> = (0..1 + next(6)).map(|_| spec(&mut next)).collect();
                let ids = ix.add(specs.iter().map(document)).expect("fields");
                live.extend(ids.into_iter().zip(specs));
            }
            2 if !live.is_empty() => {
                let gone: Vec<crate::DocId> =
                    (0..1 + next(3)).map(|_| live[next(live.len())].0).collect();
                ix.remove(&gone);
                live.retain(|(id, _)| !gone.contains(id));
            }
            _ => {
                let g = next(3);
                let specs: Vec<Spec> = (0..next(5)).map(|_| (spec(&mut next).0, g)).collect();
                let group = ["g0", "g1", "g2"][g];
                let ids = ix.replace_group(group, specs.iter().map(document)).expect("fields");
                live.retain(|(_, s)| s.1 != g);
                live.extend(ids.into_iter().zip(specs));
            }
        }
        let mut fresh = builder().build().expect("config");
        fresh.add(live.iter().map(|(_, s)| document(s))).expect("fields");
        check_layout(&ix);
        check_layout(&fresh);
        assert_eq!(contents(&ix), contents(&fresh), "round {round}");
    }
    // The frequencies did pack in every way.
    assert!(!ix.post.extra.is_empty(), "no spilled frequencies");
}

/// Everything an index's vocabulary holds in id order: its words, their stems, the slot
/// order.
fn vocabulary(ix: &Index) -> (Vec<String>, Vec<String>, Vec<u32>) {
    let v = &ix.vocab;
    let words = (0..v.words.len() as u32).map(|t| v.words.get(t).to_owned()).collect();
    let stems = v.term_stem.iter().map(|&s| v.stems.get(s).to_owned()).collect();
    (words, stems, v.slot_term.clone())
}

/// A batch analyzed in parts on several threads indexes what one thread does, to the bit:
/// the same term ids (each part's new words interned part after part), postings, field
/// lengths, stem document frequencies and heap size. (Unit tests split batches of 8
/// documents and 128 bytes or more; builds are split only from 512 documents.)
#[test]
fn parts_on_threads_index_what_one_thread_does() {
    // Words that come back in later documents, new words in every part, CJK text (bigrams, of
    // weight 0 below) and identifiers (parts, of weight 0.5).
    let text = |i: usize| -> String {
        let mut words = vec![format!("shared{}", i % 7), format!("getItem{}", i % 13)];
        words.push(format!("only{i}"));
        words.push(["天気予報", "créer", "the", "issues", "listFiles"][i % 5].to_owned());
        words.extend((0..i % 4).map(|k| format!("w{}", (i * 7 + k) % 40)));
        words.join(if i.is_multiple_of(3) { "\n" } else { " " })
    };
    let docs: Vec<Document<'static>> = (0..120)
        .map(|i| {
            Document::new()
                .field("name", format!("tool_{i} {}", text(i + 1)))
                .field("details", text(i))
                .field("notes", "x ".repeat(i % 5 + 1))
                .key(format!("tool-{i}"))
                .group(["a", "b"][i % 2])
        })
        .collect();
    let build = |threads: usize| {
        let mut ix = Index::builder()
            .field("notes", 0.7)
            .origin_weight(toolsift_text::Origin::Part, 0.5)
            .origin_weight(toolsift_text::Origin::Bigram, 0.0)
            .threads(threads)
            .build()
            .expect("config");
        ix.add(docs[..100].to_vec()).expect("fields");
        // An update in parts too: new words in a replaced group.
        ix.replace_group("a", docs[60..].to_vec()).expect("fields");
        ix
    };
    let one = build(1);
    for threads in [2, 3, 7] {
        assert!(
            crate::parts::split(&docs[..100], 10_000, threads, 0).len() > 1,
            "{threads} threads split the batch"
        );
        let ix = build(threads);
        assert_eq!(vocabulary(&ix), vocabulary(&one), "{threads} threads");
        assert_eq!(contents(&ix), contents(&one), "{threads} threads");
        assert_eq!(
            ix.lens.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
            one.lens.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!((ix.stats(), ix.heap_bytes()), (one.stats(), one.heap_bytes()));
        check_layout(&ix);
        for q in ["shared3 getitem", "only7", "天気", "créer issues", "tool_42"] {
            let hits = |ix: &Index| -> Vec<(u32, u32)> {
                ix.search(q, 20)
                    .hits()
                    .iter()
                    .map(|h| (h.doc().get(), h.score().to_bits()))
                    .collect()
            };
            assert_eq!(hits(&ix), hits(&one), "{q}");
        }
    }
}

/// Batches split into parts of about equal text, each of at least the smallest part, never
/// more than the threads asked; a small batch, or one thread, is one part.
#[test]
fn batches_split_into_parts_of_about_equal_text() {
    let docs: Vec<Document<'static>> = (0..40)
        .map(|i| Document::new().field("name", "y".repeat(if i < 20 { 10 } else { 30 })))
        .collect();
    let bytes = 20 * 10 + 20 * 30;
    assert_eq!(crate::parts::split(&docs, bytes, 1, 0), [0]);
    assert_eq!(crate::parts::split(&docs[..7], 70, 4, 0), [0]);
    // The second part starts at the first document with half the text before it: 20 · 10 +
    // 7 · 30 = 410 of 800 bytes.
    assert_eq!(crate::parts::split(&docs, bytes, 2, 0), [0, 27]);
    let four = crate::parts::split(&docs, bytes, 4, 0);
    assert_eq!(four.len(), 4);
    assert!(four.windows(2).all(|w| w[1] - w[0] >= 4), "{four:?}");
    // A vocabulary near the ids' end is not split.
    assert_eq!(crate::parts::split(&docs, bytes, 4, 1 << 30), [0]);
}
