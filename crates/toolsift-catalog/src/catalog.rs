//! [`Catalog`]: an insertion-ordered set of servers, with model-facing names assigned and an
//! O(1) reverse lookup.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use crate::diagnostic::{Diagnostic, DiagnosticKind, quote_clipped};
use crate::error::{Error, ErrorKind};
use crate::model::{Server, Tool, ToolId};
use crate::names::{NameScheme, identity_hash, with_suffix};

/// The bridge tools' names, reserved by default.
pub const DEFAULT_RESERVED_NAMES: [&str; 3] = ["tool_search", "tool_describe", "tool_call"];

/// An insertion-ordered set of servers and their tools, with a model-facing name for every
/// tool.
///
/// # Naming rules
///
/// Names are a pure function of the servers (in insertion order) and the [`NameScheme`]:
///
/// 1. The scheme's raw name is sanitized and shortened (see [`NameScheme`]); this candidate
///    depends only on the tool's kind, server and name.
/// 2. Servers are visited in insertion order. Within a server, tools whose candidate needed no
///    change (the raw name was already valid) are visited first, then the others, each group
///    in source order.
/// 3. A tool takes its candidate unless it is reserved or taken by a tool visited earlier. In
///    that case it takes the candidate (cut to 55 bytes) plus `_` and the 8-hex-digit FNV-1a
///    hash of its (kind, server, name), re-salted in the astronomically rare case that this is
///    taken too, and a [`ReservedName`](DiagnosticKind::ReservedName) or
///    [`NameCollision`](DiagnosticKind::NameCollision) diagnostic is recorded.
///
/// Consequences: a tool is never dropped for its name; names do not depend on the process or
/// on hash order; adding, replacing or removing a server never changes the names of servers
/// whose candidates collide with none of its candidates. Across servers, the server added
/// first keeps the plain name (this only happens with [`NameScheme::Bare`], with custom
/// schemes, or when two server names sanitize to the same word). Replacing a server's tools
/// keeps its position, and so its priority.
///
/// ```
/// use toolsift_catalog::{Catalog, Server, Tool, ToolId, ToolKind};
/// let mut catalog = Catalog::new();
/// let tool = Tool::new(ToolId::new("github", "create_issue"), ToolKind::Mcp);
/// let diagnostics = catalog.add_server(Server::new("github", ToolKind::Mcp, vec![tool]));
/// assert!(diagnostics.is_empty());
/// let id = ToolId::new("github", "create_issue");
/// assert_eq!(catalog.model_name(&id), Some("mcp__github__create_issue"));
/// let found = catalog.tool_by_model_name("mcp__github__create_issue").map(|t| &t.id);
/// assert_eq!(found, Some(&id));
/// assert_eq!(catalog.epoch(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Catalog {
    config: Config,
    servers: IndexMap<String, Server>,
    epoch: u64,
    /// Model-facing names, parallel to `servers` and their tools.
    names: Vec<Vec<String>>,
    /// Model-facing name to (server index, tool index). Only looked up, never iterated.
    by_name: HashMap<String, (usize, usize)>,
    /// Per server: original tool name to tool index. Only looked up, never iterated.
    by_id: Vec<HashMap<String, usize>>,
    /// Naming diagnostics in server order; `naming_start[i]` is where server `i`'s begin.
    naming: Vec<Diagnostic>,
    naming_start: Vec<usize>,
}

#[derive(Debug, Clone)]
struct Config {
    scheme: NameScheme,
    reserved: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            scheme: NameScheme::default(),
            reserved: DEFAULT_RESERVED_NAMES.iter().map(|s| (*s).to_owned()).collect(),
        }
    }
}

/// Configures a [`Catalog`]: the [`NameScheme`] and the reserved names. Frozen once built.
///
/// ```
/// use toolsift_catalog::{Catalog, NameScheme};
/// let catalog = Catalog::builder()
///     .scheme(NameScheme::ClaudeCode)
///     .reserved_names(["search_tools", "call_tool"])
///     .build();
/// assert_eq!(catalog.reserved_names(), ["search_tools", "call_tool"]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct CatalogBuilder {
    config: Config,
}

impl CatalogBuilder {
    /// A builder with the default scheme and reserved names.
    #[must_use]
    pub fn new() -> CatalogBuilder {
        CatalogBuilder::default()
    }

    /// Sets the naming scheme (default [`NameScheme::Kind`]).
    #[must_use]
    pub fn scheme(mut self, scheme: NameScheme) -> CatalogBuilder {
        self.config.scheme = scheme;
        self
    }

