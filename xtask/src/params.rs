//! Ranking-setting overrides for one eval run (`--set KEY=VALUE`, `TOOLSIFT_EVAL_SET`).
//!
//! They let a sweep of `k1`, `b`, field weights, relation and origin weights and the abstention
//! settings (and the facade's enum limit, action and service agreement and implied words) run without editing the facade: each override is applied, in order, to the
//! facade's default ranking (the tuned preset, [`Index::tuned`]). With no overrides the
//! builder is exactly `ToolSearch::builder()`, so the numbers are those of the defaults in code.
//! `relation.expansion=0` turns the intent lexicon off.

use toolsift::rank::Relation;
use toolsift::text::{Analyzer, Origin};
use toolsift::{Index, ToolSearch, ToolSearchBuilder};

use crate::Result;

/// The environment variable read for overrides (comma-separated `KEY=VALUE` pairs).
pub(crate) const ENV: &str = "TOOLSIFT_EVAL_SET";

/// The overrides of the environment variable [`ENV`] (none when unset or blank).
pub(crate) fn from_env() -> Result<Vec<(String, String)>> {
    match std::env::var(ENV) {
        Ok(text) => parse_list(&text),
        Err(std::env::VarError::NotPresent) => Ok(Vec::new()),
        Err(e) => Err(format!("{ENV}: {e}").into()),
    }
}

/// Parses comma-separated `KEY=VALUE` pairs (blank pieces are skipped).
pub(crate) fn parse_list(text: &str) -> Result<Vec<(String, String)>> {
    text.split(',').filter(|p| !p.trim().is_empty()).map(crate::flags::setting).collect()
}

/// The facade's default builder with every override applied, in order.
///
/// # Errors
///
/// An unknown key or a value that does not parse.
pub(crate) fn builder(settings: &[(String, String)]) -> Result<ToolSearchBuilder> {
    let mut index = Index::tuned();
    let mut search = ToolSearch::builder();
    let mut index_changed = false;
    for (key, value) in settings {
        let bad = |what: &str| format!("setting `{key}`: `{value}` is not {what}");
        let num = || value.parse::<f32>().map_err(|_| bad("a number"));
        let whole = || value.parse::<usize>().map_err(|_| bad("a whole number"));
        index_changed |= !matches!(
            key.as_str(),
            "max_enum_values"
                | "action_mismatch"
                | "service_mismatch"
                | "name_match"
                | "implied_words"
        );
        index = match (key.as_str(), key.split('.').collect::<Vec<_>>().as_slice()) {
            ("k1", _) => index.k1(num()?),
            ("b", _) => index.b(num()?),
            (_, ["field", name, "weight"]) => index.field(name, num()?),
            (_, ["field", name, "b"]) => index.field_b(name, num()?),
            ("relation.stem", _) => index.relation_weight(Relation::Stem, num()?),
            ("relation.prefix", _) => index.relation_weight(Relation::Prefix, num()?),
            ("relation.expansion", _) => index.relation_weight(Relation::Expansion, num()?),
            ("prefix_min_chars", _) => index.prefix_min_chars(whole()?),
            ("relation.typo", _) => index.relation_weight(Relation::Typo, num()?),
            ("typo_min_chars", _) => index.typo_min_chars(whole()?),
            ("past_tense_weight", _) => index.past_tense_weight(num()?),
            (_, ["origin", o]) => {
                index.origin_weight(origin(o).ok_or_else(|| bad("an origin"))?, num()?)
            }
            (_, ["query_origin", o]) => {
                index.query_origin_weight(origin(o).ok_or_else(|| bad("an origin"))?, num()?)
            }
            ("gate", _) => index.gate(value.parse().map_err(|_| bad("true or false"))?),
            ("coverage", _) if value == "off" => index.no_coverage(),
            ("coverage", _) => {
                let (min, frac) = value.split_once(':').ok_or_else(|| bad("MIN_TERMS:FRACTION"))?;
                let min = min.parse().map_err(|_| bad("MIN_TERMS:FRACTION"))?;
                let frac = frac.parse().map_err(|_| bad("MIN_TERMS:FRACTION"))?;
                index.coverage(min, frac)
            }
            ("min_answerable", _) => index.min_answerable(num()?),
            ("join_particles", _) => {
                index.join_particles(value.parse().map_err(|_| bad("true or false"))?)
            }
            ("require_own_match", _) => {
                index.require_own_match(value.parse().map_err(|_| bad("true or false"))?)
            }
            ("min_relative_score", _) => index.min_relative_score(num()?),
            ("max_query_terms", _) => index.max_query_terms(whole()?),
            ("max_enum_values", _) => {
                search = search.max_enum_values(whole()?);
                index
            }
            ("action_mismatch", _) => {
                search = search.action_mismatch(num()?);
                index
            }
            ("service_mismatch", _) => {
                search = search.service_mismatch(num()?);
                index
            }
            ("name_match", _) => {
                search = search.name_match(num()?);
                index
            }
            ("implied_words", _) => {
                search = search.implied_words(value.parse().map_err(|_| bad("true or false"))?);
                index
            }
            ("stopwords", _) => index.analyzer(stopword_analyzer(value)?),
            _ => return Err(format!("unknown setting `{key}` (see `cargo xtask help`)").into()),
        };
    }
    Ok(if index_changed { search.index(index) } else { search })
}

/// The origin named `name`.
fn origin(name: &str) -> Option<Origin> {
    match name {
        "whole" => Some(Origin::Whole),
        "part" => Some(Origin::Part),
        "bigram" => Some(Origin::Bigram),
        _ => None,
    }
}

/// The default analyzer with the stopword list of file `path` (`none`: no stopwords).
fn stopword_analyzer(path: &str) -> Result<Analyzer> {
    if path == "none" {
        return Ok(Analyzer::builder().stopwords(Vec::<String>::new()).build());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("stopwords {path}: {e}"))?;
    let words = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|w| !w.is_empty())
        .map(str::to_owned);
    Ok(Analyzer::builder().stopwords(words.collect::<Vec<_>>()).build())
}

#[cfg(test)]
mod tests;
