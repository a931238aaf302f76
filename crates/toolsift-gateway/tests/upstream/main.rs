//! A small upstream MCP server on stdio, built with rmcp's server side, that the gateway's
//! tests start as a child process.
//!
//! Tools: `echo {text}`, `add {a, b}`, `get_weather {city}`, `fail` (a tool error),
//! `reject` (a protocol error), `crash` (the process exits), `sleep {ms}`, and
//! `set_tools {add?: [names], remove?: [names]}`, which changes the tool list and sends
//! `notifications/tools/list_changed`.
//!
//! Flags: `--page-size N` pages `tools/list` with `nextCursor`; `--fail-start` exits at once
//! with a message on stderr; `--hang-start` never answers `initialize`; `--start-delay-ms N`
//! waits N ms before serving; `--tools-file PATH`
//! serves the tools of an MCP `tools/list` JSON file (an array or `{"tools": [...]}`) as
//! well, each answering `ok`.

#![allow(clippy::print_stderr)]

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Cursor, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};

#[derive(Clone)]
struct Upstream {
    tools: Arc<Mutex<Vec<Tool>>>,
    page_size: usize,
}

fn tool(name: &str, description: &str, schema: Value) -> Tool {
    let Value::Object(schema) = schema else {
        return Tool::new(name.to_owned(), description.to_owned(), Arc::new(Map::new()));
    };
    Tool::new(name.to_owned(), description.to_owned(), Arc::new(schema))
}

fn builtin_tools() -> Vec<Tool> {
    let text =
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    vec![
        tool("echo", "Echo the given text back unchanged.", text),
        tool(
            "add",
            "Add two numbers and return their sum.",
            json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}),
        ),
        tool(
            "get_weather",
            "Get the current weather forecast for a city.",
            json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        ),
        tool("fail", "Always fails with a tool error.", json!({"type": "object"})),
        tool("reject", "Always rejects the call with a protocol error.", json!({"type": "object"})),
        tool(
            "crash",
            "Exits the server process in the middle of the call.",
            json!({"type": "object"}),
        ),
        tool(
            "sleep",
            "Sleep for some milliseconds, then answer.",
            json!({"type": "object", "properties": {"ms": {"type": "integer"}}, "required": ["ms"]}),
        ),
        tool(
            "set_tools",
            "Add and remove tools, then send notifications/tools/list_changed.",
            json!({"type": "object", "properties": {
                "add": {"type": "array", "items": {"type": "string"}},
                "remove": {"type": "array", "items": {"type": "string"}}}}),
        ),
    ]
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn names(args: &Map<String, Value>, key: &str) -> Vec<String> {
    args.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

impl ServerHandler for Upstream {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build(),
        )
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.tools.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let start: usize = request
            .and_then(|r| r.cursor)
            .map(|c| c.parse().map_err(|_| ErrorData::invalid_params("bad cursor", None)))
            .transpose()?
            .unwrap_or(0);
        let end = (start + self.page_size).min(tools.len());
        let mut result =
            ListToolsResult::with_all_items(tools.get(start..end).unwrap_or_default().to_vec());
        if end < tools.len() {
            result.next_cursor = Some(Cursor::from(end.to_string()));
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            "echo" => text(args.get("text").and_then(Value::as_str).unwrap_or_default()),
            "add" => {
                let a = args.get("a").and_then(Value::as_f64).unwrap_or(0.0);
                let b = args.get("b").and_then(Value::as_f64).unwrap_or(0.0);
                text(format!("{}", a + b))
            }
            "get_weather" => text(format!(
                "Sunny in {}",
                args.get("city").and_then(Value::as_str).unwrap_or("nowhere")
            )),
            "fail" => CallToolResult::error(vec![ContentBlock::text("it failed on purpose")]),
            "reject" => {
                return Err(ErrorData::invalid_params(
                    "rejected on purpose",
                    Some(json!({"why": "test"})),
                ));
            }
            "crash" => {
                eprintln!("crashing on purpose");
                std::process::exit(3);
            }
            "sleep" => {
                let ms = args.get("ms").and_then(Value::as_u64).unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                text("slept")
            }
            "set_tools" => {
                {
                    let mut tools = self.tools.lock().unwrap_or_else(PoisonError::into_inner);
                    let remove = names(&args, "remove");
                    tools.retain(|t| !remove.iter().any(|r| r == t.name.as_ref()));
                    for name in names(&args, "add") {
                        tools.push(tool(
                            &name,
                            &format!("A tool named {name}, added at run time."),
                            json!({"type": "object"}),
                        ));
                    }
                }
                let _ = context.peer.notify_tool_list_changed().await;
                text("changed")
            }
            other => {
                let known = self
                    .tools
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .iter()
                    .any(|t| t.name == other);
                if !known {
                    return Err(ErrorData::invalid_params(format!("no tool {other}"), None));
                }
                text("ok")
            }
        };
        Ok(result.into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut page_size = usize::MAX;
    let mut tools = builtin_tools();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--page-size" => {
                i += 1;
                page_size = args.get(i).and_then(|n| n.parse().ok()).unwrap_or(usize::MAX).max(1);
            }
            "--fail-start" => {
                eprintln!("refusing to start: TEST_TOKEN is not set");
                std::process::exit(2);
            }
            "--start-delay-ms" => {
                i += 1;
                let ms = args.get(i).and_then(|n| n.parse().ok()).unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            "--hang-start" => loop {
                tokio::time::sleep(Duration::from_secs(3600)).await;
            },
            "--tools-file" => {
                i += 1;
                let path = args.get(i).cloned().unwrap_or_default();
                let doc: Value = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok())
                    .unwrap_or(Value::Null);
                let list = doc.get("tools").cloned().unwrap_or(doc);
                let extra: Vec<Tool> = serde_json::from_value(list).unwrap_or_default();
                tools.extend(extra);
            }
            other => {
                eprintln!("unknown flag {other}");
                std::process::exit(64);
            }
        }
        i += 1;
    }
    let server = Upstream { tools: Arc::new(Mutex::new(tools)), page_size };
    match server.serve(rmcp::transport::stdio()).await {
        Ok(running) => {
            let _ = running.waiting().await;
        }
        Err(e) => eprintln!("initialize failed: {e}"),
    }
}
