//! The known-services rule: a query that names a service the catalog does not have gets no
//! answer.
//!
//! Agents ask for actions on products by name: "bitbucket open pull request", "acknowledge the
//! pagerduty incident". When the catalog has no such server, the best lexical matches are
//! look-alike tools of another service (GitHub's pull requests, some other incident tool), and
//! a confident list of them invites the model to act on the wrong system. The rule: if a whole
//! word of the query is one of the known service names ([`DEFAULT_SERVICES`], or the list given
//! to [`IntentBuilder::known_services`](crate::IntentBuilder::known_services)) and no
//! tool's `name` field (server name, tool name, title) contains that word, the search abstains
//! with [`Reason::MissingService`](crate::Reason::MissingService).
//!
//! Descriptions do not make a service present: a CI tool described as working "with GitHub
//! or Bitbucket" does not act on Bitbucket's pull requests (but it may run a Bitbucket
//! pipeline, below). A missing service named next to a present one
//! ("create a github issue for the bug reported in intercom") is taken for context, unless it
//! is the service of a new thing asked for ("create a trello card for the github issue"). So
//! is one named only outside the request's clause (below: "I exported my Obsidian vault to
//! ~/notes, open ideas.md") or as what a writing is about ("pull the Prisma docs"):
//! [`missing_in_clause`].
//!
//! A second rule covers a service that is present but lacks the action: "circleci cancel
//! running workflow" when no CircleCI tool mentions cancelling. The query's most specific
//! *tool word* (the highest-idf whole word that is written as a plain word, is not a service
//! name, and occurs in some tool's `name` field anywhere in the catalog, so it is the
//! catalog's own vocabulary for an action or object) must be matched, through any of its
//! forms or lexicon expansions, by some tool of the servers that provide the named service;
//! otherwise the search abstains with
//! [`Reason::NotOffered`](crate::Reason::NotOffered). Words no tool name uses
//! (paraphrase, filler) and words of identifiers (`temp_events`) are never judged. When the
//! query asks for an action ("purge the cloudflare cache for a url"), those servers must also
//! have a tool that does that kind of action and matches one of the query's tool words or
//! misspelt catalog words; a deletion needs a tool that deletes, or one that takes its
//! operation as a parameter.
//!
//! The second rule does not refuse a query that also names another connected server by the
//! first word of its name ("post the sentry error summary in the slack channel"): the request
//! may be for that server, with the named service as context. Nor does it judge a word that
//! only names the thing asked about: after a determiner and before a word those servers offer
//! ("list the tables in the analytics database"), the next most specific tool word is judged.
//!
//! A request that names no known service may name a connected server by its own name where a
//! product name sits ("create a new objective in Shortcut", "notion delete the workspace":
//! [`Services::servers_by_own_name`]). The second rule then judges that server by the verb,
//! its object and the kind of action, not by the most specific tool word: a product named by
//! an ordinary word is judged only on what the request asks done.
//!
//! The request's verb, the first word of its clause when it is an action word that changes
//! something, must be said too, where a tool says what it does (its name or summary: "ban
//! this spammer from our discord server": no Discord tool bans; "archive the repository on
//! GitHub": only a search filter mentions archived ones). And what that verb acts on must be
//! said, in a tool's name or summary, by a tool of those servers that does the kind of action asked ("create a new GitHub release":
//! GitHub's tools read releases, and the one that creates is about pull requests), or what
//! the object is for, from or to ("mute Datadog alerts from host web-03": `mute_host`), or
//! what it is of, by a tool that also says the object somewhere ("change the priority of the
//! jira ticket").
//!
//! The second rule judges only the request's clause (of the parts between commas,
//! semicolons and sentence ends, the last that does not open with a subject: "put the worker
//! back the way it was, today's deploy broke checkout", "is the cluster healthy? searches have
//! been timing out"; before `while`, `because` …), never words that say when or words in the
//! past tense ("who gets pinged when the ticket changes"), nor what a past time's possessive
//! introduces ("for yesterday's debugging session"), nor words for the connection itself
//! (`server`, `tools`), nor what a verb that sends carries to a place the service offers
//! ("post the release notes to the announcements channel"), and does not refuse a question or
//! read request to a service one of whose tools runs SQL or Cypher (any question about its
//! data), nor a service whose tools are described in a CJK script, which English words
//! cannot be judged against.
//!
//! A third rule, the errand rule ([`Services::errand`]), treats an everyday thing that no
//! tool's `name` field has ("order a large pepperoni pizza", "turn off the living room
//! lights"; list in `data/errands.txt`) as a missing service, unless the query names a
//! connected server, asks to read, or says where the thing is written (a calendar, a message,
//! an address).
//!
//! Neither the first nor the second rule refuses when a hit has a name of two words or more
//! that the query spells and is tied to the named service: its own text names the missing
//! service (a tool that takes the service as a value: "the platform (e.g., Facebook,
//! Twitter)", [`Services::named_in_text`]), or it is one of the present service's tools and
//! the second rule found a word none of them matches ([`Check::Word`]). That is evidence a
//! connected tool does what is asked, which a refusal must be without.
//!
//! Both service rules read a misspelt service name: a query word the index took for a typo
//! ([`QueryTerm::corrected`]) names the service whose alias is one edit away and starts with
//! the same letter (`bitbuket` names Bitbucket), and the model is told the alias.

use crate::implied;
use crate::request::{words, words_in};
use crate::words::lists;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use std::ops::Range;
use toolsift_rank::{DocId, Index, Outcome, QueryTerm};
use toolsift_text::{Analyzed, Analyzer, Origin};

/// The default list of known services: `data/services.txt`, one service per line (its aliases
/// separated by spaces), `#` comments. Written from general knowledge of the software market,
/// by category; ordinary English words that are also product names (box, linear, notion,
/// slack, zoom) are left out, so the rule never fires on "zoom in on the chart".
pub const DEFAULT_SERVICES: &str = include_str!("../data/services.txt");

/// The everyday things of the errand rule ([`Services::errand`]): `data/errands.txt`, one
/// thing per line (its forms separated by spaces), `#` comments. Food ordering, travel, the
/// home, personal money and errands: what a catalog of software tools acts on only when one of
/// its tools is named for it.
pub(crate) const DEFAULT_ERRANDS: &str = include_str!("../data/errands.txt");

/// A service list parsed: every alias word, in the form a query word takes after analysis
/// (lowercased, folded), with the number of its service (its line). Sorted by word; a word
/// listed twice keeps its first service.
pub(crate) type ServiceWords = Vec<(Box<str>, u32)>;

/// Parses a service list: one service per line, its aliases separated by white space; blank
/// lines and `#` comments are skipped, and so is an alias that does not analyze to exactly one
/// whole word (only single query words are matched).
pub(crate) fn parse_services<S: AsRef<str>>(
    analyzer: &Analyzer,
    lines: impl IntoIterator<Item = S>,
) -> ServiceWords {
    let mut out: ServiceWords = Vec::new();
    let mut service = 0u32;
    for line in lines {
        let line = line.as_ref().trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for alias in line.split_whitespace() {
            let mut whole: Vec<String> = Vec::new();
            analyzer.for_each_token(alias, |t| {
                if t.origin == Origin::Whole {
                    whole.push(t.word.to_owned());
                }
            });
            if let [word] = whole.as_slice() {
                out.push((word.as_str().into(), service));
            }
        }
        service = service.saturating_add(1);
    }
    // Stable: the first service of a duplicated word stays first, and dedup keeps it.
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|b, a| a.0 == b.0);
    out
}

/// The hasher of the word tables below (rustc-hash's `FxHasher`): a few instructions per 8
/// bytes where the default SipHash takes about a hundred per word. Its tables are only probed,
/// never iterated for output, so their order does not matter.
pub(crate) type WordHash = rustc_hash::FxBuildHasher;

/// Which known services the catalog's `name` fields contain, kept per server so that updates
/// redo only the changed server.
#[derive(Debug, Clone)]
pub(crate) struct Services {
    /// The known alias words and their services (only looked up, never iterated).
    lookup: HashMap<Box<str>, u32, WordHash>,
    /// The same, sorted by word: scanned for an alias one edit from a typo.
    sorted: ServiceWords,
    /// The words of the errand rule's everyday things (only looked up).
    errands: HashSet<Box<str>, WordHash>,
    /// Per service, the number of servers whose `name` fields contain one of its aliases.
    present: Vec<u32>,
    /// Per server, the services its tools' `name` fields contain, sorted.
    by_server: BTreeMap<String, Vec<u32>>,
    /// The same pairs by service: (service, server), sorted, so that the servers of a named
    /// service are one range.
    servers_of: BTreeSet<(u32, String)>,
    /// Stems of the words of every tool's `name` field, with the number of servers using
    /// each: the catalog's tool vocabulary. Only looked up (by every search that names a
    /// present service, once per query word), never iterated.
    name_stems: HashMap<Box<str>, u32, WordHash>,
    /// Per server, the distinct stems of its tools' `name` fields.
    stems_by_server: BTreeMap<String, Vec<Box<str>>>,
    /// The first words of the server names (`slack` of `slack-web`), lowercased, each with
    /// the servers whose name starts with it, sorted: the servers a word may name by their
    /// own name ([`Services::servers_by_own_name`]), and by their number, whether the catalog
    /// uses the word as a product's name. Only looked up.
    server_words: HashMap<Box<str>, Vec<String>, WordHash>,
    /// Per command-line program of `implied::PROGRAMS`, the number of servers whose tools'
    /// `name` fields have it as a whole word (not a part of a split identifier: `git` of
    /// `git_add`, not of `GitHub`).
    program_servers: Vec<u32>,
    /// Per server, those programs as a bit mask over their indexes.
    programs_by_server: BTreeMap<String, u64>,
    /// Per server, its tools' `name` field texts, each followed by a line feed. The entries
    /// above are worked out from these texts' chunks (runs of non-whitespace) alone, so a
    /// server recorded again with the same texts changes nothing.
    names_by_server: BTreeMap<String, Box<str>>,
}

