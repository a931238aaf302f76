//! The metric math on hand-computed examples.
//!
//! Notation: `A2` is tool A with grade 2; `lg(x)` is log2(x).
//! lg(2) = 1, lg(3) = 1.5849625, lg(4) = 2, lg(5) = 2.3219281, lg(6) = 2.5849625.

use std::collections::BTreeMap;

use super::{AnswerScore, QueryScore, Summary, score};
use crate::dataset::ToolKey;

fn labels(pairs: &[(&str, u32)]) -> BTreeMap<ToolKey, u32> {
    pairs.iter().map(|&(t, g)| (ToolKey::new("s", t), g)).collect()
}

fn ranking(tools: &[&str]) -> Vec<ToolKey> {
    tools.iter().map(|t| ToolKey::new("s", t)).collect()
}

const EPS: f64 = 1e-9;

#[track_caller]
fn check(relevant: &[(&str, u32)], got: &[&str], want: AnswerScore) {
    let QueryScore::Answerable(s) = score(&labels(relevant), &ranking(got)) else {
        panic!("expected an answerable score");
    };
    assert_eq!((s.hit1, s.hit3, s.hit5, s.empty), (want.hit1, want.hit3, want.hit5, want.empty));
    for (name, g, w) in [
        ("R@5", s.recall5, want.recall5),
        ("MRR@10", s.mrr10, want.mrr10),
        ("nDCG@10", s.ndcg10, want.ndcg10),
    ] {
        assert!((g - w).abs() < EPS, "{name}: got {g}, want {w}");
    }
}

fn answer(hits: [bool; 3], recall5: f64, mrr10: f64, ndcg10: f64, empty: bool) -> AnswerScore {
    AnswerScore { hit1: hits[0], hit3: hits[1], hit5: hits[2], recall5, mrr10, ndcg10, empty }
}

#[test]
fn grades_two_and_one() {
    // Relevant A2, B1, C1; ranking X B A Y C. The targets are {A} (grade 2 is present),
    // first at rank 3: hit@1 no, hit@3 and hit@5 yes, MRR = 1/3.
    // R@5 = |{B, A, C}| / 3 = 1.
    // DCG = 1/lg(3) + 2/lg(4) + 1/lg(6) = 0.6309298 + 1 + 0.3868528 = 2.0177826.
    // IDCG (grades 2, 1, 1) = 2/lg(2) + 1/lg(3) + 1/lg(4) = 2 + 0.6309298 + 0.5 = 3.1309298.
    // nDCG = 2.0177826 / 3.1309298 = 0.6444675.
    check(
        &[("A", 2), ("B", 1), ("C", 1)],
        &["X", "B", "A", "Y", "C"],
        answer([false, true, true], 1.0, 1.0 / 3.0, 0.644_467_528_696_327_6, false),
    );
}

#[test]
fn grade_one_tools_are_targets_when_no_grade_two_is_present() {
    // Relevant A1, B1; ranking X A. Targets {A, B}; first at rank 2.
    // R@5 = 1/2. DCG = 1/lg(3) = 0.6309298; IDCG = 1 + 1/lg(3) = 1.6309298; nDCG = 0.3868528.
    check(
        &[("A", 1), ("B", 1)],
        &["X", "A"],
        answer([false, true, true], 0.5, 0.5, 0.386_852_807_234_541_6, false),
    );
}

#[test]
fn a_grade_one_tool_first_is_no_hit_when_a_grade_two_exists() {
    // Relevant A2, B1; ranking B. The only target is A, which is missing: no hit, MRR 0.
    // R@5 = 1/2. DCG = 1/lg(2) = 1; IDCG = 2 + 1/lg(3) = 2.6309298; nDCG = 0.3800937.
    check(
        &[("A", 2), ("B", 1)],
        &["B"],
        answer([false, false, false], 0.5, 0.0, 1.0 / (2.0 + 1.0 / 3f64.log2()), false),
    );
}

