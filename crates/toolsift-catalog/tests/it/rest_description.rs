//! A deterministic synthetic REST description shaped like GitHub's (OpenAPI 3.0, written
//! with two-space indentation), grown to a requested size: used by `large_rest_description_
//! loads_in_full` in `hostile.rs` and by the `hostile_files` example behind
//! `benches/hostile.sh` (too large to commit).
//!
//! The shape follows what GitHub's REST description (13 MB, 1,223 operations) is made of:
//! about a third of its bytes are operations and the rest shared components. Core schemas
//! (`simple-user`, `repository` with an `owner`, a `license` and a nested template
//! repository, `issue` with users, labels and a milestone that refer on) are referred to from
//! hundreds of responses; each area adds resource schemas that refer to the core ones, large
//! response examples and webhook payload schemas. Operations take their parameters mostly
//! through `$ref`s to shared parameters; about a quarter have an inline JSON body, some of
//! whose properties refer to shared schemas, and a few refer to a shared request schema.
//! Descriptions carry Markdown links as GitHub's do. One operation per 10 kB of document, as
//! in GitHub's.

use serde_json::{Map, Value, json};

/// Deterministic pseudo-random numbers (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        #[allow(clippy::cast_possible_truncation)] // The remainder is below `n`.
        let r = (self.next() % n as u64) as usize;
        r
    }
}

const AREAS: [&str; 24] = [
    "actions",
    "activity",
    "apps",
    "billing",
    "checks",
    "code-scanning",
    "codespaces",
    "copilot",
    "dependabot",
    "deployments",
    "gists",
    "git",
    "issues",
    "migrations",
    "orgs",
    "packages",
    "projects",
    "pulls",
    "reactions",
    "releases",
    "repos",
    "secret-scanning",
    "teams",
    "users",
];

const NOUNS: [&str; 16] = [
    "runner",
    "secret",
    "variable",
    "workflow",
    "artifact",
    "hook",
    "invitation",
    "environment",
    "ruleset",
    "alert",
    "comment",
    "review",
    "deployment",
    "status",
    "package",
    "task",
];

const WORDS: [&str; 24] = [
    "the",
    "repository",
    "organization",
    "access",
    "token",
    "scope",
    "endpoint",
    "returns",
    "authenticated",
    "user",
    "permission",
    "fine-grained",
    "list",
    "settings",
    "visibility",
    "selected",
    "pagination",
    "results",
    "owner",
    "administrators",
    "private",
    "public",
    "request",
    "response",
];

/// A sentence-ish text of about `len` bytes, with a Markdown link now and then.
fn prose(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 80);
    while out.len() < len {
        if rng.below(12) == 0 {
            let w = WORDS[rng.below(WORDS.len())];
            out.push_str(&format!("[{w} docs](https://docs.github.com/rest/{w}/{w}#about-{w}) "));
        } else {
            out.push_str(WORDS[rng.below(WORDS.len())]);
            out.push(if rng.below(9) == 0 { '.' } else { ' ' });
            if out.ends_with('.') {
                out.push(' ');
            }
        }
    }
    out.trim_end().to_owned()
}

fn reference(kind: &str, name: &str) -> Value {
    json!({"$ref": format!("#/components/{kind}/{name}")})
}

/// A scalar field as GitHub writes them: a type, often a format, an example, sometimes a
/// description or `nullable`.
fn field(rng: &mut Rng, name: &str) -> Value {
    let mut f = Map::new();
    match rng.below(6) {
        0 => {
            f.insert("type".into(), json!("integer"));
            f.insert("format".into(), json!("int64"));
            f.insert("example".into(), json!(42));
        }
        1 => {
            f.insert("type".into(), json!("boolean"));
            f.insert("example".into(), json!(true));
        }
        2 => {
            f.insert("type".into(), json!("string"));
            f.insert("format".into(), json!("date-time"));
            f.insert("example".into(), json!("2011-01-26T19:01:12Z"));
        }
        3 => {
            f.insert("type".into(), json!("string"));
            f.insert("format".into(), json!("uri"));
            f.insert(
                "example".into(),
                json!(format!("https://api.github.com/repos/octocat/Hello-World/{name}")),
            );
        }
        _ => {
            f.insert("type".into(), json!("string"));
            f.insert("example".into(), json!(format!("{name} value")));
        }
    }
    if rng.below(3) == 0 {
        let len = 40 + rng.below(120);
        f.insert("description".into(), json!(prose(rng, len)));
    }
    if rng.below(5) == 0 {
        f.insert("nullable".into(), json!(true));
    }
    Value::Object(f)
}

