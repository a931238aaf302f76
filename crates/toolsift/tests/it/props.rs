//! Laws of `ToolSearch`, checked on generated catalogs.
//!
//! The tools are drawn from a vocabulary of a few words, so scores tie often, and ties at the
//! cut are where an updated index and a fresh build could disagree.

use proptest::prelude::*;
use toolsift::{Server, Tool, ToolId, ToolKind, ToolSearch};

/// `jira` is a known service: a tool named with it makes the service present (the
/// known-services rule, whose per-server state the updates must keep in step too).
const WORDS: [&str; 7] = ["list", "issue", "create", "repo", "message", "pod", "jira"];

/// A server's tools: names and descriptions made of vocabulary words.
fn arb_tools(server: &'static str) -> impl Strategy<Value = Vec<Tool>> {
    arb_tools_of(server, &WORDS, 5)
}

/// Fewer than `max` tools named and described with `words`: `{word}_{word}_{i}`, "{word} the
/// {word}.".
fn arb_tools_of(
    server: &'static str,
    words: &'static [&'static str],
    max: usize,
) -> impl Strategy<Value = Vec<Tool>> {
    let n = words.len();
    prop::collection::vec((0..n, 0..n, 0..n), 0..max).prop_map(move |specs| {
        specs
            .into_iter()
            .enumerate()
            .map(|(i, (a, b, c))| {
                let name = format!("{}_{}_{i}", words[a], words[b]);
                Tool::new(ToolId::new(server, name), ToolKind::Mcp)
                    .with_description(format!("{} the {}.", words[b], words[c]))
            })
            .collect()
    })
}

/// Two of them are known services (`github`, `asana`): adding and removing them turns the
/// known-services rule on and off for queries that name them.
const SERVERS: [&str; 4] = ["github", "beta", "asana", "delta"];

#[derive(Debug, Clone)]
enum Op {
    /// Add (or replace, if present) a server with these tools.
    Add(usize, Vec<Tool>),
    /// Replace a present server's tools (ignored if absent).
    Replace(usize, Vec<Tool>),
    /// Remove a server (ignored if absent).
    Remove(usize),
    /// Revise a present server's tools (ignored if absent), so that most stay the same: each
    /// is kept, dropped or given a longer description by the edit codes (cycled), then the
    /// new tools go in at a position (modulo the length). What a `tools/list_changed`
    /// usually brings.
    Revise(usize, Vec<u8>, Vec<Tool>, usize),
}

