//! Reading documents: size and UTF-8 checks, then JSON (serde_json's tokenizer, values built
//! here) or YAML (granit-parser's events, built in [`crate::yaml`]) into one
//! [`serde_json::Value`], with [`Notes`] on what the reader had to decide: parts nested too
//! deep to read (cut, so the adapters can drop the tool that holds them) and duplicate keys.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::diagnostic::push_token;
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;

/// The nesting limit of both formats: a container nested deeper than this is not read; it
/// becomes `null` and a [`NoteKind::TooDeep`] note names it.
pub(crate) const MAX_NESTING: usize = 128;

/// At most this many duplicate-key notes are kept per document; the rest are counted.
const MAX_DUPLICATE_NOTES: usize = 1000;

/// At most this many too-deep notes keep their full pointer; later ones keep their first
/// [`SHORT_POINTER_TOKENS`] tokens, enough to tell which tool or component they are in.
const MAX_FULL_CUT_NOTES: usize = 100;
const SHORT_POINTER_TOKENS: usize = 16;

/// What a reader note is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoteKind {
    /// A key appeared more than once in one object (or mapping); the last value was kept.
    DuplicateKey,
    /// A container nested deeper than [`MAX_NESTING`] was not read; `null` stands in its place.
    TooDeep,
}

/// One thing the reader decided, at an RFC 6901 pointer.
#[derive(Debug, Clone)]
pub(crate) struct Note {
    pub(crate) kind: NoteKind,
    pub(crate) pointer: String,
    pub(crate) message: String,
}

/// The reader's notes on one document, in document order.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    pub(crate) list: Vec<Note>,
    /// Duplicate keys past [`MAX_DUPLICATE_NOTES`], counted only.
    pub(crate) more_duplicates: usize,
    cuts: usize,
    duplicates: usize,
}

impl Notes {
    pub(crate) fn duplicate(&mut self, pointer: impl FnOnce() -> String, key: &str) {
        self.duplicates += 1;
        if self.duplicates > MAX_DUPLICATE_NOTES {
            self.more_duplicates += 1;
            return;
        }
        let pointer = pointer();
        // The earlier value is replaced: what was noted inside it no longer exists.
        self.list.retain(|n| !is_under(&n.pointer, &pointer));
        let shown = crate::diagnostic::quote_clipped(key);
        self.list.push(Note {
            kind: NoteKind::DuplicateKey,
            message: format!("key {shown} appears more than once; the last one is kept"),
            pointer,
        });
    }

    pub(crate) fn too_deep(&mut self, tokens: &[Token<'_>]) {
        self.cuts += 1;
        let short = self.cuts > MAX_FULL_CUT_NOTES && tokens.len() > SHORT_POINTER_TOKENS;
        let shown = if short { &tokens[..SHORT_POINTER_TOKENS] } else { tokens };
        self.list.push(Note {
            kind: NoteKind::TooDeep,
            pointer: pointer_of(shown),
            message: format!("nested deeper than {MAX_NESTING} levels; not read"),
        });
    }
}

/// One step of a position in the document.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Token<'a> {
    Key(&'a str),
    Index(usize),
}

/// Joins tokens into an RFC 6901 pointer.
pub(crate) fn pointer_of(tokens: &[Token<'_>]) -> String {
    let mut out = String::new();
    for token in tokens {
        match token {
            Token::Key(k) => out = push_token(&out, k),
            Token::Index(i) => {
                out.push('/');
                out.push_str(&i.to_string());
            }
        }
    }
    out
}

/// Whether `pointer` is `base` or inside it.
pub(crate) fn is_under(pointer: &str, base: &str) -> bool {
    pointer.strip_prefix(base).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A parsed document and the reader's notes.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) value: Value,
    pub(crate) notes: Notes,
}

/// Parses a catalog document into a JSON value, as the loaders do before reading tools: JSON
/// when its first non-blank character is `{` or `[`, else YAML (1.2 core schema, only
/// `true`/`false` as booleans, last duplicate key wins, `<<` merges, aliases expanded under a
/// budget, non-string keys as their text, `.inf`/`.nan` as strings). A leading BOM is skipped.
/// In both formats a duplicate key keeps its last value (in the place of its first), and a
/// container nested deeper than 128 levels becomes `null`; the loaders report both, and drop
/// the tool that held a part too deep to read.
///
/// # Errors
///
/// [`ErrorKind::TooLarge`] past `limits.max_document_bytes`, [`ErrorKind::NotUtf8`],
/// [`ErrorKind::Json`] or [`ErrorKind::Yaml`] with
/// the line and column of the problem (alias bombs included).
pub fn parse_document(bytes: &[u8], limits: &Limits) -> Result<Value, Error> {
    parse(bytes, limits).map(|parsed| parsed.value)
}

/// Whether a document holds nothing but a BOM and white space (or YAML comments).
pub(crate) fn is_blank(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.split(|&b| b == b'\n').all(|line| {
        let line = line.trim_ascii_start();
        line.is_empty() || line.starts_with(b"#")
    })
}

/// [`parse_document`] with the reader's notes.
pub(crate) fn parse(bytes: &[u8], limits: &Limits) -> Result<Parsed, Error> {
    if bytes.len() > limits.max_document_bytes {
        return Err(Error::new(
            ErrorKind::TooLarge,
            format!("{} bytes, more than the limit of {}", bytes.len(), limits.max_document_bytes),
        ));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = bytes.iter().copied().find(|b| !b.is_ascii_whitespace());
    if matches!(first, Some(b'{' | b'[')) { parse_json(bytes) } else { parse_yaml(bytes) }
}

fn parse_json(bytes: &[u8]) -> Result<Parsed, Error> {
    let notes = RefCell::new(Notes::default());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // Nesting is limited by `Seed` below, which cuts deep parts instead of failing.
    de.disable_recursion_limit();
    let root = Path { parent: None, token: None, depth: 0 };
    let value = Seed { path: &root, notes: &notes }
        .deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value))
        .map_err(|e| {
            let line = e.line() as u64;
            let column = e.column() as u64;
            let message = plain_json_message(&strip_position(&e.to_string()));
            Error::new(ErrorKind::Json, message).at(line, column)
        })?;
    Ok(Parsed { value, notes: notes.into_inner() })
}

/// A position while building a JSON value: a linked list on the stack, so nothing is
/// allocated unless a note needs the pointer.
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    token: Option<Token<'a>>,
    depth: usize,
}

