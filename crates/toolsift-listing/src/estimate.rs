//! Token estimates: the trait a budget is measured with, and the default chars/4 estimate.

use std::fmt;

/// Estimates how many tokens a text costs a model.
///
/// The listing uses it to fit a token budget. It has one required method. Any
/// `Fn(&str) -> usize + Send + Sync` closure is an estimator too, so a host with a real
/// tokenizer can plug it in directly.
///
/// The listing estimates each server block once and adds the parts, then checks the final
/// text with one more call; an estimator that is roughly additive (the cost of two texts
/// joined is about the sum of their costs) gets the best use of the budget, and any
/// estimator gets a listing that is never over budget by its own measure.
///
/// ```
/// use toolsift_listing::{CharsPerToken, TokenEstimator};
///
/// assert_eq!(CharsPerToken::default().estimate("twelve chars"), 3);
/// let words = |text: &str| text.split_whitespace().count();
/// assert_eq!(words.estimate("three short words"), 3);
/// ```
pub trait TokenEstimator {
    /// The estimated number of tokens of `text`.
    fn estimate(&self, text: &str) -> usize;
}

impl<F> TokenEstimator for F
where
    F: Fn(&str) -> usize,
{
    fn estimate(&self, text: &str) -> usize {
        self(text)
    }
}

/// The default estimate: one token per `n` characters (Unicode scalar values), rounded up;
/// `n` is 4 by default.
///
/// This is an **estimate**, not a tokenizer: for English prose and identifiers it is close to
/// what common tokenizers produce, for CJK text it is low (CJK characters often cost a token
/// each), so hosts with CJK catalogs or a tight budget should plug in their tokenizer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CharsPerToken {
    chars: usize,
}

impl CharsPerToken {
    /// One token per `chars` characters; `0` is treated as `1`.
    pub fn new(chars: usize) -> Self {
        CharsPerToken { chars: chars.max(1) }
    }

    /// The number of characters per token.
    pub fn chars(self) -> usize {
        self.chars
    }
}

impl Default for CharsPerToken {
    fn default() -> Self {
        CharsPerToken::new(4)
    }
}

impl fmt::Debug for CharsPerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CharsPerToken({})", self.chars)
    }
}

impl TokenEstimator for CharsPerToken {
    fn estimate(&self, text: &str) -> usize {
        text.chars().count().div_ceil(self.chars)
    }
}
