//! The streamable-HTTP side: a token is required and checked, `Origin` is validated, and a
//! public address without a token is refused.

use std::net::SocketAddr;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolsift_gateway::{Gateway, HttpOptions};

use crate::{TestClient, config, options};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// Sends one raw HTTP/1.1 POST to `/mcp` and returns the status code.
async fn post(addr: SocketAddr, headers: &[(&str, &str)]) -> u16 {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connects");
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        INITIALIZE.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(INITIALIZE);
    stream.write_all(request.as_bytes()).await.expect("writes");
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).await.expect("a status line");
    let line = String::from_utf8_lossy(&head);
    line.get(9..12).and_then(|code| code.parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_the_token_is_refused_and_one_with_it_is_served() {
    let gateway = Gateway::start(config(&[("alpha", &[])]), options()).await.expect("starts");
    let http = gateway
        .serve_http(HttpOptions {
            bind: "127.0.0.1:0".parse().expect("address"),
            token: Some("s3cret".into()),
            ..HttpOptions::default()
        })
        .await
        .expect("listens");
    let addr = http.local_addr();

    assert_eq!(post(addr, &[]).await, 401, "no token");
    assert_eq!(post(addr, &[("Authorization", "Bearer wrong")]).await, 401, "wrong token");
    assert_eq!(
        post(addr, &[("Authorization", "Bearer s3cret"), ("Origin", "http://evil.example")]).await,
        403
    );
    assert_eq!(
        post(addr, &[("Authorization", "Bearer s3cret"), ("Origin", "http://localhost:5173")])
            .await,
        200
    );
    assert_eq!(post(addr, &[("Authorization", "Bearer s3cret")]).await, 200);

    // rmcp's own streamable-HTTP client, with the token.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(http.url()).auth_header("s3cret"),
    );
    let (tx, _changed) = tokio::sync::mpsc::unbounded_channel();
    let client = TestClient { changed: tx }.serve(transport).await.expect("initializes over HTTP");
    let tools = client.list_tools(None).await.expect("tools/list");
    assert_eq!(tools.tools.len(), 3);
    http.stop();
    http.stopped().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_without_a_token_checks_the_origin_and_a_public_address_needs_a_token() {
    let gateway = Gateway::start(config(&[]), options()).await.expect("starts");
    let http = gateway
        .serve_http(HttpOptions {
            bind: "127.0.0.1:0".parse().expect("address"),
            ..HttpOptions::default()
        })
        .await
        .expect("listens");
    assert_eq!(post(http.local_addr(), &[]).await, 200);
    assert_eq!(post(http.local_addr(), &[("Origin", "https://attacker.example")]).await, 403);

    let public = gateway
        .serve_http(HttpOptions {
            bind: "0.0.0.0:0".parse().expect("address"),
            ..HttpOptions::default()
        })
        .await;
    let error = public.expect_err("a public address without a token is refused").to_string();
    assert!(error.contains("without a bearer token"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamable_http_upstream_with_headers_is_indexed_and_called() {
    // One gateway serves HTTP with a token; a second uses it as an upstream.
    let inner = Gateway::start(config(&[("alpha", &[])]), options()).await.expect("starts");
    let http = inner
        .serve_http(HttpOptions {
            bind: "127.0.0.1:0".parse().expect("address"),
            token: Some("s3cret".into()),
            ..HttpOptions::default()
        })
        .await
        .expect("listens");
    let outer_config = toolsift_gateway::Config::parse(
        &serde_json::json!({"mcpServers": {
            "inner": {"type": "http", "url": http.url(), "headers": {"Authorization": "Bearer s3cret"}},
            "locked": {"type": "http", "url": http.url()}
        }})
        .to_string(),
    )
    .expect("valid");
    let outer = Gateway::start(outer_config, options()).await.expect("starts");
    let statuses = outer.statuses();
    assert_eq!(statuses[0], ("inner".to_owned(), toolsift_gateway::ServerStatus::Up { tools: 3 }));
    assert!(
        matches!(&statuses[1].1, toolsift_gateway::ServerStatus::Down { .. }),
        "no token, no tools: {statuses:?}"
    );
    let session = crate::connect(&outer).await;
    let found = session
        .call(
            "tool_call",
            serde_json::json!({"name": "mcp__inner__tool_search", "arguments": {"query": "mcp__alpha__echo"}}),
        )
        .await;
    assert_eq!(crate::names(&found), ["mcp__alpha__echo"]);
}
