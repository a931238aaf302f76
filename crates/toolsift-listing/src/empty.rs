//! Why a search found nothing, as plain data, and the two lines that tell the model.

use crate::sanitize;

/// The most query characters quoted back.
const MAX_QUERY_CHARS: usize = 80;
/// The most characters of one quoted word.
const MAX_WORD_CHARS: usize = 40;
/// The most words of each kind quoted back.
const MAX_WORDS: usize = 8;
/// The most servers named.
const MAX_SERVERS: usize = 20;

/// Why a search found nothing: the plain data [`Lister::render_empty`](crate::Lister::render_empty)
/// renders. The facade fills it from its ranker's outcome.
///
/// ```
/// use toolsift_listing::{Lister, NoMatch};
///
/// let why = NoMatch::new("send a fax")
///     .unknown_words(["fax"])
///     .weak_words(["send"])
///     .servers(["github", "slack"]);
/// let text = Lister::default().render_empty(&why);
/// assert_eq!(text.lines().count(), 2);
/// assert!(text.contains(r#"no connected tool mentions "fax""#));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoMatch {
    query: String,
    unknown_words: Vec<String>,
    weak_words: Vec<String>,
    missing_services: Vec<String>,
    not_offered: Option<(String, String)>,
    servers: Vec<String>,
    server_filter: Option<String>,
    no_words: bool,
}

impl NoMatch {
    /// The query has no words to search for (it is empty, or only stopwords such as "the"):
    /// the model is asked for words instead of being told to stop.
    ///
    /// ```
    /// use toolsift_listing::{Lister, NoMatch};
    /// let text = Lister::default().render_empty(&NoMatch::new("the").no_words());
    /// assert!(text.contains("Search again with the words"), "{text}");
    /// assert!(!text.contains("stop"), "{text}");
    /// ```
    #[must_use]
    pub fn no_words(mut self) -> Self {
        self.no_words = true;
        self
    }

    /// Whether the query had no words to search for.
    pub fn has_no_words(&self) -> bool {
        self.no_words
    }

    /// No match for `query`, for no stated reason yet.
    pub fn new(query: impl Into<String>) -> Self {
        NoMatch { query: query.into(), ..NoMatch::default() }
    }

    /// The query words that no tool in the catalog carries.
    #[must_use]
    pub fn unknown_words<I, S>(mut self, words: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.unknown_words = words.into_iter().map(Into::into).collect();
        self
    }

    /// The query words that matched some tools, all of which were filtered out (below the
    /// ranker's score floor).
    #[must_use]
    pub fn weak_words<I, S>(mut self, words: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.weak_words = words.into_iter().map(Into::into).collect();
        self
    }

    /// The services the query names that no connected server provides (the facade's
    /// known-services rule).
    ///
    /// ```
    /// use toolsift_listing::{Lister, NoMatch};
    /// let why = NoMatch::new("bitbucket open pull request").missing_services(["bitbucket"]);
    /// let text = Lister::default().render_empty(&why);
    /// assert!(text.contains(r#"no connected server provides "bitbucket""#));
    /// ```
    #[must_use]
    pub fn missing_services<I, S>(mut self, services: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.missing_services = services.into_iter().map(Into::into).collect();
        self
    }

    /// The query names `service`, which is connected, but none of its tools matches `word`:
    /// the query's most specific tool word, its verb, the verb with the thing it acts on
    /// (`create release`), or the action it asks (the facade's known-services rule).
    ///
    /// ```
    /// use toolsift_listing::{Lister, NoMatch};
    /// let why = NoMatch::new("circleci cancel running workflow").not_offered("circleci", "cancel");
    /// let text = Lister::default().render_empty(&why);
    /// assert!(text.contains(r#"no "circleci" tool matches "cancel""#));
    /// ```
    #[must_use]
    pub fn not_offered(mut self, service: impl Into<String>, word: impl Into<String>) -> Self {
        self.not_offered = Some((service.into(), word.into()));
        self
    }

    /// The connected servers.
    #[must_use]
    pub fn servers<I, S>(mut self, servers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.servers = servers.into_iter().map(Into::into).collect();
        self
    }

    /// The server the search was restricted to, if any.
    #[must_use]
    pub fn server_filter(mut self, server: impl Into<String>) -> Self {
        self.server_filter = Some(server.into());
        self
    }

    /// The query.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// The words no tool carries.
    pub fn unknown(&self) -> &[String] {
        &self.unknown_words
    }

    /// The words that matched only filtered-out tools.
    pub fn weak(&self) -> &[String] {
        &self.weak_words
    }

