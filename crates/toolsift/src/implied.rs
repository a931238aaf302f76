//! Words a query implies without writing them: a file name or path (`package.json`,
//! `src/app.ts`) asks about a file, a web address (`https://example.com/pricing`) about a URL,
//! and a hashtag (`#general`) about a channel.
//!
//! Agents name the thing they mean ("read the contents of package.json", "grab the text of
//! `https://example.com/pricing`", "post the notes to #general") where tools name its kind
//! (`read_file`, a `url` parameter, `slack_post_message` to a `channel`). A query with such a
//! word gets the kind's word added for the index; the reasons of an empty answer still speak
//! of the words the query wrote.

/// The word a file name implies.
const FILE: &str = "file";
/// The word a web address implies.
const URL: &str = "url";
/// The word a hashtag implies.
const CHANNEL: &str = "channel";

/// File extensions that mark a word as a file name: source code, configuration, data,
/// documents and images, as agents write them. `js` only counts in a path (`src/app.js`),
/// since `Next.js`, `node.js` and `three.js` name libraries.
const EXTENSIONS: &[&str] = &[
    "c", "cfg", "cpp", "cs", "css", "csv", "docx", "env", "gif", "go", "h", "html", "ini", "ipynb",
    "java", "jpeg", "jpg", "js", "json", "jsx", "kt", "lock", "log", "md", "mjs", "pdf", "php",
    "png", "pptx", "py", "rb", "rs", "scss", "sh", "sql", "svg", "swift", "toml", "ts", "tsx",
    "txt", "vue", "xlsx", "xml", "yaml", "yml", "zip",
];

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
        && EXTENSIONS.binary_search_by(|e| cmp_ignore_case(e, ext)).is_ok()
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

/// A test of one query word.
type Test = fn(&str) -> bool;

/// Whether `word` is a web address: it starts with `http://`, `https://` or `www.`.
fn names_a_url(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    ["http://", "https://", "www."].iter().any(|p| starts_with_ignore_case(word, p))
}

/// Whether `word` is a hashtag naming a channel: `#` and a letter (`#general`,
/// `#eng-oncall`; not an issue number such as `#231`).
fn names_a_channel(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '#');
    word.strip_prefix('#').and_then(|rest| rest.chars().next()).is_some_and(char::is_alphabetic)
}

/// The words `query` implies and does not write, in a fixed order (`file`, `url`, `channel`),
/// if it has at least two words (a query of one word may be a tool's exact name).
pub(crate) fn implied_words(query: &str) -> Vec<&'static str> {
    // Every kind needs a `.`, a `:` or a `#`: most queries have none.
    if !query.bytes().any(|b| matches!(b, b'.' | b':' | b'#')) {
        return Vec::new();
    }
    let words: Vec<&str> = query.split_whitespace().collect();
    if words.len() < 2 {
        return Vec::new();
    }
    let written = |kind: &str| {
        words.iter().any(|w| {
            w.split(|c: char| !c.is_alphanumeric()).any(|part| part.eq_ignore_ascii_case(kind))
        })
    };
    let kinds: [(&'static str, Test); 3] =
        [(FILE, names_a_file), (URL, names_a_url), (CHANNEL, names_a_channel)];
    kinds
        .into_iter()
        .filter(|&(kind, test)| words.iter().any(|w| test(w)) && !written(kind))
        .map(|(kind, _)| kind)
        .collect()
}

/// `query` with the words it implies added at the end, or `None` when it implies none.
pub(crate) fn with_implied_words(query: &str) -> Option<(String, Vec<&'static str>)> {
    let implied = implied_words(query);
    if implied.is_empty() {
        return None;
    }
    let mut text = String::with_capacity(query.len() + 16);
    text.push_str(query);
    for word in &implied {
        text.push(' ');
        text.push_str(word);
    }
    Some((text, implied))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_sorted_for_binary_search() {
        assert!(EXTENSIONS.windows(2).all(|w| w[0] < w[1]));
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
        for word in ["example.com", "https", "bob@example.com", "://"] {
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
    fn only_queries_of_several_words_imply_words() {
        let implied = |q: &str| with_implied_words(q).map(|(text, words)| (text, words.len()));
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
