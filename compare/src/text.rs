//! The text every baseline engine indexes for a tool: the same three fields for all of them.
//!
//! - **name**: the server name, the tool's name split into words (`linear_getIssues` →
//!   `linear get Issues`) and its title.
//! - **description**: the tool's description, whole.
//! - **parameters**: each top-level parameter's name split into words, its description, and its
//!   enum values (those of the parameter or of its array items) when there are at most 32, the
//!   limit toolsift itself uses.
//!
//! toolsift builds its own fields from the same tool (plus OpenAPI route words and tags); see
//! `crates/toolsift/src/fields.rs`.

use serde_json::Value;
use toolsift::catalog::Tool;

/// The most enum values of one parameter that go into `parameters`.
const MAX_ENUM_VALUES: usize = 32;

/// One tool's text, by field.
#[derive(Debug, Clone)]
pub struct ToolText {
    pub name: String,
    pub description: String,
    pub parameters: String,
}

impl ToolText {
    /// The three fields of `tool`.
    pub fn of(tool: &Tool) -> ToolText {
        let mut name = String::new();
        push(&mut name, &tool.id.server);
        push(&mut name, &split_identifier(&tool.id.name));
        push(&mut name, tool.title.as_deref().unwrap_or_default());
        ToolText {
            name,
            description: tool.description.trim().to_owned(),
            parameters: parameters_text(&tool.input_schema),
        }
    }

    /// The three fields as one text, a line each (for an engine with a single field).
    pub fn joined(&self) -> String {
        let mut all = self.name.clone();
        push(&mut all, &self.description);
        push(&mut all, &self.parameters);
        all
    }
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

/// The words of an identifier, separated by spaces: split at every character that is not a
/// letter or digit, at a lower-case letter followed by an upper-case one (`getIssues`), and
/// before the last capital of a run followed by a lower-case letter (`HTMLParser`).
pub fn split_identifier(identifier: &str) -> String {
    let chars: Vec<char> = identifier.chars().collect();
    let mut out = String::with_capacity(identifier.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
                    || p.is_ascii_digit()
            });
        if boundary && !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
        out.push(c);
    }
    out.trim_end().to_owned()
}

/// The `parameters` field of a tool with input schema `schema`.
fn parameters_text(schema: &Value) -> String {
    let mut out = String::new();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return out };
    for (name, prop) in props {
        push(&mut out, &split_identifier(name));
        if let Some(d) = prop.get("description").and_then(Value::as_str) {
            push(&mut out, d);
        }
        let values = prop
            .get("enum")
            .or_else(|| prop.get("items").and_then(|items| items.get("enum")))
            .and_then(Value::as_array);
        if let Some(values) = values.filter(|v| v.len() <= MAX_ENUM_VALUES) {
            for v in values.iter().filter_map(Value::as_str) {
                push(&mut out, v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_identifier;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(split_identifier("linear_getIssues"), "linear get Issues");
        assert_eq!(split_identifier("HTMLParser-v2"), "HTML Parser v2");
        assert_eq!(split_identifier("create_pull_request"), "create pull request");
        assert_eq!(split_identifier("__x__"), "x");
    }
}
