//! Laws, checked with proptest.
//!
//! - No adapter panics, whatever the input (raw bytes, arbitrary JSON, or arbitrary JSON inside
//!   a plausible catalog shape with `$ref`s that point anywhere).
//! - Model-facing names are valid, unique, the same on every run, and unchanged when an
//!   unrelated server is added before or after.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolsift_catalog::{
    Catalog, NameScheme, Server, Tool, ToolId, ToolKind, is_valid_model_name, load_mcp,
    load_openapi, load_plugin,
};

/// Keys that make adapters take their interesting paths.
const KEYS: &[&str] = &[
    "name",
    "description",
    "inputSchema",
    "input_schema",
    "parameters",
    "function",
    "type",
    "tools",
    "result",
    "properties",
    "required",
    "allOf",
    "oneOf",
    "anyOf",
    "$ref",
    "in",
    "schema",
    "requestBody",
    "content",
    "application/json",
    "get",
    "post",
    "operationId",
    "summary",
    "paths",
    "components",
    "schemas",
    "A",
    "items",
];

/// `$ref` targets, local (existing or not, cyclic or not) and external.
const REFS: &[&str] = &[
    "#",
    "#/components/schemas/A",
    "#/components/schemas/B",
    "#/paths",
    "#/nope",
    "#/components/schemas/A/properties/x",
    "other.json#/A",
    "#/%7B",
];

fn key() -> impl Strategy<Value = String> {
    prop_oneof![proptest::sample::select(KEYS).prop_map(str::to_owned), "[a-z{}/ ~é]{0,6}"]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-zA-Z0-9 _/{}.~-]{0,12}".prop_map(Value::String),
        proptest::sample::select(REFS).prop_map(|r| json!({ "$ref": r })),
        Just(json!("object")),
        Just(json!("path")),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Arbitrary JSON inside the shapes the adapters look for.
fn shaped() -> impl Strategy<Value = Value> {
    (arb_json(), arb_json(), arb_json(), "[a-z/{}]{0,8}").prop_map(|(a, b, c, path)| {
        json!({
            "openapi": "3.0.0",
            "swagger": "2.0",
            "tools": [a.clone(), {"name": "t", "inputSchema": b.clone()}, {"type": "function", "function": c.clone()}],
            "paths": {
                path: {"parameters": b.clone(), "get": a.clone(), "post": {"parameters": [c.clone(), {"$ref": "#/components/schemas/A"}], "requestBody": {"content": {"application/json": {"schema": b.clone()}}}}},
                "/x": a.clone(),
            },
            "components": {"schemas": {"A": {"allOf": [{"$ref": "#/components/schemas/B"}, b.clone()]}, "B": {"oneOf": [{"$ref": "#/components/schemas/A"}, c]}}},
        })
    })
}

fn load_all_kinds(bytes: &[u8]) {
    let _ = load_mcp(bytes, "s");
    let _ = load_openapi(bytes, "s");
    let _ = load_plugin(bytes, "s");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn adapters_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        load_all_kinds(&bytes);
    }

    #[test]
    fn adapters_never_panic_on_json(value in arb_json()) {
        let text = value.to_string();
        load_all_kinds(text.as_bytes());
        let wrapped = json!({"tools": value.clone(), "paths": value}).to_string();
        load_all_kinds(wrapped.as_bytes());
    }

    #[test]
    fn adapters_never_panic_on_shaped_json(value in shaped()) {
        let text = value.to_string();
        load_all_kinds(text.as_bytes());
        let array = value["tools"].to_string();
        load_all_kinds(array.as_bytes());
    }
}

/// Tool names: anything, including empty, non-ASCII, long, and names that sanitize alike.
fn tool_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c_. -]{0,4}",
        "[a-zA-Z0-9_\\-./{} é中]{1,20}",
        "x{60,70}",
        Just("tool_search".to_owned()),
        Just("tool_call".to_owned()),
    ]
}

