//! Tests of the dataset reader.

use std::path::Path;

use super::{Fnv64, ToolKey, discover, load, parse_queries};

#[test]
fn absent_grade_is_two_and_empty_relevant_is_no_answer() {
    let qs = parse_queries(concat!(
        r#"{"id": "a", "query": "open a pr", "relevant": [{"server": "gh", "tool": "create_pr"}, {"server": "gh", "tool": "fork", "grade": 1}], "tags": ["natural"]}"#,
        "\n\n",
        r#"{"id": "b", "query": "order pizza", "relevant": []}"#,
        "\n",
    ))
    .unwrap();
    assert_eq!(qs.len(), 2);
    assert_eq!(qs[0].relevant[&ToolKey::new("gh", "create_pr")], 2);
    assert_eq!(qs[0].relevant[&ToolKey::new("gh", "fork")], 1);
    assert_eq!(qs[0].tags, ["natural"]);
    assert!(qs[0].is_answerable());
    assert!(!qs[1].is_answerable());
    assert!(qs[1].tags.is_empty());
}

#[test]
fn repeated_label_keeps_highest_grade_and_grade_zero_is_dropped() {
    let qs = parse_queries(
        r#"{"id": "a", "query": "q", "relevant": [{"server": "s", "tool": "t", "grade": 1}, {"server": "s", "tool": "t", "grade": 2}, {"server": "s", "tool": "u", "grade": 0}]}"#,
    )
    .unwrap();
    assert_eq!(qs[0].relevant.len(), 1);
    assert_eq!(qs[0].relevant[&ToolKey::new("s", "t")], 2);
}

#[test]
fn errors_name_the_line() {
    let err = parse_queries("{\"id\": \"a\", \"query\": \"q\", \"relevant\": []}\nnot json\n")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("line 2:"), "{err}");
    let err = parse_queries(
        "{\"id\": \"a\", \"query\": \"q\", \"relevant\": []}\n{\"id\": \"a\", \"query\": \"r\", \"relevant\": []}\n",
    )
    .unwrap_err()
    .to_string();
    assert_eq!(err, "line 2: query id `a` used twice");
}

#[test]
fn fnv_matches_reference_values() {
    // Reference values of FNV-1a 64 from the algorithm's published test vectors.
    let mut h = Fnv64::new();
    h.write(b"");
    assert_eq!(h.finish(), 0xcbf2_9ce4_8422_2325);
    let mut h = Fnv64::new();
    h.write(b"a");
    assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    let mut h = Fnv64::new();
    h.write(b"foobar");
    assert_eq!(h.finish(), 0x8594_4171_f739_67e8);
}

#[test]
fn tuning_datasets_load() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tuning");
    let dirs = discover(&root).unwrap();
    let names: Vec<&str> =
        dirs.iter().filter_map(|d| d.file_name().and_then(|n| n.to_str())).collect();
    assert_eq!(
        names,
        [
            "all",
            "dev",
            "fresh",
            "names",
            "office",
            "openapi",
            "ops",
            "rephrase",
            "seal-tools",
            "stabletoolbench"
        ]
    );
    let all = load(&root.join("all")).unwrap();
    assert_eq!(all.name, "all");
    assert_eq!(all.catalogs.len(), 70);
    assert_eq!(all.queries.len(), 390);
    assert_eq!(all.queries.iter().filter(|q| !q.is_answerable()).count(), 39);
    for dir in &dirs {
        load(dir).unwrap();
    }
    // The outside development halves: every query answerable, as their SOURCES.md says.
    for (name, queries) in [("seal-tools", 712), ("stabletoolbench", 397)] {
        let ds = load(&root.join(name)).unwrap();
        assert_eq!(ds.queries.len(), queries, "{name}");
        assert!(ds.queries.iter().all(super::Query::is_answerable), "{name}");
    }
    // The rephrase set: all's catalogs; each no-answer query of all, unchanged, in a group of
    // its own id with four rephrasings, every one no-answer.
    let rephrase = load(&root.join("rephrase")).unwrap();
    let files = |ds: &super::Dataset| -> Vec<_> {
        ds.catalogs
            .iter()
            .map(|c| (c.server.clone(), c.kind, std::fs::canonicalize(&c.file).unwrap()))
            .collect()
    };
    assert_eq!(files(&rephrase), files(&all));
    assert_eq!(rephrase.queries.len(), 39 * 5);
    assert!(rephrase.queries.iter().all(|q| !q.is_answerable()));
    for original in all.queries.iter().filter(|q| !q.is_answerable()) {
        let group: Vec<&super::Query> =
            rephrase.queries.iter().filter(|q| q.group.as_ref() == Some(&original.id)).collect();
        assert_eq!(group.len(), 5, "{}", original.id);
        assert_eq!(group[0].id, original.id);
        assert_eq!(group[0].text, original.text);
    }
}

