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
