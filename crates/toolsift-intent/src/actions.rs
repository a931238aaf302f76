//! Action agreement: which kinds of action a tool and a query name, and when they disagree.
//!
//! A tool says what it does in its name (`delete-onedrive-file`, `CreateCall`, `API-post-search`)
//! and its summary ("Delete a file"); a query says what it wants done ("onedrive upload file",
//! "show me the unread emails"). Both are read through [`Actions`], the kinds of the intent
//! lexicon's action groups (read, write, delete; `toolsift-text`'s `data/actions.txt`).
//! [`ActionSet::conflicts`] says when a hit does something the query did not ask for, and
//! [`Intent::judge`](crate::Intent::judge) demotes such hits.

use serde_json::Value;
use toolsift_rank::QueryTerm;
use toolsift_text::{Action, Actions, Analyzed, Analyzer, Origin, is_past_tense};

use crate::request::words;
use crate::words::lists;

const READ: u8 = 1;
const WRITE: u8 = 2;
const DELETE: u8 = 4;
/// Not a kind: the tool takes its operation as a parameter ([`ActionSet::with_operations`]).
const CHOSEN: u8 = 8;
/// Not a kind: the tool runs a query the caller writes in SQL or Cypher
/// ([`ActionSet::with_query_language`]).
const QUERIES: u8 = 16;
/// The kinds.
const KINDS: u8 = READ | WRITE | DELETE;

/// The kinds of action a tool or a query names: a set of [`Action`]s (a delete also writes),
/// and for a tool, whether it takes its operation as a parameter
/// ([`ActionSet::with_operations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub(crate) struct ActionSet(u8);

impl ActionSet {
    fn add(&mut self, action: Action) {
        self.0 |= match action {
            Action::Read => READ,
            Action::Write => WRITE,
            Action::Delete => WRITE | DELETE,
        };
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 & KINDS == 0
    }

    /// The tool's set, marked as taking its operation as a parameter when its input schema
    /// (`schema`) has a top-level parameter named `action`, `method`, `operation` or `op` with
    /// two or more allowed values (`{"method": {"enum": ["create", "update", "delete"]}}`).
    /// Such a tool (GitHub's `label_write`, Azure DevOps's `repo_pull_request_write`) names one
    /// kind, or a generic "write", and does several: its name and summary do not say which.
    pub(crate) fn with_operations(self, schema: &Value) -> ActionSet {
        // One pass over the parameters: most tools have a few, and comparing their names is
        // cheaper than four lookups in the (hashing) map.
        let chooses = schema.get("properties").and_then(Value::as_object).is_some_and(|props| {
            props.iter().any(|(name, p)| {
                lists().operation_parameters.contains(&name.as_str())
                    && p.get("enum").and_then(Value::as_array).is_some_and(|v| v.len() >= 2)
            })
        });
        if chooses { ActionSet(self.0 | CHOSEN) } else { self }
    }

    /// The tool's set, marked as running queries in a query language when its input schema
    /// (`schema`) has a top-level string parameter named `sql`, `query` or `cypher` and its
    /// `description` names SQL or Cypher, or an SQL statement in capitals ("Run a read-only
    /// SQL query", "Execute a read Cypher query on the neo4j database", "Execute a SELECT
    /// query on the SQLite database"). Such a tool does anything to its database that its
    /// kind of action allows: "which users signed up last week in our postgres database"
    /// needs no tool named for users or weeks, "insert a new row into the customers table"
    /// none named for rows. A search tool's `query` (a search string) is not one: its
    /// description names no query language.
    pub(crate) fn with_query_language(self, schema: &Value, description: &str) -> ActionSet {
        let takes_query =
            schema.get("properties").and_then(Value::as_object).is_some_and(|props| {
                props.iter().any(|(name, p)| {
                    lists().query_parameters.contains(&name.as_str())
                        && p.get("type").and_then(Value::as_str) == Some("string")
                })
            });
        if !takes_query {
            return self;
        }
        // A statement keyword in capitals is SQL too: "Execute an INSERT, UPDATE, or DELETE
        // query on the SQLite database".
        let names_language = description.split(|c: char| !c.is_alphanumeric()).any(|w| {
            w.eq_ignore_ascii_case("sql")
                || w.eq_ignore_ascii_case("cypher")
                || ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(&w)
        });
        if names_language { ActionSet(self.0 | QUERIES) } else { self }
    }

