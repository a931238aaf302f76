//! The embedded demo catalogs (`demo/`) are copies of tuning-set files; these tests keep them
//! so.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::{toolsift, tuning};

/// The crate's `demo/` folder.
fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("demo")
}

#[track_caller]
fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The file names in `demo/mcp/`, sorted.
fn demo_files() -> Vec<String> {
    let dir = demo().join("mcp");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The provenance row of `file` (`mcp/NAME.json`) in a SOURCES.md table: the line that starts
/// with `| file | ` and names a repository (the summary table has the kind there instead).
fn provenance_row<'a>(sources: &'a str, file: &str) -> Option<&'a str> {
    let start = format!("| {file} | ");
    sources.lines().find(|l| l.starts_with(&start) && !l.starts_with(&format!("{start}mcp |")))
}

#[test]
fn demo_catalogs_are_byte_identical_to_the_tuning_set() {
    let files = demo_files();
    assert_eq!(files.len(), 7, "{files:?}");
    for name in &files {
        let copy = read(&demo().join("mcp").join(name));
        let original = read(Path::new(&tuning(&format!("catalogs/mcp/{name}"))));
        assert!(copy == original, "demo/mcp/{name} differs from xtask/tuning/catalogs/mcp/{name}");
    }
    let licence = read(&demo().join("LICENSE-APACHE-2.0.txt"));
    assert!(licence == read(Path::new(&tuning("LICENSE-APACHE-2.0.txt"))));
}

#[test]
fn demo_sources_carry_the_tuning_set_provenance_and_a_licence_per_catalog() {
    let ours = String::from_utf8(read(&demo().join("SOURCES.md"))).expect("UTF-8");
    let theirs = fs::read_to_string(tuning("catalogs/SOURCES.md")).expect("tuning SOURCES.md");
    for name in demo_files() {
        let file = format!("mcp/{name}");
        let row = provenance_row(&ours, &file);
        assert!(row.is_some(), "demo/SOURCES.md has no provenance row for {file}");
        assert_eq!(row, provenance_row(&theirs, &file), "{file}: provenance rows differ");
        let licence_row = format!("| {file} | MIT |");
        let apache_row = format!("| {file} | Apache-2.0");
        assert!(
            ours.lines().any(|l| l.starts_with(&licence_row) || l.starts_with(&apache_row)),
            "demo/SOURCES.md has no licence row for {file}"
        );
    }
}

#[test]
fn the_binary_embeds_every_demo_catalog() {
    let listing = toolsift(&["listing", "--json"]).status(0).json();
    let servers: BTreeSet<String> = listing["servers"]
        .as_array()
        .expect("a servers array")
        .iter()
        .map(|s| s["name"].as_str().expect("a server name").to_owned())
        .collect();
    let files: BTreeSet<String> =
        demo_files().iter().map(|f| f.trim_end_matches(".json").to_owned()).collect();
    assert_eq!(servers, files);
}
