//! An MCP gateway: one MCP server in front of many, that shows a client three tools instead
//! of hundreds.
//!
//! # Brief overview
//!
//! A [`Gateway`] reads the `mcpServers` JSON that Claude Desktop, Claude Code and Cursor
//! already use ([`Config`]), starts every stdio server as a child process and connects to
//! every streamable-HTTP one, all at once, lists each server's tools (every page), and indexes
//! them with the toolsift facade. Clients connect over stdio ([`Gateway::serve_stdio`]) or
//! streamable HTTP ([`Gateway::serve_http`]) and see three tools, each marked
//! `_meta["anthropic/alwaysLoad"] = true` so a client with its own tool search keeps them:
//!
//! - `tool_search` `{query, limit?, server?}`: the best matches with their model-facing names,
//!   descriptions and input schemas, or why nothing fits. A query that is exactly a tool's
//!   name returns that tool; `select:name1,name2` returns those tools. Its description carries
//!   the token-budgeted listing of what is connected and names the servers that are down.
//! - `tool_describe` `{name}`: one tool's full definition.
//! - `tool_call` `{name, arguments}`: forwards the call to the server that owns the tool and
//!   returns its result, errors included, as the server gave it.
//!
//! Model-facing names (`mcp__github__create_issue`) match `^[a-zA-Z0-9_-]{1,64}$`, are unique
//! across servers and map back to exactly one (server, tool): the catalog assigns them
//! ([`toolsift::NameScheme`]).
//!
//! Each upstream has a supervisor: a server that fails to start, exits or does not answer
//! `tools/list` is restarted with exponential backoff ([`Options::restart_backoff`] up to
//! [`Options::restart_backoff_max`]); while it is down its tools leave the index and the
//! search tool's description says so. Every forwarded call has a timeout
//! ([`Options::request_timeout`]). A server's `notifications/tools/list_changed` replaces its
//! tools in the index, and the gateway sends `notifications/tools/list_changed` to its own
//! clients whenever what they see changes.
//!
//! # Example
//!
//! ```
//! use rmcp::ServiceExt as _;
//! use toolsift_gateway::{Config, Gateway, Options};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A real configuration names servers (`"github": {"command": "npx", "args": [...]}`);
//! // this one has none, so the example runs anywhere.
//! let config = Config::parse(r#"{"mcpServers": {}}"#)?;
//! // Returns once every server is indexed or has failed its first start.
//! let gateway = Gateway::start(config, Options::default()).await?;
//!
//! // `serve_stdio` or `serve_http` serve clients; here rmcp's client talks to the gateway's
//! // server side over an in-memory pipe.
//! let (client_io, server_io) = tokio::io::duplex(1 << 16);
//! let server = gateway.server();
//! tokio::spawn(async move {
//!     if let Ok(session) = server.serve(server_io).await {
//!         let _ = session.waiting().await;
//!     }
//! });
//! let client = rmcp::model::ClientConfig::default().serve(client_io).await?;
//! let tools = client.list_tools(None).await?;
//! let names: Vec<&str> = tools.tools.iter().map(|tool| tool.name.as_ref()).collect();
//! assert_eq!(names, ["tool_search", "tool_describe", "tool_call"]);
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]
#![doc(test(attr(deny(warnings))))]

mod config;
mod facade;
mod http;
mod hub;
mod server;
mod upstream;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{oneshot, watch};

pub use config::{Config, ConfigError, ServerConfig};
pub use http::{HttpOptions, HttpServer, TOKEN_ENV};
pub use hub::ServerStatus;
pub use server::GatewayServer;

/// Timeouts, restarts and the listing budget. The defaults are what a user of an MCP client
/// would expect: a tool call may take a minute, a server (often `npx` downloading a package)
/// half a minute to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The longest wait for one forwarded request (a tool call, a `tools/list`). Default 60 s,
    /// the MCP TypeScript SDK's request timeout.
    pub request_timeout: Duration,
    /// The longest wait for a server to start, initialize and list its tools. Default 30 s.
    pub startup_timeout: Duration,
    /// The wait before the first restart of a server that failed; it doubles with each failure
    /// in a row. Default 1 s.
    pub restart_backoff: Duration,
    /// The longest wait between restarts; a server that stayed up this long starts again from
    /// [`Options::restart_backoff`]. Default 60 s.
    pub restart_backoff_max: Duration,
    /// The token budget of the listing in the search tool's description. Default 1,000.
    pub listing_budget: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            request_timeout: Duration::from_secs(60),
            startup_timeout: Duration::from_secs(30),
            restart_backoff: Duration::from_secs(1),
            restart_backoff_max: Duration::from_secs(60),
            listing_budget: 1_000,
        }
    }
}

