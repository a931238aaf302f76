//! Writes the large hostile catalogs of issue #39 to a folder, for `benches/hostile.sh`, which
//! measures the time and peak memory of `toolsift search` and `toolsift check` on each (too large
//! to commit):
//!
//! ```text
//! cargo run --release -p toolsift-catalog --example hostile_files -- DIR
//! ```
//!
//! One file per class: an alias byte bomb (a 4 MB anchored string aliased by 1,000
//! operations), a 45 MB parameter description of distinct words, a 50 MB tool name, a schema
//! nested 10,000 levels in one of two tools (JSON, YAML flow, YAML block), the same path twice,
//! `$ref` fan-out (a reference bomb shared by 40 operations; a 20,000-property body shared by
//! 400; a 40-field body shared by 6,870), one operation with 100,000 parameters and 100,000
//! required body properties, and a 10 MB REST description shaped like GitHub's
//! (`tests/it/rest_description.rs`), which must load in full.
#![allow(clippy::print_stdout)] // A generator says what it wrote.

use std::fmt::Write as _;
use std::path::Path;

#[path = "../tests/it/rest_description.rs"]
mod rest_description;

fn main() -> std::io::Result<()> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "hostile-files".to_owned());
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir)?;
    let write = |name: &str, text: String| -> std::io::Result<()> {
        println!("{name} {} bytes", text.len());
        std::fs::write(dir.join(name), text)
    };

    let mut bomb = format!("openapi: 3.0.0\nx-big: &big {}\npaths:\n", "word ".repeat(800_000));
    for i in 0..1_000 {
        writeln!(bomb, "  /p{i}:\n    get:\n      description: *big").ok();
    }
    write("alias-bytes.openapi.yaml", bomb)?;

    let mut words = String::with_capacity(46_000_000);
    let mut i = 0u64;
    while words.len() < 45_000_000 {
        write!(words, "w{i:x} ").ok();
        i += 1;
    }
    let param = serde_json::json!({"tools": [
        {"name": "big", "inputSchema": {"type": "object", "properties": {
            "q": {"type": "string", "description": words}}}},
        {"name": "good_tool", "description": "Send a message", "inputSchema": {}}]});
    write("param-description.mcp.json", param.to_string())?;

    let name = serde_json::json!({"tools": [
        {"name": "n".repeat(50_000_000), "inputSchema": {}},
        {"name": "good_tool", "description": "Send a message", "inputSchema": {}}]});
    write("long-name.mcp.json", name.to_string())?;

    let levels = 10_000;
    let deep_json = format!("{}1{}", "{\"a\":".repeat(levels), "}".repeat(levels));
    write(
        "deep.mcp.json",
        format!(
            "{{\"tools\": [{{\"name\": \"deep\", \"inputSchema\": {deep_json}}}, \
             {{\"name\": \"good_tool\", \"description\": \"Send a message\", \"inputSchema\": {{}}}}]}}"
        ),
    )?;
    let flow = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    write(
        "deep-flow.mcp.yaml",
        format!(
            "tools:\n  - {{name: deep, inputSchema: {{a: {flow}}}}}\n  - {{name: good_tool, description: Send a message, inputSchema: {{}}}}\n"
        ),
    )?;
    let mut block = String::from(
        "tools:\n  - name: good_tool\n    description: Send a message\n    inputSchema: {}\n  - name: deep\n    inputSchema:\n",
    );
    for i in 0..levels {
        writeln!(block, "{}k{i}:", " ".repeat(6 + i)).ok();
    }
    write("deep-block.mcp.yaml", block)?;

    write(
        "duplicate-keys.mcp.json",
        "{\"tools\": [{\"name\": \"lost\", \"inputSchema\": {}}], \"tools\": [{\"name\": \"good_tool\", \"description\": \"Send a message\", \"inputSchema\": {}}]}".to_owned(),
    )?;

    write("shared-bodies.openapi.json", shared_bodies(10_000_000))?;
    write("ref-bomb-40-operations.openapi.yaml", ref_bomb(40))?;
    write("wide-body-400-operations.openapi.json", wide_body(20_000, 400))?;
    write("rest-description-10mb.openapi.json", rest_description::rest_description(10_000_000))?;
    write("long-lists.openapi.json", long_lists(100_000))?;
    Ok(())
}

/// The reference bomb of the hostile corpus (`ref-bomb.yaml`: 10^12 nodes if expanded) as
/// the request body of `operations` operations.
fn ref_bomb(operations: usize) -> String {
    let mut doc = String::from("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n");
    for i in 0..operations {
        write!(
            doc,
            "  /op{i}:\n    post:\n      operationId: op{i}\n      requestBody:\n        content:\n          \
             application/json:\n            schema: {{$ref: '#/components/schemas/L0'}}\n"
        )
        .ok();
    }
    doc.push_str("components:\n  schemas:\n");
    for level in 0..12 {
        write!(doc, "    L{level}:\n      type: object\n      properties:\n").ok();
        for p in 0..10 {
            let target = if level == 11 {
                "{type: string}".to_owned()
            } else {
                format!("{{$ref: '#/components/schemas/L{}'}}", level + 1)
            };
            writeln!(doc, "        p{p}: {target}").ok();
        }
    }
    doc
}