    /// Replaces the reserved model-facing names (default [`DEFAULT_RESERVED_NAMES`]).
    #[must_use]
    pub fn reserved_names<I, S>(mut self, names: I) -> CatalogBuilder
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.config.reserved = names.into_iter().map(Into::into).collect();
        self
    }

    /// Builds an empty catalog with this configuration.
    #[must_use]
    pub fn build(self) -> Catalog {
        Catalog {
            config: self.config,
            servers: IndexMap::new(),
            epoch: 0,
            names: Vec::new(),
            by_name: HashMap::new(),
            by_id: Vec::new(),
            naming: Vec::new(),
            naming_start: Vec::new(),
        }
    }
}

impl Default for Catalog {
    fn default() -> Catalog {
        Catalog::new()
    }
}

impl Catalog {
    /// An empty catalog with the default [`NameScheme`] and [`DEFAULT_RESERVED_NAMES`].
    #[must_use]
    pub fn new() -> Catalog {
        CatalogBuilder::new().build()
    }

    /// A builder to choose the naming scheme and reserved names.
    #[must_use]
    pub fn builder() -> CatalogBuilder {
        CatalogBuilder::new()
    }

    /// The naming scheme.
    #[must_use]
    pub fn scheme(&self) -> NameScheme {
        self.config.scheme
    }

    /// The reserved model-facing names.
    #[must_use]
    pub fn reserved_names(&self) -> &[String] {
        &self.config.reserved
    }

    /// Servers in insertion order.
    pub fn servers(&self) -> impl ExactSizeIterator<Item = &Server> {
        self.servers.values()
    }

    /// The server with this name.
    #[must_use]
    pub fn server(&self, name: &str) -> Option<&Server> {
        self.servers.get(name)
    }

