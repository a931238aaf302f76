//! [`Intent`]: the request rules over one index, configured by [`IntentBuilder`].

use std::sync::OnceLock;

use serde_json::Value;
use toolsift_rank::{DocId, Index, Outcome, QueryTerm};
use toolsift_text::{Actions, Analyzed, Analyzer, Origin};

use crate::actions::ActionSet;
use crate::implied;
use crate::names::{NameWords, QueryWords};
use crate::refusal::Refusal;
use crate::request::Request;
use crate::services::{
    Asked, Check, DEFAULT_ERRANDS, DEFAULT_SERVICES, Named, Services, parse_services,
};

/// The factor of a hit whose tool does another kind of action than the request asks for
/// ([`IntentBuilder::action_mismatch`]).
///
/// Chosen on the tuning sets (docs/ranking.md, action agreement): `all` nDCG@10 0.723 off
/// (1.0), 0.729 from 0.7 to 0.5, no profile losing; 0.7 is the mildest factor of that plateau.
pub const DEFAULT_ACTION_MISMATCH: f32 = 0.7;

/// The factor of a hit whose tool belongs to another service than the request names
/// ([`IntentBuilder::service_mismatch`]).
///
/// Chosen on the tuning sets (docs/ranking.md, service agreement): `all` nDCG@10 0.732 off,
/// 0.733 from 0.9 to 0.5, no dataset losing; 0.7 matches [`DEFAULT_ACTION_MISMATCH`].
pub const DEFAULT_SERVICE_MISMATCH: f32 = 0.7;

/// The factor of a hit whose tool's name the request spells ([`IntentBuilder::name_match`]).
///
/// Chosen on the tuning sets (docs/ranking.md, name spelling): `all` nDCG@10 0.747 off,
/// 0.756 at 1.15, 0.755 at 1.2; no dataset losing, and 1.15 at least as good as 1.1 and 1.2
/// on each.
pub const DEFAULT_NAME_MATCH: f32 = 1.15;

/// The bit of [`Agreement`] for a tool that does another kind of action than asked.
const ACTION: u8 = 1;
/// The bit of [`Agreement`] for a tool of another service than the request names.
const SERVICE: u8 = 2;
/// The bit of [`Agreement`] for a tool whose name the request spells.
const NAME: u8 = 4;

/// Configures an [`Intent`]; [`build`](Self::build) freezes it for one analyzer.
///
/// ```
/// use toolsift_intent::{Intent, IntentBuilder};
/// use toolsift_text::Analyzer;
/// let intent: Intent = IntentBuilder::new().action_mismatch(0.5).build(&Analyzer::default());
/// assert_eq!(intent.action_mismatch(), 0.5);
/// ```
#[derive(Debug, Clone)]
pub struct IntentBuilder {
    /// The known-services list; `None` for [`DEFAULT_SERVICES`].
    services: Option<Vec<String>>,
    action_mismatch: f32,
    service_mismatch: f32,
    name_match: f32,
    implied_words: bool,
}

impl Default for IntentBuilder {
    fn default() -> IntentBuilder {
        IntentBuilder {
            services: None,
            action_mismatch: DEFAULT_ACTION_MISMATCH,
            service_mismatch: DEFAULT_SERVICE_MISMATCH,
            name_match: DEFAULT_NAME_MATCH,
            implied_words: true,
        }
    }
}

impl IntentBuilder {
    /// A builder with the default rules and factors.
    pub fn new() -> IntentBuilder {
        IntentBuilder::default()
    }

