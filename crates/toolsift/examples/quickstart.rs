//! Quick start: load real catalogs, search them as an agent would, and see why a tool ranked.
//!
//! Run it with `cargo run -p toolsift --example quickstart`, or pass your own query:
//! `cargo run -p toolsift --example quickstart -- "restart a crashed pod"`.

// An example prints its results.
#![allow(clippy::print_stdout)]

use std::path::Path;

use toolsift::{Catalog, SearchEngine, ToolKind, ToolSearch, load_file};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The tuning catalogs ship with the repository; any MCP `tools/list` capture, OpenAPI
    // document or plugin tool array works the same way.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../xtask/tuning/catalogs");
    let sources = [
        ("mcp/github.json", ToolKind::Mcp, "github"),
        ("mcp/slack.json", ToolKind::Mcp, "slack"),
        ("mcp/kubernetes-flux159.json", ToolKind::Mcp, "kubernetes"),
        ("openapi/petstore.yaml", ToolKind::OpenApi, "petstore"),
    ];

    // Each loader returns the tools it could read plus a diagnostic for each one it could not;
    // one broken tool never loses its neighbours.
    let mut catalog = Catalog::new();
    for (file, kind, server) in sources {
        let loaded = load_file(dir.join(file), kind, server)?;
        for d in &loaded.diagnostics {
            println!("note: {d}");
        }
        catalog.add_server(loaded.server);
    }

    // Building the index maps every tool's name, summary and details to weighted fields.
    let search = ToolSearch::new(catalog)?;
    println!("indexed {} tools", search.len());

    let queries: Vec<String> = match std::env::args().nth(1) {
        Some(q) => vec![q],
        None => ["open a pull request", "post a message to a channel", "book a flight"]
            .map(String::from)
            .to_vec(),
    };
    for query in &queries {
        println!("\n> {query}");
        let results = search.search(query, 5);
        if results.is_empty() {
            // An empty answer says why, so the agent can stop rephrasing.
            println!("  nothing: {}", results.refusal_text());
            continue;
        }
        for hit in results.hits() {
            println!(
                "  {:7.3}  {}  (matched: {})",
                hit.score(),
                hit.name(),
                hit.matched().collect::<Vec<_>>().join(", ")
            );
        }
        // The top hit's score, broken down per query term and field.
        let best = &results.hits()[0];
        if let Some(text) = search.explain_text(query, best.tool()) {
            println!("  why {}:", best.name());
            for line in text.lines() {
                println!("    {line}");
            }
        }
    }
    Ok(())
}
