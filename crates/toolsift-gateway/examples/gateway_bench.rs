//! Measures the gateway's performance targets (a benchmark, not a test):
//!
//! 1. ready with 10 stdio upstreams that take 100, 200, …, 1,000 ms to start: bounded by the
//!    slowest (1 s), not their sum (5.5 s);
//! 2. the overhead of a call through the gateway against the same call made directly to the
//!    same upstream with rmcp's client (both over stdio to the upstream; the gateway path adds
//!    the client-to-gateway hop, an in-memory pipe with the same framing as stdio; both paths
//!    are warmed and alternate);
//! 3. a search round trip (5 results with schemas) at the ~4,000 tools of the 70 tuning
//!    catalogs, served by one rmcp test upstream (each tool named `<catalog>__<tool>`), for
//!    every query of the `all` dataset.
//!
//! ```text
//! cargo build --release -p toolsift-gateway --bins --examples
//! target/release/examples/gateway_bench
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr, missing_docs)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use toolsift::{ToolKind, load_file};
use toolsift_gateway::{Config, Gateway, Options, ServerStatus};

type Client = rmcp::service::RunningService<RoleClient, ClientConfig>;

fn upstream_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("own path");
    let dir = exe.parent().and_then(Path::parent).expect("target/<profile>");
    let bin = dir.join("toolsift-test-upstream");
    assert!(bin.exists(), "build it first: cargo build --release -p toolsift-gateway --bins");
    bin
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn percentile(mut samples: Vec<Duration>, p: f64) -> Duration {
    samples.sort();
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[at]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn config(servers: &[(String, Vec<String>)]) -> Config {
    let mut map = Map::new();
    for (name, args) in servers {
        map.insert(name.clone(), json!({"command": upstream_binary(), "args": args}));
    }
    Config::parse(&json!({"mcpServers": map}).to_string()).expect("config")
}

async fn connect(gateway: &Gateway) -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 22);
    let server = gateway.server();
    tokio::spawn(async move {
        if let Ok(session) = server.serve(server_io).await {
            let _ = session.waiting().await;
        }
    });
    ClientConfig::default().serve(client_io).await.expect("client")
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

async fn ready() {
    let servers: Vec<(String, Vec<String>)> = (1..=10)
        .map(|i| (format!("s{i}"), vec!["--start-delay-ms".into(), (i * 100).to_string()]))
        .collect();
    let mut samples = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let gateway = Gateway::start(config(&servers), Options::default()).await.expect("starts");
        samples.push(start.elapsed());
        assert!(gateway.statuses().iter().all(|(_, s)| matches!(s, ServerStatus::Up { .. })));
        gateway.close().await;
    }
    println!(
        "ready, 10 stdio upstreams starting in 100..1000 ms (sum 5500 ms): median {} of 5 (min {}, max {})",
        ms(median(samples.clone())),
        ms(*samples.iter().min().expect("samples")),
        ms(*samples.iter().max().expect("samples"))
    );
}

async fn call_overhead() {
    const CALLS: usize = 2_000;
    let echo = || CallToolRequestParams::new("echo").with_arguments(args(json!({"text": "hello"})));
    let direct: Client = ClientConfig::default()
        .serve(
            TokioChildProcess::new(tokio::process::Command::new(upstream_binary())).expect("spawn"),
        )
        .await
        .expect("direct client");
    let gateway = Gateway::start(config(&[("alpha".into(), vec![])]), Options::default())
        .await
        .expect("starts");
    let client = connect(&gateway).await;
    let through = || {
        CallToolRequestParams::new("tool_call").with_arguments(args(
            json!({"name": "mcp__alpha__echo", "arguments": {"text": "hello"}}),
        ))
    };
    // Warm both paths, then alternate so both see the same machine load.
    for _ in 0..200 {
        direct.call_tool(echo()).await.expect("call");
        client.call_tool(through()).await.expect("call");
    }
    let mut direct_samples = Vec::with_capacity(CALLS);
    let mut gateway_samples = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        let start = Instant::now();
        direct.call_tool(echo()).await.expect("call");
        direct_samples.push(start.elapsed());
        let start = Instant::now();
        client.call_tool(through()).await.expect("call");
        gateway_samples.push(start.elapsed());
    }
    let (d, g) = (median(direct_samples), median(gateway_samples));
    println!(
        "call echo, median of {CALLS}: direct {}, through the gateway {}, overhead {}",
        ms(d),
        ms(g),
        ms(g.saturating_sub(d))
    );
    gateway.close().await;
}

async fn search_at_scale() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../xtask/tuning/all");
    let dataset: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("dataset.json")).expect("dataset"))
            .expect("json");
    let mut tools = Vec::new();
    for entry in dataset["catalogs"].as_array().expect("catalogs") {
        let file = root.join(entry["file"].as_str().expect("file"));
        let kind = ToolKind::from_word(entry["kind"].as_str().expect("kind")).expect("kind");
        let loaded =
            load_file(&file, kind, entry["server"].as_str().expect("server")).expect("catalog");
        for tool in loaded.server.tools {
            // One upstream serves all 70 catalogs: the catalog's name keeps equal tool names
            // of two catalogs apart.
            let name = format!("{}__{}", tool.id.server, tool.id.name);
            tools.push(json!({"name": name, "description": tool.description, "inputSchema": tool.input_schema}));
        }
    }
    let count = tools.len();
    let file =
        std::env::temp_dir().join(format!("toolsift-gateway-bench-{}.json", std::process::id()));
    std::fs::write(&file, Value::Array(tools).to_string()).expect("tools file");
    let options = Options { startup_timeout: Duration::from_secs(120), ..Options::default() };
    let start = Instant::now();
    let gateway = Gateway::start(
        config(&[("all".into(), vec!["--tools-file".into(), file.display().to_string()])]),
        options,
    )
    .await
    .expect("starts");
    let ready = start.elapsed();
    let indexed = gateway.statuses()[0].1.clone();
    let client = connect(&gateway).await;
    let queries: Vec<String> = std::fs::read_to_string(root.join("queries.jsonl"))
        .expect("queries")
        .lines()
        .filter_map(|line| {
            serde_json::from_str::<Value>(line).ok()?["query"].as_str().map(str::to_owned)
        })
        .collect();
    let mut samples = Vec::new();
    for round in 0..3 {
        for query in &queries {
            let params = CallToolRequestParams::new("tool_search")
                .with_arguments(args(json!({"query": query, "limit": 5})));
            let start = Instant::now();
            client.call_tool(params).await.expect("search");
            if round > 0 {
                samples.push(start.elapsed());
            }
        }
    }
    println!(
        "search round trip, {count} tools ({indexed:?}, ready in {}), 5 results with schemas, {} queries x 2: median {}, p95 {}",
        ms(ready),
        queries.len(),
        ms(median(samples.clone())),
        ms(percentile(samples, 0.95))
    );
    gateway.close().await;
    let _ = std::fs::remove_file(&file);
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    ready().await;
    call_overhead().await;
    search_at_scale().await;
}
