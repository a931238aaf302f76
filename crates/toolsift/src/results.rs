//! [`SearchResults`]: the hits of a search, or why there are none.

use std::fmt;
use std::sync::{Arc, OnceLock};

use toolsift_catalog::ToolId;
use toolsift_rank::Abstention;

use crate::actions::ActionSet;
use crate::names::NameWords;

/// A tool and its model-facing name, as the hits of a search share them.
#[derive(Debug)]
pub(crate) struct HitTool {
    tool: ToolId,
    name: Box<str>,
    /// What the tool does, for action agreement.
    actions: ActionSet,
    /// The words of its name, for name spelling; computed the first time they are needed.
    name_words: OnceLock<NameWords>,
    /// The catalog position, the tie-break between equal scores.
    order: u64,
    /// Whether its summary has a character of a CJK script (`ServerDocs::cjk`).
    cjk: bool,
}

/// Equal when tool and name are: the action set follows from the tool, and the order key is
/// only meaningful within one search (an updated search and a fresh build of the same catalog
/// number servers differently, in the same order).
impl PartialEq for HitTool {
    fn eq(&self, other: &HitTool) -> bool {
        self.tool == other.tool && self.name == other.name
    }
}

impl Eq for HitTool {}

impl HitTool {
    pub(crate) fn new(
        tool: ToolId,
        name: &str,
        actions: ActionSet,
        cjk: bool,
        order: u64,
    ) -> HitTool {
        HitTool { tool, name: name.into(), actions, name_words: OnceLock::new(), order, cjk }
    }

    /// The same tool at catalog position `order`.
    pub(crate) fn moved(&self, order: u64) -> HitTool {
        HitTool {
            tool: self.tool.clone(),
            name: self.name.clone(),
            actions: self.actions,
            name_words: OnceLock::new(),
            order,
            cjk: self.cjk,
        }
    }

    /// Whether its summary has a character of a CJK script.
    pub(crate) fn cjk(&self) -> bool {
        self.cjk
    }

    pub(crate) fn actions(&self) -> ActionSet {
        self.actions
    }

    /// The words of the tool's name, made by `init` the first time (the search that first
    /// has the tool among its hits; they depend only on the tool and the search's settings).
    pub(crate) fn name_words(&self, init: impl FnOnce() -> NameWords) -> &NameWords {
        self.name_words.get_or_init(init)
    }

    pub(crate) fn order(&self) -> u64 {
        self.order
    }

    pub(crate) fn tool(&self) -> &ToolId {
        &self.tool
    }

    /// The model-facing name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn server(&self) -> &str {
        &self.tool.server
    }
}

/// The query words a search's hits share: their text end to end, and where each ends. Three
/// allocations for the whole search, whatever the number of words.
#[derive(Debug, Default)]
pub(crate) struct QueryText {
    text: Box<str>,
    ends: Box<[u32]>,
}

impl QueryText {
    /// The words of `words`, in order.
    pub(crate) fn new<'w>(words: impl IntoIterator<Item = &'w str> + Clone) -> QueryText {
        let (n, len) = words.clone().into_iter().fold((0, 0), |(n, len), w| (n + 1, len + w.len()));
        let mut text = String::with_capacity(len);
        let mut ends = Vec::with_capacity(n);
        for w in words {
            text.push_str(w);
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        QueryText { text: text.into(), ends: ends.into() }
    }

    /// The words, in order.
    fn iter(&self) -> QueryTextIter<'_> {
        QueryTextIter { text: &self.text, ends: self.ends.iter(), start: 0 }
    }
}

/// The words of a [`QueryText`], in order.
#[derive(Debug, Clone)]
struct QueryTextIter<'a> {
    text: &'a str,
    ends: std::slice::Iter<'a, u32>,
    start: usize,
}

impl<'a> Iterator for QueryTextIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let end = *self.ends.next()? as usize;
        let word = self.text.get(self.start..end).unwrap_or_default();
        self.start = end;
        Some(word)
    }
}

