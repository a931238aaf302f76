//! Identifier-aware text analysis for tool search (SKELETON: the API contract; the text
//! helper replaces the bodies and this doc).
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// Where an emitted term came from, so a ranker can weight them differently.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// A whole word or identifier as written (lowercased and folded).
    Whole,
    /// A part of an identifier split on case or separator boundaries.
    Part,
    /// A CJK character bigram (or the single character of a one-character run).
    Bigram,
}

/// One term, borrowed from the analyzer's scratch buffers (no allocation per token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The lowercased, folded surface form.
    pub word: &'a str,
    /// The stem of `word` under the analyzer's stemmer.
    pub stem: &'a str,
    /// Where the term came from.
    pub origin: Origin,
    /// Ordinal of the source word in the text (parts share their word's position).
    pub position: u32,
}

/// An owned [`Token`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Term {
    /// The lowercased, folded surface form.
    pub word: String,
    /// The stem.
    pub stem: String,
    /// Where the term came from.
    pub origin: Origin,
    /// Ordinal of the source word in the text.
    pub position: u32,
}

/// A pluggable stemmer.
pub trait Stemmer: Send + Sync + fmt::Debug {
    /// The stem of a lowercased word.
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str>;
}

/// The light English stemmer.
#[derive(Debug, Clone, Copy, Default)]
pub struct LightStemmer;

impl Stemmer for LightStemmer {
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(word)
    }
}

/// Builds an [`Analyzer`].
#[derive(Debug)]
pub struct AnalyzerBuilder {
    stemmer: Arc<dyn Stemmer>,
}

impl Default for AnalyzerBuilder {
    fn default() -> Self {
        AnalyzerBuilder { stemmer: Arc::new(LightStemmer) }
    }
}

impl AnalyzerBuilder {
    /// A builder with the default configuration.
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets the stemmer.
    pub fn stemmer(mut self, stemmer: impl Stemmer + 'static) -> Self {
        self.stemmer = Arc::new(stemmer);
        self
    }
    /// Freezes the configuration.
    pub fn build(self) -> Analyzer {
        Analyzer { inner: Arc::new(Inner { stemmer: self.stemmer }) }
    }
}

#[derive(Debug)]
struct Inner {
    stemmer: Arc<dyn Stemmer>,
}

/// Turns text into terms; the same analyzer serves index time and query time.
#[derive(Debug, Clone)]
pub struct Analyzer {
    inner: Arc<Inner>,
}

impl Default for Analyzer {
    fn default() -> Self {
        AnalyzerBuilder::new().build()
    }
}

impl Analyzer {
    /// A builder.
    pub fn builder() -> AnalyzerBuilder {
        AnalyzerBuilder::new()
    }
    /// Calls `f` for every term of `text`, in text order.
    pub fn for_each_token(&self, text: &str, mut f: impl FnMut(Token<'_>)) {
        for (i, w) in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).enumerate() {
            let word = w.to_lowercase();
            let stem = self.inner.stemmer.stem(&word).into_owned();
            f(Token { word: &word, stem: &stem, origin: Origin::Whole, position: i as u32 });
        }
    }
    /// All terms of `text`, owned.
    pub fn analyze(&self, text: &str) -> Vec<Term> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| {
            out.push(Term { word: t.word.to_owned(), stem: t.stem.to_owned(), origin: t.origin, position: t.position })
        });
        out
    }
    /// The stem of one lowercased word under this analyzer's stemmer.
    pub fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        self.inner.stemmer.stem(word)
    }
    /// Whether a lowercased word is a stopword for this analyzer.
    pub fn is_stopword(&self, _word: &str) -> bool {
        false
    }
}
