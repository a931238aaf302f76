//! Name spelling: a query that contains every word of a tool's own name asks for that tool
//! ([`IntentBuilder::name_match`](crate::IntentBuilder::name_match)).
//!
//! "confluence create page in space" spells `confluence_create_page`; the index may still
//! rank `confluence_move_page` above it, because "space" is a rare word that the page-move
//! tool's parameters repeat. The words of a tool's name are the API's own summary of what it
//! does, so a query that says all of them is strong evidence, stronger than any one word's
//! rarity: such hits have their score raised and the page is sorted again.

use std::hash::BuildHasher;

use toolsift_rank::{Expander, QueryTerm};
use toolsift_text::{Analyzer, Origin, is_past_tense};

use crate::services::{Services, WordHash};

/// A word's 64-bit hash: name words and query words are compared by it. Two different words
/// with one hash would have to collide in 64 bits; the comparisons need no string of the
/// tool's in memory, which a search would otherwise fetch from one allocation per word.
fn hash(word: &str) -> u64 {
    WordHash::default().hash_one(word)
}

/// One word of a tool's name.
#[derive(Debug, Clone)]
struct NameWord {
    stem: u64,
    word: u64,
    /// `NameWords::entries[entries.0..entries.1]`: the expander's entries that emit it
    /// ([`Expander::word_entries`]).
    entries: (u32, u32),
}

/// The words a query must contain to spell one tool's name. Computed the first time the tool
/// is a hit (kept in its [`ToolFacts`](crate::ToolFacts)), so a build pays
/// nothing for it; three allocations, whatever the name.
#[derive(Debug, Clone)]
pub(crate) struct NameWords {
    /// Each word of the name, in name order: an identifier's parts rather than the identifier
    /// (`create` and `issue` of `createIssue`), without stopwords (`in` of
    /// `pods_list_in_namespace`), the server's own words (`linear` of `linear_createIssue` on
    /// server `linear`) and known service names (`confluence` of `confluence_create_page`),
    /// which a query need not repeat.
    words: Box<[NameWord]>,
    /// The words' expander entries, one run per word.
    entries: Box<[u32]>,
    /// The stems of the server's name, for a one-word name, which spells the tool only when
    /// the query names its server too.
    server: Box<[u64]>,
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
        let mut stems: Vec<u64> = Vec::new();
        analyzer.for_each_token(server, |t| stems.push(hash(t.stem)));
        let mut words: Vec<NameWord> = Vec::new();
        let mut entries: Vec<u32> = Vec::new();
        // The position of the last whole word kept, last in `words`: its parts, which follow
        // it at the same position (camelCase), replace it.
        let mut last_whole: Option<u32> = None;
        analyzer.for_each_token(name, |t| {
            let whole = t.origin != Origin::Part;
            if !whole
                && last_whole.take_if(|p| *p == t.position).is_some()
                && let Some(popped) = words.pop()
            {
                entries.truncate(popped.entries.0 as usize);
            }
            let stem = hash(t.stem);
            if stems.contains(&stem) || services.is_service(t.word) || analyzer.is_stopword(t.word)
            {
                return;
            }
            if whole {
                last_whole = Some(t.position);
            }
            let start = to_u32(entries.len());
            entries.extend_from_slice(expander.map_or(&[][..], |e| e.word_entries(t.stem)));
            words.push(NameWord {
                stem,
                word: hash(t.word),
                entries: (start, to_u32(entries.len())),
            });
        });
        NameWords { words: words.into(), entries: entries.into(), server: stems.into() }
    }

    /// Whether a query of `terms` spells the name: every name word is the stem of a query term,
    /// or a word the expander expands a query term to (`open` spells the `create` of
    /// `create_pull_request`, `pr` the `pull` and `request` of `merge_pull_request`). A query
    /// word in the past tense or in `-ing` spells only the same word (`running` does not spell
    /// the `run` of `pods_run`: "pods running" describes pods). A name of one word (`get`,
    /// `logs`) is weak evidence alone: it counts only when the query also names the tool's
    /// server, by a word of the server's name or, `names_service`, by a known service the
    /// server provides.
    pub(crate) fn spelled_by(&self, terms: &QueryWords<'_>, names_service: bool) -> bool {
        match &*self.words {
            [] => false,
            [one] => {
                terms.say(one, &self.entries)
                    && (names_service
                        || self.server.iter().any(|s| terms.words.iter().any(|q| q.stem == *s)))
            }
            words => words.iter().all(|w| terms.say(w, &self.entries)),
        }
    }

    /// Whether the query says every word of a name of two words or more by its own stem,
    /// not through the lexicon: the name alone says what is asked (`forward` and `port`
    /// spell `port_forward`), whichever server the query names.
    pub(crate) fn spelled_whole_by(&self, terms: &QueryWords<'_>) -> bool {
        self.words.len() >= 2 && self.words.iter().all(|w| terms.say_itself(w))
    }

    /// Whether the name has two words or more and the query says each of them, by its stem
    /// or through an expansion ([`NameWords::spelled_by`] without one-word names).
    pub(crate) fn spelled_whole_by_any(&self, terms: &QueryWords<'_>) -> bool {
        self.words.len() >= 2 && self.words.iter().all(|w| terms.say(w, &self.entries))
    }

    /// Whether `stem` is the stem of one of the name's words.
    pub(crate) fn has_stem(&self, stem: &str) -> bool {
        let stem = hash(stem);
        self.words.iter().any(|w| w.stem == stem)
    }
}

