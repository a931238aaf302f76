//! Model-facing names: schemes, sanitization, shortening, collisions and reserved names.

use std::fmt::Write as _;

use toolsift_catalog::{
    Catalog, NameScheme, Server, Tool, ToolId, ToolKind, is_valid_model_name, load_file,
};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(file: &str, server: &str) -> Server {
    load_file(format!("{FIXTURES}/{file}"), ToolKind::Mcp, server)
        .unwrap_or_else(|e| panic!("{e}"))
        .server
}

fn server(name: &str, kind: ToolKind, tools: &[&str]) -> Server {
    let tools = tools.iter().map(|t| Tool::new(ToolId::new(name, *t), kind)).collect();
    Server::new(name, kind, tools)
}

/// `model name <- server/tool` lines, then the naming diagnostics.
fn render(catalog: &Catalog) -> String {
    let mut out = String::new();
    for (name, tool) in catalog.tools() {
        assert!(is_valid_model_name(name), "{name:?}");
        assert_eq!(catalog.tool_by_model_name(name).map(|t| &t.id), Some(&tool.id));
        assert_eq!(catalog.model_name(&tool.id), Some(name));
        let _ = writeln!(out, "{name} <- {}", tool.id);
    }
    for d in catalog.naming_diagnostics() {
        let _ = writeln!(out, "diag {d}");
    }
    out
}

#[track_caller]
fn check(scheme: NameScheme, servers: Vec<Server>, expect: &str) {
    let mut catalog = Catalog::builder().scheme(scheme).build();
    for s in servers {
        catalog.add_server(s);
    }
    let got = render(&catalog);
    assert_eq!(got.trim(), expect.trim(), "\n--- got ---\n{got}");
}

#[test]
fn schemes() {
    let servers = || {
        vec![
            server("github", ToolKind::Mcp, &["create_issue"]),
            server("box", ToolKind::OpenApi, &["get_files_id", "GET /files/{file_id}"]),
            server("gemini-cli", ToolKind::Plugin, &["read_file"]),
        ]
    };
    check(
        NameScheme::Kind,
        servers(),
        r##"
mcp__github__create_issue <- github/create_issue
openapi__box__get_files_id <- box/get_files_id
openapi__box__GET_files_file_id <- box/GET /files/{file_id}
plugin__gemini-cli__read_file <- gemini-cli/read_file
"##,
    );
    check(
        NameScheme::ClaudeCode,
        servers(),
        r##"
mcp__github__create_issue <- github/create_issue
mcp__box__get_files_id <- box/get_files_id
mcp__box__GET_files_file_id <- box/GET /files/{file_id}
mcp__gemini-cli__read_file <- gemini-cli/read_file
"##,
    );
    check(
        NameScheme::Bare,
        servers(),
        r##"
create_issue <- github/create_issue
get_files_id <- box/get_files_id
GET_files_file_id <- box/GET /files/{file_id}
read_file <- gemini-cli/read_file
"##,
    );
    fn upper(id: &ToolId, _: ToolKind) -> String {
        format!("{}.{}", id.server.to_uppercase(), id.name)
    }
    check(
        NameScheme::Custom(upper),
        servers(),
        r##"
GITHUB_create_issue <- github/create_issue
BOX_get_files_id <- box/get_files_id
BOX_GET_files_file_id <- box/GET /files/{file_id}
GEMINI-CLI_read_file <- gemini-cli/read_file
"##,
    );
}

#[test]
fn reserved_names_are_refused() {
    check(
        NameScheme::Bare,
        vec![fixture("mcp/reserved-name.json", "s")],
        r##"
tool_search_b18c2982 <- s/tool_search
tool_call_b3ce93da <- s/tool_call
other <- s/other
diag s: tool "tool_search": model-facing name "tool_search" is reserved; named "tool_search_b18c2982" (reserved-name)
diag s: tool "tool_call": model-facing name "tool_call" is reserved; named "tool_call_b3ce93da" (reserved-name)
"##,
    );
    // Under the default scheme the same tools do not clash with the bridge.
    check(
        NameScheme::Kind,
        vec![fixture("mcp/reserved-name.json", "s")],
        r##"
mcp__s__tool_search <- s/tool_search
mcp__s__tool_call <- s/tool_call
mcp__s__other <- s/other
"##,
    );
}

