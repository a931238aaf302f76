//! Listings of the tuning catalogs counted with real tokenizers: what the token-estimate test
//! holds the default estimate to, and what the `calibrate` example reports and fits.
//!
//! The catalogs are loaded the way `cargo xtask eval` and the command line load them: each
//! catalog file as one server named after its file, and every dataset of `xtask/tuning` as one
//! catalog of its servers. Each is listed by two listers (80-character descriptions, the
//! default, and names only, as `toolsift listing --form names` lists) at each budget.
//!
//! OpenAI's encodings never join a line break with the text after it, so a listing's count is
//! the sum of its lines' counts; each distinct line is counted once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tiktoken_rs::CoreBPE;
use toolsift_catalog::{Catalog, ToolKind, load_file};
use toolsift_listing::{Form, Lister, ListingBuilder, TokenEstimator};

/// The budgets measured, in tokens.
pub(crate) const BUDGETS: [usize; 9] =
    [500, 1_000, 2_000, 3_000, 4_000, 6_000, 8_000, 12_000, 16_000];

/// How much denser than cl100k the Claude-like count is taken to be: no Claude tokenizer is
/// published, so cl100k's count times this stands in for it.
pub(crate) const CLAUDE_FACTOR: f64 = 1.10;

/// The tuning folder of the repository.
pub(crate) fn tuning_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning"))
}

fn kind_of(word: &str) -> ToolKind {
    match word {
        "openapi" => ToolKind::OpenApi,
        "plugin" => ToolKind::Plugin,
        _ => ToolKind::Mcp,
    }
}

/// Every catalog file alone (named `mcp/github.json`), then every dataset's catalog (named
/// `all`, `dev`, ...; datasets with the same catalogs as one before them are skipped).
///
/// # Panics
/// When a file cannot be read or loaded.
pub(crate) fn catalogs() -> Vec<(String, Catalog)> {
    let dir = tuning_dir();
    let mut out = Vec::new();
    for kind in ["mcp", "openapi", "plugin"] {
        let folder = dir.join("catalogs").join(kind);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .map(|e| e.map(|e| e.path()).unwrap_or_default())
            .collect();
        files.sort();
        for path in files {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
            let name = format!("{kind}/{}", path.file_name().unwrap_or_default().to_string_lossy());
            let mut catalog = Catalog::new();
            catalog.add_server(load(&path, kind_of(kind), &stem));
            out.push((name, catalog));
        }
    }
    let mut seen: Vec<Vec<String>> = Vec::new();
    for set in ["all", "dev", "office", "ops", "openapi", "fresh", "names"] {
        let file = dir.join(set).join("dataset.json");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let entries = json["catalogs"].as_array().cloned().unwrap_or_default();
        let key: Vec<String> = entries.iter().map(|c| c["file"].to_string()).collect();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let mut catalog = Catalog::new();
        for c in entries {
            let path = dir.join(set).join(c["file"].as_str().unwrap_or_default());
            let server = c["server"].as_str().unwrap_or_default();
            catalog.add_server(load(
                &path,
                kind_of(c["kind"].as_str().unwrap_or_default()),
                server,
            ));
        }
        out.push((set.to_owned(), catalog));
    }
    out
}

fn load(path: &Path, kind: ToolKind, server: &str) -> toolsift_catalog::Server {
    load_file(path, kind, server).unwrap_or_else(|e| panic!("{}: {e}", path.display())).server
}

