//! What an agent's tool request asks, whether the connected tools offer it, and how that
//! moves a ranking.
//!
//! # Brief overview
//!
//! A BM25F index ([`toolsift_rank`]) finds the tools whose words match a request. It cannot
//! tell that "acknowledge the pagerduty incident" asks for a service no connected server
//! provides, that "upload a drive file" should not rank a tool that deletes first, or that
//! "create page in space" spells `create_page`. This crate reads those things from the
//! request, against what the connected tools offer, and answers three questions:
//!
//! - **What is asked** ([`Intent::read`], and the rules inside [`Intent::judge`]): the
//!   kind of action (read, write, delete; from [`toolsift_text::Actions`]), the thing it acts
//!   on, the services the request names (a list of about 300 products, `data/services.txt`)
//!   and the tool names it spells; a file name, web address, hashtag, host with a port or
//!   e-mail address also searches its kind (`file`, `url`, `channel`, `port`, `email`).
//! - **Whether the connected tools offer it**: a request that names a service no tool
//!   belongs to, an everyday errand no tool is named for (`data/errands.txt`), or a connected
//!   service none of whose tools does the asked thing is refused with a [`Refusal`]; so is
//!   one the index abstained on ([`Reason::Index`]).
//! - **How each hit's score changes** ([`Adjusted`]): lowered when the tool does another
//!   kind of action than asked ([`IntentBuilder::action_mismatch`]) or belongs to another
//!   service than the one named ([`IntentBuilder::service_mismatch`]), raised when the
//!   request spells its name ([`IntentBuilder::name_match`]); the page is then sorted again.
//!
//! It needs an index built with [`toolsift_rank`] whose documents are tools, grouped by
//! server (the document's group is the server's name), with the fields `name` (what the tool
//! is called) and `summary` (what it does; the default fields have both), and, per document, the tool's facts
//! ([`Intent::tool_facts`], handed back through [`Tools`]) and each server's `name` field
//! texts ([`Intent::set_server`]). The `toolsift` facade does all of this for a catalog; a
//! host with its own index does it as the example shows. Word lists are data files, parsed
//! once per [`IntentBuilder::build`].
//!
//! # Example
//!
//! ```
//! use serde_json::json;
//! use toolsift_intent::{Intent, Judgement, Reason, ToolFacts, ToolRef, Tools};
//! use toolsift_rank::{DocId, Document, Index};
//!
//! // The host's tools: (server, name, summary), indexed with the tuned preset.
//! let catalog = [
//!     ("drive", "delete_file", "Delete a file from the drive."),
//!     ("drive", "upload_file", "Upload a file to the drive."),
//!     ("github", "create_issue", "Create an issue."),
//! ];
//! let mut index = Index::tuned().build()?;
//! let docs: Vec<Document<'_>> = catalog
//!     .iter()
//!     .map(|(server, name, summary)| {
//!         Document::new().field("name", *name).field("summary", *summary).group(*server)
//!     })
//!     .collect();
//! let ids = index.add(docs)?;
//!
//! // The intent layer, told what each tool and server offers.
//! let mut intent = Intent::builder().build(index.analyzer());
//! for server in ["drive", "github"] {
//!     let names = catalog.iter().filter(|t| t.0 == server).map(|t| t.1);
//!     intent.set_server(index.analyzer(), server, names);
//! }
//! struct Host(Vec<(&'static str, &'static str, ToolFacts)>, Vec<DocId>);
//! impl Tools for Host {
//!     fn tool(&self, doc: DocId) -> Option<ToolRef<'_>> {
//!         let (server, name, facts) = self.0.get(self.1.iter().position(|&d| d == doc)?)?;
//!         Some(ToolRef { server, name, facts })
//!     }
//! }
//! let facts = catalog
//!     .iter()
//!     .map(|&(server, name, summary)| {
//!         (server, name, intent.tool_facts(index.analyzer(), name, summary, &json!({}), summary))
//!     })
//!     .collect();
//! let host = Host(facts, ids);
//!
//! // Asked to upload: the deleting tool moves down.
//! // The request is analyzed once: the rules read it, and the index searches its query.
//! let request = intent.read(index.analyzer(), "upload a file to the drive");
//! let outcome = index.search_analyzed(request.query(), 5);
//! let Judgement::Hits(hits) = intent.judge(&request, &outcome, &index, &host, 5) else {
//!     panic!("refused")
//! };
//! assert_eq!(host.tool(hits[0].doc).map(|t| t.name), Some("upload_file"));
//! assert!(hits[1].agreement.action_mismatch());
//!
//! // A service nobody connected: refused, with the reason.
//! let request = intent.read(index.analyzer(), "acknowledge the pagerduty incident");
//! let outcome = index.search_analyzed(request.query(), 5);
//! let judged = intent.judge(&request, &outcome, &index, &host, 5);
//! let Judgement::Refused(refusal) = judged else { panic!("answered") };
//! assert_eq!(refusal.reason(), Reason::MissingService);
//! assert_eq!(refusal.to_string(), "the catalog has no tools for pagerduty");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod actions;
mod implied;
mod intent;
mod names;
mod refusal;
mod request;
mod services;
mod words;

pub use intent::{
    Adjusted, Agreement, DEFAULT_ACTION_MISMATCH, DEFAULT_NAME_MATCH, DEFAULT_SERVICE_MISMATCH,
    Intent, IntentBuilder, Judgement, ToolFacts, ToolRef, ToolText, Tools,
};
pub use refusal::{Reason, Refusal};
pub use request::Request;
pub use services::DEFAULT_SERVICES;

/// The README's example, run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
