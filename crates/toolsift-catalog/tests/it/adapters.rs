//! One fixture per adapter rule, checked against a readable summary of what loaded.

use std::fmt::Write as _;

use toolsift_catalog::{Loaded, ToolKind, load_file};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// A readable summary: one block per tool (name, title, description, facts, input schema),
/// then one line per diagnostic.
pub(crate) fn summary(loaded: &Loaded) -> String {
    let mut out = String::new();
    for tool in &loaded.server.tools {
        let _ = writeln!(out, "tool {:?}", tool.id.name);
        if let Some(title) = &tool.title {
            let _ = writeln!(out, "  title: {title:?}");
        }
        if !tool.description.is_empty() {
            let _ = writeln!(out, "  description: {:?}", tool.description);
        }
        if let Some(op) = &tool.openapi {
            let _ = writeln!(
                out,
                "  openapi: {} {} id={:?} tags={:?} deprecated={}",
                op.method, op.path, op.operation_id, op.tags, op.deprecated
            );
        }
        let _ = writeln!(out, "  input: {}", tool.input_schema);
        for (what, value) in [
            ("output", &tool.output_schema),
            ("annotations", &tool.annotations),
            ("meta", &tool.meta),
        ] {
            if let Some(value) = value {
                let _ = writeln!(out, "  {what}: {value}");
            }
        }
    }
    for d in &loaded.diagnostics {
        let _ = writeln!(out, "diag {d}");
    }
    out
}

#[track_caller]
fn check(file: &str, kind: ToolKind, expect: &str) {
    let loaded =
        load_file(format!("{FIXTURES}/{file}"), kind, "s").unwrap_or_else(|e| panic!("{e}"));
    let got = summary(&loaded);
    assert_eq!(got.trim(), expect.trim(), "\n--- got ---\n{got}");
}

#[test]
fn ref_cycle() {
    check(
        "openapi/ref-cycle.yaml",
        ToolKind::OpenApi,
        r##"
tool "createFolder"
  openapi: POST /folders id=Some("createFolder") tags=[] deprecated=false
  input: {"type":"object","properties":{"name":{"type":"string"},"parent":{}},"required":["name"]}
tool "createNode"
  openapi: POST /nodes id=Some("createNode") tags=[] deprecated=false
  input: {"type":"object","properties":{"b":{"type":"object","properties":{"a":{}}}}}
diag s: tool "createFolder" at /components/schemas/Folder/properties/parent/$ref: reference "#/components/schemas/Folder" closes a cycle; replaced by {} (ref-cycle)
diag s: tool "createNode" at /components/schemas/B/properties/a/$ref: reference "#/components/schemas/A" closes a cycle; replaced by {} (ref-cycle)
"##,
    );
}

#[test]
fn path_level_parameters() {
    check(
        "openapi/path-level-parameters.yaml",
        ToolKind::OpenApi,
        r##"
tool "getUser"
  openapi: GET /users/{userId} id=Some("getUser") tags=[] deprecated=false
  input: {"type":"object","properties":{"userId":{"type":"integer","description":"operation level"},"verbose":{"type":"boolean","description":"more output"},"X-Trace":{"type":"string"},"session":{"type":"string"}},"required":["userId"]}
tool "deleteUser"
  openapi: DELETE /users/{userId} id=Some("deleteUser") tags=[] deprecated=false
  input: {"type":"object","properties":{"userId":{"type":"string","description":"path level"},"verbose":{"type":"boolean","description":"more output"}},"required":["userId"]}
"##,
    );
}

#[test]
fn form_body() {
    check(
        "openapi/form-body.yaml",
        ToolKind::OpenApi,
        r##"
tool "CreateMessage"
  description: "Send a message\n\nSend a message from the account."
  openapi: POST /Accounts/{AccountSid}/Messages.json id=Some("CreateMessage") tags=[] deprecated=false
  input: {"type":"object","properties":{"AccountSid":{"type":"string"},"To":{"type":"string","description":"The recipient"},"Body":{"type":"string"}},"required":["AccountSid","To"]}
"##,
    );
}

