//! [`Index`]: the inverted BM25F index and its updates (add, remove, replace a group).

use crate::config::{Config, IndexBuilder, origin_slot};
use crate::document::{DocId, Document};
use crate::error::{Error, ErrorKind};
use crate::expand::Expander;
use crate::keys::KeyTable;
use crate::postings::{Postings, copy_code, encode, pseudo_frequency};
use crate::vocab::Vocab;
use std::collections::BTreeMap;
use std::sync::Arc;
use toolsift_text::Analyzer;

/// Marks a document without a group.
pub(crate) const NO_GROUP: u32 = u32::MAX;

/// An inverted BM25F index over documents with weighted fields; see the [crate docs](crate).
///
/// Documents are kept in insertion order under dense ordinals; [`DocId`]s are stable handles.
/// Search takes `&self` and the index is `Send + Sync`. Every update (add, remove, replace a
/// group) ends with linear passes over all postings that lay them out again and recompute the
/// precomputed pseudo-frequencies from the new statistics, so batch documents into one call.
#[derive(Debug, Clone)]
pub struct Index {
    pub(crate) config: Config,
    pub(crate) analyzer: Analyzer,
    pub(crate) expander: Option<Arc<dyn Expander>>,
    pub(crate) vocab: Vocab,
    pub(crate) post: Postings,
    /// Live document ids by ordinal, strictly ascending.
    pub(crate) ids: Vec<u32>,
    /// Origin-weighted field lengths, `nfields` per ordinal.
    pub(crate) lens: Vec<f32>,
    /// Average field lengths over the live documents.
    pub(crate) avg: Vec<f32>,
    /// Tie-break key per ordinal.
    pub(crate) orders: Vec<u64>,
    /// Group id per ordinal, or [`NO_GROUP`].
    pub(crate) doc_groups: Vec<u32>,
    /// Group id → name.
    pub(crate) group_names: Vec<Box<str>>,
    /// Group name → id.
    pub(crate) group_ids: BTreeMap<Box<str>, u32>,
    /// Live documents per group id.
    pub(crate) group_counts: Vec<u32>,
    pub(crate) keys: KeyTable,
    /// The id the next added document gets.
    pub(crate) next_id: u32,
}

/// Postings of documents being added, before they join the flat arrays.
#[derive(Default)]
pub(crate) struct Staged {
    pub(crate) term: Vec<u32>,
    pub(crate) doc: Vec<u32>,
    /// `nfields` frequencies per posting.
    pub(crate) tf: Vec<f32>,
}

/// Per-document term accumulation during analysis, reused across documents.
#[derive(Default)]
struct Staging {
    /// Per term id: the document stamp it was last seen in and its local slot.
    slot_of: Vec<(u32, u32)>,
    stamp: u32,
    /// Term ids of the current document, in order of first occurrence.
    local_terms: Vec<u32>,
    /// `nfields` tf values per local term.
    local_tf: Vec<f32>,
}

/// `w / (1 − b + b · len / avg)`: the factor that turns a field's tf into its share of the
/// pseudo-frequency. The one place this is computed, for indexing and [`Index::explain`] alike.
#[inline]
pub(crate) fn field_norm(b: f32, len: f32, avg: f32) -> f32 {
    if avg > 0.0 { 1.0 - b + b * len / avg } else { 1.0 }
}

impl Index {
    /// A builder with the default configuration.
    pub fn builder() -> IndexBuilder {
        IndexBuilder::new()
    }

    pub(crate) fn empty(config: Config, analyzer: Analyzer) -> Index {
        let nfields = config.fields.len();
        Index {
            config,
            analyzer,
            expander: None,
            vocab: Vocab::default(),
            post: Postings::default(),
            ids: Vec::new(),
            lens: Vec::new(),
            avg: vec![0.0; nfields],
            orders: Vec::new(),
            doc_groups: Vec::new(),
            group_names: Vec::new(),
            group_ids: BTreeMap::new(),
            group_counts: Vec::new(),
            keys: KeyTable::default(),
            next_id: 0,
        }
    }

    /// The frozen configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The analyzer that indexed the documents and analyzes queries.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The query expander, if one was set with
    /// [`IndexBuilder::expander`](crate::IndexBuilder::expander).
    pub fn expander(&self) -> Option<&Arc<dyn Expander>> {
        self.expander.as_ref()
    }