/// The plain words of `query` (letters only, punctuation around them trimmed) that ask for
/// something, in order: not the word after a naming word (`called assets`), not words in
/// quotes (`'out sick'`, `"Q3 plan"`), not the text after a saying word (`saying it's fixed in
/// build 88`), not what is searched for (`search for budget spreadsheet`). Those are values
/// the user supplies, which no tool is expected to name. Nor the `make` of "make sure", which
/// asks that something hold, nor what a past time's possessive introduces up to the next
/// preposition or conjunction (`for yesterday's debugging session`, `last week's outage`),
/// which happened.
fn request_words<'q>(words: impl Iterator<Item = &'q str>) -> Vec<&'q str> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut name_next = false;
    let mut searching = false;
    let mut past_event = false;
    let mut words = words.peekable();
    while let Some(raw) = words.next() {
        if let Some(q) = quote {
            if raw.trim_end_matches(|c: char| c.is_ascii_punctuation() && c != q).ends_with(q) {
                quote = None;
            }
            continue;
        }
        if let Some(q) = raw.chars().next().filter(|c| matches!(c, '\'' | '"' | '`' | '‘' | '“'))
        {
            let close = match q {
                '‘' => '’',
                '“' => '”',
                q => q,
            };
            let rest = &raw[q.len_utf8()..];
            if !rest
                .trim_end_matches(|c: char| c.is_ascii_punctuation() && c != close)
                .ends_with(close)
            {
                quote = Some(close);
            }
            continue;
        }
        if std::mem::take(&mut name_next) {
            continue;
        }
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
        // "make sure" and "make certain" ask that something hold: their `make` asks for
        // nothing.
        if crate::actions::ensures(raw, words.peek().copied()) {
            continue;
        }
        if lists().saying.iter().any(|s| s.eq_ignore_ascii_case(w))
            || (searching && w.eq_ignore_ascii_case("for"))
        {
            break;
        }
        searching |= lists().searching.iter().any(|s| s.eq_ignore_ascii_case(w));
        name_next = lists().naming.iter().any(|s| s.eq_ignore_ascii_case(w));
        // What a time's possessive introduces is something that happened (`for yesterday's
        // debugging session`), up to the next preposition: not asked of a tool.
        if past_event && !is_one_of(w, &lists().object_end) {
            continue;
        }
        // A possessive (`GitHub's`) is kept whole: it introduces a thing like a determiner.
        let possessive = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s"));
        let base = possessive.unwrap_or(w);
        if !base.is_empty() && base.chars().all(char::is_alphabetic) {
            out.push(w);
        }
        // `yesterday's`, or a possessive of a time after `last` (`last week's outage`).
        past_event = possessive.is_some_and(|b| {
            b.eq_ignore_ascii_case("yesterday")
                || (is_one_of(b, &lists().when)
                    && out.len() >= 2
                    && out.get(out.len() - 2).is_some_and(|p| is_one_of(p, &lists().past)))
        });
    }
    out
}

/// The part of `query` that states the request, for the service rules, as a byte range of
/// its text: of the parts between commas, semicolons and sentence ends (`?`, `!` or `.`
/// before a space), the last that does not open with a subject (`[subjects]`, or any word
/// but a question word before a verb of `[after_subject]`: `today's push broke checkout,
/// bring back the one that was live yesterday` and `put the worker back the way it was,
/// today's deploy broke checkout` both keep the request, what to do, and leave out what
/// happened; so does `is the cluster healthy? searches have been timing out`), the last part
/// when all do;
/// and of that part, what comes before a word that starts a clause about the situation
/// (`[context]`: `mute web-07 while we patch it`). Words outside it describe the situation; a
/// service without a tool for them was not asked for one.
fn request_clause(query: &Analyzed) -> Range<usize> {
    let text = query.text();
    let end = text.trim_end_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation()).len();
    let opens_with_subject = |part: &Range<usize>| {
        let mut words = words_in(query, part.clone());
        let first = words.next();
        let second = words.next();
        first.is_some_and(|(_, w)| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
            // A contraction opens with its subject: `we're patching it tonight`.
            let subject = w.split(['\'', '’']).next().unwrap_or(w);
            w.ends_with("'s")
                || w.ends_with("’s")
                || is_one_of(subject, &lists().subjects)
                || (second.is_some_and(|(_, s)| is_one_of(s, &lists().after_subject))
                    && !is_one_of(w, &lists().question_words))
        })
    };
    // The parts between commas, semicolons and sentence ends, from the last: the first that
    // opens with no subject, else the last one. A part with no words (`a,, b`) is passed
    // over. Bytes, not chars: the marks are ASCII, and never part of another character in
    // UTF-8. A dot before a letter is part of a word (`ideas.md`, `Next.js`).
    let head = text.get(..end).unwrap_or_default();
    let mut parts = Vec::new();
    let mut from = 0;
    let bytes = head.as_bytes();
    for (at, &b) in bytes.iter().enumerate() {
        let ends_sentence = matches!(b, b'?' | b'!' | b'.')
            && bytes.get(at + 1).is_some_and(u8::is_ascii_whitespace);
        if b == b',' || b == b';' || ends_sentence {
            parts.push(from..at);
            from = at + 1;
        }
    }
    parts.push(from..end);
    let blank = |p: &Range<usize>| {
        text.get(p.clone()).is_none_or(|t| t.bytes().all(|b| b.is_ascii_whitespace()))
    };
    let mut filled = parts.iter().rev().filter(|p| !blank(p));
    let part = match filled.next() {
        Some(last) if parts.len() > 1 => std::iter::once(last)
            .chain(filled)
            .find(|p| !opens_with_subject(p))
            .unwrap_or(last)
            .clone(),
        _ => 0..end,
    };
    before_word(query, part, |raw| {
        // Every word of `[context]` is 3 to 8 letters long and starts with one of `wbsatu`:
        // most words are out at once (punctuation around a word is allowed for).
        let first = raw.as_bytes().first().copied().unwrap_or(0);
        (3..=10).contains(&raw.len())
            && (!first.is_ascii_alphanumeric() || b"wbsatu".contains(&first.to_ascii_lowercase()))
            && is_one_of(raw, &lists().context)
    })
}

/// Whether the request's clause ([`request_clause`]) writes one of the `missing` services
/// (lowercase aliases; a misspelt one within one edit) as what is asked of it. A service named
/// only where the request says what happened (`I exported my Obsidian vault to ~/notes, open
/// ideas.md`) or as what a writing is about (`[documents]`, up to two words after it or three
/// before: `pull the current Prisma docs`, `the changelog of heroku`) is not: a connected tool
/// that reads files, documentation or the web may serve the request.
pub(crate) fn missing_in_clause(query: &Analyzed, missing: &[String]) -> bool {
    let clause = request_clause(query);
    let chunks: Vec<_> =
        query.chunks().filter(|c| c.span.start < clause.end && c.span.end > clause.start).collect();
    let documents =
        |at: usize| chunks.get(at).is_some_and(|c| is_one_of(c.text, &lists().documents));
    chunks.iter().enumerate().any(|(at, c)| {
        c.terms.clone().filter_map(|i| query.token_at(i)).any(|t| {
            t.origin == Origin::Whole
                && missing.iter().any(|m| m == t.word || toolsift_text::within_one_edit(m, t.word))
        }) && !((at + 1..=at + 2).any(documents) || (at.saturating_sub(3)..at).any(documents))
    })
}

/// Bytes `range` of `query`'s text up to its first word, after the first, for which `stops`
/// holds (given the word as written, punctuation included).
fn before_word(
    query: &Analyzed,
    range: Range<usize>,
    stops: impl Fn(&str) -> bool,
) -> Range<usize> {
    let cut = words_in(query, range.clone()).skip(1).find(|(_, raw)| stops(raw));
    range.start..cut.map_or(range.end, |(at, _)| at)
}

