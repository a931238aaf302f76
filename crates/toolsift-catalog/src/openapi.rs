//! The OpenAPI adapter: Swagger 2.0, OpenAPI 3.0 and 3.1, one tool per operation.
//!
//! - Name: the operationId, else `METHOD /path` (method upper-case, path as written). A
//!   duplicate operationId keeps the tool under `METHOD /path`.
//! - Description: the summary, a blank line, then the description (either alone if the other is
//!   missing or equal); the path item's when the operation has neither.
//! - Input schema: `{"type": "object", "properties": {...}, "required": [...]}` whose
//!   properties are the path, query, header and cookie parameters (path-level and
//!   operation-level merged by name and location, operation wins, `$ref`s resolved, the
//!   parameter's description copied into its schema when the schema has none) followed by the
//!   request body's top-level properties (JSON preferred, then form-encoded, then multipart,
//!   then the first media type; through `allOf`, `oneOf` and `anyOf`), and Swagger 2.0 `body`
//!   and `formData` parameters likewise. A body that is not an object with properties becomes
//!   one property named `body`. Path parameters are always required; a body's required
//!   properties are required unless the body is explicitly optional (`required: false`).
//!   Every local `$ref` inside is inlined; cycles are cut.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::common::{Ctx, Loaded, type_word};
use crate::diagnostic::{DiagnosticKind, push_index, push_token};
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::model::{OpenApiOperation, Tool, ToolId, ToolKind};
use crate::parse::{NoteKind, Notes};
use crate::resolve::{Expander, Flat};

/// The HTTP methods of a path item (3.2's `query` included).
const METHODS: [&str; 9] =
    ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/// Path item fields that are not operations.
const PATH_FIELDS: [&str; 6] =
    ["parameters", "summary", "description", "servers", "$ref", "additionalOperations"];

/// Parameter fields that Swagger 2.0 writes on the parameter itself instead of in a schema.
const SWAGGER2_SCHEMA_FIELDS: [&str; 17] = [
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "allowEmptyValue",
];