/// An object schema of `n` scalar fields named after `prefix`, plus `refs` (property name,
/// schema name) referring to shared schemas.
fn object(rng: &mut Rng, title: &str, n: usize, refs: &[(&str, &str)]) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for i in 0..n {
        let name = format!("{}_{i}", title.replace('-', "_"));
        if i % 4 == 0 {
            required.push(json!(name));
        }
        props.insert(name.clone(), field(rng, &name));
    }
    for (prop, schema) in refs {
        props.insert((*prop).to_owned(), reference("schemas", schema));
    }
    json!({"title": title, "description": prose(rng, 60), "type": "object",
        "properties": props, "required": required})
}

/// An example value for an object schema made by [`object`]: every field filled in.
fn example_of(schema: &Value, depth: usize) -> Value {
    let mut out = Map::new();
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (k, v) in props {
            let value = match v.get("example") {
                Some(e) => e.clone(),
                None if depth > 0 => example_of(v, depth - 1),
                None => Value::Null,
            };
            out.insert(k.clone(), value);
        }
    }
    Value::Object(out)
}

/// The core schemas every area refers to, with their nested references.
fn core_schemas(rng: &mut Rng, schemas: &mut Map<String, Value>) {
    let mut template = object(rng, "template-repository", 80, &[("owner", "simple-user")]);
    template["properties"]["permissions"] = object(rng, "permissions", 5, &[]);
    let repo_refs = [("owner", "simple-user"), ("license", "nullable-license-simple")];
    let mut repository = object(rng, "repository", 85, &repo_refs);
    repository["properties"]["template_repository"] = template;
    let issue_refs = [
        ("user", "nullable-simple-user"),
        ("assignee", "nullable-simple-user"),
        ("milestone", "milestone"),
        ("repository", "repository"),
        ("reactions", "reaction-rollup"),
    ];
    let mut issue = object(rng, "issue", 40, &issue_refs);
    issue["properties"]["labels"] = json!({"type": "array", "items": {"oneOf": [
        {"type": "string"}, reference("schemas", "label")]}});
    issue["properties"]["assignees"] =
        json!({"type": "array", "items": reference("schemas", "simple-user")});
    let full_refs = [("owner", "simple-user"), ("parent", "repository"), ("source", "repository")];
    let pull_refs =
        [("user", "simple-user"), ("head_repo", "repository"), ("milestone", "milestone")];
    let list = [
        ("simple-user", object(rng, "simple-user", 22, &[])),
        ("nullable-simple-user", object(rng, "nullable-simple-user", 22, &[])),
        ("license-simple", object(rng, "license-simple", 6, &[])),
        ("nullable-license-simple", object(rng, "nullable-license-simple", 6, &[])),
        ("label", object(rng, "label", 8, &[])),
        ("reaction-rollup", object(rng, "reaction-rollup", 10, &[])),
        ("milestone", object(rng, "milestone", 16, &[("creator", "nullable-simple-user")])),
        ("basic-error", object(rng, "basic-error", 4, &[])),
        ("validation-error", object(rng, "validation-error", 3, &[])),
        ("repository", repository),
        (
            "minimal-repository",
            object(
                rng,
                "minimal-repository",
                80,
                &[("owner", "simple-user"), ("license", "license-simple")],
            ),
        ),
        ("full-repository", object(rng, "full-repository", 90, &full_refs)),
        ("issue", issue),
        ("pull-request", object(rng, "pull-request", 60, &pull_refs)),
        ("team", object(rng, "team", 18, &[("parent", "nullable-simple-user")])),
        ("organization-simple", object(rng, "organization-simple", 12, &[])),
    ];
    for (name, schema) in list {
        schemas.insert(name.to_owned(), schema);
    }
}

