//! The crate's one error type.

use std::fmt;

/// An error from building or updating a [`ToolSearch`](crate::ToolSearch).
///
/// Searching never fails; building can (an invalid ranking configuration), and so can updates
/// (a server that is not in the catalog).
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
}

/// What went wrong.
#[non_exhaustive]
#[derive(Debug)]
pub enum ErrorKind {
    /// The index rejected its configuration or a document.
    Rank(toolsift_rank::Error),
    /// The catalog rejected a change.
    Catalog(toolsift_catalog::Error),
}

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl From<toolsift_rank::Error> for Error {
    fn from(e: toolsift_rank::Error) -> Error {
        Error { kind: ErrorKind::Rank(e) }
    }
}

impl From<toolsift_catalog::Error> for Error {
    fn from(e: toolsift_catalog::Error) -> Error {
        Error { kind: ErrorKind::Catalog(e) }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Rank(e) => write!(f, "ranking index: {e}"),
            ErrorKind::Catalog(e) => write!(f, "catalog: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Rank(e) => Some(e),
            ErrorKind::Catalog(e) => Some(e),
        }
    }
}
