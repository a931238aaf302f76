use super::*;

fn env(name: &str) -> Option<String> {
    match name {
        "TOKEN" => Some("s3cret".to_owned()),
        "EMPTY" => Some(String::new()),
        _ => None,
    }
}

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse_with(text, &env)
}

fn error(text: &str) -> String {
    parse(text).err().map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn claude_desktop_shape_reads_stdio_and_http_servers_in_file_order() {
    let config = parse(
        r#"{"mcpServers": {
            "b": {"command": "npx", "args": ["-y", "pkg"], "env": {"T": "${TOKEN}"}, "cwd": "/tmp"},
            "a": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
        }}"#,
    )
    .expect("valid");
    let names: Vec<&str> = config.servers.keys().map(String::as_str).collect();
    assert_eq!(names, ["b", "a"]);
    assert_eq!(
        config.servers["b"],
        ServerConfig::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "pkg".into()],
            env: [("T".to_owned(), "s3cret".to_owned())].into_iter().collect(),
            cwd: Some(PathBuf::from("/tmp")),
        }
    );
    assert_eq!(
        config.servers["a"],
        ServerConfig::Http {
            url: "https://example.com/mcp".into(),
            headers: [("Authorization".to_owned(), "Bearer s3cret".to_owned())]
                .into_iter()
                .collect(),
        }
    );
}

#[test]
fn vs_code_shape_with_types_and_env_prefix() {
    let config = parse(
        r#"{"inputs": [], "servers": {
            "fs": {"type": "stdio", "command": "node", "args": ["${env:TOKEN}"]},
            "web": {"type": "http", "url": "http://127.0.0.1:3000/mcp"}
        }}"#,
    )
    .expect("valid");
    assert!(
        matches!(&config.servers["fs"], ServerConfig::Stdio { args, .. } if args == &["s3cret"])
    );
    assert!(matches!(&config.servers["web"], ServerConfig::Http { .. }));
}

#[test]
fn disabled_servers_are_left_out() {
    let config = parse(
        r#"{"mcpServers": {"x": {"command": "a", "disabled": true}, "y": {"command": "b"}}}"#,
    )
    .expect("valid");
    assert_eq!(config.servers.keys().collect::<Vec<_>>(), ["y"]);
}

#[test]
fn expansion_follows_claude_code() {
    assert_eq!(expand("a${TOKEN}b", &env).as_deref(), Ok("as3cretb"));
    assert_eq!(expand("${UNSET:-fallback}", &env).as_deref(), Ok("fallback"));
    assert_eq!(expand("${EMPTY:-fallback}", &env).as_deref(), Ok("fallback"));
    assert_eq!(expand("${EMPTY}", &env).as_deref(), Ok(""));
    assert_eq!(expand("${TOKEN:-x}", &env).as_deref(), Ok("s3cret"));
    assert_eq!(expand("cost $5 and $HOME", &env).as_deref(), Ok("cost $5 and $HOME"));
    assert_eq!(expand("${UNSET:-}", &env).as_deref(), Ok(""));
    assert!(expand("${UNSET}", &env).is_err_and(|e| e.contains("UNSET is not set")));
    assert!(expand("${TOKEN", &env).is_err_and(|e| e.contains("unclosed")));
    assert!(expand("${}", &env).is_err());
    assert!(expand("${input:key}", &env).is_err_and(|e| e.contains("input prompt")));
}

#[test]
fn errors_name_the_server_and_the_field() {
    assert_eq!(
        error(r#"{"mcpServers": {"gh": {"command": "npx", "args": ["-y", 3]}}}"#),
        "server \"gh\": field \"args[1]\": expected a string"
    );
    assert_eq!(
        error(r#"{"mcpServers": {"gh": {"command": "npx", "env": {"K": "${MISSING}"}}}}"#),
        "server \"gh\": field \"env.K\": environment variable MISSING is not set"
    );
    assert!(
        error(r#"{"mcpServers": {"gh": {"type": "sse", "url": "http://x"}}}"#)
            .contains("field \"type\": the SSE transport is not supported")
    );
    assert_eq!(
        error(r#"{"mcpServers": {"gh": {"url": "ftp://x"}}}"#),
        "server \"gh\": field \"url\": \"ftp://x\" is not an http:// or https:// URL"
    );
    assert_eq!(
        error(r#"{"mcpServers": {"gh": {"args": []}}}"#),
        "server \"gh\": needs \"command\" (a stdio server) or \"url\" (an HTTP server)"
    );
    assert_eq!(
        error(r#"{"mcpServers": {"gh": {"type": "stdio"}}}"#),
        "server \"gh\": field \"command\": missing"
    );
    assert_eq!(
        error(r#"{"mcpServers": {"gh": {"url": "http://x", "headers": {"Bad Name": "v"}}}}"#),
        "server \"gh\": field \"headers.Bad Name\": not a valid header name"
    );
    assert!(
        error(r#"{"mcpServers": {"gh": {"command": "x"}}, "servers": {"gh": {"command": "y"}}}"#)
            .contains("listed under both")
    );
    assert!(error(r#"{"tools": []}"#).contains("no \"mcpServers\""));
    assert!(error("{").starts_with("not valid JSON"));
    assert_eq!(
        error(r#"{"mcpServers": []}"#),
        "field \"mcpServers\": expected an object of servers by name"
    );
}

#[test]
fn load_names_the_file() {
    let missing = Path::new("/nonexistent/toolsift-gateway.json");
    let e = Config::load(missing).expect_err("no such file");
    assert!(
        e.to_string().starts_with("/nonexistent/toolsift-gateway.json: cannot read the file"),
        "{e}"
    );
}
