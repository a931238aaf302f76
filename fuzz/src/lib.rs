//! Checks shared by the fuzz targets: what must hold of every catalog a loader accepts, and of
//! every listing rendered from it. A violated check panics, which libFuzzer reports as a crash.

use toolsift_catalog::{Catalog, Error, Loaded, Server, ToolKind, is_valid_model_name};
use toolsift_listing::{Hit, ListingBuilder, ResultForm};

/// Checks a loader's answer: the tools it kept are well formed, get valid unique model-facing
/// names in a catalog, survive a serde round trip, and render into a well-formed listing.
pub fn check_loaded(result: Result<Loaded, Error>, kind: ToolKind) {
    let Ok(loaded) = result else { return };
    let server = &loaded.server;
    assert_eq!(server.kind, kind);
    let mut names = std::collections::BTreeSet::new();
    for tool in &server.tools {
        assert!(!tool.id.name.is_empty(), "a kept tool has an empty name");
        assert_eq!(tool.id.server, server.name);
        assert!(tool.input_schema.is_object(), "input schema is not an object");
        assert!(names.insert(tool.id.name.as_str()), "duplicate name {:?}", tool.id.name);
    }
    for diagnostic in &loaded.diagnostics {
        // Display is what a host logs; it must not panic either.
        let _ = diagnostic.to_string();
    }
    let text = serde_json::to_string(server).expect("a server serializes");
    let back: Server = serde_json::from_str(&text).expect("a serialized server deserializes");
    // serde_json without its `float_roundtrip` feature may read a float back one ulp off (a
    // known FIXME, see docs/security.md), so numbers compare with a relative tolerance.
    let (a, b) = (serde_json::to_value(&back), serde_json::to_value(server));
    assert!(
        same_json(&a.expect("to value"), &b.expect("to value")),
        "serde round trip changed the server"
    );

    let mut catalog = Catalog::new();
    catalog.add_server(loaded.server);
    check_catalog(&catalog);
}

/// Checks the model-facing names of a catalog and the listing and hit renderings of its tools.
pub fn check_catalog(catalog: &Catalog) {
    let mut seen = std::collections::BTreeSet::new();
    for (name, tool) in catalog.tools() {
        assert!(is_valid_model_name(name), "invalid model-facing name {name:?}");
        assert!(seen.insert(name.to_owned()), "model-facing name {name:?} given twice");
        assert_eq!(catalog.tool_by_model_name(name).map(|t| &t.id), Some(&tool.id));
        assert_eq!(catalog.model_name(&tool.id), Some(name));
    }
    let lister = ListingBuilder::new().build();
    for budget in [0, 40, 400, 1_000_000] {
        let listing = lister.listing(catalog, budget);
        check_listing_text(listing.text());
        assert!(listing.nothing_fits() || listing.tokens() <= budget, "over budget");
        assert_eq!(lister.listing(catalog, budget).text(), listing.text(), "not deterministic");
    }
    let hits: Vec<Hit<'_>> =
        catalog.tools().take(8).map(|(name, tool)| Hit::new(tool, name).with_score(1.5)).collect();
    let text = lister.render_hits(&hits, ResultForm::Text);
    if let Some(text) = text.as_text().filter(|_| !hits.is_empty()) {
        for line in text.lines() {
            assert!(line.starts_with("- "), "forged result line {line:?}");
        }
        assert_eq!(text.lines().count(), hits.len(), "one line per hit");
    }
    for form in [
        ResultForm::Json,
        ResultForm::AnthropicToolReference,
        ResultForm::OpenAiFunction,
        ResultForm::OpenAiResponsesFunction,
    ] {
        let rendered = lister.render_hits(&hits, form);
        let array = rendered.as_json().and_then(|v| v.as_array()).map(Vec::len);
        assert_eq!(array, Some(hits.len()));
    }
}

/// Every line of a listing is a server header (`## `) or a tool line (`- `), and no field can
/// break a line.
pub fn check_listing_text(text: &str) {
    assert!(text.is_empty() || text.ends_with('\n'), "listing does not end with a newline");
    for line in text.split_terminator('\n') {
        assert!(line.starts_with("## ") || line.starts_with("- "), "forged line {line:?}");
        assert!(!line.contains('\r'), "carriage return in {line:?}");
        assert!(!line.chars().any(|c| c.is_control()), "control character in {line:?}");
    }
}

/// JSON equality, with floats equal within a relative 1e-14.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            _ if x == y => true,
            (Some(x), Some(y)) => (x - y).abs() <= 1e-14 * x.abs().max(y.abs()),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy))
        }
        _ => a == b,
    }
}
