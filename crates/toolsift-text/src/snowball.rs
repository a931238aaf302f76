//! The Snowball English (Porter2) stemmer through the `frostem` crate (feature `snowball`).

use std::borrow::Cow;
use std::fmt;

use crate::stem::Stemmer;

/// The Snowball English (Porter2) stemmer. Available with the cargo feature `snowball`.
///
/// Porter2 conflates more than [`LightStemmer`](crate::LightStemmer) (it also strips derivational
/// suffixes such as `-ation`, `-ness`, `-ful`), which finds more related words and merges some
/// unrelated ones.
///
/// ```
/// use toolsift_text::{Analyzer, SnowballStemmer};
///
/// let analyzer = Analyzer::builder().stemmer(SnowballStemmer::new()).build();
/// assert_eq!(analyzer.stem("running"), "run");
/// assert_eq!(analyzer.stem("generalization"), "general");
/// ```
#[derive(Clone, Copy)]
pub struct SnowballStemmer {
    inner: frostem::Stemmer,
}

impl SnowballStemmer {
    /// The English (Porter2) stemmer.
    #[must_use]
    pub fn new() -> Self {
        SnowballStemmer { inner: frostem::Stemmer::new(frostem::Algorithm::English) }
    }
}

impl Default for SnowballStemmer {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for SnowballStemmer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SnowballStemmer(english)")
    }
}

impl Stemmer for SnowballStemmer {
    fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        self.inner.stem(word)
    }
}
