use std::sync::Arc;

use serde_json::json;

use super::*;

fn tool(name: &str, description: &str) -> rmcp::model::Tool {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let Value::Object(schema) = schema else { unreachable!() };
    rmcp::model::Tool::new(name.to_owned(), description.to_owned(), Arc::new(schema))
}

#[test]
fn long_and_odd_names_stay_within_64_valid_bytes_and_map_back_exactly() {
    let long_server = "a-very-long-server-name-that-goes-on.and.on.for-quite-a-while";
    let mut index = ToolIndex::new(["short", long_server]).expect("empty index");
    let long_tool = "fetch_every_single_record_from_the_remote_inventory_database_now";
    assert!(index.set_tools("short", &[tool("fetch.data", "Fetch data.")]).is_empty());
    assert!(
        index
            .set_tools(long_server, &[tool(long_tool, "Fetch records."), tool("fetch_data", "x")])
            .is_empty()
    );
    let mut seen = Vec::new();
    for server in ["short", long_server] {
        for name in index.model_names(server) {
            assert!(toolsift_catalog::is_valid_model_name(&name), "{name}");
            let id = index.resolve(&name).expect("maps back");
            assert_eq!(id.server, server);
            seen.push(name);
        }
    }
    assert_eq!(seen.len(), 3);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 3, "unique");
}

#[test]
fn clearing_a_server_empties_it_and_keeps_the_rest() {
    let mut index = ToolIndex::new(["a", "b"]).expect("empty index");
    index.set_tools("a", &[tool("create_issue", "Create an issue.")]);
    index.set_tools("b", &[tool("send_message", "Send a message.")]);
    index.clear("a");
    assert_eq!(index.tool_count("a"), 0);
    assert_eq!(index.tool_count("b"), 1);
    assert!(index.resolve("mcp__a__create_issue").is_none());
    assert!(matches!(index.search("send a message", 5, None), Answer::Found(..)));
    assert!(matches!(index.search("create an issue", 5, None), Answer::Refused(_)));
}

#[test]
fn the_search_tool_description_carries_the_listing() {
    let mut index = ToolIndex::new(["github"]).expect("empty index");
    index.set_tools("github", &[tool("create_issue", "Create an issue in a repository.")]);
    let tools = index.bridge_tools(1_000);
    let names: Vec<&str> = tools.iter().map(|(name, _, _)| name.as_str()).collect();
    assert_eq!(names, ["tool_search", "tool_describe", "tool_call"]);
    assert!(tools[0].1.contains("mcp__github__create_issue"), "{}", tools[0].1);
}

#[test]
fn hits_for_a_service_not_connected_come_with_a_line_saying_so() {
    let mut index = ToolIndex::new(["ops"]).expect("empty index");
    index.set_tools(
        "ops",
        &[
            tool("checkDatabaseStatus", "Check the status of a database."),
            tool("listDatabases", "List the databases."),
        ],
    );
    let Answer::Found(hits, missing) =
        index.search("check the status of the MySQL database", 5, None)
    else {
        panic!("refused")
    };
    assert_eq!(hits[0]["name"], "mcp__ops__checkDatabaseStatus");
    assert!(missing.starts_with("No connected server provides \"mysql\""), "{missing}");
    // One server's hits carry the line too; a request naming no missing service has none.
    assert!(matches!(
        index.search("check the status of the MySQL database", 5, Some("ops")),
        Answer::Found(_, ref m) if m == &missing
    ));
    assert!(matches!(
        index.search("check the database status", 5, None),
        Answer::Found(_, ref m) if m.is_empty()
    ));
}
