//! [`Error`]: a document that could not be read or parsed at all.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong with a whole document.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// The document is larger than
    /// [`Limits::max_document_bytes`](crate::Limits::max_document_bytes).
    TooLarge,
    /// The document is not valid UTF-8.
    NotUtf8,
    /// The document is not valid JSON (or is nested deeper than 128 levels).
    Json,
    /// The document is not valid YAML, or exceeds a YAML budget (depth, aliases, nodes).
    Yaml,
    /// The document parsed but is not a catalog of the expected kind (for example an MCP file
    /// without a `tools` array, or a JSON-RPC error response).
    Shape,
    /// A catalog operation named a server that is not in the catalog.
    UnknownServer,
}

/// A document that could not be read or parsed, naming the file (when there is one) and the
/// line and column (when the parser knows them).
///
/// Displayed as `path:line:column: what: detail`, all lower-case.
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    path: Option<PathBuf>,
    line: Option<u64>,
    column: Option<u64>,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, path: None, line: None, column: None, message: message.into() }
    }

    pub(crate) fn at(mut self, line: u64, column: u64) -> Error {
        if line > 0 {
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }

    pub(crate) fn in_file(mut self, path: &Path) -> Error {
        self.path = Some(path.to_path_buf());
        self
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The file, when the document was loaded from one.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The 1-based line of the problem, when known.
    #[must_use]
    pub fn line(&self) -> Option<u64> {
        self.line
    }

    /// The 1-based column of the problem, when known.
    #[must_use]
    pub fn column(&self) -> Option<u64> {
        self.column
    }

    /// The parser's or reader's own explanation.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}:", path.display())?;
        }
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, "{line}:{column}:")?;
        }
        if self.path.is_some() || self.line.is_some() {
            f.write_str(" ")?;
        }
        let what = match self.kind {
            ErrorKind::Io => "cannot read catalog",
            ErrorKind::TooLarge => "catalog too large",
            ErrorKind::NotUtf8 => "catalog is not utf-8",
            ErrorKind::Json => "invalid json",
            ErrorKind::Yaml => "invalid yaml",
            ErrorKind::Shape => "not a tool catalog",
            ErrorKind::UnknownServer => "unknown server",
        };
        write!(f, "{what}: {}", self.message)
    }
}

impl std::error::Error for Error {}
