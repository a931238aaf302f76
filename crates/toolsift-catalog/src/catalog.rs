//! [`Catalog`]: an insertion-ordered set of servers, with model-facing names assigned and an
//! O(1) reverse lookup.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::Value;

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
/// first keeps the plain name (this only happens with [`NameScheme::Bare`] and custom schemes:
/// under the other schemes distinct servers have distinct server segments). Replacing a server's tools
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
    /// Per server: the names its naming looked at without taking them (candidates that were
    /// taken or reserved, suffixed names that were taken).
    probed: Vec<Vec<String>>,
    /// The servers other than the changed one that the last change renamed.
    renamed: Vec<String>,
    /// Per tool of the server the last change replaced: where the same tool was before.
    kept: Vec<Option<usize>>,
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
            probed: Vec::new(),
            renamed: Vec::new(),
            kept: Vec::new(),
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

    /// Bumped by every change (add, replace, remove; not by a replacement with the same tools).
    /// Starts at 0.
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
    /// position). Bumps the epoch, unless the server was there already with the same kind and
    /// tools (after the normalization below): then nothing changes, as after an MCP
    /// `notifications/tools/list_changed` whose `tools/list` lists the same tools, and
    /// [`last_renamed`](Catalog::last_renamed) is empty.
    ///
    /// Every tool's `id.server` is set to the server's name
    /// ([`ServerMismatch`](DiagnosticKind::ServerMismatch) when it differed), a second tool
    /// with the same name is skipped ([`DuplicateName`](DiagnosticKind::DuplicateName)), and
    /// the naming diagnostics of this server's tools are returned with those.
    ///
    /// ```
    /// use toolsift_catalog::{Catalog, Server, Tool, ToolId, ToolKind};
    /// let server = || {
    ///     let tool = Tool::new(ToolId::new("github", "create_issue"), ToolKind::Mcp);
    ///     Server::new("github", ToolKind::Mcp, vec![tool])
    /// };
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(server());
    /// assert_eq!(catalog.epoch(), 1);
    /// // The same tools again: nothing changes.
    /// catalog.add_server(server());
    /// assert_eq!(catalog.epoch(), 1);
    /// ```
    pub fn add_server(&mut self, server: Server) -> Vec<Diagnostic> {
        let (server, mut diagnostics) = normalize(server);
        // Which tools the server had already, equal in everything, and where.
        // `alike`: the server's position when it was there with as many tools of the same kind.
        // `named`: whether its tools have the names and kinds they had, in the same order.
        let (kept, alike, named) = match self.servers.get_full(&server.name) {
            Some((index, _, old)) => {
                let by_id = self.by_id.get(index);
                let position = |tool: &Tool| by_id.and_then(|ids| ids.get(&tool.id.name)).copied();
                let kept = (server.tools.iter())
                    .map(|tool| {
                        position(tool)
                            .filter(|&j| old.tools.get(j).is_some_and(|o| same_tool(o, tool)))
                    })
                    .collect();
                let alike = old.kind == server.kind && old.tools.len() == server.tools.len();
                let named = old.tools.len() == server.tools.len()
                    && (old.tools.iter().zip(&server.tools))
                        .all(|(o, t)| o.id.name == t.id.name && o.kind == t.kind);
                (kept, alike.then_some(index), named)
            }
            None => (Vec::new(), None, false),
        };
        self.kept = kept;
        // Every tool where it was: the same server.
        if let Some(index) = alike
            && self.kept.iter().enumerate().all(|(i, &k)| k == Some(i))
        {
            // The same tools have the same names, and so the same naming diagnostics.
            self.renamed.clear();
            let (from, to) = diagnostics_range(&self.naming_start, self.naming.len(), index);
            diagnostics.extend(self.naming.get(from..to).unwrap_or_default().iter().cloned());
            return diagnostics;
        }
        let name = server.name.clone();
        let (index, _) = self.servers.insert_full(name, server);
        if named {
            // Naming reads only the tools' ids and kinds, in order (and the servers before,
            // which did not change): every name, probe and naming diagnostic stays as it is,
            // in this server and in every later one. The usual update (descriptions and
            // schemas revised) takes this path.
            self.epoch = self.epoch.wrapping_add(1);
            self.renamed.clear();
        } else {
            self.changed(index, None);
        }
        let (from, to) = diagnostics_range(&self.naming_start, self.naming.len(), index);
        diagnostics.extend(self.naming.get(from..to).unwrap_or_default().iter().cloned());
        diagnostics
    }

    /// Replaces a server's tools (MCP `notifications/tools/list_changed`), keeping its kind and
    /// position. Bumps the epoch, unless the tools are the ones the server has (see
    /// [`Catalog::add_server`]). Returns diagnostics as [`Catalog::add_server`] does.
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
        self.kept.clear();
        let names = if index < self.names.len() { self.names.remove(index) } else { Vec::new() };
        self.changed(index, Some(names));
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

    /// The servers whose model-facing names the last change (an add, replace or remove)
    /// moved, other than the server it added, replaced or removed, in catalog order.
    ///
    /// Names change only through collisions, so this is usually empty. A host that keeps the
    /// names elsewhere (a search index with names as exact keys) updates these servers and
    /// the changed one, and nothing else.
    ///
    /// ```
    /// use toolsift_catalog::{Catalog, NameScheme, Server, Tool, ToolId, ToolKind};
    /// let tool = |server: &str| Tool::new(ToolId::new(server, "search"), ToolKind::Mcp);
    /// let mut catalog = Catalog::builder().scheme(NameScheme::Bare).build();
    /// catalog.add_server(Server::new("a", ToolKind::Mcp, vec![tool("a")]));
    /// catalog.add_server(Server::new("b", ToolKind::Mcp, vec![tool("b")]));
    /// assert_ne!(catalog.model_name(&ToolId::new("b", "search")), Some("search"));
    /// // Removing `a` frees the plain name, and `b` takes it.
    /// catalog.remove_server("a");
    /// assert_eq!(catalog.last_renamed(), ["b"]);
    /// assert_eq!(catalog.model_name(&ToolId::new("b", "search")), Some("search"));
    /// ```
    #[must_use]
    pub fn last_renamed(&self) -> &[String] {
        &self.renamed
    }

    /// For each tool of the server the last [`add_server`](Catalog::add_server) or
    /// [`replace_tools`](Catalog::replace_tools) gave tools, in order: the position the same
    /// tool (equal in everything, after normalization) had in that server before, if it had
    /// one. Empty for a server that was not there before, and after a removal.
    ///
    /// What an index of the catalog needs to update only the tools that changed: the others
    /// keep their text, though their position, and their model-facing name (see
    /// [`Catalog::model_name`]), may have changed.
    ///
    /// ```
    /// use toolsift_catalog::{Catalog, Server, Tool, ToolId, ToolKind};
    /// let tool = |name: &str| Tool::new(ToolId::new("gh", name), ToolKind::Mcp);
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(Server::new("gh", ToolKind::Mcp, vec![tool("a"), tool("b")]));
    /// let new = vec![tool("c"), tool("b").with_description("Changed."), tool("a")];
    /// catalog.replace_tools("gh", new)?;
    /// assert_eq!(catalog.last_kept(), [None, None, Some(0)]);
    /// # Ok::<(), toolsift_catalog::Error>(())
    /// ```
    #[must_use]
    pub fn last_kept(&self) -> &[Option<usize>] {
        &self.kept
    }

    /// Brings the names up to date after server `index` was added or replaced (`removed` is
    /// `None`), or after the server at `index` was removed (`removed` holds its names).
    ///
    /// Names are a function of the servers in order, and the naming of a server depends only
    /// on whether, and by which tool, the names it looked at (its candidates and the suffixed
    /// names it tried) were taken when it was visited. So the servers before `index` keep their
    /// names, and a later server is named again only when a name it looked at changed owner:
    /// one of its own names was taken by a renamed earlier server, or one of the other names
    /// it looked at (kept in `probed`) is among the old or new names of a renamed earlier
    /// server. Everything else keeps its names, which are then exactly the names a fresh
    /// naming would give.
    fn changed(&mut self, index: usize, removed: Option<Vec<String>>) {
        self.epoch = self.epoch.wrapping_add(1);
        self.renamed.clear();
        let reserved: HashSet<&str> = self.config.reserved.iter().map(String::as_str).collect();
        // Names whose owner may differ from the one they had when later servers were named;
        // only collected when some later server looked at names it did not take.
        let track = self.probed.iter().skip(index).any(|p| !p.is_empty());
        let mut moved: HashSet<String> = HashSet::new();
        let mut dirty = vec![false; self.servers.len()];
        let was_removal = removed.is_some();
        let mut state = Naming {
            by_name: &mut self.by_name,
            reserved: &reserved,
            scheme: self.config.scheme,
            moved: &mut moved,
            track,
            dirty: &mut dirty,
        };
        if let Some(old) = removed {
            for (ti, name) in old.iter().enumerate() {
                if state.by_name.get(name) == Some(&(index, ti)) {
                    state.by_name.remove(name);
                }
            }
            if track {
                state.moved.extend(old);
            }
            let (from, to) = diagnostics_range(&self.naming_start, self.naming.len(), index);
            // Parallel to the servers, so `index` is in range of each.
            if index < self.naming_start.len() {
                self.probed.remove(index);
                self.by_id.remove(index);
                self.naming.drain(from..to);
                self.naming_start.remove(index);
            }
            for start in self.naming_start.iter_mut().skip(index) {
                *start -= to - from;
            }
            // The servers after the removed one move up by one.
            for (si, names) in self.names.iter().enumerate().skip(index) {
                for (ti, name) in names.iter().enumerate() {
                    if let Some(owner) = state.by_name.get_mut(name)
                        && *owner == (si + 1, ti)
                    {
                        *owner = (si, ti);
                    }
                }
            }
        } else {
            let server = &self.servers[index];
            let mut ids = HashMap::with_capacity(server.tools.len());
            for (ti, tool) in server.tools.iter().enumerate() {
                ids.entry(tool.id.name.clone()).or_insert(ti);
            }
            if index == self.names.len() {
                self.names.push(Vec::new());
                self.probed.push(Vec::new());
                self.by_id.push(ids);
                self.naming_start.push(self.naming.len());
            } else {
                self.by_id[index] = ids;
            }
            state.dirty[index] = true;
        }
        for si in index..self.servers.len() {
            let needed = state.dirty[si]
                || (state.track && self.probed[si].iter().any(|n| state.moved.contains(n)));
            if !needed {
                continue;
            }
            let old = std::mem::take(&mut self.names[si]);
            let (names, probed, diagnostics) = state.rename(&self.servers, si, &old);
            let (from, to) = diagnostics_range(&self.naming_start, self.naming.len(), si);
            let grown = diagnostics.len();
            self.naming.splice(from..to, diagnostics);
            for start in self.naming_start.iter_mut().skip(si + 1) {
                *start = *start + grown - (to - from);
            }
            if (was_removal || si != index) && names != old {
                self.renamed.push(self.servers[si].name.clone());
            }
            self.names[si] = names;
            self.probed[si] = probed;
        }
    }
}
/// Where server `si`'s naming diagnostics are in the flat list.
fn diagnostics_range(starts: &[usize], len: usize, si: usize) -> (usize, usize) {
    let from = starts.get(si).copied().unwrap_or(len);
    (from, starts.get(si + 1).copied().unwrap_or(len).max(from))
}