/// The shared parameters and responses.
fn core_parameters(rng: &mut Rng, components: &mut Map<String, Value>) {
    let mut params = Map::new();
    for (name, location, ty) in [
        ("owner", "path", "string"),
        ("repo", "path", "string"),
        ("org", "path", "string"),
        ("username", "path", "string"),
        ("per-page", "query", "integer"),
        ("page", "query", "integer"),
        ("since", "query", "string"),
        ("direction", "query", "string"),
        ("sort", "query", "string"),
        ("state", "query", "string"),
    ] {
        let mut p = json!({"name": name.replace('-', "_"), "in": location,
            "description": prose(rng, 90), "schema": {"type": ty}});
        if location == "path" {
            p["required"] = json!(true);
        }
        params.insert(name.to_owned(), p);
    }
    components.insert("parameters".into(), Value::Object(params));
    let mut responses = Map::new();
    for (name, schema) in [
        ("not_found", "basic-error"),
        ("forbidden", "basic-error"),
        ("requires_authentication", "basic-error"),
        ("validation_failed", "validation-error"),
    ] {
        responses.insert(
            name.to_owned(),
            json!({"description": prose(rng, 30), "content": {"application/json": {
                "schema": reference("schemas", schema)}}}),
        );
    }
    components.insert("responses".into(), Value::Object(responses));
}

/// One area's resource: its schemas, examples, parameter and operations.
struct Resource {
    area: &'static str,
    noun: String,
    schema: String,
}

fn add_resource(
    rng: &mut Rng,
    index: usize,
    components: &mut Map<String, Value>,
    paths: &mut Map<String, Value>,
) {
    let area = AREAS[index % AREAS.len()];
    let noun = format!("{}-{}", NOUNS[(index / AREAS.len()) % NOUNS.len()], index / 7);
    let r = Resource { area, noun: noun.clone(), schema: format!("{area}-{noun}") };
    let core = ["simple-user", "minimal-repository", "repository", "issue", "team", "pull-request"];
    let refs = [("creator", core[0]), ("repository", core[1 + rng.below(5)])];
    let n = 15 + rng.below(45);
    let with_refs = 1 + rng.below(2);
    let schema = object(rng, &r.schema, n, &refs[..with_refs]);
    let example = example_of(&schema, 1);
    let schemas = components["schemas"].as_object_mut().expect("schemas");
    schemas.insert(r.schema.clone(), schema);
    // Webhook payloads: large schemas no operation refers to (GitHub's biggest components).
    if index.is_multiple_of(3) {
        let mut hook =
            object(rng, &format!("webhook-{}", r.schema), 30, &[("sender", "simple-user")]);
        hook["properties"]["repository"] = schemas["repository"].clone();
        schemas.insert(format!("webhook-{}", r.schema), hook);
    }
    if index.is_multiple_of(9) {
        schemas.insert(
            format!("{}-request", r.schema),
            object(
                rng,
                &format!("{}-request", r.schema),
                6,
                &[("labels", "label"), ("milestone", "milestone")],
            ),
        );
    }
    let examples = components["examples"].as_object_mut().expect("examples");
    examples.insert(r.schema.clone(), json!({"value": example}));
    examples.insert(format!("{}-items", r.schema), json!({"value": [example.clone(), example]}));
    let id = format!("{}-id", r.noun);
    components["parameters"].as_object_mut().expect("parameters").insert(
        id.clone(),
        json!({"name": id.replace('-', "_"), "in": "path", "required": true,
            "description": prose(rng, 60), "schema": {"type": "integer"}}),
    );

    let base = if index.is_multiple_of(2) {
        format!("/repos/{{owner}}/{{repo}}/{}/{}s", r.area, r.noun)
    } else {
        format!("/orgs/{{org}}/{}/{}s", r.area, r.noun)
    };
    let scope =
        if index.is_multiple_of(2) { ["owner", "repo"].as_slice() } else { ["org"].as_slice() };
    let item = format!("{base}/{{{}}}", id.replace('-', "_"));
    let mut list_item = Map::new();
    let mut one_item = Map::new();
    for (method, verb, on_item) in [
        ("get", "list", false),
        ("post", "create", false),
        ("get", "get", true),
        ("patch", "update", true),
        ("delete", "delete", true),
    ] {
        let mut params: Vec<Value> = scope.iter().map(|p| reference("parameters", p)).collect();
        if on_item {
            params.push(reference("parameters", &id));
        } else if verb == "list" {
            params.push(reference("parameters", "per-page"));
            params.push(reference("parameters", "page"));
            if rng.below(2) == 0 {
                params.push(json!({"name": "filter", "in": "query", "description": prose(rng, 80),
                    "schema": {"type": "string", "enum": ["all", "active", "archived"], "default": "all"}}));
            }
        }
        let summary = format!("{} {} {}", capitalized(verb), r.area, r.noun);
        let docs = format!("https://docs.github.com/rest/{}/{}#{verb}-{}", r.area, r.noun, r.noun);
        let description_len = 150 + rng.below(540);
        let mut op = json!({
            "summary": summary,
            "description": prose(rng, description_len),
            "tags": [r.area],
            "operationId": format!("{}/{verb}-{}", r.area, r.noun),
            "externalDocs": {"description": "API method documentation", "url": docs},
            "parameters": params,
        });
        if matches!(verb, "create" | "update") {
            op["requestBody"] = request_body(rng, index, &r);
        }
        let ok = if verb == "list" {
            json!({"type": "array", "items": reference("schemas", &r.schema)})
        } else {
            reference("schemas", &r.schema)
        };
        let example = if verb == "list" { format!("{}-items", r.schema) } else { r.schema.clone() };
        op["responses"] = if verb == "delete" {
            json!({"204": {"description": "Response"}, "404": reference("responses", "not_found")})
        } else {
            json!({
                if verb == "create" { "201" } else { "200" }: {"description": "Response",
                    "content": {"application/json": {"schema": ok,
                        "examples": {"default": reference("examples", &example)}}}},
                "403": reference("responses", "forbidden"),
                "404": reference("responses", "not_found"),
                "422": reference("responses", "validation_failed"),
            })
        };
        op["x-github"] = json!({"githubCloudOnly": false, "enabledForGitHubApps": true,
            "category": r.area, "subcategory": r.noun});
        if on_item { &mut one_item } else { &mut list_item }.insert(method.to_owned(), op);
    }
    paths.insert(base, Value::Object(list_item));
    paths.insert(item, Value::Object(one_item));
}

