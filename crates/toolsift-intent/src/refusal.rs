//! [`Refusal`]: why a search answers nothing, defined and worded once.

use std::fmt;

use toolsift_rank::{Abstention, Outcome, QueryTerm};
use toolsift_text::Origin;

/// The rule that refused a request.
///
/// The index decides some refusals itself ([`Reason::Index`], from its abstention rules); the
/// intent layer decides the others, from what the request names against what the catalog
/// offers.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The index abstained ([`Outcome::abstention`]): no searchable word, no known word,
    /// too few known words, or no document through its gate or score floor.
    Index(Abstention),
    /// The request names a service no connected tool belongs to, or an everyday thing no
    /// tool is named for ("order a pizza"): see [`IntentBuilder::known_services`].
    ///
    /// [`IntentBuilder::known_services`]: crate::IntentBuilder::known_services
    MissingService,
    /// The request names a connected service, but none of its tools does what is asked:
    /// see [`IntentBuilder::known_services`].
    ///
    /// [`IntentBuilder::known_services`]: crate::IntentBuilder::known_services
    NotOffered,
}

impl Reason {
    /// A stable word for the reason, for JSON output and logs: `no-terms`, `all-unknown`,
    /// `too-few-answerable`, `gate`, `floor`, `missing-service` or `not-offered` (`other`
    /// for an index reason this version does not know).
    ///
    /// ```
    /// use toolsift_intent::Reason;
    /// use toolsift_rank::Abstention;
    /// assert_eq!(Reason::Index(Abstention::NoTerms).code(), "no-terms");
    /// assert_eq!(Reason::NotOffered.code(), "not-offered");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            Reason::Index(Abstention::NoTerms) => "no-terms",
            Reason::Index(Abstention::AllUnknown) => "all-unknown",
            Reason::Index(Abstention::TooFewAnswerable) => "too-few-answerable",
            Reason::Index(Abstention::Gate) => "gate",
            Reason::Index(Abstention::Floor) => "floor",
            Reason::MissingService => "missing-service",
            Reason::NotOffered => "not-offered",
            Reason::Index(_) => "other",
        }
    }
}

/// Why a search answers nothing: the rule, and the words or services behind it.
///
/// One value carries a refusal from the index through the intent layer to a host: the
/// `toolsift` facade's results hold it, its listing text is made from it, and the
/// `toolsift` command prints its [`code`](Reason::code) and its sentence (`Display`).
///
/// ```
/// use toolsift_intent::{Reason, Refusal};
/// let why = Refusal::missing_service(vec!["pagerduty".into()]);
/// assert_eq!(why.reason(), Reason::MissingService);
/// assert_eq!(why.to_string(), "the catalog has no tools for pagerduty");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    reason: Reason,
    unknown: Vec<String>,
    filtered: Vec<String>,
    services: Vec<String>,
    not_offered: Option<(String, String)>,
}

impl Refusal {
    /// A refusal by the index's abstention rule `reason`, with the query terms no document
    /// contains (`unknown`) and those that matched documents the rules then dropped
    /// (`filtered`).
    pub fn by_index(reason: Abstention, unknown: Vec<String>, filtered: Vec<String>) -> Refusal {
        Refusal {
            reason: Reason::Index(reason),
            unknown,
            filtered,
            services: Vec::new(),
            not_offered: None,
        }
    }

    /// The refusal of an index outcome that abstained, quoting back only words the request
    /// wrote: not the words `added` to it ([`Request::added`](crate::Request::added)), nor a
    /// word the index joined from two (`login` for "log in"). `None` when the index did not
    /// abstain.
    pub fn of_outcome(query: &str, outcome: &Outcome, added: &[&str]) -> Option<Refusal> {
        let reason = outcome.abstention()?;
        let lower = query.to_lowercase();
        let written = |t: &&QueryTerm| {
            (t.origin() != Origin::Part || lower.contains(t.word())) && !added.contains(&t.word())
        };
        Some(Refusal::by_index(
            reason,
            outcome.unknown_terms().filter(written).map(|t| t.word().to_owned()).collect(),
            outcome.filtered_terms().filter(written).map(|t| t.word().to_owned()).collect(),
        ))
    }

    /// A refusal because the request names `services` (or an everyday thing) that no
    /// connected tool provides ([`Reason::MissingService`]).
    pub fn missing_service(services: Vec<String>) -> Refusal {
        Refusal {
            reason: Reason::MissingService,
            unknown: Vec::new(),
            filtered: Vec::new(),
            services,
            not_offered: None,
        }
    }

    /// A refusal because none of connected `service`'s tools matches `word`
    /// ([`Reason::NotOffered`]).
    pub fn not_offered(service: String, word: String) -> Refusal {
        Refusal {
            reason: Reason::NotOffered,
            unknown: Vec::new(),
            filtered: Vec::new(),
            services: Vec::new(),
            not_offered: Some((service, word)),
        }
    }

    /// The rule that refused.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// Query terms that occur in no document at all.
    pub fn unknown_terms(&self) -> &[String] {
        &self.unknown
    }

    /// Query terms that occur in some documents, all of which the index's abstention rules
    /// dropped.
    pub fn filtered_terms(&self) -> &[String] {
        &self.filtered
    }

    /// The services the request names that no connected tool provides, or the everyday thing
    /// no tool is named for (`pizza`); empty unless the reason is [`Reason::MissingService`].
    pub fn missing_services(&self) -> &[String] {
        &self.services
    }

    /// The connected service the request names and the word none of its tools matches: its
    /// most specific tool word, its verb, or the verb with the thing it acts on (`create
    /// release`); `None` unless the reason is [`Reason::NotOffered`].
    pub fn not_offered_word(&self) -> Option<(&str, &str)> {
        self.not_offered.as_ref().map(|(s, w)| (s.as_str(), w.as_str()))
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            Reason::Index(Abstention::NoTerms) => {
                f.write_str("the query has no searchable words")?
            }
            Reason::Index(Abstention::AllUnknown) => {
                f.write_str("no tool mentions any word of the query")?;
            }
            Reason::Index(Abstention::TooFewAnswerable) => {
                f.write_str("too few words of the query occur in any tool")?;
            }
            Reason::Index(Abstention::Gate) => {
                f.write_str("no tool matches the query's most specific words")?;
            }
            Reason::Index(Abstention::Floor) => {
                f.write_str("no tool comes close enough to the whole query")?;
            }
            Reason::MissingService => {
                write!(f, "the catalog has no tools for {}", self.services.join(", "))?;
            }
            Reason::NotOffered => match &self.not_offered {
                Some((service, word)) => write!(f, "no {service} tool matches {word:?}")?,
                None => f.write_str("the named service has no tool for this")?,
            },
            Reason::Index(_) => f.write_str("nothing fits the query")?,
        }
        if !self.unknown.is_empty() {
            write!(f, "; unknown: {}", self.unknown.join(", "))?;
        }
        if !self.filtered.is_empty() {
            write!(f, "; matched only weakly: {}", self.filtered.join(", "))?;
        }
        Ok(())
    }
}
