//! Fuzzes search: arbitrary queries over a fixed real catalog (seven MCP servers, the petstore
//! OpenAPI document and a plugin set from xtask/tuning/catalogs, compiled in).
//!
//! The first input byte picks the result limit; the rest is the query.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolsift::{Catalog, ToolSearch, load_mcp, load_openapi, load_plugin};

macro_rules! catalog {
    ($kind:literal, $file:literal) => {
        include_str!(concat!("../../xtask/tuning/catalogs/", $kind, "/", $file))
    };
}

fn search() -> &'static ToolSearch {
    static SEARCH: OnceLock<ToolSearch> = OnceLock::new();
    SEARCH.get_or_init(|| {
        let mut catalog = Catalog::new();
        let mcp = [
            ("github", catalog!("mcp", "github.json")),
            ("slack", catalog!("mcp", "slack.json")),
            ("filesystem", catalog!("mcp", "filesystem.json")),
            ("fetch", catalog!("mcp", "fetch.json")),
            ("time", catalog!("mcp", "time.json")),
            ("sqlite", catalog!("mcp", "sqlite.json")),
            ("sentry", catalog!("mcp", "sentry.json")),
        ];
        for (server, text) in mcp {
            catalog.add_server(load_mcp(text, server).expect("a real catalog loads").server);
        }
        let petstore = load_openapi(catalog!("openapi", "petstore.yaml"), "petstore");
        catalog.add_server(petstore.expect("petstore loads").server);
        let plugin = load_plugin(catalog!("plugin", "langchain-community.json"), "langchain");
        catalog.add_server(plugin.expect("langchain loads").server);
        ToolSearch::new(catalog).expect("the index builds")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&limit, query)) = data.split_first() else { return };
    let limit = usize::from(limit % 32);
    let query = String::from_utf8_lossy(query);
    let search = search();
    let results = search.search(&query, limit);
    assert!(results.len() <= limit, "more hits than the limit");
    // A limit of 0 asks for nothing and gets nothing, without a reason.
    if limit > 0 {
        assert_eq!(results.is_empty(), results.refusal().is_some(), "empty without a reason");
    }
    let _ = results.refusal_text();
    // Exact-key hits (the query names a tool) come first whatever their score, as documented;
    // the order law holds for the hits after them.
    let exact =
        search.index().search(&query, limit).hits().iter().filter(|h| h.is_exact_key()).count();
    let mut previous = f32::INFINITY;
    for (i, hit) in results.hits().iter().enumerate() {
        assert!(hit.score().is_finite() && hit.score() > 0.0, "bad score {}", hit.score());
        if i >= exact {
            assert!(hit.score() <= previous, "hits out of order");
            previous = hit.score();
        }
        let tool = search.describe(hit.name()).expect("a hit's name resolves");
        assert_eq!(&tool.id, hit.tool());
    }
    if let Some(first) = results.hits().first() {
        let explanation = search.explain(&query, first.tool()).expect("a hit explains itself");
        let (a, b) = (explanation.score, first.score());
        assert!((a - b).abs() <= 1e-3 * a.abs().max(b.abs()).max(1.0), "explain {a} != {b}");
    }
});
