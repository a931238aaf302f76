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
    prop::collection::vec((0..WORDS.len(), 0..WORDS.len(), 0..WORDS.len()), 0..5).prop_map(
        move |specs| {
            specs
                .into_iter()
                .enumerate()
                .map(|(i, (a, b, c))| {
                    let name = format!("{}_{}_{i}", WORDS[a], WORDS[b]);
                    Tool::new(ToolId::new(server, name), ToolKind::Mcp)
                        .with_description(format!("{} the {}.", WORDS[b], WORDS[c]))
                })
                .collect()
        },
    )
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
}

fn arb_op() -> impl Strategy<Value = Op> {
    (0..SERVERS.len()).prop_flat_map(|s| {
        prop_oneof![
            arb_tools(SERVERS[s]).prop_map(move |t| Op::Add(s, t)),
            arb_tools(SERVERS[s]).prop_map(move |t| Op::Replace(s, t)),
            Just(Op::Remove(s)),
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
            prop_assert!(results.why_empty().is_some());
        }
    }
}
