//! Reading a relevance dataset: `dataset.json` and `queries.jsonl`, as
//! `docs/dataset-format.md` (v1) defines them.
//!
//! A dataset is a folder. `dataset.json` names the catalogs (paths relative to it) that are
//! merged into one catalog; `queries.jsonl` holds one labelled query per line.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Result;

/// A tool named the way the dataset names it: (server, tool).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct ToolKey {
    /// The server (catalog) name given in dataset.json.
    pub(crate) server: String,
    /// The tool's own name (OpenAPI: operationId, else `METHOD /path`).
    pub(crate) tool: String,
}

impl ToolKey {
    pub(crate) fn new(server: &str, tool: &str) -> ToolKey {
        ToolKey { server: server.to_owned(), tool: tool.to_owned() }
    }
}

impl fmt::Display for ToolKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.server, self.tool)
    }
}

/// The kind of a catalog file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CatalogKind {
    /// An MCP `tools/list` result.
    Mcp,
    /// An OpenAPI 3.x or Swagger 2.0 document.
    #[serde(rename = "openapi")]
    OpenApi,
    /// A JSON array of function tools.
    Plugin,
}

impl CatalogKind {
    /// The word dataset.json uses for the kind.
    pub(crate) fn word(self) -> &'static str {
        match self {
            CatalogKind::Mcp => "mcp",
            CatalogKind::OpenApi => "openapi",
            CatalogKind::Plugin => "plugin",
        }
    }
}

/// One catalog of a dataset, with its path resolved against dataset.json's folder.
#[derive(Debug, Clone)]
pub(crate) struct CatalogRef {
    /// The catalog file.
    pub(crate) file: PathBuf,
    /// Its kind.
    pub(crate) kind: CatalogKind,
    /// The server name its tools get.
    pub(crate) server: String,
}

/// One labelled query.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    /// Unique id within the dataset.
    pub(crate) id: String,
    /// The query text.
    pub(crate) text: String,
    /// Relevant tools and their grades (grade > 0 only). Empty = a no-answer query.
    pub(crate) relevant: BTreeMap<ToolKey, u32>,
    /// Tags, in file order.
    pub(crate) tags: Vec<String>,
    /// The group of phrasings of one request the query belongs to (`None`: no group).
    pub(crate) group: Option<String>,
}

impl Query {
    /// Whether some tool in the catalog answers the query.
    pub(crate) fn is_answerable(&self) -> bool {
        !self.relevant.is_empty()
    }
}

