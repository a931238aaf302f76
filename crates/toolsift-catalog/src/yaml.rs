//! Reading YAML into [`serde_json::Value`] straight from granit-parser's events (the parser
//! serde-saphyr is built on), resolved as serde-saphyr resolves untyped values (the tests
//! compare both on every YAML catalog, a table of snippets and random text): the YAML 1.2
//! core schema with strict booleans (`y`, `no`, `on` stay strings), non-finite floats as their
//! canonical text, `<<` merge keys, anchors and aliases, and lenient keys. YAML allows keys
//! that JSON does not (`null`, `true`, `1.5`, even sequences), and OpenAPI documents in the
//! wild use some of them; such keys become strings (`"null"`, `"true"`, `"1.5"`, or the key's
//! JSON text) instead of failing the whole document.
//!
//! Three rules are this reader's own, for hostile input:
//!
//! - A container nested deeper than the limit becomes `null` with a note, read past without
//!   recursion, so the tool that holds it is dropped alone; an alias counts at the depth where
//!   it is used.
//! - Anchors and aliases are bounded in bytes, counted as [`NODE_BYTES`] per value plus its
//!   text: aliases may add at most 16 MiB plus the document's size, and anchors copy as much.
//! - A repeated key is noted with its pointer and keeps the place of its first occurrence and
//!   the value of its last, as in JSON; `<<` adds, after the explicit keys, the merged keys the
//!   mapping does not set itself (an earlier merge source wins).
//!
//! # Why not serde-saphyr's deserializer
//!
//! serde-saphyr with a lenient-key visitor reads the same values (it is the tests' reference),
//! and with `DuplicateKeyPolicy::PassThrough` the visitor could note duplicates and count the
//! bytes aliases add (its own `Budget` counts replayed events, and retained anchor bytes without
//! borrowed text). What it cannot do, measured on serde-saphyr 2.2 with such a visitor:
//!
//! - **Drop a too-deep part alone.** A serde visitor takes a call frame per level, and
//!   serde-saphyr skips an ignored value through `deserialize_any` too: about 2.3 KiB of stack
//!   per level, so 4,000 levels abort the process on an 8 MiB stack. `Budget::max_depth`
//!   fails the whole document instead, in Rust's words ("budget breached: Depth { depth:
//!   1001 }" for 10,000 levels under a limit of 1,000).
//! - **Parse at this cost.** The two Okta documents (2.7 MB) take 182 ms through it against
//!   92 ms here (medians of 7, side by side): ingest of the 70 catalogs would stay under its
//!   300 ms target, with 90 ms less to spare.

use std::borrow::Cow;

use base64::Engine as _;
use granit_parser::{Event, Parser, ScalarStyle, Span, StrInput, Tag};
use serde_json::{Map, Number, Value};

use crate::parse::{Notes, Token};

/// The core-schema tag namespace (`!!` resolves to it).
const YAML_TAGS: &str = "tag:yaml.org,2002:";

/// All anchors of a document may copy, and all its aliases add, at most this many bytes plus
/// the document's own size (two budgets): a few aliases can stand for a huge anchored string,
/// and nested anchors copy their contents once per level.
const ALIAS_BYTES_FLOOR: u64 = 16 * 1024 * 1024;

/// What one built value costs beyond its text, about: a `Value`, or an object entry.
const NODE_BYTES: u64 = 32;

/// A YAML error: a message without position, and the 1-based line and column of the problem.
#[derive(Debug)]
pub(crate) struct YamlError {
    pub(crate) message: String,
    pub(crate) line: u64,
    pub(crate) column: u64,
}

impl YamlError {
    fn at(message: impl Into<String>, span: &Span) -> YamlError {
        YamlError {
            message: message.into(),
            line: span.start.line() as u64,
            column: span.start.col() as u64 + 1,
        }
    }
}