/// One operation with `n` query parameters and a body of `n` properties, all required.
fn long_lists(n: usize) -> String {
    let params: Vec<serde_json::Value> = (0..n)
        .map(|i| serde_json::json!({"name": format!("q{i}"), "in": "query", "schema": {"type": "string"}}))
        .collect();
    let props: serde_json::Map<String, serde_json::Value> =
        (0..n).map(|i| (format!("p{i}"), serde_json::json!({"type": "string"}))).collect();
    let required: Vec<&String> = props.keys().collect();
    serde_json::json!({"openapi": "3.0.0", "paths": {"/a": {"post": {"operationId": "a",
        "parameters": params, "requestBody": {"content": {"application/json": {"schema":
            {"type": "object", "properties": props, "required": required}}}}}}}})
    .to_string()
}

/// One object schema of `properties` properties as the request body of `operations`
/// operations: every operation copies the property names.
fn wide_body(properties: usize, operations: usize) -> String {
    let props: serde_json::Map<String, serde_json::Value> =
        (0..properties).map(|i| (format!("p{i}"), serde_json::json!({}))).collect();
    let paths: serde_json::Map<String, serde_json::Value> = (0..operations)
        .map(|i| {
            (
                format!("/op{i}"),
                serde_json::json!({"post": {"operationId": format!("op{i}"),
                "requestBody": {"content": {"application/json": {"schema":
                    {"$ref": "#/components/schemas/Wide"}}}}}}),
            )
        })
        .collect();
    serde_json::json!({"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": paths,
        "components": {"schemas": {"Wide": {"type": "object", "properties": props}}}})
    .to_string()
}

/// Operations whose request body is one of twelve shared 40-field schemas, about 1.3 kB of
/// document per operation (GitHub's description has 10 kB per operation, and a body that is a
/// shared schema in 3 % of them): every operation copies 40 property schemas into its input
/// schema, about 5 times the document in all. Grown until it has `bytes` bytes.
fn shared_bodies(bytes: usize) -> String {
    const NOUNS: [&str; 12] = [
        "repo",
        "issue",
        "pull",
        "comment",
        "release",
        "branch",
        "commit",
        "team",
        "user",
        "label",
        "milestone",
        "workflow",
    ];
    let mut schemas = serde_json::Map::new();
    for noun in NOUNS {
        let mut props = serde_json::Map::new();
        for f in 0..40 {
            props.insert(
                format!("{noun}_field_{f}"),
                serde_json::json!({"type": if f % 3 == 0 { "integer" } else { "string" },
                    "description": format!("The {noun}'s field number {f}, as the API returns it; see the {noun} guide for the meaning of each value.")}),
            );
        }
        schemas.insert(noun.to_owned(), serde_json::json!({"type": "object", "properties": props}));
    }
    let mut paths = serde_json::Map::new();
    let mut text_len = 0usize;
    let mut i = 0usize;
    while text_len < bytes * 9 / 10 {
        let noun = NOUNS[i % NOUNS.len()];
        let path = format!("/orgs/{{org}}/{noun}s/group{i}/{{{noun}_id}}");
        let description = format!(
            "Lists, creates or updates {noun}s of group {i} in an organization. {} Authenticated users need the right scopes; \
             fine-grained tokens need the {noun} permission.",
            "This endpoint supports pagination and conditional requests. ".repeat(8)
        );
        let op = |method: &str| {
            serde_json::json!({
                "operationId": format!("{noun}s/{method}-group-{i}"),
                "summary": format!("{method} {noun}s of group {i}"),
                "description": description,
                "tags": [noun],
                "parameters": [
                    {"name": "org", "in": "path", "required": true, "schema": {"type": "string"}, "description": "The organization name."},
                    {"name": format!("{noun}_id"), "in": "path", "required": true, "schema": {"type": "integer"}},
                    {"name": "per_page", "in": "query", "schema": {"type": "integer", "default": 30}, "description": "Results per page (max 100)."},
                ],
                "requestBody": {"content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{noun}")}}}},
                "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{noun}")}}}}}
            })
        };
        let item = serde_json::json!({"get": op("get"), "post": op("post"), "patch": op("patch")});
        text_len += item.to_string().len() + path.len();
        paths.insert(path, item);
        i += 1;
    }
    serde_json::json!({"openapi": "3.0.3", "info": {"title": "Synthetic REST", "version": "1"},
        "paths": paths, "components": {"schemas": schemas}})
    .to_string()
}
