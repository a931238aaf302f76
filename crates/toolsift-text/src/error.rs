//! The crate's one error type: a line of lexicon data that does not parse.

use std::fmt;

/// What went wrong, without the location (see [`Error`]).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A group line of the lexicon has fewer than two members that analyze to some word.
    GroupTooSmall,
    /// A line of the bilingual list has no `=` between the word and its translations.
    MissingEquals,
    /// A line of the bilingual list has nothing before `=`, or no translation after it.
    EmptySide,
}

/// Lexicon data that does not parse: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    line: usize,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, line: usize) -> Error {
        Error { kind, line }
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The 1-based line of the data that is wrong.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::GroupTooSmall => "a group needs at least two members with a word each",
            ErrorKind::MissingEquals => "a translation line needs `word = translations`",
            ErrorKind::EmptySide => "a translation line needs a word and at least one translation",
        };
        write!(f, "line {}: {what}", self.line)
    }
}

impl std::error::Error for Error {}
