//! The intent [`Lexicon`]: groups of words an agent and an API use for the same thing, and a
//! bilingual word list, as data parsed once and looked up by stem.
//!
//! A ranker asks the lexicon, for each query term, which other words it may stand for
//! ([`Lexicon::expand`]), and matches them below an exact match. The data lives in
//! `data/lexicon.txt` (groups) and `data/bilingual.txt` (translations).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxBuildHasher;

use crate::analyzer::Analyzer;
use crate::cjk::is_cjk;
use crate::error::{Error, ErrorKind};
use crate::fold::fold;
use crate::token::Origin;

/// The built-in groups: one group a line, members separated by commas, `#` starts a comment.
pub(crate) const DEFAULT_GROUPS: &str = include_str!("../data/lexicon.txt");
/// The built-in bilingual list: `word = translation, translation` a line.
const DEFAULT_TRANSLATIONS: &str = include_str!("../data/bilingual.txt");

/// Default weight of each word of a member of several words (`pull request`), relative to a
/// member of one word (1).
pub const DEFAULT_PHRASE_WEIGHT: f32 = 0.5;
/// Default weight of a translation (relative to a group member, 1).
pub const DEFAULT_TRANSLATION_WEIGHT: f32 = 1.0;

/// One member of a group as written, or a translation line, before analysis.
#[derive(Debug, Clone)]
enum Raw {
    /// The members of one group.
    Group(Vec<String>),
    /// A source word and its translations.
    Translation(String, Vec<String>),
}

/// Builds a [`Lexicon`] from data in the formats of `data/lexicon.txt` and
/// `data/bilingual.txt`; frozen by [`build`](LexiconBuilder::build).
///
/// ```
/// use toolsift_text::Lexicon;
///
/// let lexicon = Lexicon::builder()
///     .groups("delete, remove, drop\npull request, pr, merge request")?
///     .translations("删除 = delete")?
///     .build();
/// let mut got = Vec::new();
/// lexicon.expand("pr", "pr", &mut |word, weight| got.push((word.to_owned(), weight)));
/// assert_eq!(got, [
///     ("pull".to_owned(), 0.5),
///     ("request".to_owned(), 0.5),
///     ("merge".to_owned(), 0.5),
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct LexiconBuilder {
    analyzer: Analyzer,
    raw: Vec<Raw>,
    phrase_weight: f32,
    translation_weight: f32,
}

impl Default for LexiconBuilder {
    fn default() -> Self {
        LexiconBuilder {
            analyzer: Analyzer::default(),
            raw: Vec::new(),
            phrase_weight: DEFAULT_PHRASE_WEIGHT,
            translation_weight: DEFAULT_TRANSLATION_WEIGHT,
        }
    }
}

impl LexiconBuilder {
    /// An empty builder with [`Analyzer::default`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The analyzer that turns members into words and stems. Use the ranker's analyzer: a
    /// query term is looked up by the stem that analyzer gives it.
    #[must_use]
    pub fn analyzer(mut self, analyzer: Analyzer) -> Self {
        self.analyzer = analyzer;
        self
    }

    /// The weight (clamped to `[0, 1]`; default 0.5) of each word of a member of several
    /// words.
    #[must_use]
    pub fn phrase_weight(mut self, weight: f32) -> Self {
        self.phrase_weight = clamp_unit(weight);
        self
    }

    /// The weight (clamped to `[0, 1]`; default 1) of a translation.
    #[must_use]
    pub fn translation_weight(mut self, weight: f32) -> Self {
        self.translation_weight = clamp_unit(weight);
        self
    }

    /// Adds the built-in groups and translations (`data/lexicon.txt`, `data/bilingual.txt`).
    #[must_use]
    pub fn default_data(mut self) -> Self {
        // The built-in data is tested to parse; a parse error could only drop it.
        if let Ok(with_groups) = self.clone().groups(DEFAULT_GROUPS) {
            self = with_groups;
        }
        if let Ok(with_translations) = self.clone().translations(DEFAULT_TRANSLATIONS) {
            self = with_translations;
        }
        self
    }

