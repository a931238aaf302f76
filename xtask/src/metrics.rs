//! The relevance metrics, exactly as `docs/dataset-format.md` (v1) defines them.
//!
//! - The targets of a query are its relevant tools of the highest grade present (grade 2, else
//!   1).
//! - Over answerable queries: hit@k (k = 1, 3, 5) = a target in the top k; MRR@10 = 1 / rank of
//!   the first target (0 if none in the top 10); R@5 = share of all relevant tools (grade > 0)
//!   in the top 5; nDCG@10 with gain = grade, discount log2(rank + 1), ideal = grades sorted
//!   descending; empty = share that returned nothing.
//! - Over no-answer queries: abstain = share that returned nothing.
//! - Results are cut to the first 10; a tool repeated in one ranking counts at its first rank.
//!   A repeat still occupies its position (ranks are not renumbered), it just earns nothing.

use std::collections::{BTreeMap, BTreeSet};

use crate::dataset::ToolKey;

/// Results beyond this rank are ignored.
pub(crate) const CUTOFF: usize = 10;

/// The metrics of one answerable query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AnswerScore {
    /// A target at rank 1.
    pub(crate) hit1: bool,
    /// A target in the top 3.
    pub(crate) hit3: bool,
    /// A target in the top 5.
    pub(crate) hit5: bool,
    /// Share of all relevant tools found in the top 5.
    pub(crate) recall5: f64,
    /// 1 / rank of the first target in the top 10, else 0.
    pub(crate) mrr10: f64,
    /// Graded nDCG over the top 10.
    pub(crate) ndcg10: f64,
    /// The ranking was empty.
    pub(crate) empty: bool,
}

/// The metrics of one query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum QueryScore {
    /// Some tool answers the query.
    Answerable(AnswerScore),
    /// No tool answers the query; the right answer is an empty list.
    NoAnswer {
        /// The ranking was empty.
        abstained: bool,
    },
}

impl QueryScore {
    /// One number per query, used to sort failures: nDCG@10 for an answerable query, 1 for a
    /// no-answer query that abstained and 0 for one that did not.
    pub(crate) fn quality(&self) -> f64 {
        match self {
            QueryScore::Answerable(s) => s.ndcg10,
            QueryScore::NoAnswer { abstained } => f64::from(u8::from(*abstained)),
        }
    }
}

/// Scores one ranking against one query's labels (`relevant`: grade > 0 only).
pub(crate) fn score(relevant: &BTreeMap<ToolKey, u32>, ranking: &[ToolKey]) -> QueryScore {
    if relevant.is_empty() {
        return QueryScore::NoAnswer { abstained: ranking.is_empty() };
    }
    let top_grade = relevant.values().copied().max().unwrap_or(0);
    let mut seen = BTreeSet::new();
    let mut first_target: Option<usize> = None;
    let mut found_in_5 = 0usize;
    let mut dcg = 0.0;
    for (i, tool) in ranking.iter().take(CUTOFF).enumerate() {
        let rank = i + 1;
        if !seen.insert(tool) {
            continue;
        }
        let Some(&grade) = relevant.get(tool) else { continue };
        if grade == top_grade && first_target.is_none() {
            first_target = Some(rank);
        }
        if rank <= 5 {
            found_in_5 += 1;
        }
        dcg += f64::from(grade) / discount(rank);
    }
    let mut ideal: Vec<u32> = relevant.values().copied().collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let idcg: f64 =
        ideal.iter().take(CUTOFF).enumerate().map(|(i, &g)| f64::from(g) / discount(i + 1)).sum();
    let within = |k: usize| first_target.is_some_and(|r| r <= k);
    QueryScore::Answerable(AnswerScore {
        hit1: within(1),
        hit3: within(3),
        hit5: within(5),
        recall5: found_in_5 as f64 / relevant.len() as f64,
        mrr10: first_target.map_or(0.0, |r| 1.0 / r as f64),
        ndcg10: if idcg > 0.0 { dcg / idcg } else { 0.0 },
        empty: ranking.is_empty(),
    })
}

