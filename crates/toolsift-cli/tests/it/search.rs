//! `toolsift search`.

use crate::{fits_80, toolsift};

#[test]
fn demo_catalog_finds_a_pull_request_tool() {
    let run = toolsift(&["search", "open a pull request"]).status(0);
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with(" 1. mcp__github__"), "{}", run.stdout);
    assert!(first.contains("pull_request"), "{first}");
    assert!(run.stdout.contains(". mcp__github__create_pull_request "), "{}", run.stdout);
    assert_eq!(run.stdout.lines().filter(|l| !l.starts_with("    ")).count(), 5);
    fits_80(&run.stdout);
    assert_eq!(run.stderr, "");
}

#[test]
fn json_has_the_documented_shape() {
    let doc =
        toolsift(&["search", "open", "a", "pull", "request", "--json", "-n", "3"]).status(0).json();
    assert_eq!(doc["query"], "open a pull request");
    assert_eq!(doc["limit"], 3);
    assert_eq!(doc["server"], serde_json::Value::Null);
    assert_eq!(doc["empty"], serde_json::Value::Null);
    let hits = doc["hits"].as_array().map(Vec::len);
    assert_eq!(hits, Some(3));
    let hits = doc["hits"].as_array().cloned().unwrap_or_default();
    let Some(first) = hits.iter().find(|h| h["tool"] == "create_pull_request") else {
        panic!("no create_pull_request in {hits:?}");
    };
    assert_eq!(hits[0]["rank"], 1);
    assert_eq!(first["name"], "mcp__github__create_pull_request");
    assert_eq!(first["server"], "github");
    assert_eq!(first["kind"], "mcp");
    assert!(first["score"].as_f64().is_some_and(|s| s > 0.0));
    assert!(first["matched"].as_array().is_some_and(|m| !m.is_empty()));
    assert!(first["description"].as_str().is_some_and(|d| d.contains("pull request")));
    assert!(first.get("explanation").is_none());
    assert!(hits.windows(2).all(|w| w[0]["score"].as_f64() >= w[1]["score"].as_f64()));
    // "open" is `create` to the intent lexicon: the query spells `create_pull_request`.
    assert_eq!(first["promoted"], serde_json::json!(["name"]));
    assert_eq!(first["demoted"], serde_json::json!([]));
}

#[test]
fn a_query_that_spells_a_tool_name_promotes_it() {
    let doc =
        toolsift(&["search", "github create pull request", "--json", "-n", "1"]).status(0).json();
    assert_eq!(doc["hits"][0]["tool"], "create_pull_request");
    assert_eq!(doc["hits"][0]["promoted"], serde_json::json!(["name"]));
    let run = toolsift(&["search", "github create pull request", "-n", "1", "--explain"]).status(0);
    assert!(run.stdout.contains("the query spells the tool's name"), "{}", run.stdout);
}

#[test]
fn nothing_fits_says_why_and_fail_empty_sets_status_1() {
    let run = toolsift(&["search", "frobnicate the zorblax"]).status(0);
    assert!(run.stdout.starts_with("No tool matches"), "{}", run.stdout);
    assert!(run.stdout.contains("(reason: "), "{}", run.stdout);
    fits_80(&run.stdout);
    toolsift(&["search", "frobnicate the zorblax", "--fail-empty"]).status(1);
    toolsift(&["search", "open a pull request", "--fail-empty"]).status(0);
    // An everyday thing no tool is named for is named as missing (the errand rule).
    let doc = toolsift(&["search", "book a flight to Lisbon", "--json"]).status(0).json();
    assert_eq!(doc["empty"]["missing_services"], serde_json::json!(["flight"]));

    let doc = toolsift(&["search", "frobnicate the zorblax", "--json"]).status(0).json();
    assert_eq!(doc["hits"], serde_json::json!([]));
    let empty = &doc["empty"];
    assert!(empty["reason"].as_str().is_some_and(|r| !r.is_empty()));
    assert!(empty["text"].as_str().is_some_and(|t| t.contains("Connected servers")));
    assert!(empty["unknown"].is_array() && empty["weak"].is_array());
    assert_eq!(empty["missing_services"], serde_json::json!([]));
}

#[test]
fn a_missing_service_is_named() {
    let run = toolsift(&["search", "acknowledge the pagerduty incident"]).status(0);
    assert!(
        run.stdout.contains("(reason: the catalog has no tools for pagerduty)"),
        "{}",
        run.stdout
    );
    let doc =
        toolsift(&["search", "acknowledge the pagerduty incident", "--json"]).status(0).json();
    assert_eq!(doc["empty"]["reason"], "missing-service");
    assert_eq!(doc["empty"]["missing_services"], serde_json::json!(["pagerduty"]));
    let text = doc["empty"]["text"].as_str().unwrap_or_default();
    assert!(text.contains(r#"no connected server provides "pagerduty""#), "{text}");
}

#[test]
fn server_filter_keeps_one_server() {
    let doc = toolsift(&["search", "list issues", "--server", "linear", "--json"]).status(0).json();
    let hits = doc["hits"].as_array().cloned().unwrap_or_default();
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h["server"] == "linear"), "{hits:?}");
    assert_eq!(doc["server"], "linear");

    let run = toolsift(&["search", "list issues", "--server", "jira"]).status(2);
    assert!(run.stderr.contains("unknown server `jira`"), "{}", run.stderr);
    assert!(run.stderr.contains("github"), "{}", run.stderr);
}

#[test]
fn explain_breaks_scores_down() {
    let run = toolsift(&["search", "open a pull request", "-n", "1", "--explain"]).status(0);
    assert!(run.stdout.contains("matched: "), "{}", run.stdout);
    assert!(run.stdout.contains("idf"), "{}", run.stdout);
    assert!(run.stdout.contains("name tf"), "{}", run.stdout);
    fits_80(&run.stdout);

    let doc = toolsift(&["search", "open a pull request", "-n", "1", "--explain", "--json"])
        .status(0)
        .json();
    let e = &doc["hits"][0]["explanation"];
    // The hit is promoted (the query spells its name): its score is the explanation's times
    // the factor, each rounded to four decimals.
    assert_eq!(doc["hits"][0]["promoted"], serde_json::json!(["name"]));
    let (score, explained) = (doc["hits"][0]["score"].as_f64(), e["score"].as_f64());
    let factor = f64::from(toolsift::DEFAULT_NAME_MATCH);
    assert!(
        score.zip(explained).is_some_and(|(s, x)| (s - x * factor).abs() < 1e-3),
        "{score:?} {explained:?}"
    );
    let term = &e["terms"][0];
    for key in ["word", "answerable", "weight", "df", "idf", "saturation", "score", "forms"] {
        assert!(term.get(key).is_some(), "no {key} in {term}");
    }
}

/// A query with no words to search for asks for words; it never tells the model to stop.
#[test]
fn a_query_without_words_asks_for_words() {
    for query in ["", "the of a"] {
        let run = toolsift(&["search", query]).status(0);
        assert!(run.stdout.contains("has no words to look for"), "{}", run.stdout);
        assert!(run.stdout.contains("Search again with the words"), "{}", run.stdout);
        assert!(!run.stdout.contains("Do not rephrase"), "{}", run.stdout);
    }
}