    /// The tie-break key of `doc` (see [`Document::order`]), if it is in the index.
    pub fn order_of(&self, doc: DocId) -> Option<u64> {
        self.orders.get(self.ord(doc)?).copied()
    }

    /// The number of documents.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the index has no documents.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether `doc` is in the index.
    pub fn contains(&self, doc: DocId) -> bool {
        self.ord(doc).is_some()
    }

    /// All documents, in insertion order (ascending id).
    pub fn docs(&self) -> impl ExactSizeIterator<Item = DocId> + '_ {
        self.ids.iter().map(|&id| DocId(id))
    }

    /// The documents of `group`, in insertion order.
    pub fn group_docs<'s>(&'s self, group: &str) -> impl Iterator<Item = DocId> + 's {
        let gid = self.group_ids.get(group).copied().unwrap_or(NO_GROUP);
        self.ids
            .iter()
            .zip(&self.doc_groups)
            .filter(move |&(_, &g)| g == gid && gid != NO_GROUP)
            .map(|(&id, _)| DocId(id))
    }

    /// The names of the groups that have documents, sorted.
    pub fn groups(&self) -> impl Iterator<Item = &str> + '_ {
        self.group_ids
            .iter()
            .filter(|&(_, &g)| self.group_counts.get(g as usize).is_some_and(|&c| c > 0))
            .map(|(name, _)| &**name)
    }

    /// The group of `doc`, if it is in the index and has one.
    pub fn group_of(&self, doc: DocId) -> Option<&str> {
        let g = *self.doc_groups.get(self.ord(doc)?)?;
        self.group_names.get(g as usize).map(|s| &**s)
    }

    /// Index statistics: documents, vocabulary, postings and average field lengths.
    pub fn stats(&self) -> Stats {
        Stats {
            docs: self.ids.len(),
            terms: self.post.offsets.windows(2).filter(|w| w[1] > w[0]).count(),
            postings: self.post.doc.len(),
            avg_field_len: self.avg.clone(),
        }
    }

    /// The heap bytes the index holds (vocabulary, postings, per-document arrays, keys,
    /// groups; allocator overhead not included), not counting the analyzer, the expander or
    /// the per-thread search scratch (about 8 bytes per document and thread).
    pub fn heap_bytes(&self) -> usize {
        self.vocab.heap_bytes()
            + self.post.heap_bytes()
            + self.ids.capacity() * 4
            + self.lens.capacity() * 4
            + self.orders.capacity() * 8
            + self.doc_groups.capacity() * 4
            + self.keys.heap_bytes()
            + self.group_names.iter().map(|g| 2 * g.len() + 48).sum::<usize>()
    }

    pub(crate) fn ord(&self, doc: DocId) -> Option<usize> {
        self.ids.binary_search(&doc.0).ok()
    }

    /// Adds documents, returning their ids in the same order.
    ///
    /// The whole batch is checked before anything changes: on error the index is unchanged.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownField`] if a document names a field the index does not have;
    /// [`ErrorKind::Capacity`] if the ids would pass `u32::MAX`.
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "create issue"),
    ///     Document::new().field("name", "list issues"),
    /// ])?;
    /// assert_eq!(ids.len(), 2);
    /// assert!(ids[0] < ids[1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add<'a>(
        &mut self,
        docs: impl IntoIterator<Item = Document<'a>>,
    ) -> Result<Vec<DocId>, Error> {
        let docs: Vec<Document<'a>> = docs.into_iter().collect();
        let fields = self.check(&docs)?;
        let (ids, staged) = self.insert(&docs, &fields, None);
        self.rebuild(None, staged);
        Ok(ids)
    }

    /// Removes documents; ids not in the index are ignored. Returns how many were removed.
    pub fn remove(&mut self, docs: &[DocId]) -> usize {
        let mut removed = vec![false; self.ids.len()];
        let mut count = 0;
        for &d in docs {
            if let Some(o) = self.ord(d)
                && !removed[o]
            {
                removed[o] = true;
                count += 1;
            }
        }
        if count > 0 {
            let remap = self.delete(&removed);
            self.rebuild(Some(&remap), Staged::default());
        }
        count
    }

    /// Removes every document of `group`, returning how many were removed.
    pub fn remove_group(&mut self, group: &str) -> usize {
        let (count, remap) = self.delete_group(group);
        if count > 0 {
            self.rebuild(remap.as_deref(), Staged::default());
        }
        count
    }

    /// Replaces the documents of `group` with `docs` (which join `group` whatever their own
    /// group says), as after an MCP `tools/list_changed`; returns the new documents' ids.
    ///
    /// The new documents get new ids, after every existing one. The batch is checked first: on
    /// error the index is unchanged.
    ///
    /// # Errors
    ///
    /// As [`Index::add`].
    pub fn replace_group<'a>(
        &mut self,
        group: &str,
        docs: impl IntoIterator<Item = Document<'a>>,
    ) -> Result<Vec<DocId>, Error> {
        let docs: Vec<Document<'a>> = docs.into_iter().collect();
        let fields = self.check(&docs)?;
        let (_, remap) = self.delete_group(group);
        let (ids, staged) = self.insert(&docs, &fields, Some(group));
        self.rebuild(remap.as_deref(), staged);
        Ok(ids)
    }

    /// Deletes the documents of `group`: how many, and the ordinal remap if any.
    fn delete_group(&mut self, group: &str) -> (usize, Option<Vec<u32>>) {
        let Some(&gid) = self.group_ids.get(group) else { return (0, None) };
        let removed: Vec<bool> = self.doc_groups.iter().map(|&g| g == gid).collect();
        let count = removed.iter().filter(|&&r| r).count();
        if count == 0 {
            return (0, None);
        }
        (count, Some(self.delete(&removed)))
    }

    /// Resolves every document's field names to field indices, or fails without side effects.
    fn check(&self, docs: &[Document<'_>]) -> Result<Vec<Vec<usize>>, Error> {
        let room = u32::MAX - self.next_id;
        if docs.len() > room as usize {
            return Err(Error::new(ErrorKind::Capacity));
        }
        let mut groups = self.group_names.len();
        let mut out = Vec::with_capacity(docs.len());
        for doc in docs {
            let mut fields = Vec::with_capacity(doc.fields.len());
            for (name, _) in &doc.fields {
                match self.config.field_index(name) {
                    Some(i) => fields.push(i),
                    None => return Err(Error::new(ErrorKind::UnknownField(name.to_string()))),
                }
            }
            if doc.group.is_some() {
                groups += 1;
            }
            out.push(fields);
        }
        if groups >= NO_GROUP as usize {
            return Err(Error::new(ErrorKind::Capacity));
        }
        Ok(out)
    }

    fn group_id(&mut self, name: &str) -> u32 {
        if let Some(&g) = self.group_ids.get(name) {
            return g;
        }
        // `check` guarantees room below NO_GROUP.
        let g = u32::try_from(self.group_names.len()).unwrap_or(NO_GROUP - 1);
        self.group_names.push(name.into());
        self.group_counts.push(0);
        self.group_ids.insert(name.into(), g);
        g
    }

    /// Analyzes and appends checked documents; their postings are returned staged, for
    /// [`Index::rebuild`].
    fn insert(
        &mut self,
        docs: &[Document<'_>],
        fields: &[Vec<usize>],
        group: Option<&str>,
    ) -> (Vec<DocId>, Staged) {
        let nf = self.config.fields.len();
        let mut out = Vec::with_capacity(docs.len());
        let mut st = Staging::default();
        let mut staged = Staged::default();
        for (doc, doc_fields) in docs.iter().zip(fields) {
            let ord = self.ids.len() as u32;
            let id = self.next_id;
            self.next_id += 1;
            self.ids.push(id);
            self.orders.push(doc.order.unwrap_or(u64::from(id)));
            out.push(DocId(id));
            let gid = match group.or(doc.group.as_deref()) {
                Some(g) => {
                    let g = self.group_id(g);
                    self.group_counts[g as usize] += 1;
                    g
                }
                None => NO_GROUP,
            };
            self.doc_groups.push(gid);
            for k in &doc.keys {
                self.keys.insert(k, id);
            }
            let base = self.lens.len();
            self.lens.resize(base + nf, 0.0);
            st.stamp = st.stamp.wrapping_add(1);
            if st.stamp == 0 {
                st.slot_of.iter_mut().for_each(|s| s.0 = 0);
                st.stamp = 1;
            }
            st.local_terms.clear();
            st.local_tf.clear();
            let Index { analyzer, vocab, lens, config, .. } = self;
            for ((_, text), &f) in doc.fields.iter().zip(doc_fields) {
                analyzer.for_each_token(text, |tok| {
                    let w = config.origin_weights[origin_slot(tok.origin)];
                    if w <= 0.0 {
                        return;
                    }
                    let Some(t) = vocab.intern(tok.word, tok.stem) else { return };
                    let t = t as usize;
                    if st.slot_of.len() <= t {
                        st.slot_of.resize(t + 1, (0, 0));
                    }
                    let slot = if st.slot_of[t].0 == st.stamp {
                        st.slot_of[t].1 as usize
                    } else {
                        let s = st.local_terms.len();
                        st.slot_of[t] = (st.stamp, s as u32);
                        st.local_terms.push(t as u32);
                        st.local_tf.resize(st.local_tf.len() + nf, 0.0);
                        s
                    };
                    st.local_tf[slot * nf + f] += w;
                    lens[base + f] += w;
                });
            }
            staged.term.extend_from_slice(&st.local_terms);
            staged.doc.extend(std::iter::repeat_n(ord, st.local_terms.len()));
            staged.tf.extend_from_slice(&st.local_tf);
        }
        self.keys.finish();
        (out, staged)
    }

    /// Drops the documents whose ordinal is marked, compacting ordinals; returns the old →
    /// new ordinal map (`u32::MAX` for dropped documents). The postings are remapped by the
    /// [`Index::rebuild`] that must follow.
    fn delete(&mut self, removed: &[bool]) -> Vec<u32> {
        let nf = self.config.fields.len();
        let mut remap = vec![u32::MAX; removed.len()];
        let mut next = 0u32;
        for (o, &r) in removed.iter().enumerate() {
            if !r {
                remap[o] = next;
                next += 1;
            } else if let Some(&g) = self.doc_groups.get(o)
                && let Some(c) = self.group_counts.get_mut(g as usize)
            {
                *c = c.saturating_sub(1);
            }
        }
        let mut removed_ids: Vec<u32> =
            self.ids.iter().zip(removed).filter(|(_, r)| **r).map(|(&id, _)| id).collect();
        removed_ids.sort_unstable();
        self.keys.retain(|id| removed_ids.binary_search(&id).is_err());
        let mut keep = removed.iter().map(|r| !r);
        self.ids.retain(|_| keep.next().unwrap_or(false));
        let mut keep = removed.iter().map(|r| !r);
        self.doc_groups.retain(|_| keep.next().unwrap_or(false));
        let mut keep = removed.iter().map(|r| !r);
        self.orders.retain(|_| keep.next().unwrap_or(false));
        let mut w = 0;
        for (o, &r) in removed.iter().enumerate() {
            if !r {
                self.lens.copy_within(o * nf..(o + 1) * nf, w * nf);
                w += 1;
            }
        }
        self.lens.truncate(w * nf);
        remap
    }

    /// Recomputes the statistics (averages, stem document frequencies) and lays the postings
    /// out again in slot order: the old ones (renumbered by `remap`, dropped where it says
    /// `u32::MAX`) then the `staged` ones, each with its pseudo-frequency recomputed. The
    /// result depends only on the live documents and their order, never on the history of
    /// updates.
    pub(crate) fn rebuild(&mut self, remap: Option<&[u32]>, staged: Staged) {
        let nf = self.config.fields.len();
        let n = self.ids.len();
        let mut sums = vec![0f64; nf];
        for row in self.lens.chunks_exact(nf) {
            for (s, &l) in sums.iter_mut().zip(row) {
                *s += f64::from(l);
            }
        }
        self.avg = sums.iter().map(|&s| if n > 0 { (s / n as f64) as f32 } else { 0.0 }).collect();
        // factor[o * nf + f] = w_f / (1 − b_f + b_f · len / avg_f)
        let mut factor = Vec::with_capacity(n * nf);
        for row in self.lens.chunks_exact(nf) {
            for ((spec, &len), &avg) in self.config.fields.iter().zip(row).zip(&self.avg) {
                factor.push(spec.weight() / field_norm(spec.b(), len, avg));
            }
        }
        // The new slot order; `old_slot` maps a term to its slot before this update.
        let old_slots = if self.vocab.has_pending() {
            let old = self.vocab.term_slot.clone();
            self.vocab.finish();
            Some(old)
        } else {
            None
        };
        let vocab = &self.vocab;
        let nslots = vocab.slot_term.len();
        // Staged postings bucketed by their new slot, in document order within a slot.
        let mut bucket = vec![0u32; nslots + 1];
        for &t in &staged.term {
            bucket[vocab.term_slot[t as usize] as usize + 1] += 1;
        }
        for s in 0..nslots {
            bucket[s + 1] += bucket[s];
        }
        let mut order = vec![0u32; staged.term.len()];
        let mut fill = bucket.clone();
        for (i, &t) in staged.term.iter().enumerate() {
            let s = vocab.term_slot[t as usize] as usize;
            order[fill[s] as usize] = i as u32;
            fill[s] += 1;
        }
        let old = std::mem::take(&mut self.post);
        // Three tight passes: lay out the documents and frequency codes (written by position
        // `w` into arrays of the largest possible size, then truncated), compute every
        // pseudo-frequency from the new factors, then every slot's largest.
        let total = old.doc.len() + staged.term.len();
        let mut doc = vec![0u32; total];
        let mut tf = vec![0u32; total];
        let mut extra = Vec::new();
        let mut offsets = Vec::with_capacity(nslots + 1);
        // Without removals or spilled frequencies, a slot's old postings are copied as they are.
        let verbatim = remap.is_none() && old.extra.is_empty();
        let mut w = 0;
        offsets.push(0);
        for (slot, &t) in vocab.slot_term.iter().enumerate() {
            let old_slot = match &old_slots {
                Some(o) => o.get(t as usize).copied(),
                None => Some(slot as u32),
            };
            if let Some(os) = old_slot {
                let r = old.range(os, os + 1);
                if verbatim {
                    let len = r.len();
                    doc[w..w + len].copy_from_slice(&old.doc[r.clone()]);
                    tf[w..w + len].copy_from_slice(&old.tf[r]);
                    w += len;
                } else {
                    for (&od, &code) in old.doc[r.clone()].iter().zip(&old.tf[r]) {
                        let d = match remap {
                            Some(rm) => rm.get(od as usize).copied().unwrap_or(u32::MAX),
                            None => od,
                        };
                        if d == u32::MAX {
                            continue;
                        }
                        doc[w] = d;
                        tf[w] = copy_code(code, &old.extra, &mut extra);
                        w += 1;
                    }
                }
            }
            for &i in &order[bucket[slot] as usize..bucket[slot + 1] as usize] {
                let i = i as usize;
                doc[w] = staged.doc[i];
                tf[w] = encode(&staged.tf[i * nf..(i + 1) * nf], &mut extra);
                w += 1;
            }
            offsets.push(w);
        }
        doc.truncate(w);
        tf.truncate(w);
        if w < total {
            doc.shrink_to_fit();
            tf.shrink_to_fit();
        }
        extra.shrink_to_fit();
        let pf: Vec<f32> = doc
            .iter()
            .zip(&tf)
            .map(|(&d, &code)| pseudo_frequency(code, &extra, &factor, d as usize * nf))
            .collect();
        let max_pf = offsets
            .windows(2)
            .map(|r| pf[r[0]..r[1]].iter().fold(0f32, |m, &p| m.max(p)))
            .collect();
        let post = Postings { offsets, doc, pf, tf, extra, max_pf };
        self.post = post;
        // Stem document frequencies: the union of the documents of the stem's slots.
        let mut seen = vec![u32::MAX; n];
        for s in 0..self.vocab.stem.len() {
            let (a, b) = self.vocab.stem_slots(s as u32);
            let range = self.post.range(a, b);
            self.vocab.stem[s].df = if b - a <= 1 {
                range.len() as u32
            } else {
                let mut df = 0;
                for &d in &self.post.doc[range] {
                    if seen[d as usize] != s as u32 {
                        seen[d as usize] = s as u32;
                        df += 1;
                    }
                }
                df
            };
        }
    }
}

/// Index statistics, from [`Index::stats`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Live documents (`N`).
    pub docs: usize,
    /// Distinct terms that occur in at least one document.
    pub terms: usize,
    /// Postings (term, document) pairs.
    pub postings: usize,
    /// Average origin-weighted length of each field, in field order.
    pub avg_field_len: Vec<f32>,
}
