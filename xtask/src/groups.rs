//! Groups of phrasings: does toolsift's answer hold when an agent rephrases?
//!
//! Queries with the same `group` are phrasings of one request (`docs/dataset-format.md`). A
//! refusal that turns into a list on the next phrasing sends an agent hunting, and an answer
//! that disappears on it loses the tool. So, per group:
//! - a no-answer group *holds* when every phrasing returned nothing;
//! - an answerable group *holds* when every phrasing has a target in the top 5 (hit@5).
//!
//! Reported: the share of no-answer groups that hold and, beside it, the share of their single
//! queries that returned nothing; the share of answerable groups that hold and of their single
//! queries with a hit@5.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::dataset::Query;
use crate::metrics::QueryScore;

/// The group report of one dataset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GroupReport {
    /// No-answer groups.
    pub(crate) no_answer: Tally,
    /// Answerable groups.
    pub(crate) answerable: Tally,
}

/// Counts over the groups of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Tally {
    /// How many groups.
    pub(crate) groups: usize,
    /// Groups that hold in every phrasing.
    pub(crate) held: usize,
    /// How many queries those groups hold.
    pub(crate) queries: usize,
    /// Queries that hold on their own (no-answer: returned nothing; answerable: hit@5).
    pub(crate) queries_held: usize,
}

impl Tally {
    /// `held / groups`; `None` without groups.
    pub(crate) fn group_share(&self) -> Option<f64> {
        share(self.held, self.groups)
    }

    /// `queries_held / queries`; `None` without queries.
    pub(crate) fn query_share(&self) -> Option<f64> {
        share(self.queries_held, self.queries)
    }

    fn to_json(self) -> Value {
        json!({
            "groups": self.groups,
            "groups_held": self.held,
            "groups_held_share": self.group_share(),
            "queries": self.queries,
            "queries_held": self.queries_held,
            "queries_held_share": self.query_share(),
        })
    }
}

fn share(n: usize, of: usize) -> Option<f64> {
    (of > 0).then(|| n as f64 / of as f64)
}

/// Whether one query holds on its own.
fn holds(score: &QueryScore) -> bool {
    match score {
        QueryScore::Answerable(a) => a.hit5,
        QueryScore::NoAnswer { abstained } => *abstained,
    }
}

/// The group report of `queries` and their `scores` (same order); `None` when no query has a
/// group. A group's kind is its queries' (the loader makes them agree).
pub(crate) fn report(queries: &[Query], scores: &[QueryScore]) -> Option<GroupReport> {
    // Per group: (answerable, queries, queries held).
    let mut by_group: BTreeMap<&str, (bool, usize, usize)> = BTreeMap::new();
    for (q, s) in queries.iter().zip(scores) {
        let Some(group) = q.group.as_deref() else { continue };
        let entry = by_group.entry(group).or_insert((q.is_answerable(), 0, 0));
        entry.1 += 1;
        entry.2 += usize::from(holds(s));
    }
    if by_group.is_empty() {
        return None;
    }
    let mut report = GroupReport { no_answer: Tally::default(), answerable: Tally::default() };
    for (answerable, n, held) in by_group.into_values() {
        let tally = if answerable { &mut report.answerable } else { &mut report.no_answer };
        tally.groups += 1;
        tally.held += usize::from(held == n);
        tally.queries += n;
        tally.queries_held += held;
    }
    Some(report)
}

impl GroupReport {
    /// The lines printed under the dataset's table.
    pub(crate) fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let t = self.no_answer;
        if let (Some(g), Some(q)) = (t.group_share(), t.query_share()) {
            out.push(format!(
                "groups, no answer: {} of {} refused in every phrasing ({g:.3}); single \
                 queries refused: {} of {} ({q:.3})",
                t.held, t.groups, t.queries_held, t.queries
            ));
        }
        let t = self.answerable;
        if let (Some(g), Some(q)) = (t.group_share(), t.query_share()) {
            out.push(format!(
                "groups, answerable: {} of {} with a hit in the top 5 in every phrasing \
                 ({g:.3}); single queries: {} of {} ({q:.3})",
                t.held, t.groups, t.queries_held, t.queries
            ));
        }
        out
    }

    /// The metrics the baseline records: `group_abstain` (no-answer groups refused in every
    /// phrasing) and `group_hit@5` (answerable groups with a hit@5 in every phrasing), each
    /// when such groups exist.
    pub(crate) fn metrics(&self) -> Vec<(&'static str, f64)> {
        let mut out = Vec::new();
        if let Some(v) = self.no_answer.group_share() {
            out.push((GROUP_ABSTAIN, v));
        }
        if let Some(v) = self.answerable.group_share() {
            out.push((GROUP_HIT5, v));
        }
        out
    }

    /// report.json's `groups` object.
    pub(crate) fn to_json(self) -> Value {
        json!({
            "no_answer": self.no_answer.to_json(),
            "answerable": self.answerable.to_json(),
        })
    }
}

/// The baseline name of the share of no-answer groups refused in every phrasing.
pub(crate) const GROUP_ABSTAIN: &str = "group_abstain";
/// The baseline name of the share of answerable groups with a hit@5 in every phrasing.
pub(crate) const GROUP_HIT5: &str = "group_hit@5";

#[cfg(test)]
mod tests;