/// Parses one YAML document into a [`Value`]; containers nested deeper than `max_nesting`
/// (aliases included) become `null` with a [`NoteKind::TooDeep`](crate::parse::NoteKind)
/// note, and duplicate keys are noted.
pub(crate) fn parse(text: &str, max_nesting: usize) -> Result<(Value, Notes), YamlError> {
    // The parser keeps its nesting on the heap; the builder cuts at `max_nesting` itself, so
    // the parser's own limits (255) are lifted to read past a part that is too deep.
    let options = granit_parser::options! {
        emit_comments: false,
        flow_nesting_limit: usize::MAX,
        block_nesting_limit: usize::MAX,
    };
    let mut builder = Builder {
        parser: Parser::new_from_str_with_options(text, options),
        anchors: Vec::new(),
        items: Vec::new(),
        entries: Vec::new(),
        recorded_bytes: 0,
        replayed_bytes: 0,
        max_alias_bytes: ALIAS_BYTES_FLOOR.saturating_add(text.len() as u64),
        max_nesting,
        path: Vec::new(),
        notes: Notes::default(),
    };
    let value = builder.document()?;
    Ok((value, builder.notes))
}

/// One step of the current position, owned (YAML keys are built, not borrowed).
enum Step {
    Key(String),
    Index(usize),
}

/// `path` as JSON-pointer tokens.
fn path_tokens(path: &[Step]) -> Vec<Token<'_>> {
    path.iter()
        .map(|step| match step {
            Step::Key(k) => Token::Key(k),
            Step::Index(i) => Token::Index(*i),
        })
        .collect()
}

/// A built node with the measures aliases need.
#[derive(Clone)]
struct Node {
    value: Value,
    /// How deep the value nests (0 for a scalar).
    height: usize,
    /// What the value costs, as counted against the alias byte budget.
    bytes: u64,
}

impl Node {
    /// The `null` that stands for a part nested too deep to read.
    fn cut() -> Node {
        Node { value: Value::Null, height: 0, bytes: NODE_BYTES }
    }
}

/// What an anchored node leaves for its aliases: a copy, or `None` when the node was nested
/// too deep to read (its aliases are cut too).
type Anchor = Option<Node>;

struct Builder<'a> {
    parser: Parser<'a, StrInput<'a>>,
    /// Anchored nodes by anchor id (granit numbers them from 1 within the stream).
    anchors: Vec<Option<Anchor>>,
    /// The items of the open sequences, innermost last.
    items: Vec<Value>,
    /// The explicit entries of the open mappings, innermost last.
    entries: Vec<(String, Value)>,
    recorded_bytes: u64,
    replayed_bytes: u64,
    max_alias_bytes: u64,
    max_nesting: usize,
    /// The position of the node being built.
    path: Vec<Step>,
    notes: Notes,
}

type Spanned<'a> = (Event<'a>, Span);

