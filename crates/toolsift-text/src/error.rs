//! The crate's one error type: a line of lexicon or action data that does not parse.

use std::fmt;

/// What went wrong, without the location (see [`Error`]).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A group line of the lexicon has fewer than two members that analyze to some word.
    GroupTooSmall,
    /// A line of the bilingual list has no `=` between the word and its translations, or a
    /// line of action kinds none between the kind and its groups.
    MissingEquals,
    /// A line of the bilingual list has nothing before `=`, or no translation after it; or a
    /// line of action kinds has no kind before `=`, or no group after it.
    EmptySide,
    /// A line of action kinds names a kind other than `read`, `write` and `delete`.
    UnknownAction,
    /// A line of action kinds names a group that no line of the lexicon starts with.
    UnknownGroup,
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
            ErrorKind::MissingEquals => "a line needs `=` (`word = translations`, `kind = groups`)",
            ErrorKind::EmptySide => "a line needs something on both sides of `=`",
            ErrorKind::UnknownAction => "an action kind is `read`, `write` or `delete`",
            ErrorKind::UnknownGroup => "no lexicon group starts with this name",
        };
        write!(f, "line {}: {what}", self.line)
    }
}

impl std::error::Error for Error {}
