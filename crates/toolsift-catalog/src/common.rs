//! Helpers every adapter shares: the diagnostic sink, description and schema limits, and the
//! final per-server checks (duplicates, tool count).

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, DiagnosticKind, push_token};
use crate::limits::Limits;
use crate::model::{Server, Tool, ToolKind};

/// What a loader returns: the server with every tool that could be read, and a diagnostic for
/// each problem.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The server, named as the caller asked, with its tools in source order.
    pub server: Server,
    /// Problems found, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// The loaded tools.
    #[must_use]
    pub fn tools(&self) -> &[Tool] {
        &self.server.tools
    }
}

/// State shared while one document is read.
pub(crate) struct Ctx<'l> {
    pub(crate) server: String,
    pub(crate) limits: &'l Limits,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl<'l> Ctx<'l> {
    pub(crate) fn new(server: &str, limits: &'l Limits) -> Ctx<'l> {
        Ctx { server: server.to_owned(), limits, diagnostics: Vec::new() }
    }

    pub(crate) fn report(
        &mut self,
        kind: DiagnosticKind,
        tool: Option<&str>,
        pointer: &str,
        message: impl Into<String>,
    ) {
        self.diagnostics.push(Diagnostic::new(kind, &self.server, tool, pointer, message));
    }

    /// Cuts a description longer than the limit (on a character boundary), reporting it.
    pub(crate) fn description(&mut self, text: &str, tool: &str, pointer: &str) -> String {
        let max = self.limits.max_description_bytes;
        if text.len() <= max {
            return text.to_owned();
        }
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        self.report(
            DiagnosticKind::DescriptionTruncated,
            Some(tool),
            pointer,
            format!("description of {} bytes cut to {cut} bytes", text.len()),
        );
        text[..cut].to_owned()
    }

    /// An optional string field: `None` when absent or null, a diagnostic when not a string.
    pub(crate) fn opt_string(
        &mut self,
        obj: &mut Map<String, Value>,
        key: &str,
        tool: &str,
        pointer: &str,
    ) -> Option<String> {
        match obj.swap_remove(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.report(
                    DiagnosticKind::WrongType,
                    Some(tool),
                    &push_token(pointer, key),
                    format!("{key} is {}, not a string; ignored", type_word(&other)),
                );
                None
            }
        }
    }

    /// An optional object field (output schema, annotations, `_meta`): a diagnostic when it
    /// is not an object; depth-limited like schemas.
    pub(crate) fn opt_object(
        &mut self,
        obj: &mut Map<String, Value>,
        key: &str,
        tool: &str,
        pointer: &str,
    ) -> Option<Value> {
        match obj.swap_remove(key) {
            None | Some(Value::Null) => None,
            Some(v @ Value::Object(_)) => {
                let at = push_token(pointer, key);
                Some(self.limited(v, tool, &at))
            }
            Some(other) => {
                self.report(
                    DiagnosticKind::WrongType,
                    Some(tool),
                    &push_token(pointer, key),
                    format!("{key} is {}, not an object; ignored", type_word(&other)),
                );
                None
            }
        }
    }

    /// A copy of a value (a schema, annotations, `_meta`) with everything nested deeper than
    /// the schema depth limit replaced by `{}`.
    pub(crate) fn limited(&mut self, v: Value, tool: &str, pointer: &str) -> Value {
        let max = self.limits.max_schema_depth;
        if !exceeds_depth(&v, max) {
            return v;
        }
        let mut cuts = 0usize;
        let out = cut_depth(&v, max, &mut cuts);
        self.report(
            DiagnosticKind::SchemaTooDeep,
            Some(tool),
            pointer,
            format!("nested deeper than {max} levels; {cuts} deeper parts replaced by {{}}"),
        );
        out
    }

    /// Drops later duplicates and tools past the limit, then wraps up.
    pub(crate) fn finish(mut self, kind: ToolKind, found: Vec<(Tool, String)>) -> Loaded {
        let mut seen: HashSet<String> = HashSet::with_capacity(found.len());
        let mut tools = Vec::with_capacity(found.len());
        let max = self.limits.max_tools_per_server;
        let mut over = 0usize;
        let mut first_over = String::new();
        for (tool, pointer) in found {
            if seen.contains(&tool.id.name) {
                self.report(
                    DiagnosticKind::DuplicateName,
                    Some(&tool.id.name),
                    &pointer,
                    "a tool with this name came earlier in the server; skipped",
                );
                continue;
            }
            if tools.len() >= max {
                if over == 0 {
                    first_over = pointer;
                }
                over += 1;
                continue;
            }
            seen.insert(tool.id.name.clone());
            tools.push(tool);
        }
        if over > 0 {
            self.report(
                DiagnosticKind::TooManyTools,
                None,
                &first_over,
                format!("more than {max} tools; the last {over} skipped"),
            );
        }
        let server = Server::new(self.server.clone(), kind, tools);
        Loaded { server, diagnostics: self.diagnostics }
    }
}

