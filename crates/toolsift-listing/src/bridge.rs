//! The bridge tools a host exposes instead of its deferred tools: `tool_search`,
//! `tool_describe` and `tool_call`.

use serde_json::{Value, json};

use crate::config::Config;
use crate::listing::Listing;
use crate::sanitize;

/// Where the host puts the catalog listing, which decides what the `tool_search`
/// description says.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Inside the `tool_search` description, after a `Deferred tools, by server:` line (when
    /// the listing text is empty, the description names the connected servers instead). The
    /// default: the listing then travels with the tool definitions and is cached with them.
    #[default]
    SearchDescription,
    /// In the system prompt; the `tool_search` description points there.
    SystemPrompt,
    /// Nowhere; the `tool_search` description names the connected servers.
    Nowhere,
}

/// One bridge tool definition: a name, a description and a JSON Schema of its input, with
/// the provider shapes hosts need.
#[derive(Debug, Clone, PartialEq)]
pub struct BridgeTool {
    name: String,
    description: String,
    input_schema: Value,
}

impl BridgeTool {
    /// The tool name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the input.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The Anthropic Messages API shape: `{"name", "description", "input_schema"}`.
    pub fn to_anthropic(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        })
    }

    /// The OpenAI Chat Completions shape:
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    pub fn to_openai_function(&self) -> Value {
        json!({"type": "function", "function": {
            "name": self.name,
            "description": self.description,
            "parameters": self.input_schema,
        }})
    }

    /// The OpenAI Responses API shape: `{"type": "function", "name", "description",
    /// "parameters"}`.
    pub fn to_openai_responses(&self) -> Value {
        json!({
            "type": "function",
            "name": self.name,
            "description": self.description,
            "parameters": self.input_schema,
        })
    }

    /// The MCP `tools/list` shape: `{"name", "description", "inputSchema"}`.
    pub fn to_mcp(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
        })
    }
}

/// The three bridge tools, made by [`Lister::bridge_tools`](crate::Lister::bridge_tools).
///
/// ```
/// use toolsift_catalog::Catalog;
/// use toolsift_listing::{Lister, Placement};
///
/// let lister = Lister::default();
/// let listing = lister.listing(&Catalog::new(), 1_000);
/// let bridge = lister.bridge_tools(&listing, Placement::default());
/// let names: Vec<&str> = bridge.iter().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["tool_search", "tool_describe", "tool_call"]);
/// assert_eq!(bridge.search().input_schema()["required"][0], "query");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BridgeTools {
    search: BridgeTool,
    describe: BridgeTool,
    call: BridgeTool,
}

impl BridgeTools {
    /// `tool_search`: `{query, limit?, server?}`.
    pub fn search(&self) -> &BridgeTool {
        &self.search
    }

    /// `tool_describe`: `{name}`.
    pub fn describe(&self) -> &BridgeTool {
        &self.describe
    }

    /// `tool_call`: `{name, arguments}`.
    pub fn call(&self) -> &BridgeTool {
        &self.call
    }

    /// The three tools: search, describe, call.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &BridgeTool> {
        [&self.search, &self.describe, &self.call].into_iter()
    }
}

pub(crate) fn build(config: &Config, listing: &Listing, placement: Placement) -> BridgeTools {
    let (search_name, describe_name, call_name) =
        (&config.search_name, &config.describe_name, &config.call_name);
    let servers: Vec<&str> = listing.servers().iter().map(|s| s.name()).collect();

    let mut description = format!(
        "Find deferred tools: tools that are available but not loaded. Give a few keywords \
         for the action and its object (e.g. \"create issue\", \"list channels\"); the best \
         matches come back with their required parameters. Pass `server` to search one \
         server only. {describe_name} shows a tool's full input schema and {call_name} calls \
         it. If the search says nothing matches, do not rephrase it: tell the user the tool \
         is not available."
    );
    let listed = placement == Placement::SearchDescription && !listing.text().is_empty();
    match placement {
        _ if listed => {
            description.push_str("\n\nDeferred tools, by server:\n");
            description.push_str(listing.text());
        }
        Placement::SystemPrompt => {
            description.push_str(" The deferred tools are listed in the system prompt.");
        }
        _ => push_servers(&mut description, &servers),
    }

    let mut properties = serde_json::Map::new();
    properties.insert(
        "query".into(),
        json!({
            "type": "string",
            "description": "A few keywords: the action and its object, e.g. \"create issue\".",
        }),
    );
    properties.insert(
        "limit".into(),
        json!({
            "type": "integer",
            "minimum": 1,
            "maximum": config.max_limit,
            "default": config.default_limit,
            "description": format!("The most tools to return (default {}).", config.default_limit),
        }),
    );
    let mut server = json!({"type": "string", "description": "Search only this server."});
    if !servers.is_empty() {
        server["enum"] = json!(servers);
    }
    properties.insert("server".into(), server);
    let search = BridgeTool {
        name: search_name.clone(),
        description,
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "required": ["query"],
            "additionalProperties": false,
        }),
    };

    let describe = BridgeTool {
        name: describe_name.clone(),
        description: format!(
            "Show the full definition of a deferred tool (its description and input schema), \
             by the name {search_name} or the tool listing gives."
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The tool's name, exactly as listed."},
            },
            "required": ["name"],
            "additionalProperties": false,
        }),
    };

    let call = BridgeTool {
        name: call_name.clone(),
        description: format!(
            "Call a deferred tool by name, with arguments that match its input schema \
             ({describe_name} shows it)."
        ),
        input_schema: json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The tool's name, exactly as listed."},
                "arguments": {
                    "type": "object",
                    "description": "The tool's arguments ({} when it takes none).",
                },
            },
            "required": ["name", "arguments"],
            "additionalProperties": false,
        }),
    };

    BridgeTools { search, describe, call }
}

fn push_servers(out: &mut String, servers: &[&str]) {
    if servers.is_empty() {
        out.push_str(" No servers are connected.");
        return;
    }
    out.push_str(" Connected servers: ");
    for (i, server) in servers.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        sanitize::push_name(out, server);
    }
    out.push('.');
}
