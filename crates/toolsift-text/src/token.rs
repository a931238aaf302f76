//! The values the analyzer emits: [`Token`] (borrowed), [`Term`] (owned) and their [`Origin`].

use std::fmt;

/// Where an emitted term came from, so a ranker can weight them differently.
///
/// The [crate docs](crate#splitting) give the rules with examples.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// A whole word as written (lowercased and folded).
    ///
    /// For an identifier this is one chunk between separators, joined: `getIssues` gives the
    /// whole word `getissues`, and `linear_getIssues` gives the two whole words `linear` and
    /// `getissues`.
    Whole,
    /// A part of a whole word split on case boundaries: `get` and `issues` of `getIssues`.
    ///
    /// Parts are emitted right after their whole word and share its position.
    Part,
    /// A CJK character bigram (or the single character of a one-character run).
    Bigram,
}

impl Origin {
    /// The lower-case name of the origin: `"whole"`, `"part"` or `"bigram"`.
    ///
    /// ```
    /// assert_eq!(toolsift_text::Origin::Part.as_str(), "part");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Origin::Whole => "whole",
            Origin::Part => "part",
            Origin::Bigram => "bigram",
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One term, borrowed from the analyzer's scratch buffers (no allocation per token).
///
/// Tokens are handed to the callback of [`Analyzer::for_each_token`](crate::Analyzer::for_each_token);
/// copy what you keep (or convert it with [`Term::from`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The lowercased, folded surface form: never empty, only alphanumeric characters.
    pub word: &'a str,
    /// The stem of `word` under the analyzer's stemmer (equal to `word` for
    /// [`Origin::Bigram`]).
    pub stem: &'a str,
    /// Where the term came from.
    pub origin: Origin,
    /// Ordinal of the source word in the text (parts share their word's position).
    ///
    /// Dropped stopwords still take a position, so positions measure distance in the text.
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

impl Term {
    /// Borrows this term as a [`Token`].
    #[must_use]
    pub fn as_token(&self) -> Token<'_> {
        Token { word: &self.word, stem: &self.stem, origin: self.origin, position: self.position }
    }
}

impl From<Token<'_>> for Term {
    fn from(token: Token<'_>) -> Self {
        Term {
            word: token.word.to_owned(),
            stem: token.stem.to_owned(),
            origin: token.origin,
            position: token.position,
        }
    }
}
