//! The [`Analyzer`], its [`AnalyzerBuilder`] and the [`StopwordPolicy`].
//!
//! The pipeline, in order (lossless stages first):
//! 1. chunks: split on whitespace ([`Scratch::next_chunk`] takes one chunk at a time);
//! 2. words: split a chunk on non-alphanumeric grapheme clusters and on CJK/non-CJK changes;
//! 3. normalize: lowercase and fold every character of a word into the scratch buffer;
//! 4. parts: cut a non-CJK word on case boundaries; bigram a CJK run;
//! 5. stopwords: drop stopwords as the [`StopwordPolicy`] says;
//! 6. stem: stem whole words and parts (not bigrams) with the [`Stemmer`].
//!
//! A chunk's tokens depend only on the chunk and the analyzer, so stages 2 to 6 run once per
//! distinct chunk: the chunk memo (`memo.rs`, per thread, keyed by the chunk's bytes and the
//! analyzer's id) replays the tokens of a chunk seen before, with positions relative to the
//! chunk. [`AnalyzerBuilder::memoize`] turns it off.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use crate::analyzed::Analyzed;
use crate::fold::fold;
use crate::memo::{ChunkKey, MAX_KEY};
use crate::split::{Scratch, Word};
use crate::stem::{LightStemmer, Stemmer};
use crate::stopwords::Stopwords;
use crate::token::{Origin, Term, Token};

/// The stemmer an [`AnalyzerBuilder`] starts with. Switching the default stemmer is this line.
fn default_stemmer() -> Arc<dyn Stemmer> {
    Arc::new(LightStemmer)
}

/// Where stopwords are dropped.
///
/// A word is *plain* when it stands alone between whitespace (punctuation around it and
/// apostrophes inside it aside: `"the`, `can't`, `user's`) and has no case boundary; every
/// other word belongs to an *identifier* (`get_me`, `getMe`, `API-post-search`, `node.js`,
/// `read/write`).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StopwordPolicy {
    /// Drop stopwords that are plain words; keep them inside identifiers, so the tool `get_me`
    /// keeps `me` while "tell me" loses it. The default.
    #[default]
    PlainWords,
    /// Drop stopwords everywhere, also whole words and parts of identifiers.
    Everywhere,
    /// Keep every word (a caller may still test [`Analyzer::is_stopword`]).
    Nowhere,
}

/// Builds an [`Analyzer`]; the configuration is frozen by [`build`](AnalyzerBuilder::build).
///
/// ```
/// use toolsift_text::{Analyzer, LightStemmer, StopwordPolicy};
///
/// let analyzer = Analyzer::builder()
///     .stemmer(LightStemmer)
///     .stopwords(["the", "please"])
///     .stopword_policy(StopwordPolicy::Everywhere)
///     .build();
/// assert!(analyzer.analyze("please get_the_issue").iter().all(|t| t.word != "the"));
/// ```
#[derive(Debug)]
pub struct AnalyzerBuilder {
    stemmer: Arc<dyn Stemmer>,
    stopwords: Option<Stopwords>,
    policy: StopwordPolicy,
    memoize: bool,
}

impl Default for AnalyzerBuilder {
    fn default() -> Self {
        AnalyzerBuilder {
            stemmer: default_stemmer(),
            stopwords: None,
            policy: StopwordPolicy::default(),
            memoize: true,
        }
    }
}

impl AnalyzerBuilder {
    /// A builder with the default configuration: [`LightStemmer`], the
    /// [default stopwords](crate::default_stopwords), [`StopwordPolicy::PlainWords`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the stemmer.
    #[must_use]
    pub fn stemmer(mut self, stemmer: impl Stemmer + 'static) -> Self {
        self.stemmer = Arc::new(stemmer);
        self
    }

    /// Replaces the stopword list (each word is lowercased and folded; an empty list disables
    /// stopwords).
    #[must_use]
    pub fn stopwords<S: AsRef<str>>(mut self, words: impl IntoIterator<Item = S>) -> Self {
        self.stopwords = Some(Stopwords::from_words(words));
        self
    }