/// The plain words ([`request_words`]) of bytes `range` of `query`'s text.
fn request_words_in(query: &Analyzed, range: Range<usize>) -> Vec<&str> {
    request_words(words_in(query, range).map(|(_, w)| w))
}

/// Whether `raw`, punctuation around it trimmed, is one of `words` (ASCII case ignored).
fn is_one_of(raw: &str, words: &[&str]) -> bool {
    let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
    words.iter().any(|c| c.eq_ignore_ascii_case(w))
}

/// The first word of a server's name: `Slack` of `Slack-Web`.
fn server_word(server: &str) -> &str {
    server.split('-').next().unwrap_or(server)
}

/// [`server_word`] lowercased, the key of `Services::server_words`.
fn server_word_key(server: &str) -> Box<str> {
    server_word(server).to_lowercase().into()
}

/// Whether the first occurrence of `word` among `plain` comes right after a determiner or a
/// possessive (`GitHub's stale issues`), or after one followed by a number (`the two latest
/// versions`, `my 3 oldest branches`).
fn after_determiner(plain: &[&str], word: &str) -> bool {
    let is_determiner = |p: &str| {
        lists().determiners.iter().any(|d| d.eq_ignore_ascii_case(p))
            || p.ends_with("'s")
            || p.ends_with("’s")
    };
    let is_number = |p: &str| {
        (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            || lists().numbers.iter().any(|n| n.eq_ignore_ascii_case(p))
    };
    plain.iter().position(|w| w.eq_ignore_ascii_case(word)).is_some_and(|at| {
        match at.checked_sub(1).and_then(|i| plain.get(i)) {
            Some(p) if is_determiner(p) => true,
            Some(p) if is_number(p) => {
                at.checked_sub(2).and_then(|i| plain.get(i)).is_some_and(|d| is_determiner(d))
            }
            _ => false,
        }
    })
}

/// The plain word written after the first occurrence of `word` among `plain`, if any.
fn next_plain_word<'q>(plain: &[&'q str], word: &str) -> Option<&'q str> {
    let at = plain.iter().position(|w| w.eq_ignore_ascii_case(word))?;
    plain.get(at + 1).copied()
}

/// Adds one server's use of each of `keys` to `counts`.
fn count_in(counts: &mut HashMap<Box<str>, u32, WordHash>, keys: &[Box<str>]) {
    for key in keys {
        match counts.get_mut(key) {
            Some(count) => *count += 1,
            None => {
                counts.insert(key.clone(), 1);
            }
        }
    }
}

/// Takes one server's use of each of `keys` out of `counts`.
fn count_out(counts: &mut HashMap<Box<str>, u32, WordHash>, keys: Vec<Box<str>>) {
    for key in keys {
        if let Some(count) = counts.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&key);
            }
        }
    }
}

/// The service id [`Services::servers_by_own_name`] gives a term that names a connected
/// server by its own name: present, and the service of no alias.
pub(crate) const OWN_NAME: u32 = u32::MAX;

/// The services a query names: per query term, the service its whole word names and the
/// alias it names it by (empty when the rule is off). Looked up once per search
/// ([`Services::named`]) and read by every rule.
#[derive(Debug)]
pub(crate) struct Named<'t> {
    terms: Vec<Option<(u32, Cow<'t, str>)>>,
}

impl Named<'_> {
    /// Whether the named servers are named by their own names
    /// ([`Services::servers_by_own_name`]), not by a known service.
    fn own_names(&self) -> bool {
        self.terms.iter().flatten().any(|&(s, _)| s == OWN_NAME)
    }
}

impl Services {
    /// The rules over the parsed list of services `known` (empty: they never fire) and of
    /// everyday things `errands` ([`Services::errand`]; empty: that rule never fires).
    pub(crate) fn new(known: ServiceWords, errands: ServiceWords) -> Services {
        let n = known.iter().map(|&(_, s)| s as usize + 1).max().unwrap_or(0);
        let lookup = known.iter().cloned().collect();
        Services {
            lookup,
            sorted: known,
            errands: errands.into_iter().map(|(word, _)| word).collect(),
            present: vec![0; n],
            by_server: BTreeMap::new(),
            servers_of: BTreeSet::new(),
            name_stems: HashMap::default(),
            stems_by_server: BTreeMap::new(),
            server_words: HashMap::default(),
            program_servers: vec![0; implied::program_count()],
            programs_by_server: BTreeMap::new(),
            names_by_server: BTreeMap::new(),
        }
    }

    /// Whether some tool's `name` field (server name, tool name, title) has the command-line
    /// program of index `program` in `implied::PROGRAMS` as a whole word.
    pub(crate) fn names_program(&self, program: usize) -> bool {
        self.program_servers.get(program).is_some_and(|&n| n > 0)
    }

    /// Whether `word` is a known service alias.
    pub(crate) fn is_service(&self, word: &str) -> bool {
        self.lookup.contains_key(word)
    }

    /// Whether the first word of server `server`'s name ([`server_word`]) is a known service
    /// alias: its tools are that service's (`github` of `github-legacy`).
    pub(crate) fn names_server(&self, server: &str) -> bool {
        let word = server_word(server);
        if word.bytes().any(|b| b.is_ascii_uppercase()) {
            self.is_service(&word.to_ascii_lowercase())
        } else {
            self.is_service(word)
        }
    }

    /// The service `word` names, if it is a known alias.
    fn service(&self, word: &str) -> Option<u32> {
        self.lookup.get(word).copied()
    }

    /// The service `word` names, if it is a known alias (for tests).
    #[cfg(test)]
    pub(crate) fn service_id(&self, word: &str) -> Option<u32> {
        self.service(word)
    }