/// Reads the operations of an OpenAPI document.
pub(crate) fn load(
    doc: &Value,
    notes: Notes,
    server: &str,
    limits: &Limits,
) -> Result<Loaded, Error> {
    let Value::Object(root) = doc else {
        return Err(Error::new(
            ErrorKind::Shape,
            format!("the document is {}, not an openapi object", type_word(doc)),
        ));
    };
    if !root.contains_key("openapi") && !root.contains_key("swagger") && !root.contains_key("paths")
    {
        return Err(Error::new(
            ErrorKind::Shape,
            "no \"openapi\", \"swagger\" or \"paths\" field: not an openapi document",
        ));
    }
    let cuts: Vec<String> = (notes.list.iter())
        .filter(|n| n.kind == NoteKind::TooDeep)
        .map(|n| n.pointer.clone())
        .collect();
    let mut ctx = Ctx::new(server, limits, notes);
    let mut found: Vec<(Tool, String)> = Vec::new();
    let paths = match root.get("paths") {
        Some(Value::Object(paths)) => paths,
        None | Some(Value::Null) => return Ok(ctx.finish(ToolKind::OpenApi, found)),
        Some(other) => {
            let message =
                format!("\"paths\" is {}, not an object; no operations read", type_word(other));
            ctx.report(DiagnosticKind::MalformedOpenApi, None, "/paths", message);
            return Ok(ctx.finish(ToolKind::OpenApi, found));
        }
    };
    let mut ex = Expander::new(doc, limits, cuts);
    let mut ids: HashSet<&str> = HashSet::new();
    for (path, item) in paths {
        let item_pointer = push_token("/paths", path);
        let item = match resolve_item(&mut ctx, &mut ex, item, &item_pointer) {
            Some(item) => item,
            None => continue,
        };
        // The reader's notes on the path-level parameters concern every operation of the item.
        let shared = ctx.notes_under(&push_token(&item_pointer, "parameters"));
        for (key, op) in item {
            let method = key.to_ascii_lowercase();
            if !METHODS.contains(&method.as_str()) {
                if !PATH_FIELDS.contains(&key.as_str()) && !key.starts_with("x-") {
                    let message = format!("{key:?} is not an http method; ignored");
                    ctx.report(
                        DiagnosticKind::UnknownMethod,
                        None,
                        &push_token(&item_pointer, key),
                        message,
                    );
                }
                continue;
            }
            let op_pointer = push_token(&item_pointer, key);
            let Value::Object(op) = op else {
                let message = format!("the operation is {}, not an object; skipped", type_word(op));
                ctx.report(DiagnosticKind::MalformedOpenApi, None, &op_pointer, message);
                continue;
            };
            let route = format!("{} {path}", method.to_ascii_uppercase());
            let operation_id = match op.get("operationId") {
                Some(Value::String(s)) if !s.is_empty() => Some(s.as_str()),
                None | Some(Value::Null) => None,
                Some(other) => {
                    let message = format!(
                        "operationId is {}, not a string; named {route:?}",
                        type_word(other)
                    );
                    ctx.report(
                        DiagnosticKind::WrongType,
                        Some(&route),
                        &push_token(&op_pointer, "operationId"),
                        message,
                    );
                    None
                }
            };
            let name = match operation_id {
                Some(id) if ids.contains(id) => {
                    let message = format!(
                        "operationId {id:?} is used by an earlier operation; named {route:?}"
                    );
                    ctx.report(
                        DiagnosticKind::DuplicateName,
                        Some(id),
                        &push_token(&op_pointer, "operationId"),
                        message,
                    );
                    route.clone()
                }
                Some(id) => id.to_owned(),
                None => route.clone(),
            };
            if let Some(id) = operation_id {
                ids.insert(id);
            }
            let mut notes = shared.clone();
            notes.extend(ctx.notes_under(&op_pointer));
            if !notes.is_empty() && !ctx.report_notes(notes, Some(&name)) {
                continue;
            }
            let tool = operation(
                &mut ctx,
                &mut ex,
                OpSite {
                    path,
                    method: &method,
                    item,
                    op,
                    pointer: &op_pointer,
                    name,
                    operation_id,
                },
            );
            if let Some(tool) = tool {
                found.push((tool, op_pointer));
            }
        }
    }
    Ok(ctx.finish(ToolKind::OpenApi, found))
}

/// A path item, through a local `$ref`.
fn resolve_item<'a>(
    ctx: &mut Ctx<'_>,
    ex: &mut Expander<'a>,
    item: &'a Value,
    pointer: &str,
) -> Option<&'a Map<String, Value>> {
    let item = if item.get("$ref").is_some() {
        ex.start_tool();
        let target = ex.deref(item).map(|(t, saved)| {
            ex.leave(saved);
            t
        });
        ex.flush(ctx, None);
        target?
    } else {
        item
    };
    match item {
        Value::Object(o) => Some(o),
        other => {
            let message = format!("the path item is {}, not an object; skipped", type_word(other));
            ctx.report(DiagnosticKind::MalformedOpenApi, None, pointer, message);
            None
        }
    }
}

struct OpSite<'a, 'p> {
    path: &'a str,
    method: &'p str,
    item: &'a Map<String, Value>,
    op: &'a Map<String, Value>,
    pointer: &'p str,
    name: String,
    operation_id: Option<&'a str>,
}

/// One parameter after `$ref` resolution.
struct Param<'a> {
    name: &'a str,
    location: &'a str,
    param: &'a Map<String, Value>,
    pointer: String,
}