/// Whether non-empty containers nest deeper than `max`. Recursion stops at `max`.
pub(crate) fn exceeds_depth(v: &Value, max: usize) -> bool {
    match v {
        Value::Array(a) if !a.is_empty() => max == 0 || a.iter().any(|x| exceeds_depth(x, max - 1)),
        Value::Object(o) if !o.is_empty() => {
            max == 0 || o.values().any(|x| exceeds_depth(x, max - 1))
        }
        _ => false,
    }
}

/// A copy with non-empty containers below `max` levels replaced by `{}`.
fn cut_depth(v: &Value, max: usize, cuts: &mut usize) -> Value {
    match v {
        Value::Array(a) if !a.is_empty() => {
            if max == 0 {
                *cuts += 1;
                return Value::Object(Map::new());
            }
            Value::Array(a.iter().map(|x| cut_depth(x, max - 1, cuts)).collect())
        }
        Value::Object(o) if !o.is_empty() => {
            if max == 0 {
                *cuts += 1;
                return Value::Object(Map::new());
            }
            Value::Object(o.iter().map(|(k, x)| (k.clone(), cut_depth(x, max - 1, cuts))).collect())
        }
        other => other.clone(),
    }
}

/// `a string`, `an array`, … for messages.
pub(crate) fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads a tool's name: a non-empty string, else a [`DiagnosticKind::MissingName`].
pub(crate) fn tool_name(
    ctx: &mut Ctx<'_>,
    obj: &Map<String, Value>,
    pointer: &str,
) -> Option<String> {
    match obj.get("name") {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::String(_)) => {
            ctx.report(
                DiagnosticKind::MissingName,
                None,
                &push_token(pointer, "name"),
                "the name is empty; skipped",
            );
            None
        }
        Some(other) => {
            let message = format!("the name is {}, not a string; skipped", type_word(other));
            ctx.report(DiagnosticKind::MissingName, None, &push_token(pointer, "name"), message);
            None
        }
        None => {
            ctx.report(DiagnosticKind::MissingName, None, pointer, "the tool has no name; skipped");
            None
        }
    }
}

/// Reads an input schema field: an object (depth-limited), `None` with a diagnostic
/// ([`DiagnosticKind::InvalidSchema`]) when present but not an object, and `Some({"type":
/// "object"})` when absent (with [`DiagnosticKind::MissingSchema`] if `required`).
pub(crate) fn input_schema(
    ctx: &mut Ctx<'_>,
    obj: &mut Map<String, Value>,
    key: &str,
    tool: &str,
    pointer: &str,
    required: bool,
) -> Option<Value> {
    let at = push_token(pointer, key);
    match obj.swap_remove(key) {
        Some(v @ Value::Object(_)) => Some(ctx.limited(v, tool, &at)),
        None | Some(Value::Null) => {
            if required {
                ctx.report(
                    DiagnosticKind::MissingSchema,
                    Some(tool),
                    pointer,
                    format!("no {key}; using {{\"type\": \"object\"}}"),
                );
            }
            Some(crate::model::empty_object_schema())
        }
        Some(other) => {
            let message = format!("{key} is {}, not an object; skipped", type_word(&other));
            ctx.report(DiagnosticKind::InvalidSchema, Some(tool), &at, message);
            None
        }
    }
}
