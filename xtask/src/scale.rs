//! The scale check of `cargo xtask eval`: does connecting more servers bury the right tool?
//!
//! For each answerable query of a dataset with more than one server, the best rank (top 10)
//! of a relevant tool is measured twice: with only the servers of its relevant tools
//! connected, and with every server of the dataset. A query whose relevant tool is in the
//! top 5 alone and out of it with everything connected is *lost to scale*: the other servers'
//! tools pushed it down, or the larger catalog made the search refuse. The check reports how
//! many of the queries answered in the top 5 alone are lost.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use toolsift::SearchEngine;
use toolsift::catalog::{Catalog, Server};

use crate::Result;
use crate::dataset::{Dataset, Query, ToolKey};
use crate::metrics::CUTOFF;
use crate::params;

/// The rank a query must reach to count as answered: the top 5.
pub(crate) const TOP: usize = 5;

/// One answerable query's best rank of a relevant tool (1-based; `None` when none is in the
/// top 10), alone and with every server.
#[derive(Debug, Clone)]
pub(crate) struct Ranks {
    /// The query's id.
    pub(crate) id: String,
    /// With only the servers of its relevant tools connected.
    pub(crate) alone: Option<usize>,
    /// With every server of the dataset connected.
    pub(crate) all: Option<usize>,
}

impl Ranks {
    /// Whether the relevant tool is in the top 5 alone and out of it with every server.
    pub(crate) fn lost(&self) -> bool {
        in_top(self.alone) && !in_top(self.all)
    }
}

fn in_top(rank: Option<usize>) -> bool {
    rank.is_some_and(|r| r <= TOP)
}

/// The scale check of one dataset.
#[derive(Debug, Clone)]
pub(crate) struct ScaleCheck {
    /// The dataset's server count.
    pub(crate) servers: usize,
    /// Per answerable query, in dataset order.
    pub(crate) ranks: Vec<Ranks>,
}

impl ScaleCheck {
    /// Queries with a relevant tool in the top 5 when only their servers are connected.
    pub(crate) fn alone_in_top(&self) -> usize {
        self.ranks.iter().filter(|r| in_top(r.alone)).count()
    }

    /// Those of them whose relevant tool is out of the top 5 with every server connected.
    pub(crate) fn lost(&self) -> usize {
        self.ranks.iter().filter(|r| r.lost()).count()
    }

    /// `lost / alone_in_top` (0 when nothing is in the top 5 alone).
    pub(crate) fn lost_share(&self) -> f64 {
        let n = self.alone_in_top();
        if n == 0 { 0.0 } else { self.lost() as f64 / n as f64 }
    }

    /// The one-line summary printed under the dataset's table.
    pub(crate) fn line(&self) -> String {
        format!(
            "scale check: {} answerable queries; a relevant tool in the top {TOP} with only its \
             servers connected: {}; of those, out of the top {TOP} with all {} servers: {} \
             ({:.1}%)",
            self.ranks.len(),
            self.alone_in_top(),
            self.servers,
            self.lost(),
            100.0 * self.lost_share(),
        )
    }

    /// The lost queries, as `id: rank alone -> rank with all` (`-` for not in the top 10).
    pub(crate) fn lost_lines(&self) -> Vec<String> {
        let show = |r: Option<usize>| r.map_or_else(|| "-".to_owned(), |r| r.to_string());
        self.ranks
            .iter()
            .filter(|r| r.lost())
            .map(|r| format!("{}: {} -> {}", r.id, show(r.alone), show(r.all)))
            .collect()
    }

    /// The check for report.json.
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "top": TOP,
            "servers": self.servers,
            "answerable": self.ranks.len(),
            "alone_in_top": self.alone_in_top(),
            "lost": self.lost(),
            "lost_share": (self.lost_share() * 1e4).round() / 1e4,
            "lost_queries": self.lost_lines(),
        })
    }
}

