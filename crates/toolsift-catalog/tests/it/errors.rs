//! Whole-document errors (with file, line and column) and the configurable limits.

use toolsift_catalog::{
    DiagnosticKind, ErrorKind, Limits, Loader, ToolKind, load_file, load_mcp, load_openapi,
    load_plugin,
};

#[track_caller]
fn check_err(
    result: Result<toolsift_catalog::Loaded, toolsift_catalog::Error>,
    kind: ErrorKind,
    display: &str,
) {
    match result {
        Ok(loaded) => panic!("expected an error, loaded {} tools", loaded.server.tools.len()),
        Err(e) => {
            assert_eq!(e.kind(), kind);
            assert_eq!(e.to_string(), display);
        }
    }
}

#[test]
fn parse_errors_name_line_and_column() {
    check_err(
        load_mcp("{\"tools\": [\n  {\"name\": ]}", "s"),
        ErrorKind::Json,
        "2:12: invalid json: expected a value (an object, list, string, number, true, false or null)",
    );
    check_err(
        load_openapi("openapi: 3.0.0\npaths:\n  /a: [1, 2\n", "s"),
        ErrorKind::Yaml,
        "3:7: invalid yaml: unclosed bracket '['",
    );
    check_err(
        load_mcp(b"tools: \xff\xfe", "s"),
        ErrorKind::NotUtf8,
        "1:8: catalog is not utf-8: byte 7 is not part of a valid utf-8 character",
    );
}

#[test]
fn file_errors_name_the_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/no-such-file.json");
    let e = load_file(path, ToolKind::Mcp, "s").map(|_| ()).expect_err("missing file");
    assert_eq!(e.kind(), ErrorKind::Io);
    assert_eq!(e.path().map(|p| p.ends_with("no-such-file.json")), Some(true));
    assert!(e.to_string().starts_with(path), "{e}");
    let mut limits = Limits::default();
    limits.max_document_bytes = 100;
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mcp/malformed.json");
    let e = Loader::new(limits)
        .load_file(fixture, ToolKind::Mcp, "s")
        .map(|_| ())
        .expect_err("too large");
    assert_eq!(e.kind(), ErrorKind::TooLarge);
    assert_eq!(
        e.to_string(),
        format!("{fixture}: catalog too large: more than the limit of 100 bytes")
    );
}

#[test]
fn documents_of_the_wrong_shape() {
    check_err(
        load_mcp("{}", "s"),
        ErrorKind::Shape,
        "not a tool catalog: expected a tools/list result, an array of tools or a json-rpc response",
    );
    check_err(
        load_mcp(
            r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}"#,
            "s",
        ),
        ErrorKind::Shape,
        "not a tool catalog: json-rpc error response: \"Method not found\"",
    );
    check_err(
        load_mcp(r#"{"tools": {}}"#, "s"),
        ErrorKind::Shape,
        "not a tool catalog: \"tools\" is an object, not an array",
    );
    check_err(
        load_openapi("[]", "s"),
        ErrorKind::Shape,
        "not a tool catalog: the document is an array, not an openapi object",
    );
    check_err(
        load_openapi("title: x", "s"),
        ErrorKind::Shape,
        "not a tool catalog: no \"openapi\", \"swagger\" or \"paths\" field: not an openapi document",
    );
    check_err(
        load_plugin("42", "s"),
        ErrorKind::Shape,
        "not a tool catalog: the document is a number, not an array of tools",
    );
}

#[test]
fn nesting_beyond_the_readers_limit_drops_the_tool() {
    let open = "{\"a\":".repeat(200);
    let close = "}".repeat(200);
    let deep_json =
        format!("{{\"tools\": [{{\"name\": \"x\", \"inputSchema\": {open}1{close}}}]}}");
    let loaded = load_mcp(&deep_json, "s").expect("loads");
    assert!(loaded.tools().is_empty());
    assert_eq!(loaded.diagnostics[0].kind(), DiagnosticKind::NestedTooDeep);
    let deep_yaml = format!("openapi: 3.0.0\npaths: {}{}\n", "[".repeat(200), "]".repeat(200));
    let loaded = load_openapi(&deep_yaml, "s").expect("loads");
    assert_eq!(loaded.diagnostics[0].kind(), DiagnosticKind::MalformedOpenApi);
}

