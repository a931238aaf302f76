//! [`Index`]: the inverted BM25F index and its updates (add, remove, replace a group).

use crate::cache::SearchCache;
use crate::config::{Config, DEFAULT_SEARCH_CACHE_BUDGET, IndexBuilder};
use crate::document::{DocId, Document};
use crate::error::{Error, ErrorKind};
use crate::expand::Expander;
use crate::keys::KeyTable;
use crate::parts;
use crate::postings::{OldRuns, Postings, encode, shift_code};
use crate::score::field_norm;
use crate::staging::{Job, MEMO_MIN_DOCS, Staged};
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
/// group) ends with linear passes over all postings that lay them out again, so batch
/// documents into one call; the pseudo-frequencies, which the new statistics change, are
/// worked out for each slot when a search first reads it.
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
    /// Per group id, the ordinals `start..end` that hold all its documents (a group added in
    /// one batch holds a run of them), `(u32::MAX, 0)` for an empty group: postings of other
    /// ordinals need no look at their group. Worked out again by every update.
    pub(crate) group_spans: Vec<(u32, u32)>,
    pub(crate) keys: KeyTable,
    /// The id the next added document gets.
    pub(crate) next_id: u32,
    /// What searches worked out from the index; emptied by every update.
    pub(crate) cache: SearchCache,
}

/// Takes the documents of dropped postings, (slot, document) pairs in slot order, out of
/// their stems' document frequencies; `docs` bounds the documents. Only these documents
/// change the counts, which stay exact: the same as counting every stem afresh.
///
/// A stem's slots are contiguous, so its dropped postings are one run; `seen` holds, per
/// document, the last run that counted it.
fn drop_stem_df(vocab: &mut Vocab, dropped: &[(u32, u32)], docs: usize) {
    if dropped.is_empty() {
        return;
    }
    let stem_of = |slot: u32| {
        vocab.slot_term.get(slot as usize).and_then(|&t| vocab.term_stem.get(t as usize)).copied()
    };
    let mut seen = vec![u32::MAX; docs];
    let mut counts = Vec::new();
    for (run, postings) in dropped.chunk_by(|a, b| stem_of(a.0) == stem_of(b.0)).enumerate() {
        let Some(stem) = postings.first().and_then(|&(slot, _)| stem_of(slot)) else { continue };
        let mut count = 0u32;
        for &(_, d) in postings {
            if let Some(last) = seen.get_mut(d as usize)
                && *last != run as u32
            {
                *last = run as u32;
                count += 1;
            }
        }
        counts.push((stem, count));
    }
    for (stem, count) in counts {
        if let Some(entry) = vocab.stem.get_mut(stem as usize) {
            entry.df = entry.df.saturating_sub(count);
        }
    }
}

/// Adds the documents of the staged postings to their stems' document frequencies, given
/// `post` laid out with them (each slot's staged postings last) and `bucket`, where the
/// staged postings of slot `s` are `bucket[s]..bucket[s + 1]`; `docs` bounds the documents.
/// Only these documents change the counts, which stay exact: the same as counting every stem
/// afresh.
///
/// A slot's postings are of distinct documents, so a stem of one slot counts them all; a
/// stem of several counts each document once, `seen` holding per document the last stem (by
/// rank) that counted it.
#[inline(never)]
fn add_stem_df(vocab: &mut Vocab, post: &Postings, bucket: &[u32], docs: usize) {
    if bucket.last().is_none_or(|&b| b == 0) {
        return;
    }
    let staged = |slot: usize| match (bucket.get(slot), bucket.get(slot + 1)) {
        (Some(&a), Some(&b)) => b.saturating_sub(a),
        _ => 0,
    };
    let mut seen: Vec<u32> = Vec::new();
    for (rank, w) in vocab.rank_slot.windows(2).enumerate() {
        // The stem's staged postings.
        let count = match (bucket.get(w[0] as usize), bucket.get(w[1] as usize)) {
            (Some(&a), Some(&b)) => b.saturating_sub(a),
            _ => 0,
        };
        if count == 0 {
            continue;
        }
        let count = if w[1] - w[0] <= 1 {
            count
        } else {
            if seen.is_empty() {
                seen = vec![u32::MAX; docs];
            }
            let mut count = 0;
            for slot in w[0] as usize..w[1] as usize {
                let end = post.offsets.get(slot + 1).copied().unwrap_or(0);
                let start = end.saturating_sub(staged(slot) as usize);
                for &d in post.doc.get(start..end).unwrap_or_default() {
                    if let Some(last) = seen.get_mut(d as usize)
                        && *last != rank as u32
                    {
                        *last = rank as u32;
                        count += 1;
                    }
                }
            }
            count
        };
        if let Some(&s) = vocab.sorted_stems.get(rank)
            && let Some(entry) = vocab.stem.get_mut(s as usize)
        {
            entry.df = entry.df.saturating_add(count);
        }
    }
}

