//! [`Limits`]: the size limits every loader enforces, with their defaults.

/// Size limits applied while loading a catalog.
///
/// Every limit that is hit is reported: a whole-document limit as an
/// [`Error`](crate::Error), a per-tool limit as a [`Diagnostic`](crate::Diagnostic). Nothing is
/// cut silently.
///
/// | limit | default | when hit |
/// |---|---:|---|
/// | [`max_document_bytes`](Limits::max_document_bytes) | 64 MiB | error [`TooLarge`](crate::ErrorKind::TooLarge) |
/// | [`max_tools_per_server`](Limits::max_tools_per_server) | 200,000 | later tools skipped, one [`TooManyTools`](crate::DiagnosticKind::TooManyTools) |
/// | [`max_description_bytes`](Limits::max_description_bytes) | 64 KiB | description cut, [`DescriptionTruncated`](crate::DiagnosticKind::DescriptionTruncated) |
/// | [`max_schema_depth`](Limits::max_schema_depth) | 64 | deeper parts replaced by `{}`, [`SchemaTooDeep`](crate::DiagnosticKind::SchemaTooDeep) |
/// | [`max_schema_nodes`](Limits::max_schema_nodes) | 200,000 | remaining `$ref`s replaced by `{}`, [`SchemaTooLarge`](crate::DiagnosticKind::SchemaTooLarge) |
/// | [`max_document_schema_nodes`](Limits::max_document_schema_nodes) | 1,000,000 | as above, for the operations that come after |
///
/// Two limits belong to the parsers and are not configurable: JSON nesting deeper than 128
/// levels is an [`ErrorKind::Json`](crate::ErrorKind::Json) error (serde_json's recursion
/// limit), and YAML documents are parsed with a nesting limit of 128 and an alias budget (at
/// most 1,000,000 events replayed through aliases), so "billion laughs" documents are an
/// [`ErrorKind::Yaml`](crate::ErrorKind::Yaml) error.
///
/// ```
/// use toolsift_catalog::Limits;
/// let mut limits = Limits::default();
/// limits.max_description_bytes = 4096;
/// assert_eq!(limits.max_schema_depth, 64);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest document accepted, in bytes.
    pub max_document_bytes: usize,
    /// Most tools loaded from one document.
    pub max_tools_per_server: usize,
    /// Longest description kept (and later indexed and shown), in UTF-8 bytes.
    pub max_description_bytes: usize,
    /// Deepest nesting kept in an input or output schema (the schema object itself is level 1).
    pub max_schema_depth: usize,
    /// Most JSON values (objects, arrays and scalars, plus one per 64 bytes of strings) one
    /// OpenAPI operation's input schema may grow to while its `$ref`s are expanded.
    pub max_schema_nodes: usize,
    /// Most JSON values all operations of one OpenAPI document may grow to together, so that
    /// many operations sharing one large schema cannot multiply the memory used. The default,
    /// 1,000,000 (about 8 MB of schema written as JSON), is ten times what the largest of the
    /// 70 real catalogs of the tuning set expands to (about 99,000).
    pub max_document_schema_nodes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_document_bytes: 64 * 1024 * 1024,
            max_tools_per_server: 200_000,
            max_description_bytes: 64 * 1024,
            max_schema_depth: 64,
            max_schema_nodes: 200_000,
            max_document_schema_nodes: 1_000_000,
        }
    }
}