/// Reads one operation; `None` when it is dropped (a `$ref` into a part nested too deep to
/// read, or a key longer than the text limit), with its diagnostic reported.
fn operation<'a>(ctx: &mut Ctx<'_>, ex: &mut Expander<'a>, site: OpSite<'a, '_>) -> Option<Tool> {
    let OpSite { path, method, item, op, pointer, name, operation_id } = site;
    ex.start_tool();
    let str_field = |o: &'a Map<String, Value>, k: &str| {
        o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
    };
    let summary = str_field(op, "summary");
    let long = str_field(op, "description");
    let (summary_text, long_text) = if summary.is_none() && long.is_none() {
        (str_field(item, "summary"), str_field(item, "description"))
    } else {
        (summary, long)
    };
    let description = match (summary_text, long_text) {
        (Some(s), Some(d)) if s.trim() == d.trim() => d.to_owned(),
        (Some(s), Some(d)) => format!("{s}\n\n{d}"),
        (Some(s), None) => s.to_owned(),
        (None, Some(d)) => d.to_owned(),
        (None, None) => String::new(),
    };
    let description = ctx.description(&description, &name, pointer);

    // Parameters: path-level first, operation-level replacing by (name, in) or appended.
    let item_pointer = pointer.rsplit_once('/').map_or("", |(head, _)| head);
    let mut params: Vec<Param<'a>> = Vec::new();
    // Where each (name, in) sits in `params`, so that a long parameter list costs linear time.
    let mut slots: HashMap<(&'a str, &'a str), usize> = HashMap::new();
    for (list, base) in [
        (item.get("parameters"), item_pointer.to_owned()),
        (op.get("parameters"), pointer.to_owned()),
    ] {
        let Some(list) = list else { continue };
        let at = push_token(&base, "parameters");
        let Value::Array(list) = list else {
            let message = format!("parameters is {}, not an array; ignored", type_word(list));
            ctx.report(DiagnosticKind::MalformedOpenApi, Some(&name), &at, message);
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let entry_pointer = push_index(&at, i);
            let Some(param) = read_param(ctx, ex, entry, &entry_pointer, &name) else { continue };
            match slots.entry((param.name, param.location)) {
                Entry::Occupied(slot) => params[*slot.get()] = param,
                Entry::Vacant(slot) => {
                    slot.insert(params.len());
                    params.push(param);
                }
            }
        }
    }

    let mut properties = Map::new();
    let mut required: Vec<String> = Vec::new();
    let mut body: Option<(&'a Value, String, bool)> = None;
    for p in &params {
        match p.location {
            "body" => {
                if body.is_none() {
                    let schema_pointer = push_token(&p.pointer, "schema");
                    match p.param.get("schema") {
                        Some(schema) => {
                            body = Some((
                                schema,
                                schema_pointer,
                                p.param.get("required") != Some(&Value::Bool(false)),
                            ));
                        }
                        None => {
                            ctx.report(
                                DiagnosticKind::MalformedOpenApi,
                                Some(&name),
                                &p.pointer,
                                "body parameter without a schema; ignored",
                            );
                        }
                    }
                }
            }
            _ => {
                if p.name.len() > ctx.limits.max_text_bytes {
                    ex.drop_for_key(&p.pointer, p.name.len());
                    continue;
                }
                let schema = param_schema(ex, p);
                if properties.contains_key(p.name) {
                    let message = format!(
                        "parameter {:?} (in {}) has the name of an earlier parameter; ignored",
                        p.name, p.location
                    );
                    ctx.report(DiagnosticKind::ParameterConflict, Some(&name), &p.pointer, message);
                    continue;
                }
                properties.insert(p.name.to_owned(), schema);
                let is_required =
                    p.location == "path" || p.param.get("required") == Some(&Value::Bool(true));
                if is_required {
                    required.push(p.name.to_owned());
                }
            }
        }
    }

    // OpenAPI 3 request body.
    if body.is_none()
        && let Some(request) = op.get("requestBody")
    {
        body = request_body(ctx, ex, request, &push_token(pointer, "requestBody"), &name);
    }
    if let Some((schema, schema_pointer, body_required)) = body {
        let query: HashSet<&str> =
            params.iter().filter(|p| p.location == "query").map(|p| p.name).collect();
        add_body(
            ctx,
            ex,
            Body { schema, pointer: &schema_pointer, required: body_required, query: &query },
            &name,
            &mut properties,
            &mut required,
        );
    }

    let mut input = Map::new();
    input.insert("type".to_owned(), Value::String("object".to_owned()));
    input.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        input.insert(
            "required".to_owned(),
            Value::Array(required.into_iter().map(Value::String).collect()),
        );
    }
    if let Some((kind, at, message)) = ex.take_dropped() {
        // The tool is gone: what else was found in it does not matter.
        ex.discard();
        ctx.report(kind, Some(&name), &at, message);
        return None;
    }
    ex.flush(ctx, Some(&name));

    let mut facts = OpenApiOperation::new(method, path);
    facts.tags = match op.get("tags") {
        Some(Value::Array(tags)) => (tags.iter().enumerate())
            .filter_map(|(i, t)| Some((i, t.as_str()?)))
            .map(|(i, t)| {
                let at = push_index(&push_token(pointer, "tags"), i);
                ctx.text(t.to_owned(), &name, &at)
            })
            .collect(),
        _ => Vec::new(),
    };
    facts.summary = summary.map(|s| {
        let s = crate::html::to_text(s).unwrap_or_else(|| s.to_owned());
        ctx.text(s, &name, &push_token(pointer, "summary"))
    });
    facts.deprecated = op.get("deprecated") == Some(&Value::Bool(true));
    facts.operation_id = operation_id.map(str::to_owned);

    let mut tool = Tool::new(ToolId::new(ctx.server.clone(), name), ToolKind::OpenApi);
    tool.description = description;
    tool.input_schema = Value::Object(input);
    tool.openapi = Some(facts);
    Some(tool)
}