/// One tool a search found.
///
/// A hit is cheap to make and to clone: [`ToolSearch`](crate::ToolSearch) keeps every tool's
/// id and model-facing name once, and a hit shares them (an [`Arc`]); the matched terms are
/// the search's query words, shared by all its hits, and a set of positions among them.
///
/// Two hits are equal when tool, name, score and matched terms are.
#[derive(Debug, Clone)]
pub struct Hit {
    tool: Arc<HitTool>,
    score: f32,
    /// The words the matched terms are taken from.
    words: Arc<QueryText>,
    /// Which of `words` were matched (bit `i` for word `i`); `None` for all of them.
    mask: Option<u64>,
    /// Why the hit's score was changed: the [`ACTION`], [`SERVICE`] and [`NAME`] bits.
    adjusted: u8,
}

/// [`Hit`]'s demotion bit for a tool that does another kind of action than the query asks for.
pub(crate) const ACTION: u8 = 1;
/// [`Hit`]'s demotion bit for a tool of another service than the query names.
pub(crate) const SERVICE: u8 = 2;
/// [`Hit`]'s bit for a tool whose name the query spells (a raised score, not a demotion).
pub(crate) const NAME: u8 = 4;

impl Hit {
    /// A hit on `tool`, whose model-facing name is `name`, with its score and the query terms
    /// it matched (in query order).
    pub fn new(tool: ToolId, name: impl Into<String>, score: f32, matched: Vec<String>) -> Hit {
        let name: String = name.into();
        let words = Arc::new(QueryText::new(matched.iter().map(String::as_str)));
        Hit {
            tool: Arc::new(HitTool {
                tool,
                name: name.into_boxed_str(),
                actions: ActionSet::default(),
                name_words: OnceLock::new(),
                order: 0,
                cjk: false,
            }),
            score,
            words,
            mask: None,
            adjusted: 0,
        }
    }

    /// A hit sharing its tool entry and the search's query words; `mask` has bit `i` set when
    /// `words[i]` was matched.
    pub(crate) fn shared(
        tool: Arc<HitTool>,
        score: f32,
        words: Arc<QueryText>,
        mask: u64,
        adjusted: u8,
    ) -> Hit {
        Hit { tool, score, words, mask: Some(mask), adjusted }
    }

    /// The catalog position of the tool, the tie-break between equal scores.
    pub(crate) fn order(&self) -> u64 {
        self.tool.order()
    }

    /// The tool's identity: (server, original name).
    pub fn tool(&self) -> &ToolId {
        &self.tool.tool
    }

    /// The tool's model-facing name (`mcp__github__create_issue`).
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// The score; higher is better. Only comparable within one search.
    ///
    /// It is the index's score ([`toolsift_rank::Hit::score`], which
    /// [`ToolSearch::explain`](crate::ToolSearch::explain) breaks down), times
    /// [`ToolSearchBuilder::action_mismatch`](crate::ToolSearchBuilder::action_mismatch) and
    /// [`ToolSearchBuilder::service_mismatch`](crate::ToolSearchBuilder::service_mismatch) for
    /// each reason the hit is [`demoted`](Hit::demoted), and times
    /// [`ToolSearchBuilder::name_match`](crate::ToolSearchBuilder::name_match) when the query
    /// spells the tool's name ([`name_match`](Hit::name_match)).
    pub fn score(&self) -> f32 {
        self.score
    }

    /// Whether the hit was moved down the page: its tool does another kind of action than the
    /// query asks for ([`action_mismatch`](Hit::action_mismatch)) or belongs to another service
    /// than the query names ([`service_mismatch`](Hit::service_mismatch)).
    pub fn demoted(&self) -> bool {
        self.adjusted & (ACTION | SERVICE) != 0
    }

    /// Whether the hit's score differs from the index's: it was [`demoted`](Hit::demoted) or
    /// raised for [`name_match`](Hit::name_match).
    pub(crate) fn reordered(&self) -> bool {
        self.adjusted != 0
    }