#[test]
fn duplicate_names_keep_the_first() {
    let mut catalog = Catalog::new();
    let diagnostics = catalog.add_server(server("s", ToolKind::Mcp, &["a", "b", "a"]));
    let codes: Vec<_> = diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        codes,
        ["s: tool \"a\": a tool with this name is already in the server; skipped (duplicate-name)"]
    );
    assert_eq!(catalog.len(), 2);
    let loaded = fixture("mcp/duplicate-name.json", "s");
    assert_eq!(loaded.tools.len(), 2);
}

#[test]
fn long_names_are_shortened() {
    check(
        NameScheme::Kind,
        vec![fixture("mcp/long-name.json", "s")],
        r##"
mcp__s__create_very_long_very_long_very_long_very_long__b3280048 <- s/create_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_nam
mcp__s__create_very_long_very_long_very_long_very_long__b3280e9b <- s/create_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_very_long_naX
"##,
    );
}

#[test]
fn non_ascii_names() {
    check(
        NameScheme::Kind,
        vec![fixture("mcp/non-ascii-name.json", "s")],
        r##"
mcp__s__cr_er_t_che_bed61f7b <- s/créer_tâche
mcp__s__tool <- s/创建任务
mcp__s__tool_fb420b57 <- s/获取任务
mcp__s__cr_er_t_che <- s/cr_er_t_che
mcp__s__send_mail <- s/send 📧 mail
diag s: tool "créer_tâche": model-facing name "mcp__s__cr_er_t_che" is taken by "s/cr_er_t_che"; named "mcp__s__cr_er_t_che_bed61f7b" (name-collision)
diag s: tool "获取任务": model-facing name "mcp__s__tool" is taken by "s/创建任务"; named "mcp__s__tool_fb420b57" (name-collision)
"##,
    );
}

#[test]
fn cross_server_collisions_go_to_the_later_server() {
    let servers = || {
        vec![
            server("filesystem", ToolKind::Mcp, &["read_file"]),
            server("langchain", ToolKind::Plugin, &["read_file"]),
        ]
    };
    check(
        NameScheme::Bare,
        servers(),
        r##"
read_file <- filesystem/read_file
read_file_defe51bb <- langchain/read_file
diag langchain: tool "read_file": model-facing name "read_file" is taken by "filesystem/read_file"; named "read_file_defe51bb" (name-collision)
"##,
    );
    // Two server names that sanitize to the same word get distinct server segments (the
    // sanitized word plus a hash of the name), so a host routing by segment tells them apart;
    // a name with `__` in it never puts `__` in its segment.
    check(
        NameScheme::Kind,
        vec![
            server("my.server", ToolKind::Mcp, &["go"]),
            server("my server", ToolKind::Mcp, &["go"]),
            server("evil__x_mcp__bank", ToolKind::Mcp, &["transfer"]),
        ],
        r##"
mcp__my_server_e6fa4cfc__go <- my.server/go
mcp__my_server_99d78c2a__go <- my server/go
mcp__evil_x_mcp_bank_2b4bf29c__transfer <- evil__x_mcp__bank/transfer
"##,
    );
}

