//! The bridge tool definitions.

use serde_json::json;
use toolsift_listing::{Lister, ListingBuilder, Placement};

use crate::common::{catalog, server};

fn two_servers() -> toolsift_catalog::Catalog {
    catalog(vec![
        server("slack", &[("post_message", "Post a message.")]),
        server("github", &[("create_issue", "Create an issue.")]),
    ])
}

#[test]
fn search_schema_and_listing_placement() {
    let lister = Lister::default();
    let listing = lister.listing(&two_servers(), 1_000);
    let bridge = lister.bridge_tools(&listing, Placement::SearchDescription);
    let search = bridge.search();
    assert_eq!(search.name(), "tool_search");
    assert_eq!(
        search.input_schema(),
        &json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "A few keywords: the action and its object, e.g. \"create issue\".",
                },
                "limit": {
                    "type": "integer", "minimum": 1, "maximum": 20, "default": 5,
                    "description": "The most tools to return (default 5).",
                },
                "server": {
                    "type": "string",
                    "description": "Search only this server.",
                    "enum": ["github", "slack"],
                },
            },
            "required": ["query"],
            "additionalProperties": false,
        })
    );
    let expected_tail = format!("\n\nDeferred tools, by server:\n{}", listing.text());
    assert!(search.description().ends_with(&expected_tail), "{}", search.description());

    let prompt = lister.bridge_tools(&listing, Placement::SystemPrompt);
    assert!(
        prompt
            .search()
            .description()
            .ends_with(" The deferred tools are listed in the system prompt.")
    );
    let nowhere = lister.bridge_tools(&listing, Placement::Nowhere);
    assert!(nowhere.search().description().ends_with(" Connected servers: github, slack."));

    // An empty listing text (nothing fits) names the servers instead.
    let tiny = lister.listing(&two_servers(), 0);
    let fallback = lister.bridge_tools(&tiny, Placement::SearchDescription);
    assert!(fallback.search().description().ends_with(" Connected servers: github, slack."));
    let empty = lister.listing(&toolsift_catalog::Catalog::new(), 100);
    let none = lister.bridge_tools(&empty, Placement::SearchDescription);
    assert!(none.search().description().ends_with(" No servers are connected."));
    assert!(none.search().input_schema()["properties"]["server"].get("enum").is_none());
}

#[test]
fn describe_and_call_and_provider_shapes() {
    let lister = ListingBuilder::new()
        .bridge_names("find_tools", "show_tool", "run_tool")
        .search_limit(8, 3)
        .build();
    let listing = lister.listing(&two_servers(), 1_000);
    let bridge = lister.bridge_tools(&listing, Placement::default());
    let names: Vec<&str> = bridge.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["find_tools", "show_tool", "run_tool"]);
    let limit = &bridge.search().input_schema()["properties"]["limit"];
    assert_eq!((limit["default"].clone(), limit["maximum"].clone()), (json!(3), json!(3)));
    assert!(
        bridge
            .search()
            .description()
            .contains("show_tool shows a tool's full input schema and run_tool calls it")
    );

    assert_eq!(bridge.describe().input_schema()["required"], json!(["name"]));
    assert!(
        bridge
            .describe()
            .description()
            .contains("by the name find_tools or the tool listing gives")
    );
    assert_eq!(bridge.call().input_schema()["required"], json!(["name", "arguments"]));
    assert!(bridge.call().description().contains("(show_tool shows it)"));

    let call = bridge.call();
    assert_eq!(
        call.to_anthropic(),
        json!({
            "name": "run_tool", "description": call.description(), "input_schema": call.input_schema(),
        })
    );
    assert_eq!(
        call.to_mcp(),
        json!({
            "name": "run_tool", "description": call.description(), "inputSchema": call.input_schema(),
        })
    );
    assert_eq!(
        call.to_openai_function(),
        json!({"type": "function", "function": {
            "name": "run_tool", "description": call.description(), "parameters": call.input_schema(),
        }})
    );
    assert_eq!(
        call.to_openai_responses(),
        json!({
            "type": "function", "name": "run_tool", "description": call.description(),
            "parameters": call.input_schema(),
        })
    );
}
