//! Which tool text goes into which ranking field: the one place that wires catalog to rank.
//!
//! - **name**: the tool's name words with the server kept and the kind prefix dropped
//!   (`github create_issue`, not `mcp__github__create_issue`), and its title.
//! - **summary**: what the tool does in one line: the OpenAPI summary, else the first sentence
//!   of the description's first paragraph.
//! - **details**: the rest of the description; the top-level parameters' names, descriptions
//!   and enum values (tools such as GitHub's `pull_request_read` hide whole actions in a
//!   `method` enum); the OpenAPI route words and tags; the server name.
//! - **exact keys**: the original name, the model-facing name, and `server/tool`.

use std::cell::RefCell;

use serde_json::Value;
use toolsift_catalog::Tool;

/// The text of one tool, split by field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ToolText {
    pub(crate) name: String,
    pub(crate) summary: String,
    pub(crate) details: String,
    pub(crate) keys: Vec<String>,
}

/// How the field texts are made; the defaults are what the eval measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FieldConfig {
    /// A parameter's enum values go into details only if there are at most this many. Longer
    /// enums are data (time zones, country codes), not actions, and would drown the field.
    pub(crate) max_enum_values: usize,
}

impl Default for FieldConfig {
    fn default() -> Self {
        FieldConfig { max_enum_values: 32 }
    }
}

