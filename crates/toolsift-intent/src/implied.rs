//! Words a query implies without writing them: a file name or path (`package.json`,
//! `src/app.ts`) asks about a file, a web address (`https://example.com/pricing`) about a URL,
//! a hashtag (`#general`) about a channel, a host with a port (`localhost:5432`) about a
//! port, a command-line program (`git`, `npm`) that no
//! tool is named after about the shell, and an e-mail address (`bob@example.com`, searched as
//! `email` instead of its parts) about an e-mail.
//!
//! Agents name the thing they mean ("read the contents of package.json", "grab the text of
//! `https://example.com/pricing`", "post the notes to #general", "git stage files") where
//! tools name its kind (`read_file`, a `url` parameter, `slack_post_message` to a `channel`,
//! `run_shell_command`). A query with such a word gets the kind's word added for the index;
//! the reasons of an empty answer still speak of the words the query wrote.

use toolsift_text::{Analyzed, Analyzer};

use crate::request::{Request, words, writes};
use crate::words::lists;

/// The word a file name implies.
const FILE: &str = "file";
/// The word a web address implies.
const URL: &str = "url";
/// The word a hashtag implies.
const CHANNEL: &str = "channel";
/// The word a command-line program implies.
const SHELL: &str = "shell";
/// The word an e-mail address stands for.
const EMAIL: &str = "email";
/// The word a network address with a port implies.
const PORT: &str = "port";

/// Whether `word` (one whitespace-separated word of a query) names a file: after trimming
/// quotes and punctuation around it, its last path segment is `name.ext` with a known
/// extension. URLs (`://`, `www.`) are not files.
pub(crate) fn names_a_file(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    if word.contains("://") || starts_with_ignore_case(word, "www.") {
        return false;
    }
    let last = word.rsplit('/').next().unwrap_or(word);
    let Some((base, ext)) = last.rsplit_once('.') else { return false };
    !base.is_empty()
        && lists().extensions.binary_search_by(|e| cmp_ignore_case(e, ext)).is_ok()
        && (!ext.eq_ignore_ascii_case("js") || word.contains('/'))
}

/// Whether `text` starts with `prefix`, ASCII case ignored.
fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix))
}

/// Compares lowercase `lower` with `text` as if `text` were lowercased (ASCII).
fn cmp_ignore_case(lower: &str, text: &str) -> std::cmp::Ordering {
    lower.bytes().cmp(text.bytes().map(|b| b.to_ascii_lowercase()))
}

/// The longest name in `[programs]`.
const MAX_PROGRAM_LEN: usize = 10;

/// `name`'s bytes from the highest byte of a `u128` down, zero-padded: for lowercase ASCII
/// letters and digits, comparing keys compares the names.
pub(crate) const fn program_key(name: &[u8]) -> u128 {
    let mut key = 0u128;
    let mut i = 0;
    while i < 16 {
        key <<= 8;
        if i < name.len() {
            key |= name[i] as u128;
        }
        i += 1;
    }
    key
}

/// Whether `text` has a `.`, a `:`, a `#` or a `@`, which a file name, a web address, a
/// hashtag and an e-mail address need: most requests have none, and this one pass settles
/// them.
fn marked(text: &str) -> bool {
    text.bytes().any(|b| matches!(b, b'.' | b':' | b'#' | b'@'))
}

/// The index in `[programs]` of the command-line program `word` names, if it names one.
///
/// A word (a chunk of the request) names a program when, without the ASCII punctuation
/// around it, it is one of `[programs]` in any case: `git`, `` `npm` ``, `(ssh)`, `Curl`; not
/// `git_add`, `github`, `gït`.
fn program_named(word: &str) -> Option<usize> {
    let name = word.trim_matches(|c: char| c.is_ascii_punctuation());
    if !(2..=MAX_PROGRAM_LEN).contains(&name.len())
        || !word.is_ascii()
        || !name.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return None;
    }
    let mut key = [0u8; 16];
    for (slot, b) in key.iter_mut().zip(name.bytes()) {
        *slot = b.to_ascii_lowercase();
    }
    lists().program_keys.binary_search(&u128::from_be_bytes(key)).ok()
}

/// The number of `[programs]`: at most 64 (a unit test checks), since `Services` keeps a
/// server's programs as a bit mask.
pub(crate) fn program_count() -> usize {
    lists().programs.len()
}

/// The index in `[programs]` of `word`, an analyzed (lowercase) word, if it is one.
pub(crate) fn program_index(word: &str) -> Option<usize> {
    let bytes = word.as_bytes();
    if !(2..=MAX_PROGRAM_LEN).contains(&bytes.len()) {
        return None;
    }
    let mut name = [0u8; 16];
    name.get_mut(..bytes.len())?.copy_from_slice(bytes);
    lists().program_keys.binary_search(&u128::from_be_bytes(name)).ok()
}

