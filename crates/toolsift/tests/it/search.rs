//! Known queries on real catalogs return the expected tool first.

use std::sync::OnceLock;

use toolsift::{Abstention, Reason, ToolSearch};

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
    assert!(results.refusal().is_none());
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
    let why = results.refusal().expect("a reason");
    assert_eq!(why.reason(), Reason::Index(Abstention::AllUnknown));
    assert_eq!(why.unknown_terms(), ["zqxv", "wombatish"]);
    assert_eq!(
        results.refusal_text(),
        "no tool mentions any word of the query; unknown: zqxv, wombatish"
    );
    let blank = search().search("  ?! ", 10);
    assert_eq!(blank.refusal().map(|w| w.reason()), Some(Reason::Index(Abstention::NoTerms)));
}

/// The index also searches a word joined with its particle ("sign in" → `signin`), but the
/// why-empty words quoted back to the model are only words the query wrote.
#[test]
fn joined_particles_are_not_quoted_back() {
    let tools = r#"[{"name": "read_file", "description": "Read a file.", "inputSchema": {}}]"#;
    let search = one_server(tools, "files");
    let results = search.search("sign in to my bank", 5);
    let why = results.refusal().expect("nothing fits");
    // The index did search for it, and found nothing.
    let outcome = search.index().search("sign in to my bank", 5);
    assert!(outcome.unknown_terms().any(|t| t.word() == "signin"));
    assert!(why.unknown_terms().iter().all(|w| w != "signin"), "{why}");
    assert!(why.unknown_terms().iter().any(|w| w == "bank"), "{why}");
}

/// A search with the default settings over one server, `tools` an MCP `tools/list` array.
fn one_server(tools: &str, server: &str) -> ToolSearch {
    let mut catalog = toolsift::Catalog::new();
    catalog.add_server(toolsift::load_mcp(tools, server).expect("valid tools").server);
    ToolSearch::new(catalog).expect("default settings are valid")
}

/// A server whose tools share their object and differ in their action.
fn drive() -> ToolSearch {
    one_server(
        r#"[
        {"name": "delete-drive-file", "description": "Delete a file from the drive.", "inputSchema": {"type": "object"}},
        {"name": "search-drive-files", "description": "Search the drive's files by name.", "inputSchema": {"type": "object"}},
        {"name": "upload-file-content", "description": "The content stream of a file.", "inputSchema": {"type": "object"}},
        {"name": "get-file-content", "description": "Download a file.", "inputSchema": {"type": "object"}}
    ]"#,
        "drive",
    )
}

fn names(search: &ToolSearch, query: &str, limit: usize) -> Vec<(String, bool)> {
    let results = search.search(query, limit);
    results
        .hits()
        .iter()
        .map(|h| (h.name().trim_start_matches("mcp__drive__").to_owned(), h.demoted()))
        .collect()
}

#[test]
fn tools_that_do_another_kind_of_action_move_down() {
    let search = drive();
    // Writing asked for: the deleting and the reading tools move below the writing one.
    let got = names(&search, "drive upload file", 4);
    assert_eq!(got[0], ("upload-file-content".to_owned(), false), "{got:?}");
    assert!(got[1..].iter().all(|(_, demoted)| *demoted), "{got:?}");
    // Reading asked for: the deleting tool is demoted, and so is the writing one.
    let got = names(&search, "show the drive files", 4);
    for (name, demoted) in &got {
        assert_eq!(*demoted, name.starts_with("delete") || name.starts_with("upload"), "{got:?}");
    }
    // Deleting asked for: the delete tool leads, undemoted.
    assert_eq!(names(&search, "remove a drive file", 1), [("delete-drive-file".to_owned(), false)]);
    // No action named: nothing moves.
    assert!(names(&search, "drive file", 4).iter().all(|(_, demoted)| !demoted));
    // A query equal to a tool's name is that tool, first and undemoted, whatever it says; the
    // rest of the page is still held to the query's action.
    assert_eq!(names(&search, "delete-drive-file", 1), [("delete-drive-file".to_owned(), false)]);
    let got = names(&search, "uploadFileContent", 4);
    assert_eq!(got[0], ("upload-file-content".to_owned(), false), "{got:?}");
    assert!(got.contains(&("delete-drive-file".to_owned(), true)), "{got:?}");
}

#[test]
fn an_action_in_the_past_tense_is_context_not_the_request() {
    let search = drive();
    // "uploaded" says which files; "show" is the request: the upload tool moves down.
    let got = names(&search, "show the drive files I uploaded", 4);
    assert!(got.contains(&("upload-file-content".to_owned(), true)), "{got:?}");
    assert!(got.contains(&("delete-drive-file".to_owned(), true)), "{got:?}");
    // Only a past tense: no action asked for, nothing moves.
    let got = names(&search, "drive files deleted last week", 4);
    assert!(got.iter().all(|(_, demoted)| !demoted), "{got:?}");
    // The same word as a request still counts.
    let got = names(&search, "upload the file to the drive", 4);
    assert_eq!(got[0], ("upload-file-content".to_owned(), false), "{got:?}");
}

