//! [`Diagnostic`]: a problem with one tool (or one part of a document) that did not stop the
//! rest of the catalog from loading.

use std::fmt;

/// What a [`Diagnostic`] is about.
///
/// Each kind says what happened to the tool; [`DiagnosticKind::code`] is a stable kebab-case
/// word for tests and logs.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiagnosticKind {
    /// A tool entry is not a JSON object. The entry is skipped.
    NotAnObject,
    /// A tool has no name, an empty name, or a name that is not a string. The tool is skipped.
    MissingName,
    /// A second tool with the same name in one server. The later one is skipped (OpenAPI:
    /// kept under its `METHOD /path` name instead, when that is free).
    DuplicateName,
    /// The input schema is present but not a JSON object (a string, an array, `true`, …).
    /// The tool is skipped.
    InvalidSchema,
    /// An MCP tool has no `inputSchema`. The tool is kept with `{"type": "object"}`.
    MissingSchema,
    /// An optional field has the wrong JSON type (for example a number where a string belongs).
    /// The field is ignored; the tool is kept.
    WrongType,
    /// A tool entry (plugin file) is a provider's built-in tool or an unknown shape, not a
    /// function tool. The entry is skipped.
    UnsupportedTool,
    /// The description was longer than
    /// [`Limits::max_description_bytes`](crate::Limits::max_description_bytes) and was cut at
    /// that length (on a character boundary).
    DescriptionTruncated,
    /// A schema was nested deeper than
    /// [`Limits::max_schema_depth`](crate::Limits::max_schema_depth); the deeper parts were
    /// replaced by `{}`.
    SchemaTooDeep,
    /// Expanding `$ref`s would have produced more than
    /// [`Limits::max_schema_nodes`](crate::Limits::max_schema_nodes) nodes for this operation
    /// (or more than the whole document's budget, see
    /// [`Limits::max_document_schema_nodes`](crate::Limits::max_document_schema_nodes)); the
    /// rest was replaced by `{}` or left out.
    SchemaTooLarge,
    /// A server had more tools than
    /// [`Limits::max_tools_per_server`](crate::Limits::max_tools_per_server); the rest were
    /// skipped.
    TooManyTools,
    /// A local `$ref` cycle: the reference that closes the cycle was replaced by `{}`.
    RefCycle,
    /// A `$ref` to another document (or a URL); it was kept as written, not fetched.
    ExternalRef,
    /// A local `$ref` whose target does not exist; it was kept as written.
    UnresolvedRef,
    /// Two parameters (or a parameter and a body property) of one OpenAPI operation have the
    /// same name; the first one is kept.
    ParameterConflict,
    /// An OpenAPI path item has a key that is neither an HTTP method nor a known field. It is
    /// ignored.
    UnknownMethod,
    /// A part of an OpenAPI document has an unexpected shape (a path item that is not an
    /// object, a parameter without a name, …). That part is ignored.
    MalformedOpenApi,
    /// The model-facing name the scheme gives this tool is reserved for the bridge tools; the
    /// tool got a suffixed name instead.
    ReservedName,
    /// The model-facing name the scheme gives this tool was already taken (after
    /// sanitization); the tool got a suffixed name instead.
    NameCollision,
    /// A tool's id named another server than the one it was added under; the id was rewritten.
    ServerMismatch,
    /// A key appeared more than once in one JSON object or YAML mapping. The last value is
    /// kept (in the place of the first), as JavaScript's `JSON.parse` and most readers do;
    /// the earlier ones are ignored, so this can hide tools (a `tools` key or an OpenAPI path
    /// written twice).
    DuplicateKey,
    /// A part of the document was nested deeper than 128 levels, past what the reader reads.
    /// The tool that holds it (or that refers to it through `$ref`) is skipped; a part
    /// outside any tool is ignored.
    NestedTooDeep,
    /// A tool's name was longer than [`Limits::max_name_bytes`](crate::Limits::max_name_bytes).
    /// The tool is skipped.
    NameTooLong,
    /// A string other than the description (a title, a summary, a tag, a string of a schema)
    /// was longer than [`Limits::max_text_bytes`](crate::Limits::max_text_bytes) and was cut
    /// at that length (on a character boundary).
    TextTruncated,
    /// A request body property has the name and type of a query parameter of the same
    /// operation: the same setting offered both ways, a normal API pattern (Kubernetes' DELETE
    /// operations take `DeleteOptions` as a body and its fields as query parameters). The
    /// parameter is kept; nothing is lost. Not a problem, only a note.
    BodyRepeatsParameter,
    /// An object key in a tool's schema was longer than
    /// [`Limits::max_text_bytes`](crate::Limits::max_text_bytes). The tool is skipped.
    KeyTooLong,
}

