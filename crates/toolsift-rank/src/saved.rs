//! Saving and loading an index (feature `serde`).

use crate::config::Config;
use crate::error::{Error, ErrorKind};
use crate::expand::Expander;
use crate::index::{Index, NO_GROUP};
use crate::staging::Staged;
use serde::{Deserialize, Serialize, Serializer};
use std::sync::Arc;
use toolsift_text::{Analyzer, Origin};

const FORMAT_VERSION: u32 = 1;

/// Analyzed at save and at load: if the analyzers disagree on it, loading fails.
const PROBE: &str = "CreatePullRequest list_repositories running files Indexes \
                     the of and to v2 HTTP 搜索仓库 café";

/// A saved index, as deserialized; turn it into an [`Index`] with [`Index::from_saved`].
///
/// The format is the index's documents and postings (not its derived tables), with terms
/// sorted by word and groups by name, so saving is deterministic and two indexes with the same
/// documents in the same order save identically.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedIndex {
    version: u32,
    config: Config,
    probe: Vec<ProbeToken>,
    next_id: u32,
    ids: Vec<u32>,
    lens: Vec<f32>,
    groups: Vec<String>,
    doc_groups: Vec<Option<u32>>,
    /// Tie-break keys per document; absent in indexes saved before they existed (then the
    /// keys are the ids, as they were).
    #[serde(default)]
    orders: Option<Vec<u64>>,
    keys: Vec<(String, Vec<u32>)>,
    terms: Vec<SavedTerm>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ProbeToken {
    word: String,
    stem: String,
    origin: u8,
    position: u32,
    stopword: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SavedTerm {
    word: String,
    stem: String,
    docs: Vec<u32>,
    tf: Vec<f32>,
}

fn probe(analyzer: &Analyzer) -> Vec<ProbeToken> {
    let mut out = Vec::new();
    analyzer.for_each_token(PROBE, |t| {
        out.push(ProbeToken {
            word: t.word.to_owned(),
            stem: t.stem.to_owned(),
            origin: match t.origin {
                Origin::Whole => 0,
                Origin::Part => 1,
                Origin::Bigram => 2,
                _ => 3,
            },
            position: t.position,
            stopword: analyzer.is_stopword(t.word),
        });
    });
    out
}

impl Index {
    /// The index as a [`SavedIndex`], ready to serialize.
    pub fn to_saved(&self) -> SavedIndex {
        let nf = self.config.fields.len();
        // Live groups by name; their position in this list is the saved group index.
        let live: Vec<(&str, u32)> = self
            .group_ids
            .iter()
            .filter(|&(_, &g)| self.group_counts.get(g as usize).is_some_and(|&c| c > 0))
            .map(|(name, &g)| (&**name, g))
            .collect();
        let doc_groups = self
            .doc_groups
            .iter()
            .map(|&g| {
                if g == NO_GROUP {
                    None
                } else {
                    live.iter().position(|&(_, id)| id == g).map(|p| p as u32)
                }
            })
            .collect();
        let mut row = vec![0f32; nf];
        let mut terms: Vec<SavedTerm> = Vec::new();
        for (slot, &t) in self.vocab.slot_term.iter().enumerate() {
            let range = self.post.range(slot as u32, slot as u32 + 1);
            if range.is_empty() {
                continue;
            }
            let mut tf = Vec::with_capacity(range.len() * nf);
            for i in range.clone() {
                self.post.tf_row(i, &mut row);
                tf.extend_from_slice(&row);
            }
            terms.push(SavedTerm {
                word: self.vocab.words.get(t).to_owned(),
                stem: self.vocab.stems.get(self.vocab.term_stem[t as usize]).to_owned(),
                docs: self.post.doc[range].to_vec(),
                tf,
            });
        }
        terms.sort_unstable_by(|a, b| a.word.cmp(&b.word));
        SavedIndex {
            version: FORMAT_VERSION,
            config: self.config.clone(),
            probe: probe(&self.analyzer),
            next_id: self.next_id,
            ids: self.ids.clone(),
            lens: self.lens.clone(),
            groups: live.iter().map(|(name, _)| (*name).to_owned()).collect(),
            doc_groups,
            orders: Some(self.orders.clone()),
            keys: self.keys.entries(),
            terms,
        }
    }

    /// Rebuilds an index from a [`SavedIndex`], with the analyzer it was built with.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Corrupt`] if the saved data is inconsistent (or of another format
    /// version), [`ErrorKind::InvalidConfig`] if its configuration is out of range, and
    /// [`ErrorKind::AnalyzerMismatch`] if `analyzer` analyzes a probe text differently from the
    /// analyzer the index was built with.
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// use toolsift_text::Analyzer;
    /// let mut index = Index::builder().build()?;
    /// index.add([Document::new().field("name", "create issue")])?;
    /// let loaded = Index::from_saved(index.to_saved(), Analyzer::default())?;
    /// assert_eq!(loaded.search("issue", 5), index.search("issue", 5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_saved(saved: SavedIndex, analyzer: Analyzer) -> Result<Index, Error> {
        Index::from_saved_with(saved, analyzer, None)
    }

    /// As [`Index::from_saved`], with the query expander the index was used with (an
    /// expander is code and is not saved).
    ///
    /// # Errors
    ///
    /// As [`Index::from_saved`].
    pub fn from_saved_with(
        saved: SavedIndex,
        analyzer: Analyzer,
        expander: Option<Arc<dyn Expander>>,
    ) -> Result<Index, Error> {
        if saved.version != FORMAT_VERSION {
            return Err(Error::corrupt(format!("unsupported format version {}", saved.version)));
        }
        saved.config.validate()?;
        if probe(&analyzer) != saved.probe {
            return Err(Error::new(ErrorKind::AnalyzerMismatch));
        }
        let nf = saved.config.fields.len();
        let n = saved.ids.len();
        if !saved.ids.windows(2).all(|w| w[0] < w[1]) {
            return Err(Error::corrupt("document ids are not strictly ascending"));
        }
        if saved.ids.last().is_some_and(|&last| last >= saved.next_id) {
            return Err(Error::corrupt("next id is not above every document id"));
        }
        if saved.lens.len() != n * nf || !saved.lens.iter().all(|l| l.is_finite() && *l >= 0.0) {
            return Err(Error::corrupt("field lengths do not match the documents"));
        }
        if saved.doc_groups.len() != n
            || saved.doc_groups.iter().flatten().any(|&g| g as usize >= saved.groups.len())
        {
            return Err(Error::corrupt("document groups do not match the groups"));
        }
        let mut index = Index::empty(saved.config, analyzer);
        index.expander = expander;
        index.next_id = saved.next_id;
        index.ids = saved.ids;
        index.lens = saved.lens;
        for name in &saved.groups {
            if index
                .group_ids
                .insert(name.as_str().into(), index.group_names.len() as u32)
                .is_some()
            {
                return Err(Error::corrupt(format!("group `{name}` appears twice")));
            }
            index.group_names.push(name.as_str().into());
            index.group_counts.push(0);
        }
        index.doc_groups = saved
            .doc_groups
            .iter()
            .map(|g| match g {
                Some(g) => {
                    index.group_counts[*g as usize] += 1;
                    *g
                }
                None => NO_GROUP,
            })
            .collect();
        index.orders = match saved.orders {
            Some(orders) if orders.len() == n => orders,
            Some(_) => return Err(Error::corrupt("order keys do not match the documents")),
            None => index.ids.iter().map(|&id| u64::from(id)).collect(),
        };
        let mut last: Option<String> = None;
        for (key, ids) in saved.keys {
            if ids.is_empty() || ids.iter().any(|id| index.ids.binary_search(id).is_err()) {
                return Err(Error::corrupt(format!("key `{key}` names unknown documents")));
            }
            if last.as_ref().is_some_and(|l| *l >= key) {
                return Err(Error::corrupt(format!("key `{key}` is out of order")));
            }
            // Normalized again: an index saved before keys dropped their separators holds
            // `create_issue`, which now reads `createissue` (normalizing is idempotent).
            for id in ids {
                index.keys.insert(&key, id);
            }
            last = Some(key);
        }
        index.keys.finish();
        let mut staged = Staged::default();
        for t in saved.terms {
            if index.vocab.term_id(&t.word).is_some() {
                return Err(Error::corrupt(format!("term `{}` appears twice", t.word)));
            }
            let valid_docs = t.docs.windows(2).all(|w| w[0] < w[1])
                && t.docs.last().is_none_or(|&d| (d as usize) < n);
            let valid_tf =
                t.tf.len() == t.docs.len() * nf && t.tf.iter().all(|x| x.is_finite() && *x >= 0.0);
            if !valid_docs || !valid_tf {
                return Err(Error::corrupt(format!("postings of `{}` are inconsistent", t.word)));
            }
            let Some(id) = index.vocab.intern(&t.word, &t.stem) else {
                return Err(Error::new(ErrorKind::Capacity));
            };
            staged.term.extend(std::iter::repeat_n(id, t.docs.len()));
            staged.doc.extend_from_slice(&t.docs);
            staged.tf.extend_from_slice(&t.tf);
        }
        index.rebuild(None, staged);
        Ok(index)
    }
}

impl Serialize for Index {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_saved().serialize(serializer)
    }
}
