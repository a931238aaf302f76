//! Reading documents: size and UTF-8 checks, then JSON (serde_json) or YAML (granit-parser's
//! events, built in [`crate::yaml`]) into one [`serde_json::Value`].

use serde_json::Value;

use crate::error::{Error, ErrorKind};
use crate::limits::Limits;

/// The YAML nesting limit, equal to serde_json's recursion limit so both formats agree.
const MAX_NESTING: usize = 128;

/// Parses a catalog document into a JSON value, as the loaders do before reading tools: JSON
/// when its first non-blank character is `{` or `[`, else YAML (1.2 core schema, only
/// `true`/`false` as booleans, last duplicate key wins, `<<` merges, aliases expanded under a
/// budget, non-string keys as their text, `.inf`/`.nan` as strings). A leading BOM is skipped.
///
/// # Errors
///
/// [`ErrorKind::TooLarge`] past `limits.max_document_bytes`, [`ErrorKind::NotUtf8`],
/// [`ErrorKind::Json`] or [`ErrorKind::Yaml`] with the line and column of the problem
/// (nesting deeper than 128 and alias bombs included).
pub fn parse_document(bytes: &[u8], limits: &Limits) -> Result<Value, Error> {
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

fn parse_json(bytes: &[u8]) -> Result<Value, Error> {
    serde_json::from_slice(bytes).map_err(|e| {
        let line = e.line() as u64;
        let column = e.column() as u64;
        let message = strip_position(&e.to_string());
        Error::new(ErrorKind::Json, message).at(line, column)
    })
}

fn parse_yaml(bytes: &[u8]) -> Result<Value, Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(bytes, e.valid_up_to());
        Error::new(ErrorKind::NotUtf8, format!("invalid utf-8 at byte {}", e.valid_up_to()))
            .at(line, column)
    })?;
    crate::yaml::parse(text, MAX_NESTING)
        .map_err(|e| Error::new(ErrorKind::Yaml, e.message).at(e.line, e.column))
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
