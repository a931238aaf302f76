//! Catalog input: the `--mcp`, `--openapi`, `--plugin` and `--dataset` files in command-line
//! order, or the embedded demo catalog, loaded into one [`Catalog`].
//!
//! # The embedded demo catalog
//!
//! Seven real MCP `tools/list` captures, in this crate's `demo/mcp/` (copies of the repository's
//! tuning-set files `xtask/tuning/catalogs/mcp/`, kept byte-identical by a test): github (117
//! tools, github/github-mcp-server, MIT), slack (8, @modelcontextprotocol/server-slack, MIT),
//! filesystem (14, @modelcontextprotocol/server-filesystem, Apache-2.0 AND MIT), playwright
//! (45, @playwright/mcp, Apache-2.0), linear (198, @tacticlaunch/mcp-linear, MIT), postgres (1,
//! @modelcontextprotocol/server-postgres, MIT) and notion (24, @notionhq/notion-mcp-server,
//! MIT): 407 tools. `demo/SOURCES.md` records each package version, how the capture was made
//! and the licence notices.
//!
//! # Datasets
//!
//! `--dataset DIR` reads `DIR/dataset.json` (or the file itself when given one) in the eval
//! format: `{"name", "catalogs": [{"file", "kind": "mcp"|"openapi"|"plugin", "server"}]}`,
//! with `file` relative to the dataset.json. Queries are not read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ArgMatches;
use serde_json::Value;
use toolsift::catalog::Loader;
use toolsift::{Catalog, Diagnostic, NameScheme, ToolKind};

use crate::cli::{InputArgs, Names};
use crate::cmd::Failure;

/// The contents of a demo catalog (`demo/mcp/NAME.json`), compiled in.
macro_rules! demo {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/demo/mcp/", $name, ".json"))
    };
}

/// The demo catalogs: (server, file name, contents).
const DEMO: [(&str, &str, &str); 7] = [
    ("github", "github.json", demo!("github")),
    ("slack", "slack.json", demo!("slack")),
    ("filesystem", "filesystem.json", demo!("filesystem")),
    ("playwright", "playwright.json", demo!("playwright")),
    ("linear", "linear.json", demo!("linear")),
    ("postgres", "postgres.json", demo!("postgres")),
    ("notion", "notion.json", demo!("notion")),
];

/// A catalog the user named, before it is read.
#[derive(Debug, Clone)]
struct Source {
    /// The file.
    path: PathBuf,
    kind: ToolKind,
    server: String,
}

/// A loaded catalog and what happened while loading it.
#[derive(Debug)]
pub(crate) struct Input {
    /// Every server that could be read, in command-line order.
    pub(crate) catalog: Catalog,
    /// Where each server came from: server name to file (as given, or `embedded:…`).
    pub(crate) files: BTreeMap<String, String>,
    /// Every loader and catalog diagnostic, in load order.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Files skipped under `--keep-going`: (file, error).
    pub(crate) skipped: Vec<(String, String)>,
}

impl Input {
    /// The file a server came from, for messages.
    pub(crate) fn file_of(&self, server: &str) -> &str {
        self.files.get(server).map_or("", String::as_str)
    }

    /// Prints one short line on stderr when loading found problems, with their count by kind
    /// (`check` lists them). Notes of normal API patterns
    /// ([`DiagnosticKind::is_note`](toolsift::DiagnosticKind::is_note)) are not counted.
    pub(crate) fn note_diagnostics(&self) {
        let mut by_kind: std::collections::BTreeMap<&str, usize> = Default::default();
        for d in self.diagnostics.iter().filter(|d| !d.kind().is_note()) {
            *by_kind.entry(d.kind().code()).or_default() += 1;
        }
        let total: usize = by_kind.values().sum();
        if total > 0 {
            let kinds: Vec<String> = by_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
            crate::term::note(&format!(
                "toolsift: note: {} while loading ({}); `toolsift check` lists them",
                crate::term::count(total, "catalog problem"),
                kinds.join(", ")
            ));
        }
    }
}

/// Loads the catalogs `args` names (in command-line order, read from `matches`), or the demo
/// catalog when it names none.
///
/// Every file is read (in parallel); unreadable ones are errors, or warnings with
/// `--keep-going`.
pub(crate) fn load(args: &InputArgs, matches: Option<&ArgMatches>) -> Result<Input, Failure> {
    let mut errors: Vec<String> = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    let mut fail = |file: String, message: String| {
        if args.keep_going {
            crate::term::note(&format!("toolsift: warning: {message} (skipped)"));
            skipped.push((file, message));
        } else {
            errors.push(message);
        }
    };

    let sources = sources(args, matches, &mut fail);
    let mut catalog = Catalog::builder().scheme(scheme(args.names)).build();
    let mut files = BTreeMap::new();
    let mut diagnostics = Vec::new();
    match sources {
        None => {
            let loader = Loader::default();
            for (server, file, text) in DEMO {
                match loader.load(text, ToolKind::Mcp, server) {
                    Ok(loaded) => {
                        diagnostics.extend(loaded.diagnostics);
                        diagnostics.extend(catalog.add_server(loaded.server));
                        files.insert(server.to_owned(), format!("embedded:{file}"));
                    }
                    Err(e) => fail(format!("embedded:{file}"), format!("embedded:{file}: {e}")),
                }
            }
        }
        Some(sources) => {
            let list: Vec<(&Path, ToolKind, &str)> =
                sources.iter().map(|s| (s.path.as_path(), s.kind, s.server.as_str())).collect();
            let results = Loader::default().load_files(&list);
            for (source, result) in sources.iter().zip(results) {
                let file = source.path.display().to_string();
                match result {
                    Ok(loaded) => {
                        if let Some(first) = files.get(&source.server) {
                            let message = format!(
                                "{file}: server name `{}` is already used by {first}; \
                                 name it with {file}=SERVER",
                                source.server
                            );
                            fail(file, message);
                            continue;
                        }
                        diagnostics.extend(loaded.diagnostics);
                        diagnostics.extend(catalog.add_server(loaded.server));
                        files.insert(source.server.clone(), file);
                    }
                    Err(e) => fail(file, e.to_string()),
                }
            }
        }
    }
    if !errors.is_empty() {
        let n = errors.len();
        errors.push(format!(
            "{} could not be read; --keep-going skips {}",
            crate::term::count(n, "catalog file"),
            if n == 1 { "it" } else { "them" }
        ));
        return Err(Failure::new(errors));
    }
    Ok(Input { catalog, files, diagnostics, skipped })
}