    /// Sets where stopwords are dropped.
    #[must_use]
    pub fn stopword_policy(mut self, policy: StopwordPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets whether the analyzer memoizes the tokens of the chunks it analyzes (default: on).
    ///
    /// With the memo on, a chunk (a run of non-whitespace of up to 48 bytes) that this analyzer
    /// or one of its clones already analyzed on the same thread is replayed from a per-thread
    /// table instead of being split, folded and stemmed again. Tool catalogs repeat their words
    /// and parameter names so often that 92% of the chunks of an index build of the 70 copied
    /// catalogs are replays. The tokens are the same either way (the memo assumes that the
    /// [`Stemmer`] is a pure function of the word, as a stemmer should be). Turning it off
    /// saves the table's memory (bounded at about 3 MiB per thread that analyzes text, and
    /// emptied when full) at the cost of speed.
    ///
    /// ```
    /// use toolsift_text::Analyzer;
    ///
    /// let plain = Analyzer::builder().memoize(false).build();
    /// let memoized = Analyzer::default();
    /// let text = "getIssue: get the issue. getIssue again";
    /// assert_eq!(plain.analyze(text), memoized.analyze(text));
    /// ```
    #[must_use]
    pub fn memoize(mut self, memoize: bool) -> Self {
        self.memoize = memoize;
        self
    }

    /// Freezes the configuration.
    #[must_use]
    pub fn build(self) -> Analyzer {
        /// The id of the next analyzer built; ids key the chunk memo, so each build gets its own.
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let stopwords = self.stopwords.unwrap_or_else(Stopwords::default_list);
        Analyzer {
            inner: Arc::new(Inner {
                stemmer: self.stemmer,
                stopwords,
                policy: self.policy,
                memoize: self.memoize,
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            }),
        }
    }
}

/// The frozen configuration shared by the clones of an [`Analyzer`].
struct Inner {
    stemmer: Arc<dyn Stemmer>,
    stopwords: Stopwords,
    policy: StopwordPolicy,
    /// Whether to use the chunk memo.
    memoize: bool,
    /// Unique per [`AnalyzerBuilder::build`]: the owner of this analyzer's memo entries.
    id: u64,
}

impl fmt::Debug for Inner {
    /// The configuration; the memo id is left out, so equal configurations print alike.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inner")
            .field("stemmer", &self.stemmer)
            .field("stopwords", &self.stopwords)
            .field("policy", &self.policy)
            .field("memoize", &self.memoize)
            .finish_non_exhaustive()
    }
}

/// Turns text into terms; the same analyzer serves index time and query time.
///
/// Cloning is cheap (one reference count), and an analyzer is `Send + Sync`. See the
/// [crate docs](crate) for the rules.
///
/// ```
/// use toolsift_text::{Analyzer, Origin};
///
/// let analyzer = Analyzer::default();
/// let mut words = Vec::new();
/// analyzer.for_each_token("linear_getIssues", |t| words.push((t.word.to_owned(), t.origin)));
/// assert_eq!(words, [
///     ("linear".to_owned(), Origin::Whole),
///     ("getissues".to_owned(), Origin::Whole),
///     ("get".to_owned(), Origin::Part),
///     ("issues".to_owned(), Origin::Part),
/// ]);
/// ```
#[derive(Debug, Clone)]
pub struct Analyzer {
    inner: Arc<Inner>,
}

impl Default for Analyzer {
    /// The default analyzer; built once per process and then cloned.
    fn default() -> Self {
        static DEFAULT: OnceLock<Analyzer> = OnceLock::new();
        DEFAULT.get_or_init(|| AnalyzerBuilder::new().build()).clone()
    }
}

