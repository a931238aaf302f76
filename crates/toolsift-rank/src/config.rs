//! [`IndexBuilder`] and the frozen [`Config`] it produces.

use crate::error::Error;
use crate::expand::Expander;
use std::sync::Arc;
use toolsift_text::{Analyzer, Lexicon, Origin, available_cores};

/// Default field weights, in field order: `name`, `summary`, `details`.
pub const DEFAULT_FIELDS: [(&str, f32); 3] = [("name", 3.0), ("summary", 1.5), ("details", 1.0)];
/// The English particles [`IndexBuilder::join_particles`] joins to the word before them
/// (the intent lexicon's list: a lexicon phrase does not emit them as expansions either).
pub use toolsift_text::PARTICLES;

/// Default BM25 term-frequency saturation `k1`.
pub const DEFAULT_K1: f32 = 1.2;
/// Default BM25 length normalization `b` for fields that do not set their own.
pub const DEFAULT_B: f32 = 0.75;
/// Default weight of a same-stem match ([`Relation::Stem`]).
pub const DEFAULT_STEM_WEIGHT: f32 = 0.3;
/// Default weight of a stem-prefix match ([`Relation::Prefix`]).
pub const DEFAULT_PREFIX_WEIGHT: f32 = 0.3;
/// Default weight of a query-expansion match ([`Relation::Expansion`]), before the weight the
/// [`Expander`] gives the word.
pub const DEFAULT_EXPANSION_WEIGHT: f32 = 0.5;
/// Default weight of a typo match ([`Relation::Typo`]): the catalog word one edit away weighs
/// this, the other words of its stem this times the stem weight.
pub const DEFAULT_TYPO_WEIGHT: f32 = 0.3;
/// Default minimum length, in characters, of a query word that typo matching corrects.
pub const DEFAULT_TYPO_MIN_CHARS: usize = 5;
/// Default query weight of a word in the past tense ([`IndexBuilder::past_tense_weight`]).
pub const DEFAULT_PAST_TENSE_WEIGHT: f32 = 0.75;
/// Default minimum length, in characters, of the shorter stem of a prefix relation.
pub const DEFAULT_PREFIX_MIN_CHARS: usize = 4;
/// Default (and largest) number of distinct terms of a query that are scored.
pub const MAX_QUERY_TERMS: usize = 64;
/// The floor of the search cache's default budget, in bytes: 8 MiB. By default the budget is
/// this or the index's own heap ([`Index::heap_bytes`](crate::Index::heap_bytes)), whichever
/// is larger ([`IndexBuilder::search_cache_budget`]).
pub const DEFAULT_SEARCH_CACHE_BUDGET: usize = 8 << 20;
/// The weight of the `details` field in the tuned preset ([`IndexBuilder::tuned`]).
///
/// Parameter descriptions and enum values mention many things a tool does not do; at 0.5 they
/// stop outweighing the verb in a tool's name (`all` nDCG@10 0.685 at 1.0, 0.697 at 0.5;
/// docs/ranking.md).
pub const TUNED_DETAILS_WEIGHT: f32 = 0.5;
/// The weight of an intent-lexicon match ([`Relation::Expansion`]) in the tuned preset
/// ([`IndexBuilder::tuned`]).
///
/// `all` nDCG@10 0.659 without the lexicon, 0.685 at 0.2, 0.667 at 0.5 (docs/ranking.md).
pub const TUNED_LEXICON_WEIGHT: f32 = 0.2;