impl DiagnosticKind {
    /// Whether this kind only notes a normal pattern of real catalogs (nothing was lost or
    /// changed), as opposed to a problem with the catalog.
    #[must_use]
    pub fn is_note(self) -> bool {
        matches!(self, DiagnosticKind::BodyRepeatsParameter)
    }

    /// A stable kebab-case code, such as `ref-cycle`.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            DiagnosticKind::NotAnObject => "not-an-object",
            DiagnosticKind::MissingName => "missing-name",
            DiagnosticKind::DuplicateName => "duplicate-name",
            DiagnosticKind::InvalidSchema => "invalid-schema",
            DiagnosticKind::MissingSchema => "missing-schema",
            DiagnosticKind::WrongType => "wrong-type",
            DiagnosticKind::UnsupportedTool => "unsupported-tool",
            DiagnosticKind::DescriptionTruncated => "description-truncated",
            DiagnosticKind::SchemaTooDeep => "schema-too-deep",
            DiagnosticKind::SchemaTooLarge => "schema-too-large",
            DiagnosticKind::TooManyTools => "too-many-tools",
            DiagnosticKind::RefCycle => "ref-cycle",
            DiagnosticKind::ExternalRef => "external-ref",
            DiagnosticKind::UnresolvedRef => "unresolved-ref",
            DiagnosticKind::ParameterConflict => "parameter-conflict",
            DiagnosticKind::UnknownMethod => "unknown-method",
            DiagnosticKind::MalformedOpenApi => "malformed-openapi",
            DiagnosticKind::ReservedName => "reserved-name",
            DiagnosticKind::NameCollision => "name-collision",
            DiagnosticKind::ServerMismatch => "server-mismatch",
            DiagnosticKind::DuplicateKey => "duplicate-key",
            DiagnosticKind::NestedTooDeep => "nested-too-deep",
            DiagnosticKind::NameTooLong => "name-too-long",
            DiagnosticKind::TextTruncated => "text-truncated",
            DiagnosticKind::KeyTooLong => "key-too-long",
            DiagnosticKind::BodyRepeatsParameter => "body-repeats-parameter",
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A problem with one tool, naming the server, the tool (when it has a name) and the RFC 6901
/// JSON pointer of the offending value in the source document (such as
/// `/tools/3/inputSchema`).
///
/// Displayed as `server: tool "name" at /pointer: message (code)`, with the name in Rust's
/// debug quoting (control characters escaped) and cut after 120 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    kind: DiagnosticKind,
    server: String,
    tool: Option<String>,
    pointer: String,
    message: String,
}

impl Diagnostic {
    pub(crate) fn new(
        kind: DiagnosticKind,
        server: &str,
        tool: Option<&str>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            kind,
            server: server.to_owned(),
            tool: tool.map(str::to_owned),
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// What happened.
    #[must_use]
    pub fn kind(&self) -> DiagnosticKind {
        self.kind
    }

    /// The server (catalog) name.
    #[must_use]
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The tool's original name, when the tool has one.
    #[must_use]
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// RFC 6901 JSON pointer into the source document (empty for the whole document; for
    /// naming diagnostics raised by a [`Catalog`](crate::Catalog), the tool's pointer is not
    /// known and this is empty).
    #[must_use]
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// A lower-case, human-readable explanation.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.server)?;
        f.write_str(":")?;
        if let Some(tool) = &self.tool {
            // Hostile names can be huge: show at most 120 characters of them.
            write!(f, " tool {}", quote_clipped(tool))?;
        }
        if !self.pointer.is_empty() {
            write!(f, " at {}", self.pointer)?;
        }
        write!(f, ": {} ({})", self.message, self.kind.code())
    }
}

/// At most the first 120 characters of an untrusted name, debug-quoted, with `…` when cut, for
/// diagnostic messages (a 10,000-character name must not make a 10,000-character message).
pub(crate) fn quote_clipped(text: &str) -> String {
    match text.char_indices().nth(120) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// Appends one RFC 6901 reference token (escaping `~` and `/`) to a pointer.
pub(crate) fn push_token(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// Appends an array index to a pointer.
pub(crate) fn push_index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}