/// A test of one query word.
type Test = fn(&str) -> bool;

/// Whether `word` (one whitespace-separated word of a query, punctuation around it trimmed)
/// is a host and a port: `localhost:5432`, `127.0.0.1:8080`, `db.internal:6379`. The host is
/// `localhost` or has a dot (`session:42` is a key, not an address); a web address
/// (`https://…`) is left to [`names_a_url`].
fn names_a_port(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    if word.contains('/') {
        return false;
    }
    word.rsplit_once(':').is_some_and(|(host, port)| {
        (1..=5).contains(&port.len())
            && port.bytes().all(|b| b.is_ascii_digit())
            && (host.eq_ignore_ascii_case("localhost")
                || (host.contains('.')
                    && host.split('.').all(|p| {
                        !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '-')
                    })))
    })
}

/// Whether `word` (one whitespace-separated word of a query, punctuation around it trimmed)
/// is an e-mail address: `name@domain.tld`.
fn names_an_address(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    word.split_once('@').is_some_and(|(user, domain)| {
        !user.is_empty()
            && domain.split('.').count() >= 2
            && domain.split('.').all(|part| !part.is_empty())
            && !domain.contains('@')
    })
}

/// Whether `word` is a web address: it starts with `http://`, `https://` or `www.`, or it is
/// a bare domain of a common top-level domain (`example.com`, `example.com's`).
fn names_a_url(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    if ["http://", "https://", "www."].iter().any(|p| starts_with_ignore_case(word, p)) {
        return true;
    }
    // A bare domain (`example.com`, `example.com's`) of a common top-level domain.
    if !word.contains('.') {
        return false;
    }
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let word = word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")).unwrap_or(word);
    // The host before any path (`docs.example.io/api`); never an address's domain.
    let host = word.split('/').next().unwrap_or(word);
    if word.contains('@') {
        return false;
    }
    let mut parts = host.rsplit('.');
    let (Some(tld), Some(name)) = (parts.next(), parts.next()) else { return false };
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && lists().domains.iter().any(|t| t.eq_ignore_ascii_case(tld))
}

/// Whether `word` is a hashtag naming a channel: `#` and a letter (`#general`,
/// `#eng-oncall`; not an issue number such as `#231`).
fn names_a_channel(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '#');
    word.strip_prefix('#').and_then(|rest| rest.chars().next()).is_some_and(char::is_alphabetic)
}

/// The words `request` implies and does not write, in a fixed order (`file`, `url`,
/// `channel`, `port`, `shell`), if it has at least two words (a request of one word may be a
/// tool's exact name).
///
/// A command-line program implies `shell` only when `named(i)` is false for its index `i` in
/// `[programs]`: when no tool of the catalog is named after it, the machine's shell is how the
/// request gets done (a catalog with a `git` server answers "git stage files" with `git_add`,
/// one without it with `run_shell_command`).
pub(crate) fn implied_words(
    request: &Analyzed,
    named: &dyn Fn(usize) -> bool,
) -> Vec<&'static str> {
    let marked = marked(request.text());
    let unserved_program = || words(request).any(|w| program_named(w).is_some_and(|p| !named(p)));
    if request.chunks().len() < 2 || !(marked || unserved_program()) {
        return Vec::new();
    }
    let mut implied = Vec::new();
    if marked {
        let kinds: [(&'static str, Test); 4] = [
            (FILE, names_a_file),
            (URL, names_a_url),
            (CHANNEL, names_a_channel),
            (PORT, names_a_port),
        ];
        for (kind, test) in kinds {
            if words(request).any(test) && !writes(request, kind) {
                implied.push(kind);
            }
        }
    }
    if unserved_program() && !writes(request, SHELL) {
        implied.push(SHELL);
    }
    implied
}