/// Writes a one-catalog dataset whose catalog sits at `catalog_rel` from the dataset folder.
fn write_dataset(root: &Path, catalog_rel: &str, queries: &str) -> std::path::PathBuf {
    let dir = root.join("ds");
    let catalog = dir.join(catalog_rel);
    std::fs::create_dir_all(catalog.parent().unwrap()).unwrap();
    std::fs::write(&catalog, r#"{"tools": []}"#).unwrap();
    let meta = format!(
        r#"{{"name": "mini", "catalogs": [{{"file": "{catalog_rel}", "kind": "mcp", "server": "s"}}]}}"#
    );
    std::fs::write(dir.join("dataset.json"), meta).unwrap();
    std::fs::write(dir.join("queries.jsonl"), queries).unwrap();
    dir
}

#[test]
fn content_hash_ignores_where_files_live_but_not_what_they_hold() {
    let base = std::env::temp_dir().join(format!("xtask-dataset-test-{}", std::process::id()));
    let q = "{\"id\": \"a\", \"query\": \"q\", \"relevant\": []}\n";
    let one = load(&write_dataset(&base.join("one"), "cat.json", q)).unwrap();
    let two = load(&write_dataset(&base.join("two"), "../elsewhere/cat.json", q)).unwrap();
    let three = load(&write_dataset(&base.join("three"), "cat.json", &q.replace("\"q\"", "\"r\"")))
        .unwrap();
    std::fs::remove_dir_all(&base).unwrap();
    assert_eq!(one.name, "mini");
    assert_eq!(one.catalogs[0].server, "s");
    assert!(one.content_hash.starts_with("fnv1a64:"));
    assert_eq!(one.content_hash, two.content_hash);
    assert_ne!(one.content_hash, three.content_hash);
}

#[test]
fn group_is_optional_and_its_phrasings_share_their_answer() {
    let qs = parse_queries(concat!(
        r#"{"id": "a", "query": "send a fax", "relevant": [], "group": "fax"}"#,
        "\n",
        r#"{"id": "a1", "query": "fax a document", "relevant": [], "group": "fax"}"#,
        "\n",
        r#"{"id": "b", "query": "order pizza", "relevant": []}"#,
        "\n",
    ))
    .unwrap();
    assert_eq!(qs[0].group.as_deref(), Some("fax"));
    assert_eq!(qs[1].group.as_deref(), Some("fax"));
    assert_eq!(qs[2].group, None);

    let err = parse_queries(concat!(
        r#"{"id": "a", "query": "send a fax", "relevant": [], "group": "g"}"#,
        "\n",
        r#"{"id": "b", "query": "open a pr", "relevant": [{"server": "gh", "tool": "create_pr"}], "group": "g"}"#,
        "\n",
    ))
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("line 2: query `b` is answerable but `a` of its group `g` is no-answer"),
        "{err}"
    );

    let err = parse_queries(r#"{"id": "a", "query": "q", "relevant": [], "group": ""}"#)
        .unwrap_err()
        .to_string();
    assert_eq!(err, "line 1: query `a` has an empty group");
}
