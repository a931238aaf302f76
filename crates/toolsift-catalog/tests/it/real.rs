//! Loads every real catalog once per test binary and checks the counts of SOURCES.md, the
//! diagnostics, the OpenAPI mapping and the model-facing names.

use std::sync::OnceLock;

use toolsift_catalog::{Catalog, Diagnostic, Loaded, ToolKind, load_file};

const CATALOGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs");

/// One loaded file.
pub(crate) struct Real {
    pub(crate) file: String,
    pub(crate) loaded: Loaded,
}

fn kind_of(dir: &str) -> ToolKind {
    match dir {
        "mcp" => ToolKind::Mcp,
        "openapi" => ToolKind::OpenApi,
        _ => ToolKind::Plugin,
    }
}

/// Every catalog file, sorted by path. (`examples/load_time.rs` measures the load time.)
fn load_all() -> Vec<Real> {
    let mut files = Vec::new();
    for dir in ["mcp", "openapi", "plugin"] {
        let mut names: Vec<_> = std::fs::read_dir(format!("{CATALOGS}/{dir}"))
            .expect("catalog directory")
            .map(|e| e.expect("dir entry").file_name().into_string().expect("utf-8 name"))
            .collect();
        names.sort();
        for name in names {
            files.push((dir, name));
        }
    }
    let mut out = Vec::new();
    for (dir, name) in files {
        let server = name.rsplit_once('.').map_or(name.as_str(), |(stem, _)| stem).to_owned();
        let path = format!("{CATALOGS}/{dir}/{name}");
        let loaded = load_file(&path, kind_of(dir), &server).unwrap_or_else(|e| panic!("{e}"));
        out.push(Real { file: format!("{dir}/{name}"), loaded });
    }
    out
}

/// The real catalogs, loaded once per test binary.
pub(crate) fn real() -> &'static [Real] {
    static REAL: OnceLock<Vec<Real>> = OnceLock::new();
    REAL.get_or_init(load_all)
}

/// `(file, kind, tools)` rows of the summary table in SOURCES.md.
fn sources() -> Vec<(String, String, usize)> {
    let text = std::fs::read_to_string(format!("{CATALOGS}/SOURCES.md")).expect("SOURCES.md");
    let table = text
        .split("## Summary")
        .nth(1)
        .and_then(|t| t.split("\n## ").next())
        .expect("summary table");
    table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(".json") || l.contains(".yaml"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                cells[1].to_owned(),
                cells[2].to_owned(),
                cells[3].replace(',', "").parse().expect("count"),
            )
        })
        .collect()
}

#[test]
fn every_catalog_loads_with_the_counts_of_sources_md() {
    let all = real();
    let expected = sources();
    assert_eq!(expected.len(), 70);
    let got: Vec<(String, String, usize)> = all
        .iter()
        .map(|r| {
            let kind = r.file.split('/').next().unwrap_or("").to_owned();
            (r.file.clone(), kind, r.loaded.server.tools.len())
        })
        .collect();
    assert_eq!(got, expected);
    let total = |kind: &str| got.iter().filter(|g| g.1 == kind).map(|g| g.2).sum::<usize>();
    assert_eq!((total("mcp"), total("openapi"), total("plugin")), (2146, 1759, 47));
}

