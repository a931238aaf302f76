//! Tool model and catalog adapters (SKELETON: the API contract; the catalog helper replaces
//! the bodies, splits modules and writes the real docs).
#![forbid(unsafe_code)]

use indexmap::IndexMap;
use serde_json::Value;

/// What kind of source a tool came from.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToolKind {
    /// An MCP server's `tools/list`.
    Mcp,
    /// An OpenAPI / Swagger operation.
    OpenApi,
    /// A plugin function tool (OpenAI or Anthropic shape).
    Plugin,
}

/// A tool's identity: (server, original name).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolId {
    /// The server (catalog) name.
    pub server: String,
    /// The tool's own name (OpenAPI: operationId, else `METHOD /path`).
    pub name: String,
}

/// OpenAPI-specific facts of an operation.
#[derive(Debug, Clone, PartialEq)]
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

/// One tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// Identity.
    pub id: ToolId,
    /// Source kind.
    pub kind: ToolKind,
    /// Human title (`title`, else `annotations.title`).
    pub title: Option<String>,
    /// Description as given (OpenAPI: summary, blank line, description).
    pub description: String,
    /// JSON Schema object of the input, as given (with OpenAPI parameters merged).
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

/// A server's tools in a catalog.
#[derive(Debug, Clone)]
pub struct Server {
    /// Server name.
    pub name: String,
    /// Source kind.
    pub kind: ToolKind,
    /// Tools in source order.
    pub tools: Vec<Tool>,
}

/// An insertion-ordered set of servers and their tools.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    servers: IndexMap<String, Server>,
    epoch: u64,
}

impl Catalog {
    /// Servers in insertion order.
    pub fn servers(&self) -> impl Iterator<Item = &Server> {
        self.servers.values()
    }
    /// Bumped by every change.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
}
