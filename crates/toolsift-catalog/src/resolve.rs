//! `$ref` resolution for the OpenAPI adapter: expanding schemas with local references inlined,
//! cycles cut, and the depth and size limits applied; and flattening a request body's
//! top-level properties through `allOf`, `oneOf` and `anyOf`.

use indexmap::IndexSet;
use serde_json::{Map, Value};

use crate::common::Ctx;
use crate::diagnostic::DiagnosticKind;

/// One step of the current position in the document, kept without allocating.
#[derive(Clone, Copy)]
pub(crate) enum Tok<'a> {
    Key(&'a str),
    Index(usize),
    /// An already-escaped pointer (the fragment of a `$ref`).
    Ptr(&'a str),
}

/// A saved position: the tokens and the owned prefix.
pub(crate) type Saved<'a> = (Vec<Tok<'a>>, String);

/// Problems met while expanding one tool's schemas, summarized into one diagnostic per kind.
#[derive(Default)]
struct Note {
    count: usize,
    pointer: String,
    message: String,
}

/// The diagnostic kinds the expander reports, in reporting order.
const NOTE_KINDS: [DiagnosticKind; 6] = [
    DiagnosticKind::RefCycle,
    DiagnosticKind::ExternalRef,
    DiagnosticKind::UnresolvedRef,
    DiagnosticKind::SchemaTooDeep,
    DiagnosticKind::SchemaTooLarge,
    DiagnosticKind::TextTruncated,
];

/// Why the current tool is dropped: the diagnostic's kind, pointer and message.
pub(crate) type Dropped = (DiagnosticKind, String, String);

/// A body's (or any object schema's) top-level properties.
#[derive(Default)]
pub(crate) struct Flat {
    pub(crate) properties: Map<String, Value>,
    /// The required properties, in first-mention order (a set, so that a long `required`
    /// list costs linear time).
    pub(crate) required: IndexSet<String>,
    /// Whether the schema describes an object (has properties or `type: object`).
    pub(crate) objectish: bool,
    /// Whether the schema allows properties beyond the listed ones (`additionalProperties`).
    pub(crate) open: bool,
}

/// Expands schemas of one OpenAPI document, one tool at a time.
pub(crate) struct Expander<'a> {
    root: &'a Value,
    max_depth: usize,
    max_nodes: usize,
    /// The cap on the budget of the whole document, and what earlier tools used of it.
    max_document_nodes: usize,
    document_nodes: usize,
    /// The budget of the whole document (see [`Expander::document_budget`]), worked out
    /// when a second tool needs it.
    document_budget: Option<usize>,
    /// Budget units used by the current tool: one per value, plus one per 64 bytes of each
    /// string and each key.
    nodes: usize,
    /// The current tool's budget: `max_nodes`, or what is left of the document's.
    budget: usize,
    stack: Vec<&'a str>,
    loc: Vec<Tok<'a>>,
    /// A pointer prefix of `loc` that is not borrowed from the document.
    base: String,
    notes: [Note; 6],
    /// The longest string kept, and the longest key allowed, in bytes.
    max_text: usize,
    /// The parts of the document nested too deep to read: a tool that refers into one is
    /// dropped.
    cuts: Vec<String>,
    /// Why the current tool is dropped, if it is.
    dropped: Option<Dropped>,
}

