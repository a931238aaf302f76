//! The engines compared, behind one trait: each is built from the loaded catalog and answers a
//! query with the catalog positions of its best [`CUTOFF`] tools.
//!
//! - [`Toolsift`]: `ToolSearch::new`, the defaults a user gets.
//! - [`PlainBm25f`]: textbook BM25F over the three fields of [`ToolText`], with tantivy's
//!   `en_stem` analysis, so it differs from [`Tantivy`] only in how fields are combined.
//! - [`Tantivy`]: an in-RAM tantivy index of the same three fields, `en_stem` tokenizer, BM25
//!   per field, field boosts as the BM25F weights, the query an OR of its terms.
//! - [`Bm25Crate`]: the `bm25` crate's embedder and scorer over the three fields joined, its
//!   default English tokenizer.
//!
//! Only the engine's own search call is timed ([`Engine::search`] returns the elapsed time);
//! turning its result into catalog positions is not.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{TextAnalyzer, TokenizerManager};
use tantivy::{IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};
use toolsift::catalog::{Catalog, Tool};
use toolsift::{ToolId, ToolSearch};

use crate::text::ToolText;
use crate::{CUTOFF, Result};

/// The BM25 saturation and length-normalisation constants every baseline uses (Lucene's,
/// tantivy's and the `bm25` crate's defaults).
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// The field weights of the BM25F baselines: toolsift-rank's defaults for its name, summary and
/// details fields (`Index::builder()`), not tuned on this data.
pub const FIELD_WEIGHTS: [(&str, f32); 3] =
    [("name", 3.0), ("description", 1.5), ("parameters", 1.0)];

/// A search engine under comparison.
pub trait Engine {
    /// The name in the tables.
    fn name(&self) -> &'static str;
    /// The catalog positions of the best [`CUTOFF`] tools for `query`, best first, and the time
    /// the engine's search call took.
    fn search(&self, query: &str) -> (Vec<usize>, Duration);
}

/// Runs `f` and returns its result with the time it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (std::hint::black_box(out), start.elapsed())
}

/// The tools of `catalog`, in catalog order (the positions every engine answers with).
pub fn tools(catalog: &Catalog) -> Vec<&Tool> {
    catalog.tools().map(|(_, t)| t).collect()
}

/// toolsift, as `ToolSearch::new` builds it.
pub struct Toolsift {
    search: ToolSearch,
    positions: HashMap<ToolId, usize>,
    name: &'static str,
}

impl Toolsift {
    /// The name of the engine without its search cache.
    pub const NO_CACHE: &'static str = "toolsift, search cache off";

    /// `ToolSearch::new(catalog)`; with `cache` false, the index's search cache gets no budget
    /// (every query word is worked out afresh).
    pub fn build(catalog: &Catalog, cache: bool) -> Result<Toolsift> {
        let positions = tools(catalog).iter().enumerate().map(|(i, t)| (t.id.clone(), i)).collect();
        let search = if cache {
            ToolSearch::new(catalog.clone())?
        } else {
            ToolSearch::builder()
                .index(toolsift::Index::tuned().search_cache_budget(0))
                .build(catalog.clone())?
        };
        let name = if cache { "toolsift" } else { Toolsift::NO_CACHE };
        Ok(Toolsift { search, positions, name })
    }
}

impl Engine for Toolsift {
    fn name(&self) -> &'static str {
        self.name
    }

    fn search(&self, query: &str) -> (Vec<usize>, Duration) {
        let (results, took) = timed(|| self.search.search(query, CUTOFF));
        let ranks = results.hits().iter().filter_map(|h| self.positions.get(h.tool())).copied();
        (ranks.collect(), took)
    }
}

/// tantivy's `en_stem` analyzer: its simple tokenizer (runs of letters and digits), tokens over
/// 40 bytes dropped, lower case, Snowball English stemming.
fn en_stem() -> Result<TextAnalyzer> {
    TokenizerManager::default().get("en_stem").ok_or_else(|| "tantivy has no en_stem".into())
}