    /// Adds groups: one a line, members separated by commas, `#` starts a comment; a member
    /// may be several words (`look up`).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::GroupTooSmall`] for a line with fewer than two non-blank members.
    pub fn groups(mut self, text: &str) -> Result<Self, Error> {
        for (i, line) in data_lines(text) {
            let members: Vec<String> = line
                .split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect();
            if members.len() < 2 {
                return Err(Error::new(ErrorKind::GroupTooSmall, i));
            }
            self.raw.push(Raw::Group(members));
        }
        Ok(self)
    }

    /// Adds translations: `word = translation, translation` a line, `#` starts a comment. The
    /// word may be CJK text, which is matched through its character bigrams.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::MissingEquals`] for a line without `=`, [`ErrorKind::EmptySide`] for a
    /// line with nothing before `=` or no translation after it.
    pub fn translations(mut self, text: &str) -> Result<Self, Error> {
        for (i, line) in data_lines(text) {
            let (word, rest) =
                line.split_once('=').ok_or(Error::new(ErrorKind::MissingEquals, i))?;
            let targets: Vec<String> = rest
                .split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect();
            if word.trim().is_empty() || targets.is_empty() {
                return Err(Error::new(ErrorKind::EmptySide, i));
            }
            self.raw.push(Raw::Translation(word.trim().to_owned(), targets));
        }
        Ok(self)
    }