/// A loaded dataset.
#[derive(Debug, Clone)]
pub(crate) struct Dataset {
    /// The name from dataset.json.
    pub(crate) name: String,
    /// The folder it was read from.
    pub(crate) dir: PathBuf,
    /// Its catalogs, in file order.
    pub(crate) catalogs: Vec<CatalogRef>,
    /// Its queries, in file order.
    pub(crate) queries: Vec<Query>,
    /// What the dataset holds, fingerprinted: FNV-1a 64 over the name, then per catalog its
    /// kind, server and file bytes, then the bytes of queries.jsonl. Where the files live (the
    /// `file` paths) is not part of it, so moving a dataset keeps its hash.
    pub(crate) content_hash: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDataset {
    name: String,
    catalogs: Vec<RawCatalog>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalog {
    file: String,
    kind: CatalogKind,
    server: String,
}

#[derive(Deserialize)]
struct RawQuery {
    id: String,
    query: String,
    relevant: Vec<RawLabel>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    group: Option<String>,
}

#[derive(Deserialize)]
struct RawLabel {
    server: String,
    tool: String,
    #[serde(default = "default_grade")]
    grade: u32,
}

/// "Absent grade = 2."
fn default_grade() -> u32 {
    2
}

/// Whether `dir` looks like a dataset folder.
pub(crate) fn is_dataset_dir(dir: &Path) -> bool {
    dir.join("dataset.json").is_file()
}

/// Every dataset folder directly under `root`, sorted by folder name.
pub(crate) fn discover(root: &Path) -> Result<Vec<PathBuf>> {
    let entries = fs::read_dir(root).map_err(|e| format!("cannot list {}: {e}", root.display()))?;
    let mut dirs = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot list {}: {e}", root.display()))?.path();
        if is_dataset_dir(&path) {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Reads the dataset folder `dir`.
pub(crate) fn load(dir: &Path) -> Result<Dataset> {
    let meta_path = dir.join("dataset.json");
    let meta_bytes = read(&meta_path)?;
    let raw: RawDataset =
        serde_json::from_slice(&meta_bytes).map_err(|e| format!("{}: {e}", meta_path.display()))?;
    let mut hash = Fnv64::new();
    hash.write_part(raw.name.as_bytes());

    let queries_path = dir.join("queries.jsonl");
    let query_bytes = read(&queries_path)?;
    let text = String::from_utf8(query_bytes.clone())
        .map_err(|e| format!("{}: not UTF-8: {e}", queries_path.display()))?;
    let queries = parse_queries(&text).map_err(|e| format!("{}: {e}", queries_path.display()))?;

    let mut servers = BTreeSet::new();
    let mut catalogs = Vec::with_capacity(raw.catalogs.len());
    for c in raw.catalogs {
        if !servers.insert(c.server.clone()) {
            return Err(
                format!("{}: server `{}` listed twice", meta_path.display(), c.server).into()
            );
        }
        let file = dir.join(&c.file);
        hash.write_part(c.kind.word().as_bytes());
        hash.write_part(c.server.as_bytes());
        hash.write_part(&read(&file)?);
        catalogs.push(CatalogRef { file, kind: c.kind, server: c.server });
    }
    hash.write_part(&query_bytes);
    Ok(Dataset {
        name: raw.name,
        dir: dir.to_path_buf(),
        catalogs,
        queries,
        content_hash: format!("fnv1a64:{:016x}", hash.finish()),
    })
}

/// Parses the lines of a queries.jsonl file; blank lines are skipped.
///
/// Errors name the 1-based line. Query ids must be unique. A label repeated within a query keeps
/// its highest grade; grade 0 labels are not relevant and are dropped. A `group` is a non-empty
/// name, and the queries of one group are phrasings of one request: all answerable or all
/// no-answer.
pub(crate) fn parse_queries(text: &str) -> Result<Vec<Query>> {
    let mut ids = BTreeSet::new();
    // Per group: whether its first query is answerable, and that query's id.
    let mut groups: BTreeMap<String, (bool, String)> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let raw: RawQuery =
            serde_json::from_str(line).map_err(|e| format!("line {line_no}: {e}"))?;
        if !ids.insert(raw.id.clone()) {
            return Err(format!("line {line_no}: query id `{}` used twice", raw.id).into());
        }
        let mut relevant = BTreeMap::new();
        for label in raw.relevant {
            if label.grade == 0 {
                continue;
            }
            let grade =
                relevant.entry(ToolKey { server: label.server, tool: label.tool }).or_insert(0);
            *grade = (*grade).max(label.grade);
        }
        if let Some(group) = &raw.group {
            if group.is_empty() {
                return Err(format!("line {line_no}: query `{}` has an empty group", raw.id).into());
            }
            let answerable = !relevant.is_empty();
            let (first_answerable, first_id) =
                groups.entry(group.clone()).or_insert_with(|| (answerable, raw.id.clone()));
            if *first_answerable != answerable {
                let kind = |a: bool| if a { "answerable" } else { "no-answer" };
                return Err(format!(
                    "line {line_no}: query `{}` is {} but `{first_id}` of its group `{group}` is \
                     {}; the phrasings of one request share their answer",
                    raw.id,
                    kind(answerable),
                    kind(*first_answerable)
                )
                .into());
            }
        }
        out.push(Query { id: raw.id, text: raw.query, relevant, tags: raw.tags, group: raw.group });
    }
    Ok(out)
}

fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()).into())
}

/// FNV-1a, 64 bits: a dependency-free content fingerprint (not a cryptographic hash).
#[derive(Debug)]
pub(crate) struct Fnv64(u64);

impl Fnv64 {
    pub(crate) fn new() -> Fnv64 {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Writes a length-prefixed part, so part boundaries are part of the hash.
    pub(crate) fn write_part(&mut self, bytes: &[u8]) {
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(bytes);
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests;
