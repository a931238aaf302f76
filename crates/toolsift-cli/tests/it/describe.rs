//! `toolsift describe`.

use crate::{NOTES, arg, fits_80, fixture, toolsift};

#[test]
fn by_model_name_human() {
    let run = toolsift(&["describe", "mcp__github__create_pull_request"]).status(0);
    let mut lines = run.stdout.lines();
    assert_eq!(lines.next(), Some("mcp__github__create_pull_request"));
    assert!(
        run.stdout.contains("server      github (mcp, embedded:github.json)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("call        mcp__github__create_pull_request(base: string"));
    assert!(run.stdout.contains("\nInput schema:\n{\n"), "{}", run.stdout);
    fits_80(run.stdout.split("\nInput schema:").next().unwrap_or_default());
}

#[test]
fn every_way_of_naming_a_tool() {
    for name in [
        "mcp__github__create_pull_request",
        "github/create_pull_request",
        "create_pull_request",
        "Create-Pull-Request",
        "GITHUB/create pull request",
    ] {
        let doc = toolsift(&["describe", name, "--json"]).status(0).json();
        assert_eq!(doc["name"], "mcp__github__create_pull_request", "{name}");
        assert_eq!(doc["server"], "github");
        assert_eq!(doc["tool"], "create_pull_request");
        assert_eq!(doc["kind"], "mcp");
        assert!(doc["input_schema"].is_object());
        assert!(doc["signature"].as_str().is_some_and(|s| s.starts_with(name_prefix())));
        assert_eq!(doc["openapi"], serde_json::Value::Null);
    }
}

fn name_prefix() -> &'static str {
    "mcp__github__create_pull_request("
}

#[test]
fn a_near_miss_suggests_names() {
    let run = toolsift(&["describe", "create_pull_requst"]).status(2);
    assert!(run.stderr.contains("no tool is named `create_pull_requst`"), "{}", run.stderr);
    assert!(
        run.stderr.contains("did you mean: mcp__github__create_pull_request"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn an_ambiguous_name_lists_the_tools() {
    let a = fixture("describe_ambiguous", "a.json", NOTES);
    let b = fixture("describe_ambiguous", "b.json", NOTES);
    let run =
        toolsift(&["describe", "create_note", "--mcp", &arg(&a), "--mcp", &arg(&b)]).status(2);
    assert!(run.stderr.contains("`create_note` names 2 tools"), "{}", run.stderr);
    assert!(run.stderr.contains("mcp__a__create_note, mcp__b__create_note"), "{}", run.stderr);
}

#[test]
fn openapi_operations_show_their_route() {
    let petstore = tuning_petstore();
    let run =
        toolsift(&["describe", "openapi__petstore__getPetById", "--openapi", &petstore]).status(0);
    assert!(run.stdout.contains("route       GET /pet/{petId}"), "{}", run.stdout);
    let doc =
        toolsift(&["describe", "getPetById", "--openapi", &petstore, "--json"]).status(0).json();
    assert_eq!(doc["openapi"]["method"], "GET");
    assert_eq!(doc["openapi"]["path"], "/pet/{petId}");
}

fn tuning_petstore() -> String {
    crate::tuning("catalogs/openapi/petstore.yaml")
}
