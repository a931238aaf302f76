//! Per-server updates keep catalog and index in step: every result equals a fresh build's.

use toolsift::{Catalog, Index, NameScheme, Server, Tool, ToolId, ToolKind, ToolSearch, load_mcp};

use crate::{MIXED, all_catalog, real_catalog};

const QUERIES: [&str; 10] = [
    "create a pull request",
    "list",
    "get",
    "post a message to a channel",
    "delete a pod",
    "update an issue",
    "create_pull_request",
    "find pets by status",
    "linear issue comment",
    "zqxv",
];

/// Every query gives the same hits (tools, names, scores, matched terms) and the same why-empty
/// answer as a fresh build of the same catalog.
#[track_caller]
fn check_fresh(search: &ToolSearch) {
    let fresh = ToolSearch::new(search.catalog().clone()).expect("valid settings");
    assert_eq!(search.len(), fresh.len());
    for q in QUERIES {
        for limit in [1, 3, 10] {
            assert_eq!(
                search.search(q, limit),
                fresh.search(q, limit),
                "query {q:?}, limit {limit}"
            );
        }
    }
}

fn tools_of(search: &ToolSearch, server: &str) -> Vec<Tool> {
    search.catalog().server(server).map(|s| s.tools.clone()).unwrap_or_default()
}

#[test]
fn replace_remove_and_add_servers_like_a_fresh_build() {
    let mut search = ToolSearch::new(real_catalog(&MIXED)).expect("valid settings");
    check_fresh(&search);

    // Replace a server in the middle: its new documents are indexed after later servers.
    let mut slack = tools_of(&search, "slack");
    slack.reverse();
    slack.truncate(5);
    search.replace_tools("slack", slack).expect("known server");
    check_fresh(&search);

    // Replace the first server with half its tools.
    let github: Vec<Tool> = tools_of(&search, "github").into_iter().step_by(2).collect();
    search.replace_tools("github", github).expect("known server");
    check_fresh(&search);

    // Remove one, add one at the end, and re-add a removed one.
    let removed = search.remove_server("kubernetes").expect("index update").expect("was there");
    check_fresh(&search);
    let tools = tools_of(&search, "github-legacy");
    search.add_server(Server::new("github-copy", ToolKind::Mcp, tools)).expect("index update");
    check_fresh(&search);
    search.add_server(removed).expect("index update");
    check_fresh(&search);
    assert!(search.remove_server("no-such-server").expect("nothing to do").is_none());
    assert!(search.replace_tools("no-such-server", Vec::new()).is_err());
}

fn tool(server: &str, name: &str, description: &str) -> Tool {
    Tool::new(ToolId::new(server, name), ToolKind::Mcp).with_description(description)
}

#[test]
fn renamed_tools_keep_exact_keys_in_step() {
    // With bare names, the second server's `search` collides with the first's and gets a
    // suffixed name; once the first is removed, it takes the plain name.
    let mut catalog = Catalog::builder().scheme(NameScheme::Bare).build();
    catalog.add_server(Server::new(
        "docs",
        ToolKind::Mcp,
        vec![tool("docs", "search", "Search the docs.")],
    ));
    catalog.add_server(Server::new(
        "web",
        ToolKind::Mcp,
        vec![tool("web", "search", "Search the web.")],
    ));
    let mut search = ToolSearch::new(catalog).expect("valid settings");
    let first = |s: &ToolSearch| s.search("search", 5).hits().first().map(|h| h.name().to_owned());
    assert_eq!(first(&search).as_deref(), Some("search"));
    let web_name = search.catalog().model_name(&ToolId::new("web", "search")).map(str::to_owned);
    assert_ne!(web_name.as_deref(), Some("search"));

    search.remove_server("docs").expect("index update");
    assert_eq!(search.catalog().model_name(&ToolId::new("web", "search")), Some("search"));
    let hits = search.search("search", 5);
    assert_eq!(hits.hits()[0].tool(), &ToolId::new("web", "search"));
    assert_eq!(hits.hits()[0].name(), "search");
    check_fresh(&search);
}

#[test]
fn ties_at_the_cut_follow_catalog_order_after_a_replace() {
    // Five servers with the same single tool text: every search ties all of them.
    let same =
        r#"[{"name": "ping", "description": "Ping the host.", "inputSchema": {"type": "object"}}]"#;
    let mut catalog = Catalog::new();
    for s in ["alpha", "bravo", "charlie", "delta", "echo"] {
        catalog.add_server(load_mcp(same, s).expect("valid").server);
    }
    let mut search = ToolSearch::new(catalog).expect("valid settings");
    let tools = tools_of(&search, "alpha");
    // Emptied, then given its tool again (the same tools at once would change nothing).
    search.replace_tools("alpha", Vec::new()).expect("known server");
    search.replace_tools("alpha", tools).expect("known server");
    // Server `alpha` is indexed last now, but still ranks first among equals.
    let servers: Vec<String> =
        search.search("ping host", 2).hits().iter().map(|h| h.tool().server.clone()).collect();
    assert_eq!(servers, ["alpha", "bravo"]);
    let scores: Vec<f32> = search.search("ping host", 5).hits().iter().map(|h| h.score()).collect();
    assert!(scores.iter().all(|s| s.total_cmp(&scores[0]).is_eq()), "not a tie: {scores:?}");
    check_fresh(&search);
}