    /// The services no connected server provides.
    pub fn missing(&self) -> &[String] {
        &self.missing_services
    }

    /// The connected service named by the query and the query word none of its tools matches.
    pub fn unoffered(&self) -> Option<(&str, &str)> {
        self.not_offered.as_ref().map(|(s, w)| (s.as_str(), w.as_str()))
    }

    /// The connected servers.
    pub fn connected(&self) -> &[String] {
        &self.servers
    }

    /// The server filter, if any.
    pub fn filter(&self) -> Option<&str> {
        self.server_filter.as_deref()
    }
}

pub(crate) fn render(why: &NoMatch) -> String {
    if why.no_words {
        let mut out = String::from("The search ");
        push_quoted(&mut out, &why.query, MAX_QUERY_CHARS);
        out.push_str(" has no words to look for.\n");
        out.push_str(
            "Search again with the words of what the tool should do, such as \"create an issue\" \
             or \"send a message\".\n",
        );
        return out;
    }
    let mut out = String::from("No tool");
    if let Some(server) = &why.server_filter {
        out.push_str(" on server ");
        push_quoted(&mut out, server, MAX_WORD_CHARS);
    }
    out.push_str(" matches ");
    push_quoted(&mut out, &why.query, MAX_QUERY_CHARS);
    let mut reasons = Vec::new();
    if !why.missing_services.is_empty() {
        reasons.push(format!(
            "no connected server provides {}",
            quoted_list(&why.missing_services, "or")
        ));
    }
    if let Some((service, word)) = &why.not_offered {
        let mut reason = String::from("no ");
        push_quoted(&mut reason, service, MAX_WORD_CHARS);
        reason.push_str(" tool matches ");
        push_quoted(&mut reason, word, MAX_WORD_CHARS);
        reasons.push(reason);
    }
    if !why.unknown_words.is_empty() {
        reasons
            .push(format!("no connected tool mentions {}", quoted_list(&why.unknown_words, "or")));
    }
    if !why.weak_words.is_empty() {
        let verb = if why.weak_words.len() == 1 { "matches" } else { "match" };
        reasons.push(format!(
            "{} {verb} some tools, but none closely enough",
            quoted_list(&why.weak_words, "and")
        ));
    }
    if !reasons.is_empty() {
        out.push_str(": ");
        out.push_str(&reasons.join("; "));
    }
    out.push_str(".\n");

    if why.servers.is_empty() {
        out.push_str("No servers are connected.");
    } else {
        out.push_str("Connected servers: ");
        for (i, server) in why.servers.iter().take(MAX_SERVERS).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            sanitize::push_name(&mut out, server);
        }
        if why.servers.len() > MAX_SERVERS {
            out.push_str(&format!(" and {} more", why.servers.len() - MAX_SERVERS));
        }
        out.push('.');
    }
    if why.server_filter.is_some() {
        out.push_str(" Search once more without the server filter; if that finds nothing, stop");
    } else {
        out.push_str(" Do not rephrase this search: no connected tool does this, so stop");
    }
    out.push_str(" and tell the user it is not available.\n");
    out
}

/// See [`Lister::render_missing`](crate::Lister::render_missing).
pub(crate) fn render_missing(services: &[String]) -> String {
    if services.is_empty() {
        return String::new();
    }
    let (list, them) = (quoted_list(services, "or"), quoted_list(services, "and"));
    let (it, is) = if services.len() == 1 { ("it", "is") } else { ("them", "are") };
    format!(
        "No connected server provides {list}: the tools above may still do it (taking {it} as a \
         value); if none does, tell the user {them} {is} not connected.\n"
    )
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"` (with `conjunction`), at most [`MAX_WORDS`] words.
fn quoted_list(words: &[String], conjunction: &str) -> String {
    let words = &words[..words.len().min(MAX_WORDS)];
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            if i + 1 == words.len() {
                out.push(' ');
                out.push_str(conjunction);
                out.push(' ');
            } else {
                out.push_str(", ");
            }
        }
        push_quoted(&mut out, word, MAX_WORD_CHARS);
    }
    out
}

/// `"text"`, inline-sanitized and clipped to `max` characters.
fn push_quoted(out: &mut String, text: &str, max: usize) {
    let clean = sanitize::inline(text);
    out.push('"');
    if clean.chars().count() > max {
        out.extend(clean.chars().take(max - 1));
        out.push('…');
    } else {
        out.push_str(&clean);
    }
    out.push('"');
}
