//! Model-facing names: [`NameScheme`], sanitization, shortening and the stable hash.
//!
//! A model-facing name always matches `^[a-zA-Z0-9_-]{1,64}$`, the strictest rule among the
//! model providers. The scheme composes a raw name from the tool's kind, server and name; each
//! segment is sanitized (every run of other characters becomes one `_`, and a run at the start
//! or end of a segment is dropped; a segment with nothing left becomes `tool`); a name longer
//! than 64 bytes keeps its first 55 bytes and gets `_` plus an 8-hex-digit FNV-1a hash of the
//! tool's identity. Collisions are resolved by the [`Catalog`](crate::Catalog).
//!
//! The server segment of [`NameScheme::Kind`] and [`NameScheme::ClaudeCode`] names is what a
//! host that splits names on `__` routes by, so it never contains `__`, never starts or ends
//! with `_`, is at most 32 bytes, and is the server's name itself only when that name already
//! is such a segment; any other server name gets its sanitized form (runs of `_` made one, cut
//! to 23 bytes) plus `_` and an 8-hex-digit hash of the name. So distinct servers get distinct
//! segments, and shortening a long name cuts only the tool part.

use crate::model::{ToolId, ToolKind};

/// The longest model-facing name, in bytes.
pub const MAX_NAME_LEN: usize = 64;

/// Bytes kept before a hash suffix (`_` + 8 hex digits) so the result fits in 64.
const KEEP_BEFORE_HASH: usize = MAX_NAME_LEN - 9;

/// How a [`Catalog`](crate::Catalog) turns a [`ToolId`] into the name a model sees.
///
/// Whatever the scheme produces is then sanitized to `^[a-zA-Z0-9_-]{1,64}$`, shortened with a
/// stable hash suffix if too long, and made unique.
///
/// ```
/// use toolsift_catalog::{NameScheme, ToolId, ToolKind};
/// let id = ToolId::new("github", "create_issue");
/// assert_eq!(NameScheme::Kind.raw_name(&id, ToolKind::Mcp), "mcp__github__create_issue");
/// assert_eq!(NameScheme::ClaudeCode.raw_name(&id, ToolKind::Plugin), "mcp__github__create_issue");
/// assert_eq!(NameScheme::Bare.raw_name(&id, ToolKind::Mcp), "create_issue");
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, Default)]
pub enum NameScheme {
    /// `<kind>__<server>__<tool>` with the kind words `mcp`, `openapi` and `plugin`
    /// (`mcp__github__create_issue`, `openapi__box__get_files_id`). The default.
    #[default]
    Kind,
    /// Claude Code's `mcp__<server>__<tool>`, for every kind.
    ClaudeCode,
    /// The tool's own name alone. Tools of different servers with the same name collide, and
    /// all but the first (in server order) get a hash suffix.
    Bare,
    /// Any function of the id and kind; its output is sanitized like the others.
    Custom(fn(&ToolId, ToolKind) -> String),
}

impl NameScheme {
    /// The name before sanitization, shortening and collision handling.
    #[must_use]
    pub fn raw_name(&self, id: &ToolId, kind: ToolKind) -> String {
        match self {
            NameScheme::Kind => format!("{}__{}__{}", kind.as_str(), id.server, id.name),
            NameScheme::ClaudeCode => format!("mcp__{}__{}", id.server, id.name),
            NameScheme::Bare => id.name.clone(),
            NameScheme::Custom(f) => f(id, kind),
        }
    }

    /// The name before collision handling: sanitized segment by segment and shortened. The
    /// flag is `true` when nothing had to be changed (the raw name was already valid).
    pub(crate) fn candidate(&self, id: &ToolId, kind: ToolKind) -> (String, bool) {
        let (mut name, lossless) = match self {
            NameScheme::Kind | NameScheme::ClaudeCode => {
                let word = if matches!(self, NameScheme::Kind) { kind.as_str() } else { "mcp" };
                let (server, server_ok) = server_segment(&id.server);
                let (tool, tool_ok) = segment(&id.name);
                let prefix = format!("{word}__{server}__");
                if prefix.len() + tool.len() > MAX_NAME_LEN {
                    // Only the tool part is cut, so the server segment stays whole.
                    let keep = MAX_NAME_LEN - prefix.len() - 9;
                    let hash = identity_hash(id, kind, 0);
                    return (format!("{prefix}{}_{hash:08x}", &tool[..keep]), false);
                }
                (format!("{prefix}{tool}"), server_ok && tool_ok)
            }
            NameScheme::Bare => segment(&id.name),
            NameScheme::Custom(f) => segment(&f(id, kind)),
        };
        if name.len() > MAX_NAME_LEN {
            name = with_suffix(&name, identity_hash(id, kind, 0));
            return (name, false);
        }
        (name, lossless)
    }
}