fn arb_op() -> impl Strategy<Value = Op> {
    (0..SERVERS.len()).prop_flat_map(|s| {
        prop_oneof![
            arb_tools(SERVERS[s]).prop_map(move |t| Op::Add(s, t)),
            arb_tools(SERVERS[s]).prop_map(move |t| Op::Replace(s, t)),
            Just(Op::Remove(s)),
            (prop::collection::vec(0u8..4, 1..4), arb_tools_of(SERVERS[s], &WORDS, 3), 0..6usize)
                .prop_map(move |(edits, added, at)| Op::Revise(s, edits, added, at)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Law: any sequence of per-server updates searches exactly like a fresh build of the
    /// final catalog (hits, scores, order, why-empty), at every limit.
    #[test]
    fn updates_equal_a_fresh_build(ops in prop::collection::vec(arb_op(), 1..8)) {
        let mut search = ToolSearch::new(toolsift::Catalog::new()).expect("valid settings");
        for op in ops {
            match op {
                Op::Add(s, tools) => {
                    search.add_server(Server::new(SERVERS[s], ToolKind::Mcp, tools)).expect("update");
                }
                Op::Replace(s, tools) => {
                    if search.catalog().server(SERVERS[s]).is_some() {
                        search.replace_tools(SERVERS[s], tools).expect("update");
                    }
                }
                Op::Remove(s) => {
                    search.remove_server(SERVERS[s]).expect("update");
                }
                Op::Revise(s, edits, added, at) => {
                    let Some(server) = search.catalog().server(SERVERS[s]) else { continue };
                    let mut tools = Vec::new();
                    for (k, tool) in server.tools.iter().enumerate() {
                        match edits[k % edits.len()] {
                            0 | 1 => tools.push(tool.clone()),
                            2 => {}
                            _ => {
                                let text = format!("{} Revised.", tool.description);
                                tools.push(tool.clone().with_description(text));
                            }
                        }
                    }
                    let at = at % (tools.len() + 1);
                    tools.splice(at..at, added);
                    search.replace_tools(SERVERS[s], tools).expect("update");
                }
            }
        }
        let fresh = ToolSearch::new(search.catalog().clone()).expect("valid settings");
        for q in [
            "list",
            "create issue",
            "repo message pod",
            "list_issue_0",
            "nothing",
            "github create issue",
            "asana list repo",
            "jira message",
            "gitlab pod",
        ] {
            for limit in [1, 2, 5, 20] {
                prop_assert_eq!(search.search(q, limit), fresh.search(q, limit), "query {:?} limit {}", q, limit);
            }
        }
    }

    /// Law: no query string panics, hits never exceed the limit, and an empty answer (with a
    /// positive limit) always says why.
    #[test]
    fn any_query_is_answered(query in any::<String>(), limit in 0usize..12) {
        let search = crate::mixed_small();
        let results = search.search(&query, limit);
        prop_assert!(results.len() <= limit);
        if results.is_empty() && limit > 0 {
            prop_assert!(results.refusal().is_some());
        }
    }
}

/// Words of each kind of action, and things, for the action-agreement law.
const ACTION_WORDS: [&str; 8] =
    ["list", "show", "create", "upload", "delete", "remove", "file", "issue"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Law: action and service agreement and name spelling reorder the hits the index ranks
    /// best and change nothing else. The hits are the same tools as with all three off; a
    /// hit's score is the index's times the factor of each reason it was demoted or promoted
    /// for; hits come by score, ties in catalog order. (`github` is a known service, present
    /// as a server name; the query words include the digits that end tool names, so that a
    /// query can spell one, `file create 0` for `create_file_0`, or name it exactly, `create
    /// file 0`, which puts it first.)
    #[test]
    #[allow(clippy::float_cmp)] // equal scores are ties, which catalog order breaks
    fn action_agreement_only_reorders_the_page(
        first in arb_tools_of("github", &ACTION_WORDS, 7),
        second in arb_tools_of("beta", &ACTION_WORDS, 7),
        words in prop::collection::vec(0..ACTION_WORDS.len() + 3, 1..5),
        limit in 1usize..10,
    ) {
        let mut catalog = toolsift::Catalog::new();
        let position: std::collections::HashMap<ToolId, (usize, usize)> = first
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.clone(), (0, i)))
            .chain(second.iter().enumerate().map(|(i, t)| (t.id.clone(), (1, i))))
            .collect();
        catalog.add_server(Server::new("github", ToolKind::Mcp, first));
        catalog.add_server(Server::new("beta", ToolKind::Mcp, second));
        let on = ToolSearch::new(catalog.clone()).expect("valid settings");
        let off = ToolSearch::builder()
            .action_mismatch(1.0)
            .service_mismatch(1.0)
            .name_match(1.0)
            .build(catalog)
            .expect("valid settings");
        const DIGITS: [&str; 3] = ["0", "1", "2"];
        let query: Vec<&str> = words
            .iter()
            .map(|&w| ACTION_WORDS.get(w).copied().unwrap_or_else(|| DIGITS[w - ACTION_WORDS.len()]))
            .collect();
        let query = query.join(" ");
        let (got, plain) = (on.search(&query, limit), off.search(&query, limit));
        prop_assert_eq!(got.refusal(), plain.refusal());
        let mut tools: Vec<&ToolId> = got.hits().iter().map(|h| h.tool()).collect();
        let mut want: Vec<&ToolId> = plain.hits().iter().map(|h| h.tool()).collect();
        tools.sort();
        want.sort();
        prop_assert_eq!(tools, want, "query {:?}", query);
        prop_assert!(plain.hits().iter().all(|h| !h.demoted() && !h.name_match()));
        for hit in got.hits() {
            let index_score = plain.hits().iter().find(|h| h.tool() == hit.tool()).map(|h| h.score());
            let expected = index_score.map(|mut s| {
                if hit.action_mismatch() {
                    s *= on.action_mismatch();
                }
                if hit.service_mismatch() {
                    s *= on.service_mismatch();
                }
                if hit.name_match() {
                    s *= on.name_match();
                }
                s
            });
            prop_assert_eq!(Some(hit.score()), expected, "{:?}", hit.tool());
        }
        // A tool the query names exactly (`delete file 2` for `delete_file_2`) comes first,
        // whatever its score; the others follow by score.
        let exact = |h: &toolsift::Hit| h.tool().name == query.replace(' ', "_");
        for pair in got.hits().windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(!exact(b) || exact(a), "query {:?}: {:?} before {:?}", query, a.tool(), b.tool());
            prop_assert!(
                exact(a)
                    || a.score() > b.score()
                    || (a.score() == b.score() && position[a.tool()] < position[b.tool()]),
                "query {:?}: {:?} before {:?}", query, a.tool(), b.tool()
            );
        }
    }
}