impl<'a> Expander<'a> {
    pub(crate) fn new(
        root: &'a Value,
        limits: &crate::limits::Limits,
        cuts: Vec<String>,
    ) -> Expander<'a> {
        Expander {
            root,
            max_depth: limits.max_schema_depth,
            max_nodes: limits.max_schema_nodes,
            max_document_nodes: limits.max_document_schema_nodes,
            document_nodes: 0,
            document_budget: None,
            nodes: 0,
            budget: limits.max_schema_nodes,
            stack: Vec::new(),
            loc: Vec::new(),
            base: String::new(),
            notes: Default::default(),
            max_text: limits.max_text_bytes,
            cuts,
            dropped: None,
        }
    }

    /// Why the current tool is to be dropped, if it is; clears it.
    pub(crate) fn take_dropped(&mut self) -> Option<Dropped> {
        self.dropped.take()
    }

    /// Drops the current tool for a key of `bytes` bytes at `pointer`.
    pub(crate) fn drop_for_key(&mut self, pointer: &str, bytes: usize) {
        if self.dropped.is_none() {
            let max = self.max_text;
            self.dropped = Some((
                DiagnosticKind::KeyTooLong,
                pointer.to_owned(),
                format!(
                    "a key of {bytes} bytes, longer than the text limit of {max} bytes; the tool is skipped"
                ),
            ));
        }
    }

    /// Drops the current tool when the target of `r` holds a part nested too deep to read.
    fn check_cut(&mut self, r: &str) {
        if self.cuts.is_empty() || self.dropped.is_some() {
            return;
        }
        let target = fragment(r);
        if let Some(cut) = self.cuts.iter().find(|c| crate::parse::is_under(c, target)) {
            self.dropped = Some((
                DiagnosticKind::NestedTooDeep,
                cut.clone(),
                format!(
                    "the tool refers to {r:?}, which holds a part nested deeper than {} levels; \
                     the tool is skipped",
                    crate::parse::MAX_NESTING
                ),
            ));
        }
    }

    /// What all tools of the document may grow to together: one tool's budget plus half the
    /// document's own size (counted in the same units), and never more than
    /// `max_document_schema_nodes`. Tools that share large components cannot make the
    /// expanded schemas outgrow the document that holds them by more than a constant.
    fn document_budget(&mut self) -> usize {
        *self.document_budget.get_or_insert_with(|| {
            let own = size_in_nodes(self.root);
            self.max_document_nodes.min(self.max_nodes.saturating_add(own / 2))
        })
    }

    /// Starts a new tool: resets the budget and sets the position.
    pub(crate) fn start_tool(&mut self) {
        self.document_nodes = self.document_nodes.saturating_add(self.nodes);
        self.nodes = 0;
        let left = if self.document_nodes == 0 {
            // Nothing spent yet: the document's budget is at least one tool's.
            self.max_document_nodes
        } else {
            self.document_budget().saturating_sub(self.document_nodes)
        };
        self.budget = self.max_nodes.min(left);
        self.stack.clear();
        self.loc.clear();
        self.base.clear();
        self.dropped = None;
    }

    /// Reports the problems of the current tool, one diagnostic per kind.
    pub(crate) fn flush(&mut self, ctx: &mut Ctx<'_>, tool: Option<&str>) {
        for (kind, note) in NOTE_KINDS.iter().zip(self.notes.iter_mut()) {
            if note.count == 0 {
                continue;
            }
            let mut message = std::mem::take(&mut note.message);
            if note.count > 1 {
                message.push_str(&format!(" (and {} more like it in this tool)", note.count - 1));
            }
            ctx.report(*kind, tool, &note.pointer, message);
            note.count = 0;
            note.pointer.clear();
        }
    }

    /// Forgets the problems of the current tool.
    pub(crate) fn discard(&mut self) {
        for note in &mut self.notes {
            note.count = 0;
            note.pointer.clear();
            note.message.clear();
        }
    }

    /// Sets the current position to a pointer built while reading (not borrowed from the
    /// document): it is kept in an owned buffer.
    pub(crate) fn at_owned(&mut self, pointer: &str) {
        self.loc.clear();
        self.base.clear();
        self.base.push_str(pointer);
    }

    pub(crate) fn push_key(&mut self, key: &'a str) {
        self.loc.push(Tok::Key(key));
    }

    pub(crate) fn push_index(&mut self, index: usize) {
        self.loc.push(Tok::Index(index));
    }

    pub(crate) fn pop(&mut self) {
        self.loc.pop();
    }

    /// The current position as an RFC 6901 pointer.
    pub(crate) fn pointer(&self) -> String {
        let mut out = self.base.clone();
        for tok in &self.loc {
            match tok {
                Tok::Ptr(p) => out.push_str(p),
                Tok::Index(i) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
                Tok::Key(k) => out = crate::diagnostic::push_token(&out, k),
            }
        }
        out
    }

    fn note(&mut self, kind: DiagnosticKind, message: impl FnOnce() -> String) {
        let i = NOTE_KINDS.iter().position(|k| *k == kind).unwrap_or(0);
        if self.notes[i].count == 0 {
            self.notes[i].pointer = self.pointer();
            self.notes[i].message = message();
        }
        self.notes[i].count += 1;
    }

    /// Follows a chain of `$ref`s from `v` to a non-reference value, with the position set to
    /// the target. Returns the target and how many positions to restore with
    /// [`Expander::leave`]. Problems are noted and give `None`.
    pub(crate) fn deref(&mut self, v: &'a Value) -> Option<(&'a Value, Vec<Saved<'a>>)> {
        let mut current = v;
        let mut saved = Vec::new();
        while let Some(r) = current.get("$ref").and_then(Value::as_str) {
            match self.target(r, "ignored") {
                Some(target) => {
                    self.stack.push(r);
                    saved.push(self.jump(r));
                    current = target;
                }
                None => {
                    self.leave(saved);
                    return None;
                }
            }
        }
        Some((current, saved))
    }

    /// Restores the positions saved by [`Expander::deref`].
    pub(crate) fn leave(&mut self, saved: Vec<Saved<'a>>) {
        for (loc, base) in saved.into_iter().rev() {
            self.loc = loc;
            self.base = base;
            self.stack.pop();
        }
    }

    /// Moves the position to a reference's target, returning the old position.
    fn jump(&mut self, r: &'a str) -> Saved<'a> {
        let loc = std::mem::replace(&mut self.loc, vec![Tok::Ptr(fragment(r))]);
        (loc, std::mem::take(&mut self.base))
    }

    /// The local target of a reference, noting external, missing and cyclic references;
    /// `fallback` says what happens to an unusable one.
    fn target(&mut self, r: &'a str, fallback: &'static str) -> Option<&'a Value> {
        self.push_key("$ref");
        let found = if self.stack.len() >= self.max_depth {
            // A chain of references inside references; bounded like nesting, so a document
            // with a very long chain cannot exhaust the stack.
            let max = self.max_depth;
            self.note(DiagnosticKind::SchemaTooDeep, || {
                format!("references nested more than {max} deep; the rest cut")
            });
            None
        } else if !r.starts_with('#') {
            self.note(DiagnosticKind::ExternalRef, || {
                format!("external reference {r:?} not fetched; {fallback}")
            });
            None
        } else if self.stack.contains(&r) {
            self.note(DiagnosticKind::RefCycle, || {
                format!("reference {r:?} closes a cycle; replaced by {{}}")
            });
            None
        } else {
            let found = lookup(self.root, r);
            if found.is_none() {
                self.note(DiagnosticKind::UnresolvedRef, || {
                    format!("reference {r:?} has no target; {fallback}")
                });
            } else {
                self.check_cut(r);
            }
            found
        };
        self.pop();
        found
    }

    /// Whether `depth` is past the nesting limit; if so, says so in a diagnostic.
    fn too_deep(&mut self, depth: usize) -> bool {
        if depth < self.max_depth {
            return false;
        }
        let max = self.max_depth;
        self.note(DiagnosticKind::SchemaTooDeep, || {
            format!("schema nested deeper than {max} levels; the deeper part replaced by {{}}")
        });
        true
    }

    fn over_budget(&mut self) -> bool {
        if self.nodes > self.budget {
            let max = self.max_nodes;
            let document = self.document_budget.unwrap_or(self.max_document_nodes);
            let per_tool = self.budget == max;
            self.note(DiagnosticKind::SchemaTooLarge, || {
                if per_tool {
                    format!("expanding references would exceed {max} schema nodes; the rest replaced by {{}} or left out")
                } else {
                    format!("the document's operations would exceed {document} schema nodes in all; the rest replaced by {{}} or left out")
                }
            });
            return true;
        }
        false
    }

    /// A copy of `v` with every local `$ref` inlined.
    pub(crate) fn expand(&mut self, v: &'a Value, depth: usize) -> Value {
        self.nodes += 1;
        match v {
            Value::Object(o) => {
                if let Some(Value::String(r)) = o.get("$ref") {
                    return self.expand_ref(o, r, depth);
                }
                if o.is_empty() {
                    return Value::Object(Map::new());
                }
                if self.too_deep(depth) {
                    return Value::Object(Map::new());
                }
                if self.over_budget() {
                    return Value::Object(Map::new());
                }
                let mut out = Map::with_capacity(o.len());
                for (k, x) in o {
                    // Checked per member too, so that one wide object copied by many tools
                    // cannot outgrow the budget by its width each time.
                    self.push_key(k);
                    if !out.is_empty() && self.over_budget() {
                        self.pop();
                        break;
                    }
                    if k.len() > self.max_text {
                        let at = self.pointer();
                        self.drop_for_key(&at, k.len());
                        self.pop();
                        continue;
                    }
                    self.nodes += k.len() / 64;
                    let mut value = self.expand(x, depth + 1);
                    self.pop();
                    if k == "description" {
                        html_to_text(&mut value);
                    }
                    out.insert(k.clone(), value);
                }
                Value::Object(out)
            }
            Value::Array(a) => {
                if a.is_empty() {
                    return Value::Array(Vec::new());
                }
                if self.too_deep(depth) {
                    return Value::Object(Map::new());
                }
                if self.over_budget() {
                    return Value::Array(Vec::new());
                }
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    self.push_index(i);
                    if !out.is_empty() && self.over_budget() {
                        self.pop();
                        break;
                    }
                    out.push(self.expand(x, depth + 1));
                    self.pop();
                }
                Value::Array(out)
            }
            Value::String(s) => {
                if s.len() > self.max_text {
                    let max = self.max_text;
                    let len = s.len();
                    self.note(DiagnosticKind::TextTruncated, || {
                        format!("string of {len} bytes cut to the text limit of {max} bytes")
                    });
                    let cut = crate::common::floor_char_boundary(s, max);
                    self.nodes += cut / 64;
                    return Value::String(s[..cut].to_owned());
                }
                self.nodes += s.len() / 64;
                v.clone()
            }
            other => other.clone(),
        }
    }

    fn expand_ref(&mut self, o: &'a Map<String, Value>, r: &'a str, depth: usize) -> Value {
        if self.over_budget() {
            return Value::Object(Map::new());
        }
        let Some(target) = self.target(r, "kept as written") else {
            if self.stack.contains(&r) || self.stack.len() >= self.max_depth {
                return Value::Object(Map::new());
            }
            // External or missing: keep as written (bounded, the node was in the document).
            return self.copy_siblings(o, depth, true);
        };
        self.stack.push(r);
        let saved = self.jump(r);
        let mut out = self.expand(target, depth);
        (self.loc, self.base) = saved;
        self.stack.pop();
        if o.len() > 1
            && let (Value::Object(out), Value::Object(extra)) =
                (&mut out, self.copy_siblings(o, depth, false))
        {
            out.extend(extra);
        }
        out
    }

    /// The members of a `$ref` object other than `$ref` (or all of them), expanded.
    fn copy_siblings(&mut self, o: &'a Map<String, Value>, depth: usize, with_ref: bool) -> Value {
        let mut out = Map::with_capacity(o.len());
        for (k, x) in o {
            if k == "$ref" {
                if with_ref {
                    out.insert(k.clone(), x.clone());
                }
                continue;
            }
            self.push_key(k);
            if self.over_budget() {
                self.pop();
                break;
            }
            self.nodes += k.len() / 64;
            let value = self.expand(x, depth + 1);
            self.pop();
            out.insert(k.clone(), value);
        }
        Value::Object(out)
    }

    /// Collects the top-level properties of an object schema, through `$ref`, `allOf` (merged)
    /// and `oneOf`/`anyOf` (unioned; a property is required only if every alternative
    /// requires it). Earlier properties win.
    pub(crate) fn flatten(&mut self, v: &'a Value, depth: usize, flat: &mut Flat) {
        if depth >= self.max_depth {
            let max = self.max_depth;
            self.note(DiagnosticKind::SchemaTooDeep, || {
                format!("schema nested deeper than {max} levels; the deeper part ignored")
            });
            return;
        }
        let Some((target, saved)) = self.deref(v) else {
            return;
        };
        if let Value::Object(o) = target {
            self.flatten_object(o, depth, flat);
        }
        self.leave(saved);
    }

    fn flatten_object(&mut self, o: &'a Map<String, Value>, depth: usize, flat: &mut Flat) {
        if o.get("type").and_then(Value::as_str) == Some("object") {
            flat.objectish = true;
        }
        if let Some(extra) = o.get("additionalProperties")
            && extra != &Value::Bool(false)
        {
            flat.open = true;
        }
        if let Some(Value::Object(props)) = o.get("properties") {
            flat.objectish = true;
            self.push_key("properties");
            for (k, x) in props {
                if flat.properties.contains_key(k) {
                    continue;
                }
                // A body's properties are copied into every tool that refers to it: each
                // counts, and the copying stops with the budget.
                self.push_key(k);
                if self.over_budget() {
                    self.pop();
                    break;
                }
                if k.len() > self.max_text {
                    let at = self.pointer();
                    self.drop_for_key(&at, k.len());
                    self.pop();
                    continue;
                }
                self.nodes += k.len() / 64;
                let value = self.expand(x, depth + 1);
                self.pop();
                flat.properties.insert(k.clone(), value);
            }
            self.pop();
        }
        if let Some(Value::Array(required)) = o.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !flat.required.contains(name) {
                    flat.required.insert(name.to_owned());
                }
            }
        }
        if let Some(Value::Array(parts)) = o.get("allOf") {
            self.push_key("allOf");
            for (i, part) in parts.iter().enumerate() {
                self.push_index(i);
                self.flatten(part, depth + 1, flat);
                self.pop();
            }
            self.pop();
        }
        for key in ["oneOf", "anyOf"] {
            let Some(Value::Array(alternatives)) = o.get(key) else {
                continue;
            };
            if alternatives.is_empty() {
                continue;
            }
            self.push_key(key);
            let mut common: Option<IndexSet<String>> = None;
            for (i, alternative) in alternatives.iter().enumerate() {
                let mut alt = Flat::default();
                self.push_index(i);
                self.flatten(alternative, depth + 1, &mut alt);
                self.pop();
                flat.objectish |= alt.objectish;
                flat.open |= alt.open;
                for (k, x) in alt.properties {
                    flat.properties.entry(k).or_insert(x);
                }
                common = Some(match common {
                    None => alt.required,
                    Some(c) => c.into_iter().filter(|r| alt.required.contains(r)).collect(),
                });
            }
            for name in common.unwrap_or_default() {
                flat.required.insert(name);
            }
            self.pop();
        }
    }
}

/// The size of a document in budget units: one per value, plus one per 64 bytes of each
/// string and each key. Iterative, so no nesting depth can exhaust the stack.
fn size_in_nodes(root: &Value) -> usize {
    let mut size = 0usize;
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        size += 1;
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    size += k.len() / 64;
                    stack.push(x);
                }
            }
            Value::Array(a) => stack.extend(a),
            Value::String(s) => size += s.len() / 64,
            _ => {}
        }
    }
    size
}

/// A description string with its HTML markup made text.
pub(crate) fn html_to_text(value: &mut Value) {
    if let Value::String(d) = value
        && let Some(text) = crate::html::to_text(d)
    {
        *d = text;
    }
}

/// The pointer part of a local reference (`#/a/b` gives `/a/b`).
fn fragment(r: &str) -> &str {
    r.strip_prefix('#').unwrap_or(r)
}

/// Resolves a local reference (`#/components/schemas/Pet`, percent-encoding allowed).
pub(crate) fn lookup<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    let pointer = fragment(r);
    if pointer.contains('%') {
        root.pointer(&percent_decode(pointer))
    } else {
        root.pointer(pointer)
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                #[allow(clippy::cast_possible_truncation)] // Two hex digits fit in a byte.
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