    /// The service query term `t` names, and the alias it names it by: its word, or for a
    /// word the index took for a typo ([`QueryTerm::corrected`]), the first alias in sorted
    /// order one edit away with the same first letter (`vercl` names `vercel`). A typo the
    /// index took for catalog words ([`QueryTerm::corrections`]) names an alias only if the
    /// alias is one of them: `pagerdtuy` names `pagerduty`, which some description mentions,
    /// but `toggel`, taken for the catalog's `toggle`, does not name `toggl`.
    fn service_of<'t>(&self, t: &'t QueryTerm) -> Option<(u32, Cow<'t, str>)> {
        if let Some(s) = self.service(t.word()) {
            return Some((s, Cow::Borrowed(t.word())));
        }
        if !t.corrected() {
            return None;
        }
        let word = t.word();
        let first = word.as_bytes().first();
        let lo = self.sorted.partition_point(|(w, _)| w.as_bytes().first() < first);
        self.sorted[lo..]
            .iter()
            .take_while(|(w, _)| w.as_bytes().first() == first)
            .find(|(w, _)| toolsift_text::within_one_edit(w, word))
            .filter(|(w, _)| t.corrections().len() == 0 || t.corrections().any(|c| c == &**w))
            .map(|(w, s)| (*s, Cow::Owned(w.to_string())))
    }

    /// Records the `name` field texts of server `server`'s tools, replacing what was recorded
    /// for it before. Returns whether that changed anything: the texts recorded before (an
    /// update that revised descriptions or schemas) change nothing.
    pub(crate) fn set_server<'a>(
        &mut self,
        analyzer: &Analyzer,
        server: &str,
        names: impl IntoIterator<Item = &'a str>,
    ) -> bool {
        let mut joined = String::new();
        for text in names {
            joined.push_str(text);
            joined.push('\n');
        }
        if self.names_by_server.get(server).is_some_and(|old| **old == *joined) {
            return false;
        }
        self.remove_server(server);
        let mut found: Vec<u32> = Vec::new();
        // Names repeat their words (the server name in every tool, the same verbs) and only
        // the sets of services and stems are kept, so each distinct chunk (run of
        // non-whitespace, which the analyzer never splits across) is analyzed once, and a stem
        // is allocated only the first time.
        let mut seen: HashSet<&str, WordHash> = HashSet::default();
        let mut stems: HashSet<Box<str>, WordHash> = HashSet::default();
        let mut programs = 0u64;
        for chunk in joined.split_whitespace() {
            if !seen.insert(chunk) {
                continue;
            }
            analyzer.for_each_token(chunk, |t| {
                if let Some(s) = self.service(t.word) {
                    found.push(s);
                }
                if !stems.contains(t.stem) {
                    stems.insert(t.stem.into());
                }
                if t.origin == Origin::Whole
                    && let Some(i) = implied::program_index(t.word)
                {
                    programs |= 1 << i;
                }
            });
        }
        drop(seen);
        self.names_by_server.insert(server.to_owned(), joined.into_boxed_str());
        found.sort_unstable();
        found.dedup();
        let mut stems: Vec<Box<str>> = stems.into_iter().collect();
        stems.sort_unstable();
        count_in(&mut self.name_stems, &stems);
        self.stems_by_server.insert(server.to_owned(), stems);
        let so_named = self.server_words.entry(server_word_key(server)).or_default();
        if let Err(at) = so_named.binary_search_by(|s| s.as_str().cmp(server)) {
            so_named.insert(at, server.to_owned());
        }
        for (i, count) in self.program_servers.iter_mut().enumerate() {
            *count += u32::from(programs >> i & 1 == 1);
        }
        self.programs_by_server.insert(server.to_owned(), programs);
        for &s in &found {
            if let Some(count) = self.present.get_mut(s as usize) {
                *count += 1;
            }
        }
        for &s in &found {
            self.servers_of.insert((s, server.to_owned()));
        }
        self.by_server.insert(server.to_owned(), found);
        true
    }

    /// Forgets server `server`.
    pub(crate) fn remove_server(&mut self, server: &str) {
        self.names_by_server.remove(server);
        if let Some(stems) = self.stems_by_server.remove(server) {
            count_out(&mut self.name_stems, stems);
            let key = server_word_key(server);
            if let Some(so_named) = self.server_words.get_mut(&key) {
                so_named.retain(|s| s != server);
                if so_named.is_empty() {
                    self.server_words.remove(&key);
                }
            }
        }
        let programs = self.programs_by_server.remove(server).unwrap_or(0);
        for (i, count) in self.program_servers.iter_mut().enumerate() {
            *count = count.saturating_sub(u32::from(programs >> i & 1 == 1));
        }
        let Some(found) = self.by_server.remove(server) else { return };
        for s in found {
            if let Some(count) = self.present.get_mut(s as usize) {
                *count = count.saturating_sub(1);
            }
            self.servers_of.remove(&(s, server.to_owned()));
        }
    }

    /// Whether a plain word of the query is the first word of the name of a connected server
    /// outside `scope` (`slack` for `slack` and `slack-web`), and the catalog uses it as that
    /// product's name: at least half of the servers whose `name` fields have the word are
    /// servers so named. `time` is not: its server shares the word with four other servers'
    /// tool names, where it is an ordinary word.
    /// `plain` is the query's [`request_words`].
    fn names_other_server(&self, plain: &[&str], outcome: &Outcome, scope: &[&str]) -> bool {
        outcome.terms().iter().any(|t| {
            if t.origin() != Origin::Whole {
                return false;
            }
            let Some(so_named) = self.server_words.get(t.word()) else { return false };
            let in_scope =
                scope.iter().filter(|s| server_word(s).eq_ignore_ascii_case(t.word())).count();
            in_scope < so_named.len()
                && self.used_as_product_name(t, so_named)
                && plain.iter().any(|w| w.eq_ignore_ascii_case(t.word()))
        })
    }

    /// Whether the catalog uses `t`, the first word of the names of the servers `so_named`,
    /// as those products' name: at most twice as many servers' tool `name` fields have the
    /// word as there are servers so named.
    fn used_as_product_name(&self, t: &QueryTerm, so_named: &[String]) -> bool {
        self.name_stems.get(t.stem()).is_none_or(|&users| users as usize <= 2 * so_named.len())
    }

    /// The everyday thing a query asks about that no tool of the catalog is named for (`order
    /// a large pepperoni pizza`, `book me a flight to Chicago`, `turn off the living room
    /// lights`): a word of the errand list ([`DEFAULT_ERRANDS`]) written as a plain word of the
    /// request's clause ([`request_clause`]), whose stem no tool's `name` field has. `None`
    /// when the query also names a connected server (`scope` is not empty, or
    /// [`Services::names_other_server`]), says a word of the software a thing is often
    /// written in (`[carriers]`: `put my flight on the calendar`), or asks to read (`reads`,
    /// asked only once a thing is found: `find restaurants near the office`).
    pub(crate) fn errand(
        &self,
        query: &Analyzed,
        outcome: &Outcome,
        scope: &[&str],
        reads: impl FnOnce() -> bool,
    ) -> Option<String> {
        if self.errands.is_empty() || !scope.is_empty() {
            return None;
        }
        let whole = || outcome.terms().iter().filter(|t| t.origin() == Origin::Whole);
        let thing = whole()
            .find(|t| self.errands.contains(t.word()) && !self.name_stems.contains_key(t.stem()))?;
        if whole().any(|t| lists().carriers.contains(&t.word())) || reads() {
            return None;
        }
        // The thing must be what is acted on: before `for`, `that`, `about` (`block two hours
        // for my haircut`, `text my wife that my flight is delayed`).
        let acted_on =
            before_word(query, request_clause(query), |raw| is_one_of(raw, &lists().errand_cut));
        let plain = request_words_in(query, acted_on);
        if !plain.iter().any(|w| w.eq_ignore_ascii_case(thing.word())) {
            return None;
        }
        (!self.names_other_server(&request_words(words(query)), outcome, scope))
            .then(|| thing.word().to_owned())
    }

    /// Whether the `missing` services a query names may be context: the query also names a
    /// present service (`scope` is not empty) or another connected server
    /// ([`Services::names_other_server`]), and no missing one is the service of a new thing it
    /// asks for (`a trello card`, `an asana task`, `a new bitbucket repo`).
    pub(crate) fn missing_as_context(
        &self,
        query: &Analyzed,
        outcome: &Outcome,
        missing: &[String],
        scope: &[&str],
    ) -> bool {
        let plain = request_words(words(query));
        if scope.is_empty() && !self.names_other_server(&plain, outcome, &[]) {
            return false;
        }
        !plain.windows(2).any(|w| {
            lists().new_thing.iter().any(|a| a.eq_ignore_ascii_case(w[0]))
                && missing.iter().any(|m| m.eq_ignore_ascii_case(w[1]))
        })
    }

    /// The services `outcome`'s query names, looked up once for the rules of one search.
    pub(crate) fn named<'t>(&self, outcome: &'t Outcome) -> Named<'t> {
        if self.lookup.is_empty() {
            return Named { terms: Vec::new() };
        }
        let terms = outcome
            .terms()
            .iter()
            .map(|t| if t.origin() == Origin::Whole { self.service_of(t) } else { None })
            .collect();
        Named { terms }
    }

    /// The known services whose alias one of `texts` writes as a word, sorted, each once: the
    /// words `analyzer` (the index's) makes of them, an identifier's parts included
    /// (`getInstagramPosts` writes `instagram`). A tool's own text names a service this way
    /// when it works with it ("the platform: Twitter, Facebook").
    pub(crate) fn named_in_text<'a>(
        &self,
        analyzer: &Analyzer,
        texts: impl IntoIterator<Item = &'a str>,
    ) -> Vec<u32> {
        let mut found: Vec<u32> = Vec::new();
        if self.lookup.is_empty() {
            return found;
        }
        for text in texts {
            analyzer.for_each_token(text, |t| found.extend(self.service(t.word)));
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The services of `missing`-naming terms: the ids of the known services the query names
    /// that no server's `name` fields contain.
    pub(crate) fn missing_ids(&self, named: &Named<'_>) -> Vec<u32> {
        named.terms.iter().flatten().map(|&(s, _)| s).filter(|&s| !self.is_present(s)).collect()
    }

    /// Whether service `s` is in some server's `name` fields, or is a connected server named
    /// by its own name ([`OWN_NAME`]).
    fn is_present(&self, s: u32) -> bool {
        s == OWN_NAME || self.present.get(s as usize).is_some_and(|&c| c > 0)
    }

    /// The connected servers a request that names no known service names by their own
    /// names, sorted, each once; the terms that name them are marked in `named`
    /// ([`OWN_NAME`]). Product names that are ordinary words (`notion`, `shortcut`, `box`) are
    /// left out of the known services, so a server named so is named only where a product
    /// name sits, by every part of its name:
    ///
    /// - the word is the first word of a server's name, and the catalog uses it as that
    ///   product's name, as [`Services::names_other_server`] asks (`memory` of "memory usage"
    ///   is not when other servers' tools say it too);
    /// - it opens the request ("notion delete the workspace") or follows a word that puts a
    ///   product in place (`[product_place]`: "in Shortcut", "our Box account");
    /// - the request writes each part of the server's name in order from it ("Google Maps"
    ///   names `google-maps`, and "google" alone no server).
    pub(crate) fn servers_by_own_name<'s, 't>(
        &'s self,
        query: &Analyzed,
        outcome: &'t Outcome,
        named: &mut Named<'t>,
    ) -> Vec<&'s str> {
        let mut found: Vec<&'s str> = Vec::new();
        if self.lookup.is_empty() {
            return found;
        }
        // The terms that are a server's first name word, used as a product's name.
        let product_name = |(i, t): &(usize, &QueryTerm)| {
            t.origin() == Origin::Whole
                && named.terms.get(*i).is_none_or(Option::is_none)
                && self
                    .server_words
                    .get(t.word())
                    .is_some_and(|so_named| self.used_as_product_name(t, so_named))
        };
        let candidates: Vec<(usize, &QueryTerm)> =
            outcome.terms().iter().enumerate().filter(product_name).collect();
        if candidates.is_empty() {
            return found;
        }
        let plain = request_words(words(query));
        for (i, t) in candidates {
            let Some(at) = plain.iter().position(|w| w.eq_ignore_ascii_case(t.word())) else {
                continue;
            };
            let placed = at == 0
                || at
                    .checked_sub(1)
                    .and_then(|b| plain.get(b))
                    .is_some_and(|b| is_one_of(b, &lists().product_place));
            if !placed {
                continue;
            }
            let before = found.len();
            let so_named = self.server_words.get(t.word()).map_or(&[][..], Vec::as_slice);
            for server in so_named {
                let written = server.split(['-', '_']).enumerate().all(|(k, part)| {
                    plain.get(at + k).is_some_and(|w| w.eq_ignore_ascii_case(part))
                });
                if written {
                    found.push(server.as_str());
                }
            }
            if found.len() > before
                && let Some(slot) = named.terms.get_mut(i)
            {
                *slot = Some((OWN_NAME, Cow::Borrowed(t.word())));
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The words of the query that name, as whole words, a known service which no server's
    /// `name` fields contain, in query-term order.
    pub(crate) fn missing(&self, named: &Named<'_>) -> Vec<String> {
        named
            .terms
            .iter()
            .flatten()
            .filter(|(s, _)| !self.is_present(*s))
            .map(|(_, alias)| alias.clone().into_owned())
            .collect()
    }

    /// The servers that provide a present service the query names, by server name.
    pub(crate) fn servers_named(&self, named: &Named<'_>) -> Vec<&str> {
        let services: Vec<u32> =
            named.terms.iter().flatten().map(|&(s, _)| s).filter(|&s| self.is_present(s)).collect();
        if services.is_empty() {
            return Vec::new();
        }
        let mut servers: Vec<&str> = services
            .iter()
            .flat_map(|&s| {
                let from = (s, String::new());
                self.servers_of.range(from..).take_while(move |(t, _)| *t == s)
            })
            .map(|(_, server)| server.as_str())
            .collect();
        // Sorted by server name, each once (a query may name a service twice, or two
        // services one server provides).
        servers.sort_unstable();
        servers.dedup();
        servers
    }

    /// For a query that names present services (`named`), whose servers are `scope`
    /// ([`Services::servers_named`]), whether those servers lack what it asks. Returns the
    /// service word and the word they do not answer:
    ///
    /// - the query's most specific tool word (the highest-idf whole word that is not a service
    ///   name and occurs in some tool's `name` field), if none of those servers' tools
    ///   matches it (not judged for servers named by their own name,
    ///   [`Services::servers_by_own_name`]); when it only names the thing asked about (after
    ///   a determiner, before a word they offer, not an action word), or is a light verb (the
    ///   request's verb, not an action word, said of a new thing a tool of those servers
    ///   makes, when no tool named for it is about another word of the request: "leave a
    ///   comment"), the next one; words for the connection
    ///   (`[connection]`) are never judged, nor the object of a verb that sends or uploads
    ///   ([`sends`]) to or in a place those servers offer (it is what the message says);
    /// - else the request's verb ([`request_verb`]), when it changes something, if no tool of
    ///   those servers says it in its name or summary ([`WHAT_IT_DOES`]), nor anywhere a tool
    ///   that takes its operation as a parameter, nor, for `re` and a writing verb
    ///   (`reopen`), that verb in a name or summary;
    /// - else the head of that verb's object ([`object_of`]), if no tool of those servers that
    ///   does the kind of action asked says it, or the head of the object's complement, in
    ///   its name or summary ([`WHAT_IT_DOES`]) (after `of`, such a tool that also says the
    ///   object's head in any field); the word returned is then the verb and the head
    ///   (`create release`);
    /// - else, when the query asks for an action (`asked`: its first action word, and whether
    ///   a document's tool does that kind of action, [`ActionSet::serves`]), that action word,
    ///   if no tool of those servers both does it and matches one of the query's tool words
    ///   or the words the index took for a misspelling of a catalog word;
    /// - but never when the query also names a connected server outside `scope`
    ///   ([`Services::names_other_server`]); and the last two never when a tool of those
    ///   servers runs queries in a query language and does the kind of action asked, nor any
    ///   of them when such a tool serves a request that reads.
    ///
    /// The [`Check`] says which of these failed.
    ///
    /// [`ActionSet::serves`]: crate::actions::ActionSet::serves
    pub(crate) fn unoffered(
        &self,
        query: &Analyzed,
        outcome: &Outcome,
        named: &Named<'_>,
        scope: &[&str],
        index: &Index,
        asked: &Asked<'_>,
    ) -> Option<(String, String, Check)> {
        let service_word =
            named.terms.iter().flatten().find(|(s, _)| self.is_present(*s))?.1.clone();
        // Only words written as plain words of the request's clause count; parts of
        // identifiers (`temp_events`, `logs-2024`) and quoted or named values (`called
        // assets`, `saying it's fixed`) are the user's data, not the action asked for, words
        // outside the clause ([`request_clause`]) describe the situation, and words that say
        // when (`[when]`) say nothing a tool must offer.
        let plain = request_words_in(query, request_clause(query));
        let written_plain = |word: &str| {
            plain.iter().any(|w| w.eq_ignore_ascii_case(word))
                && lists().when.binary_search(&word).is_err()
        };
        // The request's verb and what it acts on. When the verb sends (`post`, `send`,
        // `notify` …) to or in a place those servers offer, its object is what the message
        // says ("post the v2.3 release notes to the #announcements channel", "post an
        // announcement in the general channel"): content, which no tool is expected to offer.
        let verb = request_verb(&plain, outcome, named);
        // Whether some tool of the catalog says a word where it says what it does.
        let what_a_tool_does =
            |t: &QueryTerm| index.any_field_match(t.word(), WHAT_IT_DOES, |_| true);
        let sent = verb
            .filter(|(_, v)| sends(index, v.stem()))
            .and_then(|_| object_of(&plain, outcome, named, asked.is_action, &what_a_tool_does));
        let content: &[&str] = match &sent {
            Some(o) if o.place.is_some_and(|c| index.matches_in_groups(c.word(), scope)) => o.words,
            _ => &[],
        };
        // The most specific tool word (of equals, the first).
        let mut best: Option<(usize, &QueryTerm)> = None;
        // The tool words, as a mask of term indexes (a query has at most 64 terms).
        let mut tool_words = 0u64;
        // The words an offered action must go with: the tool words, and the misspellings.
        let mut judged: Vec<usize> = Vec::new();
        // Whether a word for the connection (`server`) was among them.
        let mut connection = false;
        for (i, t) in outcome.terms().iter().enumerate() {
            if t.origin() != Origin::Whole
                || t.df() == 0
                || named.terms.get(i).is_some_and(Option::is_some)
            {
                continue;
            }
            if !self.name_stems.contains_key(t.stem())
                || !written_plain(t.word())
                || is_one_of(t.word(), content)
                || toolsift_text::is_past_tense(t.word(), t.stem())
            {
                if t.corrections().len() > 0 {
                    judged.push(i);
                }
                continue;
            }
            judged.push(i);
            // A word for the connection itself is never the one judged.
            if is_one_of(t.word(), &lists().connection) {
                connection = true;
                continue;
            }
            tool_words |= 1u64.checked_shl(i as u32).unwrap_or(0);
            if best.is_none_or(|(_, b)| t.idf() > b.idf()) {
                best = Some((i, t));
            }
        }
        // A request with no tool word at all is not judged.
        if best.is_none() && !connection {
            return None;
        }
        // A query that also names another connected server ("post the sentry error summary
        // in the slack channel") may ask that server, with the named service as context: it
        // is not refused (asked only before a refusal). Nor is a service whose tools are
        // described in a CJK script, against which the query's English words cannot be
        // judged. Nor a request that reads from a service that runs queries on its data.
        let refuse = |word: &str, check: Check| {
            let steps_aside = self.names_other_server(&request_words(words(query)), outcome, scope)
                || (asked.reads && (asked.queries)())
                || (asked.described_in_cjk)();
            (!steps_aside).then(|| (service_word.clone().into_owned(), word.to_owned(), check))
        };
        let in_scope = |doc| index.group_of(doc).is_some_and(|g| scope.contains(&g));
        // Usually a hit of the named service matched the word already; else walk the word's
        // forms for any tool of those servers.
        let offers = |i: usize, t: &QueryTerm| {
            outcome.hits().iter().any(|h| h.matched().any(|m| m == i) && in_scope(h.doc()))
                || index.matches_in_groups(t.word(), scope)
        };
        // A word written with its neighbour as a phrase of the lexicon is offered when a
        // member of the phrase's group is: "pull requests in gitlab", whose tools say "merge
        // request".
        let in_phrase = |word: &str| {
            let Some(e) = index.expander() else { return false };
            let at = plain.iter().position(|w| w.eq_ignore_ascii_case(word));
            let pairs = at.map_or([None, None], |at| {
                [at.checked_sub(1).map(|p| (p, at)), Some((at, at + 1))]
            });
            pairs.into_iter().flatten().any(|(a, b)| {
                let (Some(x), Some(y)) = (plain.get(a), plain.get(b)) else { return false };
                let joined = format!("{x}{y}").to_lowercase();
                !e.key_entries(&index.analyzer().stem(&joined)).is_empty()
                    && index.matches_in_groups(&joined, scope)
            })
        };
        // A verb the action list does not know, said of a new thing ("leave a comment on the
        // github issue", "leave a review on the pull request"), is a light verb when a tool of
        // those servers makes that thing (says it where it says what it does, or takes it as
        // the kind of thing it acts on) and the catalog's tools named for the verb are about
        // none of the request's other words (Slack's `conversations_leave` says nothing of
        // comments or issues): the thing is what is asked, and the verb is not judged.
        // Leaving a thing one belongs to says a particular one ("leave the github
        // organization"), and kicking a member is what the kick tools are about: both are
        // still judged.
        let light_verb = |i: usize, term: &QueryTerm| {
            if verb.is_none_or(|(v, _)| v != i) || (asked.is_action)(term.stem()) {
                return false;
            }
            let Some(object) =
                object_of(&plain, outcome, named, asked.is_action, &what_a_tool_does)
            else {
                return false;
            };
            let made = |head: &QueryTerm| {
                index.any_field_match_in_groups(head.word(), scope, WHAT_IT_DOES, asked.makes)
                    || (asked.takes_kind)(head.stem())
            };
            if !object.words.first().is_some_and(|w| is_one_of(w, &lists().new_thing))
                || !object.head.is_some_and(made)
            {
                return false;
            }
            let mut named_for_verb: Vec<DocId> = Vec::new();
            index.any_field_match(term.word(), &["name"], |d| {
                named_for_verb.push(d);
                false
            });
            let mut groups_of_verb: Vec<&str> =
                named_for_verb.iter().filter_map(|&d| index.group_of(d)).collect();
            groups_of_verb.sort_unstable();
            groups_of_verb.dedup();
            // The request's other words the catalog has.
            let others = || {
                (outcome.terms().iter().enumerate())
                    .filter(move |&(j, t)| {
                        j != i
                            && t.origin() == Origin::Whole
                            && t.df() > 0
                            && named.terms.get(j).is_none_or(Option::is_none)
                            && written_plain(t.word())
                    })
                    .map(|(_, t)| t)
            };
            others().next().is_some()
                && !others().any(|t| {
                    index.any_match_in_groups(t.word(), &groups_of_verb, |d| {
                        named_for_verb.contains(&d)
                    })
                })
        };
        // The most specific tool word must be offered, unless it only names the thing the
        // request is about: a word written just before a word the servers offer, and not an
        // action (`the analytics database`, `the general channel`, `the logo frame`). Then
        // the next most specific word is judged instead; so is it after a light verb.
        if let Some((i, term)) = best
            && !named.own_names()
            && !offers(i, term)
            && !in_phrase(term.word())
        {
            let mut by_idf: Vec<(usize, &QueryTerm)> = (outcome.terms().iter().enumerate())
                .filter(|&(j, _)| tool_words >> j & 1 == 1)
                .collect();
            // Most specific first; the order of the terms breaks ties, as for `best`.
            by_idf.sort_by(|a, b| b.1.idf().total_cmp(&a.1.idf()).then(a.0.cmp(&b.0)));
            for (i, term) in by_idf {
                if offers(i, term) || in_phrase(term.word()) {
                    break;
                }
                let names_a_thing = !(asked.is_action)(term.stem())
                    && after_determiner(&plain, term.word())
                    && next_plain_word(&plain, term.word()).is_some_and(|next| {
                        outcome.terms().iter().enumerate().any(|(j, n)| {
                            n.origin() == Origin::Whole
                                && n.df() > 0
                                && n.word().eq_ignore_ascii_case(next)
                                && offers(j, n)
                        })
                    });
                if !names_a_thing {
                    if light_verb(i, term) {
                        continue;
                    }
                    return refuse(term.word(), Check::Word);
                }
            }
        }
        // The request's verb, the first word of its clause when it is an action word that
        // changes something, must be offered too, where a tool says what it does (its name or
        // summary): it is what the request asks done, and a service whose tools never say it
        // (nor a word of its lexicon groups) cannot do it ("ban this spammer from our discord
        // server"). A verb its tools only mention elsewhere is not an action they do: a
        // search filter ("archive the repository on GitHub" finds `is:archived` in a query
        // syntax), a code example in a description ("invite … to our Supabase organization").
        // A tool that takes its operation as a parameter does the operations it lists, wherever
        // it says them ("link: link two items; unlink: remove a link").
        // Verbs that read are left to the kind check below: "show" the disputes is done by a
        // tool that lists them.
        let verb_writes = verb.is_some_and(|(_, t)| (asked.writes)(t.stem()));
        // A verb that does again what a writing verb does (`reopen`, `resend`: `re` and an
        // action word that changes something) is offered where that verb is: GitHub's
        // `update_issue_state` "Update the state of an existing issue (open or closed)"
        // reopens issues.
        let again = |word: &str| {
            word.strip_prefix("re").is_some_and(|rest| {
                rest.len() >= 3
                    && (asked.writes)(&index.analyzer().stem(rest))
                    && index.any_field_match_in_groups(rest, scope, WHAT_IT_DOES, |_| true)
            })
        };
        if let Some((_, t)) = verb
            && verb_writes
            && !index.any_field_match_in_groups(t.word(), scope, WHAT_IT_DOES, |_| true)
            && !index.any_match_in_groups(t.word(), scope, asked.chooses)
            && !in_phrase(t.word())
            && !again(t.word())
        {
            return refuse(t.word(), Check::Word);
        }
        // What that verb acts on must be said by a tool of those servers that does the kind
        // of action asked, where the tool says what it does (its name or summary): "create a
        // new GitHub release" needs a tool that creates and is about releases, not a release
        // reader and a creator that mentions releases in a parameter. A tool about what the
        // thing is for, from or to will do too ("mute Datadog alerts from host web-03":
        // `mute_host`), and for a thing of another ("change the priority of the jira ticket"),
        // a tool about that other that says the thing anywhere, a parameter included.
        // Content sent to an offered place is not judged.
        let object = if verb_writes && content.is_empty() {
            sent.or_else(|| object_of(&plain, outcome, named, asked.is_action, &what_a_tool_does))
        } else {
            None
        };
        if let Some(Object { head: Some(head), complement, opens, .. }) = &object {
            let said = |t: &QueryTerm, also: &dyn Fn(DocId) -> bool| {
                index.any_field_match_in_groups(t.word(), scope, WHAT_IT_DOES, |d| {
                    (asked.serves)(d) && also(d)
                })
            };
            let complement_said = |c: &QueryTerm| {
                if !opens.is_some_and(|w| w.eq_ignore_ascii_case("of")) {
                    return said(c, &|_| true);
                }
                let mut with_head: Vec<DocId> = Vec::new();
                index.any_match_in_groups(head.word(), scope, |d| {
                    with_head.push(d);
                    false
                });
                said(c, &|d| with_head.contains(&d))
            };
            if !in_phrase(head.word())
                && !(asked.queries)()
                && !said(head, &|_| true)
                && !complement.is_some_and(complement_said)
                && !(asked.takes_kind)(head.stem())
            {
                // Other tools of the service may say the thing: the model is told what is not
                // done to it ("create release").
                let verb = verb.map_or("", |(_, v)| v.word());
                return refuse(format!("{verb} {}", head.word()).trim(), Check::Object);
            }
        }
        let action = asked.word?;
        // An action word outside the request's clause describes the situation ("make sure
        // web-07 doesn't page anyone while we patch it"): no kind of action is asked there.
        // A word joined with its particle (`bringback`) is written as two words.
        let in_clause = plain.iter().any(|w| w.eq_ignore_ascii_case(action))
            || plain.windows(2).any(|p| {
                action.len() == p[0].len() + p[1].len()
                    && action.get(..p[0].len()).is_some_and(|a| a.eq_ignore_ascii_case(p[0]))
                    && action.get(p[0].len()..).is_some_and(|a| a.eq_ignore_ascii_case(p[1]))
            });
        if !in_clause {
            return None;
        }
        // The same, for a tool that also does the action asked: a hit first, then the walks.
        let served = outcome.hits().iter().any(|h| {
            in_scope(h.doc()) && h.matched().any(|m| judged.contains(&m)) && (asked.serves)(h.doc())
        }) || judged
            .iter()
            .filter_map(|&j| outcome.terms().get(j))
            .any(|t| index.any_match_in_groups(t.word(), scope, |d| (asked.serves)(d)));
        // A tool that runs queries and does the kind of action asked does it to anything.
        if served || (asked.queries)() { None } else { refuse(action, Check::Kind) }
    }
}

/// Which check of [`Services::unoffered`] a named service failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// A word of the request (its most specific tool word, or its verb) no tool matches.
    Word,
    /// What the verb acts on, which no tool that does the action says.
    Object,
    /// The kind of action, which no tool that matches the request does.
    Kind,
}

/// The request's verb: the word of `plain` (a request clause's words) at [`verb_at`], as a
/// whole-word query term the catalog has and that names no service, with its term index.
fn request_verb<'o>(
    plain: &[&str],
    outcome: &'o Outcome,
    named: &Named<'_>,
) -> Option<(usize, &'o QueryTerm)> {
    let first = plain.get(verb_at(plain, outcome, named)?)?;
    // A term's word is lowercase already, as `[when]` is.
    outcome.terms().iter().enumerate().find(|&(i, t)| {
        t.origin() == Origin::Whole
            && t.df() > 0
            && named.terms.get(i).is_none_or(Option::is_none)
            && t.word().eq_ignore_ascii_case(first)
            && lists().when.binary_search(&t.word()).is_err()
    })
}

/// Where the request's verb is among `plain` (a request clause's words): the first word that
/// is neither a `[lead]` word nor a word naming a service. An agent's terse request puts the
/// service first ("discord ban", "github create release"), and is then judged as its
/// sentence form is ("ban a user from the discord server").
fn verb_at(plain: &[&str], outcome: &Outcome, named: &Named<'_>) -> Option<usize> {
    let names_service = |w: &str| {
        outcome.terms().iter().enumerate().any(|(i, t)| {
            named.terms.get(i).is_some_and(Option::is_some) && t.word().eq_ignore_ascii_case(w)
        })
    };
    plain.iter().position(|w| !is_one_of(w, &lists().lead) && !names_service(w))
}

/// Whether `stem` is a word of the lexicon group of `send` (`post`, `notify`, `announce` …)
/// or of `upload` (`attach`): what such a verb carries to a place is content.
fn sends(index: &Index, stem: &str) -> bool {
    index.expander().is_some_and(|e| {
        let send = e.word_entries(&index.analyzer().stem("send"));
        let upload = e.word_entries(&index.analyzer().stem("upload"));
        e.key_entries(stem).iter().any(|id| send.contains(id) || upload.contains(id))
    })
}

/// The fields where a tool says what it does (`name` and `summary`), as opposed to the
/// parameters and the rest of its description (`details`).
const WHAT_IT_DOES: &[&str] = &["name", "summary"];

/// What a request's verb acts on, as query terms ([`object_of`]).
struct Object<'o, 'p> {
    /// The object's words as written: `a`, `new`, `GitHub`, `release`.
    words: &'p [&'p str],
    /// The word that opens the object's complement, if one follows it: `from`.
    opens: Option<&'p str>,
    /// The object's head: `release` of `create a new GitHub release with changelog notes`;
    /// `None` when that word is not a query term the catalog has (or is a misspelling, a
    /// service or a time).
    head: Option<&'o QueryTerm>,
    /// The head of the phrase that says what the object is for, from, to or of, when one
    /// follows it (`[complement]`), its last word that is a query term as for `head`: `host`
    /// of `mute Datadog alerts from host web-03`, `user` of `… of the okta user jane`.
    complement: Option<&'o QueryTerm>,
    /// The head of the phrase that says where the object goes, when one follows it: the last
    /// word that is a query term, as for `head`, of a phrase opened by `to`, `in`, `into` or
    /// `on` (`channel` of `post an announcement in the general channel`).
    place: Option<&'o QueryTerm>,
}