fn servers() -> impl Strategy<Value = Vec<Server>> {
    let server = ("[a-c. ]{1,3}", prop::collection::vec(tool_name(), 0..8), 0..3usize).prop_map(
        |(name, tools, k)| {
            let kind = [ToolKind::Mcp, ToolKind::OpenApi, ToolKind::Plugin][k];
            let tools =
                tools.into_iter().map(|t| Tool::new(ToolId::new(name.clone(), t), kind)).collect();
            Server::new(name, kind, tools)
        },
    );
    prop::collection::vec(server, 0..6)
}

fn scheme() -> impl Strategy<Value = NameScheme> {
    prop_oneof![Just(NameScheme::Kind), Just(NameScheme::ClaudeCode), Just(NameScheme::Bare)]
}

fn build(scheme: NameScheme, servers: &[Server]) -> Catalog {
    let mut catalog = Catalog::builder().scheme(scheme).build();
    for s in servers {
        catalog.add_server(s.clone());
    }
    catalog
}

fn names(catalog: &Catalog) -> Vec<(ToolId, String)> {
    catalog.tools().map(|(n, t)| (t.id.clone(), n.to_owned())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn names_are_valid_unique_and_reversible(scheme in scheme(), servers in servers()) {
        let catalog = build(scheme, &servers);
        let mut seen = std::collections::HashSet::new();
        for (name, tool) in catalog.tools() {
            prop_assert!(is_valid_model_name(name), "{name:?}");
            prop_assert!(!catalog.reserved_names().iter().any(|r| r == name), "{name:?}");
            prop_assert!(seen.insert(name.to_owned()), "duplicate {name:?}");
            prop_assert_eq!(catalog.tool_by_model_name(name).map(|t| &t.id), Some(&tool.id));
            prop_assert_eq!(catalog.model_name(&tool.id), Some(name));
        }
        // Every distinct tool is kept.
        let distinct: std::collections::HashSet<(String, String)> = servers
            .iter()
            .rev()
            .map(|s| s.name.clone())
            .collect::<indexmap::IndexSet<_>>()
            .into_iter()
            .flat_map(|name| {
                let last = servers.iter().rev().find(|s| s.name == name).map(|s| s.tools.clone()).unwrap_or_default();
                last.into_iter().map(move |t| (name.clone(), t.id.name))
            })
            .collect();
        prop_assert_eq!(catalog.len(), distinct.len());
    }

    #[test]
    fn names_are_the_same_every_time(scheme in scheme(), servers in servers()) {
        prop_assert_eq!(names(&build(scheme, &servers)), names(&build(scheme, &servers)));
    }

    #[test]
    fn unrelated_servers_do_not_rename_others(scheme in scheme(), servers in servers(), extra in prop::collection::vec("[a-z]{1,8}", 1..5)) {
        // Server names of `servers` use only a-c, '.' and ' ', so "zz…" never shares their
        // sanitized server segment, and its tools start with "zz" (no hash suffix does).
        let tools = extra.iter().map(|t| Tool::new(ToolId::new("zzunrelated", format!("zz{t}")), ToolKind::Mcp)).collect();
        let unrelated = Server::new("zzunrelated", ToolKind::Mcp, tools);
        let before = names(&build(scheme, &servers));
        let mut appended = servers.clone();
        appended.push(unrelated.clone());
        let mut prepended = vec![unrelated];
        prepended.extend(servers.iter().cloned());
        for catalog in [build(scheme, &appended), build(scheme, &prepended)] {
            let after: Vec<(ToolId, String)> = names(&catalog).into_iter().filter(|(id, _)| id.server != "zzunrelated").collect();
            prop_assert_eq!(&after, &before);
        }
    }
}

/// One change to a catalog.
#[derive(Debug, Clone)]
enum Change {
    Add(Server),
    Remove(usize),
    /// Adds the i-th server again, with the tools it has.
    Again(usize),
    /// Adds the i-th server again with every tool's description revised: the same names.
    Revise(usize),
}

fn changes() -> impl Strategy<Value = Vec<Change>> {
    let change = prop_oneof![
        3 => servers().prop_filter_map("one server", |mut s| s.pop()).prop_map(Change::Add),
        1 => (0..6usize).prop_map(Change::Remove),
        1 => (0..6usize).prop_map(Change::Again),
        1 => (0..6usize).prop_map(Change::Revise),
    ];
    prop::collection::vec(change, 0..10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Differential: names after any sequence of adds, replaces and removes equal the names of a
    /// catalog built in one go from the final servers.
    #[test]
    fn incremental_changes_match_a_fresh_build(scheme in scheme(), changes in changes()) {
        let mut catalog = Catalog::builder().scheme(scheme).build();
        let mut epoch = 0;
        for change in changes {
            match change {
                Change::Add(server) => {
                    // The epoch moves exactly when the servers do: not for the same tools again.
                    let before: Vec<Server> = catalog.servers().cloned().collect();
                    catalog.add_server(server);
                    if catalog.servers().ne(before.iter()) {
                        epoch += 1;
                    }
                }
                Change::Again(i) => {
                    // A server added again as it is: nothing changes, nothing is renamed.
                    let again = catalog.servers().nth(i).cloned();
                    if let Some(server) = again {
                        let diagnostics = catalog.naming_diagnostics().to_vec();
                        catalog.add_server(server);
                        prop_assert!(catalog.last_renamed().is_empty());
                        prop_assert_eq!(catalog.naming_diagnostics(), &diagnostics[..]);
                    }
                }
                Change::Revise(i) => {
                    // New text under the same names: a change, and nothing is renamed.
                    let revised = catalog.servers().nth(i).cloned();
                    if let Some(mut server) = revised {
                        for tool in &mut server.tools {
                            tool.description.push_str(" Revised.");
                        }
                        let names_before = names(&catalog);
                        let diagnostics = catalog.naming_diagnostics().to_vec();
                        catalog.add_server(server.clone());
                        if !server.tools.is_empty() {
                            epoch += 1;
                        }
                        prop_assert!(catalog.last_renamed().is_empty());
                        prop_assert_eq!(names(&catalog), names_before);
                        prop_assert_eq!(catalog.naming_diagnostics(), &diagnostics[..]);
                        for tool in &server.tools {
                            prop_assert_eq!(catalog.tool(&tool.id).map(|t| &t.description), Some(&tool.description));
                        }
                    }
                }
                Change::Remove(i) => {
                    let name = catalog.servers().nth(i).map(|s| s.name.clone());
                    if let Some(name) = name {
                        prop_assert!(catalog.remove_server(&name).is_some());
                        epoch += 1;
                    }
                }
            }
        }
        prop_assert_eq!(catalog.epoch(), epoch);
        let fresh = build(scheme, &catalog.servers().cloned().collect::<Vec<_>>());
        prop_assert_eq!(names(&catalog), names(&fresh));
        prop_assert_eq!(catalog.naming_diagnostics(), fresh.naming_diagnostics());
    }
}

/// Names fixed across runs and platforms: the hash is FNV-1a, not a random-seeded hasher.
#[test]
fn names_are_the_same_across_runs() {
    let mut catalog = Catalog::builder().scheme(NameScheme::Bare).build();
    catalog.add_server(Server::new(
        "a",
        ToolKind::Mcp,
        vec![Tool::new(ToolId::new("a", "x.y"), ToolKind::Mcp)],
    ));
    catalog.add_server(Server::new(
        "b",
        ToolKind::Mcp,
        vec![Tool::new(ToolId::new("b", "x_y"), ToolKind::Mcp)],
    ));
    let got: Vec<(String, String)> =
        catalog.tools().map(|(n, t)| (n.to_owned(), t.id.to_string())).collect();
    assert_eq!(
        got,
        [("x_y".to_owned(), "a/x.y".to_owned()), ("x_y_5bfc9394".to_owned(), "b/x_y".to_owned())]
    );
}

/// Tool names that collide a lot under [`NameScheme::Bare`]: few distinct words, words that
/// sanitize alike, reserved names, and (added by [`collision_changes`]) names equal to the
/// hash-suffixed names other tools get.
fn crowded_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ab]{1,2}",
        Just("a.".to_owned()),
        Just("a b".to_owned()),
        Just("tool_search".to_owned()),
    ]
}