fn scheme(names: Names) -> NameScheme {
    match names {
        Names::Kind => NameScheme::Kind,
        Names::Claude => NameScheme::ClaudeCode,
        Names::Bare => NameScheme::Bare,
    }
}

/// The sources in command-line order; `None` when none was given (the demo catalog).
fn sources(
    args: &InputArgs,
    matches: Option<&ArgMatches>,
    fail: &mut impl FnMut(String, String),
) -> Option<Vec<Source>> {
    // (position on the command line, what) for every catalog argument.
    let mut given: Vec<(usize, Given<'_>)> = Vec::new();
    for (id, kind, values) in [
        ("mcp", ToolKind::Mcp, &args.mcp),
        ("openapi", ToolKind::OpenApi, &args.openapi),
        ("plugin", ToolKind::Plugin, &args.plugin),
    ] {
        let at = positions(matches, id, values.len());
        given.extend(values.iter().zip(at).map(|(v, i)| (i, Given::File(v, kind))));
    }
    let at = positions(matches, "dataset", args.dataset.len());
    given.extend(args.dataset.iter().zip(at).map(|(d, i)| (i, Given::Dataset(d))));
    if given.is_empty() {
        return None;
    }
    given.sort_by_key(|(i, _)| *i);

    let mut sources = Vec::new();
    for (_, what) in given {
        match what {
            Given::File(spec, kind) => {
                let (path, server) = split_spec(spec);
                if server.is_empty() {
                    fail(spec.clone(), format!("{spec}: no server name (write FILE=SERVER)"));
                    continue;
                }
                sources.push(Source { path, kind, server });
            }
            Given::Dataset(dir) => match dataset(dir) {
                Ok(found) => sources.extend(found),
                Err((file, message)) => fail(file, message),
            },
        }
    }
    Some(sources)
}

/// One catalog argument.
enum Given<'a> {
    File(&'a String, ToolKind),
    Dataset(&'a PathBuf),
}

/// The command-line positions of the `n` values of argument `id` (their own order when the
/// matches are not at hand).
fn positions(matches: Option<&ArgMatches>, id: &str, n: usize) -> Vec<usize> {
    let found: Vec<usize> = matches
        .and_then(|m| m.indices_of(id))
        .map(|i| i.collect())
        .filter(|v: &Vec<usize>| v.len() == n)
        .unwrap_or_default();
    if found.is_empty() { (0..n).map(|i| usize::MAX / 2 + i).collect() } else { found }
}

/// `FILE=SERVER` or `FILE` (server: the file stem). The split is at the last `=` when what
/// follows it is a plain server name (no path separator).
fn split_spec(spec: &str) -> (PathBuf, String) {
    if let Some((file, server)) = spec.rsplit_once('=')
        && !file.is_empty()
        && !server.contains(['/', '\\'])
    {
        return (PathBuf::from(file), server.to_owned());
    }
    let path = PathBuf::from(spec);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    (path, stem)
}

/// The catalogs of a dataset: `dir/dataset.json`, or `dir` itself when it is a file.
/// Errors are `(file, message)` with the message naming the file and position.
fn dataset(dir: &Path) -> Result<Vec<Source>, (String, String)> {
    let meta = if dir.is_dir() { dir.join("dataset.json") } else { dir.to_path_buf() };
    let shown = meta.display().to_string();
    let err = |message: String| (shown.clone(), format!("{shown}: {message}"));
    let bytes = std::fs::read(&meta).map_err(|e| err(format!("cannot read dataset: {e}")))?;
    let doc: Value = serde_json::from_slice(&bytes).map_err(|e| {
        (shown.clone(), format!("{shown}:{}:{}: invalid json: {e}", e.line(), e.column()))
    })?;
    let base = meta.parent().unwrap_or(Path::new("."));
    let Some(catalogs) = doc.get("catalogs").and_then(Value::as_array) else {
        return Err(err("not a dataset: no \"catalogs\" array".to_owned()));
    };
    let mut out = Vec::with_capacity(catalogs.len());
    for (i, entry) in catalogs.iter().enumerate() {
        let field = |key: &str| {
            entry.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).ok_or_else(|| {
                err(format!("/catalogs/{i}: \"{key}\" is missing or not a non-empty string"))
            })
        };
        let (file, kind, server) = (field("file")?, field("kind")?, field("server")?);
        let Some(kind) = ToolKind::from_word(kind) else {
            return Err(err(format!(
                "/catalogs/{i}/kind: unknown kind {kind:?} (expected mcp, openapi or plugin)"
            )));
        };
        out.push(Source { path: tidy(&base.join(file)), kind, server: server.to_owned() });
    }
    Ok(out)
}

/// `path` with `dir/..` pairs and `.` removed, lexically (no file system access), so that
/// messages name `xtask/tuning/catalogs/mcp/github.json`, not
/// `xtask/tuning/all/../catalogs/mcp/github.json`.
fn tidy(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.is_empty() { PathBuf::from(".") } else { out.iter().collect() }
}