impl<'a> Builder<'a> {
    fn next(&mut self) -> Result<Spanned<'a>, YamlError> {
        match self.parser.next() {
            Some(Ok(event)) => Ok(event),
            Some(Err(e)) => Err(scan_error(&e)),
            // The parser ends every stream with `StreamEnd`, after which `document` stops.
            None => {
                Err(YamlError { message: "unexpected end of input".to_owned(), line: 1, column: 1 })
            }
        }
    }

    fn document(&mut self) -> Result<Value, YamlError> {
        let mut value = None;
        loop {
            let (event, span) = self.next()?;
            match event {
                Event::StreamStart | Event::DocumentEnd => {}
                Event::StreamEnd => break,
                Event::DocumentStart(..) => {
                    let (event, span) = self.next()?;
                    if value.is_some() {
                        return Err(YamlError::at(
                            "multiple YAML documents detected; only one is read",
                            &span,
                        ));
                    }
                    value = Some(self.node(event, span, 0)?.value);
                }
                _ => return Err(unexpected(&span)),
            }
        }
        Ok(value.unwrap_or(Value::Null))
    }

    /// Builds the node that starts with `event`, at container depth `depth`.
    fn node(&mut self, event: Event<'a>, span: Span, depth: usize) -> Result<Node, YamlError> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let value = scalar(text, style, tag.as_deref(), &span)?;
                let bytes = NODE_BYTES + value.as_str().map_or(0, |s| s.len() as u64);
                self.finish(Node { value, height: 0, bytes }, anchor, &span)
            }
            Event::SequenceStart(_, anchor, tag) => {
                check_collection_tag(tag.as_deref(), false, &span)?;
                let Some(depth) = self.enter(depth) else { return self.skip(anchor) };
                let node = self.sequence(depth, None)?;
                self.finish(node, anchor, &span)
            }
            Event::MappingStart(_, anchor, tag) => {
                check_collection_tag(tag.as_deref(), true, &span)?;
                let Some(depth) = self.enter(depth) else { return self.skip(anchor) };
                let node = self.mapping(depth)?;
                self.finish(node, anchor, &span)
            }
            Event::Alias(id) => self.alias(id, depth, &span),
            _ => Err(unexpected(&span)),
        }
    }

    /// Builds a sequence after its start event; `spans`, when given, receives the span of
    /// each item.
    fn sequence(
        &mut self,
        depth: usize,
        mut spans: Option<&mut Vec<Span>>,
    ) -> Result<Node, YamlError> {
        let start = self.items.len();
        let (mut height, mut bytes) = (0, NODE_BYTES);
        loop {
            let (event, span) = self.next()?;
            if matches!(event, Event::SequenceEnd) {
                break;
            }
            if let Some(spans) = spans.as_deref_mut() {
                spans.push(span);
            }
            self.path.push(Step::Index(self.items.len() - start));
            let item = self.node(event, span, depth);
            self.path.pop();
            let item = item?;
            height = height.max(item.height);
            bytes = bytes.saturating_add(item.bytes);
            self.items.push(item.value);
        }
        // Items gather on one stack shared by all open sequences, so each array is allocated
        // once, at its exact size.
        let items: Vec<Value> = self.items.drain(start..).collect();
        Ok(Node { value: Value::Array(items), height: height + 1, bytes })
    }

    /// Builds the value of a `<<` key and appends the entries it merges; a bad item of a
    /// sequence is reported at the item.
    fn merge_value(
        &mut self,
        event: Event<'a>,
        span: Span,
        depth: usize,
        merges: &mut Vec<(String, Value)>,
    ) -> Result<Node, YamlError> {
        let Event::SequenceStart(_, anchor, tag) = event else {
            let node = self.node(event, span, depth)?;
            merge_entries(node.value.clone(), merges, &span)?;
            return Ok(node);
        };
        check_collection_tag(tag.as_deref(), false, &span)?;
        let Some(inner) = self.enter(depth) else { return self.skip(anchor) };
        let mut spans = Vec::new();
        let node = self.sequence(inner, Some(&mut spans))?;
        if let Value::Array(items) = &node.value {
            for (item, span) in items.iter().zip(&spans) {
                merge_entries(item.clone(), merges, span)?;
            }
        }
        self.finish(node, anchor, &span)
    }

    /// The depth inside a new container, or `None` when it is nested too deep to read.
    fn enter(&self, depth: usize) -> Option<usize> {
        let depth = depth + 1;
        (depth <= self.max_nesting).then_some(depth)
    }

    /// Skips the rest of a container nested too deep to read (its start event was just read),
    /// notes it, and leaves `null` in its place. Anchors inside it are known but cut.
    fn skip(&mut self, anchor: usize) -> Result<Node, YamlError> {
        self.set_anchor(anchor, None);
        let mut open = 1usize;
        while open > 0 {
            let (event, _) = self.next()?;
            match event {
                Event::SequenceStart(_, anchor, _) | Event::MappingStart(_, anchor, _) => {
                    open += 1;
                    self.set_anchor(anchor, None);
                }
                Event::Scalar(_, _, anchor, _) => self.set_anchor(anchor, None),
                Event::SequenceEnd | Event::MappingEnd => open -= 1,
                _ => {}
            }
        }
        self.note_cut();
        Ok(Node::cut())
    }

    fn set_anchor(&mut self, anchor: usize, node: Anchor) {
        if anchor == 0 {
            return;
        }
        if self.anchors.len() <= anchor {
            self.anchors.resize_with(anchor + 1, || None);
        }
        self.anchors[anchor] = Some(node);
    }

    fn note_cut(&mut self) {
        let tokens = path_tokens(&self.path);
        self.notes.too_deep(&tokens);
    }

    /// Records an anchored node for its aliases.
    #[inline]
    fn finish(&mut self, node: Node, anchor: usize, span: &Span) -> Result<Node, YamlError> {
        if anchor == 0 {
            return Ok(node);
        }
        self.record(node, anchor, span)
    }

    /// Keeps a copy of an anchored node, within the byte budget.
    #[inline(never)]
    fn record(&mut self, node: Node, anchor: usize, span: &Span) -> Result<Node, YamlError> {
        self.recorded_bytes = self.recorded_bytes.saturating_add(node.bytes);
        if self.recorded_bytes > self.max_alias_bytes {
            let max = self.max_alias_bytes;
            return Err(YamlError::at(
                format!(
                    "anchors would copy more than {max} bytes of the document; it is refused as \
                     an alias bomb"
                ),
                span,
            ));
        }
        self.set_anchor(anchor, Some(node.clone()));
        Ok(node)
    }

    fn alias(&mut self, id: usize, depth: usize, span: &Span) -> Result<Node, YamlError> {
        let Some(Some(anchor)) = self.anchors.get(id) else {
            return Err(YamlError::at("alias references unknown anchor", span));
        };
        let Some(node) = anchor.as_ref().filter(|n| depth + n.height <= self.max_nesting) else {
            self.note_cut();
            return Ok(Node::cut());
        };
        self.replayed_bytes = self.replayed_bytes.saturating_add(node.bytes);
        if self.replayed_bytes > self.max_alias_bytes {
            let max = self.max_alias_bytes;
            return Err(YamlError::at(
                format!(
                    "aliases would add more than {max} bytes to the document; it is refused as \
                     an alias bomb"
                ),
                span,
            ));
        }
        Ok(node.clone())
    }

    /// Builds a mapping after its start event: a repeated key keeps its first place and takes
    /// the last value (noted); merged entries come last, each only if the mapping has no such
    /// key yet.
    fn mapping(&mut self, depth: usize) -> Result<Node, YamlError> {
        let start = self.entries.len();
        let mut merges = Vec::new();
        let (mut height, mut bytes) = (0, NODE_BYTES);
        loop {
            let (event, span) = self.next()?;
            if matches!(event, Event::MappingEnd) {
                break;
            }
            let is_merge = matches!(
                &event,
                Event::Scalar(text, style, _, tag) if text == "<<" && match tag {
                    None => *style == ScalarStyle::Plain,
                    Some(tag) => tag.suffix_in_namespace(YAML_TAGS).is_some_and(|s| s == "merge"),
                }
            );
            let key = self.node(event, span, depth)?;
            let (event, span) = self.next()?;
            let text = if is_merge { "<<".to_owned() } else { key_text(key.value) };
            self.path.push(Step::Key(text));
            let value = if is_merge {
                self.merge_value(event, span, depth, &mut merges)
            } else {
                self.node(event, span, depth)
            };
            let Some(Step::Key(text)) = self.path.pop() else { return Err(unexpected(&span)) };
            let value = value?;
            height = height.max(key.height).max(value.height);
            if is_merge {
                bytes = bytes.saturating_add(value.bytes);
            } else {
                bytes = bytes.saturating_add(value.bytes + NODE_BYTES + text.len() as u64);
                self.entries.push((text, value.value));
            }
        }
        // Entries gather on one stack shared by all open mappings, so each map is allocated
        // once, at its size, without rehashing as it grows.
        let mut out = Map::with_capacity(self.entries.len() - start);
        for (key, value) in self.entries.drain(start..) {
            if out.contains_key(&key) {
                let mut tokens = path_tokens(&self.path);
                tokens.push(Token::Key(&key));
                self.notes.duplicate(|| crate::parse::pointer_of(&tokens), &key);
            }
            out.insert(key, value);
        }
        for (key, value) in merges {
            out.entry(key).or_insert(value);
        }
        Ok(Node { value: Value::Object(out), height: height + 1, bytes })
    }
}

