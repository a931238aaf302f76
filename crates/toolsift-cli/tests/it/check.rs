//! `toolsift check`.

use serde_json::Value;

use crate::{NOTES, arg, fits_80, fixture, toolsift, tuning};

/// A catalog with one problem of most kinds.
const MESSY: &str = r#"{"tools": [
  {"name": "create_note", "description": "Create a new note with a title and a body.",
   "inputSchema": {"type": "object"}},
  {"name": "create_note", "description": "A second tool of the same name.",
   "inputSchema": {"type": "object"}},
  {"name": "silent", "inputSchema": {"type": "object"}},
  {"name": "no_schema", "description": "Has no input schema at all, which MCP requires."},
  {"name": "copy_a", "description": "Copies things.", "inputSchema": {"type": "object"}},
  {"name": "copy_b", "description": "Copies things.", "inputSchema": {"type": "object"}},
  {"name": "tool_search", "description": "Search for a tool by keyword.",
   "inputSchema": {"type": "object"}},
  {"name": "big", "description": "WORDS", "inputSchema": {"type": "object"}}
]}"#;

/// The codes of a `--json` report, in order, with their counts.
fn codes(doc: &Value) -> Vec<(String, u64)> {
    doc["groups"]
        .as_array()
        .map(|g| {
            g.iter()
                .map(|x| {
                    (x["code"].as_str().unwrap_or("?").to_owned(), x["count"].as_u64().unwrap_or(0))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_clean_catalog_passes() {
    let notes = fixture("check_clean", "notes.json", NOTES);
    let run = toolsift(&["check", "--mcp", &arg(&notes)]).status(0);
    assert_eq!(run.stdout, "2 tools on 1 server: no problems found\n");
    let doc = toolsift(&["check", "--mcp", &arg(&notes), "--json"]).status(0).json();
    assert_eq!(doc, serde_json::json!({"servers": 1, "tools": 2, "problems": 0, "groups": []}));
}

#[test]
fn a_messy_catalog_fails_with_grouped_findings() {
    let big = MESSY.replace("WORDS", &"word ".repeat(500));
    let messy = fixture("check_messy", "messy.json", &big);
    let doc =
        toolsift(&["check", "--mcp", &arg(&messy), "--names", "bare", "--json"]).status(1).json();
    let codes = codes(&doc);
    let names: Vec<&str> = codes.iter().map(|(c, _)| c.as_str()).collect();
    for code in [
        "duplicate-name",
        "missing-schema",
        "reserved-name",
        "empty-description",
        "huge-description",
        "repeated-description",
    ] {
        assert!(names.contains(&code), "{code} missing from {names:?}");
    }
    let total: u64 = codes.iter().map(|(_, n)| n).sum();
    assert_eq!(doc["problems"].as_u64(), Some(total));
    assert_eq!(doc["tools"], 7);

    let group = |code: &str| {
        doc["groups"].as_array().and_then(|g| g.iter().find(|x| x["code"] == code)).cloned()
    };
    let reserved = group("reserved-name").unwrap_or_default();
    assert_eq!(reserved["findings"][0]["tool"], "tool_search");
    assert_eq!(reserved["findings"][0]["pointer"], "");
    let dup = group("duplicate-name").unwrap_or_default();
    assert_eq!(dup["findings"][0]["pointer"], "/tools/1");
    assert!(dup["findings"][0]["file"].as_str().is_some_and(|f| f.ends_with("messy.json")));
    let repeated = group("repeated-description").unwrap_or_default();
    assert_eq!(repeated["findings"][0]["tools"].as_array().map(Vec::len), Some(2));
    let huge = group("huge-description").unwrap_or_default();
    assert_eq!(huge["findings"][0]["chars"], 2500);
    // The estimate listings are budgeted with: 500 one-token words at 1.091 each, and the
    // text around them.
    assert_eq!(huge["findings"][0]["tokens"], 547);

    let run = toolsift(&["check", "--mcp", &arg(&messy), "--names", "bare"]).status(1);
    assert!(run.stdout.contains("duplicate-name (1): "), "{}", run.stdout);
    assert!(run.stdout.contains("  messy/silent: no description"), "{}", run.stdout);
    // The summary line comes last (wrapped to 80 columns), after a blank line.
    let summary = run.stdout.rsplit("\n\n").next().unwrap_or_default();
    assert!(summary.starts_with("7 tools on 1 server: "), "{summary}");
    assert!(summary.contains(" problems (duplicate-name 1, "), "{summary}");
    fits_80(&run.stdout);
}

#[test]
fn skip_and_caps() {
    let messy = fixture("check_skip", "messy.json", MESSY);
    let skipped = toolsift(&[
        "check",
        "--mcp",
        &arg(&messy),
        "--skip",
        "diagnostics",
        "--skip",
        "empty-description",
        "--json",
    ])
    .status(1)
    .json();
    let names: Vec<String> = codes(&skipped).into_iter().map(|(c, _)| c).collect();
    assert!(!names.iter().any(|c| c == "duplicate-name" || c == "empty-description"), "{names:?}");
    assert!(names.iter().any(|c| c == "repeated-description"), "{names:?}");

    let run = toolsift(&["check", "--skip", "no-such-check"]).status(2);
    assert!(run.stderr.contains("--skip no-such-check: unknown code"), "{}", run.stderr);

    let dev = toolsift(&["check", "--dataset", &tuning("dev"), "--max-per-group", "1"]).status(1);
    assert!(dev.stdout.contains("\n  … "), "{}", dev.stdout);
    assert!(dev.stdout.contains(" more\n"), "{}", dev.stdout);
    fits_80(&dev.stdout);
}

#[test]
fn the_demo_catalog_report_is_consistent() {
    let run = toolsift(&["check", "--json"]);
    let doc = run.json();
    assert_eq!(doc["tools"], 407);
    assert_eq!(doc["servers"], 7);
    let total: u64 = codes(&doc).iter().map(|(_, n)| n).sum();
    assert_eq!(doc["problems"].as_u64(), Some(total));
    assert_eq!(run.code, i32::from(total > 0));
    for group in doc["groups"].as_array().cloned().unwrap_or_default() {
        let findings = group["findings"].as_array().cloned().unwrap_or_default();
        assert_eq!(group["count"].as_u64(), Some(findings.len() as u64));
        for f in findings {
            for key in ["server", "tool", "name", "message"] {
                assert!(f.get(key).is_some(), "{key} missing in {f}");
            }
            if group["code"] == "name-miss" || group["code"] == "summary-miss" {
                assert!(f["query"].is_string() && f["beaten_by"].is_array(), "{f}");
            }
        }
    }
}

/// Issue #39: many findings of one kind are grouped per server with a count and a few
/// examples; body fields repeating a query parameter (Kubernetes' DELETE with
/// `DeleteOptions`) are notes, not problems, and `search` does not count them.
#[test]
fn repeated_findings_are_grouped_and_normal_patterns_are_notes() {
    let mut paths = serde_json::Map::new();
    for i in 0..30 {
        paths.insert(
            format!("/api/v1/kind{i}/{{name}}"),
            serde_json::json!({"delete": {
            "operationId": format!("deleteKind{i}"),
            "summary": format!("delete a kind{i} object"),
            "parameters": [
                {"name": "name", "in": "path", "required": true, "type": "string"},
                {"name": "gracePeriodSeconds", "in": "query", "type": "integer"},
                {"name": "body", "in": "body",
                 "schema": {"$ref": "#/definitions/DeleteOptions"}}
            ]}}),
        );
    }
    let doc = serde_json::json!({"swagger": "2.0", "paths": paths, "definitions": {
        "DeleteOptions": {"type": "object", "properties": {
            "gracePeriodSeconds": {"type": "integer"}, "name": {"type": "integer"}}}}});
    let path = fixture("grouped", "k8s.json", &doc.to_string());
    let spec = format!("{}=k8s", arg(&path));
    let run = toolsift(&[
        "check",
        "--openapi",
        &spec,
        "--skip",
        "name-miss",
        "--skip",
        "summary-miss",
        "--skip",
        "near-duplicate",
    ]);
    assert!(run.stdout.contains("body-repeats-parameter (30 notes)"), "{}", run.stdout);
    assert!(run.stdout.contains("  k8s: 30 findings, for example:"), "{}", run.stdout);
    assert!(run.stdout.contains("    … 28 more"), "{}", run.stdout);
    let flat = run.stdout.replace('\n', " ");
    assert!(flat.contains("notes: body-repeats-parameter 30"), "{}", run.stdout);
    // The path parameter `name` collides with a body field of another type: a real problem.
    assert!(flat.contains("30 problems (parameter-conflict 30)"), "{}", run.stdout);
    fits_80(&run.stdout);
    let search = toolsift(&["search", "delete kind3", "--openapi", &spec]).status(0);
    assert!(
        search.stderr.contains("30 catalog problems while loading (30 parameter-conflict)"),
        "{}",
        search.stderr
    );
}
