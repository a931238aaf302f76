//! Shared helpers: real catalogs from the tuning set, small catalogs, and a listing parser
//! written independently of the renderer.

use std::path::PathBuf;

use toolsift_catalog::{Catalog, Server, Tool, ToolId, ToolKind, load_file};
use toolsift_listing::Form;

/// The folder of the real catalogs.
pub(crate) fn catalogs_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs"))
}

/// Loads real catalogs (`"mcp/github.json"`) as servers named after the file stem.
pub(crate) fn real_catalog(files: &[&str]) -> Catalog {
    let mut catalog = Catalog::new();
    for file in files {
        let path = catalogs_dir().join(file);
        let kind = match file.split('/').next() {
            Some("openapi") => ToolKind::OpenApi,
            Some("plugin") => ToolKind::Plugin,
            _ => ToolKind::Mcp,
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        let loaded = load_file(&path, kind, &stem)
            .unwrap_or_else(|e| panic!("loading {}: {e}", path.display()));
        catalog.add_server(loaded.server);
    }
    catalog
}

/// Every catalog file of the tuning set (`mcp/…`, `openapi/…`, `plugin/…`), sorted.
pub(crate) fn all_catalog_files() -> Vec<String> {
    let mut files = Vec::new();
    for kind in ["mcp", "openapi", "plugin"] {
        let dir = catalogs_dir().join(kind);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let name = entry.map(|e| e.file_name()).unwrap_or_default();
            files.push(format!("{kind}/{}", name.to_string_lossy()));
        }
    }
    files.sort();
    files
}

/// A server of MCP tools given as `(name, description)` pairs.
pub(crate) fn server(name: &str, tools: &[(&str, &str)]) -> Server {
    let tools = tools
        .iter()
        .map(|(tool, description)| {
            let mut t = Tool::new(ToolId::new(name, *tool), ToolKind::Mcp);
            t.description = (*description).to_owned();
            t
        })
        .collect();
    Server::new(name, ToolKind::Mcp, tools)
}

/// A catalog of the given servers, added in order.
pub(crate) fn catalog(servers: Vec<Server>) -> Catalog {
    let mut catalog = Catalog::new();
    for s in servers {
        catalog.add_server(s);
    }
    catalog
}

/// One parsed listing line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// `## name (N tools[, names only| — search to see them])`.
    Header { server: String, tools: usize, form: Form },
    /// `- name[: description]`.
    Tool { name: String, description: Option<String> },
    /// `## N [more ]servers (M tools — search to see them)`.
    Trailer { servers: usize, tools: usize },
}

/// Parses one line (without its `\n`); `None` if it is neither a header, a tool line nor the
/// trailer.
pub(crate) fn parse_line(line: &str) -> Option<Line> {
    if let Some(rest) = line.strip_prefix("## ") {
        return parse_header(rest).or_else(|| parse_trailer(rest));
    }
    let rest = line.strip_prefix("- ")?;
    let (name, description) = match rest.split_once(' ') {
        None => (rest, None),
        Some((token, description)) => (token.strip_suffix(':')?, Some(description.to_owned())),
    };
    if name.is_empty() || description.as_deref() == Some("") {
        return None;
    }
    Some(Line::Tool { name: name.to_owned(), description })
}

fn parse_header(rest: &str) -> Option<Line> {
    let (server, rest) = rest.split_once(' ')?;
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    let (count, rest) = inner.split_once(' ')?;
    let tools: usize = count.parse().ok()?;
    let noun = if tools == 1 { "tool" } else { "tools" };
    let them = if tools == 1 { "it" } else { "them" };
    let form = match rest.strip_prefix(noun)? {
        "" => Form::Full,
        ", names only" => Form::NamesOnly,
        s if s == format!(" — search to see {them}") => Form::Summary,
        _ => return None,
    };
    if server.is_empty() {
        return None;
    }
    Some(Line::Header { server: server.to_owned(), tools, form })
}

fn parse_trailer(rest: &str) -> Option<Line> {
    let (count, rest) = rest.split_once(' ')?;
    let servers: usize = count.parse().ok()?;
    let rest = rest.strip_prefix("more ").unwrap_or(rest);
    let rest = rest.strip_prefix(if servers == 1 { "server (" } else { "servers (" })?;
    let inner = rest.strip_suffix(')')?;
    let (count, rest) = inner.split_once(' ')?;
    let tools: usize = count.parse().ok()?;
    let expected =
        if tools == 1 { "tool — search to see it" } else { "tools — search to see them" };
    (rest == expected).then_some(Line::Trailer { servers, tools })
}

/// Parses a whole listing; `Err` names the first line that does not parse or is out of place.
pub(crate) fn parse_listing(text: &str) -> Result<Vec<Line>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let body = text.strip_suffix('\n').ok_or("the listing does not end with a line break")?;
    let mut lines = Vec::new();
    let mut trailer_seen = false;
    let mut in_block = false;
    for (i, line) in body.split('\n').enumerate() {
        let parsed =
            parse_line(line).ok_or_else(|| format!("line {i} does not parse: {line:?}"))?;
        if trailer_seen {
            return Err(format!("line {i} follows the trailer: {line:?}"));
        }
        match &parsed {
            Line::Header { .. } => in_block = true,
            Line::Tool { .. } if !in_block => return Err(format!("line {i} has no header")),
            Line::Tool { .. } => {}
            Line::Trailer { .. } => trailer_seen = true,
        }
        lines.push(parsed);
    }
    Ok(lines)
}

/// The `\n`-terminated block of each server in a listing, by the server name its header shows.
pub(crate) fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        match parse_line(line.trim_end_matches('\n')) {
            Some(Line::Header { server, .. }) => out.push((server, line.to_owned())),
            Some(Line::Trailer { .. }) => out.push(("<trailer>".to_owned(), line.to_owned())),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.1.push_str(line);
                }
            }
        }
    }
    out
}
