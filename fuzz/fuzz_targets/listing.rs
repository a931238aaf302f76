//! Fuzzes listing rendering with arbitrary names and descriptions.
//!
//! The input is split on the record separator U+001E into records, and each record on the unit
//! separator U+001F into a tool name and a description; the first record names the server.
//! The tools are added to a catalog under the `Bare` scheme (so hostile names reach the
//! listing's own escaping) and under the default scheme, and every rendering is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_catalog::{Catalog, NameScheme, Server, Tool, ToolId, ToolKind};
use toolsift_listing::{ListingBuilder, short_description};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut records = text.split('\u{1E}');
    let server = records.next().unwrap_or_default();
    let tools: Vec<Tool> = records
        .take(64)
        .map(|record| {
            let (name, description) = record.split_once('\u{1F}').unwrap_or((record, ""));
            Tool::new(ToolId::new(server, name), ToolKind::Mcp).with_description(description)
        })
        .collect();
    for tool in &tools {
        for max in [0, 1, 5, 80] {
            let short = short_description(&tool.description, max);
            assert!(short.chars().count() <= max, "{short:?} longer than {max}");
            assert!(!short.chars().any(char::is_control), "control character in {short:?}");
        }
    }
    if server == "neighbour" {
        return;
    }
    let neighbour = Server::new(
        "neighbour",
        ToolKind::Mcp,
        vec![
            Tool::new(ToolId::new("neighbour", "real_tool"), ToolKind::Mcp)
                .with_description("The neighbour's real tool."),
        ],
    );
    let lister = ListingBuilder::new().build();
    for scheme in [NameScheme::Bare, NameScheme::Kind] {
        let mut alone = Catalog::builder().scheme(scheme).build();
        alone.add_server(neighbour.clone());
        let alone = lister.listing(&alone, 1_000_000);
        let mut catalog = Catalog::builder().scheme(scheme).build();
        catalog.add_server(neighbour.clone());
        catalog.add_server(Server::new(server, ToolKind::Mcp, tools.clone()));
        toolsift_fuzz::check_catalog(&catalog);
        // Whatever the fuzzed server holds, the neighbour's block stays byte-identical.
        let both = lister.listing(&catalog, 1_000_000);
        assert!(both.text().contains(alone.text()), "neighbour block changed: {:?}", both.text());
    }
});