    /// Analyzes every member and freezes the lookup table.
    #[must_use]
    pub fn build(self) -> Lexicon {
        let mut pairs: Vec<(String, String, f32, u32)> = Vec::new();
        // (stem, entry) for the entries (groups and translations, numbered in data order) a
        // stem is a key of, and those it is a word of.
        let mut key_of: Vec<(String, u32)> = Vec::new();
        let mut word_of: Vec<(String, u32)> = Vec::new();
        let mut order = 0u32;
        let mut push = |key: &str, word: &str, weight: f32, pairs: &mut Vec<_>| {
            pairs.push((key.to_owned(), word.to_owned(), weight, order));
            order += 1;
        };
        for (entry, raw) in (0u32..).zip(&self.raw) {
            match raw {
                Raw::Group(members) => {
                    let members: Vec<Member> =
                        members.iter().filter_map(|m| Member::of(&self.analyzer, m)).collect();
                    for member in &members {
                        key_of.extend(member.keys().map(|k| (k.to_owned(), entry)));
                        word_of.extend(member.keys().map(|k| (k.to_owned(), entry)));
                        word_of.extend(
                            member
                                .words
                                .iter()
                                .filter(|(w, _)| member.emits(&self.analyzer, w))
                                .map(|(_, stem)| (stem.clone(), entry)),
                        );
                    }
                    for (i, from) in members.iter().enumerate() {
                        for key in from.keys() {
                            for (j, to) in members.iter().enumerate() {
                                if i == j {
                                    continue;
                                }
                                let weight = to.weight(self.phrase_weight);
                                for (word, stem) in &to.words {
                                    if stem != key && to.emits(&self.analyzer, word) {
                                        push(key, word, weight, &mut pairs);
                                    }
                                }
                            }
                        }
                    }
                }
                Raw::Translation(source, targets) => {
                    let mut keys = Vec::new();
                    self.analyzer.for_each_token(source, |t| {
                        if t.origin != Origin::Part {
                            keys.push(t.stem.to_owned());
                            // A CJK bigram is a piece of a word: it is looked up, but it does
                            // not say the translation the way a whole word does.
                            if t.origin == Origin::Whole {
                                key_of.push((t.stem.to_owned(), entry));
                            }
                        }
                    });
                    let share = 1.0 / keys.len().max(1) as f32;
                    for target in targets {
                        let Some(to) = Member::of(&self.analyzer, target) else { continue };
                        word_of.extend(
                            to.words
                                .iter()
                                .filter(|(w, _)| to.emits(&self.analyzer, w))
                                .map(|(_, stem)| (stem.clone(), entry)),
                        );
                        let weight =
                            self.translation_weight * to.weight(self.phrase_weight) * share;
                        for key in &keys {
                            for (word, stem) in &to.words {
                                if stem != key && to.emits(&self.analyzer, word) {
                                    push(key, word, weight, &mut pairs);
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut table = Table::from_pairs(pairs);
        table.key_of = Entries::new(key_of);
        table.word_of = Entries::new(word_of);
        Lexicon { inner: Arc::new(table) }
    }
}

/// A member analyzed: its words with their stems (parts of identifiers left out).
pub(crate) struct Member {
    words: Vec<(String, String)>,
    /// Whether the member is one word as written (not a phrase, not `e-mail`).
    single: bool,
    /// The stem of the member written together (`look up` → `lookup`, `e-mail` → `email`),
    /// for members of several words whose joined form is at least 4 characters.
    joined: Option<String>,
}

impl Member {
    pub(crate) fn of(analyzer: &Analyzer, text: &str) -> Option<Member> {
        let mut words = Vec::new();
        analyzer.for_each_token(text, |t| {
            if t.origin != Origin::Part {
                words.push((t.word.to_owned(), t.stem.to_owned()));
            }
        });
        if words.is_empty() {
            return None;
        }
        let folded = fold(text);
        let single = words.len() == 1 && folded.chars().all(char::is_alphanumeric);
        let compact: String = folded.chars().filter(|c| c.is_alphanumeric()).collect();
        let joined = (!single && compact.chars().count() >= 4 && !compact.chars().any(is_cjk))
            .then(|| analyzer.stem(&compact).into_owned());
        Some(Member { words, single, joined })
    }

    /// The stems a query term is looked up by: the stem of a one-word member, or the joined
    /// form of a member of several words.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        let single = match self.words.as_slice() {
            [(_, stem)] if self.single => Some(stem.as_str()),
            _ => None,
        };
        single.into_iter().chain(self.joined.as_deref())
    }

    /// Whether `word`, one of the member's words, is emitted as an expansion: not a
    /// stopword, and not an English particle of a phrase (`up` of `look up`).
    fn emits(&self, analyzer: &Analyzer, word: &str) -> bool {
        emittable(analyzer, word) && (self.single || !PARTICLES.contains(&word))
    }

    /// The weight of each of its words relative to a one-word member.
    fn weight(&self, phrase_weight: f32) -> f32 {
        if self.single { 1.0 } else { phrase_weight }
    }
}

/// The frozen lookup table: each key with a run of entries.
#[derive(Default)]
struct Table {
    /// Key stem to its (start, end) into `entries`: a hash table, as every query term is
    /// looked up (a binary search over the keys cost ten string comparisons a term).
    keys: HashMap<Box<str>, (u32, u32), FxBuildHasher>,
    /// (word, weight), in data order per key, each word once per key (its largest weight).
    entries: Vec<(Box<str>, f32)>,
    /// The entries (groups and translations) each stem is a key of.
    key_of: Entries,
    /// The entries each stem is a word of (a key, or a word a key emits).
    word_of: Entries,
}

/// Entry numbers by stem, each stem's ascending. A hash table: a query looks up each of its
/// terms (`toolsift-intent`'s name spelling), where a binary search over the stems cost
/// ten string comparisons.
#[derive(Default)]
struct Entries {
    by_stem: HashMap<Box<str>, Box<[u32]>, FxBuildHasher>,
}

impl Entries {
    fn new(mut pairs: Vec<(String, u32)>) -> Entries {
        pairs.sort();
        pairs.dedup();
        let mut by_stem: HashMap<Box<str>, Box<[u32]>, FxBuildHasher> = HashMap::default();
        let mut i = 0;
        while i < pairs.len() {
            let stem = pairs[i].0.clone();
            let start = i;
            while i < pairs.len() && pairs[i].0 == stem {
                i += 1;
            }
            let ids = pairs[start..i].iter().map(|(_, id)| *id).collect();
            by_stem.insert(stem.into_boxed_str(), ids);
        }
        Entries { by_stem }
    }

    fn get(&self, stem: &str) -> &[u32] {
        self.by_stem.get(stem).map_or(&[], |ids| ids)
    }
}

impl Table {
    fn from_pairs(mut pairs: Vec<(String, String, f32, u32)>) -> Table {
        // By key, then data order; a word repeated under a key keeps its largest weight at its
        // first position.
        pairs.sort_by(|a, b| a.0.cmp(&b.0).then(a.3.cmp(&b.3)));
        let mut table = Table::default();
        let mut i = 0;
        while i < pairs.len() {
            let key = pairs[i].0.clone();
            let start = table.entries.len();
            while i < pairs.len() && pairs[i].0 == key {
                let (_, word, weight, _) = &pairs[i];
                match table.entries[start..].iter_mut().find(|(w, _)| **w == **word) {
                    Some(entry) => entry.1 = entry.1.max(*weight),
                    None => table.entries.push((word.clone().into_boxed_str(), *weight)),
                }
                i += 1;
            }
            let end = table.entries.len();
            if end > start {
                table.keys.insert(key.into_boxed_str(), (to_u32(start), to_u32(end)));
            }
        }
        table
    }

    fn lookup(&self, stem: &str) -> &[(Box<str>, f32)] {
        self.keys
            .get(stem)
            .and_then(|&(start, end)| self.entries.get(start as usize..end as usize))
            .unwrap_or_default()
    }
}

/// An intent lexicon: for a query term, the words an API may use for the same thing.
///
/// Built by a [`LexiconBuilder`] from groups (`create, add, new, make`) and translations
/// (`创建 = create`). A query term is looked up by its stem: a one-word member, or the joined
/// form of a member of several words (`lookup` for `look up`), finds the other members of each
/// group it belongs to. Each member of one word is emitted at weight 1, each word of a member
/// of several words at the phrase weight (default 0.5); words with the term's own stem are not
/// emitted. A translation's source is matched through its analyzed words, or for CJK text its
/// character bigrams, each emitting the translations at the translation weight (default 1)
/// divided by the number of bigrams. Lookups are a hash lookup; cloning is one reference
/// count; a lexicon is `Send + Sync`.
///
/// [`Lexicon::default`] is the built-in data with [`Analyzer::default`].
///
/// ```
/// use toolsift_text::{Analyzer, Lexicon};
///
/// let lexicon = Lexicon::default();
/// let analyzer = Analyzer::default();
/// let mut words = Vec::new();
/// lexicon.expand("deleting", &analyzer.stem("deleting"), &mut |w, _| words.push(w.to_owned()));
/// assert!(words.iter().any(|w| w == "remove"));
/// ```
#[derive(Clone)]
pub struct Lexicon {
    inner: Arc<Table>,
}

impl Default for Lexicon {
    /// The built-in groups and translations, analyzed by [`Analyzer::default`]; built once per
    /// process and then cloned.
    fn default() -> Self {
        static DEFAULT: OnceLock<Lexicon> = OnceLock::new();
        DEFAULT.get_or_init(|| LexiconBuilder::new().default_data().build()).clone()
    }
}

impl fmt::Debug for Lexicon {
    /// A summary: the table holds thousands of entries.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lexicon")
            .field("keys", &self.inner.keys.len())
            .field("entries", &self.inner.entries.len())
            .finish()
    }
}

impl Lexicon {
    /// A builder.
    #[must_use]
    pub fn builder() -> LexiconBuilder {
        LexiconBuilder::new()
    }

    /// Calls `emit(word, weight)` for each word the query term (`word`, with stem `stem`
    /// under the lexicon's analyzer) may stand for, in data order, each word once, `weight` in
    /// `(0, 1]`. Only `stem` is looked up; `word` is accepted so that this has the shape of a
    /// ranker's expansion hook.
    pub fn expand(&self, word: &str, stem: &str, emit: &mut dyn FnMut(&str, f32)) {
        let _ = word;
        for (w, weight) in self.inner.lookup(stem) {
            if *weight > 0.0 {
                emit(w, *weight);
            }
        }
    }

    /// The words and weights [`expand`](Lexicon::expand) emits for `stem`.
    pub fn expansions(&self, stem: &str) -> impl Iterator<Item = (&str, f32)> + '_ {
        self.inner.lookup(stem).iter().filter(|(_, w)| *w > 0.0).map(|(w, x)| (&**w, *x))
    }

    /// The entries (groups, then translations, numbered from 0 in the order they were added)
    /// in which a query term with `stem` is looked up, ascending: a group with `stem` as a
    /// one-word member or as the joined form of a member of several words (`lookup` for
    /// `look up`), a translation with `stem` among its source's whole words (a CJK bigram, a
    /// piece of a word, is looked up by [`expand`](Lexicon::expand) but has no entry). What
    /// [`expand`](Lexicon::expand) emits for `stem` are words of these entries (of a group's
    /// other members; see [`word_entries`](Lexicon::word_entries)).
    ///
    /// ```
    /// use toolsift_text::{Analyzer, Lexicon};
    ///
    /// let lexicon = Lexicon::builder()
    ///     .groups("create, add, new\nget, fetch, look up\nsearch, lookup\npr, pull request")?
    ///     .build();
    /// let stem = |w: &str| Analyzer::default().stem(w).into_owned();
    /// assert_eq!(lexicon.key_entries(&stem("adding")), [0]);
    /// assert_eq!(lexicon.key_entries("lookup"), [1, 2]);
    /// // `pr` emits `pull` and `request`, but a query's `request` is not looked up in the group.
    /// assert_eq!(lexicon.word_entries(&stem("request")), [3]);
    /// assert!(lexicon.key_entries(&stem("request")).is_empty());
    /// assert!(lexicon.key_entries("unknown").is_empty());
    /// # Ok::<(), toolsift_text::Error>(())
    /// ```
    #[must_use]
    pub fn key_entries(&self, stem: &str) -> &[u32] {
        self.inner.key_of.get(stem)
    }

    /// The entries whose words include `stem`, ascending: the groups it is a member of or a
    /// word of a member of (`request` of `pull request`), the translations it is a target word
    /// of. A query term's [`expand`](Lexicon::expand) emits a word with `stem` only if the
    /// term's [`key_entries`](Lexicon::key_entries) and these share an entry; sharing one
    /// means the term and the word are in one group or translation (for a phrase, the term
    /// may be the phrase itself: `pullrequest` shares an entry with `pull`).
    #[must_use]
    pub fn word_entries(&self, stem: &str) -> &[u32] {
        self.inner.word_of.get(stem)
    }

    /// How many stems have expansions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner.keys.len()
    }

    /// Whether no stem has an expansion.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.inner.keys.is_empty()
    }
}

/// The non-blank lines of data without comments, with their 1-based line numbers.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or_default().trim()))
        .filter(|(_, line)| !line.is_empty())
}

/// Whether a member's word is worth emitting: not a stopword of the analyzer (a member's words
/// are analyzed as an identifier when written with `-`, so `on-call` keeps `on`) and at least
/// two characters long (`e` of `e-mail`), unless it is CJK.
/// The English particles of phrasal verbs (`look up`, `kick off`, `roll back`, `log in`).
///
/// A lexicon phrase does not emit them as expansions (`cancel` finds `hang` of `hang up`, not
/// `up`): alone they match any tool that says them. The ranker joins them to the word before
/// them in a query (`toolsift-rank`'s `IndexBuilder::join_particles`).
pub const PARTICLES: [&str; 9] = ["up", "down", "off", "out", "back", "in", "on", "over", "away"];

fn emittable(analyzer: &Analyzer, word: &str) -> bool {
    (word.chars().count() >= 2 || word.chars().any(is_cjk)) && !analyzer.is_stopword(word)
}

fn clamp_unit(weight: f32) -> f32 {
    if weight.is_nan() { 0.0 } else { weight.clamp(0.0, 1.0) }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