#[test]
fn a_negated_action_is_not_the_request() {
    let search = drive();
    // "without deleting" says what not to do: the delete tool moves down for an upload.
    let got = names(&search, "upload the drive file without deleting the old one", 4);
    assert!(got.contains(&("delete-drive-file".to_owned(), true)), "{got:?}");
    // Asked for, the same action counts.
    let got = names(&search, "delete the drive file", 1);
    assert_eq!(got, [("delete-drive-file".to_owned(), false)]);
}

#[test]
fn an_action_word_used_as_an_adjective_is_not_the_request() {
    let search = one_server(
        r#"[
        {"name": "create_ticket", "description": "Create a new ticket.", "inputSchema": {"type": "object"}},
        {"name": "search_tickets", "description": "Search tickets by status, such as open.", "inputSchema": {"type": "object"}}
    ]"#,
        "desk",
    );
    let demoted = |query: &str| -> Vec<(String, bool)> {
        let results = search.search(query, 2);
        results.hits().iter().map(|h| (h.name().to_owned(), h.demoted())).collect()
    };
    // "still open" describes the tickets: finding reads, and the create tool moves down.
    let got = demoted("find my tickets that are still open");
    assert!(got.contains(&("mcp__desk__create_ticket".to_owned(), true)), "{got:?}");
    // "open a ticket" asks to create one: the create tool is not demoted.
    let got = demoted("open a ticket");
    assert_eq!(got[0], ("mcp__desk__create_ticket".to_owned(), false), "{got:?}");
}

#[test]
fn action_agreement_can_be_turned_off() {
    let mut catalog = toolsift::Catalog::new();
    for server in drive().catalog().servers() {
        catalog.add_server(server.clone());
    }
    let off = ToolSearch::builder().action_mismatch(1.0).build(catalog).expect("valid settings");
    assert!(off.search("drive upload file", 4).hits().iter().all(|h| !h.demoted()));
    assert!((off.action_mismatch() - 1.0).abs() < f32::EPSILON);
    // Out-of-range factors are clamped; NaN turns it off.
    let b = ToolSearch::builder();
    assert!(
        (b.clone()
            .action_mismatch(f32::NAN)
            .build(toolsift::Catalog::new())
            .expect("valid")
            .action_mismatch()
            - 1.0)
            .abs()
            < f32::EPSILON
    );
    assert!(
        b.action_mismatch(-3.0)
            .build(toolsift::Catalog::new())
            .expect("valid")
            .action_mismatch()
            .abs()
            < f32::EPSILON
    );
}

#[test]
fn a_file_name_also_searches_file() {
    let search = drive();
    // "config.yaml" names a file: the file tools answer, as for "file".
    let got = names(&search, "fetch config.yaml", 1);
    assert_eq!(got, names(&search, "fetch config yaml file", 1));
    // Off, the query is searched as written.
    let mut catalog = toolsift::Catalog::new();
    for server in drive().catalog().servers() {
        catalog.add_server(server.clone());
    }
    let literal = ToolSearch::builder().implied_words(false).build(catalog).expect("valid");
    assert!(!literal.implied_words());
    assert!(search.implied_words());
}

#[test]
fn an_implied_word_is_never_quoted_back() {
    let search = one_server(
        r#"[{"name": "send_message", "description": "Send a chat message.", "inputSchema": {"type": "object"}}]"#,
        "chat",
    );
    // No tool says `file`, so the answer is empty and lists the unknown words: the ones the
    // query wrote, not the implied `file`.
    let results = search.search("frobnicate qqq.json", 5);
    let unknown = results.refusal().expect("nothing matches").unknown_terms().to_vec();
    assert!(unknown.contains(&"frobnicate".to_owned()), "{unknown:?}");
    assert!(!unknown.contains(&"file".to_owned()), "{unknown:?}");
    // Written by the query, it is quoted like any word.
    let results = search.search("frobnicate qqq.json file", 5);
    let unknown = results.refusal().expect("nothing matches").unknown_terms().to_vec();
    assert!(unknown.contains(&"file".to_owned()), "{unknown:?}");
}

#[test]
fn a_hashtag_names_a_channel() {
    // Linear has release notes; the hashtag says the notes go to a chat channel.
    check("post the release notes to #general", Some("mcp__slack__slack_post_message"));
    // An issue number is not a channel: nothing is implied, the query's own words rank.
    let hits = search().search("close issue #231 on github", 1);
    assert_eq!(hits.hits()[0].tool().server, "github");
}