thread_local! {
    /// The details text under construction, reused across tools on this thread: it grows to
    /// the longest details once, and each tool's details are copied out at their exact size.
    static DETAILS: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The field texts and exact keys of `tool`, whose model-facing name is `model_name`.
pub(crate) fn tool_text(tool: &Tool, model_name: &str, config: &FieldConfig) -> ToolText {
    let name = name_text(tool);
    let (summary, rest) = split_summary(tool);
    let write_details = |details: &mut String| {
        details.clear();
        push(details, rest);
        parameters_text(&tool.input_schema, config, details);
        if let Some(op) = &tool.openapi {
            push(details, &route_words(&op.path));
            for tag in &op.tags {
                push(details, tag);
            }
        }
        push(details, &tool.id.server);
    };
    let details = DETAILS
        .try_with(|buffer| {
            let mut buffer = buffer.try_borrow_mut().ok()?;
            write_details(&mut buffer);
            let details = buffer.as_str().to_owned();
            // Keep a buffer of a usual size, not the largest ever seen.
            if buffer.capacity() > 1 << 16 {
                *buffer = String::new();
            }
            Some(details)
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| {
            let mut details = String::new();
            write_details(&mut details);
            details
        });

    let (server, original) = (tool.id.server.as_str(), tool.id.name.as_str());
    let mut keys = Vec::with_capacity(3);
    keys.push(original.to_owned());
    if model_name != original {
        keys.push(model_name.to_owned());
    }
    let is_path = |key: &String| {
        key.len() == server.len() + 1 + original.len()
            && key.starts_with(server)
            && key[server.len()..].starts_with('/')
            && key.ends_with(original)
    };
    if !keys.iter().any(is_path) {
        let mut path = String::with_capacity(server.len() + 1 + original.len());
        path.push_str(server);
        path.push('/');
        path.push_str(original);
        keys.push(path);
    }
    ToolText { name, summary: summary.to_owned(), details, keys }
}

/// The `name` field text of `tool` ([`ToolText::name`]): server, tool name and title, a line
/// each.
pub(crate) fn name_text(tool: &Tool) -> String {
    let title = tool.title.as_deref().unwrap_or_default();
    let mut name =
        String::with_capacity(tool.id.server.len() + tool.id.name.len() + title.len() + 2);
    push(&mut name, &tool.id.server);
    push(&mut name, &tool.id.name);
    push(&mut name, title);
    name
}

/// Appends `text` on a new line of `out` (nothing for blank text).
fn push(out: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(text);
}

/// The summary and the rest of the description.
///
/// OpenAPI: the operation summary, and the description without the leading summary the catalog
/// put there. Otherwise: the first sentence of the first paragraph, and everything after it.
fn split_summary(tool: &Tool) -> (&str, &str) {
    let description = tool.description.trim();
    if let Some(summary) = tool.openapi.as_ref().and_then(|op| op.summary.as_deref()) {
        let summary = summary.trim();
        if !summary.is_empty() {
            let rest = description.strip_prefix(summary).unwrap_or(description);
            return (summary, rest.trim());
        }
    }
    let end = first_sentence_end(description);
    (description[..end].trim(), description[end..].trim())
}

/// The byte offset where the first sentence of the first paragraph ends.
///
/// A paragraph ends at a blank line. A sentence ends after `.`, `!` or `?` followed by
/// whitespace and then a character that is not a lower-case letter (so `e.g. this` does not end
/// one), or after a full-width `。`, `！` or `？`.
fn first_sentence_end(text: &str) -> usize {
    let paragraph_end = paragraph_end(text);
    let para = &text[..paragraph_end];
    for (i, c) in para.char_indices() {
        match c {
            '。' | '！' | '？' => return i + c.len_utf8(),
            '.' | '!' | '?' => {
                let after = &para[i + 1..];
                let trimmed = after.trim_start();
                if trimmed.len() < after.len()
                    && trimmed.chars().next().is_some_and(|n| !n.is_lowercase())
                {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    paragraph_end
}

/// The byte offset of the first blank line (a line holding only whitespace), else the end.
fn paragraph_end(text: &str) -> usize {
    let mut offset = 0;
    let mut seen_text = false;
    for line in text.split_inclusive('\n') {
        if line.trim().is_empty() && seen_text {
            return offset;
        }
        seen_text |= !line.trim().is_empty();
        offset += line.len();
    }
    text.len()
}

/// Appends the top-level parameters' names, descriptions and enum values.
fn parameters_text(schema: &Value, config: &FieldConfig, out: &mut String) {
    let Some(props) = member(schema, "properties").and_then(Value::as_object) else { return };
    // Reused across the parameters: one allocation each per tool, not per parameter.
    let mut values = Vec::new();
    let mut joined = String::new();
    for (name, prop) in props {
        push(out, name);
        let keys = SchemaKeys::of(prop);
        if let Some(d) = keys.description.and_then(Value::as_str) {
            push(out, d);
        }
        values.clear();
        keys.enum_values(&mut values);
        if let Some(items) = keys.items {
            SchemaKeys::of(items).enum_values(&mut values);
        }
        for alt in [keys.any_of, keys.one_of] {
            for member in alt.and_then(Value::as_array).into_iter().flatten() {
                SchemaKeys::of(member).enum_values(&mut values);
            }
        }
        if values.len() <= config.max_enum_values {
            joined.clear();
            for (i, value) in values.iter().enumerate() {
                if i > 0 {
                    joined.push(' ');
                }
                joined.push_str(value);
            }
            push(out, &joined);
        }
    }
}

/// `value[key]` when `value` is an object, found by walking its (few) entries: comparing short
/// keys costs less than hashing the key with the map's SipHash.
fn member<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    value.as_object()?.iter().find_map(|(k, v)| (k == key).then_some(v))
}

/// The members of a schema object that the field texts read, found in one walk over its
/// entries (each would otherwise be a hashed lookup).
#[derive(Default)]
struct SchemaKeys<'a> {
    description: Option<&'a Value>,
    enum_: Option<&'a Value>,
    const_: Option<&'a Value>,
    items: Option<&'a Value>,
    any_of: Option<&'a Value>,
    one_of: Option<&'a Value>,
}

impl<'a> SchemaKeys<'a> {
    /// The members of `schema` (none when it is not an object).
    fn of(schema: &'a Value) -> Self {
        let mut keys = SchemaKeys::default();
        let Some(map) = schema.as_object() else { return keys };
        for (k, v) in map {
            let slot = match k.as_str() {
                "description" => &mut keys.description,
                "enum" => &mut keys.enum_,
                "const" => &mut keys.const_,
                "items" => &mut keys.items,
                "anyOf" => &mut keys.any_of,
                "oneOf" => &mut keys.one_of,
                _ => continue,
            };
            *slot = Some(v);
        }
        keys
    }

    /// Collects the string values of the schema's `enum` and `const`.
    fn enum_values(&self, out: &mut Vec<&'a str>) {
        if let Some(items) = self.enum_.and_then(Value::as_array) {
            out.extend(items.iter().filter_map(Value::as_str));
        }
        if let Some(c) = self.const_.and_then(Value::as_str) {
            out.push(c);
        }
    }
}

/// The literal words of an OpenAPI path: `/pets/{petId}/photos` gives `pets photos`.
fn route_words(path: &str) -> String {
    path.split('/').filter(|s| !s.is_empty() && !s.starts_with('{')).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