thread_local! {
    /// Scratch buffers reused across calls on this thread.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Analyzer {
    /// A builder.
    #[must_use]
    pub fn builder() -> AnalyzerBuilder {
        AnalyzerBuilder::new()
    }

    /// Calls `f` for every term of `text`, in text order; whole words come before their parts.
    ///
    /// Nothing is allocated per token: the token borrows buffers that are reused (per thread,
    /// across calls).
    pub fn for_each_token(&self, text: &str, f: impl FnMut(Token<'_>)) {
        self.for_each_chunk_token(text, |_, _| {}, f);
    }

    /// [`Analyzer::for_each_token`], calling `chunk` with the byte range and the first position
    /// of each chunk (run between white space) before its tokens, chunks without tokens
    /// included; returns the positions the text takes.
    pub(crate) fn for_each_chunk_token(
        &self,
        text: &str,
        mut chunk: impl FnMut(Range<usize>, u32),
        mut f: impl FnMut(Token<'_>),
    ) -> u32 {
        let pooled = SCRATCH.try_with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                let positions = self.run(text, &mut scratch, true, &mut chunk, &mut f);
                scratch.trim();
                Some(positions)
            }
            // `f` analyzes text itself: the inner call gets its own buffers below.
            Err(_) => None,
        });
        match pooled {
            Ok(Some(positions)) => positions,
            // Nested in `f`, or during thread teardown: use fresh buffers.
            _ => self.run(text, &mut Scratch::default(), false, &mut chunk, &mut f),
        }
    }

    /// Analyzes `text` once into an owned [`Analyzed`]: its terms (those of
    /// [`Analyzer::for_each_token`], in that order) and its chunks, the runs between white
    /// space with their spans, which rules that read punctuation, quotes or clauses look at.
    ///
    /// ```
    /// let analyzer = toolsift_text::Analyzer::default();
    /// let request = analyzer.analyze_text("don't delete 'main', please");
    /// let chunks: Vec<&str> = request.chunks().map(|c| c.text).collect();
    /// assert_eq!(chunks, ["don't", "delete", "'main',", "please"]);
    /// let words: Vec<&str> = request.tokens().map(|t| t.word).collect();
    /// assert_eq!(words, ["delete", "main"]);
    /// ```
    #[must_use]
    pub fn analyze_text(&self, text: &str) -> Analyzed {
        Analyzed::new(self, text)
    }

    /// The id that tells this analyzer (and its clones) from every other one built.
    pub(crate) fn id(&self) -> u64 {
        self.inner.id
    }

    /// All terms of `text`, owned, in the order of [`Analyzer::for_each_token`].
    ///
    /// ```
    /// let terms = toolsift_text::Analyzer::default().analyze("Please list the tools");
    /// let words: Vec<&str> = terms.iter().map(|t| t.word.as_str()).collect();
    /// assert_eq!(words, ["list"]);
    /// ```
    #[must_use]
    pub fn analyze(&self, text: &str) -> Vec<Term> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| out.push(Term::from(t)));
        out
    }

    /// The stem of one lowercased word under this analyzer's stemmer.
    #[must_use]
    pub fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        self.inner.stemmer.stem(word)
    }

    /// Whether `word` (lowercased and folded first) is a stopword for this analyzer.
    #[must_use]
    pub fn is_stopword(&self, word: &str) -> bool {
        self.inner.stopwords.contains(&fold(word))
    }

    /// The stopword policy this analyzer was built with.
    #[must_use]
    pub fn stopword_policy(&self) -> StopwordPolicy {
        self.inner.policy
    }

    /// Analyzes `text` with the given scratch buffers, through the chunk memo if `memoize`;
    /// returns the positions the text takes.
    fn run(
        &self,
        text: &str,
        scratch: &mut Scratch,
        memoize: bool,
        on_chunk: &mut impl FnMut(Range<usize>, u32),
        f: &mut impl FnMut(Token<'_>),
    ) -> u32 {
        let inner = &*self.inner;
        let memoize = memoize && inner.memoize;
        let mut position: u32 = 0;
        let mut at = 0;
        let mut key = ChunkKey::default();
        while let Some(chunk) = Scratch::next_chunk(text, &mut at, &mut key) {
            on_chunk(chunk.clone(), position);
            let base = position;
            let mut emit = |word: &str, stem: &str, origin: Origin, offset: u32| {
                f(Token { word, stem, origin, position: base.saturating_add(offset) });
            };
            let len = chunk.len();
            let taken = if memoize && len <= MAX_KEY {
                if !key.ready {
                    key.complete(&text.as_bytes()[chunk.clone()]);
                }
                match scratch.memo.replay(inner.id, &key, len, &mut emit) {
                    Some(taken) => taken,
                    None => {
                        let mut rec = scratch.memo.start(inner.id, &key, len);
                        let identifier = scratch.segment(text, chunk);
                        let Scratch { text: words_text, words, cuts, stem, memo, .. } = scratch;
                        let chunk =
                            ChunkWords { input: text, text: words_text, words, cuts, identifier };
                        let taken =
                            inner.tokens(&chunk, stem, &mut |word, stem, origin, offset| {
                                memo.record(&mut rec, word, stem, origin, offset);
                                emit(word, stem, origin, offset);
                            });
                        memo.finish(rec, inner.id, taken);
                        taken
                    }
                }
            } else {
                let identifier = scratch.segment(text, chunk);
                let Scratch { text: words_text, words, cuts, stem, .. } = scratch;
                let chunk = ChunkWords { input: text, text: words_text, words, cuts, identifier };
                inner.tokens(&chunk, stem, &mut emit)
            };
            position = position.saturating_add(taken);
        }
        position
    }
}

