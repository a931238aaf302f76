//! Name spelling: a query that contains every word of a tool's own name asks for that tool
//! ([`ToolSearchBuilder::name_match`](crate::ToolSearchBuilder::name_match)).
//!
//! "confluence create page in space" spells `confluence_create_page`; the index may still
//! rank `confluence_move_page` above it, because "space" is a rare word that the page-move
//! tool's parameters repeat. The words of a tool's name are the API's own summary of what it
//! does, so a query that says all of them is strong evidence, stronger than any one word's
//! rarity: such hits have their score raised and the page is sorted again.

use toolsift_rank::{Expander, QueryTerm};
use toolsift_text::{Analyzer, Origin, is_past_tense};

use crate::services::Services;

/// One word of a tool's name.
#[derive(Debug)]
struct NameWord {
    stem: Box<str>,
    word: Box<str>,
    /// The expander's entries that emit it ([`Expander::word_entries`]).
    entries: Box<[u32]>,
}

/// The words a query must contain to spell one tool's name. Computed the first time the tool
/// is a hit ([`HitTool::name_words`](crate::results::HitTool::name_words)), so a build pays
/// nothing for it.
#[derive(Debug)]
pub(crate) struct NameWords {
    /// Each word of the name, in name order: an identifier's parts rather than the identifier
    /// (`create` and `issue` of `createIssue`), without stopwords (`in` of
    /// `pods_list_in_namespace`), the server's own words (`linear` of `linear_createIssue` on
    /// server `linear`) and known service names (`confluence` of `confluence_create_page`),
    /// which a query need not repeat.
    words: Box<[NameWord]>,
    /// The stems of the server's name, for a one-word name, which spells the tool only when
    /// the query names its server too.
    server: Box<[Box<str>]>,
}

impl NameWords {
    /// The name words of tool `name` on server `server`.
    pub(crate) fn of_tool(
        analyzer: &Analyzer,
        expander: Option<&dyn Expander>,
        services: &Services,
        server: &str,
        name: &str,
    ) -> NameWords {
        let mut stems: Vec<Box<str>> = Vec::new();
        analyzer.for_each_token(server, |t| stems.push(t.stem.into()));
        let mut words: Vec<NameWord> = Vec::new();
        // The position of the last whole word kept, last in `words`: its parts, which follow
        // it at the same position (camelCase), replace it.
        let mut last_whole: Option<u32> = None;
        analyzer.for_each_token(name, |t| {
            let whole = t.origin != Origin::Part;
            if !whole && last_whole.take_if(|p| *p == t.position).is_some() {
                words.pop();
            }
            if stems.iter().any(|s| **s == *t.stem)
                || services.is_service(t.word)
                || analyzer.is_stopword(t.word)
            {
                return;
            }
            if whole {
                last_whole = Some(t.position);
            }
            let entries = expander.map_or(&[][..], |e| e.word_entries(t.stem)).into();
            words.push(NameWord { stem: t.stem.into(), word: t.word.into(), entries });
        });
        NameWords { words: words.into(), server: stems.into() }
    }

    /// Whether a query of `terms` spells the name: every name word is the stem of a query term,
    /// or a word the expander expands a query term to (`open` spells the `create` of
    /// `create_pull_request`, `pr` the `pull` and `request` of `merge_pull_request`). A query word in the past tense or in `-ing` spells only the same
    /// word (`running` does not spell the `run` of `pods_run`: "pods running" describes pods). A name of one
    /// word (`get`, `logs`) is weak evidence alone: it counts only when the query also names
    /// the tool's server, by a word of the server's name or, `names_service`, by a known
    /// service the server provides.
    pub(crate) fn spelled_by(&self, terms: &QueryWords<'_>, names_service: bool) -> bool {
        match &*self.words {
            [] => false,
            [one] => {
                terms.say(one)
                    && (names_service
                        || self.server.iter().any(|s| terms.0.iter().any(|q| q.stem == &**s)))
            }
            words => words.iter().all(|w| terms.say(w)),
        }
    }
}

/// A query's terms as name spelling reads them, computed once per search.
pub(crate) struct QueryWords<'t>(Vec<QueryWord<'t>>);

/// One query term as name spelling reads it.
struct QueryWord<'t> {
    stem: &'t str,
    word: &'t str,
    /// Whether the word describes rather than asks (past tense, `-ing`): it spells only
    /// itself.
    inflected: bool,
    /// The expander's entries it is looked up in ([`Expander::key_entries`]); none for an
    /// inflected word.
    entries: &'t [u32],
}

impl<'t> QueryWords<'t> {
    pub(crate) fn new(
        terms: &'t [QueryTerm],
        expander: Option<&'t dyn Expander>,
    ) -> QueryWords<'t> {
        QueryWords(
            terms
                .iter()
                .map(|t| {
                    let inflected = inflected(t.word(), t.stem());
                    let entries = match expander {
                        Some(e) if !inflected => e.key_entries(t.stem()),
                        _ => &[],
                    };
                    QueryWord { stem: t.stem(), word: t.word(), inflected, entries }
                })
                .collect(),
        )
    }

    /// Whether some term says name word `n`: the same stem (the same word, for an inflected
    /// term), or an expansion to it (an entry of the expander in common).
    fn say(&self, n: &NameWord) -> bool {
        self.0.iter().any(|q| {
            (q.stem == &*n.stem && (!q.inflected || q.word == &*n.word))
                || q.entries.iter().any(|e| n.entries.contains(e))
        })
    }
}

/// Whether a query word is a verb form that describes (`uploaded`, `running`): in the past
/// tense, or in `-ing` with a shorter stem.
fn inflected(word: &str, stem: &str) -> bool {
    is_past_tense(word, stem) || (word.ends_with("ing") && stem.len() < word.len())
}

#[cfg(test)]
mod tests {
    use super::NameWords;
    use crate::services::{Services, parse_services};
    use toolsift_text::Analyzer;

    /// The words (not stems) a query must say to spell tool `name` of server `server`.
    fn words(server: &str, name: &str) -> Vec<String> {
        let analyzer = Analyzer::default();
        let services = Services::new(parse_services(&analyzer, ["confluence", "mongodb mongo"]));
        let name = NameWords::of_tool(&analyzer, None, &services, server, name);
        name.words.iter().map(|n| n.word.to_string()).collect()
    }

    #[test]
    fn parts_replace_their_identifier_and_context_words_are_left_out() {
        assert_eq!(words("linear", "linear_createIssue"), ["create", "issue"]);
        assert_eq!(words("atlassian", "confluence_create_page"), ["create", "page"]);
        assert_eq!(words("kube", "pods_list_in_namespace"), ["pods", "list", "namespace"]);
        assert_eq!(words("mongodb", "mongodb-logs"), ["logs"]);
        // A whole word that is left out does not take a later word's parts with it.
        assert_eq!(words("db", "mongo getLogs"), ["get", "logs"]);
        assert!(words("fetch", "fetch").is_empty());
    }
}