#[test]
fn duplicates_count_at_their_first_rank_only() {
    // Relevant A2, B1; ranking B B A. B counts once, at rank 1; the repeat at rank 2 earns
    // nothing and A keeps rank 3 (no renumbering).
    // Target A at rank 3: MRR = 1/3. R@5 = 2/2 = 1.
    // DCG = 1/lg(2) + 2/lg(4) = 1 + 1 = 2; IDCG = 2 + 1/lg(3) = 2.6309298; nDCG = 0.7601875.
    check(
        &[("A", 2), ("B", 1)],
        &["B", "B", "A"],
        answer([false, true, true], 1.0, 1.0 / 3.0, 0.760_187_533_431_868_5, false),
    );
    // A repeated target does not raise the score above a single occurrence.
    check(&[("A", 2)], &["A", "A", "A"], answer([true, true, true], 1.0, 1.0, 1.0, false));
}

#[test]
fn fewer_than_ten_results() {
    // Relevant A2, B2, C2; ranking A B (two results only).
    // Targets {A, B, C}; first at rank 1. R@5 = 2/3.
    // DCG = 2/lg(2) + 2/lg(3) = 2 + 1.2618595 = 3.2618595.
    // IDCG = 2 + 2/lg(3) + 2/lg(4) = 2 + 1.2618595 + 1 = 4.2618595; nDCG = 0.7653596.
    let want = (2.0 + 2.0 / 3f64.log2()) / (2.0 + 2.0 / 3f64.log2() + 1.0);
    check(
        &[("A", 2), ("B", 2), ("C", 2)],
        &["A", "B"],
        answer([true, true, true], 2.0 / 3.0, 1.0, want, false),
    );
}

#[test]
fn results_after_rank_ten_are_cut() {
    // The target sits at rank 11: nothing counts.
    let got = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "A"];
    check(&[("A", 2)], &got, answer([false, false, false], 0.0, 0.0, 0.0, false));
    // At rank 10 it counts: MRR 1/10, nDCG = (2/lg(11)) / 2 = 1/lg(11) = 0.2890648.
    let got = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "A"];
    check(&[("A", 2)], &got, answer([false, false, false], 0.0, 0.1, 1.0 / 11f64.log2(), false));
}

#[test]
fn ideal_is_cut_to_ten() {
    // Twelve grade-2 tools, the first ten returned in order: DCG equals the ideal over ten ranks.
    let names: Vec<String> = (0..12).map(|i| format!("t{i:02}")).collect();
    let rel: Vec<(&str, u32)> = names.iter().map(|n| (n.as_str(), 2)).collect();
    let got: Vec<&str> = names.iter().take(10).map(String::as_str).collect();
    check(&rel, &got, answer([true, true, true], 5.0 / 12.0, 1.0, 1.0, false));
}

#[test]
fn an_empty_answer_to_an_answerable_query() {
    check(&[("A", 2)], &[], answer([false, false, false], 0.0, 0.0, 0.0, true));
}

#[test]
fn no_answer_queries_score_abstention_only() {
    assert_eq!(score(&labels(&[]), &[]), QueryScore::NoAnswer { abstained: true });
    assert_eq!(score(&labels(&[]), &ranking(&["X"])), QueryScore::NoAnswer { abstained: false });
}

#[test]
fn summary_means_over_the_right_denominators() {
    // Two answerable queries (one perfect, one empty) and three no-answer queries (one abstains).
    let scores = [
        score(&labels(&[("A", 2)]), &ranking(&["A"])),
        score(&labels(&[("A", 2)]), &[]),
        score(&labels(&[]), &[]),
        score(&labels(&[]), &ranking(&["X"])),
        score(&labels(&[]), &ranking(&["Y"])),
    ];
    let s = Summary::of(&scores);
    assert_eq!((s.n_answerable, s.n_no_answer), (2, 3));
    let a = s.answer.unwrap();
    for (g, w) in [(a.hit1, 0.5), (a.ndcg10, 0.5), (a.mrr10, 0.5), (a.empty, 0.5)] {
        assert!((g - w).abs() < EPS, "got {g}, want {w}");
    }
    assert!((s.abstain.unwrap() - 1.0 / 3.0).abs() < EPS);
    let map = s.to_map();
    assert_eq!(map.keys().cloned().collect::<Vec<_>>().len(), 10);
    // A set without no-answer queries has no abstain figure (it is not 0).
    let s = Summary::of(&scores[..2]);
    assert_eq!(s.abstain, None);
    assert_eq!(s.get("abstain"), None);
    let s = Summary::of(&scores[2..]);
    assert_eq!(s.answer, None);
    assert_eq!(s.get("nDCG@10"), None);
}
