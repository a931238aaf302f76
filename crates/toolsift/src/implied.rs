//! Words a query implies without writing them: a file name or path (`package.json`,
//! `src/app.ts`) asks about a file.
//!
//! Agents name the file they mean ("read the contents of package.json", "who last changed
//! src/app.ts") where tools say `file` (`read_file`, `get_file_blame`). A query with a word
//! that looks like a file name gets the word `file` added for the index; the hits and the
//! reasons of an empty answer still speak of the words the query wrote.

/// The word a file name implies.
pub(crate) const FILE: &str = "file";

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
    if word.contains("://") || word.starts_with("www.") {
        return false;
    }
    let last = word.rsplit('/').next().unwrap_or(word);
    let Some((base, ext)) = last.rsplit_once('.') else { return false };
    let ext = ext.to_ascii_lowercase();
    !base.is_empty()
        && EXTENSIONS.binary_search(&ext.as_str()).is_ok()
        && (ext != "js" || word.contains('/'))
}

/// The query with `file` added when one of its words names a file and it has at least two
/// words (a query of one word may be a tool's exact name); `None` when nothing is implied.
pub(crate) fn with_implied_words(query: &str) -> Option<String> {
    let mut words = query.split_whitespace();
    let several = words.clone().nth(1).is_some();
    (several && words.any(names_a_file)).then(|| format!("{query} {FILE}"))
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
    fn only_queries_of_several_words_get_file() {
        assert_eq!(
            with_implied_words("read package.json please").as_deref(),
            Some("read package.json please file")
        );
        assert_eq!(with_implied_words("package.json"), None);
        assert_eq!(with_implied_words("read the docs"), None);
        assert_eq!(with_implied_words("get current docs for the Next.js app router API"), None);
    }
}