impl IndexBuilder {
    /// Freezes the configuration into an empty index.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidConfig`](crate::ErrorKind::InvalidConfig) when a setting is out of
    /// its documented range, no field is declared, or a field is declared twice.
    pub fn build(self) -> Result<Index, Error> {
        let (config, analyzer, expander) = self.freeze()?;
        let mut index = Index::empty(config, analyzer);
        index.expander = expander;
        Ok(index)
    }
}

impl Index {
    /// A builder with the default configuration: plain BM25F.
    pub fn builder() -> IndexBuilder {
        IndexBuilder::new()
    }

    /// A builder with the tuned preset ([`IndexBuilder::tuned`]): the ranking the toolsift
    /// facade uses and `cargo xtask eval` measures.
    pub fn tuned() -> IndexBuilder {
        IndexBuilder::tuned()
    }

    pub(crate) fn empty(config: Config, analyzer: Analyzer) -> Index {
        let nfields = config.fields.len();
        let mut index = Index {
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
            group_spans: Vec::new(),
            keys: KeyTable::default(),
            next_id: 0,
            cache: SearchCache::default(),
        };
        let budget = index.budget_for_size();
        index.cache.reset(budget);
        index
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
    /// groups; allocator overhead not included), not counting the analyzer, the expander,
    /// what searches keep: the per-thread search scratch (about 8 bytes per document and
    /// thread) and the search cache ([`Index::search_cache_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.vocab.heap_bytes()
            + self.post.heap_bytes()
            + self.ids.capacity() * 4
            + self.lens.capacity() * 4
            + self.orders.capacity() * 8
            + self.doc_groups.capacity() * 4
            + self.group_spans.capacity() * 8
            + self.keys.heap_bytes()
            + self.group_names.iter().map(|g| 2 * g.len() + 48).sum::<usize>()
    }

    /// The heap bytes of the search cache: the query words and merged lists searches have
    /// worked out since the last update, at most the
    /// [`search_cache_budget`](Index::search_cache_budget).
    pub fn search_cache_bytes(&self) -> usize {
        self.cache.bytes()
    }

    /// The most heap bytes the search cache may hold until the next update: the
    /// [configured budget](IndexBuilder::search_cache_budget), or by default the larger of
    /// [`DEFAULT_SEARCH_CACHE_BUDGET`] and [`heap_bytes`](Index::heap_bytes) as of the last
    /// update.
    ///
    /// ```
    /// use toolsift_rank::{DEFAULT_SEARCH_CACHE_BUDGET, Index};
    /// let small = Index::builder().build()?;
    /// assert_eq!(small.search_cache_budget(), DEFAULT_SEARCH_CACHE_BUDGET);
    /// let none = Index::builder().search_cache_budget(0).build()?;
    /// assert_eq!(none.search_cache_budget(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search_cache_budget(&self) -> usize {
        self.cache.budget()
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
        let (removed, count) = self.removal(docs);
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