/// How a catalog term relates to a query term.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// The same word (after the analyzer's lowercasing and folding). Weight 1.
    Exact,
    /// A different word with the same stem (`repositories` for `repository`).
    Stem,
    /// A word whose stem extends the query term's stem by a prefix, or is extended by it, where
    /// the shorter stem has at least [`Config::prefix_min_chars`] characters (`repo` and
    /// `repository`). A shorter stem of a stem the catalog has is weighted also by its idf over
    /// that stem's, at most 1.
    Prefix,
    /// A catalog word one edit (a letter deleted, inserted, replaced, or two neighbours swapped)
    /// from a query word that the catalog and the expander do not know, starting with the
    /// same letter, or another word of its stem (`repositry` finds `repository`, and through
    /// its stem `repositories`); weighted by [`Config::typo_weight`], times the stem weight for
    /// the other words of the stem. See [`IndexBuilder::typo_min_chars`].
    Typo,
    /// A word an [`Expander`] proposed for the query term (a synonym, a translation), or a
    /// word with the same stem as one; weighted by [`Config::relation_weight`] times the weight
    /// the expander gave it. See [`IndexBuilder::expander`].
    Expansion,
}

impl Relation {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Relation::Exact => "exact",
            Relation::Stem => "same stem",
            Relation::Prefix => "stem prefix",
            Relation::Expansion => "expansion",
            Relation::Typo => "typo",
        }
    }
}

/// Coverage alternative of the gate: see [`IndexBuilder::coverage`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Coverage {
    /// Queries with at least this many answerable terms use the coverage rule.
    pub min_terms: usize,
    /// The fraction of the answerable terms a document must match, in `[0, 1]`.
    pub fraction: f32,
}

/// One field of the documents: a name, a weight and its length normalization `b`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FieldSpec {
    name: String,
    weight: f32,
    b: f32,
}

impl FieldSpec {
    /// The field's name, as documents refer to it.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The field's weight `w_f` in the BM25F pseudo-frequency.
    pub fn weight(&self) -> f32 {
        self.weight
    }
    /// The field's length normalization `b_f` in `[0, 1]`.
    pub fn b(&self) -> f32 {
        self.b
    }
}

/// The frozen configuration of an [`Index`](crate::Index); see [`IndexBuilder`] for each setting's meaning.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Config {
    pub(crate) fields: Vec<FieldSpec>,
    pub(crate) k1: f32,
    pub(crate) stem_weight: f32,
    pub(crate) prefix_weight: f32,
    #[cfg_attr(feature = "serde", serde(default = "default_expansion_weight"))]
    pub(crate) expansion_weight: f32,
    pub(crate) prefix_min_chars: usize,
    pub(crate) origin_weights: [f32; 3],
    pub(crate) query_origin_weights: [f32; 3],
    pub(crate) gate: bool,
    pub(crate) coverage: Option<Coverage>,
    pub(crate) min_answerable: f32,
    #[cfg_attr(feature = "serde", serde(default = "default_own_match"))]
    pub(crate) require_own_match: bool,
    pub(crate) min_relative_score: f32,
    pub(crate) max_query_terms: usize,
    #[cfg_attr(feature = "serde", serde(default = "default_own_match"))]
    pub(crate) join_particles: bool,
    #[cfg_attr(feature = "serde", serde(default = "default_typo_weight"))]
    pub(crate) typo_weight: f32,
    #[cfg_attr(feature = "serde", serde(default = "default_typo_min_chars"))]
    pub(crate) typo_min_chars: usize,
    #[cfg_attr(feature = "serde", serde(default = "default_past_tense_weight"))]
    pub(crate) past_tense_weight: f32,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) search_cache_budget: Option<usize>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) threads: usize,
}

#[cfg(feature = "serde")]
fn default_typo_weight() -> f32 {
    DEFAULT_TYPO_WEIGHT
}

#[cfg(feature = "serde")]
fn default_typo_min_chars() -> usize {
    DEFAULT_TYPO_MIN_CHARS
}

#[cfg(feature = "serde")]
fn default_past_tense_weight() -> f32 {
    DEFAULT_PAST_TENSE_WEIGHT
}

#[cfg(feature = "serde")]
fn default_expansion_weight() -> f32 {
    DEFAULT_EXPANSION_WEIGHT
}

#[cfg(feature = "serde")]
fn default_own_match() -> bool {
    true
}