#[test]
fn a_command_line_program_runs_in_the_shell_unless_a_tool_is_named_after_it() {
    use toolsift::ToolKind;
    let shell = ("plugin/gemini-cli.json", ToolKind::Plugin, "gemini-cli");
    let github = ("mcp/github.json", ToolKind::Mcp, "github");
    let git = ("mcp/git.json", ToolKind::Mcp, "git");
    let first = |search: &ToolSearch, query: &str| {
        search.search(query, 1).hits().first().map(|h| h.name().to_owned())
    };
    // No git server: "git stage files" is a shell command, not GitHub's `push_files`.
    let without = ToolSearch::new(crate::real_catalog(&[shell, github])).expect("valid");
    assert_eq!(
        first(&without, "git stage files").as_deref(),
        Some("plugin__gemini-cli__run_shell_command")
    );
    // With one, its tool answers.
    let with = ToolSearch::new(crate::real_catalog(&[shell, github, git])).expect("valid");
    assert_eq!(first(&with, "git stage files").as_deref(), Some("mcp__git__git_add"));
    // Removing the git server brings the shell back, as in a fresh build.
    let mut updated = with.clone();
    updated.remove_server("git").expect("present");
    assert_eq!(first(&updated, "git stage files"), first(&without, "git stage files"));
}

#[test]
fn an_email_address_is_searched_as_email() {
    let search = one_server(
        r#"[
        {"name": "invite_member", "description": "Invite a person to the workspace by email.", "inputSchema": {"type": "object"}},
        {"name": "list_domains", "description": "List the workspace's domains, such as example.com.", "inputSchema": {"type": "object"}}
    ]"#,
        "team",
    );
    // The address's parts (`example`, `com`) would rank the domain list; what it says is
    // that the request takes an e-mail address.
    let hits = search.search("add bob@example.com to the workspace", 2);
    assert_eq!(hits.hits().first().map(|h| h.name()), Some("mcp__team__invite_member"));
    // `explain` sees the same text.
    let tool = hits.hits()[0].tool();
    let explained = search.explain("add bob@example.com to the workspace", tool).expect("tool");
    assert!((explained.score - hits.hits()[0].score()).abs() < 1e-4);
}

#[test]
fn tools_of_other_services_than_the_named_one_move_down() {
    let results = search().search("create a github issue for the login bug", 10);
    assert!(results.hits().iter().any(|h| h.tool().server == "linear"), "{results:?}");
    for hit in results.hits() {
        // `github-legacy` is named `github` too: both servers provide the service.
        let github = hit.tool().server.starts_with("github");
        assert_eq!(hit.service_mismatch(), !github, "{:?}", hit.tool());
    }
    assert!(results.hits()[0].tool().server.starts_with("github"));
    // No service named: nothing moves for its service.
    let results = search().search("create an issue for the login bug", 10);
    assert!(results.hits().iter().all(|h| !h.service_mismatch()));
}

/// The hits of `query` that the query promoted for spelling their tool's name, by tool name.
fn spelled(search: &ToolSearch, query: &str) -> Vec<String> {
    let results = search.search(query, 10);
    results.hits().iter().filter(|h| h.name_match()).map(|h| h.tool().name.clone()).collect()
}

#[test]
fn a_query_that_spells_a_tool_name_promotes_it() {
    let search = one_server(
        r#"[
        {"name": "confluence_create_page", "description": "Create a page.", "inputSchema": {"type": "object"}},
        {"name": "pods_list_in_namespace", "description": "List pods.", "inputSchema": {"type": "object"}},
        {"name": "pods_run", "description": "Run a pod.", "inputSchema": {"type": "object"}},
        {"name": "logs", "description": "Read the server's logs.", "inputSchema": {"type": "object"}},
        {"name": "getRecentLogs", "description": "Recent log lines.", "inputSchema": {"type": "object"}},
        {"name": "create_ticket", "description": "File a ticket.", "inputSchema": {"type": "object"}}
    ]"#,
        "kube",
    );
    // A known service (`confluence`) and a stopword (`in`) need not be written; camelCase
    // parts are words of their own.
    assert_eq!(spelled(&search, "create page"), ["confluence_create_page"]);
    assert_eq!(spelled(&search, "list the pods in the namespace"), ["pods_list_in_namespace"]);
    assert_eq!(spelled(&search, "get the recent logs"), ["getRecentLogs"]);
    // A word the intent lexicon expands a query word to counts (`open` is `create`); a word
    // in the past tense does not (`opened` describes).
    assert_eq!(spelled(&search, "open a ticket"), ["create_ticket"]);
    assert!(spelled(&search, "the ticket I opened").is_empty());
    // A misspelt word says the catalog word the index took it for.
    assert_eq!(spelled(&search, "craete a ticket"), ["create_ticket"]);
    // "pods running" describes pods: `running` spells `running`, not `run`.
    assert!(spelled(&search, "show the pods running now").is_empty());
    assert_eq!(spelled(&search, "run pods"), ["pods_run"]);
    // A one-word name spells only when the query names the server too.
    assert!(spelled(&search, "show logs").is_empty());
    assert_eq!(spelled(&search, "kube logs"), ["logs"]);
    // Off: nothing is promoted, and the page is the index's.
    let mut catalog = toolsift::Catalog::new();
    catalog.add_server(search.catalog().server("kube").expect("kube").clone());
    let off = ToolSearch::builder().name_match(1.0).build(catalog).expect("valid settings");
    assert!(spelled(&off, "create page").is_empty());
    assert!((off.name_match() - 1.0).abs() < f32::EPSILON);
    assert!((search.name_match() - toolsift::DEFAULT_NAME_MATCH).abs() < f32::EPSILON);
}