/// The segmented words of one chunk, borrowed from the scratch buffers.
struct ChunkWords<'a> {
    /// The analyzed text (the chunk is a range of it).
    input: &'a str,
    /// The folded words that were copied ([`Word::in_input`] is false).
    text: &'a str,
    /// The words of the chunk.
    words: &'a [Word],
    /// The cut points the words refer to.
    cuts: &'a [usize],
    /// Whether the chunk is an identifier.
    identifier: bool,
}

impl Inner {
    /// Calls `f(word, stem, origin, offset)` for every token of `chunk`, with positions relative
    /// to the chunk's first, and returns the positions the chunk takes.
    fn tokens(
        &self,
        chunk: &ChunkWords<'_>,
        stem: &mut String,
        f: &mut impl FnMut(&str, &str, Origin, u32),
    ) -> u32 {
        let ChunkWords { input, text: words_text, words, cuts, identifier } = *chunk;
        let mut position: u32 = 0;
        for word in words {
            if word.cjk {
                let ends = &cuts[word.cuts.clone()];
                if let [only] = ends {
                    let gram = &words_text[word.start..*only];
                    f(gram, gram, Origin::Bigram, position);
                    position = position.saturating_add(1);
                }
                let mut start = word.start;
                for pair in ends.windows(2) {
                    let gram = &words_text[start..pair[1]];
                    f(gram, gram, Origin::Bigram, position);
                    position = position.saturating_add(1);
                    start = pair[0];
                }
                continue;
            }
            let source = if word.in_input { input } else { words_text };
            let whole = &source[word.start..word.end];
            let parts = &cuts[word.cuts.clone()];
            let plain = !identifier && parts.is_empty();
            let drop_whole = match self.policy {
                StopwordPolicy::PlainWords => plain && self.stopwords.contains(whole),
                StopwordPolicy::Everywhere => self.stopwords.contains(whole),
                StopwordPolicy::Nowhere => false,
            };
            if !drop_whole {
                self.emit(whole, Origin::Whole, position, stem, f);
            }
            if !parts.is_empty() {
                let mut start = word.start;
                for end in parts.iter().copied().chain(std::iter::once(word.end)) {
                    let part = &words_text[start..end];
                    start = end;
                    let drop_part =
                        self.policy == StopwordPolicy::Everywhere && self.stopwords.contains(part);
                    if !drop_part {
                        self.emit(part, Origin::Part, position, stem, f);
                    }
                }
            }
            position = position.saturating_add(1);
        }
        position
    }

    /// Stems `word` into `stem` and hands the token to `f`.
    #[inline]
    fn emit(
        &self,
        word: &str,
        origin: Origin,
        position: u32,
        stem: &mut String,
        f: &mut impl FnMut(&str, &str, Origin, u32),
    ) {
        let stem = self.stemmer.stem_buffered(word, stem);
        // A stemmer must not erase a word; keep the word itself if one does.
        let stem = if stem.is_empty() { word } else { stem };
        f(word, stem, origin, position);
    }
}