/// The state one naming pass of [`Catalog::changed`] works on.
struct Naming<'a> {
    /// Every current name to its owner (server index, tool index). Entries of servers after
    /// the one being named may be stale (they are named again later in the pass, or keep
    /// their names), so only owners up to the current server count as taken.
    by_name: &'a mut HashMap<String, (usize, usize)>,
    reserved: &'a HashSet<&'a str>,
    scheme: NameScheme,
    /// Names whose owner changed in this pass (old and new names of renamed servers).
    moved: &'a mut HashSet<String>,
    /// Whether `moved` is kept (some later server looked at names it did not take).
    track: bool,
    /// Later servers that must be named again: a name of theirs was taken.
    dirty: &'a mut [bool],
}

/// A server's names (by tool index), the names it looked at without taking them, and its
/// naming diagnostics.
type Named = (Vec<String>, Vec<String>, Vec<Diagnostic>);

impl Naming<'_> {
    /// The owner of `name` if a tool visited before one of server `si`'s took it.
    fn taken(&self, name: &str, si: usize) -> Option<(usize, usize)> {
        self.by_name.get(name).copied().filter(|&(owner, _)| owner <= si)
    }

    /// Names server `si` as a fresh naming of every server up to it would.
    fn rename(&mut self, servers: &IndexMap<String, Server>, si: usize, old: &[String]) -> Named {
        for (ti, name) in old.iter().enumerate() {
            if self.by_name.get(name) == Some(&(si, ti)) {
                self.by_name.remove(name);
            }
        }
        if self.track {
            self.moved.extend(old.iter().cloned());
        }
        let Some((_, server)) = servers.get_index(si) else {
            return (Vec::new(), Vec::new(), Vec::new());
        };
        let candidates: Vec<(String, bool)> =
            server.tools.iter().map(|t| self.scheme.candidate(&t.id, t.kind)).collect();
        let mut assigned = vec![String::new(); server.tools.len()];
        let mut probed = Vec::new();
        let mut diagnostics = Vec::new();
        let order = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.1)
            .chain(candidates.iter().enumerate().filter(|(_, c)| !c.1));
        for (ti, (candidate, _)) in order {
            let tool = &server.tools[ti];
            let name = if self.reserved.contains(candidate.as_str()) {
                let name = self.free_name(candidate, tool, si, &mut probed);
                probed.push(candidate.clone());
                diagnostics.push(Diagnostic::new(
                    DiagnosticKind::ReservedName,
                    &server.name,
                    Some(&tool.id.name),
                    "",
                    format!("model-facing name {candidate:?} is reserved; named {name:?}"),
                ));
                name
            } else if let Some((osi, oti)) = self.taken(candidate, si) {
                let name = self.free_name(candidate, tool, si, &mut probed);
                probed.push(candidate.clone());
                let other = servers
                    .get_index(osi)
                    .and_then(|(_, s)| s.tools.get(oti))
                    .map_or_else(String::new, |t| t.id.to_string());
                diagnostics.push(Diagnostic::new(
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
            if let Some(&(owner, _)) = self.by_name.get(&name)
                && owner > si
                && let Some(flag) = self.dirty.get_mut(owner)
            {
                *flag = true;
            }
            self.by_name.insert(name.clone(), (si, ti));
            assigned[ti] = name;
        }
        if self.track {
            self.moved.extend(assigned.iter().cloned());
        }
        (assigned, probed, diagnostics)
    }

    /// The first of `candidate + _hash(salt)` for salt 0, 1, … that is neither taken nor
    /// reserved; the names tried before it go to `probed`.
    fn free_name(
        &self,
        candidate: &str,
        tool: &Tool,
        si: usize,
        probed: &mut Vec<String>,
    ) -> String {
        let mut salt = 0u32;
        loop {
            let name = with_suffix(candidate, identity_hash(&tool.id, tool.kind, salt));
            if name != candidate
                && self.taken(&name, si).is_none()
                && !self.reserved.contains(name.as_str())
            {
                return name;
            }
            probed.push(name);
            // Each salt gives an independent hash; at most `taken.len() + reserved.len() + 1`
            // salts can fail, so this ends.
            salt = salt.wrapping_add(1);
        }
    }
}

/// Whether two tools are the same in everything, the order of their schemas' object keys
/// included: that order is what listings and answers show. (`Tool`'s `==` holds objects with
/// the same entries equal in any order, and looks each key up by hash.)
fn same_tool(a: &Tool, b: &Tool) -> bool {
    let values = |x: &Option<Value>, y: &Option<Value>| match (x, y) {
        (Some(x), Some(y)) => same_value(x, y),
        (x, y) => x.is_none() && y.is_none(),
    };
    // Every field, by name: a field added to `Tool` does not compile here until it is compared.
    let Tool {
        id,
        kind,
        title,
        description,
        input_schema,
        output_schema,
        annotations,
        meta,
        openapi,
    } = a;
    *id == b.id
        && *kind == b.kind
        && *title == b.title
        && *description == b.description
        && *openapi == b.openapi
        && same_value(input_schema, &b.input_schema)
        && values(output_schema, &b.output_schema)
        && values(annotations, &b.annotations)
        && values(meta, &b.meta)
}

/// Whether two JSON values are equal with their objects' keys in the same order.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
        }
        _ => a == b,
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
