use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::{arg, fixture, toolsift};

#[test]
fn a_bad_config_exits_2_naming_the_server_and_the_field() {
    let config = fixture(
        "serve-bad",
        "servers.json",
        r#"{"mcpServers": {"github": {"command": "npx", "env": {"TOKEN": 42}}}}"#,
    );
    let run = toolsift(&["serve", "--config", &arg(&config)]).status(2);
    assert!(
        run.stderr.contains("server \"github\": field \"env.TOKEN\": expected a string"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("servers.json"), "{}", run.stderr);
    assert!(run.stdout.is_empty());

    let missing = toolsift(&["serve", "--config", "/nonexistent/servers.json"]).status(2);
    assert!(missing.stderr.contains("cannot read the file"), "{}", missing.stderr);
}

#[test]
fn a_public_http_address_without_a_token_is_refused() {
    let config = fixture("serve-public", "servers.json", r#"{"mcpServers": {}}"#);
    let out = Command::new(env!("CARGO_BIN_EXE_toolsift"))
        .args(["serve", "--config", &arg(&config), "--http", "0.0.0.0:0"])
        .env_remove("TOOLSIFT_GATEWAY_TOKEN")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("without a bearer token"), "{stderr}");
}

/// One JSON-RPC message per stdout line: the protocol owns stdout.
fn message(line: &str) -> Value {
    let value: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}"));
    assert_eq!(value["jsonrpc"], "2.0", "{line}");
    value
}

#[test]
fn a_stdio_session_lists_three_tools_says_what_is_down_and_logs_only_to_stderr() {
    let config = fixture(
        "serve-stdio",
        "servers.json",
        r#"{"mcpServers": {"ghost": {"command": "/nonexistent/mcp-server"}}}"#,
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolsift"))
        .args(["serve", "--config", &arg(&config), "--verbose"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |value: Value| {
        writeln!(stdin, "{value}").expect("writes");
        stdin.flush().expect("flushes");
    };
    let mut read = || {
        let mut line = String::new();
        stdout.read_line(&mut line).expect("reads");
        message(&line)
    };
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}}));
    let init = read();
    assert_eq!(init["result"]["serverInfo"]["name"], "toolsift");
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let list = read();
    let tools = list["result"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["tool_search", "tool_describe", "tool_call"]);
    assert!(tools.iter().all(|t| t["_meta"]["anthropic/alwaysLoad"] == true));
    let description = tools[0]["description"].as_str().unwrap_or_default();
    assert!(
        description.contains("- ghost: down: cannot start `/nonexistent/mcp-server`"),
        "{description}"
    );
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "tool_call", "arguments": {"name": "mcp__ghost__x", "arguments": {}}}}));
    let call = read();
    assert_eq!(call["result"]["isError"], true);
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("reads");
    for line in rest.lines() {
        message(line);
    }
    let out = child.wait_with_output().expect("exits");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ghost"), "the failure is logged: {stderr}");
}
