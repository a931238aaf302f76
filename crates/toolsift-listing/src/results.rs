//! Search results rendered for the model: compact text, JSON definitions, provider shapes.

use std::fmt;
use std::fmt::Write as _;

use serde_json::{Map, Value, json};
use toolsift_catalog::Tool;

use crate::config::Config;
use crate::sanitize;
use crate::sentence::push_short_description;

/// One search hit: a catalog tool, its model-facing name and, optionally, its score.
///
/// The listing crate does not rank; the caller (the `toolsift` facade) turns its ranker's hits
/// into these.
///
/// ```
/// use toolsift_catalog::{Tool, ToolId, ToolKind};
/// use toolsift_listing::Hit;
///
/// let tool = Tool::new(ToolId::new("github", "create_issue"), ToolKind::Mcp);
/// let hit = Hit::new(&tool, "mcp__github__create_issue").with_score(7.5);
/// assert_eq!(hit.score, Some(7.5));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Hit<'a> {
    /// The tool.
    pub tool: &'a Tool,
    /// Its model-facing name (from the catalog's name scheme).
    pub model_name: &'a str,
    /// Its score, if the caller has one.
    pub score: Option<f32>,
}

impl<'a> Hit<'a> {
    /// A hit without a score.
    pub fn new(tool: &'a Tool, model_name: &'a str) -> Self {
        Hit { tool, model_name, score: None }
    }

    /// The same hit with a score.
    #[must_use]
    pub fn with_score(self, score: f32) -> Self {
        Hit { score: Some(score), ..self }
    }
}

/// How [`Lister::render_hits`](crate::Lister::render_hits) renders hits.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultForm {
    /// Compact text, one line per hit:
    /// `- mcp__github__create_issue(owner: string, repo: string, title: string, +6 optional):
    /// Create a new issue in a GitHub repository`. Only required parameters are spelled out.
    Text,
    /// A JSON array of `{"name", "description", "input_schema"}` objects (the Anthropic tool
    /// definition shape), for hosts whose search tool returns definitions.
    Json,
    /// A JSON array of Anthropic `{"type": "tool_reference", "tool_name"}` blocks, to return
    /// from a client-side tool search so the API loads the deferred tools.
    AnthropicToolReference,
    /// A JSON array of OpenAI Chat Completions function tools:
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    OpenAiFunction,
    /// A JSON array of OpenAI Responses API function tools:
    /// `{"type": "function", "name", "description", "parameters"}`.
    OpenAiResponsesFunction,
}

/// Rendered search results: text or a JSON value.
///
/// `Display` writes the text, or the JSON in compact form.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum Rendered {
    /// Text for the model ([`ResultForm::Text`]).
    Text(String),
    /// A JSON array (every other form).
    Json(Value),
}

impl Rendered {
    /// The text, if this is text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Rendered::Text(text) => Some(text),
            Rendered::Json(_) => None,
        }
    }

    /// The JSON value, if this is JSON.
    pub fn as_json(&self) -> Option<&Value> {
        match self {
            Rendered::Text(_) => None,
            Rendered::Json(value) => Some(value),
        }
    }
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rendered::Text(text) => f.write_str(text),
            Rendered::Json(value) => write!(f, "{value}"),
        }
    }
}