#[test]
fn all_of_and_one_of() {
    check(
        "openapi/allof.yaml",
        ToolKind::OpenApi,
        r##"
tool "addPet"
  openapi: POST /pets id=Some("addPet") tags=[] deprecated=false
  input: {"type":"object","properties":{"id":{"type":"integer"},"tag":{"type":"string"},"name":{"type":"string"}},"required":["id","name"]}
tool "pay"
  openapi: POST /payments id=Some("pay") tags=[] deprecated=false
  input: {"type":"object","properties":{"amount":{"type":"number"},"card":{"type":"string"},"iban":{"type":"string"}},"required":["amount"]}
tool "putRaw"
  openapi: PUT /raw id=Some("putRaw") tags=[] deprecated=false
  input: {"type":"object","properties":{"body":{"type":"string","format":"binary"}},"required":["body"]}
"##,
    );
}

#[test]
fn swagger2_form_data_and_body() {
    check(
        "openapi/swagger2-formdata.json",
        ToolKind::OpenApi,
        r##"
tool "chat_postMessage"
  description: "Sends a message to a channel."
  openapi: POST /chat.postMessage id=Some("chat_postMessage") tags=[] deprecated=false
  input: {"type":"object","properties":{"token":{"type":"string","description":"Auth token"},"channel":{"type":"string"},"file":{"type":"string","format":"binary"},"limit":{"type":"integer","minimum":1}},"required":["token","channel"]}
tool "createUser"
  openapi: POST /users id=Some("createUser") tags=[] deprecated=false
  input: {"type":"object","properties":{"login":{"type":"string"},"email":{"type":"string"}},"required":["login"]}
tool "putTags"
  openapi: PUT /tags id=Some("putTags") tags=[] deprecated=false
  input: {"type":"object","properties":{"body":{"type":"array","items":{"type":"string"}}},"required":["body"]}
"##,
    );
}

