//! Synthetic catalogs of any size, generated from the real vocabulary with a seeded
//! [`SplitMix64`], for measuring how build time, query time and memory grow with the catalog.
//! [`Vocabulary`] documents the corpus model.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};
use toolsift::catalog::{Catalog, Server, Tool, ToolId, ToolKind};

use crate::rng::SplitMix64;

/// Tools per synthetic server.
pub const TOOLS_PER_SERVER: usize = 100;
/// The seed of every synthetic catalog the benches build.
pub const SEED: u64 = 0x7005_1F70_0000_0008;
/// The synthetic catalog sizes the scale benches measure.
pub const SCALE_SIZES: [usize; 3] = [10_000, 50_000, 100_000];

/// The words and shapes of a real catalog, with repetitions: what synthetic catalogs are
/// drawn from.
///
/// Corpus model. [`Vocabulary::of`] takes, from every tool of a real catalog, the words of its
/// name (split at non-alphanumeric characters and camelCase humps, lower-cased), the
/// whitespace-separated words of its description, its shape (description length in words,
/// number of top-level parameters) and its top-level parameters (name and schema). Every list
/// keeps repetitions, so drawing uniformly from it reproduces the real word frequencies.
/// [`synthetic_catalog`] makes each tool by copying the shape of a randomly drawn real tool,
/// then drawing 2 to 4 name words (joined by `_`, redrawn if the server already has that
/// name), that many description words, and that many parameters. Servers hold
/// [`TOOLS_PER_SERVER`] tools each and are named `synth-00000`, `synth-00001`, and so on.
///
/// What it does not model: the vocabulary does not grow with the catalog (a real catalog of
/// 100,000 tools would bring new words), and words within a description come in random order,
/// which matters only for phrase-like effects the ranker does not use.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    name_words: Vec<String>,
    description_words: Vec<String>,
    /// (description words, parameters) per real tool.
    shapes: Vec<(usize, usize)>,
    params: Vec<(String, Value)>,
}

impl Vocabulary {
    /// The vocabulary of every tool in `catalog`.
    #[must_use]
    pub fn of(catalog: &Catalog) -> Vocabulary {
        let mut v = Vocabulary::default();
        for (_, tool) in catalog.tools() {
            v.name_words.extend(name_words(tool.name()));
            let before = v.description_words.len();
            v.description_words.extend(tool.description.split_whitespace().map(str::to_owned));
            let words = v.description_words.len() - before;
            let props = tool.input_schema.get("properties").and_then(Value::as_object);
            let params = props.map_or(0, Map::len);
            if let Some(props) = props {
                v.params.extend(props.iter().map(|(k, s)| (k.clone(), s.clone())));
            }
            v.shapes.push((words, params));
        }
        v
    }

    /// The number of distinct name and description words.
    #[must_use]
    pub fn distinct_words(&self) -> usize {
        let all: BTreeSet<&str> =
            self.name_words.iter().chain(&self.description_words).map(String::as_str).collect();
        all.len()
    }

    /// Whether there is nothing to draw from.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.name_words.is_empty() || self.shapes.is_empty()
    }

    /// One synthetic tool of `server`, whose name is not in `taken`.
    fn tool(&self, rng: &mut SplitMix64, server: &str, taken: &mut BTreeSet<String>) -> Tool {
        let mut name = String::new();
        for attempt in 0..16 {
            name = (0..rng.between(2, 4))
                .filter_map(|_| rng.pick(&self.name_words).map(String::as_str))
                .collect::<Vec<_>>()
                .join("_");
            if attempt == 15 {
                name = format!("{name}_{}", taken.len());
            }
            if !name.is_empty() && !taken.contains(&name) {
                break;
            }
        }
        taken.insert(name.clone());
        let (words, params) = rng.pick(&self.shapes).copied().unwrap_or((0, 0));
        let description = (0..words)
            .filter_map(|_| rng.pick(&self.description_words).map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let mut properties = Map::new();
        for _ in 0..params {
            if let Some((param, schema)) = rng.pick(&self.params) {
                properties.entry(param.clone()).or_insert_with(|| schema.clone());
            }
        }
        let schema = json!({"type": "object", "properties": properties});
        Tool::new(ToolId::new(server, name), ToolKind::Mcp)
            .with_description(description)
            .with_input_schema(schema)
    }
}

/// The words of a tool name: split at non-alphanumeric characters and at lower-to-upper
/// humps, lower-cased.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_numeric();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// A catalog of `tools` synthetic tools drawn from `vocabulary` with `seed`: the same
/// arguments give the same catalog on every run.
#[must_use]
pub fn synthetic_catalog(vocabulary: &Vocabulary, tools: usize, seed: u64) -> Catalog {
    let mut rng = SplitMix64::new(seed);
    let mut catalog = Catalog::new();
    if vocabulary.is_empty() {
        return catalog;
    }
    let mut made = 0;
    let mut server_no = 0;
    while made < tools {
        let name = format!("synth-{server_no:05}");
        let count = TOOLS_PER_SERVER.min(tools - made);
        let mut taken = BTreeSet::new();
        let server_tools: Vec<Tool> =
            (0..count).map(|_| vocabulary.tool(&mut rng, &name, &mut taken)).collect();
        catalog.add_server(Server::new(name, ToolKind::Mcp, server_tools));
        made += count;
        server_no += 1;
    }
    catalog
}