impl Path<'_> {
    fn tokens(&self) -> Vec<Token<'_>> {
        let mut out = Vec::with_capacity(self.depth);
        let mut at = Some(self);
        while let Some(path) = at {
            out.extend(path.token);
            at = path.parent;
        }
        out.reverse();
        out
    }
}

/// Builds one JSON value, noting duplicate keys and cutting containers nested too deep.
struct Seed<'p, 'n> {
    path: &'p Path<'p>,
    notes: &'n RefCell<Notes>,
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        if self.path.depth >= MAX_NESTING {
            // serde_json skips ignored values without recursion.
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            self.notes.borrow_mut().too_deep(&self.path.tokens());
            return Ok(Value::Null);
        }
        let mut out = Vec::new();
        loop {
            let child = Path {
                parent: Some(self.path),
                token: Some(Token::Index(out.len())),
                depth: self.path.depth + 1,
            };
            match seq.next_element_seed(Seed { path: &child, notes: self.notes })? {
                Some(value) => out.push(value),
                None => break,
            }
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        if self.path.depth >= MAX_NESTING {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            self.notes.borrow_mut().too_deep(&self.path.tokens());
            return Ok(Value::Null);
        }
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let child = Path {
                parent: Some(self.path),
                token: Some(Token::Key(&key)),
                depth: self.path.depth + 1,
            };
            if out.contains_key(&key) {
                self.notes.borrow_mut().duplicate(|| pointer_of(&child.tokens()), &key);
            }
            let value = map.next_value_seed(Seed { path: &child, notes: self.notes })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

fn parse_yaml(bytes: &[u8]) -> Result<Parsed, Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(bytes, e.valid_up_to());
        Error::new(
            ErrorKind::NotUtf8,
            format!("byte {} is not part of a valid utf-8 character", e.valid_up_to()),
        )
        .at(line, column)
    })?;
    crate::yaml::parse(text, MAX_NESTING)
        .map(|(value, notes)| Parsed { value, notes })
        .map_err(|e| Error::new(ErrorKind::Yaml, e.message).at(e.line, e.column))
}

/// serde_json's messages, in plain words where its own are terse or name Rust's terms.
fn plain_json_message(message: &str) -> String {
    let plain = match message {
        "EOF while parsing a list" => "the file ends inside a list (a `]` is missing)",
        "EOF while parsing an object" => "the file ends inside an object (a `}` is missing)",
        "EOF while parsing a string" => "the file ends inside a string (a closing `\"` is missing)",
        "EOF while parsing a value" => "the file ends where a value was expected",
        "expected `:`" => "expected `:` after the key",
        "expected `,` or `]`" => "expected `,` or `]` after a list item",
        "expected `,` or `}`" => "expected `,` or `}` after an object member",
        "expected ident" => "expected `true`, `false` or `null`",
        "expected value" => {
            "expected a value (an object, list, string, number, true, false or null)"
        }
        "invalid escape" => "invalid escape sequence in a string",
        "invalid number" => "invalid number",
        "number out of range" => "number out of range (too large for a 64-bit float)",
        "invalid unicode code point" => {
            "a string holds bytes that are not valid utf-8 or a \\u escape that is not a character"
        }
        "key must be a string" => "an object key must be a string",
        "lone leading surrogate in hex escape" | "unexpected end of hex escape" => {
            "a \\u escape is cut short, or is half of a surrogate pair without the other half"
        }
        "trailing comma" => "a comma before a closing `]` or `}` (trailing commas are not json)",
        "trailing characters" => "more text after the end of the json document",
        "recursion limit exceeded" => "nested too deep to read",
        _ if message.starts_with("control character") => {
            "a control character (U+0000 to U+001F) inside a string must be escaped"
        }
        _ => return message.to_owned(),
    };
    plain.to_owned()
}

/// serde_json appends " at line L column C"; the position is reported separately. Only such a
/// suffix is removed: a position inside the message is kept whole.
fn strip_position(message: &str) -> String {
    let Some(i) = message.rfind(" at line ") else { return message.to_owned() };
    let tail = &message[i + " at line ".len()..];
    let (line, rest) =
        tail.split_at(tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len()));
    let column = rest.strip_prefix(" column ").or_else(|| rest.strip_prefix(", column "));
    let is_position = !line.is_empty()
        && column.is_some_and(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()));
    if is_position { message[..i].to_owned() } else { message.to_owned() }
}

/// The 1-based line and column of a byte offset.
fn line_column(bytes: &[u8], offset: usize) -> (u64, u64) {
    let head = &bytes[..offset.min(bytes.len())];
    let line = head.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = head.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line as u64, column as u64)
}
