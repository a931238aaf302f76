//! The crate's one error type.

use std::fmt;

/// An error from building, updating or loading an [`Index`](crate::Index).
///
/// Searching never fails; only configuration, document updates and loading a saved index can.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: ErrorKind,
}

/// What went wrong.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// A configuration value is out of its documented range.
    InvalidConfig {
        /// The name of the setting.
        setting: &'static str,
        /// Why the value was rejected.
        reason: String,
    },
    /// A document names a field the index was not configured with.
    UnknownField(String),
    /// The index would exceed its capacity (`u32` document ids, terms or groups).
    Capacity,
    /// A saved index is inconsistent and cannot be loaded.
    Corrupt(String),
    /// A saved index was built with an analyzer that produces different terms from the one
    /// passed to [`Index::from_saved`](crate::Index::from_saved).
    AnalyzerMismatch,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error { kind }
    }

    pub(crate) fn config(setting: &'static str, reason: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidConfig { setting, reason: reason.into() })
    }

    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn corrupt(what: impl Into<String>) -> Error {
        Error::new(ErrorKind::Corrupt(what.into()))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::InvalidConfig { setting, reason } => {
                write!(f, "invalid setting `{setting}`: {reason}")
            }
            ErrorKind::UnknownField(name) => {
                write!(f, "unknown field `{name}`: the index has no such field")
            }
            ErrorKind::Capacity => f.write_str("index capacity exceeded (more than u32::MAX ids)"),
            ErrorKind::Corrupt(what) => write!(f, "saved index is corrupt: {what}"),
            ErrorKind::AnalyzerMismatch => {
                f.write_str("saved index was built with an analyzer that produces different terms")
            }
        }
    }
}

impl std::error::Error for Error {}