/// A create or update body: mostly inline objects whose properties sometimes refer to shared
/// schemas, sometimes a reference to a shared request schema.
fn request_body(rng: &mut Rng, index: usize, r: &Resource) -> Value {
    let schema = if index.is_multiple_of(9) {
        reference("schemas", &format!("{}-request", r.schema))
    } else {
        let mut props = Map::new();
        for i in 0..2 + rng.below(9) {
            let name = format!("{}_setting_{i}", r.noun.replace('-', "_"));
            props.insert(name.clone(), field(rng, &name));
        }
        match rng.below(4) {
            0 => {
                props.insert(
                    "labels".into(),
                    json!({"type": "array", "items": reference("schemas", "label")}),
                );
            }
            1 => {
                props.insert(
                    "assignees".into(),
                    json!({"type": "array", "description": prose(rng, 60),
                    "items": {"type": "string"}}),
                );
            }
            _ => {}
        }
        json!({"type": "object", "properties": props, "required": [props.keys().next()]})
    };
    json!({"required": true, "content": {"application/json": {"schema": schema,
        "examples": {"default": {"value": {"name": r.noun}}}}}})
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| c.to_ascii_uppercase().to_string() + chars.as_str())
}

/// The document around the generated paths and components.
#[derive(serde::Serialize)]
struct Document<'a> {
    openapi: &'static str,
    info: Value,
    tags: Vec<Value>,
    servers: Value,
    paths: &'a Map<String, Value>,
    components: &'a Map<String, Value>,
}

/// A GitHub-shaped REST description of at least `bytes` bytes (pretty-printed JSON).
pub(crate) fn rest_description(bytes: usize) -> String {
    let mut rng = Rng(39);
    let mut schemas = Map::new();
    core_schemas(&mut rng, &mut schemas);
    let mut components = Map::new();
    components.insert("schemas".into(), Value::Object(schemas));
    components.insert("examples".into(), Value::Object(Map::new()));
    core_parameters(&mut rng, &mut components);
    let mut paths = Map::new();
    let mut resources = 0;
    let mut batch = 50;
    loop {
        for _ in 0..batch {
            add_resource(&mut rng, resources, &mut components, &mut paths);
            resources += 1;
        }
        let doc = Document {
            openapi: "3.0.3",
            info: json!({"title": "Synthetic REST API", "version": "1.1.4",
                "description": "A REST description shaped like GitHub's, generated for tests."}),
            tags: AREAS
                .iter()
                .map(|a| json!({"name": a, "description": format!("{a} endpoints")}))
                .collect(),
            servers: json!([{"url": "https://api.example.com"}]),
            paths: &paths,
            components: &components,
        };
        let text = serde_json::to_string_pretty(&doc).expect("a value prints");
        if text.len() >= bytes {
            return text;
        }
        // Grow by what the bytes so far say the rest needs, and measure again.
        batch = ((bytes - text.len()) * resources / text.len()).max(1) + 1;
    }
}