/// The entries a `<<` value contributes: a mapping's own, a sequence's in order, none for null.
fn merge_entries(
    value: Value,
    out: &mut Vec<(String, Value)>,
    span: &Span,
) -> Result<(), YamlError> {
    match value {
        Value::Null => Ok(()),
        Value::Object(map) => {
            out.extend(map);
            Ok(())
        }
        Value::Array(items) => {
            items.into_iter().try_for_each(|item| merge_entries(item, out, span))
        }
        _ => Err(YamlError::at("a `<<` merge value must be a mapping or a list of mappings", span)),
    }
}

/// A key as text: strings as they are, `null` as "null", anything else as its JSON text.
fn key_text(value: Value) -> String {
    match value {
        Value::String(s) => s,
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

/// What a node's tag asks for, as serde-saphyr classifies tags.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TagClass {
    /// No tag, or a custom one: the node resolves as if untagged.
    Untyped,
    /// The non-specific `!`: a scalar stays a string; a collection is a collection.
    NonSpecific,
    Str,
    Null,
    Bool,
    Int,
    Float,
    /// `!!binary`: base64 text of UTF-8 bytes.
    Binary,
    /// `!!timestamp`, and `!!time`, `!!degrees`, `!!radians` (conversions serde-saphyr leaves
    /// to its `robotics` feature): not read.
    Unsupported,
    /// `!!merge`, `!!value`, `!!include`: scalars otherwise read as untagged.
    OtherScalar,
    Seq,
    Map,
}

fn tag_class(tag: &Tag) -> TagClass {
    if let Some(name) = tag.suffix_in_namespace(YAML_TAGS) {
        return match name.as_ref() {
            "merge" | "value" => TagClass::OtherScalar,
            name => named_class(name.strip_prefix('!').unwrap_or(name)),
        };
    }
    match tag.suffix_in_namespace("!").as_deref() {
        None => TagClass::Untyped,
        Some("" | "!") => TagClass::NonSpecific,
        Some("!timestamp") => TagClass::Unsupported,
        Some("!binary") => TagClass::Binary,
        // `!!!name` reads as a core tag only for the seven core names.
        Some(name) => match name.strip_prefix('!') {
            Some(core @ ("null" | "bool" | "int" | "float" | "map" | "seq" | "str")) => {
                named_class(core)
            }
            Some(_) => TagClass::Untyped,
            None => named_class(name),
        },
    }
}

fn named_class(name: &str) -> TagClass {
    match name {
        "str" => TagClass::Str,
        "null" => TagClass::Null,
        "bool" => TagClass::Bool,
        "int" => TagClass::Int,
        "float" => TagClass::Float,
        "map" => TagClass::Map,
        "seq" => TagClass::Seq,
        "binary" => TagClass::Binary,
        "timestamp" | "time" | "degrees" | "radians" => TagClass::Unsupported,
        "include" => TagClass::OtherScalar,
        _ => TagClass::Untyped,
    }
}

fn unsupported_tag(tag: &Tag, span: &Span) -> YamlError {
    YamlError::at(format!("unsupported tag `{}{}`", tag.original_handle(), tag.suffix()), span)
}

/// Checks a collection's tag against its kind: a scalar tag on a collection, `!!seq` on a
/// mapping and `!!map` on a sequence are errors; custom tags are ignored.
fn check_collection_tag(tag: Option<&Tag>, mapping: bool, span: &Span) -> Result<(), YamlError> {
    let Some(tag) = tag else { return Ok(()) };
    let wrong = match tag_class(tag) {
        TagClass::Untyped | TagClass::NonSpecific => false,
        TagClass::Seq => mapping,
        TagClass::Map => !mapping,
        _ => true,
    };
    if wrong { Err(unsupported_tag(tag, span)) } else { Ok(()) }
}

/// Resolves a scalar to a JSON value.
fn scalar(
    text: Cow<'_, str>,
    style: ScalarStyle,
    tag: Option<&Tag>,
    span: &Span,
) -> Result<Value, YamlError> {
    match tag.map_or(TagClass::Untyped, tag_class) {
        TagClass::Untyped | TagClass::OtherScalar if style == ScalarStyle::Plain => Ok(plain(text)),
        TagClass::Untyped | TagClass::OtherScalar | TagClass::NonSpecific | TagClass::Str => {
            Ok(Value::String(text.into_owned()))
        }
        TagClass::Null => Ok(Value::Null),
        TagClass::Bool => match typed(&text) {
            "true" | "True" | "TRUE" => Ok(Value::Bool(true)),
            "false" | "False" | "FALSE" => Ok(Value::Bool(false)),
            t => Err(not_a(t, "`!!bool` (true or false)", span)),
        },
        TagClass::Int => {
            let t = typed(&text);
            integer(t)
                .map(Value::Number)
                .ok_or_else(|| not_a(t, "`!!int` (64 bits, no leading zero)", span))
        }
        TagClass::Float => {
            let t = typed(&text);
            float(t).map(float_value).ok_or_else(|| not_a(t, "`!!float`", span))
        }
        TagClass::Binary => binary(&text, span).map(Value::String),
        TagClass::Unsupported | TagClass::Seq | TagClass::Map => {
            Err(tag.map_or_else(|| unexpected(span), |tag| unsupported_tag(tag, span)))
        }
    }
}

/// The text of a typed scalar: it may be quoted, and serde-saphyr trims the quoted padding.
fn typed(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\r', '\n'])
}

/// "`text` is not a `what`", for a typed scalar that is not of its type.
fn not_a(text: &str, what: &str, span: &Span) -> YamlError {
    YamlError::at(format!("{} is not a {what}", crate::diagnostic::quote_clipped(text)), span)
}

/// Decodes `!!binary` text: standard base64, white space ignored, bytes that are UTF-8.
fn binary(text: &str, span: &Span) -> Result<String, YamlError> {
    let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(clean)
        .map_err(|_| YamlError::at("`!!binary` text is not valid base64", span))?;
    String::from_utf8(bytes).map_err(|_| YamlError::at("`!!binary` data is not utf-8 text", span))
}

/// A finite float as a number; a non-finite one as its canonical YAML text.
fn float_value(v: f64) -> Value {
    Number::from_f64(v).map_or_else(
        || {
            let text = if v.is_nan() {
                ".nan"
            } else if v.is_sign_negative() {
                "-.inf"
            } else {
                ".inf"
            };
            Value::String(text.to_owned())
        },
        Value::Number,
    )
}

/// Resolves an untagged plain scalar: null, bool, int, float, else string. OpenAPI documents
/// are YAML 1.2: only `true`/`false` are booleans; YAML 1.1's `y`, `n`, `yes`, `no`, `on` and
/// `off` stay strings, so a parameter named `n` keeps its name.
fn plain(text: Cow<'_, str>) -> Value {
    match text.as_ref() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    // A number starts with a digit, a sign or a dot (Rust's own `inf` and `nan` stay strings);
    // a signed `.nan` and the upper-case radix prefixes `0X`, `0O`, `0B` stay strings too.
    if text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
        let unsigned = text.strip_prefix(['+', '-']).unwrap_or(&text);
        let signed_nan = unsigned.len() < text.len() && is_nan_text(unsigned);
        if !signed_nan && !matches!(unsigned.as_bytes(), [b'0', b'X' | b'O' | b'B', ..]) {
            if let Some(n) = integer(&text) {
                return Value::Number(n);
            }
            if let Some(v) = float(&text) {
                return float_value(v);
            }
        }
    }
    Value::String(text.into_owned())
}

