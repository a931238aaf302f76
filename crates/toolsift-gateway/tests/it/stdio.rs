//! List, search, describe, call, crash, hang, list_changed and name collisions, through the
//! gateway's server side.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolsift_gateway::{Gateway, Options, ServerStatus};

use crate::{config, connect, names, options, text, wait_for};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_three_tools_and_searches_describes_and_calls_through_them() {
    // Three tools a page: the gateway must follow nextCursor to see all eight.
    let gateway = Gateway::start(config(&[("alpha", &["--page-size", "3"])]), options())
        .await
        .expect("starts");
    assert_eq!(gateway.statuses(), [("alpha".to_owned(), ServerStatus::Up { tools: 8 })]);
    let session = connect(&gateway).await;

    let listed = session.list().await;
    let listed_names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(listed_names, ["tool_search", "tool_describe", "tool_call"]);
    for tool in &listed.tools {
        let meta = tool.meta.as_ref().expect("_meta");
        assert_eq!(meta.0.get("anthropic/alwaysLoad"), Some(&Value::Bool(true)), "{}", tool.name);
    }
    let description = listed.tools[0].description.as_deref().unwrap_or_default();
    assert!(description.contains("alpha"), "the listing names the server: {description}");
    assert!(description.contains("select:"), "{description}");

    // Ranked search: the model-facing name, the description and the input schema.
    let found = session.search("weather forecast for a city").await;
    let hits: Value = serde_json::from_str(&text(&found)).expect("JSON results");
    assert_eq!(hits[0]["name"], "mcp__alpha__get_weather");
    assert!(hits[0]["description"].as_str().is_some_and(|d| d.contains("weather")));
    assert_eq!(hits[0]["input_schema"]["required"], json!(["city"]));

    // Nothing fits: the refusal with its reason, not an error.
    let refused = session.search("book a flight to Lisbon").await;
    assert_ne!(refused.is_error, Some(true));
    assert!(names(&refused).is_empty());
    assert!(text(&refused).contains("flight"), "{}", text(&refused));

    // Exact names bypass ranking: the model-facing name, the server's own name, select:.
    assert_eq!(names(&session.search("mcp__alpha__sleep").await), ["mcp__alpha__sleep"]);
    assert_eq!(names(&session.search("set_tools").await), ["mcp__alpha__set_tools"]);
    let selected = session.search("select:mcp__alpha__echo, mcp__alpha__add,nope").await;
    assert_eq!(names(&selected), ["mcp__alpha__echo", "mcp__alpha__add"]);
    assert!(selected.content.iter().any(|c| c.as_text().is_some_and(|t| t.text.contains("nope"))));

    let described = session.call("tool_describe", json!({"name": "mcp__alpha__add"})).await;
    let definition: Value = serde_json::from_str(&text(&described)).expect("JSON definition");
    assert_eq!(definition["server"], "alpha");
    assert_eq!(definition["tool"], "add");
    assert_eq!(definition["inputSchema"]["required"], json!(["a", "b"]));
    let unknown = session.call("tool_describe", json!({"name": "mcp__alpha__nope"})).await;
    assert_eq!(unknown.is_error, Some(true));

    // Calls are forwarded; results and errors come back as the upstream gave them.
    let sum = session
        .call("tool_call", json!({"name": "mcp__alpha__add", "arguments": {"a": 2, "b": 3}}))
        .await;
    assert_eq!(text(&sum), "5");
    assert_ne!(sum.is_error, Some(true));
    let failed =
        session.call("tool_call", json!({"name": "mcp__alpha__fail", "arguments": {}})).await;
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(text(&failed), "it failed on purpose");
    let rejected =
        session.try_call("tool_call", json!({"name": "mcp__alpha__reject", "arguments": {}})).await;
    match rejected {
        Err(rmcp::ServiceError::McpError(error)) => {
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
            assert_eq!(error.message, "rejected on purpose");
            assert_eq!(error.data, Some(json!({"why": "test"})));
        }
        other => panic!("expected the upstream's protocol error, got {other:?}"),
    }
    // A found tool called by its own name reaches the upstream too.
    let direct = session.call("mcp__alpha__echo", json!({"text": "hi"})).await;
    assert_eq!(text(&direct), "hi");
    let nowhere = session.call("tool_call", json!({"name": "mcp__nope__x", "arguments": {}})).await;
    assert_eq!(nowhere.is_error, Some(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_with_the_same_tool_names_get_distinct_names_that_route_back() {
    let gateway = Gateway::start(config(&[("alpha", &[]), ("beta-server.v2", &[])]), options())
        .await
        .expect("starts");
    let session = connect(&gateway).await;
    let both = session.search("echo").await;
    // A server name that is not a plain segment gets its cleaned form and a hash of itself,
    // so that no two servers share a segment.
    assert_eq!(names(&both), ["mcp__alpha__echo", "mcp__beta-server_v2_1f964b27__echo"]);
    for name in names(&both) {
        assert!(
            !name.is_empty()
                && name.len() <= 64
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'),
            "{name}"
        );
        let described = session.call("tool_describe", json!({"name": name})).await;
        let definition: Value = serde_json::from_str(&text(&described)).expect("JSON");
        assert_eq!(definition["tool"], "echo");
    }
    let beta =
        session.call("tool_describe", json!({"name": "mcp__beta-server_v2_1f964b27__echo"})).await;
    assert!(text(&beta).contains("\"server\":\"beta-server.v2\""), "{}", text(&beta));
    let echoed = session
        .call(
            "tool_call",
            json!({"name": "mcp__beta-server_v2_1f964b27__echo", "arguments": {"text": "from beta"}}),
        )
        .await;
    assert_eq!(text(&echoed), "from beta");
    // One server only.
    let only_beta = session
        .call("tool_search", json!({"query": "echo text", "server": "beta-server.v2"}))
        .await;
    assert_eq!(names(&only_beta), ["mcp__beta-server_v2_1f964b27__echo"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_takes_the_tools_out_until_the_restart_brings_them_back() {
    let gateway = Gateway::start(config(&[("alpha", &[])]), options()).await.expect("starts");
    let mut session = connect(&gateway).await;
    let crashed =
        session.call("tool_call", json!({"name": "mcp__alpha__crash", "arguments": {}})).await;
    assert_eq!(crashed.is_error, Some(true), "{}", text(&crashed));
    assert!(text(&crashed).contains("alpha"), "{}", text(&crashed));

    // The client hears that the tools changed; the listing says the server is down.
    session.next_change().await;
    let status = wait_for(&gateway, "alpha", false).await;
    let ServerStatus::Down { reason, .. } = status else { unreachable!() };
    assert!(reason.contains("crashing on purpose"), "the child's stderr is quoted: {reason}");
    let listed = session.list().await;
    let description = listed.tools[0].description.as_deref().unwrap_or_default();
    assert!(description.contains("- alpha: down"), "{description}");
    let during = session
        .call("tool_call", json!({"name": "mcp__alpha__echo", "arguments": {"text": "x"}}))
        .await;
    assert_eq!(during.is_error, Some(true));

    // Restarted after the backoff: searchable and callable again.
    wait_for(&gateway, "alpha", true).await;
    assert_eq!(names(&session.search("mcp__alpha__echo").await), ["mcp__alpha__echo"]);
    let back = session
        .call("tool_call", json!({"name": "mcp__alpha__echo", "arguments": {"text": "back"}}))
        .await;
    assert_eq!(text(&back), "back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_hangs_past_the_timeout_fails_and_the_server_stays_up() {
    let options = Options { request_timeout: Duration::from_millis(400), ..options() };
    let gateway = Gateway::start(config(&[("alpha", &[])]), options).await.expect("starts");
    let session = connect(&gateway).await;
    let start = Instant::now();
    let hung = session
        .call("tool_call", json!({"name": "mcp__alpha__sleep", "arguments": {"ms": 30000}}))
        .await;
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert_eq!(hung.is_error, Some(true));
    assert!(text(&hung).contains("timed out"), "{}", text(&hung));
    let quick = session
        .call("tool_call", json!({"name": "mcp__alpha__sleep", "arguments": {"ms": 1}}))
        .await;
    assert_eq!(text(&quick), "slept");
    assert!(matches!(gateway.statuses()[0].1, ServerStatus::Up { .. }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_that_fail_or_hang_at_start_do_not_hold_up_the_others() {
    let options = Options {
        startup_timeout: Duration::from_secs(1),
        restart_backoff: Duration::from_secs(30),
        ..options()
    };
    let start = Instant::now();
    let gateway = Gateway::start(
        config(&[("good", &[]), ("broken", &["--fail-start"]), ("stuck", &["--hang-start"])]),
        options,
    )
    .await
    .expect("starts");
    let waited = start.elapsed();
    // Ready when the slowest (the stuck one, at its 1 s startup timeout) gives up.
    assert!(
        waited >= Duration::from_secs(1) && waited < Duration::from_secs(5),
        "ready after {waited:?}"
    );
    let statuses = gateway.statuses();
    assert_eq!(statuses[0], ("good".to_owned(), ServerStatus::Up { tools: 8 }));
    assert!(
        matches!(&statuses[1].1, ServerStatus::Down { reason, .. } if reason.contains("TEST_TOKEN is not set")),
        "{statuses:?}"
    );
    assert!(
        matches!(&statuses[2].1, ServerStatus::Down { reason, .. } if reason.contains("did not start within 1s")),
        "{statuses:?}"
    );
    let session = connect(&gateway).await;
    let description =
        session.list().await.tools[0].description.clone().unwrap_or_default().to_string();
    assert!(
        description.contains("- broken: down") && description.contains("- stuck: down"),
        "{description}"
    );
    assert_eq!(names(&session.search("echo").await), ["mcp__good__echo"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_list_changed_replaces_its_tools_and_is_announced() {
    let gateway = Gateway::start(config(&[("alpha", &[])]), options()).await.expect("starts");
    let mut session = connect(&gateway).await;
    let before = session.list().await.tools[0].description.clone().unwrap_or_default().to_string();
    let changed = session
        .call("tool_call", json!({"name": "mcp__alpha__set_tools", "arguments": {"add": ["launch_rocket"], "remove": ["echo"]}}))
        .await;
    assert_eq!(text(&changed), "changed");
    session.next_change().await;
    let after = session.list().await.tools[0].description.clone().unwrap_or_default().to_string();
    assert_ne!(before, after, "the listing in the description follows the tools");
    assert_eq!(names(&session.search("launch a rocket").await), ["mcp__alpha__launch_rocket"]);
    let gone = session.call("tool_describe", json!({"name": "mcp__alpha__echo"})).await;
    assert_eq!(gone.is_error, Some(true));
    assert_eq!(gateway.statuses()[0].1, ServerStatus::Up { tools: 8 });
}
