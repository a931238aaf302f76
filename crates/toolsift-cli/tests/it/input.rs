//! Catalog input, errors and help.

use crate::{NOTES, arg, fixture, toolsift, tuning};

#[test]
fn a_broken_file_stops_with_its_position() {
    let broken = fixture("broken_stop", "broken.json", "{\"tools\": [\n  {\"name\": \"x\",}\n]}");
    let run = toolsift(&["search", "note", "--mcp", &arg(&broken)]).status(2);
    assert_eq!(run.stdout, "");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with("toolsift: error: "), "{}", run.stderr);
    assert!(first.contains("broken.json:2:"), "{}", run.stderr);
    assert!(first.contains("invalid json"), "{}", run.stderr);
    assert!(run.stderr.contains("--keep-going"), "{}", run.stderr);
}

#[test]
fn keep_going_skips_the_broken_file() {
    let broken = fixture("broken_keep", "broken.json", "[1, 2");
    let notes = fixture("broken_keep", "notes.json", NOTES);
    let run = toolsift(&[
        "search",
        "delete a note",
        "--mcp",
        &arg(&broken),
        "--mcp",
        &arg(&notes),
        "--keep-going",
        "--json",
    ])
    .status(0);
    assert!(run.stderr.contains("toolsift: warning: "), "{}", run.stderr);
    assert!(run.stderr.contains("broken.json"), "{}", run.stderr);
    assert!(run.stderr.contains("(skipped)"), "{}", run.stderr);
    assert_eq!(run.json()["hits"][0]["name"], "mcp__notes__delete_note");

    let doc = toolsift(&[
        "check",
        "--mcp",
        &arg(&broken),
        "--mcp",
        &arg(&notes),
        "--keep-going",
        "--json",
    ])
    .status(1)
    .json();
    assert_eq!(doc["groups"][0]["code"], "unreadable-file");
    assert!(
        doc["groups"][0]["findings"][0]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("broken.json"))
    );
}

#[test]
fn a_file_that_is_no_catalog_and_a_missing_file() {
    let shape = fixture("not_catalog", "plain.json", r#"{"hello": "world"}"#);
    let run =
        toolsift(&["listing", "--mcp", &arg(&shape), "--mcp", "/no/such/file.json"]).status(2);
    assert!(run.stderr.contains("plain.json: not a tool catalog"), "{}", run.stderr);
    assert!(run.stderr.contains("/no/such/file.json: cannot read catalog"), "{}", run.stderr);
    assert!(run.stderr.contains("2 catalog files could not be read"), "{}", run.stderr);
}

#[test]
fn server_names_and_command_line_order() {
    let notes = fixture("servers", "notes.json", NOTES);
    let doc =
        toolsift(&["search", "delete a note", "--mcp", &format!("{}=memo", arg(&notes)), "--json"])
            .status(0)
            .json();
    assert_eq!(doc["hits"][0]["name"], "mcp__memo__delete_note");

    // With bare names the first catalog on the command line keeps the plain name.
    let plugin = fixture(
        "servers",
        "tools.json",
        r#"[{"name": "create_note", "description": "Plugin note.", "input_schema": {"type": "object"}}]"#,
    );
    for (first, second, owner) in [("--plugin", "--mcp", "tools"), ("--mcp", "--plugin", "notes")] {
        let (a, b) = if first == "--plugin" { (&plugin, &notes) } else { (&notes, &plugin) };
        let doc = toolsift(&[
            "describe",
            "create_note",
            "--names",
            "bare",
            first,
            &arg(a),
            second,
            &arg(b),
            "--json",
        ])
        .status(0)
        .json();
        assert_eq!(doc["server"], owner, "{first} first");
    }

    let run = toolsift(&[
        "listing",
        "--mcp",
        &arg(&notes),
        "--plugin",
        &format!("{}=notes", arg(&plugin)),
    ])
    .status(2);
    assert!(run.stderr.contains("server name `notes` is already used"), "{}", run.stderr);
}

#[test]
fn datasets() {
    let notes = fixture("dataset", "notes.json", NOTES);
    let dataset = fixture(
        "dataset",
        "dataset.json",
        &format!(
            r#"{{"name": "t", "catalogs": [
                {{"file": "notes.json", "kind": "mcp", "server": "n"}},
                {{"file": "{}", "kind": "openapi", "server": "pets"}}]}}"#,
            tuning("catalogs/openapi/petstore.yaml")
        ),
    );
    let dir = dataset.parent().map(|p| p.display().to_string()).unwrap_or_default();
    let doc =
        toolsift(&["listing", "--dataset", &dir, "--json", "--budget", "100000"]).status(0).json();
    let servers: Vec<&str> = doc["servers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(servers, ["n", "pets"]);
    assert!(notes.exists());

    let bad = fixture(
        "dataset_bad",
        "dataset.json",
        r#"{"catalogs": [{"file": "x", "kind": "soap", "server": "s"}]}"#,
    );
    let run = toolsift(&["listing", "--dataset", &arg(&bad)]).status(2);
    assert!(
        run.stderr.contains("dataset.json: /catalogs/0/kind: unknown kind \"soap\""),
        "{}",
        run.stderr
    );

    let real = toolsift(&["listing", "--dataset", &tuning("dev"), "--json"]).status(0).json();
    assert_eq!(real["servers"].as_array().map(Vec::len), Some(24));
}

#[test]
fn help_version_and_usage_errors() {
    let version = toolsift(&["--version"]).status(0);
    assert!(version.stdout.starts_with("toolsift "), "{}", version.stdout);
    for command in ["search", "listing", "describe", "check"] {
        let help = toolsift(&[command, "--help"]).status(0);
        assert!(help.stdout.contains("Example:\n  toolsift "), "{command}: {}", help.stdout);
        assert!(help.stdout.contains("--json"), "{command}");
        assert!(help.stdout.contains("--keep-going"), "{command}");
    }
    let top = toolsift(&["--help"]).status(0);
    assert!(top.stdout.contains("SOURCES.md"), "{}", top.stdout);
    toolsift::<&str>(&[]).status(2);
    toolsift(&["search"]).status(2);
    toolsift(&["listing", "--budget", "lots"]).status(2);
    toolsift(&["frobnicate"]).status(2);
}
