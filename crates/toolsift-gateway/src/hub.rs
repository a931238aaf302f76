//! The gateway's shared state: the index, each upstream's status and connection, the bridge
//! tools the clients see, and the clients to tell when those change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use indexmap::IndexMap;
use rmcp::model::Tool;
use rmcp::{Peer, RoleClient, RoleServer};
use serde_json::{Map, Value, json};

use crate::Options;
use crate::facade::ToolIndex;

/// Where one upstream server stands.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStatus {
    /// Connecting, initializing or listing its tools.
    Starting,
    /// Connected, with this many tools in the index.
    Up {
        /// Tools indexed.
        tools: usize,
    },
    /// Not connected; none of its tools are in the index.
    Down {
        /// Why: the start error, the exit, or the timeout.
        reason: String,
        /// When the next attempt starts.
        retry_in: Duration,
    },
}

/// One upstream: its status and, while up, the connection calls go through.
#[derive(Debug)]
struct Upstream {
    status: ServerStatus,
    peer: Option<Peer<RoleClient>>,
}

#[derive(Debug)]
struct State {
    index: ToolIndex,
    servers: IndexMap<String, Upstream>,
    /// The bridge tools as the clients see them.
    tools: Arc<Vec<Tool>>,
    /// Model-facing names of the tools of servers that are down, for a clear answer when the
    /// model calls one.
    gone: HashMap<String, String>,
}

/// Shared by the upstream supervisors and every client session.
#[derive(Debug)]
pub(crate) struct Hub {
    pub(crate) options: Options,
    state: RwLock<State>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
}

/// What a model-facing name leads to.
#[derive(Debug)]
pub(crate) enum Route {
    /// A connected server's tool: its connection and own name.
    Up { server: String, tool: String, peer: Peer<RoleClient> },
    /// A tool of a server that is down now.
    Down { server: String, reason: String },
    /// No such tool.
    Unknown,
}

/// Metadata the bridge tools carry: a client with its own tool search keeps them loaded.
pub(crate) fn always_load_meta() -> rmcp::model::MetaObject {
    let mut meta = Map::new();
    meta.insert("anthropic/alwaysLoad".to_owned(), Value::Bool(true));
    rmcp::model::MetaObject(meta)
}

/// How the search tool's description extends the listing's wording.
const SEARCH_FORMS: &str = "\n\nA query that is exactly a tool's name returns that tool; \
`select:name1,name2` returns those tools' definitions.";

