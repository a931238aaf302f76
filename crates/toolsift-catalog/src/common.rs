//! Helpers every adapter shares: the diagnostic sink, description and schema limits, and the
//! final per-server checks (duplicates, tool count).

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, DiagnosticKind, push_index, push_token};
use crate::limits::Limits;
use crate::model::{Server, Tool, ToolKind};
use crate::parse::{Note, NoteKind, Notes, is_under};

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
    /// The reader's notes no tool has taken yet.
    notes: Vec<Note>,
    more_duplicates: usize,
    /// Set when the tool being read must be dropped (a key longer than the text limit); the
    /// diagnostic is already reported.
    pub(crate) drop_tool: bool,
}

impl<'l> Ctx<'l> {
    pub(crate) fn new(server: &str, limits: &'l Limits, notes: Notes) -> Ctx<'l> {
        Ctx {
            server: server.to_owned(),
            limits,
            diagnostics: Vec::new(),
            notes: notes.list,
            more_duplicates: notes.more_duplicates,
            drop_tool: false,
        }
    }

    /// Takes the reader's notes inside the entries of the array at `base`, by entry index.
    pub(crate) fn notes_by_entry(&mut self, base: &str) -> BTreeMap<usize, Vec<Note>> {
        let mut out: BTreeMap<usize, Vec<Note>> = BTreeMap::new();
        if self.notes.is_empty() {
            return out;
        }
        let mut rest = Vec::new();
        for note in std::mem::take(&mut self.notes) {
            let index = note
                .pointer
                .strip_prefix(base)
                .and_then(|p| p.strip_prefix('/'))
                .map(|p| p.split('/').next().unwrap_or(p))
                .and_then(|i| i.parse::<usize>().ok());
            match index {
                Some(i) => out.entry(i).or_default().push(note),
                None => rest.push(note),
            }
        }
        self.notes = rest;
        out
    }

    /// Takes the reader's notes inside `pointer`.
    pub(crate) fn notes_under(&mut self, pointer: &str) -> Vec<Note> {
        if self.notes.is_empty() {
            return Vec::new();
        }
        let (inside, rest) = std::mem::take(&mut self.notes)
            .into_iter()
            .partition(|n| is_under(&n.pointer, pointer));
        self.notes = rest;
        inside
    }

    /// Reads the entries of the tools array at `base`, in order, into the tools `read` makes of
    /// them, each with its pointer. The reader's notes of an entry are reported first, under
    /// the name `name` finds in it; an entry with a part nested too deep is dropped.
    pub(crate) fn read_entries(
        &mut self,
        base: &str,
        entries: Vec<Value>,
        name: impl Fn(&Value) -> Option<&str>,
        mut read: impl FnMut(&mut Self, Value, &str) -> Option<Tool>,
    ) -> Vec<(Tool, String)> {
        let mut notes = self.notes_by_entry(base);
        let mut found = Vec::with_capacity(entries.len());
        for (i, entry) in entries.into_iter().enumerate() {
            let pointer = push_index(base, i);
            if let Some(notes) = notes.remove(&i)
                && !self.report_notes(notes, name(&entry))
            {
                continue;
            }
            if let Some(tool) = read(self, entry, &pointer) {
                found.push((tool, pointer));
            }
        }
        found
    }

    /// Reports the reader's notes of one tool's entry; `false` when a part of it was nested
    /// too deep to read, and the tool is to be dropped.
    pub(crate) fn report_notes(&mut self, notes: Vec<Note>, tool: Option<&str>) -> bool {
        let mut keep = true;
        for note in notes {
            match note.kind {
                NoteKind::DuplicateKey => {
                    self.report(DiagnosticKind::DuplicateKey, tool, &note.pointer, note.message);
                }
                NoteKind::TooDeep => {
                    if keep {
                        let message = format!("{}; the tool is skipped", note.message);
                        self.report(DiagnosticKind::NestedTooDeep, tool, &note.pointer, message);
                    }
                    keep = false;
                }
            }
        }
        keep
    }

    /// Cuts a text field (a title, a tag, a summary) longer than the text limit, reporting it.
    pub(crate) fn text(&mut self, text: String, tool: &str, pointer: &str) -> String {
        let max = self.limits.max_text_bytes;
        if text.len() <= max {
            return text;
        }
        let cut = floor_char_boundary(&text, max);
        self.report(
            DiagnosticKind::TextTruncated,
            Some(tool),
            pointer,
            format!("text of {} bytes cut to {cut} bytes", text.len()),
        );
        text[..cut].to_owned()
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

    /// A description as text (HTML markup made text, see `html.rs`), cut when longer than
    /// the limit (on a character boundary), reporting it.
    pub(crate) fn description(&mut self, text: &str, tool: &str, pointer: &str) -> String {
        let converted = crate::html::to_text(text);
        let text = converted.as_deref().unwrap_or(text);
        let max = self.limits.max_description_bytes;
        if text.len() <= max {
            return text.to_owned();
        }
        let cut = floor_char_boundary(text, max);
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
    /// the schema depth limit replaced by `{}`, and every string longer than the text limit
    /// cut. A key longer than the text limit sets [`Ctx::drop_tool`].
    pub(crate) fn limited(&mut self, v: Value, tool: &str, pointer: &str) -> Value {
        let max = self.limits.max_schema_depth;
        let mut v = if exceeds_depth(&v, max) {
            let mut cuts = 0usize;
            let out = cut_depth(&v, max, &mut cuts);
            self.report(
                DiagnosticKind::SchemaTooDeep,
                Some(tool),
                pointer,
                format!("nested deeper than {max} levels; {cuts} deeper parts replaced by {{}}"),
            );
            out
        } else {
            v
        };
        let mut caps = Caps { max: self.limits.max_text_bytes, ..Caps::default() };
        let mut at = pointer.to_owned();
        caps.walk(&mut v, &mut at);
        if let Some((first, bytes)) = caps.first {
            let more = if caps.count > 1 {
                format!(" ({} more strings like it in this value)", caps.count - 1)
            } else {
                String::new()
            };
            let message = format!(
                "string of {bytes} bytes cut to the text limit of {} bytes{more}",
                caps.max
            );
            self.report(DiagnosticKind::TextTruncated, Some(tool), &first, message);
        }
        if let Some((at, bytes)) = caps.long_key {
            let message = format!(
                "a key of {bytes} bytes, longer than the text limit of {} bytes; the tool is \
                 skipped",
                caps.max
            );
            self.report(DiagnosticKind::KeyTooLong, Some(tool), &at, message);
            self.drop_tool = true;
        }
        v
    }

    /// Drops tools with names past the limit, later duplicates and tools past the tool limit,
    /// reports the reader's notes no tool took, then wraps up.
    pub(crate) fn finish(mut self, kind: ToolKind, found: Vec<(Tool, String)>) -> Loaded {
        for note in std::mem::take(&mut self.notes) {
            let kind = match note.kind {
                NoteKind::DuplicateKey => DiagnosticKind::DuplicateKey,
                NoteKind::TooDeep => DiagnosticKind::NestedTooDeep,
            };
            self.report(kind, None, &note.pointer, note.message);
        }
        if self.more_duplicates > 0 {
            let message = format!(
                "{} more duplicate keys not listed; the last value of each is kept",
                self.more_duplicates
            );
            self.report(DiagnosticKind::DuplicateKey, None, "", message);
        }
        let mut seen: HashSet<String> = HashSet::with_capacity(found.len());
        let mut tools = Vec::with_capacity(found.len());
        let max = self.limits.max_tools_per_server;
        let max_name = self.limits.max_name_bytes;
        let mut over = 0usize;
        let mut first_over = String::new();
        for (tool, pointer) in found {
            if tool.id.name.len() > max_name {
                let message = format!(
                    "the name has {} bytes, more than the limit of {max_name}; skipped",
                    tool.id.name.len()
                );
                let name = floor_char_boundary(&tool.id.name, 256);
                let shown = format!("{}…", &tool.id.name[..name]);
                self.report(DiagnosticKind::NameTooLong, Some(&shown), &pointer, message);
                continue;
            }
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

/// The largest character boundary of `text` at or below `max`.
pub(crate) fn floor_char_boundary(text: &str, max: usize) -> usize {
    let mut cut = max.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

/// Cuts strings longer than `max` bytes in a value, remembering the first cut and the first
/// key that is too long.
#[derive(Default)]
struct Caps {
    max: usize,
    count: usize,
    first: Option<(String, usize)>,
    long_key: Option<(String, usize)>,
}

impl Caps {
    fn walk(&mut self, v: &mut Value, at: &mut String) {
        match v {
            Value::String(s) if s.len() > self.max => {
                self.count += 1;
                if self.first.is_none() {
                    self.first = Some((at.clone(), s.len()));
                }
                let cut = floor_char_boundary(s, self.max);
                s.truncate(cut);
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&i.to_string());
                    self.walk(item, at);
                    at.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, item) in map.iter_mut() {
                    let len = at.len();
                    if k.len() > self.max {
                        if self.long_key.is_none() {
                            self.long_key = Some((at.clone(), k.len()));
                        }
                        continue;
                    }
                    if k == "description"
                        && let Value::String(d) = item
                        && let Some(text) = crate::html::to_text(d)
                    {
                        *d = text;
                    }
                    at.push('/');
                    for c in k.chars() {
                        match c {
                            '~' => at.push_str("~0"),
                            '/' => at.push_str("~1"),
                            c => at.push(c),
                        }
                    }
                    self.walk(item, at);
                    at.truncate(len);
                }
            }
            _ => {}
        }
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
