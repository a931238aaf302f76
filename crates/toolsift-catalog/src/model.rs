//! The tool model: [`ToolKind`], [`ToolId`], [`Tool`], [`OpenApiOperation`] and [`Server`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What kind of source a tool came from.
///
/// The lower-case word of each kind ([`ToolKind::as_str`]) is also the prefix of the default
/// model-facing name scheme ([`NameScheme::Kind`](crate::NameScheme::Kind)) and the `kind`
/// word of the dataset format.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolKind {
    /// An MCP server's `tools/list`.
    Mcp,
    /// An OpenAPI / Swagger operation.
    #[serde(rename = "openapi")]
    OpenApi,
    /// A plugin function tool (OpenAI or Anthropic shape).
    Plugin,
}

impl ToolKind {
    /// The lower-case word for this kind: `mcp`, `openapi` or `plugin`.
    ///
    /// ```
    /// use toolsift_catalog::ToolKind;
    /// assert_eq!(ToolKind::OpenApi.as_str(), "openapi");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ToolKind::Mcp => "mcp",
            ToolKind::OpenApi => "openapi",
            ToolKind::Plugin => "plugin",
        }
    }

    /// Parses the lower-case word written by [`ToolKind::as_str`]; `None` for anything else.
    #[must_use]
    pub fn from_word(word: &str) -> Option<ToolKind> {
        match word {
            "mcp" => Some(ToolKind::Mcp),
            "openapi" => Some(ToolKind::OpenApi),
            "plugin" => Some(ToolKind::Plugin),
            _ => None,
        }
    }
}

impl std::fmt::Display for ToolKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool's identity: (server, original name).
///
/// The name is the tool's own name as the source wrote it (for OpenAPI: the operationId, else
/// `METHOD /path`). The model-facing name is a different thing, assigned by the
/// [`Catalog`](crate::Catalog).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ToolId {
    /// The server (catalog) name.
    pub server: String,
    /// The tool's own name (OpenAPI: operationId, else `METHOD /path`).
    pub name: String,
}

impl ToolId {
    /// Makes an id from a server name and a tool name.
    #[must_use]
    pub fn new(server: impl Into<String>, name: impl Into<String>) -> ToolId {
        ToolId { server: server.into(), name: name.into() }
    }
}

impl std::fmt::Display for ToolId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.server, self.name)
    }
}

/// OpenAPI-specific facts of an operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenApiOperation {
    /// Upper-case HTTP method.
    pub method: String,
    /// The path template as written (`/pets/{petId}`).
    pub path: String,
    /// Operation tags.
    pub tags: Vec<String>,
    /// The operation summary.
    pub summary: Option<String>,
    /// Whether the operation is deprecated.
    pub deprecated: bool,
    /// The operationId, if any.
    pub operation_id: Option<String>,
}

impl OpenApiOperation {
    /// Facts for `method` (upper-cased here) on `path`, with no tags, summary or operationId.
    #[must_use]
    pub fn new(method: &str, path: impl Into<String>) -> OpenApiOperation {
        OpenApiOperation {
            method: method.to_ascii_uppercase(),
            path: path.into(),
            tags: Vec::new(),
            summary: None,
            deprecated: false,
            operation_id: None,
        }
    }
}

/// One tool.
///
/// ```
/// use toolsift_catalog::{Tool, ToolId, ToolKind};
/// let tool = Tool::new(ToolId::new("github", "create_issue"), ToolKind::Mcp)
///     .with_description("Create an issue.");
/// assert_eq!(tool.input_schema, serde_json::json!({"type": "object"}));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// Identity.
    pub id: ToolId,
    /// Source kind.
    pub kind: ToolKind,
    /// Human title (MCP `title`, else `annotations.title`).
    pub title: Option<String>,
    /// Description as given (OpenAPI: summary, blank line, description), cut only at
    /// [`Limits::max_description_bytes`](crate::Limits::max_description_bytes) with a
    /// diagnostic.
    pub description: String,
    /// JSON Schema object of the input, as given (OpenAPI: parameters and body merged).
    pub input_schema: Value,
    /// MCP output schema.
    pub output_schema: Option<Value>,
    /// MCP annotations.
    pub annotations: Option<Value>,
    /// MCP `_meta`.
    pub meta: Option<Value>,
    /// OpenAPI facts.
    pub openapi: Option<OpenApiOperation>,
}

impl Tool {
    /// A tool with an empty description and the input schema `{"type": "object"}`.
    #[must_use]
    pub fn new(id: ToolId, kind: ToolKind) -> Tool {
        Tool {
            id,
            kind,
            title: None,
            description: String::new(),
            input_schema: empty_object_schema(),
            output_schema: None,
            annotations: None,
            meta: None,
            openapi: None,
        }
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Tool {
        self.description = description.into();
        self
    }

    /// Sets the input schema.
    #[must_use]
    pub fn with_input_schema(mut self, schema: Value) -> Tool {
        self.input_schema = schema;
        self
    }

    /// The tool's own name (shorthand for `self.id.name`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.id.name
    }

    /// The title if there is one, else the name.
    #[must_use]
    pub fn display_title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.id.name)
    }
}

/// A server's tools in a catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Server {
    /// Server name.
    pub name: String,
    /// Source kind.
    pub kind: ToolKind,
    /// Tools in source order.
    pub tools: Vec<Tool>,
}

impl Server {
    /// Makes a server from its tools.
    #[must_use]
    pub fn new(name: impl Into<String>, kind: ToolKind, tools: Vec<Tool>) -> Server {
        Server { name: name.into(), kind, tools }
    }

    /// The tool with this original name, if any (a linear scan; the
    /// [`Catalog`](crate::Catalog) offers O(1) lookups).
    #[must_use]
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.id.name == name)
    }
}

/// `{"type": "object"}`, the schema of a tool that takes no declared input.
pub(crate) fn empty_object_schema() -> Value {
    let mut map = serde_json::Map::new();
    map.insert("type".to_owned(), Value::String("object".to_owned()));
    Value::Object(map)
}