#[test]
fn expected_diagnostics_only() {
    let all = real();
    let got: Vec<String> =
        all.iter().flat_map(|r| &r.loaded.diagnostics).map(ToString::to_string).collect();
    let expected = [
        r#"okta-management: tool "updateAgentPoolsUpdateSettings" at /paths/~1api~1v1~1agentPools~1{poolId}~1updates~1settings/post/requestBody/content/application~1json/schema: body property "poolId" has the name of a parameter; the parameter is kept (parameter-conflict)"#,
        r#"okta-management: tool "replaceExistingIdentitySourceUser" at /paths/~1api~1v1~1identity-sources~1{identitySourceId}~1users~1{externalId}/put/requestBody/content/application~1json/schema: body property "externalId" has the name of a parameter; the parameter is kept (parameter-conflict)"#,
        r#"okta-management: tool "replaceIdentityProviderKey" at /paths/~1api~1v1~1idps~1credentials~1keys~1{kid}/put/requestBody/content/application~1json/schema: body property "kid" has the name of a parameter; the parameter is kept (parameter-conflict)"#,
        r#"okta-management: tool "updateOktaSupportCase" at /paths/~1api~1v1~1org~1privacy~1oktaSupport~1cases~1{caseNumber}/patch/requestBody/content/application~1json/schema: body property "caseNumber" has the name of a parameter; the parameter is kept (parameter-conflict)"#,
        r#"petstore: tool "updateUser" at /paths/~1user~1{username}/put/requestBody/content/application~1json/schema: body property "username" has the name of a parameter; the parameter is kept (parameter-conflict)"#,
        r#"twilio-api-v2010: tool "UpdateIncomingPhoneNumber" at /paths/~12010-04-01~1Accounts~1{AccountSid}~1IncomingPhoneNumbers~1{Sid}.json/post/requestBody/content/application~1x-www-form-urlencoded/schema: body property "AccountSid" has the name of a parameter; the parameter is kept (parameter-conflict)"#,
    ];
    assert_eq!(got, expected);
}

#[test]
fn operations_without_operation_id_are_named_by_route() {
    let all = real();
    let okta = all.iter().find(|r| r.file == "openapi/okta-legacy-v1.yaml").expect("okta legacy");
    let routes: Vec<&str> = okta
        .loaded
        .server
        .tools
        .iter()
        .filter(|t| t.openapi.as_ref().is_some_and(|o| o.operation_id.is_none()))
        .map(|t| t.id.name.as_str())
        .collect();
    assert_eq!(routes.len(), 3, "{routes:?}");
    for route in routes {
        let (method, path) = route.split_once(' ').expect("METHOD /path");
        assert!(method.chars().all(|c| c.is_ascii_uppercase()) && path.starts_with('/'), "{route}");
    }
}

/// Whether a value holds a reference (`{"$ref": "<string>"}`); a property named `$ref` is not one.
fn has_ref(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(o) => {
            o.get("$ref").is_some_and(serde_json::Value::is_string) || o.values().any(has_ref)
        }
        serde_json::Value::Array(a) => a.iter().any(has_ref),
        _ => false,
    }
}

#[test]
fn every_input_schema_is_an_object_schema() {
    let all = real();
    for r in all {
        for tool in &r.loaded.server.tools {
            assert!(tool.input_schema.is_object(), "{}", tool.id);
            if tool.kind == ToolKind::OpenApi {
                assert_eq!(tool.input_schema["type"], "object", "{}", tool.id);
                assert!(!has_ref(&tool.input_schema), "{} keeps a $ref", tool.id);
            }
        }
    }
}

#[test]
fn the_whole_catalog_gets_valid_unique_names_without_diagnostics() {
    let all = real();
    let mut catalog = Catalog::new();
    for r in all {
        let diagnostics: Vec<Diagnostic> = catalog.add_server(r.loaded.server.clone());
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }
    assert_eq!(catalog.len(), 3952);
    let mut seen = std::collections::HashSet::new();
    for (name, tool) in catalog.tools() {
        assert!(toolsift_catalog::is_valid_model_name(name), "{name}");
        assert!(seen.insert(name), "{name}");
        assert_eq!(catalog.tool_by_model_name(name).map(|t| &t.id), Some(&tool.id));
    }
    // Spot checks of the default scheme.
    let name = |server: &str, tool: &str| {
        catalog.model_name(&toolsift_catalog::ToolId::new(server, tool)).map(str::to_owned)
    };
    assert_eq!(name("github", "create_issue").as_deref(), Some("mcp__github__create_issue"));
    assert_eq!(
        name("slack-web", "chat_postMessage").as_deref(),
        Some("openapi__slack-web__chat_postMessage")
    );
    assert_eq!(name("openhands", "terminal").as_deref(), Some("plugin__openhands__terminal"));
}
