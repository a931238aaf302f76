//! The [`Analyzer`], its [`AnalyzerBuilder`] and the [`StopwordPolicy`].
//!
//! The pipeline, in order (lossless stages first):
//! 1. chunks: split on whitespace ([`Scratch::next_chunk`] takes one chunk at a time);
//! 2. words: split a chunk on non-alphanumeric grapheme clusters and on CJK/non-CJK changes;
//! 3. normalize: lowercase and fold every character of a word into the scratch buffer;
//! 4. parts: cut a non-CJK word on case boundaries; bigram a CJK run;
//! 5. stopwords: drop stopwords as the [`StopwordPolicy`] says;
//! 6. stem: stem whole words and parts (not bigrams) with the [`Stemmer`].

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use crate::fold::fold;
use crate::split::Scratch;
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
}

impl Default for AnalyzerBuilder {
    fn default() -> Self {
        AnalyzerBuilder {
            stemmer: default_stemmer(),
            stopwords: None,
            policy: StopwordPolicy::default(),
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

    /// Freezes the configuration.
    #[must_use]
    pub fn build(self) -> Analyzer {
        let stopwords = self.stopwords.unwrap_or_else(Stopwords::default_list);
        Analyzer {
            inner: Arc::new(Inner { stemmer: self.stemmer, stopwords, policy: self.policy }),
        }
    }
}

/// The frozen configuration shared by the clones of an [`Analyzer`].
#[derive(Debug)]
struct Inner {
    stemmer: Arc<dyn Stemmer>,
    stopwords: Stopwords,
    policy: StopwordPolicy,
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
    pub fn for_each_token(&self, text: &str, mut f: impl FnMut(Token<'_>)) {
        let pooled = SCRATCH.try_with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                self.run(text, &mut scratch, &mut f);
                scratch.trim();
                true
            }
            // `f` analyzes text itself: the inner call gets its own buffers below.
            Err(_) => false,
        });
        if pooled != Ok(true) {
            // Nested in `f`, or during thread teardown: use fresh buffers.
            self.run(text, &mut Scratch::default(), &mut f);
        }
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

    /// Analyzes `text` with the given scratch buffers.
    fn run(&self, text: &str, scratch: &mut Scratch, f: &mut impl FnMut(Token<'_>)) {
        let inner = &*self.inner;
        let mut position: u32 = 0;
        let mut at = 0;
        while let Some(identifier) = scratch.next_chunk(text, &mut at) {
            let Scratch { text: words_text, words, cuts, stem, .. } = scratch;
            for word in words.iter() {
                if word.cjk {
                    let ends = &cuts[word.cuts.clone()];
                    if let [only] = ends {
                        let gram = &words_text[word.start..*only];
                        f(Token { word: gram, stem: gram, origin: Origin::Bigram, position });
                        position = position.saturating_add(1);
                    }
                    let mut start = word.start;
                    for pair in ends.windows(2) {
                        let gram = &words_text[start..pair[1]];
                        f(Token { word: gram, stem: gram, origin: Origin::Bigram, position });
                        position = position.saturating_add(1);
                        start = pair[0];
                    }
                    continue;
                }
                let source = if word.in_input { text } else { words_text.as_str() };
                let whole = &source[word.start..word.end];
                let parts = &cuts[word.cuts.clone()];
                let plain = !identifier && parts.is_empty();
                let drop_whole = match inner.policy {
                    StopwordPolicy::PlainWords => plain && inner.stopwords.contains(whole),
                    StopwordPolicy::Everywhere => inner.stopwords.contains(whole),
                    StopwordPolicy::Nowhere => false,
                };
                if !drop_whole {
                    emit(inner, whole, Origin::Whole, position, stem, f);
                }
                if !parts.is_empty() {
                    let mut start = word.start;
                    for end in parts.iter().copied().chain(std::iter::once(word.end)) {
                        let part = &words_text[start..end];
                        start = end;
                        let drop_part = inner.policy == StopwordPolicy::Everywhere
                            && inner.stopwords.contains(part);
                        if !drop_part {
                            emit(inner, part, Origin::Part, position, stem, f);
                        }
                    }
                }
                position = position.saturating_add(1);
            }
        }
    }
}

/// Stems `word` into `stem` and hands the token to `f`.
#[inline]
fn emit(
    inner: &Inner,
    word: &str,
    origin: Origin,
    position: u32,
    stem: &mut String,
    f: &mut impl FnMut(Token<'_>),
) {
    let stem = inner.stemmer.stem_buffered(word, stem);
    // A stemmer must not erase a word; keep the word itself if one does.
    let stem = if stem.is_empty() { word } else { stem };
    f(Token { word, stem, origin, position });
}