/// The tokens `analyzer` makes of `text`, in order.
fn tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(text);
    stream.process(&mut |t| out.push(t.text.clone()));
    out
}

/// The distinct tokens of a query, in first-seen order.
fn query_terms(analyzer: &mut TextAnalyzer, query: &str) -> Vec<String> {
    let mut terms = tokens(analyzer, query);
    let mut seen = std::collections::HashSet::new();
    terms.retain(|t| seen.insert(t.clone()));
    terms
}

/// Textbook BM25F (Robertson and Zaragoza, 2009): per term and document, the field frequencies
/// are length-normalised per field, weighted and summed into one pseudo-frequency, which is
/// saturated once and multiplied by the term's idf; a document's score is the sum over the
/// query's distinct terms. Nothing else: no related words, no exact names, no abstention.
///
/// A posting's score depends on the term and the document only, so it is computed at build time;
/// a search adds up the postings of its terms and sorts (score descending, then catalog order).
pub struct PlainBm25f {
    analyzer: RefCell<TextAnalyzer>,
    terms: HashMap<String, u32>,
    /// Per term: (document, score) for every document that has it.
    postings: Vec<Vec<(u32, f32)>>,
    /// Scratch accumulator, one slot per document, and the documents touched.
    scratch: RefCell<(Vec<f32>, Vec<u32>)>,
}

impl PlainBm25f {
    pub fn build(catalog: &Catalog) -> Result<PlainBm25f> {
        let mut analyzer = en_stem()?;
        let tools = tools(catalog);
        let n = tools.len();
        // Per term: document → frequency in each field.
        let mut terms: HashMap<String, u32> = HashMap::new();
        let mut freqs: Vec<Vec<(u32, [f32; 3])>> = Vec::new();
        let mut lens = vec![[0f32; 3]; n];
        for (doc, tool) in tools.iter().enumerate() {
            let text = ToolText::of(tool);
            for (f, field) in [&text.name, &text.description, &text.parameters].iter().enumerate() {
                let toks = tokens(&mut analyzer, field);
                lens[doc][f] = toks.len() as f32;
                for tok in toks {
                    let next = terms.len() as u32;
                    let id = *terms.entry(tok).or_insert(next) as usize;
                    if id == freqs.len() {
                        freqs.push(Vec::new());
                    }
                    let list = &mut freqs[id];
                    if list.last().is_none_or(|&(d, _)| d != doc as u32) {
                        list.push((doc as u32, [0.0; 3]));
                    }
                    if let Some(last) = list.last_mut() {
                        last.1[f] += 1.0;
                    }
                }
            }
        }
        let mut avg = [0f32; 3];
        for l in &lens {
            for f in 0..3 {
                avg[f] += l[f] / n.max(1) as f32;
            }
        }
        let postings = freqs
            .into_iter()
            .map(|list| {
                let df = list.len() as f32;
                let idf = (1.0 + (n as f32 - df + 0.5) / (df + 0.5)).ln();
                list.into_iter()
                    .map(|(doc, tf)| {
                        let mut pseudo = 0.0;
                        for (f, &(_, weight)) in FIELD_WEIGHTS.iter().enumerate() {
                            let norm = 1.0 - B + B * lens[doc as usize][f] / avg[f].max(1e-9);
                            pseudo += weight * tf[f] / norm;
                        }
                        (doc, idf * pseudo * (K1 + 1.0) / (K1 + pseudo))
                    })
                    .collect()
            })
            .collect();
        Ok(PlainBm25f {
            analyzer: RefCell::new(analyzer),
            terms,
            postings,
            scratch: RefCell::new((vec![0.0; n], Vec::new())),
        })
    }