/// The best 1-based rank of a tool `relevant` grades in `ranking`.
fn best_rank(ranking: &[ToolKey], relevant: &BTreeMap<ToolKey, u32>) -> Option<usize> {
    ranking.iter().position(|k| relevant.contains_key(k)).map(|i| i + 1)
}

/// Runs the scale check for `ds`, whose whole catalog is `catalog` and whose rankings with
/// every server connected are `rankings` (one per query, top 10). `None` for a dataset of
/// one server or without an answerable query. Each distinct set of relevant servers is built once, with `settings`.
pub(crate) fn check(
    ds: &Dataset,
    catalog: &Catalog,
    rankings: &[Vec<ToolKey>],
    settings: &[(String, String)],
) -> Result<Option<ScaleCheck>> {
    let servers: BTreeMap<&str, &Server> =
        catalog.servers().map(|s| (s.name.as_str(), s)).collect();
    if servers.len() < 2 || !ds.queries.iter().any(Query::is_answerable) {
        return Ok(None);
    }
    // Queries grouped by the servers of their relevant tools.
    let mut groups: BTreeMap<BTreeSet<&str>, Vec<usize>> = BTreeMap::new();
    for (i, q) in ds.queries.iter().enumerate() {
        if q.is_answerable() {
            let set = q.relevant.keys().map(|k| k.server.as_str()).collect();
            groups.entry(set).or_default().push(i);
        }
    }
    let mut alone: BTreeMap<usize, Option<usize>> = BTreeMap::new();
    for (set, queries) in &groups {
        let mut subset = Catalog::new();
        for name in set {
            // A label naming a server the dataset does not have is reported by the eval as
            // an unknown label; it connects nothing here.
            if let Some(server) = servers.get(name) {
                subset.add_server((*server).clone());
            }
        }
        let search = params::builder(settings)?.build(subset)?;
        let engine: &dyn SearchEngine = &search;
        for &i in queries {
            let q = &ds.queries[i];
            let ranking: Vec<ToolKey> = engine
                .search(&q.text, CUTOFF)
                .hits()
                .iter()
                .map(|h| ToolKey::new(&h.tool().server, &h.tool().name))
                .collect();
            alone.insert(i, best_rank(&ranking, &q.relevant));
        }
    }
    let ranks = alone
        .into_iter()
        .map(|(i, alone)| Ranks {
            id: ds.queries[i].id.clone(),
            alone,
            all: best_rank(&rankings[i], &ds.queries[i].relevant),
        })
        .collect();
    Ok(Some(ScaleCheck { servers: servers.len(), ranks }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(alone: Option<usize>, all: Option<usize>) -> Ranks {
        Ranks { id: "q".to_owned(), alone, all }
    }

    #[test]
    fn lost_means_in_the_top_five_alone_and_out_of_it_with_all() {
        assert!(ranks(Some(1), Some(6)).lost());
        assert!(ranks(Some(5), None).lost());
        assert!(!ranks(Some(2), Some(5)).lost());
        assert!(!ranks(Some(6), None).lost(), "not in the top 5 alone: not counted");
        let check = ScaleCheck {
            servers: 3,
            ranks: vec![ranks(Some(1), Some(7)), ranks(Some(2), Some(1)), ranks(None, None)],
        };
        assert_eq!((check.alone_in_top(), check.lost()), (2, 1));
        assert!((check.lost_share() - 0.5).abs() < 1e-12);
        assert_eq!(check.lost_lines(), ["q: 1 -> 7"]);
    }

    #[test]
    fn best_rank_is_the_first_tool_of_any_grade() {
        let key = |t: &str| ToolKey::new("s", t);
        let relevant = BTreeMap::from([(key("b"), 1), (key("c"), 2)]);
        assert_eq!(best_rank(&[key("a"), key("b"), key("c")], &relevant), Some(2));
        assert_eq!(best_rank(&[key("a")], &relevant), None);
    }
}