impl Default for Config {
    fn default() -> Config {
        Config {
            fields: DEFAULT_FIELDS
                .iter()
                .map(|&(name, weight)| FieldSpec { name: name.to_owned(), weight, b: DEFAULT_B })
                .collect(),
            k1: DEFAULT_K1,
            stem_weight: DEFAULT_STEM_WEIGHT,
            prefix_weight: DEFAULT_PREFIX_WEIGHT,
            expansion_weight: DEFAULT_EXPANSION_WEIGHT,
            prefix_min_chars: DEFAULT_PREFIX_MIN_CHARS,
            origin_weights: [1.0; 3],
            query_origin_weights: [1.0; 3],
            gate: false,
            coverage: None,
            min_answerable: 0.0,
            require_own_match: true,
            min_relative_score: 0.0,
            max_query_terms: MAX_QUERY_TERMS,
            join_particles: true,
            typo_weight: DEFAULT_TYPO_WEIGHT,
            typo_min_chars: DEFAULT_TYPO_MIN_CHARS,
            past_tense_weight: DEFAULT_PAST_TENSE_WEIGHT,
            search_cache_budget: None,
            threads: 0,
        }
    }
}

/// The slot of an [`Origin`] in the weight tables; origins added later weigh like `Whole`.
pub(crate) fn origin_slot(origin: Origin) -> usize {
    match origin {
        Origin::Part => 1,
        Origin::Bigram => 2,
        _ => 0,
    }
}

impl Config {
    /// The fields, in their fixed order.
    pub fn fields(&self) -> &[FieldSpec] {
        &self.fields
    }
    /// The position of the field called `name`.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
    /// BM25 saturation `k1`.
    pub fn k1(&self) -> f32 {
        self.k1
    }
    /// The weight of a relation: 1 for [`Relation::Exact`].
    pub fn relation_weight(&self, relation: Relation) -> f32 {
        match relation {
            Relation::Exact => 1.0,
            Relation::Stem => self.stem_weight,
            Relation::Prefix => self.prefix_weight,
            Relation::Expansion => self.expansion_weight,
            Relation::Typo => self.typo_weight,
        }
    }
    /// The weight of a typo match (0: typo matching is off); the other words of a corrected
    /// word's stem weigh this times the stem weight.
    pub fn typo_weight(&self) -> f32 {
        self.typo_weight
    }
    /// Minimum characters of a query word that typo matching corrects.
    pub fn typo_min_chars(&self) -> usize {
        self.typo_min_chars
    }
    /// The query weight of a whole word in the past tense, relative to the word's origin
    /// weight.
    pub fn past_tense_weight(&self) -> f32 {
        self.past_tense_weight
    }
    /// The most heap bytes the index's search cache may hold, if set
    /// ([`IndexBuilder::search_cache_budget`]); `None` for the default, which follows the
    /// index's size ([`Index::search_cache_budget`](crate::Index::search_cache_budget) gives
    /// the bytes). A configuration saved when the default was a fixed 8 MiB holds that number,
    /// so an index saved then keeps 8 MiB when loaded.
    pub fn search_cache_budget(&self) -> Option<usize> {
        self.search_cache_budget
    }
    /// The most threads an update analyzes a batch on, 0 for all cores
    /// ([`IndexBuilder::threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// The most threads an update uses: [`threads`](Self::threads), or for 0 the machine's
    /// cores (asked once per process).
    pub fn parallelism(&self) -> usize {
        if self.threads == 0 { available_cores() } else { self.threads }
    }
    /// Minimum characters of the shorter stem in a [`Relation::Prefix`].
    pub fn prefix_min_chars(&self) -> usize {
        self.prefix_min_chars
    }
    /// The weight of one document token of this origin (its contribution to tf and length).
    pub fn origin_weight(&self, origin: Origin) -> f32 {
        self.origin_weights[origin_slot(origin)]
    }
    /// The weight of a query term of this origin (a factor on its score).
    pub fn query_origin_weight(&self, origin: Origin) -> f32 {
        self.query_origin_weights[origin_slot(origin)]
    }
    /// Whether the gate (the most specific answerable term) is on.
    pub fn gate(&self) -> bool {
        self.gate
    }
    /// The coverage rule, if on.
    pub fn coverage(&self) -> Option<Coverage> {
        self.coverage
    }
    /// The minimum fraction of a query's terms that must be answerable (0 = off).
    pub fn min_answerable(&self) -> f32 {
        self.min_answerable
    }
    /// Whether a query needs one of its own words (or their same-stem and prefix forms) in the
    /// index to be answered, rather than expansion forms alone.
    pub fn require_own_match(&self) -> bool {
        self.require_own_match
    }
    /// Whether a verb followed by a particle in the query also counts written as one word
    /// ("log in" → `login`).
    pub fn join_particles(&self) -> bool {
        self.join_particles
    }
    /// The minimum score relative to the query's best possible score (0 = off).
    pub fn min_relative_score(&self) -> f32 {
        self.min_relative_score
    }
    /// How many distinct query terms are scored at most.
    pub fn max_query_terms(&self) -> usize {
        self.max_query_terms
    }

