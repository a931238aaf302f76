//! Tools typed by the official Rust MCP SDK load exactly as the same tools read from JSON.

use serde_json::Value;
use toolsift_catalog::{load_mcp, load_rmcp};

/// Reads a real captured `tools/list` result into rmcp's types, then through both paths.
#[track_caller]
fn check_same(file: &str, server: &str) {
    let path = format!("{}/../../xtask/tuning/catalogs/mcp/{file}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    let typed: Vec<rmcp::model::Tool> =
        serde_json::from_value(doc["tools"].clone()).expect("rmcp reads the captured tools");

    let from_json = load_mcp(&bytes, server).unwrap();
    let from_rmcp = load_rmcp(&typed, server).unwrap();
    assert_eq!(from_rmcp.tools().len(), from_json.tools().len());
    for (a, b) in from_rmcp.tools().iter().zip(from_json.tools()) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.title, b.title);
        assert_eq!(a.description, b.description);
        assert_eq!(a.input_schema, b.input_schema);
        assert_eq!(a.output_schema, b.output_schema);
    }
    assert_eq!(from_rmcp.diagnostics.len(), from_json.diagnostics.len());
}

#[test]
fn github_tools_typed_by_rmcp_match_the_json_capture() {
    check_same("github.json", "github");
}

#[test]
fn filesystem_tools_with_annotations_match() {
    check_same("filesystem.json", "filesystem");
}

#[test]
fn a_tool_with_a_problem_is_a_diagnostic_not_a_loss() {
    use std::sync::Arc;
    let good = rmcp::model::Tool::new("ok", "fine", Arc::new(serde_json::Map::new()));
    let dup = rmcp::model::Tool::new("ok", "same name again", Arc::new(serde_json::Map::new()));
    let loaded = load_rmcp([&good, &dup], "s").unwrap();
    assert_eq!(loaded.tools().len(), 1);
    assert_eq!(loaded.diagnostics.len(), 1, "{:?}", loaded.diagnostics);
}