    /// Whether the tool takes its operation as a parameter ([`ActionSet::with_operations`]).
    pub(crate) fn chooses_operation(self) -> bool {
        self.0 & CHOSEN != 0
    }

    /// Whether the tool runs queries in a query language ([`ActionSet::with_query_language`]).
    pub(crate) fn runs_queries(self) -> bool {
        self.0 & QUERIES != 0
    }

    /// Whether the set reads and does not write: for a query, it asks to read (or is a
    /// question, [`ActionSet::of_query`]).
    pub(crate) fn reads_only(self) -> bool {
        self.0 & READ != 0 && self.0 & WRITE == 0
    }

    fn writes_only(self) -> bool {
        self.0 & WRITE != 0 && self.0 & READ == 0
    }

    /// Whether the set writes, and neither reads nor deletes: a tool that makes or changes
    /// something.
    pub(crate) fn makes(self) -> bool {
        self.writes_only() && !self.deletes()
    }

    fn deletes(self) -> bool {
        self.0 & DELETE != 0
    }

    /// Whether a tool that does `tool` disagrees with a query that asks for `query`: both name
    /// an action, and either the tool deletes while the query asks for no deletion, or one only
    /// reads while the other only writes.
    pub(crate) fn conflicts(query: ActionSet, tool: ActionSet) -> bool {
        if query.is_empty() || tool.is_empty() {
            return false;
        }
        (tool.deletes() && !query.deletes())
            || (tool.reads_only() && query.writes_only())
            || (tool.writes_only() && query.reads_only())
    }

    /// Whether a tool that does `tool` can do what a query asking for `query` wants, for the
    /// known-services rule on a present service ([`Services::unoffered`]): the two do not
    /// conflict, and when the query deletes, the tool deletes too or names no action. A query
    /// that names no action is served by any tool, and so is any query by a tool that takes
    /// its operation as a parameter ([`ActionSet::with_operations`]).
    ///
    /// Stricter than [`ActionSet::conflicts`], which only demotes a hit that does the opposite:
    /// a tool that creates or updates is not demoted for "delete the repository", but a service
    /// none of whose tools deletes cannot do it.
    ///
    /// [`Services::unoffered`]: crate::services::Services::unoffered
    pub(crate) fn serves(query: ActionSet, tool: ActionSet) -> bool {
        tool.chooses_operation()
            || (!ActionSet::conflicts(query, tool)
                && (!query.deletes() || tool.is_empty() || tool.deletes()))
    }

    /// What a tool does, from its original `name` and its `summary`.
    ///
    /// - The name: its first word that names an action, identifier parts taken one by one
    ///   (`linear_getViewer` → `get`). When that word is `post` or `patch` and a later word
    ///   names an action, the later word counts instead: names made from an HTTP method and a
    ///   route (`API-post-search`, `post_files_id_copy`) state the action in the route, and
    ///   those two methods say nothing more than "write". (`get` and `delete` mean what they
    ///   say either way: `get_or_create_label` reads first.)
    /// - The summary: its first word, if it names an action ("Create comment").
    pub(crate) fn of_tool(
        analyzer: &Analyzer,
        actions: &Actions,
        name: &str,
        summary: &str,
    ) -> ActionSet {
        // The name's first action word, and the first one after it when it is a method.
        let mut first: Option<(bool, Action)> = None;
        let mut later: Option<Action> = None;
        let mut visit = |method: bool, action: Option<Action>| {
            if let Some(action) = action {
                match first {
                    None => first = Some((method, action)),
                    Some((true, _)) if later.is_none() => later = Some(action),
                    Some(_) => {}
                }
            }
        };
        // A whole word waits for the next token: when parts of it follow (camelCase), the
        // parts count instead.
        let mut pending: Option<(u32, bool, Option<Action>)> = None;
        analyzer.for_each_token(name, |t| {
            let method = matches!(t.word, "post" | "patch");
            let action = actions.action(t.stem);
            if t.origin == Origin::Part {
                match pending.take() {
                    Some((position, _, _)) if position == t.position => {}
                    Some((_, m, a)) => visit(m, a),
                    None => {}
                }
                visit(method, action);
            } else {
                if let Some((_, m, a)) = pending.take() {
                    visit(m, a);
                }
                pending = Some((t.position, method, action));
            }
        });
        if let Some((_, m, a)) = pending {
            visit(m, a);
        }
        let mut set = ActionSet::default();
        if let Some((method, action)) = first {
            set.add(if method { later.unwrap_or(action) } else { action });
        }
        let word = summary.split_whitespace().next().unwrap_or_default();
        let mut done = false;
        analyzer.for_each_token(word, |t| {
            if !done && t.origin == Origin::Whole {
                done = true;
                if let Some(action) = actions.action(t.stem) {
                    set.add(action);
                }
            }
        });
        set
    }

