//! Known queries on real catalogs return the expected tool first.

use std::sync::OnceLock;

use toolsift::{Abstention, ToolSearch};

use crate::mixed;

fn search() -> &'static ToolSearch {
    static SEARCH: OnceLock<ToolSearch> = OnceLock::new();
    SEARCH.get_or_init(mixed)
}

/// The model-facing name of the first hit of `query`, or `None` for an empty answer.
#[track_caller]
fn check(query: &str, first: Option<&str>) {
    let results = search().search(query, 10);
    let got = results.hits().first().map(|h| h.name());
    assert_eq!(
        got,
        first,
        "query {query:?}: {:#?}",
        results.hits().iter().map(|h| h.name()).collect::<Vec<_>>()
    );
}

/// Asserts that `tool` is among the first `n` hits of `query`.
#[track_caller]
fn check_top(query: &str, n: usize, tool: &str) {
    let results = search().search(query, n);
    let names: Vec<&str> = results.hits().iter().map(|h| h.name()).collect();
    assert!(names.contains(&tool), "query {query:?}: {names:#?}");
}

#[test]
fn agent_phrasing_finds_the_tool() {
    check("post a message to a slack channel", Some("mcp__slack__slack_post_message"));
    check("find pets by status", Some("openapi__petstore__findPetsByStatus"));
    // `kubectl_get` says "pods" only in its parameters, which weigh 0.5 since issue #9, while
    // `exec_in_pod` has it in its name: the right tool is in the top 3, not first.
    check_top("list kubernetes pods", 3, "mcp__kubernetes__kubectl_get");
    // The intent lexicon: the catalog says "remove" and "issue".
    check("delete a label from an issue", Some("mcp__linear__linear_removeIssueLabel"));
    check("open a new ticket in linear", Some("mcp__linear__linear_createIssue"));
}

#[test]
fn exact_names_rank_their_tool_first() {
    // The original name, in any separator style and case.
    check("create_pull_request", Some("mcp__github__create_pull_request"));
    check("Create-Pull-Request", Some("mcp__github__create_pull_request"));
    // The model-facing name, and `server/tool`, pick one server's tool among near-duplicates.
    check(
        "mcp__github-legacy__create_pull_request",
        Some("mcp__github-legacy__create_pull_request"),
    );
    check("github-legacy/create_pull_request", Some("mcp__github-legacy__create_pull_request"));
    // OpenAPI: the operationId.
    check("updatePetWithForm", Some("openapi__petstore__updatePetWithForm"));
}

#[test]
fn hits_carry_scores_and_matched_terms() {
    let results = search().search("slack post message", 3);
    assert_eq!(results.len(), 3);
    let hits = results.hits();
    assert!(hits.windows(2).all(|w| w[0].score() >= w[1].score()));
    assert_eq!(hits[0].matched().collect::<Vec<_>>(), ["slack", "post", "message"]);
    assert_eq!(hits[0].tool().server, "slack");
    assert!(results.why_empty().is_none());
}

#[test]
fn limit_is_respected() {
    assert_eq!(search().search("list", 0).len(), 0);
    assert_eq!(search().search("list", 1).len(), 1);
    assert_eq!(search().search("list", 7).len(), 7);
}

#[test]
fn unknown_words_say_why_the_answer_is_empty() {
    let results = search().search("zqxv wombatish", 10);
    assert!(results.is_empty());
    let why = results.why_empty().expect("a reason");
    assert_eq!(why.reason(), Abstention::AllUnknown);
    assert_eq!(why.unknown_terms(), ["zqxv", "wombatish"]);
    assert_eq!(
        results.why_empty_text(),
        "no tool mentions any word of the query; unknown: zqxv, wombatish"
    );
    let blank = search().search("  ?! ", 10);
    assert_eq!(blank.why_empty().map(|w| w.reason()), Some(Abstention::NoTerms));
}

/// The index also searches a word joined with its particle ("sign in" → `signin`), but the
/// why-empty words quoted back to the model are only words the query wrote.
#[test]
fn joined_particles_are_not_quoted_back() {
    let mut catalog = toolsift::Catalog::new();
    let tools = r#"[{"name": "read_file", "description": "Read a file.", "inputSchema": {}}]"#;
    catalog.add_server(toolsift::load_mcp(tools, "files").expect("valid tools").server);
    let search = ToolSearch::new(catalog).expect("default settings");
    let results = search.search("sign in to my bank", 5);
    let why = results.why_empty().expect("nothing fits");
    // The index did search for it, and found nothing.
    let outcome = search.index().search("sign in to my bank", 5);
    assert!(outcome.unknown_terms().any(|t| t.word() == "signin"));
    assert!(why.unknown_terms().iter().all(|w| w != "signin"), "{why}");
    assert!(why.unknown_terms().iter().any(|w| w == "bank"), "{why}");
}
