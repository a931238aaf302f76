//! [`Request`]: a request analyzed once, the words it implies, and the text the index searches.
//!
//! Every rule of this crate reads the request through one [`Analyzed`] value made by the
//! index's analyzer: the terms (for the lexicon and the services) and the chunks, the runs
//! between white space as written (for quotes, negation, clauses, file names and addresses).
//! A rule that looks at punctuation reads it inside a chunk; no rule splits the text itself.

use std::ops::Range;

use toolsift_text::{Analyzed, Origin};

/// A request read once ([`Intent::read`](crate::Intent::read)): its analysis, and the query
/// the index searches for it.
///
/// The query is the request itself, or the request with the words it implies added and each
/// e-mail address replaced by `email` ([`Request::added`]); it is analyzed by the same
/// analyzer, edit by edit, so [`Index::search_analyzed`](toolsift_rank::Index::search_analyzed)
/// searches it without analyzing anything again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The request as written.
    asked: Analyzed,
    /// The query, when it differs from the request.
    query: Option<Analyzed>,
    /// The words added, which the request does not write.
    added: Vec<&'static str>,
}

impl Request {
    /// A request with nothing implied.
    pub(crate) fn plain(asked: Analyzed) -> Request {
        Request { asked, query: None, added: Vec::new() }
    }

    /// A request and the query made from it by adding `added`.
    pub(crate) fn with_query(
        asked: Analyzed,
        query: Analyzed,
        added: Vec<&'static str>,
    ) -> Request {
        Request { asked, query: Some(query), added }
    }

    /// The request as written.
    #[must_use]
    pub fn text(&self) -> &str {
        self.asked.text()
    }

    /// The request as written, analyzed: the rules read this.
    #[must_use]
    pub fn analyzed(&self) -> &Analyzed {
        &self.asked
    }

    /// What the index searches: the request, with the words it implies.
    #[must_use]
    pub fn query(&self) -> &Analyzed {
        self.query.as_ref().unwrap_or(&self.asked)
    }

    /// The words added to the request (`file`, `url`, `channel`, `port`, `shell`, `email`):
    /// a refusal never quotes them back as words the request wrote.
    #[must_use]
    pub fn added(&self) -> &[&'static str] {
        &self.added
    }
}

/// The words of `a` as written (its chunks: runs between white space, punctuation included),
/// in order.
pub(crate) fn words(a: &Analyzed) -> impl Iterator<Item = &str> + Clone {
    a.chunks().map(|c| c.text)
}

/// The words of `a` as written within bytes `range` of its text, each cut to the range, with
/// its offset in the text, in order.
pub(crate) fn words_in(
    a: &Analyzed,
    range: Range<usize>,
) -> impl Iterator<Item = (usize, &str)> + Clone {
    a.chunks().filter_map(move |c| {
        let start = c.span.start.max(range.start);
        let end = c.span.end.min(range.end);
        (start < end).then(|| a.text().get(start..end).map(|w| (start, w))).flatten()
    })
}

/// Whether `a` has `word` (lowercase) as a whole word: written alone or between separators
/// (`file` in `the file`, `file_path`, `file's`; not in `fileName` or `files`).
pub(crate) fn writes(a: &Analyzed, word: &str) -> bool {
    a.tokens().any(|t| t.origin == Origin::Whole && t.word == word)
}
