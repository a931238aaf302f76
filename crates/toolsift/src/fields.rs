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

/// The field texts and exact keys of `tool`, whose model-facing name is `model_name`.
pub(crate) fn tool_text(tool: &Tool, model_name: &str, config: &FieldConfig) -> ToolText {
    let mut name = String::new();
    push(&mut name, &tool.id.server);
    push(&mut name, &tool.id.name);
    if let Some(title) = &tool.title {
        push(&mut name, title);
    }

    let (summary, rest) = split_summary(tool);
    let mut details = String::new();
    push(&mut details, rest);
    parameters_text(&tool.input_schema, config, &mut details);
    if let Some(op) = &tool.openapi {
        push(&mut details, &route_words(&op.path));
        for tag in &op.tags {
            push(&mut details, tag);
        }
    }
    push(&mut details, &tool.id.server);

    let mut keys = vec![tool.id.name.clone()];
    for key in [model_name.to_owned(), format!("{}/{}", tool.id.server, tool.id.name)] {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    ToolText { name, summary: summary.to_owned(), details, keys }
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
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return };
    for (name, prop) in props {
        push(out, name);
        if let Some(d) = prop.get("description").and_then(Value::as_str) {
            push(out, d);
        }
        let mut values = Vec::new();
        enum_values(prop, &mut values);
        if let Some(items) = prop.get("items") {
            enum_values(items, &mut values);
        }
        for alt in ["anyOf", "oneOf"] {
            for member in prop.get(alt).and_then(Value::as_array).into_iter().flatten() {
                enum_values(member, &mut values);
            }
        }
        if values.len() <= config.max_enum_values {
            push(out, &values.join(" "));
        }
    }
}

/// Collects the string values of `schema`'s `enum` and `const`.
fn enum_values<'a>(schema: &'a Value, out: &mut Vec<&'a str>) {
    if let Some(items) = schema.get("enum").and_then(Value::as_array) {
        out.extend(items.iter().filter_map(Value::as_str));
    }
    if let Some(c) = schema.get("const").and_then(Value::as_str) {
        out.push(c);
    }
}

/// The literal words of an OpenAPI path: `/pets/{petId}/photos` gives `pets photos`.
fn route_words(path: &str) -> String {
    path.split('/').filter(|s| !s.is_empty() && !s.starts_with('{')).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