    pub(crate) fn validate(&self) -> Result<(), Error> {
        fn unit(setting: &'static str, v: f32) -> Result<(), Error> {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(Error::config(setting, format!("{v} is not in [0, 1]")))
            }
        }
        fn non_negative(setting: &'static str, v: f32) -> Result<(), Error> {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(Error::config(setting, format!("{v} is not a finite number >= 0")))
            }
        }
        if self.fields.is_empty() {
            return Err(Error::config("fields", "an index needs at least one field"));
        }
        if self.fields.len() > 32 {
            return Err(Error::config("fields", "at most 32 fields are supported"));
        }
        for (i, f) in self.fields.iter().enumerate() {
            if self.fields[..i].iter().any(|g| g.name == f.name) {
                return Err(Error::config(
                    "fields",
                    format!("field `{}` is declared twice", f.name),
                ));
            }
            non_negative("field weight", f.weight)?;
            unit("field b", f.b)?;
        }
        non_negative("k1", self.k1)?;
        unit("stem weight", self.stem_weight)?;
        unit("prefix weight", self.prefix_weight)?;
        unit("expansion weight", self.expansion_weight)?;
        unit("typo weight", self.typo_weight)?;
        if self.prefix_min_chars == 0 {
            return Err(Error::config("prefix_min_chars", "must be at least 1"));
        }
        for &w in &self.origin_weights {
            unit("origin weight", w)?;
        }
        for &w in &self.query_origin_weights {
            non_negative("query origin weight", w)?;
        }
        if let Some(c) = self.coverage {
            unit("coverage fraction", c.fraction)?;
        }
        unit("min_answerable", self.min_answerable)?;
        unit("min_relative_score", self.min_relative_score)?;
        if self.max_query_terms == 0 || self.max_query_terms > MAX_QUERY_TERMS {
            return Err(Error::config(
                "max_query_terms",
                format!("must be in 1..={MAX_QUERY_TERMS}"),
            ));
        }
        Ok(())
    }
}

/// Configures and creates an empty [`Index`](crate::Index); the configuration is frozen by [`build`].
///
/// Every setting has a default (see the `DEFAULT_*` constants); a fresh builder gives the
/// fields `name` (weight 3.0), `summary` (1.5) and `details` (1.0), `k1` 1.2, `b` 0.75, relation
/// weights 0.3 (stem, prefix) and 0.5 (expansion), origin weights 1.0, no expander, and
/// abstention only when no query term occurs in the index.
///
/// [`build`]: IndexBuilder::build
///
/// # Example
///
/// ```
/// use toolsift_rank::{Index, Relation};
/// let index = Index::builder()
///     .clear_fields()
///     .field("title", 2.0)
///     .field("body", 1.0)
///     .field_b("body", 0.5)
///     .k1(1.5)
///     .relation_weight(Relation::Prefix, 0.2)
///     .gate(true)
///     .build()?;
/// assert_eq!(index.config().fields()[1].b(), 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct IndexBuilder {
    config: Config,
    /// Fields whose `b` was set explicitly; the others take the default `b` at build time.
    explicit_b: Vec<bool>,
    default_b: f32,
    analyzer: Analyzer,
    expander: Option<Arc<dyn Expander>>,
}

