//! [`ToolSearch`]: a [`Catalog`] and the BM25F index over it, kept in step.

use std::collections::BTreeMap;
use std::sync::Arc;

use toolsift_catalog::{Catalog, Diagnostic, Server, Tool, ToolId};
use toolsift_intent::{Intent, IntentBuilder, Judgement, ToolRef, Tools};
use toolsift_rank::{Config, DocId, Document, Explanation, Index, IndexBuilder};

use crate::engine::SearchEngine;
use crate::error::Error;
use crate::fields::{self, FieldConfig, ToolText, tool_text};
use crate::results::{Hit, HitTool, QueryText, SearchResults};

/// Configures a [`ToolSearch`]; the configuration is frozen by [`build`](Self::build).
///
/// # Example
///
/// ```
/// use toolsift::{Catalog, Index, ToolSearch, load_mcp};
///
/// let mut catalog = Catalog::new();
/// catalog.add_server(load_mcp(r#"[{"name": "get_time", "description": "Current time.",
///     "inputSchema": {"type": "object"}}]"#, "time")?.server);
/// // The tuned preset with one setting changed.
/// let search = ToolSearch::builder()
///     .index(Index::tuned().k1(1.5))
///     .max_enum_values(16)
///     .build(catalog)?;
/// assert_eq!(search.index_config().k1(), 1.5);
/// // The default ranking's lexicon knows that a clock tells the time.
/// assert_eq!(search.search("current clock", 1).hits()[0].name(), "mcp__time__get_time");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ToolSearchBuilder {
    index: IndexBuilder,
    fields: FieldConfig,
    /// The request rules and their factors.
    intent: IntentBuilder,
}

impl Default for ToolSearchBuilder {
    fn default() -> ToolSearchBuilder {
        ToolSearchBuilder {
            index: Index::tuned(),
            fields: FieldConfig::default(),
            intent: IntentBuilder::new(),
        }
    }
}

impl ToolSearchBuilder {
    /// A builder with the default ranking and field settings.
    pub fn new() -> ToolSearchBuilder {
        ToolSearchBuilder::default()
    }

    /// The ranking settings (fields and their weights, `k1`, `b`, related-word weights,
    /// abstention rules, analyzer, expander), as a [`toolsift_rank::IndexBuilder`]; they
    /// replace the tuned preset ([`Index::tuned`]) as a whole, so start from that preset to
    /// change one setting and keep the others.
    ///
    /// The index must keep the fields `name`, `summary` and `details` (the default ones) that
    /// tool text is mapped to; their weights may change.
    pub fn index(mut self, index: IndexBuilder) -> ToolSearchBuilder {
        self.index = index;
        self
    }

    /// A parameter's enum values are indexed only if it has at most `n` of them (default 32):
    /// short enums name actions (`get`, `get_diff`), long ones are data (time zones).
    pub fn max_enum_values(mut self, n: usize) -> ToolSearchBuilder {
        self.fields.max_enum_values = n;
        self
    }