fn read_param<'a>(
    ctx: &mut Ctx<'_>,
    ex: &mut Expander<'a>,
    entry: &'a Value,
    pointer: &str,
    tool: &str,
) -> Option<Param<'a>> {
    let (target, saved, target_pointer) = if let Some(r) = entry.get("$ref").and_then(Value::as_str)
    {
        ex.at_owned(pointer);
        let (t, saved) = ex.deref(entry)?;
        let _ = r;
        (t, Some(saved), ex.pointer())
    } else {
        (entry, None, pointer.to_owned())
    };
    if let Some(saved) = saved {
        ex.leave(saved);
    }
    let Value::Object(param) = target else {
        let message = format!("the parameter is {}, not an object; ignored", type_word(target));
        ctx.report(DiagnosticKind::MalformedOpenApi, Some(tool), &target_pointer, message);
        return None;
    };
    let name = param.get("name").and_then(Value::as_str);
    let location = param.get("in").and_then(Value::as_str);
    match (name, location) {
        (Some(name), Some(location)) if !name.is_empty() => {
            Some(Param { name, location, param, pointer: target_pointer })
        }
        _ => {
            ctx.report(
                DiagnosticKind::MalformedOpenApi,
                Some(tool),
                &target_pointer,
                "the parameter has no name or no \"in\"; ignored",
            );
            None
        }
    }
}

/// The schema of a non-body parameter, with the parameter's description copied in.
fn param_schema<'a>(ex: &mut Expander<'a>, p: &Param<'a>) -> Value {
    let mut schema = if let Some(schema) = p.param.get("schema") {
        ex.at_owned(&p.pointer);
        ex.push_key("schema");
        ex.expand(schema, 1)
    } else if let Some(schema) = p.param.get("content").and_then(first_media_schema) {
        ex.at_owned(&p.pointer);
        ex.expand(schema, 1)
    } else {
        // Swagger 2.0: the schema fields sit on the parameter.
        ex.at_owned(&p.pointer);
        let mut out = Map::new();
        for key in SWAGGER2_SCHEMA_FIELDS {
            if let Some(v) = p.param.get(key) {
                ex.push_key(key);
                out.insert(key.to_owned(), ex.expand(v, 2));
                ex.pop();
            }
        }
        if out.get("type").and_then(Value::as_str) == Some("file") {
            out.insert("type".to_owned(), Value::String("string".to_owned()));
            out.insert("format".to_owned(), Value::String("binary".to_owned()));
        }
        Value::Object(out)
    };
    if let Value::Object(o) = &mut schema {
        if !o.contains_key("description")
            && let Some(d) =
                p.param.get("description").filter(|d| d.as_str().is_some_and(|s| !s.is_empty()))
        {
            ex.at_owned(&p.pointer);
            ex.push_key("description");
            let mut d = ex.expand(d, 1);
            crate::resolve::html_to_text(&mut d);
            ex.pop();
            o.insert("description".to_owned(), d);
        }
        if p.param.get("deprecated") == Some(&Value::Bool(true)) && !o.contains_key("deprecated") {
            o.insert("deprecated".to_owned(), Value::Bool(true));
        }
    }
    schema
}

