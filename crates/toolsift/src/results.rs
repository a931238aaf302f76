//! [`SearchResults`]: the hits of a search, or why there are none.

use std::sync::Arc;

use toolsift_catalog::ToolId;
use toolsift_intent::{Agreement, Refusal, ToolFacts};

/// A tool and its model-facing name, as the hits of a search share them.
#[derive(Debug)]
pub(crate) struct HitTool {
    tool: ToolId,
    name: Box<str>,
    /// What the intent layer knows of it: its kinds of action, its language, its name words.
    facts: ToolFacts,
    /// The catalog position, the tie-break between equal scores.
    order: u64,
}

/// Equal when tool and name are: the facts follow from the tool, and the order key is
/// only meaningful within one search (an updated search and a fresh build of the same catalog
/// number servers differently, in the same order).
impl PartialEq for HitTool {
    fn eq(&self, other: &HitTool) -> bool {
        self.tool == other.tool && self.name == other.name
    }
}

impl Eq for HitTool {}

impl HitTool {
    pub(crate) fn new(tool: ToolId, name: &str, facts: ToolFacts, order: u64) -> HitTool {
        HitTool { tool, name: name.into(), facts, order }
    }

    /// The same tool at catalog position `order`.
    pub(crate) fn moved(&self, order: u64) -> HitTool {
        HitTool {
            tool: self.tool.clone(),
            name: self.name.clone(),
            facts: self.facts.clone(),
            order,
        }
    }

    /// What the intent layer knows of the tool.
    pub(crate) fn facts(&self) -> &ToolFacts {
        &self.facts
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
    /// Which agreement factors changed the hit's score.
    agreement: Agreement,
}

impl Hit {
    /// A hit on `tool`, whose model-facing name is `name`, with its score and the query terms
    /// it matched (in query order).
    pub fn new(tool: ToolId, name: impl Into<String>, score: f32, matched: Vec<String>) -> Hit {
        let name: String = name.into();
        let words = Arc::new(QueryText::new(matched.iter().map(String::as_str)));
        Hit {
            tool: Arc::new(HitTool::new(tool, &name, ToolFacts::default(), 0)),
            score,
            words,
            mask: None,
            agreement: Agreement::default(),
        }
    }

    /// A hit sharing its tool entry and the search's query words; `mask` has bit `i` set when
    /// `words[i]` was matched.
    pub(crate) fn shared(
        tool: Arc<HitTool>,
        score: f32,
        words: Arc<QueryText>,
        mask: u64,
        agreement: Agreement,
    ) -> Hit {
        Hit { tool, score, words, mask: Some(mask), agreement }
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
        self.agreement.demoted()
    }

    /// Whether the query spells the tool's own name (it contains every word of it), so that
    /// its score was raised; see
    /// [`ToolSearchBuilder::name_match`](crate::ToolSearchBuilder::name_match).
    pub fn name_match(&self) -> bool {
        self.agreement.name_match()
    }

    /// Whether the tool does another kind of action than the query asks for (it deletes, and
    /// the query asks for no deletion; or one only reads and the other only writes), so that
    /// its score was lowered; see
    /// [`ToolSearchBuilder::action_mismatch`](crate::ToolSearchBuilder::action_mismatch).
    pub fn action_mismatch(&self) -> bool {
        self.agreement.action_mismatch()
    }

    /// Whether the query names a connected service and the tool is not one of its servers',
    /// so that its score was lowered; see
    /// [`ToolSearchBuilder::service_mismatch`](crate::ToolSearchBuilder::service_mismatch).
    pub fn service_mismatch(&self) -> bool {
        self.agreement.service_mismatch()
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

/// The outcome of a search: hits best first, and when there are none, why. Hits for a
/// request that names a service no connected server provides come with that service
/// ([`missing_services`](SearchResults::missing_services)): the third answer between a
/// plain list and a refusal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchResults {
    hits: Vec<Hit>,
    refusal: Option<Refusal>,
    missing: Vec<String>,
}

impl SearchResults {
    /// Results holding `hits`, best first.
    pub fn new(hits: Vec<Hit>) -> SearchResults {
        SearchResults { hits, refusal: None, missing: Vec::new() }
    }

    /// No results: the search was refused, for the reason `refusal` gives.
    pub fn refused(refusal: Refusal) -> SearchResults {
        SearchResults { hits: Vec::new(), refusal: Some(refusal), missing: Vec::new() }
    }

    /// These results, noting that the request names `services` no connected server
    /// provides (ignored when there are no hits: a refusal says it itself).
    #[must_use]
    pub fn with_missing_services(mut self, services: Vec<String>) -> SearchResults {
        if !self.hits.is_empty() {
            self.missing = services;
        }
        self
    }

    /// The services the request names that no connected server provides, when it is
    /// answered anyway: a connected tool may take the service as a value ("check the status
    /// of the MySQL database" with a generic `checkDatabaseStatus`), or the service is context
    /// next to a connected one. The model should be told, so that it can say so if no hit
    /// does the job. Empty for a refusal ([`Refusal::missing_services`] says it there) and
    /// for a request that names no missing service.
    pub fn missing_services(&self) -> &[String] {
        &self.missing
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

    /// Why nothing was found: the refusal; `None` when there are hits (or the engine did not
    /// say).
    pub fn refusal(&self) -> Option<&Refusal> {
        self.refusal.as_ref()
    }

    /// [`refusal`](SearchResults::refusal) as a sentence for a person or a model.
    pub fn refusal_text(&self) -> String {
        match (&self.refusal, self.hits.is_empty()) {
            (_, false) => String::from("there are results"),
            (Some(w), true) => w.to_string(),
            (None, true) => String::from("the engine gave no reason"),
        }
    }
}
