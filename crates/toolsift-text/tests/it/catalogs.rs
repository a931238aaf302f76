//! The analyzer over the full text of the 70 real catalogs copied into the repository.

use std::path::Path;

use toolsift_text::{Analyzer, Origin, fold};

/// The copied catalogs (see xtask/tuning/catalogs/SOURCES.md).
const CATALOGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs");

#[test]
fn every_catalog_analyzes_cleanly() {
    let analyzer = Analyzer::default();
    let mut files = 0;
    let mut total = 0usize;
    for kind in ["mcp", "openapi", "plugin"] {
        let dir = Path::new(CATALOGS).join(kind);
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()));
        paths.sort();
        for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e != "md")) {
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            let mut count = 0usize;
            let mut last_position = 0;
            analyzer.for_each_token(&text, |t| {
                count += 1;
                assert!(!t.word.is_empty() && !t.stem.is_empty(), "{t:?} in {}", path.display());
                assert!(t.word.chars().all(char::is_alphanumeric), "{t:?}");
                assert!(t.position >= last_position, "{t:?} goes back");
                if !t.word.is_ascii() {
                    assert_eq!(fold(t.word), t.word, "{t:?} is not folded");
                }
                assert!(t.origin != Origin::Bigram || t.stem == t.word);
                last_position = t.position;
            });
            assert!(count > 0, "{} yields no terms", path.display());
            total += count;
            files += 1;
        }
    }
    assert_eq!(files, 70, "the repository copies 70 catalogs");
    assert!(total > 1_000_000, "only {total} terms in all catalogs");
}

#[test]
fn chinese_descriptions_give_bigrams() {
    let path = Path::new(CATALOGS).join("mcp/lark-zh.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let terms = Analyzer::default().analyze(&text);
    let bigrams = terms.iter().filter(|t| t.origin == Origin::Bigram).count();
    assert!(bigrams > 1000, "only {bigrams} bigrams in lark-zh.json");
    assert!(terms.iter().any(|t| t.word == "表格"), "no 表格 in lark-zh.json");
}