fn first_media_schema(content: &Value) -> Option<&Value> {
    content.as_object()?.values().find_map(|m| m.get("schema"))
}

/// An OpenAPI 3 request body: its chosen media type's schema, pointer and whether its required
/// properties count.
fn request_body<'a>(
    ctx: &mut Ctx<'_>,
    ex: &mut Expander<'a>,
    request: &'a Value,
    pointer: &str,
    tool: &str,
) -> Option<(&'a Value, String, bool)> {
    ex.at_owned(pointer);
    let (target, saved) = ex.deref(request)?;
    let target_pointer = ex.pointer();
    ex.leave(saved);
    let Value::Object(body) = target else {
        let message = format!("requestBody is {}, not an object; ignored", type_word(target));
        ctx.report(DiagnosticKind::MalformedOpenApi, Some(tool), &target_pointer, message);
        return None;
    };
    let body_required = body.get("required") != Some(&Value::Bool(false));
    let Some(Value::Object(content)) = body.get("content") else {
        return None;
    };
    let rank = |media: &str| {
        let media = media.to_ascii_lowercase();
        if media == "application/json" {
            0
        } else if media.contains("json") {
            1
        } else if media == "application/x-www-form-urlencoded" {
            2
        } else if media == "multipart/form-data" {
            3
        } else {
            4
        }
    };
    let (media, schema) = content
        .iter()
        .filter_map(|(media, m)| m.get("schema").map(|s| (media, s)))
        .min_by_key(|(media, _)| rank(media))?;
    let schema_pointer =
        push_token(&push_token(&push_token(&target_pointer, "content"), media), "schema");
    Some((schema, schema_pointer, body_required))
}

/// A request body to add to an operation's schema.
struct Body<'a, 'p> {
    schema: &'a Value,
    pointer: &'p str,
    required: bool,
    /// The names of the operation's query parameters.
    query: &'p HashSet<&'a str>,
}

fn add_body<'a>(
    ctx: &mut Ctx<'_>,
    ex: &mut Expander<'a>,
    body: Body<'a, '_>,
    tool: &str,
    properties: &mut Map<String, Value>,
    required: &mut Vec<String>,
) {
    let Body { schema, pointer, required: body_required, query } = body;
    ex.at_owned(pointer);
    let mut flat = Flat::default();
    ex.flatten(schema, 1, &mut flat);
    let whole_body = flat.properties.is_empty() && (!flat.objectish || flat.open);
    if whole_body {
        if flat.objectish && !flat.open {
            return;
        }
        ex.at_owned(pointer);
        let value = ex.expand(schema, 1);
        flat.properties.insert("body".to_owned(), value);
        flat.required.clear();
        if body_required {
            flat.required.insert("body".to_owned());
        }
    }
    for (key, value) in flat.properties {
        if let Some(param) = properties.get(&key) {
            // The same setting offered as a query parameter and as a body field of the same
            // type (Kubernetes' DELETE with `DeleteOptions`) is a normal pattern, not a loss.
            let same_type = param.get("type").is_some() && param.get("type") == value.get("type");
            if query.contains(key.as_str()) && same_type {
                let message = format!(
                    "body property {key:?} repeats the query parameter of that name and type; \
                     the parameter is kept"
                );
                ctx.report(DiagnosticKind::BodyRepeatsParameter, Some(tool), pointer, message);
            } else {
                let message = format!(
                    "body property {key:?} has the name of a parameter; the parameter is kept"
                );
                ctx.report(DiagnosticKind::ParameterConflict, Some(tool), pointer, message);
            }
            continue;
        }
        if body_required && flat.required.contains(&key) {
            required.push(key.clone());
        }
        properties.insert(key, value);
    }
}
