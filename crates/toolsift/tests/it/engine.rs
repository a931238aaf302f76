//! The `SearchEngine` boundary: `ToolSearch` behind `dyn`, and a host's own engine.

use toolsift::{Hit, SearchEngine, SearchResults, ToolId};

use crate::mixed;

#[test]
fn tool_search_is_a_search_engine() {
    let search = mixed();
    let engine: &dyn SearchEngine = &search;
    assert_eq!(engine.engine_name(), "toolsift");
    let best = engine.best("post a message to a slack channel").expect("a hit");
    assert_eq!(best.name(), "mcp__slack__slack_post_message");
    assert_eq!(engine.search("post a message", 4), search.search("post a message", 4));
    let text = engine.explain_text("post a message", best.tool()).expect("explained");
    assert!(text.contains("term \"message\""), "{text}");
}

/// A host engine that knows one tool.
struct Fixed;

impl SearchEngine for Fixed {
    fn search(&self, query: &str, limit: usize) -> SearchResults {
        let hit =
            Hit::new(ToolId::new("time", "now"), "mcp__time__now", 1.0, vec![query.to_owned()]);
        SearchResults::new(std::iter::once(hit).take(limit).collect())
    }
}

#[test]
fn a_host_engine_gets_the_provided_methods() {
    assert_eq!(Fixed.engine_name(), "custom");
    assert_eq!(
        Fixed.best("time").map(|h| h.matched().map(str::to_owned).collect::<Vec<_>>()),
        Some(vec!["time".to_owned()])
    );
    assert_eq!(Fixed.explain_text("time", &ToolId::new("time", "now")), None);
    assert!(Fixed.search("time", 0).is_empty());
}