pub(crate) fn render(config: &Config, hits: &[Hit<'_>], form: ResultForm) -> Rendered {
    match form {
        ResultForm::Text => Rendered::Text(text(config, hits)),
        ResultForm::Json => Rendered::Json(Value::Array(
            hits.iter()
                .map(|hit| {
                    let mut object = Map::new();
                    object.insert("name".into(), hit.model_name.into());
                    object.insert("description".into(), description(hit.tool).into());
                    object.insert("input_schema".into(), input_schema(hit.tool));
                    if let (true, Some(score)) = (config.show_scores, hit.score) {
                        object.insert("score".into(), json!(score));
                    }
                    Value::Object(object)
                })
                .collect(),
        )),
        ResultForm::AnthropicToolReference => Rendered::Json(Value::Array(
            hits.iter()
                .map(|hit| json!({"type": "tool_reference", "tool_name": hit.model_name}))
                .collect(),
        )),
        ResultForm::OpenAiFunction => Rendered::Json(Value::Array(
            hits.iter()
                .map(|hit| {
                    json!({"type": "function", "function": {
                        "name": hit.model_name,
                        "description": description(hit.tool),
                        "parameters": input_schema(hit.tool),
                    }})
                })
                .collect(),
        )),
        ResultForm::OpenAiResponsesFunction => Rendered::Json(Value::Array(
            hits.iter()
                .map(|hit| {
                    json!({
                        "type": "function",
                        "name": hit.model_name,
                        "description": description(hit.tool),
                        "parameters": input_schema(hit.tool),
                    })
                })
                .collect(),
        )),
    }
}

/// The compact text form: one line per hit, `\n`-terminated.
fn text(config: &Config, hits: &[Hit<'_>]) -> String {
    if hits.is_empty() {
        return "No matching tools.\n".to_owned();
    }
    // About a line's worth per hit up front, rather than growing the text while writing it.
    let line = config.result_description_chars.min(1_000) + 128;
    let mut out = String::with_capacity(hits.len().saturating_mul(line));
    for hit in hits {
        out.push_str("- ");
        sanitize::push_name(&mut out, hit.model_name);
        push_signature(&mut out, &hit.tool.input_schema);
        let mark = out.len();
        out.push_str(": ");
        let before = out.len();
        push_short_description(&mut out, &hit.tool.description, config.result_description_chars);
        if out.len() == before
            && let Some(title) = &hit.tool.title
        {
            push_short_description(&mut out, title, config.result_description_chars);
        }
        if out.len() == before {
            out.truncate(mark);
        }
        if let (true, Some(score)) = (config.show_scores, hit.score) {
            let _ = write!(out, " (score {score:.2})");
        }
        out.push('\n');
    }
    out
}

/// `(a: string, b: integer[], +3 optional)`: required parameters in schema order, then the
/// number of optional ones.
fn push_signature(out: &mut String, schema: &Value) {
    let properties = field(schema, "properties").and_then(Value::as_object);
    let required: Vec<&str> = field(schema, "required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    out.push('(');
    // One buffer for every parameter's type.
    let mut ty = String::new();
    let mut first = true;
    let mut separator = |out: &mut String| {
        if !first {
            out.push_str(", ");
        }
        first = false;
    };
    // Required properties in the order the schema declares them, then required names the
    // schema forgot to declare.
    if let Some(properties) = properties {
        for (name, property) in properties {
            if required.contains(&name.as_str()) {
                separator(out);
                sanitize::push_name(out, name);
                out.push_str(": ");
                push_type(out, property, &mut ty);
            }
        }
    }
    for name in &required {
        if properties.is_none_or(|p| !p.contains_key(*name)) {
            separator(out);
            sanitize::push_name(out, name);
            out.push_str(": any");
        }
    }
    let declared = properties.map_or(0, Map::len);
    let declared_required =
        properties.map_or(0, |p| p.keys().filter(|k| required.contains(&k.as_str())).count());
    let optional = declared - declared_required;
    if optional > 0 {
        separator(out);
        let _ = write!(out, "+{optional} optional");
    }
    out.push(')');
}

/// `schema[key]` when `schema` is an object.
fn field<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema.as_object().and_then(|object| member(object, key))
}

/// `object[key]`: a small object (nearly every schema node) is searched in order, which costs
/// less than hashing the key; the same value either way, as keys are unique.
fn member<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if object.len() <= 8 {
        object.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        object.get(key)
    }
}

/// The most characters of one parameter's type.
const MAX_TYPE_CHARS: usize = 60;

/// Appends `schema`'s short type, written first into `ty` (cleared).
fn push_type(out: &mut String, schema: &Value, ty: &mut String) {
    ty.clear();
    write_type(ty, schema, 0);
    let clean = sanitize::inline(ty);
    if clean.chars().count() > MAX_TYPE_CHARS {
        out.extend(clean.chars().take(MAX_TYPE_CHARS - 1));
        out.push('…');
    } else {
        out.push_str(&clean);
    }
}

/// A short type expression for a JSON Schema: `string`, `integer[]`, `"open"|"closed"`,
/// `string|null`, `object`, `any`.
fn write_type(out: &mut String, schema: &Value, depth: usize) {
    let Some(object) = schema.as_object() else {
        out.push_str("any");
        return;
    };
    if depth > 3 {
        out.push_str("any");
        return;
    }
    if let Some(values) = member(object, "enum").and_then(Value::as_array)
        && !values.is_empty()
        && values.len() <= 6
    {
        let literals: Vec<String> = values.iter().map(Value::to_string).collect();
        if literals.iter().map(String::len).sum::<usize>() <= 48 {
            out.push_str(&literals.join("|"));
            return;
        }
    }
    if let Some(value) = member(object, "const") {
        out.push_str(&value.to_string());
        return;
    }
    match member(object, "type") {
        Some(Value::String(ty)) => write_named_type(out, ty, object, depth),
        Some(Value::Array(types)) => {
            let mut first = true;
            for ty in types.iter().filter_map(Value::as_str) {
                if !first {
                    out.push('|');
                }
                first = false;
                write_named_type(out, ty, object, depth);
            }
            if first {
                out.push_str("any");
            }
        }
        _ => {
            let union = member(object, "anyOf").or_else(|| member(object, "oneOf"));
            if let Some(alternatives) = union.and_then(Value::as_array) {
                let mut seen: Vec<String> = Vec::new();
                for alternative in alternatives {
                    let mut ty = String::new();
                    write_type(&mut ty, alternative, depth + 1);
                    if !seen.contains(&ty) {
                        seen.push(ty);
                    }
                }
                if seen.is_empty() {
                    out.push_str("any");
                } else {
                    out.push_str(&seen.join("|"));
                }
            } else if object.contains_key("properties") || object.contains_key("$ref") {
                out.push_str("object");
            } else if let Some(first) =
                member(object, "allOf").and_then(Value::as_array).and_then(|a| a.first())
            {
                write_type(out, first, depth + 1);
            } else {
                out.push_str("any");
            }
        }
    }
}

fn write_named_type(out: &mut String, ty: &str, object: &Map<String, Value>, depth: usize) {
    if ty == "array" {
        match member(object, "items") {
            Some(items) if items.is_object() => {
                let mut inner = String::new();
                write_type(&mut inner, items, depth + 1);
                if inner.contains('|') {
                    out.push('(');
                    out.push_str(&inner);
                    out.push(')');
                } else {
                    out.push_str(&inner);
                }
                out.push_str("[]");
            }
            _ => out.push_str("array"),
        }
    } else {
        out.push_str(ty);
    }
}

/// A tool's description for definitions: the whole description (the title when it is empty),
/// with control and invisible characters dropped and line breaks normalised to `\n`.
fn description(tool: &Tool) -> String {
    let text = if tool.description.trim().is_empty() {
        tool.title.as_deref().unwrap_or("")
    } else {
        &tool.description
    };
    sanitize::multiline(text.trim()).into_owned()
}

/// A tool's input schema for definitions: as given when it is an object, else an empty object
/// schema (providers reject anything else).
fn input_schema(tool: &Tool) -> Value {
    if tool.input_schema.is_object() {
        tool.input_schema.clone()
    } else {
        json!({"type": "object", "properties": {}})
    }
}
