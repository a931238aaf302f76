//! What the model reads, through the facade: the catalog listing for the prompt and the
//! rendering of search results, so a host needs only this crate.

use toolsift_listing::{Hit as ListedHit, Lister, Listing, NoMatch, Rendered, ResultForm};

use crate::results::SearchResults;
use crate::search::ToolSearch;

impl ToolSearch {
    /// The catalog listing for a prompt or the `tool_search` description, at most `budget`
    /// tokens (estimated), rendered with the default [`Lister`]; see
    /// [`listing_with`](ToolSearch::listing_with) for another configuration.
    ///
    /// Each call renders from the catalog afresh (about 2 ms for 4,000 tools). A host that
    /// renders several budgets of one catalog keeps a
    /// [`PreparedListing`](toolsift_listing::PreparedListing) from
    /// [`Lister::prepare`] instead.
    pub fn listing(&self, budget: usize) -> Listing {
        self.listing_with(&Lister::default(), budget)
    }

    /// [`listing`](ToolSearch::listing) with a configured [`Lister`].
    pub fn listing_with(&self, lister: &Lister, budget: usize) -> Listing {
        lister.listing(self.catalog(), budget)
    }

    /// Renders the results of `query` for the model in `form`, with the default [`Lister`].
    ///
    /// Hits become compact text lines, JSON definitions, or provider shapes; an empty result
    /// becomes the why-empty text (the words no connected tool carries and the connected
    /// servers, telling the model to stop rephrasing), whatever the form. Text hits for a
    /// request that names a service no connected server provides end with
    /// [`Lister::render_missing`]'s line; a JSON form keeps its shape, and a host adds that
    /// line beside it ([`SearchResults::missing_services`]).
    ///
    /// ```
    /// use toolsift::{Catalog, ToolSearch, load_mcp};
    /// use toolsift::listing::ResultForm;
    ///
    /// let slack = load_mcp(r#"[{"name": "post_message", "description": "Post a message to a channel.",
    ///     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
    ///                     "required": ["text"]}}]"#, "slack")?;
    /// let mut catalog = Catalog::new();
    /// catalog.add_server(slack.server);
    /// let search = ToolSearch::new(catalog)?;
    ///
    /// let query = "post a message";
    /// let text = search.render(query, &search.search(query, 5), ResultForm::Text).to_string();
    /// assert_eq!(text, "- mcp__slack__post_message(text: string): Post a message to a channel\n");
    ///
    /// let query = "fax a contract";
    /// let none = search.render(query, &search.search(query, 5), ResultForm::Text).to_string();
    /// assert!(none.contains("fax"), "{none}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render(&self, query: &str, results: &SearchResults, form: ResultForm) -> Rendered {
        self.render_with(&Lister::default(), query, results, form)
    }

    /// What the model is told about an empty answer to `query`: the catalog's servers and, from
    /// the [`Refusal`](crate::Refusal) ([`SearchResults::refusal`]), the unknown and weak
    /// words, the missing services and the unoffered action. This is the one place a refusal
    /// becomes the listing's input. [`render`](ToolSearch::render) renders it for empty results; a caller
    /// can add to it (a server filter) and render it with [`Lister::render_empty`].
    pub fn no_match(&self, query: &str, results: &SearchResults) -> NoMatch {
        let servers = self.catalog().servers().map(|s| s.name.as_str());
        let mut no_match = NoMatch::new(query).servers(servers);
        if let Some(why) = results.refusal() {
            no_match = no_match
                .unknown_words(why.unknown_terms())
                .weak_words(why.filtered_terms())
                .missing_services(why.missing_services());
            if let Some((service, word)) = why.not_offered_word() {
                no_match = no_match.not_offered(service, word);
            }
            if why.reason() == crate::Reason::Index(crate::Abstention::NoTerms) {
                no_match = no_match.no_words();
            }
        }
        no_match
    }

    /// [`render`](ToolSearch::render) with a configured [`Lister`].
    pub fn render_with(
        &self,
        lister: &Lister,
        query: &str,
        results: &SearchResults,
        form: ResultForm,
    ) -> Rendered {
        let catalog = self.catalog();
        if results.is_empty() {
            return Rendered::Text(lister.render_empty(&self.no_match(query, results)));
        }
        let hits: Vec<ListedHit<'_>> = results
            .hits()
            .iter()
            .filter_map(|hit| {
                let tool = catalog.tool(hit.tool())?;
                Some(ListedHit::new(tool, hit.name()).with_score(hit.score()))
            })
            .collect();
        match lister.render_hits(&hits, form) {
            // The third answer: hits, then the line on the named services not connected.
            Rendered::Text(mut text) if !results.missing_services().is_empty() => {
                text.push_str(&lister.render_missing(results.missing_services()));
                Rendered::Text(text)
            }
            rendered => rendered,
        }
    }
}