/// The two listers, with `estimator`: 80-character descriptions (the default) and names only.
pub(crate) fn listers<E>(estimator: E) -> [(&'static str, Lister); 2]
where
    E: TokenEstimator + Clone + Send + Sync + 'static,
{
    [
        ("described", ListingBuilder::new().estimator(estimator.clone()).build()),
        ("names", ListingBuilder::new().description_chars(0).estimator(estimator).build()),
    ]
}

/// Exact counts of lines in cl100k and o200k, each distinct line counted once.
pub(crate) struct Real {
    cl100k: &'static CoreBPE,
    o200k: &'static CoreBPE,
    lines: HashMap<String, (usize, usize)>,
}

impl Default for Real {
    fn default() -> Self {
        Real {
            cl100k: tiktoken_rs::cl100k_base_singleton(),
            o200k: tiktoken_rs::o200k_base_singleton(),
            lines: HashMap::new(),
        }
    }
}

impl Real {
    /// The (cl100k, o200k) counts of one line.
    pub(crate) fn line(&mut self, line: &str) -> (usize, usize) {
        if let Some(&c) = self.lines.get(line) {
            return c;
        }
        let c = (self.cl100k.count_ordinary(line), self.o200k.count_ordinary(line));
        self.lines.insert(line.to_owned(), c);
        c
    }

    /// The (cl100k, o200k) counts of a text: the sum of its lines' counts.
    pub(crate) fn text(&mut self, text: &str) -> (usize, usize) {
        text.split_inclusive('\n').fold((0, 0), |(a, b), line| {
            let (c, o) = self.line(line);
            (a + c, b + o)
        })
    }

    /// The (cl100k, o200k) counts of a text counted whole, not by lines.
    pub(crate) fn whole(&self, text: &str) -> (usize, usize) {
        (self.cl100k.count_ordinary(text), self.o200k.count_ordinary(text))
    }

    /// Every distinct line counted so far, with its counts.
    pub(crate) fn lines(&self) -> impl Iterator<Item = (&str, (usize, usize))> {
        self.lines.iter().map(|(l, &c)| (l.as_str(), c))
    }
}

/// One listing, measured.
#[derive(Debug, Clone)]
pub(crate) struct Measured {
    /// The catalog's name.
    pub(crate) catalog: String,
    /// `described` or `names`.
    pub(crate) lister: &'static str,
    /// The budget.
    pub(crate) budget: usize,
    /// The forms of the listed servers: `full`, `names`, `summary`, `mixed` or `none`.
    pub(crate) forms: &'static str,
    /// Whether every server got its full form.
    pub(crate) complete: bool,
    /// The listing's own estimate.
    pub(crate) estimate: usize,
    /// The exact cl100k count.
    pub(crate) cl100k: usize,
    /// The exact o200k count.
    pub(crate) o200k: usize,
    /// The text.
    pub(crate) text: String,
}

impl Measured {
    /// The Claude-like count: cl100k times [`CLAUDE_FACTOR`].
    pub(crate) fn claude(&self) -> f64 {
        self.cl100k as f64 * CLAUDE_FACTOR
    }
}

/// Every catalog listed by both listers of `estimator` at every budget of [`BUDGETS`].
pub(crate) fn measure<E>(
    catalogs: &[(String, Catalog)],
    estimator: E,
    real: &mut Real,
) -> Vec<Measured>
where
    E: TokenEstimator + Clone + Send + Sync + 'static,
{
    let mut out = Vec::new();
    for (name, catalog) in catalogs {
        for (lister_name, lister) in listers(estimator.clone()) {
            for budget in BUDGETS {
                let listing = lister.listing(catalog, budget);
                let listed: Vec<Form> = listing
                    .servers()
                    .iter()
                    .map(|s| s.form())
                    .filter(|&f| f != Form::Omitted)
                    .collect();
                let forms = match listed.first() {
                    None => "none",
                    Some(first) if listed.iter().any(|f| f != first) => "mixed",
                    Some(Form::Full) if lister_name == "names" => "names",
                    Some(f) => f.as_str(),
                };
                let (cl100k, o200k) = real.text(listing.text());
                out.push(Measured {
                    catalog: name.clone(),
                    lister: lister_name,
                    budget,
                    forms,
                    complete: listing.is_complete(),
                    estimate: listing.tokens(),
                    cl100k,
                    o200k,
                    text: listing.into_text(),
                });
            }
        }
    }
    out
}

/// The cl100k tokens the default estimate encodes words with, in rank order: every token of
/// two or more bytes that is letters (a capital, if any, only first), perhaps after one space,
/// `_` or `-`.
pub(crate) fn cl100k_words() -> Vec<String> {
    let bpe = tiktoken_rs::cl100k_base_singleton();
    let mut words = Vec::new();
    for rank in 0..120_000 {
        let Ok(bytes) = bpe.decode_bytes(&[rank]) else { continue };
        let Ok(token) = String::from_utf8(bytes) else { continue };
        let b = token.as_bytes();
        let letters = match b.first() {
            Some(b' ' | b'_' | b'-') => b.get(1..).unwrap_or_default(),
            _ => b,
        };
        let word = letters.first().is_some_and(u8::is_ascii_alphabetic)
            && letters.get(1..).unwrap_or_default().iter().all(u8::is_ascii_lowercase);
        if b.len() >= 2 && word {
            words.push(token);
        }
    }
    words
}