fn is_nan_text(t: &str) -> bool {
    matches!(t, ".nan" | ".NaN" | ".NAN")
}

/// An integer as serde-saphyr reads one: an optional sign, a `0x`, `0o` or `0b` prefix, digits
/// with single `_` between them, and no leading zero in decimal (`012` is no integer; untagged
/// it reads as the float 12.0). `None` when it is not one or does not fit `i64`/`u64`.
fn integer(t: &str) -> Option<Number> {
    let (negative, unsigned) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (radix, digits) = match unsigned.get(..2) {
        Some("0x" | "0X") => (16, &unsigned[2..]),
        Some("0o" | "0O") => (8, &unsigned[2..]),
        Some("0b" | "0B") => (2, &unsigned[2..]),
        _ if unsigned.len() > 1 && unsigned.starts_with('0') => return None,
        _ => (10, unsigned),
    };
    let well_formed = !digits.starts_with('_') && !digits.ends_with('_') && !digits.contains("__");
    if !well_formed || !digits.bytes().all(|b| b == b'_' || char::from(b).is_digit(radix)) {
        return None;
    }
    let digits: Cow<'_, str> =
        if digits.contains('_') { digits.replace('_', "").into() } else { digits.into() };
    let magnitude = u64::from_str_radix(&digits, radix).ok()?;
    if negative {
        0i64.checked_sub_unsigned(magnitude).map(Number::from)
    } else {
        Some(Number::from(magnitude))
    }
}

/// A float as serde-saphyr reads one: `.inf` and `.nan` in YAML's spellings, else Rust's float
/// syntax when the value is finite or the literal is too large for `f64` (`1e999`).
fn float(t: &str) -> Option<f64> {
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if is_nan_text(unsigned) {
        return Some(f64::NAN);
    }
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(if t.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    let v: f64 = t.parse().ok()?;
    (v.is_finite() || unsigned.starts_with(|c: char| c.is_ascii_digit())).then_some(v)
}

/// An event the parser does not produce in that place.
fn unexpected(span: &Span) -> YamlError {
    YamlError::at("unexpected YAML event", span)
}

fn scan_error(e: &granit_parser::ScanError) -> YamlError {
    let marker = e.marker();
    let message = match e.kind() {
        granit_parser::ErrorKind::UnknownAnchor => "alias references unknown anchor".to_owned(),
        _ => e.info(),
    };
    YamlError { message, line: marker.line() as u64, column: marker.col() as u64 + 1 }
}