    /// The services of the known-services rule, replacing [`DEFAULT_SERVICES`]: one service
    /// per item, its aliases separated by spaces (`"mongodb mongo"`). Aliases are single
    /// words, matched after analysis (case and diacritics ignored). An empty list turns the
    /// service rules and the errand rule off.
    ///
    /// - A request that names a service as a whole word, while no tool's `name` field (the
    ///   [`ToolFacts`] host's name text: server name, tool name, title) contains any of its
    ///   aliases, is refused ([`Reason::MissingService`](crate::Reason::MissingService)),
    ///   unless it also names a present service or server and the missing one is not the
    ///   service of a new thing asked for, or names it only outside the request's clause
    ///   (where it says what happened: "I exported my Obsidian vault to ~/notes, open
    ///   ideas.md") or as what documentation is about ("pull the Prisma docs"); such a
    ///   request gets hits, with the missing service said.
    /// - So is one that names a present service whose tools never match the request's most
    ///   specific tool word or its verb, none of whose tools that do the kind of action asked
    ///   says what the verb acts on, or whose tools never do that kind of action
    ///   ([`Reason::NotOffered`](crate::Reason::NotOffered)).
    /// - The errand rule: an everyday thing no tool's `name` field has (`order a pizza`,
    ///   `book a flight`, from the crate's `data/errands.txt`) is refused as a missing
    ///   service, unless the request names a connected server, asks to read, names the thing
    ///   only after `for`, `that` or `about`, or says where the thing is written.
    /// - Neither service refusal is given when a hit has a name of two words or more that the
    ///   request spells (as for [`name_match`](Self::name_match)) and belongs to the named
    ///   service, or, for a missing one, whose own text ([`Tools::text`]) names it: a tool
    ///   that does what is asked is connected.
    pub fn known_services<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> IntentBuilder {
        self.services = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// The factor (in `[0, 1]`; default [`DEFAULT_ACTION_MISMATCH`]; 1 turns it off) that
    /// lowers the score of a hit whose tool does another kind of action than the request
    /// asks for: the tool deletes and the request asks for no deletion, or one only reads
    /// and the other only writes. Both must name an action: the request by a word of the
    /// intent lexicon's action groups ("show", "upload", "remove"), the tool by the first
    /// such word of its name or the first word of its summary ([`toolsift_text::Actions`]).
    pub fn action_mismatch(mut self, factor: f32) -> IntentBuilder {
        self.action_mismatch = if factor.is_nan() { 1.0 } else { factor.clamp(0.0, 1.0) };
        self
    }

    /// The factor (in `[0, 1]`; default [`DEFAULT_SERVICE_MISMATCH`]; 1 turns it off) that
    /// lowers the score of a hit whose tool belongs to another service than the request
    /// names by a word of the known-services list ("approve this merge request in GitLab"
    /// moves GitHub's tools down).
    pub fn service_mismatch(mut self, factor: f32) -> IntentBuilder {
        self.service_mismatch = if factor.is_nan() { 1.0 } else { factor.clamp(0.0, 1.0) };
        self
    }

    /// The factor (at least 1; default [`DEFAULT_NAME_MATCH`]; 1 turns it off) that raises the
    /// score of a hit whose tool's own name the request spells: every word of the name is a
    /// word of the request, a word the index's expander expands a request word to, or the
    /// catalog word the index took a misspelt request word for. The name's words are its
    /// identifier's parts, without stopwords, the server's own name and known service names.
    /// A word in the past tense or in `-ing` spells only the same word, and a name of one
    /// word spells only when the request also names the tool's server.
    pub fn name_match(mut self, factor: f32) -> IntentBuilder {
        self.name_match = if factor.is_nan() { 1.0 } else { factor.max(1.0) };
        self
    }

    /// Whether a request of several words also searches the kind of thing one of its words
    /// names (default on): `file` for a file name or path, `url` for a web address,
    /// `channel` for a hashtag, `port` for a host with a port, `shell` for a command-line
    /// program no tool's name has, and `email` in place of an e-mail address
    /// ([`Intent::read`]).
    pub fn implied_words(mut self, on: bool) -> IntentBuilder {
        self.implied_words = on;
        self
    }

    /// The rules, with their word lists analyzed by `analyzer`: the analyzer of the index
    /// they will judge outcomes of.
    pub fn build(self, analyzer: &Analyzer) -> Intent {
        let known = match &self.services {
            Some(list) => parse_services(analyzer, list),
            None => parse_services(analyzer, DEFAULT_SERVICES.lines()),
        };
        // The errand rule is on with the known-services rule: an empty list turns both off.
        let errands = if known.is_empty() {
            Vec::new()
        } else {
            parse_services(analyzer, DEFAULT_ERRANDS.lines())
        };
        Intent {
            services: Services::new(known, errands),
            actions: Actions::with_analyzer(analyzer),
            action_mismatch: self.action_mismatch,
            service_mismatch: self.service_mismatch,
            name_match: self.name_match,
            implied_words: self.implied_words,
        }
    }
}

/// What the intent layer knows of one indexed tool: the kinds of action it does, whether it
/// is described in a CJK script, the kinds of thing it takes as a parameter value, and
/// (worked out the first time a rule asks) the words of its name and the services its own
/// text names. Made by [`Intent::tool_facts`]; a host keeps one per document and hands them back
/// through [`Tools`].
#[derive(Debug, Clone)]
pub struct ToolFacts {
    actions: ActionSet,
    cjk: bool,
    /// The known services the tool's own text names ([`Intent::services_of`]), sorted; worked
    /// out the first time a rule asks.
    services: OnceLock<Box<[u32]>>,
    name_words: OnceLock<NameWords>,
    /// The stems of the kinds of thing the tool takes as a parameter value, sorted: the
    /// words of a top-level parameter named for a type (`type`, `objectType`,
    /// `resource_type`; [`kind_stems`]), its description and string `enum` values.
    kinds: Box<[Box<str>]>,
}

/// The facts of a tool the intent layer was told nothing of: it names no action and is not
/// described in a CJK script.
impl Default for ToolFacts {
    fn default() -> ToolFacts {
        ToolFacts {
            actions: ActionSet::default(),
            cjk: false,
            services: OnceLock::new(),
            name_words: OnceLock::new(),
            kinds: Box::default(),
        }
    }
}

impl ToolFacts {
    /// Whether the tool's summary has a character of a CJK script.
    pub fn cjk(&self) -> bool {
        self.cjk
    }

    /// Whether the tool reads, writes or deletes nothing the intent layer can name: its name
    /// and summary name no action.
    pub fn names_no_action(&self) -> bool {
        self.actions.is_empty()
    }
}

/// The stems of the kinds of thing a tool with input schema `schema` acts on, sorted and
/// each once: the words of every top-level parameter whose name ends in `type` (any case:
/// `type`, `objectType`, `resource_type`), its description and string `enum` values. A tool
/// that creates "objects" of a type it is told serves a request to create any kind it lists
/// ("create a contact in hubspot"), as a tool with an operation parameter serves any kind of
/// action.
fn kind_stems(analyzer: &Analyzer, schema: &Value) -> Box<[Box<str>]> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Box::default();
    };
    let mut stems: Vec<Box<str>> = Vec::new();
    let mut add = |text: &str| analyzer.for_each_token(text, |t| stems.push(t.stem.into()));
    for (name, p) in props {
        let names_type = name.len().checked_sub(4).and_then(|at| name.as_bytes().get(at..));
        if !names_type.is_some_and(|end| end.eq_ignore_ascii_case(b"type")) {
            continue;
        }
        if let Some(d) = p.get("description").and_then(Value::as_str) {
            add(d);
        }
        for v in p.get("enum").and_then(Value::as_array).into_iter().flatten() {
            if let Some(v) = v.as_str() {
                add(v);
            }
        }
    }
    stems.sort_unstable();
    stems.dedup();
    stems.into_boxed_slice()
}

/// Appends the texts of `schema`'s top-level parameters to `out`: each one's name,
/// description and string `enum` and `const` values (also of its `items`, `anyOf` and
/// `oneOf` members), the parameter text an index of the tool searches too.
fn schema_strings<'v>(schema: &'v Value, out: &mut Vec<&'v str>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return };
    let values = |p: &'v Value, out: &mut Vec<&'v str>| {
        if let Some(items) = p.get("enum").and_then(Value::as_array) {
            out.extend(items.iter().filter_map(Value::as_str));
        }
        if let Some(c) = p.get("const").and_then(Value::as_str) {
            out.push(c);
        }
    };
    for (name, p) in props {
        out.push(name);
        if let Some(d) = p.get("description").and_then(Value::as_str) {
            out.push(d);
        }
        values(p, out);
        if let Some(items) = p.get("items") {
            values(items, out);
        }
        for alt in ["anyOf", "oneOf"] {
            for member in p.get(alt).and_then(Value::as_array).into_iter().flatten() {
                values(member, out);
            }
        }
    }
}