    /// The services of the known-services rule, replacing [`DEFAULT_SERVICES`](crate::DEFAULT_SERVICES): one service
    /// per item, its aliases separated by spaces (`"mongodb mongo"`). A query that names a
    /// service as a whole word, while no tool's `name` field (server name, tool name, title)
    /// contains any of its aliases, gets no answer
    /// ([`Reason::MissingService`](crate::Reason::MissingService)); nor does a query
    /// that names a present service whose tools never match the query's most specific tool
    /// word or its verb, none of whose tools that do the kind of action asked says what the
    /// verb acts on, or whose tools never do that kind of action
    /// ([`Reason::NotOffered`](crate::Reason::NotOffered)). Aliases are single
    /// words, matched after analysis (case and diacritics ignored). With the list goes the
    /// errand rule: an everyday thing no tool's `name` field has (`order a pizza`, `book a
    /// flight`, `turn off the lights`, from the crate's `data/errands.txt`) gets no answer
    /// either, as a missing service, unless the query names a connected server, asks to read,
    /// names the thing only after `for`, `that` or `about`, or says where the thing is written
    /// (a calendar, a message, an address). An empty list turns all three rules off.
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(load_mcp(r#"[{"name": "create_pull_request",
    ///     "description": "Open a pull request.", "inputSchema": {"type": "object"}}]"#,
    ///     "github")?.server);
    /// let strict = ToolSearch::new(catalog.clone())?;
    /// assert!(strict.search("bitbucket open pull request", 5).is_empty());
    /// let lenient = ToolSearch::builder().known_services(Vec::<String>::new()).build(catalog)?;
    /// assert_eq!(lenient.search("bitbucket open pull request", 5).len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn known_services<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> ToolSearchBuilder {
        self.intent = self.intent.known_services(names);
        self
    }

    /// The factor (in `[0, 1]`; default [`DEFAULT_ACTION_MISMATCH`](crate::DEFAULT_ACTION_MISMATCH); 1 turns it off) that
    /// lowers the score of a hit whose tool does another kind of action than the query asks
    /// for: the tool deletes and the query asks for no deletion, or one only reads and the
    /// other only writes. Both must name an action: the query by a word of the intent
    /// lexicon's action groups ("show", "upload", "remove"), the tool by the first such word of
    /// its name or the first word of its summary ([`toolsift_text::Actions`]). The hits the
    /// index ranks best are then ordered by the lowered scores (score descending, then catalog
    /// order): a lowered hit moves down the page, it does not leave it. A tool whose name the
    /// query equals stays first and is never lowered; the rest of its page is reordered.
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(load_mcp(r#"[
    ///     {"name": "delete-drive-file", "description": "Delete a drive file.", "inputSchema": {"type": "object"}},
    ///     {"name": "put-drive-file", "description": "Upload a file to the drive.", "inputSchema": {"type": "object"}}
    /// ]"#, "drive")?.server);
    /// let search = ToolSearch::new(catalog.clone())?;
    /// let results = search.search("upload a drive file", 2);
    /// let [upload, delete] = results.hits() else { panic!("two hits") };
    /// assert_eq!((upload.name(), upload.demoted()), ("mcp__drive__put-drive-file", false));
    /// assert_eq!((delete.name(), delete.demoted()), ("mcp__drive__delete-drive-file", true));
    ///
    /// let off = ToolSearch::builder().action_mismatch(1.0).build(catalog)?;
    /// let plain = off.search("upload a drive file", 2);
    /// assert!(plain.hits().iter().all(|h| !h.demoted()));
    /// assert_eq!(delete.score(), plain.hits()[1].score() * search.action_mismatch());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn action_mismatch(mut self, factor: f32) -> ToolSearchBuilder {
        self.intent = self.intent.action_mismatch(factor);
        self
    }

    /// The factor (in `[0, 1]`; default [`DEFAULT_SERVICE_MISMATCH`](crate::DEFAULT_SERVICE_MISMATCH); 1 turns it off) that
    /// lowers the score of a hit whose tool belongs to another service than the query names,
    /// when the query names a connected service by a word of the known-services list
    /// ([`known_services`](Self::known_services); `github`, `jira`, `gitlab`): "approve this
    /// merge request in GitLab" moves GitHub's tools down. Like
    /// [`action_mismatch`](Self::action_mismatch) it reorders the page: the index's best
    /// `limit` hits are sorted again by the lowered scores (then catalog order). A tool whose
    /// name the query equals stays first and is never lowered.
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// let tools = r#"[{"name": "approve_merge_request", "description": "Approve a merge request.",
    ///     "inputSchema": {"type": "object"}}]"#;
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(load_mcp(tools, "github")?.server);
    /// catalog.add_server(load_mcp(tools, "gitlab")?.server);
    /// let search = ToolSearch::new(catalog)?;
    /// let results = search.search("approve the merge request in gitlab", 2);
    /// let [first, second] = results.hits() else { panic!("two hits") };
    /// assert_eq!(first.name(), "mcp__gitlab__approve_merge_request");
    /// assert!(second.service_mismatch() && !first.demoted());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn service_mismatch(mut self, factor: f32) -> ToolSearchBuilder {
        self.intent = self.intent.service_mismatch(factor);
        self
    }

    /// The factor (at least 1; default [`DEFAULT_NAME_MATCH`](crate::DEFAULT_NAME_MATCH); 1 turns it off) that raises the
    /// score of a hit whose tool's own name the query spells: every word of the name is a
    /// word of the query, a word the index's expander expands a query word to, or the catalog
    /// word the index took a misspelt query word for ("confluence create page in space"
    /// spells `confluence_create_page`, not `confluence_move_page`; "open a ticket" and
    /// "craete a ticket" spell `create_ticket`). The name's words
    /// are its identifier's parts, without stopwords, the server's own name and known service
    /// names (`linear` of `linear_createIssue`, `confluence`), which a query need not repeat.
    /// A query word in the past tense or in `-ing` spells only the same word ("pods running"
    /// does not spell `pods_run`), and a name of one word spells only when the query also
    /// names the tool's server. Like [`service_mismatch`](Self::service_mismatch) it reorders
    /// the page: the index's best `limit` hits are sorted again by the new scores (then
    /// catalog order), and a tool whose name the query equals stays first.
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(load_mcp(r#"[
    ///     {"name": "move_page", "description": "Move a page to another space.",
    ///      "inputSchema": {"type": "object", "properties": {"space": {"type": "string",
    ///          "description": "The target space key."}}}},
    ///     {"name": "create_page", "description": "Create a page.", "inputSchema": {"type": "object"}},
    ///     {"name": "create_space", "description": "Create a space.", "inputSchema": {"type": "object"}},
    ///     {"name": "create_user", "description": "Create a user.", "inputSchema": {"type": "object"}}
    /// ]"#, "wiki")?.server);
    /// let query = "create page in space";
    /// let search = ToolSearch::new(catalog.clone())?;
    /// let results = search.search(query, 2);
    /// assert_eq!(results.hits()[0].name(), "mcp__wiki__create_page");
    /// assert!(results.hits()[0].name_match());
    /// let off = ToolSearch::builder().name_match(1.0).build(catalog)?;
    /// assert_eq!(off.search(query, 2).hits()[0].name(), "mcp__wiki__move_page");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name_match(mut self, factor: f32) -> ToolSearchBuilder {
        self.intent = self.intent.name_match(factor);
        self
    }

    /// Whether a query of several words also searches the kind of thing one of its words
    /// names (default on): `file` for a file name or path (`package.json`, `src/app.ts`: a
    /// known extension, `.js` only in a path), `url` for a web address (`https://…`,
    /// `www.…`, `example.com`), `channel` for a hashtag (`#general`, not `#231`), `port` for a
    /// host with a port (`localhost:5432`, not `session:42`), and `shell` for a
    /// command-line program (`git`, `npm`, `curl`, …) that no tool's name has as a whole word
    /// (with no `git` server, "git stage files" is a shell command); an e-mail address is
    /// searched as `email` rather than as its parts (`bob`, `example`, `com`). Agents name the thing
    /// they mean; tools name its kind (`read_file`, a `url` parameter, a `channel`,
    /// `run_shell_command`). The word is searched like one the query wrote and may show among
    /// a hit's [`matched`](crate::Hit::matched) terms, but an empty answer never quotes it back.
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(load_mcp(r#"[
    ///     {"name": "read_file", "description": "Read a file from disk.", "inputSchema": {"type": "object"}},
    ///     {"name": "get_package", "description": "Get a package from the registry.", "inputSchema": {"type": "object"}}
    /// ]"#, "dev")?.server);
    /// let search = ToolSearch::new(catalog.clone())?;
    /// let query = "show me package.json";
    /// assert_eq!(search.search(query, 1).hits()[0].name(), "mcp__dev__read_file");
    /// let literal = ToolSearch::builder().implied_words(false).build(catalog)?;
    /// assert_eq!(literal.search(query, 1).hits()[0].name(), "mcp__dev__get_package");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn implied_words(mut self, on: bool) -> ToolSearchBuilder {
        self.intent = self.intent.implied_words(on);
        self
    }

    /// Indexes every tool of `catalog` and returns the ready search.
    ///
    /// A large catalog's analysis is spread over up to the index's
    /// [`threads`](IndexBuilder::threads) (default: every core); the search is the same as
    /// one thread builds (`threads(1)` keeps all of it on the calling thread).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Rank`](crate::ErrorKind::Rank) when the ranking settings are invalid, or
    /// the index lacks one of the fields `name`, `summary` and `details`.
    pub fn build(self, catalog: Catalog) -> Result<ToolSearch, Error> {
        let index = self.index.build()?;
        let intent = self.intent.build(index.analyzer());
        let mut search = ToolSearch {
            catalog,
            index,
            fields: self.fields,
            intent,
            docs: Vec::new(),
            servers: BTreeMap::new(),
            next_server: 0,
        };
        let names: Vec<String> = search.catalog.servers().map(|s| s.name.clone()).collect();
        for name in &names {
            search.servers.insert(name.clone(), ServerDocs::new(search.next_server));
            search.next_server += 1;
        }
        let per_server: Vec<Vec<(Texts, Pending)>> =
            names.iter().map(|name| search.server_texts(name, &[], &[]).0).collect();
        let counts: Vec<usize> = per_server.iter().map(Vec::len).collect();
        let texts: Vec<(Texts, Pending)> = per_server.into_iter().flatten().collect();
        let ToolSearch { intent, index, .. } = &mut search;
        let ids = index.add(new_documents(&texts));
        let analyzer = index.analyzer();
        let mut rest = texts.as_slice();
        for (name, &count) in names.iter().zip(&counts) {
            let (server_texts, after) = rest.split_at(count.min(rest.len()));
            rest = after;
            intent.set_server(analyzer, name, server_texts.iter().map(|(t, _)| t.name()));
        }
        let ids = ids?;
        // `add` gives ids in input order: split them by server again.
        let mut ids = ids.into_iter();
        let mut texts = texts.into_iter();
        for (name, &count) in names.iter().zip(&counts) {
            let server_texts: Vec<(Texts, Pending)> = texts.by_ref().take(count).collect();
            let server_ids: Vec<DocId> = ids.by_ref().take(count).collect();
            search.record(name, server_ids, server_texts);
        }
        Ok(search)
    }
}

/// (server ordinal, position in the server) as one key that sorts the same way.
fn catalog_position((server, position): (u32, u32)) -> u64 {
    (u64::from(server) << 32) | u64::from(position)
}

/// What the facade knows about a server: its ordinal (catalog order, the first part of its
/// tools' order keys) and its indexed documents.
#[derive(Debug, Clone)]
struct ServerDocs {
    ordinal: u32,
    docs: Vec<DocId>,
}

impl ServerDocs {
    fn new(ordinal: u32) -> ServerDocs {
        ServerDocs { ordinal, docs: Vec::new() }
    }
}

/// A document's tool and model-facing name before the index has given it an id.
#[derive(Debug)]
struct Pending {
    tool: Arc<HitTool>,
    order: (u32, u32),
}

/// What indexing a server needs of one of its tools' texts.
#[derive(Debug)]
enum Texts {
    /// Every field text: the tool is indexed.
    Full(ToolText),
    /// The tool's document `doc` stays (the same tool under the same model-facing name): only
    /// the `name` field text, for the known services.
    Kept { doc: DocId, name: String },
}

impl Texts {
    fn name(&self) -> &str {
        match self {
            Texts::Full(text) => &text.name,
            Texts::Kept { name, .. } => name,
        }
    }
}

/// The documents of the tools to index (those of [`Texts::Full`]), in order.
fn new_documents(texts: &[(Texts, Pending)]) -> impl Iterator<Item = Document<'_>> {
    texts.iter().filter_map(|(t, p)| match t {
        Texts::Full(text) => Some(document(text, p.tool.server(), p.order)),
        Texts::Kept { .. } => None,
    })
}

/// A catalog and the ranking index over its tools, updated together.
///
/// Built from a [`Catalog`] with [`ToolSearch::new`] or a [`ToolSearchBuilder`]; searched with
/// [`search`](ToolSearch::search); kept in step with the catalog per server with
/// [`add_server`](ToolSearch::add_server), [`replace_tools`](ToolSearch::replace_tools) and
/// [`remove_server`](ToolSearch::remove_server), which give the same results as a fresh build
/// of the changed catalog.
///
/// # Fields
///
/// Each tool becomes one document of three weighted fields and a set of exact keys:
///
/// - `name`: the server and the tool's own name (the model-facing name's kind prefix is
///   dropped), and the title;
/// - `summary`: the OpenAPI summary, else the first sentence of the description's first
///   paragraph;
/// - `details`: the rest of the description; the top-level parameters' names, descriptions and
///   enum values (up to [`max_enum_values`](ToolSearchBuilder::max_enum_values)); the OpenAPI
///   route words and tags; the server name;
/// - exact keys: the original name, the model-facing name, and `server/tool`. A query equal to
///   one of them, ignoring case and the separators `_ - .` and spaces (so in any naming
///   convention: `createPullRequest` names `create_pull_request`), puts that tool first.
///
/// # Ranking order
///
/// Exact-key matches first, then score descending, then catalog order (servers in insertion
/// order, tools in source order).
#[derive(Debug, Clone)]
pub struct ToolSearch {
    catalog: Catalog,
    index: Index,
    fields: FieldConfig,
    /// The request rules: what a query asks, whether the catalog offers it, and how each
    /// hit's score changes.
    intent: Intent,
    /// The tool and model-facing name of each document, indexed by [`DocId::get`]; `None`
    /// for removed documents. Hits share these, so a hit allocates nothing.
    docs: Vec<Option<Arc<HitTool>>>,
    /// Server name to its ordinal and documents. Only looked up, never iterated for output.
    servers: BTreeMap<String, ServerDocs>,
    next_server: u32,
}

/// The rank document of one tool; its tie-break order is its catalog position.
fn document<'a>(text: &'a ToolText, server: &'a str, order: (u32, u32)) -> Document<'a> {
    let mut doc = Document::new()
        .field("name", text.name.as_str())
        .field("summary", text.summary.as_str())
        .field("details", text.details.as_str())
        .group(server)
        .order(catalog_position(order));
    for key in &text.keys {
        doc = doc.key(key.as_str());
    }
    doc
}

impl ToolSearch {
    /// Indexes `catalog` with the default settings.
    ///
    /// # Errors
    ///
    /// As [`ToolSearchBuilder::build`]; the default settings are valid.
    pub fn new(catalog: Catalog) -> Result<ToolSearch, Error> {
        ToolSearchBuilder::new().build(catalog)
    }

    /// A builder, to change the ranking or field settings.
    pub fn builder() -> ToolSearchBuilder {
        ToolSearchBuilder::new()
    }

    /// The catalog being searched.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Gives the catalog back.
    pub fn into_catalog(self) -> Catalog {
        self.catalog
    }

    /// The ranking index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The frozen ranking configuration.
    pub fn index_config(&self) -> &Config {
        self.index.config()
    }

    /// The factor of a hit whose action disagrees with the query's
    /// ([`ToolSearchBuilder::action_mismatch`]; 1 = off).
    pub fn action_mismatch(&self) -> f32 {
        self.intent.action_mismatch()
    }

    /// The factor of a hit of another service than the query names
    /// ([`ToolSearchBuilder::service_mismatch`]; 1 = off).
    pub fn service_mismatch(&self) -> f32 {
        self.intent.service_mismatch()
    }

    /// The factor of a hit whose tool's name the query spells
    /// ([`ToolSearchBuilder::name_match`]; 1 = off).
    pub fn name_match(&self) -> f32 {
        self.intent.name_match()
    }

    /// Whether a query naming a file, a web address, a channel, a host with a port or a
    /// command-line program also searches `file`, `url`, `channel`, `port` or `shell`
    /// ([`ToolSearchBuilder::implied_words`]).
    pub fn implied_words(&self) -> bool {
        self.intent.implied_words()
    }

    /// The enum-size limit of the `details` field.
    pub fn max_enum_values(&self) -> usize {
        self.fields.max_enum_values
    }

    /// The number of indexed tools.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The best `limit` tools for `query`, best first, or why there are none.
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(load_mcp(r#"[
    ///     {"name": "create_issue", "description": "Create a new issue.", "inputSchema": {"type": "object"}},
    ///     {"name": "list_issues", "description": "List issues.", "inputSchema": {"type": "object"}}
    /// ]"#, "github")?.server);
    /// let search = ToolSearch::new(catalog)?;
    /// let results = search.search("open a new issue", 5);
    /// assert_eq!(results.hits()[0].name(), "mcp__github__create_issue");
    /// assert!(search.search("book a flight", 5).refusal().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search(&self, query: &str, limit: usize) -> SearchResults {
        // Analyzed once: the intent rules read the request, the index searches its query.
        let request = self.intent.read(self.index.analyzer(), query);
        // The index breaks score ties by the order key, the catalog position: its order is
        // the contract, whatever the history of updates.
        let outcome = self.index.search_analyzed(request.query(), limit);
        let judged = self.intent.judge(&request, &outcome, &self.index, self, limit);
        if let Judgement::Refused(refusal) = judged {
            return SearchResults::refused(refusal);
        }
        // The query's words once per search; each hit keeps a mask of the ones it matched.
        let words = Arc::new(QueryText::new(outcome.terms().iter().map(|t| t.word())));
        let hits = judged.hits().iter().filter_map(|a| {
            let tool = Arc::clone(self.docs.get(a.doc.get() as usize)?.as_ref()?);
            let mask = (outcome.hits().get(a.hit)?.matched())
                .fold(0u64, |m, i| m | 1u64.checked_shl(i as u32).unwrap_or(0));
            Some(Hit::shared(tool, a.score, Arc::clone(&words), mask, a.agreement))
        });
        SearchResults::new(hits.collect()).with_missing_services(judged.missing_services().to_vec())
    }

    /// The tool a model-facing name belongs to (`mcp__github__create_issue`), for a
    /// `tool_describe` bridge: its description and input schema.
    pub fn describe(&self, model_name: &str) -> Option<&Tool> {
        self.catalog.tool_by_model_name(model_name)
    }

    /// How `tool` scored for `query`: per query term, its idf, the catalog forms matched
    /// (exact, same stem, stem prefix) and, per field, tf, weight and length normalization.
    /// `None` if the tool is not in the catalog. The query is explained as the index searched
    /// it, with its implied words ([`ToolSearchBuilder::implied_words`]). This is the index's
    /// score: a
    /// [`demoted`](Hit::demoted) hit's score is it times
    /// [`action_mismatch`](ToolSearch::action_mismatch).
    pub fn explain(&self, query: &str, tool: &ToolId) -> Option<Explanation> {
        let docs = &self.servers.get(&tool.server)?.docs;
        let doc = docs.iter().copied().find(|d| {
            self.docs
                .get(d.get() as usize)
                .and_then(Option::as_ref)
                .is_some_and(|e| e.tool() == tool)
        })?;
        // The query the index searched: with its implied words, as `search` has it.
        self.index.explain(doc, self.intent.read(self.index.analyzer(), query).query().text())
    }

    /// Adds a server, or replaces the tools of the server with that name, in the catalog and
    /// the index. Returns the catalog's diagnostics.
    ///
    /// A server that is there already with the same tools changes nothing: the index, and its
    /// search cache, stay as they are ([`Catalog::add_server`]).
    ///
    /// # Errors
    ///
    /// As [`ToolSearchBuilder::build`] for the index; the catalog itself never fails here.
    pub fn add_server(&mut self, server: Server) -> Result<Vec<Diagnostic>, Error> {
        let name = server.name.clone();
        let epoch = self.catalog.epoch();
        let diagnostics = self.catalog.add_server(server);
        if self.catalog.epoch() != epoch {
            self.sync(&name)?;
        }
        Ok(diagnostics)
    }

    /// Replaces a server's tools (after an MCP `notifications/tools/list_changed`), keeping its
    /// position. Returns the catalog's diagnostics.
    ///
    /// Replacing the tools with the same tools changes nothing: the index, and its search
    /// cache, stay as they are, so a host may call this on every notification.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Catalog`](crate::ErrorKind::Catalog) if no server has this name;
    /// [`ErrorKind::Rank`](crate::ErrorKind::Rank) if the index rejects a document.
    pub fn replace_tools(
        &mut self,
        server: &str,
        tools: Vec<Tool>,
    ) -> Result<Vec<Diagnostic>, Error> {
        let epoch = self.catalog.epoch();
        let diagnostics = self.catalog.replace_tools(server, tools)?;
        if self.catalog.epoch() != epoch {
            self.sync(server)?;
        }
        Ok(diagnostics)
    }

    /// Removes a server from the catalog and the index, and returns it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Rank`](crate::ErrorKind::Rank) if re-indexing a renamed tool fails.
    pub fn remove_server(&mut self, name: &str) -> Result<Option<Server>, Error> {
        let removed = self.catalog.remove_server(name);
        if removed.is_some() {
            self.index.remove_group(name);
            self.intent.remove_server(name);
            self.forget(name);
            self.servers.remove(name);
            self.resync_renamed()?;
        }
        Ok(removed)
    }

    /// Re-indexes server `name` from the catalog, then the servers whose model-facing names
    /// the change moved.
    fn sync(&mut self, name: &str) -> Result<(), Error> {
        if !self.servers.contains_key(name) {
            self.servers.insert(name.to_owned(), ServerDocs::new(self.next_server));
            self.next_server += 1;
        }
        let kept = self.catalog.last_kept().to_vec();
        self.reindex(name, &kept)?;
        self.resync_renamed()
    }

    /// Re-indexes the servers whose tools' model-facing names the last catalog change moved
    /// (a collision appeared or went away), since those names are exact keys. The catalog
    /// names them ([`Catalog::last_renamed`]); nothing else is looked at.
    fn resync_renamed(&mut self) -> Result<(), Error> {
        let renamed = self.catalog.last_renamed().to_vec();
        for server in renamed {
            self.reindex(&server, &[])?;
        }
        Ok(())
    }

    /// Replaces the documents of server `name` with its tools as the catalog has them now.
    ///
    /// `kept[i]`, when there is one, is where tool `i` was before the change, the same tool
    /// ([`Catalog::last_kept`]): its document stays, and only its order key follows its new
    /// position, unless its model-facing name changed too (a name is indexed text and an
    /// exact key). Only the other tools' texts are made, and they are indexed, and the
    /// documents of tools that went away or changed are removed, in one index update.
    fn reindex(&mut self, name: &str, kept: &[Option<usize>]) -> Result<(), Error> {
        let old = self.servers.get(name).map(|s| s.docs.clone()).unwrap_or_default();
        let (texts, keep) = self.server_texts(name, &old, kept);
        self.intent.set_server(self.index.analyzer(), name, texts.iter().map(|(t, _)| t.name()));
        let removed: Vec<DocId> =
            old.iter().zip(&keep).filter(|&(_, &k)| !k).map(|(&d, _)| d).collect();
        let new_ids = self.index.update_group(name, &removed, new_documents(&texts))?;
        let mut new_ids = new_ids.into_iter();
        let mut ids = Vec::with_capacity(texts.len());
        for (t, p) in &texts {
            match t {
                Texts::Kept { doc, .. } => {
                    self.index.set_order(*doc, catalog_position(p.order));
                    ids.push(*doc);
                }
                Texts::Full(_) => ids.extend(new_ids.next()),
            }
        }
        self.forget(name);
        self.record(name, ids, texts);
        Ok(())
    }

    /// The texts and entries of server `name`'s tools, in source order, and which of the
    /// documents `old` stay.
    ///
    /// A tool that is the same as the one `old[kept[i]]` holds ([`Catalog::last_kept`]), under
    /// the same model-facing name, keeps that document ([`Texts::Kept`]: its field texts are
    /// not made) and its entry, with the action set worked out before (shared as it is, or a
    /// copy with the new order key if the tool moved); every other tool gets its field texts
    /// ([`Texts::Full`]) and a new entry. With no `old` documents, every tool does.
    fn server_texts(
        &self,
        name: &str,
        old: &[DocId],
        kept: &[Option<usize>],
    ) -> (Vec<(Texts, Pending)>, Vec<bool>) {
        let mut keep = vec![false; old.len()];
        let Some(server) = self.catalog.server(name) else { return (Vec::new(), keep) };
        let ordinal = self.servers.get(name).map_or(u32::MAX, |s| s.ordinal);
        let texts = (server.tools.iter().enumerate())
            .map(|(i, tool)| {
                let model_name = self.catalog.model_name(&tool.id).unwrap_or(tool.name());
                let order = (ordinal, u32::try_from(i).unwrap_or(u32::MAX));
                let position = catalog_position(order);
                let stays = kept.get(i).copied().flatten().and_then(|j| {
                    let doc = *old.get(j)?;
                    let entry = self.docs.get(doc.get() as usize)?.as_ref()?;
                    let same = entry.tool() == &tool.id && entry.name() == model_name;
                    (same && !std::mem::replace(keep.get_mut(j)?, true)).then_some((doc, entry))
                });
                let (text, tool) = match stays {
                    Some((doc, entry)) => {
                        let text = Texts::Kept { doc, name: fields::name_text(tool) };
                        // The entry as it is, unless the tool moved: only its order key does.
                        let entry = if entry.order() == position {
                            Arc::clone(entry)
                        } else {
                            Arc::new(entry.moved(position))
                        };
                        (text, entry)
                    }
                    None => {
                        let text = tool_text(tool, model_name, &self.fields);
                        let facts = self.intent.tool_facts(
                            self.index.analyzer(),
                            &tool.id.name,
                            &text.summary,
                            &tool.input_schema,
                            &tool.description,
                        );
                        let entry = HitTool::new(tool.id.clone(), model_name, facts, position);
                        (Texts::Full(text), Arc::new(entry))
                    }
                };
                (text, Pending { tool, order })
            })
            .collect();
        (texts, keep)
    }

    fn record(&mut self, name: &str, ids: Vec<DocId>, texts: Vec<(Texts, Pending)>) {
        let mut recorded = Vec::with_capacity(ids.len());
        for (doc, (_, p)) in ids.into_iter().zip(texts) {
            let slot = doc.get() as usize;
            if self.docs.len() <= slot {
                self.docs.resize(slot + 1, None);
            }
            self.docs[slot] = Some(p.tool);
            recorded.push(doc);
        }
        if let Some(server) = self.servers.get_mut(name) {
            server.docs = recorded;
        }
    }

    /// Drops the entries of server `name`'s documents, which the index no longer holds.
    fn forget(&mut self, name: &str) {
        let Some(server) = self.servers.get_mut(name) else { return };
        for doc in server.docs.drain(..) {
            if let Some(slot) = self.docs.get_mut(doc.get() as usize) {
                *slot = None;
            }
        }
    }
}

/// The tool behind each of the index's documents, for the intent layer.
impl Tools for ToolSearch {
    fn tool(&self, doc: DocId) -> Option<ToolRef<'_>> {
        let entry = self.docs.get(doc.get() as usize)?.as_ref()?;
        Some(ToolRef { server: entry.server(), name: &entry.tool().name, facts: entry.facts() })
    }

    fn text(&self, doc: DocId) -> Option<toolsift_intent::ToolText<'_>> {
        let entry = self.docs.get(doc.get() as usize)?.as_ref()?;
        let tool = self.catalog.tool(entry.tool())?;
        Some(toolsift_intent::ToolText {
            description: &tool.description,
            input_schema: &tool.input_schema,
        })
    }
}

impl SearchEngine for ToolSearch {
    fn search(&self, query: &str, limit: usize) -> SearchResults {
        ToolSearch::search(self, query, limit)
    }

    fn explain_text(&self, query: &str, tool: &ToolId) -> Option<String> {
        self.explain(query, tool).map(|e| e.to_string())
    }

    fn engine_name(&self) -> &str {
        "toolsift"
    }
}