/// `request` read once: with the query the index searches when that is not the request
/// itself: the words it implies appended at the end, and each e-mail address replaced by
/// `email` (or by `,` when the request says "email"). An address is a value the user
/// supplies: its parts (`bob`, `example`, `com`) match nothing the request is about, while
/// `email` finds the tools that take one.
pub(crate) fn read(
    analyzer: &Analyzer,
    request: Analyzed,
    named: &dyn Fn(usize) -> bool,
) -> Request {
    let mut implied = implied_words(&request, named);
    let addresses: Vec<usize> = if request.text().contains('@') {
        words(&request).enumerate().filter(|(_, w)| names_an_address(w)).map(|(i, _)| i).collect()
    } else {
        Vec::new()
    };
    if implied.is_empty() && addresses.is_empty() {
        return Request::plain(request);
    }
    let mut query = request.clone();
    if !addresses.is_empty() {
        let written = writes(&request, EMAIL);
        // From the last, so the indexes of the ones before stay put. A dropped address
        // leaves a comma, so that the words around it do not join as a phrasal verb ("with
        // alice@example.com in box" is not "within").
        for &i in addresses.iter().rev() {
            query.replace_chunk(analyzer, i, if written { "," } else { EMAIL });
        }
        if !written {
            implied.push(EMAIL);
        }
    }
    for word in implied.iter().filter(|w| **w != EMAIL) {
        query.append(analyzer, word);
    }
    Request::with_query(request, query, implied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_and_programs_are_sorted_for_binary_search() {
        assert!(lists().extensions.windows(2).all(|w| w[0] < w[1]));
        assert!(lists().programs.windows(2).all(|w| w[0] < w[1]));
        assert!(lists().programs.iter().all(|p| p.bytes().all(|b| !b.is_ascii_uppercase())));
        assert!(lists().programs.iter().all(|p| (2..=MAX_PROGRAM_LEN).contains(&p.len())));
        assert!(lists().programs.iter().any(|p| p.len() == MAX_PROGRAM_LEN));
        assert!(lists().programs.iter().all(|p| p.bytes().all(|b| b.is_ascii_alphanumeric())));
        assert!(lists().program_keys.windows(2).all(|w| w[0] < w[1]));
        assert!(program_count() <= 64);
        for (i, p) in lists().programs.iter().enumerate() {
            assert_eq!(program_index(p), Some(i));
        }
        assert_eq!(program_index("Git"), None, "analyzed words are lowercase");
        assert_eq!(program_index("github"), None);
    }

    /// The program `word` names.
    fn program(word: &str) -> Option<&'static str> {
        program_named(word).and_then(|i| lists().programs.get(i).copied())
    }

    /// `text` analyzed by the default analyzer.
    fn analyzed(text: &str) -> Analyzed {
        Analyzer::default().analyze_text(text)
    }

    #[test]
    fn programs_are_whole_words() {
        for (word, name) in [
            ("git", "git"),
            ("`npm`", "npm"),
            ("Curl", "curl"),
            ("(ssh)", "ssh"),
            ("pip3", "pip3"),
            ("kubectl", "kubectl"),
            ("git,", "git"),
        ] {
            assert_eq!(program(word), Some(name), "{word}");
        }
        for word in [
            "github",
            "gitlab",
            "npmjs",
            "make",
            "find",
            "terraform",
            "",
            "--",
            "gi",
            "gït",
            "git_add",
            "git/foo",
            "journalctl2",
        ] {
            assert_eq!(program(word), None, "{word}");
        }
        assert!(marked("read package.json with jq"));
        assert!(marked("#general"));
        assert!(!marked("nothing to run here"));
    }

    #[test]
    fn a_program_no_tool_is_named_after_implies_shell() {
        let nothing_named = |_: usize| false;
        let git_named = |i: usize| program_index("git") == Some(i);
        let implied = |q: &str, named: &dyn Fn(usize) -> bool| implied_words(&analyzed(q), named);
        assert_eq!(implied("git stage files", &nothing_named), ["shell"]);
        assert_eq!(implied("run npm test in the terminal", &nothing_named), ["shell"]);
        // A catalog with tools named after the program answers with them.
        assert!(implied("git stage files", &git_named).is_empty());
        assert_eq!(implied("git push and curl the health check", &git_named), ["shell"]);
        // Written, or a one-word query (maybe a tool's name): nothing added.
        assert!(implied("git stage files in the shell", &nothing_named).is_empty());
        assert!(implied("git", &nothing_named).is_empty());
        // Parts of words and look-alikes are not programs.
        assert!(implied("open a github issue", &nothing_named).is_empty());
        assert_eq!(
            implied("curl example.com/health.json", &nothing_named),
            ["file", "url", "shell"]
        );
    }

    #[test]
    fn file_names_and_paths_are_files() {
        for word in [
            "package.json",
            "src/app.ts",
            "config.yaml,",
            "`Cargo.toml`",
            "\"README.md\"",
            "./scripts/build.sh",
            "src/index.js",
            "Report.PDF",
            "data/2024.csv",
        ] {
            assert!(names_a_file(word), "{word}");
        }
    }

    #[test]
    fn libraries_urls_numbers_and_addresses_are_not() {
        for word in [
            "Next.js",
            "node.js",
            "example.com",
            "https://example.com/page.html",
            "www.example.com/a.html",
            "bob@example.com",
            "3.5",
            "v1.2",
            ".env",
            "files.upload",
            "users.list",
            "",
            "...",
        ] {
            assert!(!names_a_file(word), "{word}");
        }
    }

    #[test]
    fn urls_and_hashtags() {
        for word in
            ["https://example.com/pricing", "http://x.io", "<https://a.b/c>", "www.example.com"]
        {
            assert!(names_a_url(word), "{word}");
        }
        for word in ["example.com", "docs.example.io/api", "example.com's", "(stripe.com)"] {
            assert!(names_a_url(word), "{word}");
        }
        for word in ["https", "bob@example.com", "://", "notes.md", "next.js", ".com", "a.b.c"] {
            assert!(!names_a_url(word), "{word}");
        }
        for word in ["#general", "#eng-oncall", "(#incidents)", "#Design"] {
            assert!(names_a_channel(word), "{word}");
        }
        for word in ["#231", "#", "C#", "general", "##"] {
            assert!(!names_a_channel(word), "{word}");
        }
    }

    #[test]
    fn hosts_with_a_port_imply_port() {
        for word in ["localhost:5432", "127.0.0.1:8080", "db.internal:6379,", "(LOCALHOST:3000)"] {
            assert!(names_a_port(word), "{word}");
        }
        // A key with a number, a time, a URL (left to `names_a_url`), a port too long.
        for word in ["session:42", "10:30", "https://example.com:8443/x", "localhost:123456"] {
            assert!(!names_a_port(word), "{word}");
        }
        for word in ["localhost:", ":8080", "a..b:80", "localhost:80a"] {
            assert!(!names_a_port(word), "{word}");
        }
        let none = |_| false;
        let implied = |q: &str| implied_words(&analyzed(q), &none);
        assert_eq!(implied("connect to the database at localhost:5432"), [PORT]);
        assert!(implied("forward port 5432 from localhost:5432").is_empty());
    }

    #[test]
    fn addresses_are_replaced_by_email() {
        for word in ["bob@example.com", "<jane@acme.co.uk>,", "a.b-c@x.io"] {
            assert!(names_an_address(word), "{word}");
        }
        for word in ["@channel", "bob@", "bob@localhost", "user@.com", "a@b.", "x@@y.z", "me"] {
            assert!(!names_an_address(word), "{word}");
        }
        // The query's text and the added words, when the query is not the request.
        let rewrite = |q: &str| {
            let request = read(&Analyzer::default(), analyzed(q), &|_: usize| false);
            assert_eq!(request.query(), &analyzed(request.query().text()));
            (request.query() != request.analyzed())
                .then(|| (request.query().text().to_owned(), request.added().to_vec()))
        };
        assert_eq!(
            rewrite("share the doc with bob@example.com today"),
            Some(("share the doc with email today".into(), vec!["email"]))
        );
        // The query says "email": the address goes, leaving a comma.
        assert_eq!(
            rewrite("find the user whose email is jane@acme.com"),
            Some(("find the user whose email is ,".into(), vec![]))
        );
        // With other implied words, and alone.
        assert_eq!(
            rewrite("send notes.md to bob@example.com"),
            Some(("send notes.md to email file".into(), vec!["file", "email"]))
        );
        assert_eq!(rewrite("bob@example.com"), Some(("email".into(), vec!["email"])));
        assert_eq!(rewrite("ping @channel now"), None);
    }

    #[test]
    fn only_queries_of_several_words_imply_words() {
        let implied = |q: &str| {
            let request = read(&Analyzer::default(), analyzed(q), &|_: usize| false);
            (request.query() != request.analyzed())
                .then(|| (request.query().text().to_owned(), request.added().len()))
        };
        assert_eq!(
            implied("read package.json please"),
            Some(("read package.json please file".into(), 1))
        );
        assert_eq!(implied("package.json"), None);
        assert_eq!(implied("read the docs"), None);
        assert_eq!(implied("get current docs for the Next.js app router API"), None);
        assert_eq!(
            implied("save https://a.io/x.html to notes.md and tell #team"),
            Some((
                "save https://a.io/x.html to notes.md and tell #team file url channel".into(),
                3
            ))
        );
        // A word the query writes is not added again.
        assert_eq!(implied("post to the #general channel"), None);
        assert_eq!(implied("open the file notes.md"), None);
        assert_eq!(implied("fetch url https://a.io"), None);
        assert_eq!(implied("open http://localhost:3000 now").map(|(_, n)| n), Some(1));
    }
}
