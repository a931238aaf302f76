//! [`Index::explain`]: the breakdown of one document's score for one query.

use crate::config::Relation;
use crate::document::DocId;
use crate::index::Index;
use crate::score::{field_norm, term_score};
use crate::search::with_scratch;
use std::fmt;

/// Why a document scored what it did for a query, from [`Index::explain`].
///
/// `Display` renders a readable tree; the numbers are the ones search used, so
/// [`score`](Explanation::score) equals the document's [`Hit::score`](crate::Hit::score).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The document.
    pub doc: DocId,
    /// Its BM25F score: the sum of the terms' scores.
    pub score: f32,
    /// Whether the query equals one of its exact keys.
    pub exact_key: bool,
    /// The number of documents `N`.
    pub docs: usize,
    /// The saturation constant `k1`.
    pub k1: f32,
    /// One entry per scored query term, in query order.
    pub terms: Vec<TermExplanation>,
}

/// One query term's part of an [`Explanation`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct TermExplanation {
    /// The analyzed query word.
    pub word: String,
    /// Whether any document contains it (through any relation).
    pub answerable: bool,
    /// Its query weight (from its origin).
    pub weight: f32,
    /// The document frequency behind its idf.
    pub df: u32,
    /// `ln(1 + (N − df + 0.5) / (df + 0.5))`.
    pub idf: f32,
    /// The accumulated pseudo-frequency `x = Σ relation weight × form pseudo-frequency`.
    pub pseudo_frequency: f32,
    /// `x (k1 + 1) / (x + k1)`.
    pub saturation: f32,
    /// `weight × idf × saturation`: its share of the score.
    pub score: f32,
    /// The catalog forms of the term that the document contains.
    pub forms: Vec<FormExplanation>,
}

/// One related catalog term present in the document.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct FormExplanation {
    /// The catalog word.
    pub word: String,
    /// How it relates to the query term.
    pub relation: Relation,
    /// The relation's weight (for an [expansion](Relation::Expansion), the configured
    /// expansion weight times the weight the expander gave the word).
    pub relation_weight: f32,
    /// Its pseudo-frequency in the document, `Σ_f tf_f · w_f / norm_f`.
    pub pseudo_frequency: f32,
    /// The fields it occurs in, in field order.
    pub fields: Vec<FieldExplanation>,
}

/// One field's share of a form's pseudo-frequency.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct FieldExplanation {
    /// The field name.
    pub field: String,
    /// The (origin-weighted) term frequency in this field.
    pub tf: f32,
    /// The field weight `w_f`.
    pub weight: f32,
    /// The field's length normalization `b_f`.
    pub b: f32,
    /// The field's (origin-weighted) length in this document.
    pub length: f32,
    /// The field's average length.
    pub avg_length: f32,
    /// `1 − b + b · length / avg_length` (1 when the average is 0).
    pub norm: f32,
    /// `tf · w / norm`.
    pub value: f32,
}

impl Index {
    /// Explains the score of `doc` for `query`; `None` if `doc` is not in the index.
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([Document::new().field("name", "create issue")])?;
    /// let ex = index.explain(ids[0], "issue").ok_or("not indexed")?;
    /// assert_eq!(ex.score, index.search("issue", 1).hits()[0].score());
    /// assert!(ex.to_string().contains("name: tf 1"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain(&self, doc: DocId, query: &str) -> Option<Explanation> {
        let ord = self.ord(doc)?;
        let d = ord as u32;
        let cfg = &self.config;
        let nf = cfg.fields.len();
        with_scratch(|s| {
            self.prepare(s, &self.analyzer.analyze_text(query));
            let exact = self.exact_ords(query, &mut s.key).contains(&d);
            let q = &s.query;
            let (score, _) = self.score_doc(q, d);
            let lens = &self.lens[ord * nf..(ord + 1) * nf];
            let mut tf = vec![0f32; nf];
            let mut out = Vec::with_capacity(q.terms.len());
            for t in &q.terms {
                let mut form_out = Vec::new();
                for form in q.forms(t) {
                    for slot in form.start..form.end {
                        let Some(i) = self.post.find(slot, d) else { continue };
                        let pf = self.post.pf(i);
                        self.post.tf_row(i, &mut tf);
                        let fields = cfg
                            .fields
                            .iter()
                            .enumerate()
                            .filter(|&(f, _)| tf[f] != 0.0)
                            .map(|(f, spec)| {
                                let norm = field_norm(spec.b(), lens[f], self.avg[f]);
                                FieldExplanation {
                                    field: spec.name().to_owned(),
                                    tf: tf[f],
                                    weight: spec.weight(),
                                    b: spec.b(),
                                    length: lens[f],
                                    avg_length: self.avg[f],
                                    norm,
                                    value: tf[f] * (spec.weight() / norm),
                                }
                            })
                            .collect();
                        let term = self.vocab.slot_term[slot as usize];
                        form_out.push(FormExplanation {
                            word: self.vocab.words.get(term).to_owned(),
                            relation: form.relation,
                            relation_weight: form.weight,
                            pseudo_frequency: pf,
                            fields,
                        });
                    }
                }
                let x = self.probe_x(q.forms(t), d);
                let saturation = if x > 0.0 { x * (cfg.k1 + 1.0) / (x + cfg.k1) } else { 0.0 };
                out.push(TermExplanation {
                    word: q.word(t).to_owned(),
                    answerable: t.answerable,
                    weight: t.weight,
                    df: t.df,
                    idf: t.idf,
                    pseudo_frequency: x,
                    saturation,
                    score: term_score(t.weight, t.idf, x, cfg.k1),
                    forms: form_out,
                });
            }
            Some(Explanation {
                doc,
                score,
                exact_key: exact,
                docs: self.ids.len(),
                k1: cfg.k1,
                terms: out,
            })
        })
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "doc {}: score {:.4} (N = {}, k1 = {})",
            self.doc, self.score, self.docs, self.k1
        )?;
        if self.exact_key {
            writeln!(f, "  exact key: the query equals one of its keys (ranked first)")?;
        }
        for t in &self.terms {
            if !t.answerable {
                writeln!(f, "  term {:?}: unknown (no document contains it)", t.word)?;
                continue;
            }
            if t.forms.is_empty() {
                writeln!(
                    f,
                    "  term {:?}: 0 (not in this document; df {}, idf {:.4})",
                    t.word, t.df, t.idf
                )?;
                continue;
            }
            writeln!(
                f,
                "  term {:?}: {:.4} = weight {} × idf {:.4} × saturation {:.4}",
                t.word, t.score, t.weight, t.idf, t.saturation
            )?;
            writeln!(f, "    idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df {}", t.df)?;
            writeln!(
                f,
                "    saturation = x (k1 + 1) / (x + k1), x = Σ relation weight × pf = {:.4}",
                t.pseudo_frequency
            )?;
            for form in &t.forms {
                writeln!(
                    f,
                    "    form {:?} ({}, weight {}): pf {:.4}",
                    form.word,
                    form.relation.label(),
                    form.relation_weight,
                    form.pseudo_frequency
                )?;
                for fe in &form.fields {
                    writeln!(
                        f,
                        "      {}: tf {} × w {} / norm {:.4} = {:.4} (len {}, avg {:.4}, b {})",
                        fe.field,
                        fe.tf,
                        fe.weight,
                        fe.norm,
                        fe.value,
                        fe.length,
                        fe.avg_length,
                        fe.b
                    )?;
                }
            }
        }
        Ok(())
    }
}
