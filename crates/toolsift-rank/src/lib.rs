//! An inverted BM25F index for tool search that answers in microseconds and knows when to say
//! nothing.
//!
//! # Brief overview
//!
//! An [`Index`] holds documents with a fixed, configurable set of weighted fields (by default
//! `name` 3.0, `summary` 1.5, `details` 1.0), exact keys and an optional group. It is
//! configured once through an [`IndexBuilder`] into a frozen [`Config`], filled with
//! [`Document`]s, and searched with [`Index::search`], which returns an [`Outcome`]: [`Hit`]s
//! with scores and matched terms, or, when empty, an [`Abstention`] and the status of every
//! query term. [`Index::explain`] breaks a score down into an [`Explanation`].
//! Text goes through a [`toolsift_text::Analyzer`] (identifier splitting, stemming, stopwords);
//! the same analyzer analyzes documents and queries. The crate knows nothing of MCP or OpenAPI:
//! the `toolsift` facade decides which tool text goes into which field.
//!
//! # Example
//!
//! ```
//! use toolsift_rank::{Document, Index};
//!
//! // The tuned preset: what the toolsift facade ranks with and `cargo xtask eval` measures.
//! // `Index::builder()` starts from plain BM25F instead.
//! let mut index = Index::tuned().build()?;
//! let ids = index.add([
//!     Document::new()
//!         .field("name", "create_issue")
//!         .field("summary", "Create a new issue in a GitHub repository.")
//!         .key("create_issue")
//!         .group("github"),
//!     Document::new()
//!         .field("name", "send_message")
//!         .field("summary", "Send a message to a Slack channel.")
//!         .group("slack"),
//! ])?;
//! let outcome = index.search("open a new issue", 5);
//! assert_eq!(outcome.hits()[0].doc(), ids[0]);
//! // A query equal to a key ranks that document first.
//! assert!(index.search("Create-Issue", 5).hits()[0].is_exact_key());
//! // Nothing in the catalog matches: the answer is empty and says why.
//! assert!(index.search("book a flight", 5).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Scoring
//!
//! For a query term `t` and document `d`, each catalog term `c` related to `t` (see below)
//! contributes its precomputed BM25F pseudo-frequency, weighted by the relation:
//!
//! ```text
//! pf(c, d)  = Σ_f  w_f · tf(c, d, f) / (1 − b_f + b_f · len(d, f) / avg_f)
//! x(t, d)   = Σ_c  relation_weight(t, c) · pf(c, d)
//! score(d)  = Σ_t  qw_t · idf_t · x(t, d) · (k1 + 1) / (x(t, d) + k1)
//! idf_t     = ln(1 + (N − df_t + 0.5) / (df_t + 0.5))
//! ```
//!
//! Fields are summed before saturation (true BM25F, not a sum of per-field BM25 scores).
//! `tf` and `len` count tokens weighted by their [`Origin`](toolsift_text::Origin) weight
//! (default 1 each). `pf(c, d)` does not depend on the query, so it is stored in the postings;
//! every update changes the statistics, so a word's postings are scored again when a search
//! first reads them after it.
//! `qw_t` is the query term's origin weight (default 1). `df_t` counts the documents that
//! contain `t` itself or a word with the same stem, so that a rare word is not made common by
//! longer words that merely extend it; a term with only prefix-related forms takes the number
//! of documents containing any of them, and a term found only through its expansions the
//! number of documents containing any expansion form.
//!
//! # Related terms
//!
//! A query term matches, besides itself ([`Relation::Exact`], weight 1), the catalog words with
//! the same stem ([`Relation::Stem`], default 0.3) and the words whose stem extends its stem
//! or is extended by it, when the shorter stem has at least 4 characters
//! ([`Relation::Prefix`], default 0.3): `repo` finds `repository` and `repository` finds
//! `repos`. A shorter stem is a more general word, so when the query term's stem is in the
//! catalog, a shorter one's weight is also scaled by its idf over the term's, at most 1
//! (`readme` finds `read` at 0.3 × 2.3 / 6.1). Relations are resolved from sorted structures, never by scanning the vocabulary:
//! an interned word table, a stem → words table, and the stems sorted by text, where the
//! longer stems extending a stem form one range found by binary search and the shorter stems
//! are looked up prefix by prefix. This works for query words absent from the vocabulary too.
//! Terms are stored sorted by (stem, word), so each relation is a contiguous range of terms
//! and of postings, never a list of words.
//!
//! An optional [`Expander`] ([`IndexBuilder::expander`]) adds words of its own, such as
//! synonyms from an intent lexicon ([`Relation::Expansion`], default weight 0.5 times the
//! expander's weight). They add to the term's pseudo-frequency before saturation and never
//! change the rarity of a term the catalog contains; see [`Expander`] for the rules.
//!
//! A query word that neither the catalog (as itself or its stem) nor the expander knows, of at
//! least [`IndexBuilder::typo_min_chars`] (5) lowercase ASCII letters and digits, is taken for
//! a typo ([`Relation::Typo`], default weight 0.3): it matches the catalog words one edit away
//! that start with the same letter, and the other words of their stems at 0.3 times that
//! ([`QueryTerm::corrected`]). Those words are found by scanning the slots of the stems that
//! start with the word's first letter, one contiguous range.
//!
//! # Queries
//!
//! The analyzer splits the query into terms and drops its stopwords (its
//! [`StopwordPolicy`](toolsift_text::StopwordPolicy) decides which; the index adds no rule of
//! its own, so queries and documents are treated alike). Terms are deduplicated by analyzed
//! word, so a query repeating one word a thousand times costs what the word costs once; at
//! most 64 distinct terms are scored ([`IndexBuilder::max_query_terms`]), the first ones in
//! query order. A word that is both a whole word and an identifier part in the query counts
//! once, with the larger of its origins' query weights. A plain word followed by a particle
//! ("log in", "tear down") also counts written as one word (`login`, `teardown`), as a part
//! ([`IndexBuilder::join_particles`], on by default). A whole word in the past tense
//! (`uploaded`, `assigned`) describes rather than asks, and counts at 0.75 of its query weight
//! ([`IndexBuilder::past_tense_weight`]).
//!
//! # Ranking order
//!
//! Hits whose document has an exact key equal to the query come first, whatever their score
//! and past every floor. When no key equals it, a query written as one identifier
//! (`list_page`, `get_app`) also names the documents whose key it equals with one of its
//! words in the other number (`list_pages`), or else with its abbreviations in full or its
//! full words abbreviated (`getApplication`): an agent naming a tool from memory often gets
//! a plural or an abbreviation wrong. The others follow by score descending. Ties (and the
//! exact-key hits among themselves) break by ascending [order key](Document::order), then
//! ascending [`DocId`]; by default the order key is the insertion sequence, so ties follow
//! insertion order. The result is identical to sorting every candidate and truncating. No
//! hash-map order reaches output.
//!
//! # Speed
//!
//! A search walks only the postings of the query's forms, and prunes (MaxScore): every term
//! has an upper bound of what it can add to a score (from the largest pseudo-frequency of each
//! of its forms, kept per term). Terms are scored shortest postings first; once the bounds of
//! the remaining terms cannot lift a document not seen yet into the top k, the remaining terms
//! only update the candidates that can still make it. Every score is summed in that same
//! order of the terms, pruned or not (and in [`Index::explain`]), so it is bit for bit that of
//! scoring every document (a property test holds the two to identical outcomes, and
//! another holds every search to a reference scorer written from this page). Besides
//! what it adds to the search cache (below: a word's entry the first time the word is
//! searched, its merged list the second), search allocates only its [`Outcome`]; its buffers
//! are per thread and dense over documents (a term with several forms sums its
//! pseudo-frequencies into a buffer that is all zeros between terms, so no per-document stamp
//! is read or written).
//!
//! The index keeps what searches work out from it alone in a search cache, until its next
//! update ([`IndexBuilder::search_cache_budget`]; by default the larger of 8 MiB and the
//! index's own heap, [`Index::search_cache_budget`]; 0 = none; [`Index::search_cache_bytes`]):
//! each query word's resolved forms and statistics, and for a word of many postings seen
//! before, its merged list (each document once, with its pseudo-frequency summed over the
//! forms and saturated). A search with cached words looks
//! each up once, reads one list per word instead of its many slots, finds surviving
//! candidates in it by binary search, and prunes with its exact bound. The cache never
//! changes an answer: it holds what a search would compute, in the same `f32` bits, and the
//! order in which terms are summed ignores it (property tests compare outcomes with and
//! without it).
//!
//! A posting takes 12 bytes: document, pseudo-frequency, and the per-field term frequencies
//! packed into 4 bytes (a side array holds only the rare rows that do not fit: fractional
//! frequencies, or a word in several fields beyond the first three or more than 1,023 times
//! in one of them). [`Index::heap_bytes`] reports the total.
//!
//! # Abstention
//!
//! A term is *answerable* if some document contains it through any relation. An answer is
//! empty, with an [`Abstention`] reason, when:
//!
//! - the query has no terms ([`Abstention::NoTerms`]) or no answerable term
//!   ([`Abstention::AllUnknown`]) — always on;
//! - none of the query's own words occurs by its own forms and only [`Expander`] forms match
//!   ([`Abstention::AllUnknown`]; [`require_own_match`](IndexBuilder::require_own_match),
//!   default on; CJK bigram terms exempt);
//! - fewer than [`min_answerable`](IndexBuilder::min_answerable) of its terms are answerable
//!   ([`Abstention::TooFewAnswerable`]; default 0 = off);
//! - no document passes the [`gate`](IndexBuilder::gate) (it must match the most specific
//!   answerable term, the one with the highest idf) or, for queries with enough answerable
//!   terms, the [`coverage`](IndexBuilder::coverage) rule ([`Abstention::Gate`]; both default
//!   off);
//! - no document reaches [`min_relative_score`](IndexBuilder::min_relative_score) × the
//!   query's best possible score `Σ qw · idf · (k1 + 1)` over answerable terms
//!   ([`Abstention::Floor`]; default 0 = off).
//!
//! An unknown word never makes a query abstain by itself: unknown terms are left out of the
//! gate, the coverage and the best possible score.
//!
//! # Updates
//!
//! [`Index::add`], [`Index::remove`], [`Index::remove_group`], [`Index::replace_group`] and
//! [`Index::update_group`] (some documents of a group out, others in, at once) keep every
//! statistic exact (N, df, field length sums): the result of any sequence of updates scores
//! exactly like a fresh index built from the remaining documents in insertion order.
//! [`Index::set_order`] moves a document's tie-break key without an update.
//! Each update lays all postings out again in linear passes over flat arrays (about 12 bytes
//! a posting), so add documents in batches. Pseudo-frequencies depend on the average field
//! lengths, which every update moves: they are worked out again slot by slot, by the first
//! search that reads a slot, so an update pays only for laying out, and a search after it
//! for the words it looks up.
//! Words and keys that no longer occur in any document stay interned (and are reused if they
//! return); they match nothing.
//!
//! # Saving (feature `serde`)
//!
//! With the `serde` feature, [`Index`] implements `Serialize` and [`SavedIndex`] implements
//! `Deserialize`; [`Index::from_saved`] turns a `SavedIndex` back into an index, given the
//! analyzer, which is code and is not saved. To catch a different analyzer, the saved index
//! stores how the analyzer analyzed a fixed probe text, and loading fails with
//! [`ErrorKind::AnalyzerMismatch`] if the given analyzer disagrees. An [`Expander`] is code
//! too: pass it to [`Index::from_saved_with`]. The saved format also keeps each document's
//! order key (indexes saved before order keys existed load with the default keys).
#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod cache;
mod config;
mod document;
mod error;
mod expand;
mod explain;
mod index;
mod keys;
mod parts;
mod postings;
#[cfg(feature = "serde")]
mod saved;
mod score;
mod search;
mod staging;
mod vocab;

pub use config::{
    Config, Coverage, DEFAULT_B, DEFAULT_EXPANSION_WEIGHT, DEFAULT_FIELDS, DEFAULT_K1,
    DEFAULT_PAST_TENSE_WEIGHT, DEFAULT_PREFIX_MIN_CHARS, DEFAULT_PREFIX_WEIGHT,
    DEFAULT_SEARCH_CACHE_BUDGET, DEFAULT_STEM_WEIGHT, DEFAULT_TYPO_MIN_CHARS, DEFAULT_TYPO_WEIGHT,
    FieldSpec, IndexBuilder, MAX_QUERY_TERMS, PARTICLES, Relation, TUNED_DETAILS_WEIGHT,
    TUNED_LEXICON_WEIGHT,
};
pub use document::{DocId, Document};
pub use error::{Error, ErrorKind};
pub use expand::Expander;
pub use explain::{Explanation, FieldExplanation, FormExplanation, TermExplanation};
pub use index::{Index, Stats};
#[cfg(feature = "serde")]
pub use saved::SavedIndex;
pub use search::{Abstention, Hit, Outcome, QueryTerm, TermStatus};

#[cfg(test)]
mod tests;

/// The README's example, run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
