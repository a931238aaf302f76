//! Integration tests of the `toolsift` facade: one binary, one module per area.

/// `describe` and `explain`.
mod describe;
/// The `SearchEngine` boundary.
mod engine;
/// Hostile input (#10): time and memory bounds, repeated query words, forged listing lines.
mod hostile;
/// Laws: any sequence of updates equals a fresh build; no panic on any query.
mod props;
/// Known queries on real catalogs, exact keys, why-empty answers.
mod search;
/// The known-services rule.
mod services;
/// Per-server updates give the same results as a fresh build.
mod update;

use std::path::Path;

use toolsift::{Catalog, ToolKind, ToolSearch, load_file};

/// A catalog of real tuning catalogs, given as (file under xtask/tuning/catalogs, kind, server).
pub(crate) fn real_catalog(sources: &[(&str, ToolKind, &str)]) -> Catalog {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs"));
    let mut catalog = Catalog::new();
    for &(file, kind, server) in sources {
        let loaded =
            load_file(dir.join(file), kind, server).unwrap_or_else(|e| panic!("{file}: {e}"));
        catalog.add_server(loaded.server);
    }
    catalog
}

/// The 70 tuning catalogs of `xtask/tuning/all` (3,952 tools), in the dataset's order.
pub(crate) fn all_catalog() -> Catalog {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/all/dataset.json");
    let text = std::fs::read_to_string(path).expect("the dataset is in the repository");
    let meta: serde_json::Value = serde_json::from_str(&text).expect("valid dataset");
    let sources: Vec<(String, ToolKind, String)> = meta["catalogs"]
        .as_array()
        .expect("a catalogs array")
        .iter()
        .map(|c| {
            let file = c["file"].as_str().expect("file").trim_start_matches("../catalogs/");
            let kind = match c["kind"].as_str() {
                Some("mcp") => ToolKind::Mcp,
                Some("openapi") => ToolKind::OpenApi,
                _ => ToolKind::Plugin,
            };
            (file.to_owned(), kind, c["server"].as_str().expect("server").to_owned())
        })
        .collect();
    let borrowed: Vec<(&str, ToolKind, &str)> =
        sources.iter().map(|(f, k, s)| (f.as_str(), *k, s.as_str())).collect();
    real_catalog(&borrowed)
}

/// The catalogs most tests search: two near-duplicate GitHub servers, chat, Kubernetes, an
/// issue tracker with camelCase names, and an OpenAPI document.
pub(crate) const MIXED: [(&str, ToolKind, &str); 6] = [
    ("mcp/github.json", ToolKind::Mcp, "github"),
    ("mcp/github-legacy.json", ToolKind::Mcp, "github-legacy"),
    ("mcp/slack.json", ToolKind::Mcp, "slack"),
    ("mcp/kubernetes-flux159.json", ToolKind::Mcp, "kubernetes"),
    ("mcp/linear.json", ToolKind::Mcp, "linear"),
    ("openapi/petstore.yaml", ToolKind::OpenApi, "petstore"),
];

/// A search over [`MIXED`].
pub(crate) fn mixed() -> ToolSearch {
    ToolSearch::new(real_catalog(&MIXED)).expect("default settings are valid")
}

/// A small search (one real server), built once, for tests that run many queries.
pub(crate) fn mixed_small() -> &'static ToolSearch {
    static SEARCH: std::sync::OnceLock<ToolSearch> = std::sync::OnceLock::new();
    SEARCH.get_or_init(|| {
        ToolSearch::new(real_catalog(&[("mcp/slack.json", ToolKind::Mcp, "slack")]))
            .expect("default settings are valid")
    })
}