#[test]
fn missing_operation_id() {
    check(
        "openapi/missing-operation-id.yaml",
        ToolKind::OpenApi,
        r##"
tool "POST /api/v1/users/{id}/lifecycle/activate"
  description: "Activate user"
  openapi: POST /api/v1/users/{id}/lifecycle/activate id=None tags=[] deprecated=false
  input: {"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}
tool "listUsers"
  openapi: GET /api/v1/users id=Some("listUsers") tags=[] deprecated=false
  input: {"type":"object","properties":{"q":{"type":"string"}}}
tool "POST /api/v1/users"
  description: "Same operationId again"
  openapi: POST /api/v1/users id=Some("listUsers") tags=[] deprecated=false
  input: {"type":"object","properties":{"q":{"type":"string"}}}
diag s: tool "listUsers" at /paths/~1api~1v1~1users/post/operationId: operationId "listUsers" is used by an earlier operation; named "POST /api/v1/users" (duplicate-name)
diag s: at /paths/~1api~1v1~1users/frobnicate: "frobnicate" is not an http method; ignored (unknown-method)
"##,
    );
}

#[test]
fn external_and_missing_refs() {
    check(
        "openapi/refs.yaml",
        ToolKind::OpenApi,
        r##"
tool "makeThing"
  openapi: POST /things id=Some("makeThing") tags=[] deprecated=false
  input: {"type":"object","properties":{"id":{},"remote":{"$ref":"https://example.com/schemas/remote.json#/Thing"},"gone":{"$ref":"#/components/schemas/Gone"}}}
diag s: tool "makeThing" at /paths/~1things/post/requestBody/content/application~1json/schema/properties/remote/$ref: external reference "https://example.com/schemas/remote.json#/Thing" not fetched; kept as written (external-ref)
diag s: tool "makeThing" at /paths/~1things/post/parameters/0/$ref: reference "#/components/parameters/Missing" has no target; ignored (and 1 more like it in this tool) (unresolved-ref)
"##,
    );
}

#[test]
fn malformed_mcp_tools() {
    check(
        "mcp/malformed.json",
        ToolKind::Mcp,
        r##"
tool "good"
  description: "A good tool."
  input: {"type":"object"}
tool "no_schema"
  input: {"type":"object"}
tool "number_description"
  input: {"type":"object"}
tool "titled"
  title: "Annotated title"
  input: {"type":"object"}
  output: {"type":"object"}
  annotations: {"title":"Annotated title","readOnlyHint":true}
  meta: {"k":1}
diag s: at /tools/1: the tool is a string, not an object; skipped (not-an-object)
diag s: at /tools/2: the tool has no name; skipped (missing-name)
diag s: at /tools/3/name: the name is empty; skipped (missing-name)
diag s: at /tools/4/name: the name is a number, not a string; skipped (missing-name)
diag s: tool "string_schema" at /tools/5/inputSchema: inputSchema is a string, not an object; skipped (invalid-schema)
diag s: tool "array_schema" at /tools/6/inputSchema: inputSchema is an array, not an object; skipped (invalid-schema)
diag s: tool "true_schema" at /tools/7/inputSchema: inputSchema is a boolean, not an object; skipped (invalid-schema)
diag s: tool "no_schema" at /tools/8: no inputSchema; using {"type": "object"} (missing-schema)
diag s: tool "number_description" at /tools/9/description: description is a number, not a string; ignored (wrong-type)
diag s: tool "number_description" at /tools/9/annotations: annotations is a string, not an object; ignored (wrong-type)
"##,
    );
}

#[test]
fn duplicate_name() {
    check(
        "mcp/duplicate-name.json",
        ToolKind::Mcp,
        r##"
tool "search"
  description: "first"
  input: {"type":"object"}
tool "fetch"
  input: {"type":"object"}
diag s: tool "search" at /tools/1: a tool with this name came earlier in the server; skipped (duplicate-name)
"##,
    );
}

#[test]
fn json_rpc_wrapper() {
    check(
        "mcp/reserved-name.json",
        ToolKind::Mcp,
        r##"
tool "tool_search"
  description: "A server tool that happens to use a bridge name."
  input: {"type":"object"}
tool "tool_call"
  input: {"type":"object"}
tool "other"
  input: {"type":"object"}
"##,
    );
}

#[test]
fn mixed_plugin_shapes() {
    check(
        "plugin/mixed.json",
        ToolKind::Plugin,
        r##"
tool "get_weather"
  description: "Weather for a city."
  input: {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}
tool "get_time"
  description: "Current time."
  input: {"type":"object","properties":{}}
tool "calculator"
  description: "Evaluate arithmetic."
  input: {"type":"object","properties":{"expr":{"type":"string"}}}
tool "no_params"
  description: "Takes nothing."
  input: {"type":"object"}
diag s: tool "web_search" at /4: type "web_search_20250305" is not a function tool; skipped (unsupported-tool)
diag s: at /5/function: "function" is a string, not an object; skipped (not-an-object)
"##,
    );
}

#[test]
fn load_files_matches_load_file_in_order() {
    let files = [
        (format!("{FIXTURES}/openapi/ref-cycle.yaml"), ToolKind::OpenApi, "a"),
        (format!("{FIXTURES}/mcp/malformed.json"), ToolKind::Mcp, "b"),
        (format!("{FIXTURES}/missing.json"), ToolKind::Mcp, "c"),
        (format!("{FIXTURES}/plugin/mixed.json"), ToolKind::Plugin, "d"),
    ];
    let parallel = toolsift_catalog::Loader::default().load_files(&files);
    assert_eq!(parallel.len(), files.len());
    for ((path, kind, server), got) in files.iter().zip(parallel) {
        let want = load_file(path, *kind, server);
        match (got, want) {
            (Ok(got), Ok(want)) => assert_eq!(summary(&got), summary(&want)),
            (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string()),
            (got, want) => panic!("{path}: {:?} vs {:?}", got.is_ok(), want.is_ok()),
        }
    }
}

#[test]
fn yaml_quirks() {
    check(
        "openapi/yaml-quirks.yaml",
        ToolKind::OpenApi,
        r##"
tool "listItems"
  openapi: GET /items id=Some("listItems") tags=[] deprecated=false
  input: {"type":"object","properties":{"page":{"type":"integer","minimum":1,"maximum":".inf"},"per_page":{"type":"integer","minimum":1,"maximum":".inf"}}}
tool "createItem"
  openapi: POST /items id=Some("createItem") tags=[] deprecated=false
  input: {"type":"object","properties":{"~tilde/slash":{"type":"string"}}}
"##,
    );
}