    /// Whether the query spells the tool's own name (it contains every word of it), so that
    /// its score was raised; see
    /// [`ToolSearchBuilder::name_match`](crate::ToolSearchBuilder::name_match).
    pub fn name_match(&self) -> bool {
        self.adjusted & NAME != 0
    }

    /// Whether the tool does another kind of action than the query asks for (it deletes, and
    /// the query asks for no deletion; or one only reads and the other only writes), so that
    /// its score was lowered; see
    /// [`ToolSearchBuilder::action_mismatch`](crate::ToolSearchBuilder::action_mismatch).
    pub fn action_mismatch(&self) -> bool {
        self.adjusted & ACTION != 0
    }

    /// Whether the query names a connected service and the tool is not one of its servers',
    /// so that its score was lowered; see
    /// [`ToolSearchBuilder::service_mismatch`](crate::ToolSearchBuilder::service_mismatch).
    pub fn service_mismatch(&self) -> bool {
        self.adjusted & SERVICE != 0
    }

    /// The query terms this tool matched, in query order.
    ///
    /// ```
    /// use toolsift::{Hit, ToolId};
    /// let hit = Hit::new(ToolId::new("time", "now"), "mcp__time__now", 1.0, vec!["time".into()]);
    /// assert_eq!(hit.matched().collect::<Vec<_>>(), ["time"]);
    /// assert_eq!(hit.matched().len(), 1);
    /// ```
    pub fn matched(&self) -> MatchedTerms<'_> {
        MatchedTerms { words: self.words.iter().enumerate(), mask: self.mask }
    }
}

impl PartialEq for Hit {
    // The same comparison a derived `PartialEq` makes of the score.
    #[allow(clippy::float_cmp)]
    fn eq(&self, other: &Hit) -> bool {
        self.tool == other.tool && self.score == other.score && self.matched().eq(other.matched())
    }
}

/// The query terms a [`Hit`] matched, in query order: an iterator of `&str`, from
/// [`Hit::matched`]. It borrows the hit and allocates nothing.
#[derive(Debug, Clone)]
pub struct MatchedTerms<'a> {
    words: std::iter::Enumerate<QueryTextIter<'a>>,
    mask: Option<u64>,
}

impl MatchedTerms<'_> {
    fn wanted(mask: Option<u64>, i: usize) -> bool {
        mask.is_none_or(|m| {
            u32::try_from(i).ok().and_then(|i| m.checked_shr(i)).is_some_and(|m| m & 1 == 1)
        })
    }
}

impl<'a> Iterator for MatchedTerms<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let mask = self.mask;
        self.words.by_ref().find(|&(i, _)| MatchedTerms::wanted(mask, i)).map(|(_, w)| w)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for MatchedTerms<'_> {
    fn len(&self) -> usize {
        let mask = self.mask;
        self.words.clone().filter(|&(i, _)| MatchedTerms::wanted(mask, i)).count()
    }
}

/// Why a search returned nothing, so a host can tell the model to stop rephrasing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhyEmpty {
    reason: Abstention,
    unknown: Vec<String>,
    filtered: Vec<String>,
    services: Vec<String>,
    not_offered: Option<(String, String)>,
}

impl WhyEmpty {
    /// An explanation: the rule that emptied the answer, the query terms no tool contains, and
    /// the query terms that matched tools which the abstention rules then dropped.
    pub fn new(reason: Abstention, unknown: Vec<String>, filtered: Vec<String>) -> WhyEmpty {
        WhyEmpty { reason, unknown, filtered, services: Vec::new(), not_offered: None }
    }

    /// The same explanation, naming the services the query asks for that the catalog has no
    /// tools for (with [`Abstention::MissingService`]).
    #[must_use]
    pub fn with_missing_services(mut self, services: Vec<String>) -> WhyEmpty {
        self.services = services;
        self
    }