    /// What a query (`query`, analyzed into `terms`) asks for: every action its terms name
    /// (whole words, identifier parts and words joined with a particle, `look up` →
    /// `lookup`), except the words that describe rather than ask:
    /// - words in the past tense (ending in `ed`, which the stemmer took off): "show the files
    ///   I uploaded", "what was posted" ask to read, and the upload or the post happened before;
    /// - negated words ("without deleting it", "don't send it yet");
    /// - `open` and `new` as adjectives ("tickets that are still open", "a new page");
    /// - the `make` of "make sure" and "make certain" ([`ensuring_words`]).
    ///
    /// Also returns the index in `terms` of the first word counted: the word to name when the
    /// query's action is not offered.
    pub(crate) fn of_query(
        actions: &Actions,
        terms: &[QueryTerm],
        query: &Analyzed,
    ) -> (ActionSet, Option<usize>) {
        // The action words first: the query is read for negations and adjectives only when
        // it has some, and for adjectives only when one of them is `new` or `open`.
        let named: Vec<(usize, Action)> = (terms.iter().enumerate())
            .filter(|(_, t)| t.origin() != Origin::Bigram && !is_past_tense(t.word(), t.stem()))
            .filter_map(|(i, t)| actions.action(t.stem()).map(|a| (i, a)))
            .collect();
        let mut context = Vec::new();
        if !named.is_empty() {
            context = negated_words(query);
            let word = |i: usize| terms.get(i).map_or("", QueryTerm::word);
            if named
                .iter()
                .any(|&(i, _)| lists().states.iter().any(|s| s.eq_ignore_ascii_case(word(i))))
            {
                context.extend(state_words(query));
            }
            if named.iter().any(|&(i, _)| word(i) == "make") {
                context.extend(ensuring_words(query));
            }
        }
        let mut set = ActionSet::default();
        let mut first = None;
        for (i, action) in named {
            let word = terms.get(i).map_or("", QueryTerm::word);
            if !context.iter().any(|n| n.eq_ignore_ascii_case(word)) {
                set.add(action);
                first = first.or(Some(i));
            }
        }
        if set.is_empty() && is_question(query) {
            set.add(Action::Read);
        }
        (set, first)
    }
}

/// Whether `query` starts with a question word (`[question_words]`): its first word, trimmed
/// of punctuation, in any ASCII case, with `’` read as `'`.
fn is_question(query: &Analyzed) -> bool {
    let Some(w) = words(query).next() else { return false };
    let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
    let is_one = |w: &str| lists().question_words.iter().any(|q| q.eq_ignore_ascii_case(w));
    is_one(w) || (w.contains('’') && is_one(&w.replace('’', "'")))
}

/// Whether `query`'s text has one of the lowercase three-letter `needles` in any ASCII case:
/// one pass over its bytes, the prefilter before reading its words.
fn has_any_of(query: &Analyzed, needles: &[&[u8; 3]]) -> bool {
    query.text().as_bytes().windows(3).any(|w| {
        let w = [w[0] | 0x20, w[1] | 0x20, w[2] | 0x20];
        needles.iter().any(|n| w == **n)
    })
}

/// The words of `[states]` that `query` uses as adjectives (after a word of `[state_before]`),
/// as written.
fn state_words(query: &Analyzed) -> Vec<&str> {
    // Most queries have neither word in any case: one pass over the bytes skips them.
    if !has_any_of(query, &[b"new", b"ope"]) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut previous = "";
    for raw in words(query) {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if lists().states.iter().any(|s| s.eq_ignore_ascii_case(w))
            && lists().state_before.iter().any(|b| b.eq_ignore_ascii_case(previous))
        {
            out.push(w);
        }
        previous = w;
    }
    out
}

/// Whether `word` followed by `next` (both as written, punctuation around them allowed) is
/// the `make` of "make sure" or "make certain": it asks that something hold ("make sure
/// web-07 doesn't page anyone"), not that something be made; the request is in what follows.
pub(crate) fn ensures(word: &str, next: Option<&str>) -> bool {
    fn trim(w: &str) -> &str {
        w.trim_matches(|c: char| !c.is_alphanumeric())
    }
    word.len() <= 6
        && trim(word).eq_ignore_ascii_case("make")
        && next
            .map(trim)
            .is_some_and(|n| n.eq_ignore_ascii_case("sure") || n.eq_ignore_ascii_case("certain"))
}