/// One change of a collision-heavy catalog: add or replace server `s<k>`, or remove the
/// `i`-th server.
#[derive(Debug, Clone)]
enum Crowded {
    Put(usize, Vec<String>),
    Remove(usize),
}

fn collision_changes() -> impl Strategy<Value = (Vec<Crowded>, Vec<String>)> {
    let change = prop_oneof![
        3 => (0..5usize, prop::collection::vec(crowded_name(), 0..6))
            .prop_map(|(k, tools)| Crowded::Put(k, tools)),
        1 => (0..5usize).prop_map(Crowded::Remove),
    ];
    // Suffixed names a fresh naming gives some of these tools, to be used as tool names too.
    let suffixed = prop::collection::vec((0..5usize, crowded_name(), any::<bool>()), 0..4);
    (prop::collection::vec(change, 1..12), suffixed).prop_map(|(changes, suffixed)| {
        let mut names = Vec::new();
        for (k, tool, reserved) in suffixed {
            let mut catalog = Catalog::builder().scheme(NameScheme::Bare).build();
            let server = format!("s{k}");
            let blocker = if reserved { "tool_search".to_owned() } else { tool.clone() };
            catalog.add_server(Server::new("z", ToolKind::Mcp, vec![bare("z", &blocker)]));
            catalog.add_server(Server::new(&server, ToolKind::Mcp, vec![bare(&server, &tool)]));
            if let Some(name) = catalog.model_name(&ToolId::new(&server, &tool)) {
                names.push(name.to_owned());
            }
        }
        (changes, names)
    })
}