/// The longest server segment, in bytes.
const MAX_SERVER_SEGMENT: usize = 32;

/// The server segment of a name (see the module documentation): the server's name when it is
/// a plain segment, else its sanitized form plus the hash of the name. The flag is `true` for
/// the former.
pub(crate) fn server_segment(server: &str) -> (String, bool) {
    let plain = !server.is_empty()
        && server.len() <= MAX_SERVER_SEGMENT
        && server.bytes().all(is_name_byte)
        && !server.contains("__")
        && !server.starts_with('_')
        && !server.ends_with('_');
    if plain {
        return (server.to_owned(), true);
    }
    let (sanitized, _) = sanitize_segment(server);
    let mut out = String::with_capacity(MAX_SERVER_SEGMENT);
    for c in sanitized.chars() {
        if c == '_' && (out.is_empty() || out.ends_with('_')) {
            continue;
        }
        if out.len() >= MAX_SERVER_SEGMENT - 9 {
            break;
        }
        out.push(c);
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("server");
    }
    let mut h = Fnv1a::new();
    h.write(server.as_bytes());
    let v = h.finish();
    #[allow(clippy::cast_possible_truncation)] // Folding 64 bits into 32 on purpose.
    let folded = (v ^ (v >> 32)) as u32;
    (format!("{out}_{folded:08x}"), false)
}

/// A sanitized segment; one with nothing left (`创建`) becomes `tool`.
fn segment(raw: &str) -> (String, bool) {
    let (out, lossless) = sanitize_segment(raw);
    if out.is_empty() { ("tool".to_owned(), false) } else { (out, lossless) }
}

/// Whether `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
///
/// ```
/// use toolsift_catalog::is_valid_model_name;
/// assert!(is_valid_model_name("mcp__github__create_issue"));
/// assert!(!is_valid_model_name("GET /pets"));
/// assert!(!is_valid_model_name(""));
/// ```
#[must_use]
pub fn is_valid_model_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME_LEN && name.bytes().all(is_name_byte)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Replaces every run of characters outside `[a-zA-Z0-9_-]` with one `_`, dropping such runs at
/// either end. The flag is `true` when the input was already valid (and is returned as is).
pub(crate) fn sanitize_segment(raw: &str) -> (String, bool) {
    if !raw.is_empty() && raw.bytes().all(is_name_byte) {
        return (raw.to_owned(), true);
    }
    let mut out = String::with_capacity(raw.len().min(256));
    let mut pending = false;
    for c in raw.chars() {
        if c.is_ascii() && is_name_byte(c as u8) {
            if pending && !out.is_empty() {
                out.push('_');
            }
            pending = false;
            out.push(c);
        } else {
            pending = true;
        }
        // Nothing past the hash cut can survive, so stop early on huge names.
        if out.len() > 4 * MAX_NAME_LEN {
            break;
        }
    }
    (out, false)
}

/// `base` cut to 55 bytes, then `_` and the 8-hex-digit hash: at most 64 bytes.
pub(crate) fn with_suffix(base: &str, hash: u32) -> String {
    // `base` is sanitized, so it is ASCII and any byte index is a character boundary.
    let keep = base.len().min(KEEP_BEFORE_HASH);
    let head = base.get(..keep).unwrap_or("");
    format!("{head}_{hash:08x}")
}

/// FNV-1a (64-bit) over `kind \0 server \0 name [\0 salt]`, folded to 32 bits. Independent of
/// the process, the platform and the order of insertion.
pub(crate) fn identity_hash(id: &ToolId, kind: ToolKind, salt: u32) -> u32 {
    let mut h = Fnv1a::new();
    h.write(kind.as_str().as_bytes());
    h.write(&[0]);
    h.write(id.server.as_bytes());
    h.write(&[0]);
    h.write(id.name.as_bytes());
    if salt > 0 {
        h.write(&[0]);
        h.write(&salt.to_le_bytes());
    }
    let v = h.finish();
    // Fold so both halves influence the suffix; truncation is intentional.
    #[allow(clippy::cast_possible_truncation)] // Folding 64 bits into 32 on purpose.
    let folded = (v ^ (v >> 32)) as u32;
    folded
}

/// The 64-bit FNV-1a hash.
struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Fnv1a {
        Fnv1a(Fnv1a::OFFSET)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Fnv1a::PRIME);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests;
