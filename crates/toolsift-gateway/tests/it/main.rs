//! The gateway driven end to end by rmcp's client, in front of real upstream processes (the
//! `toolsift-test-upstream` binary, built with rmcp's server side).

mod http;
mod stdio;

use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, ContentBlock, ListToolsResult,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;
use toolsift_gateway::{Config, Gateway, Options, ServerStatus};

const UPSTREAM: &str = env!("CARGO_BIN_EXE_toolsift-test-upstream");

/// A config with one test upstream per `(name, flags)`.
pub(crate) fn config(servers: &[(&str, &[&str])]) -> Config {
    let mut map = Map::new();
    for (name, flags) in servers {
        map.insert((*name).to_owned(), json!({"command": UPSTREAM, "args": flags}));
    }
    Config::parse(&json!({"mcpServers": map}).to_string()).expect("valid config")
}

/// Options for tests: short restarts and timeouts.
pub(crate) fn options() -> Options {
    Options {
        request_timeout: Duration::from_secs(10),
        startup_timeout: Duration::from_secs(10),
        restart_backoff: Duration::from_millis(100),
        restart_backoff_max: Duration::from_millis(400),
        listing_budget: 1_000,
    }
}

/// rmcp's client, counting `notifications/tools/list_changed`.
#[derive(Debug, Clone)]
pub(crate) struct TestClient {
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for TestClient {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::default()
    }
}

pub(crate) struct Session {
    pub(crate) client: RunningService<RoleClient, TestClient>,
    pub(crate) changed: mpsc::UnboundedReceiver<()>,
}

/// Connects rmcp's client to `gateway` over an in-memory pipe.
pub(crate) async fn connect(gateway: &Gateway) -> Session {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let server = gateway.server();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (tx, changed) = mpsc::unbounded_channel();
    let client = TestClient { changed: tx }.serve(client_io).await.expect("client initializes");
    Session { client, changed }
}

impl Session {
    pub(crate) async fn list(&self) -> ListToolsResult {
        self.client.list_tools(None).await.expect("tools/list")
    }

    pub(crate) async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        self.try_call(tool, args).await.expect("tools/call answers")
    }

    pub(crate) async fn try_call(
        &self,
        tool: &str,
        args: Value,
    ) -> Result<CallToolResult, rmcp::ServiceError> {
        let Value::Object(args) = args else { panic!("arguments must be an object") };
        self.client
            .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
            .await
    }

    pub(crate) async fn search(&self, query: &str) -> CallToolResult {
        self.call("tool_search", json!({"query": query})).await
    }

    /// Waits for the next `notifications/tools/list_changed`.
    pub(crate) async fn next_change(&mut self) {
        tokio::time::timeout(Duration::from_secs(15), self.changed.recv())
            .await
            .expect("a tools/list_changed notification in time")
            .expect("the client is alive");
    }
}

/// The text of a result's first content block.
pub(crate) fn text(result: &CallToolResult) -> String {
    match result.content.first() {
        Some(ContentBlock::Text(text)) => text.text.clone(),
        other => panic!("expected text content, got {other:?}"),
    }
}

/// The names in a search result's JSON array.
pub(crate) fn names(result: &CallToolResult) -> Vec<String> {
    let value: Value = serde_json::from_str(&text(result)).unwrap_or(Value::Null);
    value
        .as_array()
        .map(|hits| hits.iter().filter_map(|h| h["name"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// Polls until `server` has status `want` (by variant), or panics after 15 s.
pub(crate) async fn wait_for(gateway: &Gateway, server: &str, up: bool) -> ServerStatus {
    let start = Instant::now();
    loop {
        let status =
            gateway.statuses().into_iter().find(|(name, _)| name == server).map(|(_, s)| s);
        let is_up = matches!(status, Some(ServerStatus::Up { .. }));
        let is_down = matches!(status, Some(ServerStatus::Down { .. }));
        if (up && is_up) || (!up && is_down) {
            return status.expect("known server");
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{server} never became up={up}: {status:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
