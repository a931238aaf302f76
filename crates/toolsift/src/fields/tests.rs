//! Tests of the field mapping.

use serde_json::json;
use toolsift_catalog::{OpenApiOperation, Tool, ToolId, ToolKind};

use super::{FieldConfig, ToolText, first_sentence_end, tool_text};

#[track_caller]
fn check_sentence(text: &str, first: &str) {
    assert_eq!(&text[..first_sentence_end(text)], first);
}

#[test]
fn summary_is_the_first_sentence_of_the_first_paragraph() {
    check_sentence("Create an issue. Needs write access.", "Create an issue.");
    check_sentence("List repos\n\nReturns pages.", "List repos\n");
    check_sentence("Fetch a page, e.g. a README. Then more.", "Fetch a page, e.g. a README.");
    check_sentence("Version 1.2 of the API", "Version 1.2 of the API");
    check_sentence("Ends here.", "Ends here.");
    check_sentence("获取文档。然后", "获取文档。");
    check_sentence("", "");
}

#[track_caller]
fn check(tool: &Tool, model_name: &str, expect: ToolText) {
    let got = tool_text(tool, model_name, &FieldConfig::default());
    assert_eq!(got, expect);
}

fn text(name: &str, summary: &str, details: &str, keys: &[&str]) -> ToolText {
    ToolText {
        name: name.to_owned(),
        summary: summary.to_owned(),
        details: details.to_owned(),
        keys: keys.iter().map(|k| (*k).to_owned()).collect(),
    }
}

#[test]
fn mcp_tool_fields() {
    let mut tool = Tool::new(ToolId::new("github", "pull_request_read"), ToolKind::Mcp)
        .with_description("Get information on a pull request. Use `method` to pick what.")
        .with_input_schema(json!({
            "type": "object",
            "properties": {
                "method": {"type": "string", "description": "What to read", "enum": ["get", "get_diff", "get_files"]},
                "pullNumber": {"type": "number"},
                "labels": {"type": "array", "items": {"type": "string", "enum": ["bug", "docs"]}}
            }
        }));
    tool.title = Some("Read pull request".to_owned());
    check(
        &tool,
        "mcp__github__pull_request_read",
        text(
            "github\npull_request_read\nRead pull request",
            "Get information on a pull request.",
            "Use `method` to pick what.\nmethod\nWhat to read\nget get_diff get_files\npullNumber\nlabels\nbug docs\ngithub",
            &["pull_request_read", "mcp__github__pull_request_read", "github/pull_request_read"],
        ),
    );
}

#[test]
fn long_enums_are_left_out() {
    let zones: Vec<String> = (0..40).map(|i| format!("zone{i}")).collect();
    let tool = Tool::new(ToolId::new("time", "convert"), ToolKind::Mcp)
        .with_input_schema(json!({"type": "object", "properties": {"tz": {"enum": zones}}}));
    check(
        &tool,
        "mcp__time__convert",
        text("time\nconvert", "", "tz\ntime", &["convert", "mcp__time__convert", "time/convert"]),
    );
}

#[test]
fn openapi_tool_fields() {
    let mut op = OpenApiOperation::new("get", "/pets/{petId}/photos");
    op.summary = Some("List photos".to_owned());
    op.tags = vec!["pets".to_owned()];
    op.operation_id = Some("listPhotos".to_owned());
    let mut tool = Tool::new(ToolId::new("petstore", "listPhotos"), ToolKind::OpenApi)
        .with_description("List photos\n\nAll photos of a pet. Paged.")
        .with_input_schema(json!({"type": "object", "properties": {"petId": {"type": "string", "description": "The pet"}}}));
    tool.openapi = Some(op);
    check(
        &tool,
        "openapi__petstore__listPhotos",
        text(
            "petstore\nlistPhotos",
            "List photos",
            "All photos of a pet. Paged.\npetId\nThe pet\npets photos\npets\npetstore",
            &["listPhotos", "openapi__petstore__listPhotos", "petstore/listPhotos"],
        ),
    );
}

#[test]
fn duplicate_keys_are_kept_once() {
    let tool = Tool::new(ToolId::new("s", "t"), ToolKind::Plugin);
    check(&tool, "t", text("s\nt", "", "s", &["t", "s/t"]));
}