    fn top(&self, query: &str) -> Vec<(u32, f32)> {
        let terms = query_terms(&mut self.analyzer.borrow_mut(), query);
        let mut scratch = self.scratch.borrow_mut();
        let (acc, touched) = &mut *scratch;
        for term in &terms {
            let Some(&id) = self.terms.get(term) else { continue };
            for &(doc, score) in &self.postings[id as usize] {
                if acc[doc as usize] == 0.0 {
                    touched.push(doc);
                }
                acc[doc as usize] += score;
            }
        }
        let mut hits: Vec<(u32, f32)> = touched.iter().map(|&d| (d, acc[d as usize])).collect();
        for &d in touched.iter() {
            acc[d as usize] = 0.0;
        }
        touched.clear();
        let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if hits.len() > CUTOFF {
            hits.select_nth_unstable_by(CUTOFF - 1, order);
            hits.truncate(CUTOFF);
        }
        hits.sort_unstable_by(order);
        hits
    }
}

impl Engine for PlainBm25f {
    fn name(&self) -> &'static str {
        "plain BM25F"
    }

    fn search(&self, query: &str) -> (Vec<usize>, Duration) {
        let (hits, took) = timed(|| self.top(query));
        (hits.into_iter().map(|(d, _)| d as usize).collect(), took)
    }
}

/// An in-RAM tantivy index of the three fields.
pub struct Tantivy {
    analyzer: RefCell<TextAnalyzer>,
    fields: [(Field, f32); 3],
    searcher: Searcher,
    // The reader the searcher came from, kept alive with it.
    _reader: IndexReader,
}

impl Tantivy {
    pub fn build(catalog: &Catalog) -> Result<Tantivy> {
        let mut schema = Schema::builder();
        // Frequencies and field norms, no positions (no phrase queries), nothing stored.
        let indexing = TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqs);
        let options = TextOptions::default().set_indexing_options(indexing);
        let fields =
            FIELD_WEIGHTS.map(|(name, w)| (schema.add_text_field(name, options.clone()), w));
        let index = tantivy::Index::create_in_ram(schema.build());
        // One indexing thread and one commit: one segment, documents in catalog order.
        let mut writer: IndexWriter<TantivyDocument> =
            index.writer_with_num_threads(1, 50_000_000)?;
        let tools = tools(catalog);
        for tool in &tools {
            let text = ToolText::of(tool);
            let mut doc = TantivyDocument::default();
            doc.add_text(fields[0].0, &text.name);
            doc.add_text(fields[1].0, &text.description);
            doc.add_text(fields[2].0, &text.parameters);
            writer.add_document(doc)?;
        }
        writer.commit()?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let searcher = reader.searcher();
        if searcher.segment_readers().len() > 1 || searcher.num_docs() as usize != tools.len() {
            return Err("tantivy did not build one segment of every tool".into());
        }
        Ok(Tantivy { analyzer: RefCell::new(en_stem()?), fields, searcher, _reader: reader })
    }

    fn top(&self, query: &str) -> Result<Vec<(f32, tantivy::DocAddress)>> {
        let terms = query_terms(&mut self.analyzer.borrow_mut(), query);
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for term in &terms {
            for &(field, boost) in &self.fields {
                let q = TermQuery::new(
                    Term::from_field_text(field, term),
                    IndexRecordOption::WithFreqs,
                );
                clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(q), boost))));
            }
        }
        let query = BooleanQuery::new(clauses);
        Ok(self.searcher.search(&query, &TopDocs::with_limit(CUTOFF).order_by_score())?)
    }
}

impl Engine for Tantivy {
    fn name(&self) -> &'static str {
        "tantivy"
    }

    fn search(&self, query: &str) -> (Vec<usize>, Duration) {
        let (hits, took) = timed(|| self.top(query));
        // A query tantivy cannot run ranks nothing (none did on the tuning set).
        let hits = hits.unwrap_or_default();
        (hits.into_iter().map(|(_, a)| a.doc_id as usize).collect(), took)
    }
}

/// The `bm25` crate: its embedder (default English tokenizer, k1 1.2, b 0.75, average length
/// fitted to the corpus) and scorer, over the three fields joined into one text.
///
/// Its `SearchEngine` wraps the same two, but orders equal scores by hash-set order, which
/// changes from run to run; this sorts equal scores by catalog order instead, so the table is
/// reproducible.
pub struct Bm25Crate {
    embedder: bm25::Embedder,
    scorer: bm25::Scorer<u32>,
}