impl Hub {
    pub(crate) fn new(options: Options, servers: Vec<String>) -> Result<Hub, String> {
        let index = ToolIndex::new(servers.iter().map(String::as_str))?;
        let servers = servers
            .into_iter()
            .map(|name| (name, Upstream { status: ServerStatus::Starting, peer: None }))
            .collect();
        let mut state = State { index, servers, tools: Arc::new(Vec::new()), gone: HashMap::new() };
        state.tools = Arc::new(bridge_tools(&state, options.listing_budget));
        Ok(Hub { options, state: RwLock::new(state), peers: Mutex::new(Vec::new()) })
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// The status of every configured server, in configuration order.
    pub(crate) fn statuses(&self) -> Vec<(String, ServerStatus)> {
        self.read().servers.iter().map(|(name, up)| (name.clone(), up.status.clone())).collect()
    }

    /// The bridge tools for `tools/list`.
    pub(crate) fn tools(&self) -> Arc<Vec<Tool>> {
        Arc::clone(&self.read().tools)
    }

    pub(crate) fn set_starting(&self, server: &str) {
        let mut state = self.write();
        if let Some(up) = state.servers.get_mut(server) {
            up.status = ServerStatus::Starting;
        }
    }

    /// `server` is connected and listed `tools`: index them, route calls to `peer`.
    pub(crate) fn set_up(&self, server: &str, peer: Peer<RoleClient>, tools: &[rmcp::model::Tool]) {
        let changed = {
            let mut state = self.write();
            let problems = state.index.set_tools(server, tools);
            for problem in problems {
                tracing::warn!(server, "{problem}");
            }
            let count = state.index.tool_count(server);
            for name in state.index.model_names(server) {
                state.gone.remove(&name);
            }
            if let Some(up) = state.servers.get_mut(server) {
                up.status = ServerStatus::Up { tools: count };
                up.peer = Some(peer);
            }
            tracing::info!(server, tools = count, "indexed");
            self.refresh(&mut state)
        };
        if changed {
            self.announce();
        }
    }

    /// `server` is down: its tools leave the index until it is back.
    pub(crate) fn set_down(&self, server: &str, reason: String, retry_in: Duration) {
        let changed = {
            let mut state = self.write();
            for name in state.index.model_names(server) {
                state.gone.insert(name, server.to_owned());
            }
            state.index.clear(server);
            if let Some(up) = state.servers.get_mut(server) {
                up.status = ServerStatus::Down { reason, retry_in };
                up.peer = None;
            }
            self.refresh(&mut state)
        };
        if changed {
            self.announce();
        }
    }

    /// Rebuilds the bridge tools; `true` when they changed.
    fn refresh(&self, state: &mut State) -> bool {
        let tools = bridge_tools(state, self.options.listing_budget);
        if *state.tools == tools {
            return false;
        }
        state.tools = Arc::new(tools);
        true
    }

    /// A client session finished initializing: tell it when the tools change.
    pub(crate) fn add_peer(&self, peer: Peer<RoleServer>) {
        self.peers.lock().unwrap_or_else(PoisonError::into_inner).push(peer);
    }

    /// Sends `notifications/tools/list_changed` to every client, forgetting the closed ones.
    fn announce(&self) {
        let peers: Vec<Peer<RoleServer>> = {
            let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
            peers.retain(|peer| !peer.is_transport_closed());
            peers.clone()
        };
        if peers.is_empty() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                for peer in peers {
                    if let Err(e) = peer.notify_tool_list_changed().await {
                        tracing::debug!("a client missed tools/list_changed: {e}");
                    }
                }
            });
        }
    }

    /// Where a call to `model_name` goes.
    pub(crate) fn route(&self, model_name: &str) -> Route {
        let state = self.read();
        if let Some(id) = state.index.resolve(model_name)
            && let Some(peer) = state.servers.get(&id.server).and_then(|up| up.peer.clone())
        {
            return Route::Up { server: id.server, tool: id.name, peer };
        }
        if let Some(server) = state.gone.get(model_name) {
            let reason = match state.servers.get(server).map(|up| &up.status) {
                Some(ServerStatus::Down { reason, retry_in }) => {
                    format!(
                        "{reason}; the next attempt starts within {}s",
                        retry_in.as_secs().max(1)
                    )
                }
                Some(ServerStatus::Starting) => "it is restarting".to_owned(),
                _ => "it is not connected".to_owned(),
            };
            return Route::Down { server: server.clone(), reason };
        }
        Route::Unknown
    }

    /// Runs `f` on the index.
    pub(crate) fn with_index<T>(&self, f: impl FnOnce(&ToolIndex) -> T) -> T {
        f(&self.read().index)
    }

    /// The servers that are not up, one line each, for the model: empty when all are up.
    pub(crate) fn unavailable(&self) -> String {
        unavailable(&self.read())
    }
}

fn unavailable(state: &State) -> String {
    let mut out = String::new();
    for (name, up) in &state.servers {
        let why = match &up.status {
            ServerStatus::Up { .. } => continue,
            ServerStatus::Starting => "starting".to_owned(),
            ServerStatus::Down { reason, .. } => format!("down: {}", clip(reason, 160)),
        };
        if out.is_empty() {
            out.push_str("Not available now (their tools are not searchable until they connect):");
        }
        out.push_str(&format!("\n- {name}: {why}"));
    }
    out
}

fn clip(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() <= max {
        return line.to_owned();
    }
    let mut out: String = line.chars().take(max).collect();
    out.push('…');
    out
}

/// The bridge tools from the index and the servers' statuses.
fn bridge_tools(state: &State, budget: usize) -> Vec<Tool> {
    let down = unavailable(state);
    state
        .index
        .bridge_tools(budget)
        .into_iter()
        .enumerate()
        .map(|(i, (name, mut description, schema))| {
            if i == 0 {
                description.push_str(SEARCH_FORMS);
                if !down.is_empty() {
                    description.push_str("\n\n");
                    description.push_str(&down);
                }
            }
            let schema = match schema {
                Value::Object(map) => map,
                _ => json!({"type": "object"}).as_object().cloned().unwrap_or_default(),
            };
            let mut tool = Tool::new(name, description, Arc::new(schema));
            tool.meta = Some(always_load_meta());
            tool
        })
        .collect()
}