/// A failure of the gateway as a whole (a single upstream's failure is a [`ServerStatus`]).
#[derive(Debug)]
pub struct Error {
    message: String,
}

impl Error {
    pub(crate) fn new(message: impl Into<String>) -> Error {
        Error { message: message.into() }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A running gateway: the upstream supervisors and the shared index. Dropping it stops the
/// supervisors and the servers they started.
#[derive(Debug)]
pub struct Gateway {
    hub: Arc<hub::Hub>,
    shutdown: watch::Sender<bool>,
    supervisors: Vec<tokio::task::JoinHandle<()>>,
}

impl Gateway {
    /// Starts every upstream at once and returns when each is indexed or has failed its first
    /// start: the wait is the slowest server's, at most [`Options::startup_timeout`]. Servers
    /// that failed keep being retried in the background. Needs a Tokio runtime.
    ///
    /// # Errors
    ///
    /// Only if the empty index cannot be built; upstream failures are statuses.
    pub async fn start(config: Config, options: Options) -> Result<Gateway, Error> {
        let names: Vec<String> = config.servers.keys().cloned().collect();
        let hub = Arc::new(hub::Hub::new(options, names).map_err(Error::new)?);
        let (shutdown, shutdown_rx) = watch::channel(false);
        let mut ready = Vec::new();
        let mut supervisors = Vec::new();
        for (name, server) in config.servers {
            let (tx, rx) = oneshot::channel();
            ready.push(rx);
            supervisors.push(tokio::spawn(upstream::supervise(
                Arc::clone(&hub),
                name,
                server,
                tx,
                shutdown_rx.clone(),
            )));
        }
        for rx in ready {
            // A supervisor that ended early has dropped its sender: nothing to wait for.
            let _ = rx.await;
        }
        Ok(Gateway { hub, shutdown, supervisors })
    }

    /// Every configured server and where it stands, in configuration order.
    pub fn statuses(&self) -> Vec<(String, ServerStatus)> {
        self.hub.statuses()
    }

    /// A server handler for one client session (rmcp's [`ServerHandler`](rmcp::ServerHandler)),
    /// for a transport of the caller's choosing.
    pub fn server(&self) -> GatewayServer {
        GatewayServer::new(Arc::clone(&self.hub))
    }

    /// Serves one client on this process's stdin and stdout until it disconnects. Nothing
    /// else may write to stdout meanwhile.
    ///
    /// # Errors
    ///
    /// When the client's initialization fails or the session ends abnormally.
    pub async fn serve_stdio(&self) -> Result<(), Error> {
        use rmcp::ServiceExt as _;
        let running = self
            .server()
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| Error::new(format!("the client did not initialize: {e}")))?;
        running.waiting().await.map_err(|e| Error::new(format!("the session failed: {e}")))?;
        Ok(())
    }

    /// Serves clients over streamable HTTP at `options.bind` until the returned server is
    /// stopped or dropped. See [`HttpOptions`] for the safety rules.
    ///
    /// # Errors
    ///
    /// A non-loopback address without a token, or an address that cannot be bound.
    pub async fn serve_http(&self, options: HttpOptions) -> Result<HttpServer, Error> {
        http::serve(self.server(), options).await
    }

    /// Stops the supervisors; each closes its connection and ends its child process.
    pub fn shutdown(&self) {
        let _ = self.shutdown.send(true);
    }

    /// Stops the supervisors and waits (at most 5 s) until every connection is closed and
    /// every child process it started has been told to end.
    pub async fn close(mut self) {
        self.shutdown();
        let supervisors = std::mem::take(&mut self.supervisors);
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            for supervisor in supervisors {
                let _ = supervisor.await;
            }
        })
        .await;
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// rustls needs one process-wide crypto provider for HTTPS upstreams; the first call installs
/// *ring*'s, later calls (or a provider the host installed) leave it as it is.
pub(crate) fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The README's example, run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
