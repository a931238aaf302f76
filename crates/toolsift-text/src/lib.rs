//! Identifier-aware text analysis for tool search.
//!
//! # Brief overview
//!
//! An [`Analyzer`] turns a piece of text (a tool name, a parameter name, a description, an
//! agent's query) into terms. Each term carries its lowercased, folded `word`, its `stem` under a
//! pluggable [`Stemmer`], its [`Origin`] (whole word, identifier part or CJK bigram) and its
//! position. [`Analyzer::for_each_token`] hands out borrowed [`Token`]s without allocating per
//! token; [`Analyzer::analyze`] collects owned [`Term`]s. An analyzer is built by an
//! [`AnalyzerBuilder`], frozen after `build()`, cheap to clone and `Send + Sync`: the ranker in
//! `toolsift-rank` uses the same analyzer at index time and at query time.
//!
//! # Example
//!
//! ```
//! use toolsift_text::{Analyzer, Origin};
//!
//! let analyzer = Analyzer::builder().build();
//! let terms = analyzer.analyze("Please getHTTPResponse for the café");
//! let seen: Vec<(&str, &str, Origin)> =
//!     terms.iter().map(|t| (t.word.as_str(), t.stem.as_str(), t.origin)).collect();
//! assert_eq!(seen, [
//!     ("gethttpresponse", "gethttprespons", Origin::Whole),
//!     ("get", "get", Origin::Part),
//!     ("http", "http", Origin::Part),
//!     ("response", "respons", Origin::Part),
//!     ("cafe", "cafe", Origin::Whole),
//! ]);
//! let first = terms.first().ok_or("no terms")?;
//! assert_eq!(first.position, 1); // "please" (a dropped stopword) was position 0
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Splitting
//!
//! Text is split on every character that is not alphanumeric (`_ - . / : { }`, spaces, emoji, …)
//! into *words*; the unit is the extended grapheme cluster (from `unicode-segmentation`), so a
//! combining mark stays with its letter and a cluster without an alphanumeric character is a
//! separator. A word is then cut into *parts* on case boundaries. The word is emitted as
//! [`Origin::Whole`] and, when it splits, each part follows as [`Origin::Part`]:
//!
//! | text | terms (whole, then parts) |
//! |---|---|
//! | `getIssue` | `getissue`; `get`, `issue` |
//! | `HTTPServer` | `httpserver`; `http`, `server` |
//! | `linear_getIssues` | `linear`, `getissues`; `get`, `issues` |
//! | `GitHub` | `github`; `git`, `hub` |
//! | `getIDs`, `base64URL` | `getids`; `get`, `ids` and `base64url`; `base64`, `url` |
//! | `bitable_v1_appTableRecord_batchCreate` | `bitable`, `v1`, `apptablerecord`; `app`, `table`, `record`, `batchcreate`; `batch`, `create` |
//! | `API-post-search` | `api`, `post`, `search` |
//! | `GET /repos/{owner}/{repo}/pulls` | `get`, `repos`, `owner`, `repo`, `pulls` |
//! | `s3`, `oauth2`, `k8s`, `v1beta1` | unsplit: digits stay with the letters before them |
//!
//! So separators (`_`, `-`, `/`, …) make whole words, and case boundaries make parts: a query
//! for `github` or `getissues` written as one word still matches the whole word, and a query for
//! `issues` matches the part. The exact case rule is: a part starts at an uppercase letter after
//! a lowercase letter (`get|Issue`), at the last of several uppercase letters when a lowercase
//! letter follows and is not a lone plural `s` (`HTTP|Server`, but `IDs`), and at an uppercase
//! letter after digits when a lowercase letter follows or the letters before the digits are
//! lowercase (`base64|Encode`, `base64|URL`, but `K8S`). The parts of a word always concatenate
//! back to the whole word.
//!
//! *Positions* count words: every whole word (including a dropped stopword) and every bigram
//! takes the next position, and parts share the position of their whole word.
//!
//! # Normalization
//!
//! Every character is lowercased with full Unicode lowercasing, and Latin diacritics are folded
//! (`café` → `cafe`, `Straße` → `strasse`, see [`fold()`]); characters that are not alphanumeric
//! (such as the combining marks themselves) are dropped from words. Han, Hiragana, Katakana and
//! Hangul runs are emitted as overlapping bigrams of grapheme clusters ([`Origin::Bigram`]),
//! and a run of one as that one character: `多维表格` gives `多维`, `维表`, `表格`. Bigrams are
//! not stemmed (their stem is the word). No input makes the analyzer panic, and no alphanumeric
//! character is lost: emoji, right-to-left text, NUL and lone combining marks are separators.
//!
//! # Stopwords
//!
//! The default list ([`default_stopwords`], kept as data in `data/stopwords.txt`) has English
//! function words, words that carry no intent in a tool search (`tool`, `please`, `want`,
//! `need`, `using`, `how`, `me`, `my`, `some`, …), and the function words of Spanish, French,
//! German, Portuguese and Italian that are not English words (`un`, `les`, `der`, `und`, …).
//! Under the default
//! [`StopwordPolicy::PlainWords`] a stopword is dropped only where it is a *plain* word of
//! natural text, never inside an identifier: "tell me" drops `me`, but the tool name `get_me` (or
//! `getMe`) keeps it, so the two tools `get_me` and `get_issue` stay apart. A text of only plain
//! stopwords yields no terms. [`AnalyzerBuilder::stopwords`] replaces the list and
//! [`AnalyzerBuilder::stopword_policy`] changes where it applies.
//!
//! # Stemming
//!
//! The [`Stemmer`] trait has one required method. [`LightStemmer`] (the default) handles
//! plurals, `-ing`, `-ed` and a final `-e` (kept after a one-syllable stem, so `note` and
//! `not`, `state` and `stats` stay apart) and never cuts below three letters; with the cargo
//! feature `snowball`, `SnowballStemmer` is Snowball English (Porter2) from the `frostem` crate.
//! The default is chosen in one line, `default_stemmer` in `src/analyzer.rs`.
//!
//! # Lexicon
//!
//! A [`Lexicon`] holds groups of words an agent and an API use for the same thing (`delete`,
//! `remove`, `drop`; `pull request`, `pr`, `merge request`) and a CJK–English word list
//! (`删除 = delete`), as data in `data/lexicon.txt` and `data/bilingual.txt`, parsed once.
//! [`Lexicon::expand`] gives, for a query term's stem, the words it may stand for with a
//! weight; a ranker matches them below an exact match (`toolsift-rank` does, through its
//! expansion hook). A member of several words is found through its joined form (`lookup` for
//! `look up`) and emits each of its words at a lower weight; a CJK word is found through the
//! character bigrams of the query.
//!
//! [`Actions`] (`data/actions.txt`) says which action groups of the lexicon read (`list`,
//! `get`, `search`), write (`create`, `update`, `upload`) or delete, so that a caller can hold
//! a tool's action to a query's (`toolsift-intent` demotes a deleting tool for an upload
//! request).
//!
//! [`parallel_map`] is the one way the toolsift crates spread work over threads (loading many
//! catalog files, a large index build's analysis, the CLI's `check`): scoped threads, results
//! in input order, the same as on one thread.
//!
//! # Performance
//!
//! [`Analyzer::for_each_token`] allocates nothing per token: words are cut and lowercased in
//! scratch buffers that are reused across calls (per thread), lowercase ASCII words are not
//! copied at all, ASCII text never goes through grapheme segmentation, and [`LightStemmer`]
//! returns slices of the word.
//!
//! Chunks (runs of non-whitespace) are memoized per thread: the scan that finds a chunk's end
//! reads it eight bytes at a time and hashes those same words (`rustc-hash`'s `FxHasher`),
//! and a chunk this analyzer has seen before replays its tokens from the memo instead of
//! being split, folded, checked against the stopwords and stemmed again. Tool catalogs
//! repeat their words and parameter names constantly: in an index build of the 70 copied
//! catalogs, 92% of the chunks are replays. [`AnalyzerBuilder::memoize`] turns the memo off.
//!
//! Instruction counts (`valgrind --tool=callgrind`, `benches/examples/profile.rs`, bench
//! profile, rustc 1.95), without the memo and with it:
//!
//! | work | without | with |
//! |---|---:|---:|
//! | analyze the tool descriptions of the 70 catalogs (0.97 MB), first pass on a thread | 68.0 M (70 per byte) | 51.5 M (53 per byte) |
//! | the same, later passes (the memo holds chunks of earlier passes) | 68.0 M | 34.8 M (36 per byte) |
//! | analysis within an index build of `all` (name, summary, details of 3,952 tools) | 214 M | 133 M |
//!
//! The bench `benches/benches/text.rs` (`cargo bench -p benches --bench text`) and the `text`
//! row of `cargo xtask bench` time the description pass; their timed rounds follow a warm-up
//! round on the same thread, so they measure later passes.
#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod actions;
mod analyzed;
mod analyzer;
mod cjk;
mod error;
mod fold;
mod fuzzy;
mod lexicon;
mod memo;
mod parallel;
#[cfg(feature = "snowball")]
mod snowball;
mod split;
mod stem;
mod stopwords;
mod token;

pub use actions::{Action, Actions};
pub use analyzed::{Analyzed, Chunk};
pub use analyzer::{Analyzer, AnalyzerBuilder, StopwordPolicy};
pub use cjk::is_cjk;
pub use error::{Error, ErrorKind};
pub use fold::fold;
pub use fuzzy::{for_each_edit, within_one_edit};
pub use lexicon::{
    DEFAULT_PHRASE_WEIGHT, DEFAULT_TRANSLATION_WEIGHT, Lexicon, LexiconBuilder, PARTICLES,
};
pub use parallel::{available_cores, parallel_map};
#[cfg(feature = "snowball")]
pub use snowball::SnowballStemmer;
pub use stem::{LightStemmer, Stemmer, is_past_tense};
pub use stopwords::default_stopwords;
pub use token::{Origin, Term, Token};

/// The README's example, run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