/// The `make` of every "make sure" and "make certain" in `query`, as written ([`ensures`]).
pub(crate) fn ensuring_words(query: &Analyzed) -> Vec<&str> {
    // Most queries have neither word: one pass over the bytes first.
    if !has_any_of(query, &[b"sur", b"cer"]) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut words = words(query).peekable();
    while let Some(raw) = words.next() {
        if ensures(raw, words.peek().copied()) {
            out.push(raw.trim_matches(|c: char| !c.is_alphanumeric()));
        }
    }
    out
}

/// The words `query` negates, as written (punctuation around them trimmed): the first word
/// after a negation that is not filler.
fn negated_words(query: &Analyzed) -> Vec<&str> {
    // Every negation has an apostrophe or one of `not`, `ont`, `nev`, `tho` (`cannot`, `dont`,
    // `never`, `without`) in any case: most queries have none, and are not read word by word.
    let maybe = query.text().as_bytes().contains(&b'\'')
        || query.text().contains('’')
        || has_any_of(query, &[b"not", b"ont", b"nev", b"tho"]);
    if !maybe {
        return Vec::new();
    }
    // `’` (three bytes) and `'` are the same apostrophe; ASCII case is ignored. Lengths first:
    // most words of a query are no negation.
    let same = |word: &str, negation: &str| {
        (word.len() == negation.len() || word.len() == negation.len() + 2)
            && word
                .chars()
                .map(|c| if c == '’' { '\'' } else { c.to_ascii_lowercase() })
                .eq(negation.chars())
    };
    let mut out = Vec::new();
    let mut after_negation = false;
    for raw in words(query) {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
        if lists().negations.iter().any(|n| same(w, n)) {
            after_negation = true;
            continue;
        }
        if after_negation && !lists().negation_filler.iter().any(|f| f.eq_ignore_ascii_case(w)) {
            out.push(w.trim_matches(|c: char| !c.is_alphanumeric()));
            after_negation = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` analyzed by the default analyzer.
    fn analyzed(text: &str) -> Analyzed {
        Analyzer::default().analyze_text(text)
    }

    fn tool(name: &str, summary: &str) -> ActionSet {
        ActionSet::of_tool(&Analyzer::default(), &Actions::default(), name, summary)
    }

    fn set(actions: &[Action]) -> ActionSet {
        let mut s = ActionSet::default();
        for &a in actions {
            s.add(a);
        }
        s
    }

    #[test]
    fn a_tool_runs_queries_when_it_takes_one_in_a_named_language() {
        let schema = |name: &str, ty: &str| serde_json::json!({"type": "object", "properties": {name: {"type": ty}}});
        let runs = |schema: &Value, description: &str| {
            ActionSet::default().with_query_language(schema, description).runs_queries()
        };
        assert!(runs(&schema("sql", "string"), "Run a read-only SQL query"));
        assert!(runs(&schema("query", "string"), "Execute a read Cypher query on the database."));
        assert!(runs(&schema("cypher", "string"), "Run Cypher against the graph"));
        // A search string, a language only inside another word, a parameter of another type
        // or name: not a query language.
        assert!(!runs(&schema("query", "string"), "Search the web for a query"));
        assert!(!runs(&schema("query", "string"), "List the tables of the SQLite database"));
        assert!(!runs(&schema("sql", "object"), "Run a SQL query"));
        assert!(!runs(&schema("text", "string"), "Run a SQL query"));
        assert!(!runs(&serde_json::json!({"type": "object"}), "Run a SQL query"));
        // The mark is not a kind: the set's kinds are unchanged.
        let read = tool("read_query", "Execute a SELECT query");
        assert_eq!(
            read.with_query_language(&schema("sql", "string"), "SQL").reads_only(),
            read.reads_only()
        );
    }

    #[test]
    fn a_tool_is_read_from_its_name_and_the_first_word_of_its_summary() {
        use Action::{Delete, Read, Write};
        assert_eq!(tool("delete-onedrive-file", "Delete a file."), set(&[Delete]));
        assert_eq!(tool("upload-file-content", "The content stream."), set(&[Write]));
        assert_eq!(tool("linear_getViewer", ""), set(&[Read]));
        assert_eq!(tool("CreateCall", "Create a new outgoing call"), set(&[Write]));
        // The first action of the name only: `get_or_create_label` reads.
        assert_eq!(tool("get_or_create_label", ""), set(&[Read]));
        // A method before a route: the route's action counts.
        assert_eq!(tool("API-post-search", "Search by title"), set(&[Read]));
        assert_eq!(tool("post_files_id_copy", ""), set(&[Write]));
        // A method alone counts as itself, and the summary adds its own.
        assert_eq!(tool("post_comments", "Create comment"), set(&[Write]));
        assert_eq!(tool("get_files_id", "Get file information"), set(&[Read]));
        assert_eq!(tool("get_channel_history", "Lists messages"), set(&[Read]));
        // Neither says an action.
        assert_eq!(tool("echo", "Echoes back the input"), ActionSet::default());
        assert_eq!(tool("browser_click", "Perform click on a web page"), ActionSet::default());
        // Name and summary disagree: both count.
        assert_eq!(tool("search_and_replace", "Update text"), set(&[Read, Write]));
    }

    #[test]
    fn questions_are_told_by_their_first_word() {
        assert!(is_question(&analyzed("what's on my calendar tomorrow")));
        assert!(is_question(&analyzed("What’s on my calendar?")));
        assert!(is_question(&analyzed("Is the deploy done?")));
        assert!(is_question(&analyzed("who is on call right now")));
        assert!(!is_question(&analyzed("show me the calendar")));
        assert!(!is_question(&analyzed("whatsapp the team")));
        assert!(!is_question(&analyzed("  ")));
    }

    #[test]
    fn negated_words_are_the_words_after_a_negation() {
        assert_eq!(negated_words(&analyzed("draft a reply but don't send it yet")), ["send"]);
        assert_eq!(
            negated_words(&analyzed("take an okta app offline without deleting it")),
            ["deleting"]
        );
        assert_eq!(negated_words(&analyzed("I never, ever sent it")), ["sent"]);
        assert_eq!(
            negated_words(&analyzed("Don’t (publish) and do not yet merge")),
            ["publish", "merge"]
        );
        assert!(negated_words(&analyzed("delete the file")).is_empty());
        assert!(negated_words(&analyzed("not")).is_empty());
    }

    #[test]
    fn make_sure_asks_that_something_hold() {
        assert_eq!(ensuring_words(&analyzed("Make sure web-07 doesn't page anyone")), ["Make"]);
        assert_eq!(ensuring_words(&analyzed("make certain, and make a copy")), ["make"]);
        assert!(ensuring_words(&analyzed("make a copy of the repo")).is_empty());
    }

    #[test]
    fn state_words_are_adjectives() {
        assert_eq!(state_words(&analyzed("find the jira tickets that are still open")), ["open"]);
        assert_eq!(state_words(&analyzed("show me the open disputes")), ["open"]);
        assert_eq!(state_words(&analyzed("start a new confluence page")), ["new"]);
        // Asked for, they are actions.
        assert!(state_words(&analyzed("open a PR on GitHub")).is_empty());
        assert!(state_words(&analyzed("please open the settings file")).is_empty());
        assert!(state_words(&analyzed("new issue in linear")).is_empty());
        assert!(state_words(&analyzed("list the pipelines")).is_empty());
    }

    #[test]
    fn conflicts_need_both_sides_to_name_an_action() {
        use Action::{Delete, Read, Write};
        let c = |q: &[Action], t: &[Action]| ActionSet::conflicts(set(q), set(t));
        assert!(!c(&[], &[Delete]));
        assert!(!c(&[Write], &[]));
        // A delete tool for anything but a deletion.
        assert!(c(&[Write], &[Delete]));
        assert!(c(&[Read], &[Delete]));
        assert!(c(&[Read, Write], &[Delete]));
        assert!(!c(&[Delete], &[Delete]));
        assert!(!c(&[Delete, Read], &[Delete]));
        // Reading against writing.
        assert!(c(&[Write], &[Read]));
        assert!(c(&[Read], &[Write]));
        assert!(!c(&[Read], &[Read]));
        assert!(!c(&[Write], &[Write]));
        // A deletion asked for: a writing tool agrees (`remove` a label is `update_labels`),
        // a reading one does not.
        assert!(!c(&[Delete], &[Write]));
        assert!(c(&[Delete], &[Read]));
        // A query or tool of both kinds agrees with either.
        assert!(!c(&[Read, Write], &[Read]));
        assert!(!c(&[Read], &[Read, Write]));
    }
}