/// log2(rank + 1), the nDCG discount of a 1-based rank.
fn discount(rank: usize) -> f64 {
    (rank as f64 + 1.0).log2()
}

/// Means of the answerable metrics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AnswerMeans {
    pub(crate) hit1: f64,
    pub(crate) hit3: f64,
    pub(crate) hit5: f64,
    pub(crate) recall5: f64,
    pub(crate) mrr10: f64,
    pub(crate) ndcg10: f64,
    pub(crate) empty: f64,
}

/// The metrics of a set of queries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Summary {
    /// How many answerable queries.
    pub(crate) n_answerable: usize,
    /// How many no-answer queries.
    pub(crate) n_no_answer: usize,
    /// Means over answerable queries; `None` when there are none.
    pub(crate) answer: Option<AnswerMeans>,
    /// Share of no-answer queries that returned nothing; `None` when there are none.
    pub(crate) abstain: Option<f64>,
}

/// The names metrics carry in reports, tables and the baseline, in table order.
pub(crate) const METRIC_NAMES: [&str; 8] =
    ["hit@1", "hit@3", "hit@5", "R@5", "MRR@10", "nDCG@10", "empty", "abstain"];

impl Summary {
    /// Aggregates per-query scores.
    pub(crate) fn of<'a>(scores: impl IntoIterator<Item = &'a QueryScore>) -> Summary {
        let mut n_answerable = 0usize;
        let mut n_no_answer = 0usize;
        let mut abstained = 0usize;
        let mut sums = [0.0f64; 7];
        for s in scores {
            match s {
                QueryScore::Answerable(a) => {
                    n_answerable += 1;
                    let values = [
                        f64::from(u8::from(a.hit1)),
                        f64::from(u8::from(a.hit3)),
                        f64::from(u8::from(a.hit5)),
                        a.recall5,
                        a.mrr10,
                        a.ndcg10,
                        f64::from(u8::from(a.empty)),
                    ];
                    for (sum, v) in sums.iter_mut().zip(values) {
                        *sum += v;
                    }
                }
                QueryScore::NoAnswer { abstained: a } => {
                    n_no_answer += 1;
                    abstained += usize::from(*a);
                }
            }
        }
        let answer = (n_answerable > 0).then(|| {
            let n = n_answerable as f64;
            AnswerMeans {
                hit1: sums[0] / n,
                hit3: sums[1] / n,
                hit5: sums[2] / n,
                recall5: sums[3] / n,
                mrr10: sums[4] / n,
                ndcg10: sums[5] / n,
                empty: sums[6] / n,
            }
        });
        let abstain = (n_no_answer > 0).then(|| abstained as f64 / n_no_answer as f64);
        Summary { n_answerable, n_no_answer, answer, abstain }
    }

    /// The metric called `name` (one of [`METRIC_NAMES`]), if it is defined for this set.
    pub(crate) fn get(&self, name: &str) -> Option<f64> {
        if name == "abstain" {
            return self.abstain;
        }
        let a = self.answer?;
        match name {
            "hit@1" => Some(a.hit1),
            "hit@3" => Some(a.hit3),
            "hit@5" => Some(a.hit5),
            "R@5" => Some(a.recall5),
            "MRR@10" => Some(a.mrr10),
            "nDCG@10" => Some(a.ndcg10),
            "empty" => Some(a.empty),
            _ => None,
        }
    }

    /// Every defined metric by name, plus the two counts.
    pub(crate) fn to_map(self) -> BTreeMap<String, f64> {
        let mut map: BTreeMap<String, f64> =
            METRIC_NAMES.iter().filter_map(|&n| self.get(n).map(|v| (n.to_owned(), v))).collect();
        map.insert("n_answerable".to_owned(), self.n_answerable as f64);
        map.insert("n_no_answer".to_owned(), self.n_no_answer as f64);
        map
    }
}

#[cfg(test)]
mod tests;