/// One indexed tool as [`Tools`] hands it to the intent layer.
#[derive(Debug, Clone, Copy)]
pub struct ToolRef<'a> {
    /// The tool's server: the document's group in the index.
    pub server: &'a str,
    /// The tool's own name, as its source spells it (`create_pull_request`).
    pub name: &'a str,
    /// What [`Intent::tool_facts`] made of it.
    pub facts: &'a ToolFacts,
}

/// The tools behind an index's documents, as a host knows them: for each document, its
/// server, its own name and the [`ToolFacts`] made for it. The crate example implements it
/// over a vector; the `toolsift` facade over its catalog.
pub trait Tools {
    /// The tool of document `doc`, or `None` if it is not one this host knows.
    fn tool(&self, doc: DocId) -> Option<ToolRef<'_>>;

    /// The description and input schema of document `doc`'s tool, read by the rule that asks
    /// whether a tool's own text names a service (the missing-service rule of
    /// [`IntentBuilder::known_services`]). Asked only before a refusal, for a few hits, and
    /// once per tool. The default knows none: the tool's own text is then its name alone.
    fn text(&self, doc: DocId) -> Option<ToolText<'_>> {
        let _ = doc;
        None
    }
}

/// A tool's own text beyond its name, as [`Tools::text`] hands it to the intent layer.
#[derive(Debug, Clone, Copy)]
pub struct ToolText<'a> {
    /// The tool's description.
    pub description: &'a str,
    /// The tool's JSON input schema: its top-level parameters' names, descriptions and
    /// `enum` and `const` values are read.
    pub input_schema: &'a Value,
}

/// Which agreement factors changed a hit's score: [`Adjusted::agreement`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Agreement(u8);

impl Agreement {
    /// Whether the score was lowered: the tool does another kind of action than asked, or
    /// belongs to another service than the request names.
    pub fn demoted(self) -> bool {
        self.0 & (ACTION | SERVICE) != 0
    }

    /// Whether the score differs from the index's.
    pub fn changed(self) -> bool {
        self.0 != 0
    }

    /// Whether the tool does another kind of action than the request asks for
    /// ([`IntentBuilder::action_mismatch`]).
    pub fn action_mismatch(self) -> bool {
        self.0 & ACTION != 0
    }

    /// Whether the request names a connected service the tool does not belong to
    /// ([`IntentBuilder::service_mismatch`]).
    pub fn service_mismatch(self) -> bool {
        self.0 & SERVICE != 0
    }

    /// Whether the request spells the tool's own name ([`IntentBuilder::name_match`]).
    pub fn name_match(self) -> bool {
        self.0 & NAME != 0
    }
}

/// One hit of an index outcome after the intent layer's agreement factors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Adjusted {
    /// Its position among the outcome's hits ([`Outcome::hits`]).
    pub hit: usize,
    /// Its document.
    pub doc: DocId,
    /// The index's score times the factors that apply.
    pub score: f32,
    /// Which factors apply.
    pub agreement: Agreement,
}

/// What [`Intent::judge`] makes of an index outcome.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Judgement {
    /// The hits to show, best first, with their new scores; empty when the limit is 0 or the
    /// index found nothing without abstaining.
    Hits(Vec<Adjusted>),
    /// Hits as for [`Judgement::Hits`] (never empty), for a request that names services no
    /// connected tool belongs to (`missing`, each by the alias the request used, lowercased,
    /// as [`Refusal::missing_services`] gives them): a connected tool
    /// may still do what is asked (it takes the service as a value, or the service is
    /// context), and the host should say that the named service is not connected.
    HitsWithMissing {
        /// The hits, best first.
        hits: Vec<Adjusted>,
        /// The services the request names that no connected tool belongs to.
        missing: Vec<String>,
    },
    /// The request is refused: nothing connected does what it asks, or the index abstained.
    Refused(Refusal),
}

impl Judgement {
    /// The hits to show, best first: empty for a refusal.
    pub fn hits(&self) -> &[Adjusted] {
        match self {
            Judgement::Hits(hits) | Judgement::HitsWithMissing { hits, .. } => hits,
            Judgement::Refused(_) => &[],
        }
    }

    /// The refusal, if the request was refused.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            Judgement::Refused(refusal) => Some(refusal),
            _ => None,
        }
    }

    /// The services the request names that no connected tool belongs to, when it is answered
    /// anyway ([`Judgement::HitsWithMissing`]); empty otherwise.
    pub fn missing_services(&self) -> &[String] {
        match self {
            Judgement::HitsWithMissing { missing, .. } => missing,
            _ => &[],
        }
    }
}

/// The request rules of one catalog: what a request asks, whether the connected tools offer
/// it, and how each hit's score changes. See the crate documentation.
#[derive(Debug, Clone)]
pub struct Intent {
    /// The known-services rules and which services the catalog's names contain.
    services: Services,
    /// The kinds of the lexicon's action words, for action agreement.
    actions: Actions,
    action_mismatch: f32,
    service_mismatch: f32,
    name_match: f32,
    implied_words: bool,
}

impl Intent {
    /// A builder with the default rules and factors.
    pub fn builder() -> IntentBuilder {
        IntentBuilder::new()
    }

    /// See [`IntentBuilder::action_mismatch`] (1 = off).
    pub fn action_mismatch(&self) -> f32 {
        self.action_mismatch
    }

    /// See [`IntentBuilder::service_mismatch`] (1 = off).
    pub fn service_mismatch(&self) -> f32 {
        self.service_mismatch
    }

    /// See [`IntentBuilder::name_match`] (1 = off).
    pub fn name_match(&self) -> f32 {
        self.name_match
    }

    /// See [`IntentBuilder::implied_words`].
    pub fn implied_words(&self) -> bool {
        self.implied_words
    }

    /// What the intent layer needs of a tool: its own `name`, its `summary` (the first
    /// sentence of its description), its JSON input schema and its whole `description`.
    /// Analyzed with `analyzer`, the index's.
    pub fn tool_facts(
        &self,
        analyzer: &Analyzer,
        name: &str,
        summary: &str,
        input_schema: &Value,
        description: &str,
    ) -> ToolFacts {
        let actions = ActionSet::of_tool(analyzer, &self.actions, name, summary)
            .with_operations(input_schema)
            .with_query_language(input_schema, description);
        let cjk = !summary.is_ascii() && summary.chars().any(toolsift_text::is_cjk);
        ToolFacts {
            actions,
            cjk,
            services: OnceLock::new(),
            name_words: OnceLock::new(),
            kinds: kind_stems(analyzer, input_schema),
        }
    }