fn bare(server: &str, name: &str) -> Tool {
    Tool::new(ToolId::new(server, name), ToolKind::Mcp)
}

/// Every server's names, by server name.
fn names_by_server(catalog: &Catalog) -> Vec<(String, Vec<String>)> {
    catalog
        .servers()
        .map(|s| {
            let names = s.tools.iter().filter_map(|t| catalog.model_name(&t.id)).map(str::to_owned);
            (s.name.clone(), names.collect())
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Differential, where collisions are the rule: after every add, replace and remove, the
    /// names, the naming diagnostics and the reverse lookups equal those of a fresh naming,
    /// and [`Catalog::last_renamed`] lists exactly the other servers whose names moved.
    #[test]
    fn incremental_renaming_matches_a_fresh_naming((changes, suffixed) in collision_changes()) {
        let mut catalog = Catalog::builder().scheme(NameScheme::Bare).build();
        for (step, change) in changes.into_iter().enumerate() {
            let before = names_by_server(&catalog);
            let changed = match change {
                Crowded::Put(k, mut tools) => {
                    // Sprinkle the suffixed names in.
                    if let Some(name) = suffixed.get(step % suffixed.len().max(1)) {
                        tools.push(name.clone());
                    }
                    let server = format!("s{k}");
                    let tools: Vec<Tool> = tools.iter().map(|t| bare(&server, t)).collect();
                    if catalog.server(&server).is_some() && step % 2 == 0 {
                        prop_assert!(catalog.replace_tools(&server, tools).is_ok());
                    } else {
                        catalog.add_server(Server::new(&server, ToolKind::Mcp, tools));
                    }
                    server
                }
                Crowded::Remove(i) => {
                    let Some(name) = catalog.servers().nth(i).map(|s| s.name.clone()) else {
                        continue;
                    };
                    prop_assert!(catalog.remove_server(&name).is_some());
                    name
                }
            };
            let fresh = build(NameScheme::Bare, &catalog.servers().cloned().collect::<Vec<_>>());
            prop_assert_eq!(names(&catalog), names(&fresh));
            prop_assert_eq!(catalog.naming_diagnostics(), fresh.naming_diagnostics());
            prop_assert_eq!(catalog.len(), fresh.len());
            for (name, tool) in fresh.tools() {
                prop_assert_eq!(catalog.tool_by_model_name(name).map(|t| &t.id), Some(&tool.id));
            }
            let after = names_by_server(&catalog);
            let moved: Vec<String> = after
                .iter()
                .filter(|(server, names)| {
                    *server != changed && before.iter().any(|(s, n)| s == server && n != names)
                })
                .map(|(server, _)| server.clone())
                .collect();
            prop_assert_eq!(catalog.last_renamed(), moved.as_slice());
        }
    }
}

/// Server names as they come: chosen by a user, or a file's stem (`evil__x_mcp__bank`,
/// `my.api v2`, `__`, `a_`, long, non-ASCII), so they can hold `__` and sanitize alike.
fn hostile_server_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c_]{1,6}",
        "[a-zA-Z0-9_\\-. /é中]{1,40}",
        "[a-b]{1,3}(__[a-b]{1,3}){1,3}",
        "_{1,4}",
        Just("evil__x_mcp__bank".to_owned()),
        Just("bank".to_owned()),
    ]
}