/// The object of the request's verb (the word of `plain`, a request clause's words, at
/// [`verb_at`]): the words after the verb and its particles up to a preposition or
/// conjunction (`[object_end]`), a naming or saying word, or, in a phrase that does not open
/// with a determiner (a keyword query: `write cypher create node`), another action word;
/// `None` when there are no such words. Its head is the last of those words, when it is a
/// whole-word query term the catalog has, not taken for a misspelling (what was meant is not
/// known), that names no service and does not say when; when no tool says that word where it
/// says what it does (`what_a_tool_does`), the last word before it that some tool says, if
/// any: the word was a name (`the okta user jane`). Capitalized last words after a lowercase
/// word the catalog has that is no action word are a name too (`the hubspot deal Acme
/// Renewal`), and the head is looked for before them.
fn object_of<'o, 'p>(
    plain: &'p [&'p str],
    outcome: &'o Outcome,
    named: &Named<'_>,
    is_action: &dyn Fn(&str) -> bool,
    what_a_tool_does: &dyn Fn(&QueryTerm) -> bool,
) -> Option<Object<'o, 'p>> {
    let at = verb_at(plain, outcome, named)?;
    let mut rest = plain.get(at + 1..)?;
    while let Some((first, tail)) = rest.split_first()
        && is_one_of(first, &lists().particles)
    {
        rest = tail;
    }
    // A phrase that opens with a determiner is a noun phrase, whose words may be action words
    // used as nouns (`a new release`, `the latest build`).
    let determined = rest
        .first()
        .is_some_and(|w| is_one_of(w, &lists().determiners) || is_one_of(w, &lists().new_thing));
    let is_action_word = |w: &str| {
        outcome.terms().iter().any(|t| {
            t.origin() == Origin::Whole && t.word().eq_ignore_ascii_case(w) && is_action(t.stem())
        })
    };
    let end = rest
        .iter()
        .position(|w| {
            is_one_of(w, &lists().object_end)
                || is_one_of(w, &lists().naming)
                || is_one_of(w, &lists().saying)
                || (!determined && is_action_word(w))
        })
        .unwrap_or(rest.len());
    let term = |word: &str| {
        outcome.terms().iter().enumerate().find_map(|(i, t)| {
            (t.origin() == Origin::Whole
                && t.df() > 0
                && !t.corrected()
                && named.terms.get(i).is_none_or(Option::is_none)
                && t.word().eq_ignore_ascii_case(word)
                && lists().when.binary_search(&t.word()).is_err())
            .then_some(t)
        })
    };
    let words = rest.get(..end)?;
    // A last word no tool says it does anything with is a name or a value (`the okta user
    // jane`, a name the catalog has only in examples): the head is the word before it that a
    // tool does say.
    // Capitalized last words after a lowercase word the catalog has, not an action, are a
    // name (`the hubspot deal Acme Renewal`): the head comes before them. Title case, or a
    // capitalized thing after an action word (`a new GitHub Release`), is not.
    let capital = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    let run = words.iter().rev().take_while(|w| capital(w)).count();
    let names = run > 0
        && words
            .len()
            .checked_sub(run + 1)
            .and_then(|b| words.get(b))
            .is_some_and(|b| !capital(b) && term(b).is_some_and(|t| !is_action(t.stem())));
    let before_name = if names { words.get(..words.len() - run)? } else { words };
    let last = term(before_name.last()?);
    let head = match last {
        Some(t) if !what_a_tool_does(t) => before_name
            .iter()
            .rev()
            .skip(1)
            .find_map(|w| term(w).filter(|t| what_a_tool_does(t)))
            .or(last),
        _ => last,
    };
    let opens = rest.get(end).copied().filter(|w| is_one_of(w, &lists().complement));
    // The last word the catalog knows of the phrase after the object's end: a name may
    // follow (`the okta user jane`).
    let phrase_head = || {
        let after = rest.get(end + 1..)?;
        let stop =
            after.iter().position(|w| is_one_of(w, &lists().object_end)).unwrap_or(after.len());
        after.get(..stop)?.iter().rev().find_map(|w| term(w))
    };
    let complement = opens.and_then(|_| phrase_head());
    let place = rest
        .get(end)
        .filter(|w| ["to", "in", "into", "on"].iter().any(|p| p.eq_ignore_ascii_case(w)))
        .and_then(|_| phrase_head());
    Some(Object { words, opens, head, complement, place })
}

