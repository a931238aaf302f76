//! The tool model and the catalog adapters of toolsift.
//!
//! # Brief overview
//!
//! A [`Tool`] is one callable thing a model can use: an MCP tool, an OpenAPI operation or a
//! plugin function. It is identified by a [`ToolId`] (server, original name) and carries its
//! description, its input schema and the facts of its source ([`OpenApiOperation`] for
//! OpenAPI). The loaders ([`load_mcp`], [`load_openapi`], [`load_plugin`], [`load_file`], or a
//! [`Loader`] with chosen [`Limits`]) read a document into a [`Loaded`]: a [`Server`] with every
//! tool that could be read, and a [`Diagnostic`] for every tool (or part) that could not. A
//! document that cannot be read or parsed at all is an [`Error`] naming the file, line and
//! column.
//!
//! A [`Catalog`] holds servers in insertion order and gives every tool a model-facing name
//! from a [`NameScheme`] (default `<kind>__<server>__<tool>`), always matching
//! `^[a-zA-Z0-9_-]{1,64}$`, unique, stable, with O(1) lookup both ways. Reserved bridge names
//! (`tool_search`, `tool_describe`, `tool_call`) are never handed out.
//!
//! This crate knows nothing of scoring: `toolsift-rank` indexes the text, `toolsift-listing`
//! renders a catalog for a model, and the `toolsift` facade wires them together.
//!
//! # Example
//!
//! ```
//! use toolsift_catalog::{Catalog, ToolId, load_mcp, load_openapi};
//!
//! let mcp = load_mcp(r#"{"tools": [
//!     {"name": "create_issue", "description": "Create an issue.",
//!      "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}},
//!     {"description": "no name"}
//! ]}"#, "github")?;
//! assert_eq!(mcp.server.tools.len(), 1);
//! assert_eq!(mcp.diagnostics[0].pointer(), "/tools/1");
//!
//! let api = load_openapi("
//! openapi: 3.0.0
//! paths:
//!   /pets/{petId}:
//!     parameters:
//!       - {name: petId, in: path, required: true, schema: {type: string}}
//!     get:
//!       summary: Show a pet
//! ", "petstore")?;
//!
//! let mut catalog = Catalog::new();
//! catalog.add_server(mcp.server);
//! catalog.add_server(api.server);
//! let names: Vec<&str> = catalog.tools().map(|(name, _)| name).collect();
//! assert_eq!(names, ["mcp__github__create_issue", "openapi__petstore__GET_pets_petId"]);
//! let pet = catalog.tool(&ToolId::new("petstore", "GET /pets/{petId}")).ok_or("missing")?;
//! assert_eq!(pet.input_schema["required"][0], "petId");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `rmcp`: `load_rmcp` and `Loader::load_rmcp` read tools typed by the official Rust MCP
//!   SDK (`rmcp::model::Tool`) through the same MCP adapter as a captured `tools/list` file.
//!
//! # Adding a catalog format
//!
//! An adapter is a private module with `pub(crate) fn load(doc: serde_json::Value, notes:
//! Notes, server: &str, limits: &Limits) -> Result<Loaded, Error>` (`notes` are the reader's:
//! duplicate keys and parts nested too deep to read). It locates the tool entries (an `Err`
//! of kind [`ErrorKind::Shape`] only when the whole document is not of its kind), hands each
//! entry's notes to `Ctx::report_notes` (which says whether the entry must be dropped), reads
//! each entry into a [`Tool`] with the helpers of `common.rs` (`Ctx::report` with the entry's
//! JSON pointer for every problem, `tool_name`, `input_schema`, `Ctx::description`,
//! `Ctx::text`), and ends with `Ctx::finish`, which reports the notes no entry took, skips
//! names over the limit and duplicate names, and applies the tool-count limit. Then add a
//! [`ToolKind`] variant and a match arm in `Loader::load`, and a fixture per rule under
//! `tests/fixtures/`.
#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod catalog;
mod common;
mod diagnostic;
mod error;
mod html;
mod limits;
mod load;
mod mcp;
mod model;
mod names;
mod openapi;
mod parse;
mod plugin;
mod resolve;
#[cfg(feature = "rmcp")]
mod rmcp;
mod yaml;

pub use catalog::{Catalog, CatalogBuilder, DEFAULT_RESERVED_NAMES};
pub use common::Loaded;
pub use diagnostic::{Diagnostic, DiagnosticKind};
pub use error::{Error, ErrorKind};
pub use limits::Limits;
pub use load::{Loader, load_file, load_mcp, load_openapi, load_plugin};
pub use model::{OpenApiOperation, Server, Tool, ToolId, ToolKind};
pub use names::{MAX_NAME_LEN, NameScheme, is_valid_model_name};
pub use parse::parse_document;
#[cfg(feature = "rmcp")]
pub use rmcp::load_rmcp;

/// The README's example, run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