    /// Records the `name` field texts (server name, tool name, title; one per tool) of
    /// server `server`'s tools, replacing what was recorded for it: which known services and
    /// tool words it offers. Returns whether that changed anything (the same texts change
    /// nothing).
    pub fn set_server<'a>(
        &mut self,
        analyzer: &Analyzer,
        server: &str,
        names: impl IntoIterator<Item = &'a str>,
    ) -> bool {
        self.services.set_server(analyzer, server, names)
    }

    /// Forgets server `server`.
    pub fn remove_server(&mut self, server: &str) {
        self.services.remove_server(server);
    }

    /// Reads `request` once with `analyzer` (the index's): the [`Request`] the rules judge,
    /// and the query the index searches for it ([`Request::query`]): the request with the
    /// words it implies added (`file` for a file name or path, `url` for a web address,
    /// `channel` for a hashtag, `port` for a host with a port, `shell` for a command-line
    /// program no tool's name has) and each e-mail address replaced by `email`
    /// ([`IntentBuilder::implied_words`]; only for a request of several words).
    ///
    /// ```
    /// use toolsift_intent::Intent;
    /// use toolsift_text::Analyzer;
    /// let analyzer = Analyzer::default();
    /// let intent = Intent::builder().build(&analyzer);
    /// let request = intent.read(&analyzer, "show me package.json");
    /// assert_eq!(request.text(), "show me package.json");
    /// assert_eq!(request.query().text(), "show me package.json file");
    /// assert_eq!(request.added(), ["file"]);
    /// ```
    pub fn read(&self, analyzer: &Analyzer, request: &str) -> Request {
        let asked = analyzer.analyze_text(request);
        if !self.implied_words {
            return Request::plain(asked);
        }
        implied::read(analyzer, asked, &|p| self.services.names_program(p))
    }

    /// Judges the index's `outcome` for `request` (searched as [`Request::query`]): a
    /// [`Refusal`] when the connected tools do not offer what is asked or the index
    /// abstained, else the best `limit` hits with their scores changed by action, service and
    /// name agreement, best first (score descending, then the index's order key). The index's
    /// top `limit` is reordered, never extended, and hits that match an exact key stay first,
    /// unchanged. No hits, and no refusal, when `limit` is 0 or the index found nothing
    /// without abstaining. Hits for a request that names a service no connected tool belongs
    /// to, which the rules did not refuse, come as [`Judgement::HitsWithMissing`].
    pub fn judge(
        &self,
        request: &Request,
        outcome: &Outcome,
        index: &Index,
        tools: &impl Tools,
        limit: usize,
    ) -> Judgement {
        let demote = self.action_mismatch < 1.0;
        // A request equal to a tool's name is answered whatever it says.
        let exact = outcome.hits().first().is_some_and(toolsift_rank::Hit::is_exact_key);
        // The services the request names, and the servers of the present ones.
        let mut named = self.services.named(outcome);
        let mut scope = self.services.servers_named(&named);
        // A request that names no known service may name a connected server by its own name
        // ("create a new objective in Shortcut").
        if scope.is_empty() && self.services.missing(&named).is_empty() {
            scope = self.services.servers_by_own_name(request.analyzed(), outcome, &mut named);
        }
        // What the request asks to be done, read once: for action agreement, and for the
        // not-offered rule on a named service that is present.
        let asked = if (demote && !outcome.hits().is_empty()) || (!exact && !scope.is_empty()) {
            ActionSet::of_query(&self.actions, outcome.terms(), request.analyzed())
        } else {
            (ActionSet::default(), None)
        };
        let missing = self.services.missing(&named);
        if !exact
            && let Some(refusal) = self.refusal(
                request.analyzed(),
                outcome,
                index,
                tools,
                (&named, &scope, &missing),
                asked,
            )
        {
            return Judgement::Refused(refusal);
        }
        let wants = if demote { asked.0 } else { ActionSet::default() };
        let hits = outcome.hits();
        let mut found = Vec::with_capacity(hits.len().min(limit));
        if hits.len().min(limit) > 0 {
            let expander = index.expander().map(|e| &**e);
            let words = if self.name_match > 1.0 {
                QueryWords::new(outcome.terms(), expander, index.analyzer())
            } else {
                QueryWords::default()
            };
            found.extend(hits.iter().enumerate().filter_map(|(i, h)| {
                let tool = tools.tool(h.doc())?;
                let mut adjusted =
                    Adjusted { hit: i, doc: h.doc(), score: h.score(), agreement: Agreement(0) };
                if h.is_exact_key() {
                    return Some(adjusted);
                }
                if ActionSet::conflicts(wants, tool.facts.actions) {
                    adjusted.score *= self.action_mismatch;
                    adjusted.agreement.0 |= ACTION;
                }
                // `scope` is sorted by server name.
                let in_scope = scope.binary_search(&tool.server).is_ok();
                if self.service_mismatch < 1.0 && !scope.is_empty() && !in_scope {
                    adjusted.score *= self.service_mismatch;
                    adjusted.agreement.0 |= SERVICE;
                }
                if self.name_match > 1.0
                    && self.name_words(index, tool).spelled_by(&words, in_scope)
                {
                    adjusted.score *= self.name_match;
                    adjusted.agreement.0 |= NAME;
                }
                Some(adjusted)
            }));
            if found.iter().any(|a| a.agreement.changed()) {
                // Score descending, then the index's order key: the index's rule, on the new
                // scores. Exact-key hits stay first, as the index put them.
                let named_exactly = hits.iter().take_while(|h| h.is_exact_key()).count();
                let order = |a: &Adjusted| index.order_of(a.doc).unwrap_or(u64::MAX);
                let rest = found.get_mut(named_exactly..).unwrap_or_default();
                rest.sort_by(|a, b| b.score.total_cmp(&a.score).then(order(a).cmp(&order(b))));
            }
            found.truncate(limit);
            if !found.is_empty() {
                // A missing service the rules let pass is still said, unless the request is
                // a tool's name.
                return if missing.is_empty() || exact {
                    Judgement::Hits(found)
                } else {
                    Judgement::HitsWithMissing { hits: found, missing }
                };
            }
        }
        match Refusal::of_outcome(request.text(), outcome, request.added()).filter(|_| limit > 0) {
            Some(refusal) => Judgement::Refused(refusal),
            None => Judgement::Hits(Vec::new()),
        }
    }

    /// The refusal of the service rules, if one applies: a missing service named (`missing`,
    /// [`Services::missing`]), an errand, or a named service (`named`, whose servers are
    /// `scope`) that does not offer what is asked (`wants`, first said by term
    /// `first_action`).
    fn refusal(
        &self,
        request: &Analyzed,
        outcome: &Outcome,
        index: &Index,
        tools: &impl Tools,
        (named, scope, missing): (&Named<'_>, &[&str], &[String]),
        (wants, first_action): (ActionSet, Option<usize>),
    ) -> Option<Refusal> {
        // A missing service named next to a present one ("create a github issue for the bug
        // reported in intercom") may be context: the request may be for the present one. So
        // is one named outside the request's clause, or as what documentation is about: the
        // hits come with the missing service said (the third answer).
        if !missing.is_empty()
            && !self.services.missing_as_context(request, outcome, missing, scope)
            && crate::services::missing_in_clause(request, missing)
        {
            // A hit whose name the request spells and whose own text names the missing
            // service (it takes the service as a value) does what is asked; so does a generic
            // tool the request spells that fits better than any tool of another service.
            let about = self.services.missing_ids(named);
            let words =
                QueryWords::new(outcome.terms(), index.expander().map(|e| &**e), index.analyzer());
            if !self.spelled_hit(outcome, index, tools, &words, |doc, t| {
                let names = self.services_of(index, tools, doc, t);
                about.iter().any(|s| names.binary_search(s).is_ok())
            }) && !self.generic_fits_first(outcome, index, tools, &words, &about)
            {
                return Some(Refusal::missing_service(missing.to_vec()));
            }
        }
        // An everyday thing no tool is named for (`order a pizza`, `book a flight`) is a
        // service the catalog lacks too.
        if let Some(thing) = self.services.errand(request, outcome, scope, || {
            let (wants, _) = ActionSet::of_query(&self.actions, outcome.terms(), request);
            wants.reads_only()
        }) {
            return Some(Refusal::missing_service(vec![thing]));
        }
        if scope.is_empty() {
            return None;
        }
        let actions_of = |d: DocId| tools.tool(d).map(|t| t.facts.actions);
        let serves = |d: DocId| actions_of(d).is_some_and(|a| ActionSet::serves(wants, a));
        let chooses = |d: DocId| actions_of(d).is_some_and(ActionSet::chooses_operation);
        let is_action = |stem: &str| self.actions.action(stem).is_some();
        let writes = |stem: &str| self.actions.action(stem).is_some_and(|a| a.writes());
        // Whether a tool of the named service runs queries in a query language and does the
        // kind of action asked.
        let scope_docs = || scope.iter().flat_map(|s| index.group_docs(s));
        let queries = || {
            scope_docs().any(|d| actions_of(d).is_some_and(ActionSet::runs_queries) && serves(d))
        };
        let described_in_cjk = || scope_docs().any(|d| tools.tool(d).is_some_and(|t| t.facts.cjk));
        let takes_kind = |stem: &str| {
            scope_docs().any(|d| {
                serves(d)
                    && tools.tool(d).is_some_and(|t| {
                        t.facts.kinds.binary_search_by(|k| (**k).cmp(stem)).is_ok()
                    })
            })
        };
        let asked = Asked {
            word: first_action.and_then(|i| outcome.terms().get(i)).map(QueryTerm::word),
            reads: wants.reads_only(),
            serves: &serves,
            chooses: &chooses,
            makes: &|d| actions_of(d).is_some_and(ActionSet::makes),
            is_action: &is_action,
            writes: &writes,
            queries: &queries,
            described_in_cjk: &described_in_cjk,
            takes_kind: &takes_kind,
        };
        let (service, word, check) =
            self.services.unoffered(request, outcome, named, scope, index, &asked)?;
        let words =
            QueryWords::new(outcome.terms(), index.expander().map(|e| &**e), index.analyzer());
        // Nor, for a word no tool of the service matches, when one of its tools has a name
        // the request spells: it does something asked, and a long request asks more than the
        // one word judged ("fetch the data of the 'minecraft' invite … for market research"
        // spells `get_invite_data`). What the verb acts on, or the kind of action, is judged
        // against such tools already ("change the retention of the datadog dashboard" spells
        // `update_dashboard`, which says nothing of a retention).
        let in_scope = |_, t: ToolRef<'_>| scope.binary_search(&t.server).is_ok();
        let does_something_asked =
            check == Check::Word && self.spelled_hit(outcome, index, tools, &words, in_scope);
        (!does_something_asked && !self.spelled_elsewhere(outcome, index, tools, scope, &words))
            .then(|| Refusal::not_offered(service, word))
    }

    /// Whether a hit of a server outside `scope` has a name of two words or more that the
    /// request says whole, each word by its own stem ([`NameWords::spelled_whole_by`]), and
    /// none of whose words other than actions is in a tool name of the servers in `scope`:
    /// "forward local port 8080 to the grafana service" names Grafana, which has no port
    /// tool, and spells `port_forward`. The named service is then what is acted on, not
    /// what acts, and the not-offered rule steps aside. "sentry assign the issue" spells
    /// Linear's `assignIssue`, but Sentry's tool gets an issue: there the request is
    /// Sentry's, and refused. Asked only before a refusal.
    fn spelled_elsewhere(
        &self,
        outcome: &Outcome,
        index: &Index,
        tools: &impl Tools,
        scope: &[&str],
        words: &QueryWords<'_>,
    ) -> bool {
        // Whether a tool of `scope` has the stem of `t` in its name.
        let scope_names = |t: &QueryTerm| {
            index.any_match_in_groups(t.word(), scope, |d| {
                tools.tool(d).is_some_and(|tool| self.name_words(index, tool).has_stem(t.stem()))
            })
        };
        outcome.hits().iter().filter(|h| !h.is_exact_key()).any(|h| {
            let Some(tool) = tools.tool(h.doc()) else { return false };
            if scope.binary_search(&tool.server).is_ok() {
                return false;
            }
            let name = self.name_words(index, tool);
            name.spelled_whole_by(words)
                && !outcome.terms().iter().any(|t| {
                    t.origin() != Origin::Bigram
                        && name.has_stem(t.stem())
                        && self.actions.action(t.stem()).is_none()
                        && scope_names(t)
                })
        })
    }

    /// Whether a hit of `outcome` whose tool `of` accepts has a name of two words or more
    /// that the request spells ([`NameWords::spelled_whole_by_any`]): evidence that a
    /// connected tool does what is asked, which a service rule needs to be without before it
    /// refuses. A one-word name is weak evidence alone (`expire` for "how long until this
    /// redis key expires"). Asked only before a refusal.
    fn spelled_hit(
        &self,
        outcome: &Outcome,
        index: &Index,
        tools: &impl Tools,
        words: &QueryWords<'_>,
        of: impl Fn(DocId, ToolRef<'_>) -> bool,
    ) -> bool {
        outcome.hits().iter().any(|h| {
            tools.tool(h.doc()).is_some_and(|tool| {
                self.name_words(index, tool).spelled_whole_by_any(words) && of(h.doc(), tool)
            })
        })
    }

    /// Whether a generic hit, ranked above every hit tied to another service, has a name of
    /// two words or more that the request says whole, each word by its own stem
    /// ([`NameWords::spelled_whole_by`]): the evidence a missing-service refusal must be
    /// without. A tool is generic when neither its server's name
    /// ([`Services::names_server`]) nor its own text ([`Intent::services_of`]) names a
    /// known service; it is tied to another service when one of them names a service that is
    /// not one of the request's missing ones (`missing`). "Check the status of the MySQL
    /// database" is answered by a generic `checkDatabaseStatus` that takes the database's
    /// name; "add a card to our Trello board" is refused when the best hits are another
    /// product's boards and items, and so is "drop the collection from our mongodb
    /// database", whose generic hit (`delete_relations`) the request says only through the
    /// lexicon. Asked only before a refusal.
    fn generic_fits_first(
        &self,
        outcome: &Outcome,
        index: &Index,
        tools: &impl Tools,
        words: &QueryWords<'_>,
        missing: &[u32],
    ) -> bool {
        for h in outcome.hits().iter().filter(|h| !h.is_exact_key()) {
            let Some(tool) = tools.tool(h.doc()) else { continue };
            let names = self.services_of(index, tools, h.doc(), tool);
            if self.services.names_server(tool.server) || names.iter().any(|s| !missing.contains(s))
            {
                return false;
            }
            if names.is_empty() && self.name_words(index, tool).spelled_whole_by(words) {
                return true;
            }
        }
        false
    }

    /// The known services the own text of `tool` (document `doc`) names, sorted: by a word of
    /// its name, description or top-level parameters ([`Tools::text`]; names, descriptions,
    /// `enum` and `const` values), as a tool that takes the service as a value does
    /// ("the platform (e.g., Facebook, Twitter)"). Worked out the first time, then kept in its
    /// [`ToolFacts`].
    fn services_of<'t>(
        &self,
        index: &Index,
        tools: &impl Tools,
        doc: DocId,
        tool: ToolRef<'t>,
    ) -> &'t [u32] {
        tool.facts.services.get_or_init(|| {
            let mut texts = vec![tool.name];
            if let Some(text) = tools.text(doc) {
                texts.push(text.description);
                schema_strings(text.input_schema, &mut texts);
            }
            self.services.named_in_text(index.analyzer(), texts).into_boxed_slice()
        })
    }

    /// The words of `tool`'s name, for name spelling (worked out the first time).
    fn name_words<'t>(&self, index: &Index, tool: ToolRef<'t>) -> &'t NameWords {
        tool.facts.name_words.get_or_init(|| {
            NameWords::of_tool(
                index.analyzer(),
                index.expander().map(|e| &**e),
                &self.services,
                tool.server,
                tool.name,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use toolsift_rank::{DocId, Document, Index};

    use super::{Intent, Judgement, ToolFacts, ToolRef, ToolText, Tools};
    use crate::Reason;

    /// A host over `(server, name, description)` tools, indexed with the tuned preset; the
    /// description's first sentence is the summary, `schema` every tool's input schema.
    struct Host {
        index: Index,
        intent: Intent,
        tools: Vec<(&'static str, &'static str, ToolFacts)>,
        descriptions: Vec<&'static str>,
        schema: Value,
        ids: Vec<DocId>,
    }

    impl Tools for Host {
        fn tool(&self, doc: DocId) -> Option<ToolRef<'_>> {
            let (server, name, facts) = self.tools.get(self.ids.iter().position(|&d| d == doc)?)?;
            Some(ToolRef { server, name, facts })
        }

        fn text(&self, doc: DocId) -> Option<ToolText<'_>> {
            let at = self.ids.iter().position(|&d| d == doc)?;
            Some(ToolText { description: self.descriptions.get(at)?, input_schema: &self.schema })
        }
    }

    impl Host {
        fn new(catalog: &[(&'static str, &'static str, &'static str)], schema: &Value) -> Host {
            let mut index = Index::tuned().build().expect("tuned preset");
            let summary = |d: &'static str| d.split(". ").next().unwrap_or(d);
            let docs: Vec<Document<'_>> = catalog
                .iter()
                .map(|&(server, name, description)| {
                    Document::new()
                        .field("name", format!("{server} {name}"))
                        .field("summary", summary(description))
                        .field("details", description)
                        .group(server)
                })
                .collect();
            let ids = index.add(docs).expect("documents");
            let mut intent = Intent::builder().build(index.analyzer());
            let mut servers: Vec<&str> = catalog.iter().map(|t| t.0).collect();
            servers.dedup();
            // A tool's `name` field: its server's name and its own.
            for server in servers {
                let names: Vec<String> = catalog
                    .iter()
                    .filter(|t| t.0 == server)
                    .map(|t| format!("{server} {}", t.1))
                    .collect();
                intent.set_server(index.analyzer(), server, names.iter().map(String::as_str));
            }
            let tools = catalog
                .iter()
                .map(|&(server, name, description)| {
                    let facts = intent.tool_facts(
                        index.analyzer(),
                        name,
                        summary(description),
                        schema,
                        description,
                    );
                    (server, name, facts)
                })
                .collect();
            let descriptions = catalog.iter().map(|t| t.2).collect();
            Host { index, intent, tools, descriptions, schema: schema.clone(), ids }
        }

        /// The judgement of `text`, searched for its top 10.
        fn judged(&self, text: &str) -> Judgement {
            let request = self.intent.read(self.index.analyzer(), text);
            let outcome = self.index.search_analyzed(request.query(), 10);
            self.intent.judge(&request, &outcome, &self.index, self, 10)
        }

        /// The refusal's reason for `request`, or `None` when it is answered.
        fn refused(&self, text: &str) -> Option<Reason> {
            match self.judged(text) {
                Judgement::Refused(r) => Some(r.reason()),
                judged => {
                    assert!(!judged.hits().is_empty(), "{text:?}: nothing found");
                    None
                }
            }
        }
    }

    #[test]
    fn a_tool_that_names_the_missing_service_and_whose_name_is_spelled_answers() {
        let platform = json!({"type": "object", "properties": {"platform": {
            "type": "string", "enum": ["twitter", "facebook", "instagram"]}}});
        let host = Host::new(
            &[
                ("social", "getLikes", "Get the number of likes of a post."),
                ("social", "getFollowers", "Get the followers of an account."),
            ],
            &platform,
        );
        // `getLikes` takes Facebook as a value, and the request spells its name.
        assert_eq!(host.refused("retrieve the likes of the post on Facebook"), None);
        // A service its text does not name is still missing.
        assert_eq!(
            host.refused("retrieve the likes of the post on TikTok"),
            Some(Reason::MissingService)
        );
        // A request that spells no name is refused, whatever the tools' text names.
        assert_eq!(host.refused("facebook likes"), Some(Reason::MissingService));
        // Without the service in its text, a spelled name is no evidence.
        let plain = Host::new(
            &[("social", "getLikes", "Get the number of likes of a post.")],
            &json!({"type": "object"}),
        );
        assert_eq!(
            plain.refused("retrieve the likes of the post on Facebook"),
            Some(Reason::MissingService)
        );
    }

    #[test]
    fn a_generic_tool_that_fits_before_any_other_service_answers() {
        let schema = json!({"type": "object", "properties": {"database_name": {"type": "string"}}});
        let generic = [
            ("ops", "checkDatabaseStatus", "Check the status of a database."),
            ("ops", "listDatabases", "List the databases."),
        ];
        let host = Host::new(&generic, &schema);
        // No tool names MySQL, but a tool that belongs to no service fits, spelled whole: the
        // hits come with the service that is not connected.
        assert_eq!(host.refused("check the status of the MySQL database"), None);
        let judged = host.judged("check the MySQL database status");
        assert_eq!(judged.missing_services(), ["mysql"]);
        assert!(matches!(judged, Judgement::HitsWithMissing { ref hits, .. } if !hits.is_empty()));
        // A request naming no missing service has plain hits.
        let judged = host.judged("check the database status");
        assert!(matches!(judged, Judgement::Hits(ref hits) if !hits.is_empty()));
        // Spelled only through the lexicon ("examine" for check) is no evidence.
        assert_eq!(
            host.refused("examine the health of the MySQL database"),
            Some(Reason::MissingService)
        );
        // A tool of another service that fits better is what the catalog offers instead.
        let host = Host::new(
            &[
                ("ops", "checkStatus", "Check the status of a service."),
                ("postgres", "check_database_status", "Check the status of the database."),
            ],
            &schema,
        );
        assert_eq!(
            host.refused("check the status of the MySQL database"),
            Some(Reason::MissingService)
        );
    }

    #[test]
    fn a_terse_request_is_judged_as_its_sentence_is() {
        let host = Host::new(
            &[
                ("github", "get_latest_release", "Get the latest release."),
                ("github", "list_releases", "List the releases."),
                ("github", "create_issue", "Create an issue."),
            ],
            &json!({"type": "object"}),
        );
        // The service first, then the verb: no GitHub tool creates a release, in either form.
        for request in ["create a new github release", "github create release"] {
            assert_eq!(host.refused(request), Some(Reason::NotOffered), "{request:?}");
        }
        assert_eq!(host.refused("github create issue"), None);
        assert_eq!(host.refused("github latest release"), None);
    }

    #[test]
    fn a_writing_verb_must_be_said_where_a_tool_says_what_it_does() {
        let tools = |update: &'static str| {
            [
                ("github", "search_repositories", "Search repositories. Filters: is:archived."),
                ("github", "create_repository", "Create a new repository."),
                ("github", "update_repository", update),
            ]
        };
        let schema = json!({"type": "object"});
        // Only a search filter and a side note say archived: no tool archives.
        let mentioned =
            Host::new(&tools("Update a repository. Archived ones are read-only."), &schema);
        assert_eq!(mentioned.refused("archive the repository on github"), Some(Reason::NotOffered));
        // A summary that says it is a tool that does it.
        let said = Host::new(&tools("Update or archive a repository."), &schema);
        assert_eq!(said.refused("archive the repository on github"), None);
        // The rule judges the verb only: what a tool mentions still answers a read.
        assert_eq!(mentioned.refused("search github for archived repositories"), None);
    }

    #[test]
    fn a_light_verb_said_of_a_new_thing_a_tool_makes_is_not_judged() {
        let host = Host::new(
            &[
                ("github", "add_issue_comment", "Add a comment to an issue."),
                ("github", "get_issue", "Get an issue."),
                ("github", "get_teams", "Get the teams of the user."),
                ("slack", "conversations_leave", "Leaves a conversation."),
                ("slack", "conversations_kick", "Removes a member from a conversation."),
                ("discord", "get_member", "Get a member of the server."),
                ("discord", "add_role", "Add a role to a member."),
            ],
            &json!({"type": "object"}),
        );
        // `leave` is a tool word only through Slack's tool, which is about none of these words;
        // GitHub makes comments.
        assert_eq!(host.refused("leave a comment on the github issue"), None);
        // No GitHub tool makes a team; a particular thing is left, not made.
        assert_eq!(host.refused("leave a team in github"), Some(Reason::NotOffered));
        assert_eq!(host.refused("leave the github organization"), Some(Reason::NotOffered));
        // The kick tool is about members: kicking one is what it does, and Discord does not.
        assert_eq!(host.refused("kick a member from discord"), Some(Reason::NotOffered));
    }

    #[test]
    fn a_name_after_the_thing_acted_on_is_not_its_head() {
        let host = Host::new(
            &[
                ("okta", "deactivateUser", "Deactivate a user. Example login: jane@acme.com"),
                ("okta", "listGroups", "List the groups."),
            ],
            &json!({"type": "object"}),
        );
        // `jane` is said only in an example: a name, not what is deactivated.
        assert_eq!(host.refused("deactivate the okta user jane"), None);
        // Capitalized words after the thing are a name, whatever the catalog says of them,
        // but a capitalized thing after an action word is the thing.
        assert_eq!(host.refused("deactivate the okta user Jane Groups"), None);
        assert_eq!(host.refused("deactivate a new Okta Groups"), Some(Reason::NotOffered));
        // The thing before the name is still judged: no tool deactivates groups.
        assert_eq!(host.refused("deactivate the okta group jane"), Some(Reason::NotOffered));
    }

    #[test]
    fn a_server_named_by_its_own_name_where_a_product_sits_is_judged() {
        let host = Host::new(
            &[
                ("shortcut", "objectives_search", "Search objectives."),
                ("shortcut", "labels_create", "Create a label."),
                ("github", "create_issue", "Create an issue."),
            ],
            &json!({"type": "object"}),
        );
        // No Shortcut tool creates objectives or deletes anything.
        assert_eq!(host.refused("Create a new objective in Shortcut"), Some(Reason::NotOffered));
        assert_eq!(host.refused("shortcut delete the label"), Some(Reason::NotOffered));
        assert_eq!(host.refused("search objectives in Shortcut"), None);
        assert_eq!(host.refused("create a label in our Shortcut workspace"), None);
        // Where no product sits, the word is the ordinary one.
        assert_eq!(host.refused("delete the keyboard shortcut label"), None);
    }

    #[test]
    fn a_tool_that_runs_sql_does_what_its_kind_allows() {
        let query = json!({"type": "object", "properties": {"query": {"type": "string"}}});
        let sql = "Execute an INSERT, UPDATE, or DELETE query on the SQLite database.";
        let request = "insert a new row into the customers table in sqlite";
        let read_rows = ("sqlite", "read_rows", "Read the rows of a table.");
        let host = Host::new(&[("sqlite", "write_query", sql), read_rows], &query);
        assert_eq!(host.refused(request), None);
        // Told no query language, no tool that writes says rows.
        let plain =
            Host::new(&[("sqlite", "write_query", "Write to the database."), read_rows], &query);
        assert_eq!(plain.refused(request), Some(Reason::NotOffered));
    }

    #[test]
    fn what_is_uploaded_to_an_offered_place_is_content() {
        let host = Host::new(
            &[
                ("box", "upload_file", "Upload a file to a folder."),
                ("box", "list_folders", "List the folders."),
                ("box", "get_pdf_preview", "Get the preview of a PDF."),
            ],
            &json!({"type": "object"}),
        );
        assert_eq!(
            host.refused("Upload the signed contract PDF into our Legal folder on Box"),
            None
        );
        // What is sent to a place the service lacks is still judged.
        assert_eq!(
            host.refused("upload the contract PDF to the vault on Box"),
            Some(Reason::NotOffered)
        );
    }

    #[test]
    fn a_tool_told_the_kind_of_thing_serves_every_kind_it_lists() {
        let catalog = [
            ("hubspot", "batch_create_objects", "Create objects of one type in a batch."),
            ("hubspot", "list_contacts", "List the contacts."),
            ("github", "list_releases", "List the releases."),
        ];
        let typed = json!({"type": "object", "properties": {"objectType": {"type": "string",
            "description": "The type of object to create: contacts, companies or deals."}}});
        assert_eq!(Host::new(&catalog, &typed).refused("create a contact in hubspot"), None);
        // Told nothing of the kinds, no HubSpot tool that creates says contacts.
        assert_eq!(
            Host::new(&catalog, &json!({"type": "object"})).refused("create a contact in hubspot"),
            Some(Reason::NotOffered)
        );
        // A kind the parameter does not list is still not offered.
        assert_eq!(
            Host::new(&catalog, &typed).refused("create a hubspot release"),
            Some(Reason::NotOffered)
        );
    }

    #[test]
    fn a_tool_of_the_named_service_whose_name_is_spelled_answers() {
        let schema = json!({"type": "object"});
        let host = Host::new(
            &[
                ("discord", "get_invite_data", "Get the data of an invite."),
                ("discord", "get_user_data", "Get the data of a user."),
                ("github", "create_issue", "Create an issue."),
                ("github", "ban_user", "Ban a user from an organization."),
            ],
            &schema,
        );
        // `ban` is no Discord tool's word, but the request spells `get_invite_data`.
        assert_eq!(host.refused("ban this spammer on discord"), Some(Reason::NotOffered));
        assert_eq!(
            host.refused("fetch the invite data of minecraft on discord so we can ban spammers"),
            None
        );
        // What the verb acts on is judged against the spelled tool already.
        let datadog = Host::new(
            &[
                ("datadog", "mute_host", "Mute a host."),
                ("datadog", "list_monitors", "List the monitors."),
                ("datadog", "update_dashboard", "Update a dashboard. Its title can be set."),
                ("github", "list_releases", "List releases. Those past retention are left out."),
            ],
            &schema,
        );
        assert_eq!(
            datadog.refused("change the retention of the datadog dashboard"),
            Some(Reason::NotOffered)
        );
        // A one-word name is weak evidence alone.
        let one_word = Host::new(
            &[
                ("discord", "invites", "List the invites of a server."),
                ("github", "ban_user", "Ban a user from an organization."),
            ],
            &schema,
        );
        assert_eq!(one_word.refused("ban the invites on discord"), Some(Reason::NotOffered));
    }

    #[test]
    fn a_tool_names_the_services_its_own_text_writes() {
        let host = Host::new(
            &[("social", "getInstagramPosts", "Posts of an account (Twitter or X).")],
            &json!({"type": "object", "properties": {"site": {"enum": ["facebook"]}}}),
        );
        let tool = host.tool(host.ids[0]).expect("a tool");
        let named: Vec<u32> =
            host.intent.services_of(&host.index, &host, host.ids[0], tool).to_vec();
        let ids = |words: &[&str]| {
            let mut ids: Vec<u32> =
                words.iter().filter_map(|w| host.intent.services.service_id(w)).collect();
            ids.sort_unstable();
            ids
        };
        assert_eq!(named, ids(&["instagram", "twitter", "facebook"]));
    }
}