impl Bm25Crate {
    pub fn build(catalog: &Catalog) -> Bm25Crate {
        let texts: Vec<String> = tools(catalog).iter().map(|t| ToolText::of(t).joined()).collect();
        let corpus: Vec<&str> = texts.iter().map(String::as_str).collect();
        let embedder: bm25::Embedder =
            bm25::EmbedderBuilder::with_fit_to_corpus(bm25::Language::English, &corpus)
                .k1(K1)
                .b(B)
                .build();
        let mut scorer = bm25::Scorer::new();
        for (i, text) in corpus.iter().enumerate() {
            scorer.upsert(&(i as u32), embedder.embed(text));
        }
        Bm25Crate { embedder, scorer }
    }

    fn top(&self, query: &str) -> Vec<bm25::ScoredDocument<u32>> {
        let mut hits = self.scorer.matches(&self.embedder.embed(query));
        hits.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        hits.truncate(CUTOFF);
        hits
    }
}

impl Engine for Bm25Crate {
    fn name(&self) -> &'static str {
        "bm25 crate"
    }

    fn search(&self, query: &str) -> (Vec<usize>, Duration) {
        let (hits, took) = timed(|| self.top(query));
        (hits.into_iter().map(|h| h.id as usize).collect(), took)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three tools of two servers.
    fn catalog() -> Catalog {
        let github = serde_json::json!({"tools": [
            {"name": "create_issue", "description": "Create a new issue in a repository.",
             "inputSchema": {"type": "object", "properties": {
                 "title": {"type": "string", "description": "Issue title"}}}},
            {"name": "list_commits", "description": "List the commits of a branch.",
             "inputSchema": {"type": "object", "properties": {
                 "branch": {"type": "string", "description": "Branch name"}}}}
        ]});
        let slack = serde_json::json!({"tools": [
            {"name": "post_message", "description": "Post a message to a channel.",
             "inputSchema": {"type": "object", "properties": {
                 "channel_id": {"type": "string"}, "text": {"type": "string"}}}}
        ]});
        let mut catalog = Catalog::new();
        for (server, doc) in [("github", github), ("slack", slack)] {
            let loaded = toolsift::catalog::load_mcp(doc.to_string(), server);
            catalog.add_server(loaded.expect("a valid catalog").server);
        }
        catalog
    }

    #[test]
    fn every_engine_ranks_the_tool_a_query_names_first() -> Result<()> {
        let catalog = catalog();
        let engines: Vec<Box<dyn Engine>> = vec![
            Box::new(Toolsift::build(&catalog, true)?),
            Box::new(PlainBm25f::build(&catalog)?),
            Box::new(Tantivy::build(&catalog)?),
            Box::new(Bm25Crate::build(&catalog)),
        ];
        for engine in &engines {
            for (query, want) in [("open a new issue", 0), ("commits", 1), ("post to a channel", 2)]
            {
                let (ranks, _) = engine.search(query);
                assert_eq!(ranks.first(), Some(&want), "{} on {query:?}", engine.name());
            }
        }
        Ok(())
    }

    #[test]
    fn plain_bm25f_scores_as_the_formula_says() -> Result<()> {
        let engine = PlainBm25f::build(&catalog())?;
        // Field lengths in tokens (name, description, parameters): create_issue 3, 7, 3;
        // list_commits 3, 6, 3; post_message 3, 6, 3 (`slack post message`, `post a message to
        // a channel`, `channel id text`). `channel` is in post_message alone, once in its
        // description and once in its parameters.
        let hits = engine.top("channel");
        let idf = (1.0f32 + (3.0 - 1.0 + 0.5) / (1.0 + 0.5)).ln();
        let description = 1.5 / (1.0 - B + B * 6.0 / (19.0 / 3.0));
        let parameters = 1.0 / (1.0 - B + B * 3.0 / 3.0);
        let pseudo = description + parameters;
        let want = idf * pseudo * (K1 + 1.0) / (K1 + pseudo);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].0, 2);
        assert!((hits[0].1 - want).abs() <= 1e-5 * want, "{} against {want}", hits[0].1);
        Ok(())
    }
}