impl Default for IndexBuilder {
    fn default() -> IndexBuilder {
        IndexBuilder {
            config: Config::default(),
            explicit_b: vec![false; DEFAULT_FIELDS.len()],
            default_b: DEFAULT_B,
            analyzer: Analyzer::default(),
            expander: None,
        }
    }
}

impl IndexBuilder {
    /// A builder with the default configuration and [`Analyzer::default`].
    pub fn new() -> IndexBuilder {
        IndexBuilder::default()
    }

    /// The tuned preset: the ranking `cargo xtask eval` measures and the `toolsift` facade
    /// uses. The defaults, with the `details` field at [`TUNED_DETAILS_WEIGHT`] and the
    /// built-in intent lexicon ([`Lexicon::default`]) as the query expander at
    /// [`TUNED_LEXICON_WEIGHT`].
    ///
    /// Start from this to change one setting and keep the others. The lexicon is keyed by
    /// the stems of the default analyzer: with another analyzer, build a lexicon with it
    /// (`Lexicon::builder().analyzer(..).default_data().build()`) and set it as the expander.
    ///
    /// ```
    /// use toolsift_rank::{Document, Index, Relation};
    /// let mut index = Index::tuned().build()?;
    /// assert_eq!(index.config().relation_weight(Relation::Expansion), 0.2);
    /// index.add([Document::new().field("name", "remove_file").field("summary", "Remove a file.")])?;
    /// // The lexicon knows that deleting is removing.
    /// assert_eq!(index.search("delete a file", 1).hits().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tuned() -> IndexBuilder {
        IndexBuilder::new()
            .field("details", TUNED_DETAILS_WEIGHT)
            .relation_weight(Relation::Expansion, TUNED_LEXICON_WEIGHT)
            .expander(Arc::new(Lexicon::default()))
    }

    /// A builder starting from an existing configuration (e.g. [`Index::config`](crate::Index::config)).
    pub fn from_config(config: Config) -> IndexBuilder {
        let explicit_b = vec![true; config.fields.len()];
        IndexBuilder {
            config,
            explicit_b,
            default_b: DEFAULT_B,
            analyzer: Analyzer::default(),
            expander: None,
        }
    }

    /// The analyzer used for documents and queries alike.
    pub fn analyzer(mut self, analyzer: Analyzer) -> IndexBuilder {
        self.analyzer = analyzer;
        self
    }

    /// A query expander (default none): for every query term, the words it emits become extra
    /// forms of the term ([`Relation::Expansion`]). See [`Expander`] for the rules.
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use toolsift_rank::{Document, Expander, Index};
    ///
    /// /// `delete` also means `remove`.
    /// #[derive(Debug)]
    /// struct Synonyms;
    /// impl Expander for Synonyms {
    ///     fn expand(&self, word: &str, _stem: &str, emit: &mut dyn FnMut(&str, f32)) {
    ///         if word == "delete" {
    ///             emit("remove", 1.0);
    ///         }
    ///     }
    /// }
    ///
    /// let mut index = Index::builder().expander(Arc::new(Synonyms)).build()?;
    /// let ids = index.add([Document::new().field("name", "remove_file")])?;
    /// assert_eq!(index.search("delete file", 5).hits()[0].doc(), ids[0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn expander(mut self, expander: Arc<dyn Expander>) -> IndexBuilder {
        self.expander = Some(expander);
        self
    }

    /// Removes every field, including the default ones.
    pub fn clear_fields(mut self) -> IndexBuilder {
        self.config.fields.clear();
        self.explicit_b.clear();
        self
    }

    /// Sets the weight of field `name`, appending the field if it does not exist yet.
    ///
    /// Fields keep the order in which they were first declared.
    pub fn field(mut self, name: &str, weight: f32) -> IndexBuilder {
        match self.config.field_index(name) {
            Some(i) => self.config.fields[i].weight = weight,
            None => {
                self.config.fields.push(FieldSpec { name: name.to_owned(), weight, b: DEFAULT_B });
                self.explicit_b.push(false);
            }
        }
        self
    }

    /// Sets the length normalization `b` of field `name` (appending it with weight 1 if new).
    pub fn field_b(mut self, name: &str, b: f32) -> IndexBuilder {
        if self.config.field_index(name).is_none() {
            self = self.field(name, 1.0);
        }
        if let Some(i) = self.config.field_index(name) {
            self.config.fields[i].b = b;
            self.explicit_b[i] = true;
        }
        self
    }

    /// BM25 saturation `k1` (>= 0; default 1.2).
    pub fn k1(mut self, k1: f32) -> IndexBuilder {
        self.config.k1 = k1;
        self
    }

    /// The default `b` (in `[0, 1]`; default 0.75) of fields without their own [`field_b`].
    ///
    /// [`field_b`]: IndexBuilder::field_b
    pub fn b(mut self, b: f32) -> IndexBuilder {
        self.default_b = b;
        self
    }

    /// The weight (in `[0, 1]`) of a related-term match: default 0.3 for [`Relation::Stem`] and
    /// [`Relation::Prefix`], 0.5 for [`Relation::Expansion`] (multiplied by the weight the
    /// expander gives each word) and 0.3 for [`Relation::Typo`] (multiplied by the stem weight
    /// for the other words of a corrected word's stem).
    ///
    /// [`Relation::Exact`] always weighs 1; setting it is ignored.
    pub fn relation_weight(mut self, relation: Relation, weight: f32) -> IndexBuilder {
        match relation {
            Relation::Exact => {}
            Relation::Stem => self.config.stem_weight = weight,
            Relation::Prefix => self.config.prefix_weight = weight,
            Relation::Expansion => self.config.expansion_weight = weight,
            Relation::Typo => self.config.typo_weight = weight,
        }
        self
    }

    /// Minimum characters (default 5) of a query word that typo matching corrects.
    ///
    /// A query word of at least this many lowercase ASCII letters and digits, that neither
    /// the catalog (by the word or its stem) nor the expander knows, matches the catalog words
    /// one edit away from it that start with the same letter, and the other words of their
    /// stems ([`Relation::Typo`], weighted by
    /// [`relation_weight`](IndexBuilder::relation_weight)`(Relation::Typo, w)`, default 0.3;
    /// 0 turns typo matching off). Shorter words are left alone: most words of four letters
    /// or fewer are one edit from several others.
    pub fn typo_min_chars(mut self, chars: usize) -> IndexBuilder {
        self.config.typo_min_chars = chars;
        self
    }

    /// Minimum characters (default 4) of the shorter stem of a [`Relation::Prefix`].
    pub fn prefix_min_chars(mut self, chars: usize) -> IndexBuilder {
        self.config.prefix_min_chars = chars;
        self
    }

    /// The weight (in `[0, 1]`; default 1) of one document token of this origin.
    ///
    /// A token adds its origin's weight to its term's frequency and to the field's length, so a
    /// [`Origin::Part`] at 0.5 counts as half an occurrence and half a word of length.
    pub fn origin_weight(mut self, origin: Origin, weight: f32) -> IndexBuilder {
        self.config.origin_weights[origin_slot(origin)] = weight;
        self
    }

    /// The weight (>= 0; default 1) of a query term of this origin, a factor on its score.
    ///
    /// A word that occurs several times in a query takes the largest weight of its origins.
    pub fn query_origin_weight(mut self, origin: Origin, weight: f32) -> IndexBuilder {
        self.config.query_origin_weights[origin_slot(origin)] = weight;
        self
    }

    /// The gate (default off): a document must match the query's most specific answerable
    /// term (the highest IDF among the terms that occur in the index) to be returned, unless it
    /// passes the [`coverage`](IndexBuilder::coverage) rule.
    pub fn gate(mut self, on: bool) -> IndexBuilder {
        self.config.gate = on;
        self
    }

    /// The coverage rule (default off): for queries with at least `min_terms` answerable terms,
    /// a document must match at least `fraction` of them.
    ///
    /// With the gate on, a document passes if it matches the gate term OR meets the coverage;
    /// with the gate off, coverage alone filters long queries.
    pub fn coverage(mut self, min_terms: usize, fraction: f32) -> IndexBuilder {
        self.config.coverage = Some(Coverage { min_terms, fraction });
        self
    }

    /// Turns the coverage rule off.
    pub fn no_coverage(mut self) -> IndexBuilder {
        self.config.coverage = None;
        self
    }

    /// Abstain when fewer than this fraction (in `[0, 1]`; default 0 = off) of the query's
    /// scored terms occur in the index.
    ///
    /// At 0.5 or below, one unknown word in a query of two or more terms never abstains alone.
    pub fn min_answerable(mut self, fraction: f32) -> IndexBuilder {
        self.config.min_answerable = fraction;
        self
    }

    /// Abstain ([`Abstention::AllUnknown`](crate::Abstention::AllUnknown)) when none of the
    /// query's words occurs in the index by its own forms (the word, its same-stem and prefix
    /// forms) and only [`Expander`] forms match (default on).
    ///
    /// An expansion bridges an agent's word to an API's word; when not one word the user wrote
    /// occurs in any tool ("book a flight to Lisbon"), expansions alone give coincidences, not
    /// answers. CJK bigram terms are exempt: a Chinese query reaches English tools only through
    /// the bilingual expansions.
    pub fn require_own_match(mut self, on: bool) -> IndexBuilder {
        self.config.require_own_match = on;
        self
    }

    /// Also search a query word followed by an English particle ([`PARTICLES`]: up, down, off,
    /// out, back, in, on, over, away) as the two written together, as a term of its own at the
    /// query weight of a word part (default on).
    ///
    /// APIs write phrasal verbs as one word (`login`, `logout`, `setup`, `lookup`, `rollback`,
    /// `shutdown`, `checkout`) and the intent lexicon lists some as one word (`teardown`,
    /// `hangup`); agents write them apart ("log in", "tear down", "hang up"). The joined form
    /// matches those tools and lexicon entries; the word still counts on its own, the particle
    /// no longer does (alone, `up` or `down` matches any tool that says it).
    pub fn join_particles(mut self, on: bool) -> IndexBuilder {
        self.config.join_particles = on;
        self
    }

    /// The query weight (clamped to `[0, 1]`; default 0.75) of a whole word in the past tense,
    /// as a factor of its origin's query weight
    /// ([`is_past_tense`](toolsift_text::is_past_tense): `uploaded`, `assigned`, `failed`).
    ///
    /// A past-tense word describes what happened or the state a thing is in ("the files I
    /// uploaded", "tickets assigned to me", "rerun the failed jobs"), not the action asked
    /// for: it still matches, at a lower weight than the words of the request. 1 treats it
    /// like any word.
    pub fn past_tense_weight(mut self, weight: f32) -> IndexBuilder {
        self.config.past_tense_weight = if weight.is_nan() { 1.0 } else { weight.clamp(0.0, 1.0) };
        self
    }

    /// Drop documents scoring below this fraction (in `[0, 1]`; default 0 = off) of the query's
    /// best possible score, `Σ idf × query weight × (k1 + 1)` over its answerable terms.
    pub fn min_relative_score(mut self, fraction: f32) -> IndexBuilder {
        self.config.min_relative_score = fraction;
        self
    }

    /// The most heap bytes (0 = no cache) the index may keep of what searches work out from
    /// it alone, until its next update. By default the budget follows the index: the larger
    /// of [`DEFAULT_SEARCH_CACHE_BUDGET`] (8 MiB) and the index's own heap
    /// ([`Index::heap_bytes`](crate::Index::heap_bytes)) as of its last update, so past 8
    /// MiB the cache holds at most as much as the index itself; a budget set here holds at
    /// every size.
    /// The merged lists of a catalog's common words grow with the catalog: the 390 tuning
    /// queries' lists take about 2 MB on 4,000 tools and 83 MB on 100,000, where 8 MiB kept
    /// only the first few and a query took about 1.6 times as long (1.9 times the
    /// instructions).
    ///
    /// A query word is many catalog words: itself, the other words of its stem, the words it
    /// is a prefix of, its expansions or its typo corrections (`look up` is twenty words and
    /// about 5,000 postings on 4,000 tools). The first search with a word works them out
    /// and the index keeps them; the next search with a word of many postings (two slots or
    /// more, 64 postings or more) also sums its postings into one merged list (each document
    /// once, with its pseudo-frequency summed over the forms, saturated), kept too. Later
    /// searches with the word look it up once, read one list instead of many, find a
    /// surviving candidate in it by binary search, and bound the word's score by what a
    /// document really gets from it.
    ///
    /// Results never depend on the cache: it holds what a search would compute, in the same
    /// `f32` bits, and a search that finds nothing there (the budget is spent) computes it.
    /// Nothing more is kept once the budget is reached; every update empties the cache, and
    /// a clone of the index starts with an empty one;
    /// [`Index::search_cache_bytes`](crate::Index::search_cache_bytes) counts it.
    pub fn search_cache_budget(mut self, bytes: usize) -> IndexBuilder {
        self.config.search_cache_budget = Some(bytes);
        self
    }

    /// The most threads an update (a build, a replacement) analyzes its documents on; 0, the
    /// default, for as many as the machine has cores.
    ///
    /// A batch of 512 documents or more (and 512 KiB of text or more: a build, not the update
    /// of one server) is analyzed in parts, one thread each, of at least 256 documents and
    /// 256 KiB; what it indexes is the same, bit for bit, with any number of threads (the
    /// vocabulary's ids included). 1 analyzes every batch on the calling thread, and so does
    /// an update whose thread cannot be started (a platform without threads). The threads are
    /// scoped: they end before the update returns. Searches are not affected: each runs on its
    /// caller's thread.
    pub fn threads(mut self, threads: usize) -> IndexBuilder {
        self.config.threads = threads;
        self
    }

    /// How many distinct query terms are scored (1..=64; default 64): later ones are ignored.
    pub fn max_query_terms(mut self, n: usize) -> IndexBuilder {
        self.config.max_query_terms = n;
        self
    }
}

/// What [`IndexBuilder::build`] makes an index of: the frozen configuration, the analyzer and
/// the expander.
pub(crate) type Frozen = (Config, Analyzer, Option<Arc<dyn Expander>>);

impl IndexBuilder {
    /// The configuration frozen: every field without a `b` of its own takes the default `b`,
    /// and every setting is checked.
    pub(crate) fn freeze(self) -> Result<Frozen, Error> {
        let mut config = self.config;
        for (f, &explicit) in config.fields.iter_mut().zip(&self.explicit_b) {
            if !explicit {
                f.b = self.default_b;
            }
        }
        if !(0.0..=1.0).contains(&self.default_b) {
            return Err(Error::config("b", format!("{} is not in [0, 1]", self.default_b)));
        }
        config.validate()?;
        Ok((config, self.analyzer, self.expander))
    }
}
