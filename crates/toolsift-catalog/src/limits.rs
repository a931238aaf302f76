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
/// | [`max_text_bytes`](Limits::max_text_bytes) | 64 KiB | any other string (title, summary, tag, every string of a schema, annotations, `_meta`) cut, [`TextTruncated`](crate::DiagnosticKind::TextTruncated); a longer object key skips the tool, [`KeyTooLong`](crate::DiagnosticKind::KeyTooLong) |
/// | [`max_name_bytes`](Limits::max_name_bytes) | 64 KiB | tool skipped, [`NameTooLong`](crate::DiagnosticKind::NameTooLong) |
/// | [`max_schema_depth`](Limits::max_schema_depth) | 64 | deeper parts replaced by `{}`, [`SchemaTooDeep`](crate::DiagnosticKind::SchemaTooDeep) |
/// | [`max_schema_nodes`](Limits::max_schema_nodes) | 200,000 | remaining `$ref`s replaced by `{}` or left out, [`SchemaTooLarge`](crate::DiagnosticKind::SchemaTooLarge) |
/// | [`max_document_schema_nodes`](Limits::max_document_schema_nodes) | 1,000,000 | caps the document's budget (one operation's plus half the document's own size); as above, for the operations that come after |
///
/// Two limits belong to the readers and are not configurable. A container nested deeper than
/// 128 levels (JSON or YAML, YAML aliases included) is not read: the tool that holds it is
/// skipped with a [`NestedTooDeep`](crate::DiagnosticKind::NestedTooDeep) diagnostic, and the
/// rest of the document loads. YAML anchors and aliases are bounded in bytes: aliases may add
/// at most 16 MiB plus the document's own size to it, and anchors may copy as much (counting
/// 32 bytes per value plus its text), so "billion laughs" documents and a huge anchored string
/// aliased many times are an [`ErrorKind::Yaml`](crate::ErrorKind::Yaml) error instead of
/// eating memory.
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
    /// Longest other string kept (a title, a summary, a tag, each string of a schema, of
    /// annotations and of `_meta`), in UTF-8 bytes; also the longest object key a tool's
    /// schema may have.
    pub max_text_bytes: usize,
    /// Longest tool name accepted, in UTF-8 bytes. A tool with a longer name is skipped (a
    /// name cut short could not call the tool).
    pub max_name_bytes: usize,
    /// Deepest nesting kept in an input or output schema (the schema object itself is level 1).
    pub max_schema_depth: usize,
    /// Most JSON values (objects, arrays and scalars, plus one per 64 bytes of each string
    /// and each key) one OpenAPI operation's input schema may grow to while its `$ref`s are
    /// expanded. Held in memory, a value takes up to about 200 bytes: 200,000 are about
    /// 40 MB.
    pub max_schema_nodes: usize,
    /// The cap on what all operations of one OpenAPI document may grow to together, counted
    /// as in [`max_schema_nodes`](Limits::max_schema_nodes). Below the cap, the document's
    /// budget is one operation's (`max_schema_nodes`) plus half the document's own size
    /// counted the same way, so that operations sharing large components cannot make the
    /// schemas outgrow the document by more than a constant, however small the document.
    /// Real descriptions stay far below it: GitHub's REST description (13 MB) expands to
    /// about 40,000 values in all, the largest of the 70 catalogs of the tuning set to about
    /// 50,000.
    pub max_document_schema_nodes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_document_bytes: 64 * 1024 * 1024,
            max_tools_per_server: 200_000,
            max_description_bytes: 64 * 1024,
            max_text_bytes: 64 * 1024,
            max_name_bytes: 64 * 1024,
            max_schema_depth: 64,
            max_schema_nodes: 200_000,
            max_document_schema_nodes: 1_000_000,
        }
    }
}