#[test]
fn yaml_alias_bombs_are_refused() {
    let mut bomb = String::from("openapi: 3.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let prev = i - 1;
        bomb.push_str(&format!("a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"));
    }
    let started = std::time::Instant::now();
    let e = load_openapi(&bomb, "s").map(|_| ()).expect_err("alias bomb");
    assert_eq!(e.kind(), ErrorKind::Yaml);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[test]
fn limits_are_reported_when_hit() {
    let mut limits = Limits::default();
    limits.max_description_bytes = 10;
    limits.max_schema_depth = 3;
    limits.max_tools_per_server = 2;
    let loader = Loader::new(limits);
    let doc = r#"{"tools": [
        {"name": "a", "description": "héllo wörld, this is long", "inputSchema": {"type": "object", "properties": {"p": {"type": "object", "properties": {"q": {"type": "string"}}}}}},
        {"name": "b", "inputSchema": {}},
        {"name": "c", "inputSchema": {}},
        {"name": "d", "inputSchema": {}}
    ]}"#;
    let loaded = loader.load(doc, ToolKind::Mcp, "s").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.server.tools.len(), 2);
    assert_eq!(loaded.server.tools[0].description, "héllo wö");
    assert_eq!(
        loaded.server.tools[0].input_schema.to_string(),
        r#"{"type":"object","properties":{"p":{"type":"object","properties":{}}}}"#
    );
    let got: Vec<String> = loaded.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "s: tool \"a\" at /tools/0/inputSchema: nested deeper than 3 levels; 1 deeper parts replaced by {} (schema-too-deep)",
            "s: tool \"a\" at /tools/0/description: description of 27 bytes cut to 10 bytes (description-truncated)",
            "s: at /tools/2: more than 2 tools; the last 2 skipped (too-many-tools)",
        ]
    );
    assert!(loaded.diagnostics.iter().all(|d| d.kind() != DiagnosticKind::MissingSchema));
}

#[test]
fn ref_expansion_is_bounded() {
    // Each schema refers to the previous one ten times: 10^8 nodes if expanded naively.
    let mut doc = String::from(
        "openapi: 3.0.0\npaths:\n  /a:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/S8'}\ncomponents:\n  schemas:\n    S0: {type: string}\n",
    );
    for i in 1..9 {
        let p = i - 1;
        let props: Vec<String> =
            (0..10).map(|k| format!("p{k}: {{$ref: '#/components/schemas/S{p}'}}")).collect();
        doc.push_str(&format!(
            "    S{i}: {{type: object, properties: {{{}}}}}\n",
            props.join(", ")
        ));
    }
    let mut limits = Limits::default();
    limits.max_schema_nodes = 10_000;
    let loaded =
        Loader::new(limits).load(&doc, ToolKind::OpenApi, "s").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.server.tools.len(), 1);
    let kinds: Vec<DiagnosticKind> = loaded.diagnostics.iter().map(|d| d.kind()).collect();
    assert_eq!(kinds, [DiagnosticKind::SchemaTooLarge]);
    let size = loaded.server.tools[0].input_schema.to_string().len();
    assert!(size < 1_000_000, "{size}");

    // Many operations sharing one large schema: the document's budget runs out.
    let mut many = doc.clone();
    let mut paths = String::new();
    for i in 0..20 {
        paths.push_str(&format!("  /op{i}:\n    post:\n      operationId: op{i}\n      requestBody:\n        content:\n          application/json:\n            schema: {{$ref: '#/components/schemas/S3'}}\n"));
    }
    many = many.replacen("paths:\n", &format!("paths:\n{paths}"), 1);
    let mut limits = Limits::default();
    limits.max_document_schema_nodes = 20_000;
    let loaded =
        Loader::new(limits).load(&many, ToolKind::OpenApi, "s").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.server.tools.len(), 21);
    let cut: Vec<&str> = loaded.diagnostics.iter().filter_map(|d| d.tool()).collect();
    assert_eq!(cut.first(), Some(&"op5"), "{cut:?}");
    assert!(loaded.diagnostics.iter().all(|d| d.kind() == DiagnosticKind::SchemaTooLarge));
    assert!(
        loaded.diagnostics[0].message().contains("20000 schema nodes in all"),
        "{}",
        loaded.diagnostics[0]
    );
}

#[test]
fn long_reference_chains_are_cut_not_followed() {
    // S0 -> S1 -> ... -> S4999, used both as the body and inside a property.
    let mut schemas = serde_json::Map::new();
    for i in 0..5000 {
        let next = format!("#/components/schemas/S{}", i + 1);
        schemas.insert(format!("S{i}"), serde_json::json!({"$ref": next}));
    }
    schemas.insert(
        "S5000".to_owned(),
        serde_json::json!({"type": "object", "properties": {"end": {"type": "string"}}}),
    );
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "paths": {"/a": {"post": {"operationId": "chain", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}}},
                  "/b": {"post": {"operationId": "nested", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"p": {"$ref": "#/components/schemas/S0"}}}}}}}}},
        "components": {"schemas": schemas},
    });
    let loaded = load_openapi(doc.to_string(), "s").unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = loaded.server.tools.iter().map(|t| t.id.name.as_str()).collect();
    assert_eq!(names, ["chain", "nested"]);
    let kinds: Vec<(Option<&str>, DiagnosticKind)> =
        loaded.diagnostics.iter().map(|d| (d.tool(), d.kind())).collect();
    assert_eq!(
        kinds,
        [
            (Some("chain"), DiagnosticKind::SchemaTooDeep),
            (Some("nested"), DiagnosticKind::SchemaTooDeep)
        ]
    );
}