/// A query's terms as name spelling reads them, computed once per search: each term, and the
/// catalog words a term taken for a typo was corrected to.
#[derive(Default)]
pub(crate) struct QueryWords<'t> {
    words: Vec<QueryWord<'t>>,
    /// Every word's expander entries, sorted and without repeats: whether some word has an
    /// entry is one binary search.
    entries: Vec<u32>,
}

/// One query term as name spelling reads it.
struct QueryWord<'t> {
    stem: u64,
    word: u64,
    /// Whether the word describes rather than asks (past tense, `-ing`): it spells only
    /// itself.
    inflected: bool,
    /// The expander's entries it is looked up in ([`Expander::key_entries`]); none for an
    /// inflected word.
    entries: &'t [u32],
}

impl<'t> QueryWords<'t> {
    pub(crate) fn new(
        terms: &[QueryTerm],
        expander: Option<&'t dyn Expander>,
        analyzer: &Analyzer,
    ) -> QueryWords<'t> {
        let mut words: Vec<QueryWord<'t>> = terms
            .iter()
            .map(|t| {
                let inflected = inflected(t.word(), t.stem());
                let entries = match expander {
                    Some(e) if !inflected => e.key_entries(t.stem()),
                    _ => &[],
                };
                QueryWord { stem: hash(t.stem()), word: hash(t.word()), inflected, entries }
            })
            .collect();
        // A word the index took for a typo says the catalog words it was taken for
        // (`craete` says `create`).
        for t in terms {
            for c in t.corrections() {
                let stem = analyzer.stem(c);
                let entries = expander.map_or(&[][..], |e| e.key_entries(&stem));
                words.push(QueryWord {
                    stem: hash(&stem),
                    word: hash(c),
                    inflected: false,
                    entries,
                });
            }
        }
        let mut all: Vec<u32> = words.iter().flat_map(|w| w.entries.iter().copied()).collect();
        all.sort_unstable();
        all.dedup();
        QueryWords { words, entries: all }
    }

    /// Whether some term says name word `n` by the same stem (the same word, for an
    /// inflected term).
    fn say_itself(&self, n: &NameWord) -> bool {
        self.words.iter().any(|q| q.stem == n.stem && (!q.inflected || q.word == n.word))
    }

    /// Whether some term says name word `n` (whose entries are in `entries`): by itself
    /// ([`QueryWords::say_itself`]), or by an expansion to it (an entry of the expander in
    /// common).
    fn say(&self, n: &NameWord, entries: &[u32]) -> bool {
        let emitting = entries.get(n.entries.0 as usize..n.entries.1 as usize).unwrap_or_default();
        self.say_itself(n) || emitting.iter().any(|e| self.entries.binary_search(e).is_ok())
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Whether a query word is a verb form that describes (`uploaded`, `running`): in the past
/// tense, or in `-ing` with a shorter stem.
fn inflected(word: &str, stem: &str) -> bool {
    is_past_tense(word, stem) || (word.ends_with("ing") && stem.len() < word.len())
}

#[cfg(test)]
mod tests {
    use super::{NameWords, hash};
    use crate::services::{Services, parse_services};
    use toolsift_text::Analyzer;

    /// Whether the words a query must say to spell tool `name` of server `server` are `want`.
    #[track_caller]
    fn check(server: &str, name: &str, want: &[&str]) {
        let analyzer = Analyzer::default();
        let services =
            Services::new(parse_services(&analyzer, ["confluence", "mongodb mongo"]), Vec::new());
        let name = NameWords::of_tool(&analyzer, None, &services, server, name);
        let got: Vec<u64> = name.words.iter().map(|n| n.word).collect();
        let want: Vec<u64> = want.iter().map(|w| hash(w)).collect();
        assert_eq!(got, want, "{name:?}");
    }

    #[test]
    fn parts_replace_their_identifier_and_context_words_are_left_out() {
        check("linear", "linear_createIssue", &["create", "issue"]);
        check("atlassian", "confluence_create_page", &["create", "page"]);
        check("kube", "pods_list_in_namespace", &["pods", "list", "namespace"]);
        check("mongodb", "mongodb-logs", &["logs"]);
        // A whole word that is left out does not take a later word's parts with it.
        check("db", "mongo getLogs", &["get", "logs"]);
        check("fetch", "fetch", &[]);
    }
}