    /// Removes the documents `remove` (ids not in the index are ignored) and adds `docs` to
    /// `group` (whatever their own group says), in one update: a replacement that keeps the
    /// documents that did not change. Returns the new documents' ids, after every existing one.
    ///
    /// The batch is checked first: on error the index is unchanged. With nothing to remove or
    /// add, nothing changes (the search cache included).
    ///
    /// # Errors
    ///
    /// As [`Index::add`].
    ///
    /// # Example
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "create issue").group("gh"),
    ///     Document::new().field("name", "list issues").group("gh"),
    /// ])?;
    /// // The second tool changed; the first is kept as it is.
    /// let new = index.update_group("gh", &ids[1..], [Document::new().field("name", "list pulls")])?;
    /// assert_eq!(index.group_docs("gh").collect::<Vec<_>>(), [ids[0], new[0]]);
    /// assert_eq!(index.search("pulls", 5).hits()[0].doc(), new[0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update_group<'a>(
        &mut self,
        group: &str,
        remove: &[DocId],
        docs: impl IntoIterator<Item = Document<'a>>,
    ) -> Result<Vec<DocId>, Error> {
        let docs: Vec<Document<'a>> = docs.into_iter().collect();
        let fields = self.check(&docs)?;
        let (removed, count) = self.removal(remove);
        if count == 0 && docs.is_empty() {
            return Ok(Vec::new());
        }
        let remap = if count > 0 { Some(self.delete(&removed)) } else { None };
        let (ids, staged) = self.insert(&docs, &fields, Some(group));
        self.rebuild(remap.as_deref(), staged);
        Ok(ids)
    }

    /// Sets the tie-break [order](Document::order) key of document `doc`; returns whether the
    /// index has it. Scores and the search cache do not depend on it: a host whose documents
    /// moved (a tool's catalog position changed) sets it without indexing them again.
    pub fn set_order(&mut self, doc: DocId, order: u64) -> bool {
        match self.ord(doc).and_then(|o| self.orders.get_mut(o)) {
            Some(slot) => {
                *slot = order;
                true
            }
            None => false,
        }
    }

    /// Which ordinals `docs` name (ids not in the index are ignored), and how many.
    fn removal(&self, docs: &[DocId]) -> (Vec<bool>, usize) {
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
        (removed, count)
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
    ///
    /// The indices of all documents' fields, in order, in one array (one allocation per batch,
    /// not per document): document after document, as many as it has fields.
    fn check(&self, docs: &[Document<'_>]) -> Result<Vec<usize>, Error> {
        let room = u32::MAX - self.next_id;
        if docs.len() > room as usize {
            return Err(Error::new(ErrorKind::Capacity));
        }
        let mut groups = self.group_names.len();
        let mut out = Vec::with_capacity(docs.iter().map(|d| d.fields.len()).sum());
        for doc in docs {
            for (name, _) in &doc.fields {
                match self.config.field_index(name) {
                    Some(i) => out.push(i),
                    None => return Err(Error::new(ErrorKind::UnknownField(name.to_string()))),
                }
            }
            if doc.group.is_some() {
                groups += 1;
            }
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
    ///
    /// A large batch is analyzed in parts on several threads ([`parts`]); what it stages is
    /// the same, bit for bit, as one thread stages.
    fn insert(
        &mut self,
        docs: &[Document<'_>],
        fields: &[usize],
        group: Option<&str>,
    ) -> (Vec<DocId>, Staged) {
        let nf = self.config.fields.len();
        let first = self.ids.len();
        let mut out = Vec::with_capacity(docs.len());
        self.ids.reserve(docs.len());
        self.orders.reserve(docs.len());
        self.doc_groups.reserve(docs.len());
        self.keys.reserve(docs.iter().map(|d| d.keys.len()).sum());
        // Ids, order keys, groups and exact keys first, in document order; the analysis
        // below only fills the documents' field lengths and stages their postings.
        for doc in docs {
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
        }
        self.keys.finish();
        self.lens.resize(self.lens.len() + docs.len() * nf, 0.0);
        let bytes: usize = docs.iter().flat_map(|d| &d.fields).map(|(_, text)| text.len()).sum();
        let (words, stems) = (&self.vocab.words, &self.vocab.stems);
        let used = words.len().max(words.bytes()).max(stems.bytes());
        let parts = parts::split(docs, bytes, self.config.parallelism(), used);
        let Index { analyzer, vocab, lens, config, .. } = self;
        let job = Job {
            analyzer,
            weights: config.origin_weights,
            nf,
            // Small batches (one server's update) repeat too little to pay for the memos; the
            // analyzer's own chunk memo serves them.
            memoize: docs.len() >= MEMO_MIN_DOCS,
        };
        let lens = lens.get_mut(first * nf..).unwrap_or_default();
        let staged = if parts.len() > 1 {
            parts::run(&job, vocab, &parts, docs, fields, first as u32, lens)
        } else {
            let mut staged = Staged::for_bytes(bytes);
            job.run(vocab, docs, fields, first as u32, lens, &mut staged);
            staged
        };
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
        // `ids` ascends, so the removed ids do too. A group's documents usually have nearby
        // ids: then a flag per id of their span answers each key pair in one lookup.
        let removed_ids: Vec<u32> =
            self.ids.iter().zip(removed).filter(|(_, r)| **r).map(|(&id, _)| id).collect();
        if let (Some(&lo), Some(&hi)) = (removed_ids.first(), removed_ids.last()) {
            let span = (hi - lo) as usize + 1;
            if span <= 8 * removed_ids.len() + 1024 {
                let mut dead = vec![false; span];
                for &id in &removed_ids {
                    dead[(id - lo) as usize] = true;
                }
                self.keys.retain(|id| {
                    !id.checked_sub(lo).and_then(|i| dead.get(i as usize)).copied().unwrap_or(false)
                });
            } else {
                self.keys.retain(|id| removed_ids.binary_search(&id).is_err());
            }
        }
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

    /// Recomputes the statistics (averages; the stem document frequencies, exact counts, move
    /// by the dropped and staged documents) and lays the postings out again in slot order:
    /// the old ones (renumbered by `remap`, dropped where it says `u32::MAX`) then the
    /// `staged` ones, with the field factors their pseudo-frequencies are worked out from when
    /// searches first read their slots. The result depends only on the live documents and
    /// their order, never on the history of updates.
    pub(crate) fn rebuild(&mut self, remap: Option<&[u32]>, staged: Staged) {
        self.cache.reset(0);
        let nf = self.config.fields.len();
        let n = self.ids.len();
        let mut sums = vec![0f64; nf];
        for row in self.lens.chunks_exact(nf) {
            for (s, &l) in sums.iter_mut().zip(row) {
                *s += f64::from(l);
            }
        }
        self.avg = sums.iter().map(|&s| if n > 0 { (s / n as f64) as f32 } else { 0.0 }).collect();
        // factor[o * nf + f] = w_f / (1 − b_f + b_f · len / avg_f), each field's constants
        // taken out of the loop (`lens` holds `nf` lengths per document).
        let fields: Vec<(f32, f32, f32)> = (self.config.fields.iter().zip(&self.avg))
            .map(|(spec, &avg)| (spec.weight(), spec.b(), avg))
            .collect();
        let factor: Vec<f32> = (self.lens.iter().zip(fields.iter().cycle()))
            .map(|(&len, &(w, b, avg))| w / field_norm(b, len, avg))
            .collect();
        // The old postings renumbered, and the stem document frequencies without the dropped
        // ones: their stems come from the slot order before this update.
        let mut old = std::mem::take(&mut self.post);
        let mut dropped_at = Vec::new();
        if let Some(rm) = remap {
            let (dropped, at) = old.renumber(rm);
            drop_stem_df(&mut self.vocab, &dropped, rm.len());
            dropped_at = at;
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
        // Staged frequencies as codes (the callers that stage `tf` rows are encoded here).
        let (codes, staged_extra) = if staged.code.len() == staged.term.len() {
            (staged.code, staged.extra)
        } else {
            let mut extra = Vec::new();
            let codes =
                staged.tf.chunks_exact(nf.max(1)).map(|row| encode(row, &mut extra)).collect();
            (codes, extra)
        };
        // The spilled frequencies of old and staged codes in one array: the staged ones after
        // the old ones, their codes shifted to match as they are laid out.
        let mut spilled = std::mem::take(&mut old.extra);
        let shift = spilled.len();
        spilled.extend_from_slice(&staged_extra);
        // The layout, in slot order: each slot's old postings then its staged ones. Old terms
        // keep their order in the slot order (it sorts terms by stem and word), so the old
        // postings keep theirs: each slot starts where its old postings start (a new term's,
        // none, where the previous slot's end) plus the staged postings of the slots before.
        // The kept old postings (`old.offsets` counts only those).
        let old_len = old.doc.len().saturating_sub(dropped_at.len());
        let mut offsets = Vec::with_capacity(nslots + 1);
        match &old_slots {
            // The slots of before, one to one: a sum of two arrays.
            None if old.offsets.len() == nslots + 1 => {
                offsets.extend(old.offsets.iter().zip(&bucket).map(|(&o, &b)| o + b as usize));
            }
            // No old postings (a first batch): the staged ones alone.
            _ if old_len == 0 => offsets.extend(bucket.iter().map(|&b| b as usize)),
            _ => {
                let mut old_end = 0;
                for (slot, (&t, &b)) in vocab.slot_term.iter().zip(&bucket).enumerate() {
                    let old_slot = match &old_slots {
                        Some(o) => o.get(t as usize).copied(),
                        None => Some(slot as u32),
                    };
                    let old_start = match old_slot {
                        Some(os) => {
                            let r = old.range(os, os + 1);
                            old_end = r.end;
                            r.start
                        }
                        None => old_end,
                    };
                    offsets.push(old_start + b as usize);
                }
                offsets.push(old_len + staged.term.len());
            }
        }
        // The old postings go over in runs, from one slot with staged postings to the next,
        // into arrays of the final size (nothing zeroed first).
        let total = old_len + staged.term.len();
        let mut doc: Vec<u32> = Vec::with_capacity(total);
        let mut tf: Vec<u32> = Vec::with_capacity(total);
        let mut runs = OldRuns::new(&old, &dropped_at);
        for (w, &end) in bucket.windows(2).zip(offsets.iter().skip(1)) {
            let Some(mine) = order.get(w[0] as usize..w[1] as usize).filter(|m| !m.is_empty())
            else {
                continue;
            };
            // The end of this slot's old postings.
            runs.copy_to(end.saturating_sub(w[1] as usize), &mut doc, &mut tf);
            doc.extend(mine.iter().map(|&i| staged.doc.get(i as usize).copied().unwrap_or(0)));
            tf.extend(
                mine.iter().map(|&i| codes.get(i as usize).map_or(0, |&c| shift_code(c, shift))),
            );
        }
        runs.copy_to(old_len, &mut doc, &mut tf);
        // Full already, unless the staged postings were inconsistent.
        doc.shrink_to_fit();
        tf.shrink_to_fit();
        // The old pseudo-frequencies' array holds the new ones, once searches work them out.
        let pf = old.take_pf();
        drop(old);
        self.post = Postings::laid_out(offsets, doc, tf, pf, &spilled, factor, nf);
        add_stem_df(&mut self.vocab, &self.post, &bucket, n);
        group_spans(&self.doc_groups, self.group_names.len(), &mut self.group_spans);
        let budget = self.budget_for_size();
        self.cache.reset(budget);
    }

    /// The search cache's budget for the index as it is: the configured one, or the larger
    /// of [`DEFAULT_SEARCH_CACHE_BUDGET`] and the index's heap.
    fn budget_for_size(&self) -> usize {
        self.config
            .search_cache_budget
            .unwrap_or_else(|| DEFAULT_SEARCH_CACHE_BUDGET.max(self.heap_bytes()))
    }
}

/// Writes into `spans`, for each of `groups` group ids, the least and one past the greatest
/// ordinal of `doc_groups` in that group (`(u32::MAX, 0)` for none): one pass.
fn group_spans(doc_groups: &[u32], groups: usize, spans: &mut Vec<(u32, u32)>) {
    spans.clear();
    spans.resize(groups, (u32::MAX, 0));
    for (o, &g) in (0u32..).zip(doc_groups) {
        if let Some(s) = spans.get_mut(g as usize) {
            s.0 = s.0.min(o);
            s.1 = o + 1;
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