/// What a query asks to be done, for [`Services::unoffered`].
#[derive(Clone, Copy)]
pub(crate) struct Asked<'a> {
    /// The query's first action word, named when no tool does the action; `None` when the
    /// query asks for no action.
    pub(crate) word: Option<&'a str>,
    /// Whether the query asks to read (or is a question, `ActionSet::reads_only`).
    pub(crate) reads: bool,
    /// Whether the tool of a document does the kind of action asked.
    pub(crate) serves: &'a dyn Fn(DocId) -> bool,
    /// Whether the tool of a document takes its operation as a parameter
    /// ([`ActionSet::with_operations`](crate::actions::ActionSet::with_operations)): the
    /// operations it lists are actions it does, wherever its text says them.
    pub(crate) chooses: &'a dyn Fn(DocId) -> bool,
    /// Whether the tool of a document makes or changes something and neither reads nor deletes.
    pub(crate) makes: &'a dyn Fn(DocId) -> bool,
    /// Whether a stem is an action word (`toolsift_text::Actions::action`).
    pub(crate) is_action: &'a dyn Fn(&str) -> bool,
    /// Whether a stem is an action word that changes something (`toolsift_text::Action::
    /// writes`).
    pub(crate) writes: &'a dyn Fn(&str) -> bool,
    /// Whether a tool of the named service runs queries in a query language and does the
    /// kind of action asked (`ActionSet::runs_queries`): such a service answers any question
    /// about its data, and does to it what it is asked, whatever its tools are named.
    pub(crate) queries: &'a dyn Fn() -> bool,
    /// Whether a tool summary of the named service has a character of a CJK script (Chinese,
    /// Japanese, Korean): an English word cannot be judged against such tools.
    pub(crate) described_in_cjk: &'a dyn Fn() -> bool,
    /// Whether a tool of the named service that does the kind of action asked takes a stem
    /// as the kind of thing it acts on ([`ToolFacts`](crate::ToolFacts)' kinds: HubSpot's
    /// `batch-create-objects` with `objectType` "contacts, companies, deals …").
    pub(crate) takes_kind: &'a dyn Fn(&str) -> bool,
}