    /// Bumped by every change (add, replace, remove). Starts at 0.
    #[must_use]
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The number of tools in all servers.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether the catalog has no tools.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Adds a server, or replaces the tools of the server with that name (keeping its
    /// position). Bumps the epoch.
    ///
    /// Every tool's `id.server` is set to the server's name
    /// ([`ServerMismatch`](DiagnosticKind::ServerMismatch) when it differed), a second tool
    /// with the same name is skipped ([`DuplicateName`](DiagnosticKind::DuplicateName)), and
    /// the naming diagnostics of this server's tools are returned with those.
    pub fn add_server(&mut self, server: Server) -> Vec<Diagnostic> {
        let (server, mut diagnostics) = normalize(server);
        let name = server.name.clone();
        let (index, _) = self.servers.insert_full(name, server);
        self.changed(index);
        let end = self.naming_start.get(index + 1).copied().unwrap_or(self.naming.len());
        diagnostics.extend(self.naming[self.naming_start[index]..end].iter().cloned());
        diagnostics
    }

    /// Replaces a server's tools (MCP `notifications/tools/list_changed`), keeping its kind and
    /// position. Bumps the epoch. Returns diagnostics as [`Catalog::add_server`] does.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownServer`] if no server has this name.
    pub fn replace_tools(
        &mut self,
        server: &str,
        tools: Vec<Tool>,
    ) -> Result<Vec<Diagnostic>, Error> {
        let Some(existing) = self.servers.get(server) else {
            return Err(Error::new(ErrorKind::UnknownServer, format!("{server:?}")));
        };
        let replacement = Server::new(server, existing.kind, tools);
        Ok(self.add_server(replacement))
    }

    /// Removes a server and returns it. Bumps the epoch when there was one.
    pub fn remove_server(&mut self, name: &str) -> Option<Server> {
        let (index, _, removed) = self.servers.shift_remove_full(name)?;
        self.changed(index);
        Some(removed)
    }

    /// The tool with this id.
    #[must_use]
    pub fn tool(&self, id: &ToolId) -> Option<&Tool> {
        let (si, _, server) = self.servers.get_full(&id.server)?;
        let ti = *self.by_id.get(si)?.get(&id.name)?;
        server.tools.get(ti)
    }

    /// The model-facing name of the tool with this id.
    #[must_use]
    pub fn model_name(&self, id: &ToolId) -> Option<&str> {
        let si = self.servers.get_index_of(&id.server)?;
        let ti = *self.by_id.get(si)?.get(&id.name)?;
        self.names.get(si)?.get(ti).map(String::as_str)
    }

    /// The tool a model-facing name belongs to, in O(1).
    #[must_use]
    pub fn tool_by_model_name(&self, name: &str) -> Option<&Tool> {
        let &(si, ti) = self.by_name.get(name)?;
        self.servers.get_index(si)?.1.tools.get(ti)
    }

    /// Every tool with its model-facing name: servers in insertion order, tools in source
    /// order.
    pub fn tools(&self) -> impl Iterator<Item = (&str, &Tool)> {
        self.servers
            .values()
            .zip(&self.names)
            .flat_map(|(server, names)| names.iter().map(String::as_str).zip(&server.tools))
    }

    /// The naming diagnostics ([`ReservedName`](DiagnosticKind::ReservedName),
    /// [`NameCollision`](DiagnosticKind::NameCollision)) of the current state, in server and
    /// visiting order.
    #[must_use]
    pub fn naming_diagnostics(&self) -> &[Diagnostic] {
        &self.naming
    }

    /// Re-derives the names of the servers from `start` on. Names are a function of the
    /// servers in order, so the servers before `start` keep theirs: adding a server at the end
    /// names only that server.
    fn changed(&mut self, start: usize) {
        self.epoch = self.epoch.wrapping_add(1);
        let start = start.min(self.names.len());
        for names in self.names.drain(start..) {
            for name in names {
                self.by_name.remove(&name);
            }
        }
        self.by_id.truncate(start);
        if let Some(&cut) = self.naming_start.get(start) {
            self.naming.truncate(cut);
        }
        self.naming_start.truncate(start);
        let reserved: HashSet<&str> = self.config.reserved.iter().map(String::as_str).collect();
        for (si, (_, server)) in self.servers.iter().enumerate().skip(start) {
            let candidates: Vec<(String, bool)> =
                server.tools.iter().map(|t| self.config.scheme.candidate(&t.id, t.kind)).collect();
            self.naming_start.push(self.naming.len());
            let mut assigned = vec![String::new(); server.tools.len()];
            let order = candidates
                .iter()
                .enumerate()
                .filter(|(_, c)| c.1)
                .chain(candidates.iter().enumerate().filter(|(_, c)| !c.1));
            for (ti, (candidate, _)) in order {
                let tool = &server.tools[ti];
                let taken_by = self.by_name.get(candidate).copied();
                let name = if reserved.contains(candidate.as_str()) {
                    let name = free_name(candidate, tool, &self.by_name, &reserved);
                    self.naming.push(Diagnostic::new(
                        DiagnosticKind::ReservedName,
                        &server.name,
                        Some(&tool.id.name),
                        "",
                        format!("model-facing name {candidate:?} is reserved; named {name:?}"),
                    ));
                    name
                } else if let Some((osi, oti)) = taken_by {
                    let name = free_name(candidate, tool, &self.by_name, &reserved);
                    let other = self
                        .servers
                        .get_index(osi)
                        .and_then(|(_, s)| s.tools.get(oti))
                        .map_or_else(String::new, |t| t.id.to_string());
                    self.naming.push(Diagnostic::new(
                        DiagnosticKind::NameCollision,
                        &server.name,
                        Some(&tool.id.name),
                        "",
                        format!(
                            "model-facing name {candidate:?} is taken by {}; named {name:?}",
                            quote_clipped(&other)
                        ),
                    ));
                    name
                } else {
                    candidate.clone()
                };
                self.by_name.insert(name.clone(), (si, ti));
                assigned[ti] = name;
            }
            let mut index = HashMap::with_capacity(server.tools.len());
            for (ti, tool) in server.tools.iter().enumerate() {
                index.entry(tool.id.name.clone()).or_insert(ti);
            }
            self.names.push(assigned);
            self.by_id.push(index);
        }
    }
}

/// The first of `candidate + _hash(salt)` for salt 0, 1, … that is neither taken nor reserved.
fn free_name(
    candidate: &str,
    tool: &Tool,
    taken: &HashMap<String, (usize, usize)>,
    reserved: &HashSet<&str>,
) -> String {
    let mut salt = 0u32;
    loop {
        let name = with_suffix(candidate, identity_hash(&tool.id, tool.kind, salt));
        if name != candidate && !taken.contains_key(&name) && !reserved.contains(name.as_str()) {
            return name;
        }
        // Each salt gives an independent hash; at most `taken.len() + reserved.len() + 1`
        // salts can fail, so this ends.
        salt = salt.wrapping_add(1);
    }
}

/// Sets every tool's server to the server's name and drops later duplicates.
fn normalize(mut server: Server) -> (Server, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut seen: HashSet<String> = HashSet::with_capacity(server.tools.len());
    let tools = std::mem::take(&mut server.tools);
    let mut kept = Vec::with_capacity(tools.len());
    for mut tool in tools {
        if tool.id.server != server.name {
            diagnostics.push(Diagnostic::new(
                DiagnosticKind::ServerMismatch,
                &server.name,
                Some(&tool.id.name),
                "",
                format!(
                    "tool id named server {}; set to {}",
                    quote_clipped(&tool.id.server),
                    quote_clipped(&server.name)
                ),
            ));
            tool.id.server.clone_from(&server.name);
        }
        if seen.insert(tool.id.name.clone()) {
            kept.push(tool);
        } else {
            diagnostics.push(Diagnostic::new(
                DiagnosticKind::DuplicateName,
                &server.name,
                Some(&tool.id.name),
                "",
                "a tool with this name is already in the server; skipped",
            ));
        }
    }
    server.tools = kept;
    (server, diagnostics)
}