fn hostile_servers() -> impl Strategy<Value = Vec<Server>> {
    let server = (hostile_server_name(), prop::collection::vec(tool_name(), 1..5), 0..3usize)
        .prop_map(|(name, tools, k)| {
            let kind = [ToolKind::Mcp, ToolKind::OpenApi, ToolKind::Plugin][k];
            let tools =
                tools.into_iter().map(|t| Tool::new(ToolId::new(name.clone(), t), kind)).collect();
            Server::new(name, kind, tools)
        });
    prop::collection::vec(server, 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Issue #39, class 5: every model-facing name maps back to exactly one (kind, server,
    /// tool) through the catalog, and a host that splits it on `__` (kind, server segment,
    /// the rest) reads the right kind word and a server segment without `__` that belongs to
    /// exactly one server, the same one for all of that server's tools.
    #[test]
    fn names_split_on_double_underscore_route_to_one_server(
        claude in any::<bool>(),
        servers in hostile_servers(),
    ) {
        let scheme = if claude { NameScheme::ClaudeCode } else { NameScheme::Kind };
        let catalog = build(scheme, &servers);
        let mut segment_of: std::collections::HashMap<String, String> = Default::default();
        let mut server_of: std::collections::HashMap<String, String> = Default::default();
        let mut owners = std::collections::HashSet::new();
        for (name, tool) in catalog.tools() {
            prop_assert!(is_valid_model_name(name), "{name:?}");
            let found = catalog.tool_by_model_name(name).map(|t| (t.kind, &t.id));
            prop_assert_eq!(found, Some((tool.kind, &tool.id)));
            prop_assert!(owners.insert(name.to_owned()), "{name:?} given twice");
            let mut parts = name.splitn(3, "__");
            let word = parts.next().unwrap_or_default();
            let segment = parts.next().unwrap_or_default();
            let rest = parts.next().unwrap_or_default();
            let expected_word = if claude { "mcp" } else { tool.kind.as_str() };
            prop_assert_eq!(word, expected_word, "{:?}", name);
            prop_assert!(!segment.is_empty() && !rest.is_empty(), "{name:?}");
            prop_assert!(!segment.contains("__") && !segment.ends_with('_'), "{name:?}");
            let server = &tool.id.server;
            let by_server = segment_of.entry(server.clone()).or_insert_with(|| segment.to_owned());
            prop_assert_eq!(by_server.as_str(), segment, "{:?}: two segments", server);
            let by_segment = server_of.entry(segment.to_owned()).or_insert_with(|| server.clone());
            prop_assert_eq!(by_segment, server, "segment {:?} is two servers'", segment);
        }
    }
}