#[cfg(test)]
mod tests {
    use super::{
        Analyzed, Services, after_determiner, missing_in_clause, parse_services, request_clause,
        request_words,
    };
    use crate::request::words;

    /// `text` analyzed by the default analyzer.
    fn analyzed(text: &str) -> Analyzed {
        Analyzer::default().analyze_text(text)
    }

    /// The text of [`request_clause`] of `text`.
    fn clause(text: &str) -> String {
        let a = analyzed(text);
        a.text()[request_clause(&a)].to_owned()
    }

    /// [`request_words`] of `text`, owned.
    fn plain_words(text: &str) -> Vec<String> {
        request_words(words(&analyzed(text))).into_iter().map(str::to_owned).collect()
    }
    use toolsift_text::Analyzer;

    /// Everything [`Services::set_server`] records, to compare two histories.
    fn recorded(s: &Services) -> impl PartialEq + std::fmt::Debug + use<> {
        let mut stems: Vec<(Box<str>, u32)> =
            s.name_stems.iter().map(|(k, &v)| (k.clone(), v)).collect();
        stems.sort_unstable();
        let mut words: Vec<(Box<str>, Vec<String>)> =
            s.server_words.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        words.sort_unstable();
        (
            (s.present.clone(), s.by_server.clone(), s.servers_of.clone()),
            (stems, s.stems_by_server.clone(), words),
            (s.program_servers.clone(), s.programs_by_server.clone(), s.names_by_server.clone()),
        )
    }