#[test]
fn the_same_tools_again_change_nothing() {
    // After a `tools/list_changed` that lists the same tools, a host may replace them all: the
    // index is left as it is, search cache included.
    let mut search = ToolSearch::new(real_catalog(&MIXED)).expect("valid settings");
    for q in QUERIES {
        search.search(q, 10);
    }
    let cache = search.index().search_cache_bytes();
    assert!(cache > 0, "the queries filled the search cache");
    let docs: Vec<_> = search.index().docs().collect();
    let diagnostics = search.replace_tools("slack", tools_of(&search, "slack")).expect("known");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let server = search.catalog().server("github").cloned().expect("in the catalog");
    search.add_server(server).expect("index update");
    assert_eq!(search.index().search_cache_bytes(), cache);
    assert!(search.index().docs().eq(docs.iter().copied()));
    check_fresh(&search);
    // One tool more is a change: the server is indexed again.
    let mut slack = tools_of(&search, "slack");
    slack.push(tool("slack", "archive_channel", "Archive a channel."));
    search.replace_tools("slack", slack).expect("known server");
    assert!(search.index().docs().ne(docs.iter().copied()));
    assert_eq!(
        search.search("archive a slack channel", 1).hits()[0].name(),
        "mcp__slack__archive_channel"
    );
    check_fresh(&search);
}

#[test]
fn a_revision_indexes_only_the_tools_that_changed() {
    // Tools of the same text tie, so their order follows catalog positions, which the
    // revision moves: the kept documents must take their new positions.
    let ping = |server: &str, name: &str| tool(server, name, "Ping the host.");
    let mut catalog = Catalog::new();
    let alpha = ["a", "b", "c", "d"].map(|n| ping("alpha", n)).to_vec();
    catalog.add_server(Server::new("alpha", ToolKind::Mcp, alpha));
    catalog.add_server(Server::new("bravo", ToolKind::Mcp, vec![ping("bravo", "e")]));
    let mut search = ToolSearch::new(catalog).expect("valid settings");
    let before: Vec<_> = search.index().docs().collect();

    // A new tool first, `b` revised, `c` gone: `a` and `d` stay as they were, one place on.
    let tools = vec![
        ping("alpha", "z"),
        ping("alpha", "a"),
        tool("alpha", "b", "Ping the host twice."),
        ping("alpha", "d"),
    ];
    search.replace_tools("alpha", tools).expect("known server");
    let after: Vec<_> = search.index().docs().collect();
    let kept = after.iter().filter(|d| before.contains(d)).count();
    assert_eq!(kept, 3, "a, d and bravo's e keep their documents: {before:?} -> {after:?}");
    assert_eq!(after.len(), 5);

    let fresh = ToolSearch::new(search.catalog().clone()).expect("valid settings");
    for limit in [1, 2, 3, 5] {
        assert_eq!(search.search("ping host", limit), fresh.search("ping host", limit));
    }
    let names: Vec<String> =
        search.search("ping host", 5).hits().iter().map(|h| h.tool().name.clone()).collect();
    assert_eq!(names, ["z", "a", "d", "e", "b"]);
    check_fresh(&search);
}

#[test]
fn a_kept_tool_whose_name_moved_is_indexed_again() {
    // `a.b` and `a b` both want the model-facing name `mcp__alpha__a_b`; the first in the
    // list gets it. Swapping them keeps both tools as they are but swaps their names, which
    // are indexed text and exact keys.
    let text = |name: &str| if name == "a.b" { "Ping the host." } else { "Pong the host." };
    let tools = |first: &str, second: &str| {
        vec![tool("alpha", first, text(first)), tool("alpha", second, text(second))]
    };
    let mut catalog = Catalog::new();
    catalog.add_server(Server::new("alpha", ToolKind::Mcp, tools("a.b", "a b")));
    let mut search = ToolSearch::new(catalog).expect("valid settings");
    let exact = |s: &ToolSearch| s.search("mcp__alpha__a_b", 1).hits()[0].tool().name.clone();
    assert_eq!(exact(&search), "a.b");
    search.replace_tools("alpha", tools("a b", "a.b")).expect("known server");
    assert_eq!(search.catalog().last_kept(), [Some(1), Some(0)]);
    assert_eq!(exact(&search), "a b");
    let fresh = ToolSearch::new(search.catalog().clone()).expect("valid settings");
    for q in ["mcp__alpha__a_b", "ping", "pong", "a b"] {
        assert_eq!(search.search(q, 5), fresh.search(q, 5), "{q}");
    }
}

/// A build of the 70 catalogs on all cores (the index's batch in parts, the facade's texts and
/// known services on threads of their own) answers as a build on one thread does: the same
/// hits, scores, names and why-empty answers, and the same index, down to its heap size.
#[test]
fn a_build_on_all_cores_answers_as_one_thread_does() {
    let catalog = all_catalog();
    assert!(catalog.len() >= 3_000, "the 70 catalogs have {} tools", catalog.len());
    let build = |threads: usize| {
        ToolSearch::builder()
            .index(Index::tuned().threads(threads))
            .build(catalog.clone())
            .expect("valid settings")
    };
    let one = build(1);
    // Two threads whatever the machine, and as many as it has.
    for search in [build(2), build(0)] {
        assert_eq!(search.index().stats(), one.index().stats());
        assert_eq!(search.index().heap_bytes(), one.index().heap_bytes());
        let mut queries: Vec<String> = QUERIES.iter().map(|q| (*q).to_owned()).collect();
        queries.extend(
            [
                "create a github issue for the bug reported in intercom",
                "send a whatsapp message",
                "天気予報",
                "list the kubernetes pods in a namespace",
                "sentry assign the issue",
            ]
            .map(str::to_owned),
        );
        // Every server's first tool, by its name (an exact key) and by its description.
        for server in catalog.servers() {
            if let Some(tool) = server.tools.first() {
                queries.push(tool.id.name.clone());
                queries.push(tool.description.chars().take(80).collect());
            }
        }
        for q in &queries {
            for limit in [1, 10] {
                assert_eq!(search.search(q, limit), one.search(q, limit), "{q:?} at {limit}");
            }
        }
    }
}
