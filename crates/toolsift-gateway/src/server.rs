//! What the clients talk to: an MCP server with three tools (search, describe, call) in front
//! of every upstream.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceError};
use serde_json::{Map, Value};

use crate::facade::{Answer, ToolIndex};
use crate::hub::{Hub, Route};

/// The gateway's MCP server side. Each client session has a clone; all share one index.
#[derive(Debug, Clone)]
pub struct GatewayServer {
    hub: Arc<Hub>,
}

const INSTRUCTIONS: &str = "This server puts the tools of several MCP servers behind a search. \
Use tool_search with a few keywords for the action and its object to find a tool, then \
tool_call with its name and arguments.";

impl GatewayServer {
    pub(crate) fn new(hub: Arc<Hub>) -> GatewayServer {
        GatewayServer { hub }
    }

    fn search(&self, args: &Map<String, Value>) -> CallToolResult {
        let Some(query) = args.get("query").and_then(Value::as_str) else {
            return error_text(
                "tool_search needs \"query\": a few keywords, a tool's name, or select:name1,name2",
            );
        };
        let (default, max) = ToolIndex::limits();
        let limit = match args.get("limit") {
            None | Some(Value::Null) => default,
            Some(limit) => match limit.as_u64() {
                Some(n) if n >= 1 => usize::try_from(n).unwrap_or(max).min(max),
                _ => return error_text(&format!("\"limit\" must be an integer from 1 to {max}")),
            },
        };
        let server = match args.get("server") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => return error_text("\"server\" must be a server's name"),
        };
        let trimmed = query.trim();
        if let Some(list) = trimmed.strip_prefix("select:") {
            let names: Vec<&str> =
                list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
            let (found, unknown) = self.hub.with_index(|index| index.select(&names));
            let mut content = vec![ContentBlock::text(found.to_string())];
            if !unknown.is_empty() {
                content.push(ContentBlock::text(format!(
                    "No tool is named {}.{}",
                    unknown.join(", "),
                    self.down_note()
                )));
            }
            return CallToolResult::success(content);
        }
        let answer = self.hub.with_index(|index| {
            let exact = index.exact(trimmed);
            let exact: Vec<String> = match server {
                Some(server) => exact
                    .into_iter()
                    .filter(|name| index.resolve(name).is_some_and(|id| id.server == server))
                    .collect(),
                None => exact,
            };
            if exact.is_empty() {
                index.search(query, limit, server)
            } else {
                let names: Vec<&str> = exact.iter().map(String::as_str).take(limit).collect();
                Answer::Found(index.select(&names).0, String::new())
            }
        });
        match answer {
            Answer::Found(value, missing) => {
                let mut content = vec![ContentBlock::text(value.to_string())];
                if !missing.is_empty() {
                    content.push(ContentBlock::text(missing));
                }
                CallToolResult::success(content)
            }
            Answer::Refused(text) => CallToolResult::success(vec![ContentBlock::text(format!(
                "{text}{}",
                self.down_note()
            ))]),
        }
    }

    /// A paragraph naming the servers that are down, or nothing.
    fn down_note(&self) -> String {
        let down = self.hub.unavailable();
        if down.is_empty() { down } else { format!("\n\n{down}") }
    }

    fn describe(&self, args: &Map<String, Value>) -> CallToolResult {
        let Some(name) = args.get("name").and_then(Value::as_str) else {
            return error_text(
                "tool_describe needs \"name\": a tool's name as tool_search gives it",
            );
        };
        match self.hub.with_index(|index| index.describe(name)) {
            Some(definition) => {
                CallToolResult::success(vec![ContentBlock::text(definition.to_string())])
            }
            None => error_text(&self.not_found(name)),
        }
    }

    fn not_found(&self, name: &str) -> String {
        match self.hub.route(name) {
            Route::Down { server, reason } => {
                format!("{name} belongs to server \"{server}\", which is not available: {reason}")
            }
            _ => format!(
                "No tool is named \"{name}\". Use tool_search to find the tool's exact name."
            ),
        }
    }

    async fn call(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
    ) -> Result<CallToolResult, ErrorData> {
        let (server, tool, peer) = match self.hub.route(name) {
            Route::Up { server, tool, peer } => (server, tool, peer),
            _ => return Ok(error_text(&self.not_found(name))),
        };
        let mut params = CallToolRequestParams::new(tool.clone());
        params.arguments = arguments;
        let timeout = self.hub.options.request_timeout;
        match tokio::time::timeout(timeout, peer.call_tool(params)).await {
            Ok(Ok(result)) => Ok(result),
            // The upstream's own error, passed on as it came.
            Ok(Err(ServiceError::McpError(error))) => Err(error),
            Ok(Err(e)) => {
                Ok(error_text(&format!("Calling {tool} on server \"{server}\" failed: {e}")))
            }
            Err(_) => Ok(error_text(&format!(
                "Calling {tool} on server \"{server}\" timed out after {}s; the call was cancelled.",
                timeout.as_secs_f32()
            ))),
        }
    }
}

fn error_text(text: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

impl ServerHandler for GatewayServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities =
            ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("toolsift", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.hub.tools().as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            "tool_search" => self.search(&args),
            "tool_describe" => self.describe(&args),
            "tool_call" => {
                let Some(name) = args.get("name").and_then(Value::as_str) else {
                    return Ok(error_text(
                        "tool_call needs \"name\": a tool's name as tool_search gives it",
                    )
                    .into());
                };
                let arguments = match args.get("arguments") {
                    None | Some(Value::Null) => None,
                    Some(Value::Object(map)) => Some(map.clone()),
                    Some(_) => return Ok(error_text("\"arguments\" must be an object").into()),
                };
                self.call(name, arguments).await?
            }
            // A client that calls a found tool by its own name reaches it too.
            other => {
                let other = other.to_owned();
                self.call(&other, Some(args)).await?
            }
        };
        Ok(result.into())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.hub.add_peer(context.peer);
    }
}