    /// The same explanation, naming the service the query asks for and the query word none of
    /// its tools matches (with [`Abstention::NotOffered`]).
    #[must_use]
    pub fn with_not_offered(mut self, service: String, word: String) -> WhyEmpty {
        self.not_offered = Some((service, word));
        self
    }

    /// The service the query names and the query word that none of its tools matches, or,
    /// when none of its tools that do the kind of action asked says the thing the request's
    /// verb acts on (other tools of it may), the verb and that thing (`create release`);
    /// `None` unless the reason is [`Abstention::NotOffered`].
    pub fn not_offered(&self) -> Option<(&str, &str)> {
        self.not_offered.as_ref().map(|(s, w)| (s.as_str(), w.as_str()))
    }

    /// The services the query names that no server or tool name of the catalog contains, or
    /// the everyday thing no tool is named for (`pizza`, by the errand rule); empty unless the
    /// reason is [`Abstention::MissingService`].
    pub fn missing_services(&self) -> &[String] {
        &self.services
    }

    /// The rule that emptied the answer.
    pub fn reason(&self) -> Abstention {
        self.reason
    }

    /// Query terms that occur in no tool at all.
    pub fn unknown_terms(&self) -> &[String] {
        &self.unknown
    }

    /// Query terms that occur in some tools, all of which the abstention rules dropped.
    pub fn filtered_terms(&self) -> &[String] {
        &self.filtered
    }
}

impl fmt::Display for WhyEmpty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            Abstention::NoTerms => f.write_str("the query has no searchable words")?,
            Abstention::AllUnknown => f.write_str("no tool mentions any word of the query")?,
            Abstention::TooFewAnswerable => {
                f.write_str("too few words of the query occur in any tool")?;
            }
            Abstention::Gate => f.write_str("no tool matches the query's most specific words")?,
            Abstention::Floor => f.write_str("no tool comes close enough to the whole query")?,
            Abstention::MissingService => {
                write!(f, "the catalog has no tools for {}", self.services.join(", "))?;
            }
            Abstention::NotOffered => match &self.not_offered {
                Some((service, word)) => write!(f, "no {service} tool matches {word:?}")?,
                None => f.write_str("the named service has no tool for this")?,
            },
            _ => f.write_str("nothing fits the query")?,
        }
        if !self.unknown.is_empty() {
            write!(f, "; unknown: {}", self.unknown.join(", "))?;
        }
        if !self.filtered.is_empty() {
            write!(f, "; matched only weakly: {}", self.filtered.join(", "))?;
        }
        Ok(())
    }
}

/// The outcome of a search: hits best first, and when there are none, why.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchResults {
    hits: Vec<Hit>,
    why_empty: Option<WhyEmpty>,
}

impl SearchResults {
    /// Results holding `hits`, best first.
    pub fn new(hits: Vec<Hit>) -> SearchResults {
        SearchResults { hits, why_empty: None }
    }

    /// No results, for the reason `why`.
    pub fn empty(why: WhyEmpty) -> SearchResults {
        SearchResults { hits: Vec::new(), why_empty: Some(why) }
    }

    /// The hits, best first: score descending, then catalog order.
    pub fn hits(&self) -> &[Hit] {
        &self.hits
    }

    /// The hits, owned.
    pub fn into_hits(self) -> Vec<Hit> {
        self.hits
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }

    /// How many hits there are.
    pub fn len(&self) -> usize {
        self.hits.len()
    }

    /// Why nothing was found; `None` when there are hits (or the engine did not say).
    pub fn why_empty(&self) -> Option<&WhyEmpty> {
        self.why_empty.as_ref()
    }

    /// [`why_empty`](SearchResults::why_empty) as a sentence for a person or a model.
    pub fn why_empty_text(&self) -> String {
        match (&self.why_empty, self.hits.is_empty()) {
            (_, false) => String::from("there are results"),
            (Some(w), true) => w.to_string(),
            (None, true) => String::from("the engine gave no reason"),
        }
    }
}
