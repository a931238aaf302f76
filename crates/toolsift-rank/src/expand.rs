//! [`Expander`]: the query-expansion hook (synonyms, translations, an intent lexicon).

use std::fmt::Debug;

/// Proposes extra words for a query term, such as synonyms from an intent lexicon.
///
/// Set with [`IndexBuilder::expander`](crate::IndexBuilder::expander). For each distinct query
/// term the index calls [`expand`](Expander::expand) once with the term's analyzed word and
/// stem; each word passed to `emit` becomes an extra form of that term:
///
/// - The emitted word must be one analyzed term, as the index's analyzer produces them
///   (lowercased and folded, a single word). The index looks up the word and, through the
///   analyzer's stemmer, every catalog word with the same stem; all of them are forms of the
///   query term with [`Relation::Expansion`](crate::Relation::Expansion), weighted by the
///   configured expansion weight (default 0.5) times the emitted weight. Emitted weights are
///   clamped to `[0, 1]`; a weight that is not a positive number, an empty word and the term's
///   own word are ignored.
/// - A catalog word that is already a form of the term (exact, same stem, stem prefix) keeps
///   its relation; a word reached by several emitted words keeps the largest weight.
/// - Expansion forms add to the term's pseudo-frequency before saturation, like the other
///   related forms, so a document that says both the word and its synonym does not count
///   twice at full weight.
/// - Expansion forms never change the document frequency of a term the catalog contains
///   (through its exact, same-stem or prefix forms): a rare word does not become common
///   through its synonyms. A term that occurs ONLY through its expansions takes its document
///   frequency from them (the documents containing any expansion form), since it has no rarity
///   of its own.
/// - A term is answerable (it counts for the gate, the coverage and the best possible score)
///   only if some document actually contains one of its forms. An expansion that matches no
///   document leaves an unknown term unknown.
///
/// Implementations must be deterministic: the same word and stem always emit the same words
/// in the same order. The index keeps what it works out from them in its search cache
/// ([`IndexBuilder::search_cache_budget`](crate::IndexBuilder::search_cache_budget)) until its
/// next update, so an expander is not asked again for a word it has answered.
///
/// # Example
///
/// ```
/// use toolsift_rank::Expander;
///
/// /// A tiny lexicon.
/// #[derive(Debug)]
/// struct Lexicon(Vec<(&'static str, &'static str, f32)>);
///
/// impl Expander for Lexicon {
///     fn expand(&self, word: &str, _stem: &str, emit: &mut dyn FnMut(&str, f32)) {
///         for &(from, to, weight) in &self.0 {
///             if from == word {
///                 emit(to, weight);
///             }
///         }
///     }
/// }
///
/// let lexicon = Lexicon(vec![("delete", "remove", 1.0), ("delete", "drop", 0.8)]);
/// let mut got = Vec::new();
/// lexicon.expand("delete", "delet", &mut |w, x| got.push((w.to_owned(), x)));
/// assert_eq!(got, [("remove".to_owned(), 1.0), ("drop".to_owned(), 0.8)]);
/// ```
pub trait Expander: Send + Sync + Debug {
    /// Calls `emit(word, weight)` for each extra word of the query term `word` (with stem
    /// `stem`), `weight` in `[0, 1]`.
    fn expand(&self, word: &str, stem: &str, emit: &mut dyn FnMut(&str, f32));

    /// Ids of the entries (synonym groups, translations) in which a query term with stem
    /// `stem` is looked up; ids are only compared with [`word_entries`](Expander::word_entries).
    /// The index does not call it; a caller may, to tell cheaply whether a term expands to a
    /// word, without expanding it. The default: none.
    fn key_entries(&self, stem: &str) -> &[u32] {
        let _ = stem;
        &[]
    }

    /// Ids of the entries that emit words with stem `stem`. A term whose
    /// [`key_entries`](Expander::key_entries) share no id with these never expands to such a
    /// word; one that shares an id is related to it by the expander (for the intent lexicon:
    /// one group or translation). The default: none.
    fn word_entries(&self, stem: &str) -> &[u32] {
        let _ = stem;
        &[]
    }
}

/// The intent lexicon of `toolsift-text` is an expander: each query term's stem is looked up in
/// its groups and word list (see [`toolsift_text::Lexicon`]).
///
/// ```
/// use std::sync::Arc;
/// use toolsift_rank::{Document, Index, Relation};
/// use toolsift_text::Lexicon;
///
/// let mut index = Index::builder()
///     .expander(Arc::new(Lexicon::default()))
///     .relation_weight(Relation::Expansion, 0.2)
///     .build()?;
/// let ids = index.add([
///     Document::new().field("name", "remove_file"),
///     Document::new().field("name", "read_file"),
/// ])?;
/// // `delete` is not in the catalog; the lexicon knows it as `remove`.
/// assert_eq!(index.search("delete file", 5).hits()[0].doc(), ids[0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Expander for toolsift_text::Lexicon {
    fn expand(&self, word: &str, stem: &str, emit: &mut dyn FnMut(&str, f32)) {
        toolsift_text::Lexicon::expand(self, word, stem, emit);
    }

    fn key_entries(&self, stem: &str) -> &[u32] {
        toolsift_text::Lexicon::key_entries(self, stem)
    }

    fn word_entries(&self, stem: &str) -> &[u32] {
        toolsift_text::Lexicon::word_entries(self, stem)
    }
}