#[test]
fn changes_bump_the_epoch_and_keep_positions() {
    let mut catalog = Catalog::builder().scheme(NameScheme::Bare).build();
    assert_eq!(catalog.epoch(), 0);
    catalog.add_server(server("a", ToolKind::Mcp, &["x"]));
    catalog.add_server(server("b", ToolKind::Mcp, &["x", "y"]));
    assert_eq!(catalog.epoch(), 2);
    assert_eq!(catalog.model_name(&ToolId::new("b", "y")), Some("y"));
    // Replacing a's tools keeps a first, so a keeps the plain name.
    let diagnostics = catalog.replace_tools(
        "a",
        vec![
            Tool::new(ToolId::new("a", "x"), ToolKind::Mcp),
            Tool::new(ToolId::new("elsewhere", "y"), ToolKind::Mcp),
        ],
    );
    let diagnostics = diagnostics.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(catalog.epoch(), 3);
    let codes: Vec<_> = diagnostics.iter().map(|d| d.kind().code()).collect();
    assert_eq!(codes, ["server-mismatch"]);
    assert_eq!(catalog.model_name(&ToolId::new("a", "x")), Some("x"));
    assert_eq!(catalog.model_name(&ToolId::new("a", "y")), Some("y"));
    let by = catalog.model_name(&ToolId::new("b", "y")).map(str::to_owned);
    assert!(by.as_deref().is_some_and(|n| n.starts_with("y_")), "{by:?}");
    let names: Vec<&str> = catalog.servers().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    // Removing a gives b its plain names back.
    assert!(catalog.remove_server("a").is_some());
    assert_eq!(catalog.epoch(), 4);
    assert_eq!(catalog.model_name(&ToolId::new("b", "y")), Some("y"));
    assert!(catalog.remove_server("a").is_none());
    assert_eq!(catalog.epoch(), 4);
    // The same tools again, as after a `tools/list_changed` that changed nothing: the same
    // diagnostics (the normalization's and the names'), and no change.
    let again = || {
        vec![
            Tool::new(ToolId::new("b", "y"), ToolKind::Mcp),
            Tool::new(ToolId::new("elsewhere", "x"), ToolKind::Mcp),
        ]
    };
    let first = catalog.replace_tools("b", again()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(catalog.epoch(), 5);
    let second = catalog.replace_tools("b", again()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(catalog.epoch(), 5);
    assert!(catalog.last_renamed().is_empty());
    let text =
        |d: &[toolsift_catalog::Diagnostic]| d.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(text(&second), text(&first));
    let codes: Vec<_> = second.iter().map(|d| d.kind().code()).collect();
    assert_eq!(codes, ["server-mismatch"]);
    // Another kind is a change.
    let tools = catalog.server("b").map(|s| s.tools.clone()).unwrap_or_default();
    catalog.add_server(Server::new("b", ToolKind::OpenApi, tools));
    assert_eq!(catalog.epoch(), 6);
    // So is a schema with its keys in another order, which listings show as it is, though
    // `Tool`'s `==` holds the two equal.
    let schema = |text: &str| serde_json::from_str::<serde_json::Value>(text).expect("json");
    let with = |text: &str| {
        vec![Tool::new(ToolId::new("b", "x"), ToolKind::Mcp).with_input_schema(schema(text))]
    };
    let ab = r#"{"type": "object", "properties": {"a": {"type": "string"}, "b": {}}}"#;
    let ba = r#"{"type": "object", "properties": {"b": {}, "a": {"type": "string"}}}"#;
    assert_eq!(with(ab), with(ba));
    catalog.add_server(Server::new("b", ToolKind::Mcp, with(ab)));
    assert_eq!(catalog.epoch(), 7);
    catalog.replace_tools("b", with(ab)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(catalog.epoch(), 7);
    assert_eq!(catalog.last_kept(), [Some(0)]);
    catalog.replace_tools("b", with(ba)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(catalog.epoch(), 8);
    assert_eq!(catalog.last_kept(), [None]);
    let keys = |c: &Catalog| {
        let tool = c.tool(&ToolId::new("b", "x")).map(|t| t.input_schema.clone());
        tool.and_then(|s| s.get("properties").cloned()).map(|p| p.to_string())
    };
    assert_eq!(keys(&catalog).as_deref(), Some(r#"{"b":{},"a":{"type":"string"}}"#));
    let missing = catalog.replace_tools("nope", Vec::new()).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(missing, Err("unknown server: \"nope\"".to_owned()));
    assert!(catalog.tool(&ToolId::new("a", "x")).is_none());
    assert!(catalog.tool_by_model_name("x").is_some());
}