    #[test]
    fn a_server_recorded_again_with_the_same_names_changes_nothing() {
        let analyzer = Analyzer::default();
        let git = ["git git_log", "git git_diff"];
        // A fresh history: atlassian's names, then git's.
        let fresh = |atlassian: [&str; 2]| {
            let known = parse_services(&analyzer, ["jira", "confluence", "git"]);
            let mut services = Services::new(known, Vec::new());
            assert!(services.set_server(&analyzer, "atlassian", atlassian));
            assert!(services.set_server(&analyzer, "git", git));
            services
        };
        let first = ["atlassian jira_create_issue", "atlassian confluence_get_page Get page"];
        let mut services = fresh(first);
        let before = recorded(&services);
        // The same texts: nothing to do.
        assert!(!services.set_server(&analyzer, "atlassian", first));
        assert_eq!(recorded(&services), before);
        // The same chunks in another order: recorded again, with the same entries.
        let again = ["atlassian confluence_get_page page Get", "atlassian jira_create_issue"];
        assert!(services.set_server(&analyzer, "atlassian", again));
        assert_eq!(recorded(&services), recorded(&fresh(again)));
        // Other chunks: recorded as a fresh history would record them.
        let other = ["atlassian jira_create_issue", "atlassian jira_get_issue"];
        assert!(services.set_server(&analyzer, "atlassian", other));
        assert_eq!(recorded(&services), recorded(&fresh(other)));
        assert_ne!(recorded(&services), before);
    }

    #[test]
    fn words_that_say_when_are_sorted_for_binary_search() {
        assert!(crate::words::lists().when.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_request_clause_leaves_out_the_situation() {
        assert_eq!(
            clause("today's push broke checkout, bring back the one that was live"),
            " bring back the one that was live"
        );
        assert_eq!(clause("mute web-07 in Datadog while we patch it"), "mute web-07 in Datadog ");
        assert_eq!(clause("because it failed"), "because it failed");
        // A comma at the end, or a purpose clause, leaves the request whole.
        assert_eq!(clause("rerun the job, "), "rerun the job");
        assert_eq!(
            clause("stash a token so my worker can read it"),
            "stash a token so my worker can read it"
        );
        assert_eq!(clause(""), "");
        // A statement of what happened may come last too.
        assert_eq!(
            clause("put the worker back the way it was, today's deploy broke checkout"),
            "put the worker back the way it was"
        );
        assert_eq!(
            clause("pull up issue X-1 in sentry, it started spiking, it is bad"),
            "pull up issue X-1 in sentry"
        );
        // When every part opens with a subject, the last one.
        assert_eq!(clause("the build broke, it is red"), " it is red");
        // A contraction opens with its subject.
        assert_eq!(
            clause("mute host web-03 in datadog, we're patching it tonight"),
            "mute host web-03 in datadog"
        );
        assert_eq!(clause("restart the pod, I'm on call"), "restart the pod");
        // Sentences are parts; a dot inside a word is not a sentence end.
        assert_eq!(clause("is it slow? show me how mongo runs it"), " show me how mongo runs it");
        assert_eq!(clause("open ideas.md. it is short"), "open ideas.md");
        // Any word before a verb of `[after_subject]` is a subject, but a question word.
        assert_eq!(
            clause("is the cluster healthy? searches have been timing out"),
            "is the cluster healthy"
        );
        assert_eq!(clause("list the pods! what is failing"), " what is failing");
    }

    #[test]
    fn a_missing_service_is_asked_for_only_in_the_request_clause_and_not_as_a_topic() {
        let asked = |text: &str| missing_in_clause(&analyzed(text), &["heroku".to_owned()]);
        assert!(asked("deploy the app to heroku"));
        assert!(asked("the build is green, deploy the app to heroku"));
        // A misspelt alias within one edit counts.
        assert!(asked("deploy the app to herok"));
        assert!(!asked("I moved the app off heroku, list the pods"));
        assert!(!asked("read the heroku changelog"));
        assert!(!asked("find the docs on how heroku scales dynos"));
        // A writing about it far from the service does not make it a topic.
        assert!(asked("scale the heroku dynos to three as the guide says"));
    }

    #[test]
    fn request_words_leave_out_the_values_the_user_supplies() {
        let cases: &[(&str, &[&str])] = &[
            (
                "create a new R2 bucket on cloudflare called assets",
                &["create", "a", "new", "bucket", "on", "cloudflare", "called"],
            ),
            (
                "set my slack status to 'out sick' now",
                &["set", "my", "slack", "status", "to", "now"],
            ),
            ("gdrive search for budget spreadsheet", &["gdrive", "search"]),
            ("close GitHub's stale issues", &["close", "GitHub's", "stale", "issues"]),
            ("search datadog logs for errors from checkout", &["search", "datadog", "logs"]),
            ("make room for the new hire", &["make", "room", "for", "the", "new", "hire"]),
            ("rename the doc to \"Q3 plan\" please", &["rename", "the", "doc", "to", "please"]),
            ("comment on bug 4521 saying it's fixed in build 88", &["comment", "on", "bug"]),
            // Apostrophes inside words are not quotes (a possessive stays whole); identifiers
            // and numbers are not plain.
            ("cancel someone's temp_events job 42", &["cancel", "someone's", "job"]),
            // An unclosed quote runs to the end.
            ("post 'hello world", &["post"]),
            ("", &[]),
            // What a past time's possessive introduces happened; it is not asked for.
            (
                "log 2 hours on jira ticket PROJ-88 for yesterday's debugging session",
                &["log", "hours", "on", "jira", "ticket", "for", "yesterday's"],
            ),
            (
                "attach last week's outage report to the page",
                &["attach", "last", "week's", "to", "the", "page"],
            ),
            // A time to come is not an event past.
            (
                "book a seat on friday morning's flight",
                &["book", "a", "seat", "on", "friday", "morning's", "flight"],
            ),
        ];
        for &(request, words) in cases {
            assert_eq!(plain_words(request), words, "{request}");
        }
        assert!(after_determiner(&["close", "GitHub’s", "stale", "issues"], "stale"));
        assert!(!after_determiner(&["enable", "branch", "protection", "rules"], "protection"));
        assert!(after_determiner(&["compare", "the", "two", "latest", "versions"], "latest"));
        assert!(after_determiner(&["delete", "my", "3", "oldest", "branches"], "oldest"));
        assert!(!after_determiner(&["keep", "3", "oldest", "branches"], "oldest"));
    }
}
