//! Local, deterministic tool search for LLM agents.
//!
//! # Brief overview
//!
//! An agent connected to many servers has thousands of tools, far more than fit in a prompt.
//! toolsift lets it ask for the few it needs, in its own words ("open a pull request"), and
//! answers in microseconds, or answers nothing when nothing fits.
//!
//! The pieces, each its own crate and re-exported here as a module:
//!
//! - [`catalog`] reads tool catalogs: MCP `tools/list` results ([`load_mcp`]), OpenAPI 2.0 /
//!   3.x documents in JSON or YAML ([`load_openapi`]), and plugin function-tool arrays
//!   ([`load_plugin`]). Each loader returns a [`Loaded`]: a [`Server`] with every tool it could
//!   read and a [`Diagnostic`] for each one it could not. A [`Catalog`] holds the servers and
//!   gives every [`Tool`] a model-facing name (`mcp__github__create_issue`).
//! - [`text`] turns text into terms: identifier splitting (`createPullRequest`), folding,
//!   stemming, stopwords. One [`Analyzer`] serves documents and queries.
//! - [`rank`] is the BM25F [`Index`]: weighted fields, related words (same stem, stem prefix,
//!   the intent lexicon, and catalog words one edit from a misspelt query word), exact keys,
//!   abstention rules, and an [`Explanation`] for every score.
//! - [`intent`] reads what a request asks against what the catalog offers: it refuses a
//!   request no connected tool serves (a [`Refusal`]) and moves hits by action, service and
//!   name agreement.
//! - [`listing`] renders a catalog or search results for a model.
//!
//! This crate composes them: index, then intent, then results. A [`ToolSearch`] owns a
//! [`Catalog`] and the index over it, and decides which tool text goes into which field (see
//! [`ToolSearch`] for the mapping). It answers [`search`](ToolSearch::search) with
//! [`SearchResults`]: [`Hit`]s (tool, score, matched query terms) or, when empty, a
//! [`Refusal`]; hits for a request that names a service no connected server provides come
//! with that service ([`SearchResults::missing_services`]), which the text rendering says in
//! a last line; a hit whose tool does another kind of action (read, write, delete) than the
//! query asks for, or belongs to another service than the query names, moves down
//! ([`ToolSearchBuilder::action_mismatch`], [`ToolSearchBuilder::service_mismatch`]), one whose
//! tool's name the query spells moves up ([`ToolSearchBuilder::name_match`]), and a file name,
//! web address, hashtag, host with a port, command-line program or e-mail address in the query
//! also searches `file`, `url`, `channel`, `port`, `shell` or `email`
//! ([`ToolSearchBuilder::implied_words`]).
//! [`describe`](ToolSearch::describe)
//! resolves a model-facing name; [`explain`](ToolSearch::explain) breaks a score down. When a
//! server's tools change, [`replace_tools`](ToolSearch::replace_tools) updates catalog and
//! index together, with the same results as a fresh build: it indexes again only the tools
//! that changed, and nothing for the same tools, so a host may call it with the whole new
//! `tools/list` on every `notifications/tools/list_changed`.
//!
//! A host that wants another engine (an embedding model, say) behind the same calls
//! implements [`SearchEngine`], whose only required method is `search`.
//!
//! Depend on this crate for the whole pipeline, or on any single layer alone.
//!
//! # Example
//!
//! ```
//! use toolsift::{Catalog, ToolId, ToolSearch, load_mcp, load_openapi};
//!
//! let github = load_mcp(r#"{"tools": [
//!     {"name": "create_pull_request", "description": "Create a new pull request in a repository.",
//!      "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}},
//!     {"name": "list_issues", "description": "List issues in a repository.",
//!      "inputSchema": {"type": "object"}}
//! ]}"#, "github")?;
//! let petstore = load_openapi("
//! openapi: 3.0.0
//! paths:
//!   /pets:
//!     get:
//!       operationId: listPets
//!       summary: List all pets
//! ", "petstore")?;
//!
//! let mut catalog = Catalog::new();
//! catalog.add_server(github.server);
//! catalog.add_server(petstore.server);
//! let search = ToolSearch::new(catalog)?;
//!
//! // An agent's words find the tool; the hit carries the name the model calls.
//! let results = search.search("open a pull request", 5);
//! assert_eq!(results.hits()[0].name(), "mcp__github__create_pull_request");
//!
//! // A model-facing name resolves to the tool, for a describe or call bridge.
//! let tool = search.describe("openapi__petstore__listPets").ok_or("unknown tool")?;
//! assert_eq!(tool.id, ToolId::new("petstore", "listPets"));
//!
//! // Nothing fits: the answer is empty and says why.
//! let none = search.search("book a flight to Lisbon", 5);
//! assert!(none.is_empty());
//! assert!(none.refusal().is_some());
//!
//! // Every score explains itself.
//! let why = search.explain("open a pull request", &ToolId::new("github", "create_pull_request"));
//! assert!(why.is_some_and(|e| e.score > 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod engine;
mod error;
mod fields;
mod render;
mod results;
mod search;

/// Catalog model and loaders: the [`toolsift_catalog`] crate.
pub use toolsift_catalog as catalog;
/// The request rules: the [`toolsift_intent`] crate.
pub use toolsift_intent as intent;
/// Catalog listings for models: the [`toolsift_listing`] crate.
pub use toolsift_listing as listing;
/// The BM25F index: the [`toolsift_rank`] crate.
pub use toolsift_rank as rank;
/// Text analysis: the [`toolsift_text`] crate.
pub use toolsift_text as text;

pub use engine::SearchEngine;
pub use error::{Error, ErrorKind};
pub use results::{Hit, MatchedTerms, SearchResults};
pub use search::{ToolSearch, ToolSearchBuilder};

pub use toolsift_intent::{
    DEFAULT_ACTION_MISMATCH, DEFAULT_NAME_MATCH, DEFAULT_SERVICE_MISMATCH, DEFAULT_SERVICES,
    Reason, Refusal,
};

pub use toolsift_catalog::{
    Catalog, CatalogBuilder, Diagnostic, DiagnosticKind, Loaded, NameScheme, Server, Tool, ToolId,
    ToolKind, load_file, load_mcp, load_openapi, load_plugin,
};
pub use toolsift_rank::{Abstention, Explanation, Index, IndexBuilder};
pub use toolsift_text::Analyzer;

/// The README's example, run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
