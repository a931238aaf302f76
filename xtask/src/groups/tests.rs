//! Tests of the group report.

use super::{GROUP_ABSTAIN, GROUP_HIT5, GroupReport, Tally, report};
use crate::dataset::parse_queries;
use crate::metrics::{AnswerScore, QueryScore};

fn refused(yes: bool) -> QueryScore {
    QueryScore::NoAnswer { abstained: yes }
}

fn hit5(yes: bool) -> QueryScore {
    QueryScore::Answerable(AnswerScore {
        hit1: false,
        hit3: false,
        hit5: yes,
        recall5: 0.0,
        mrr10: 0.0,
        ndcg10: 0.0,
        empty: false,
    })
}

const QUERIES: &str = r#"{"id": "a", "query": "send a fax", "relevant": [], "group": "fax"}
{"id": "a1", "query": "fax a document", "relevant": [], "group": "fax"}
{"id": "b", "query": "book a hotel", "relevant": [], "group": "hotel"}
{"id": "b1", "query": "hotel booking", "relevant": [], "group": "hotel"}
{"id": "b2", "query": "reserve a room", "relevant": [], "group": "hotel"}
{"id": "c", "query": "open a pr", "relevant": [{"server": "gh", "tool": "create_pr"}], "group": "pr"}
{"id": "c1", "query": "new pull request", "relevant": [{"server": "gh", "tool": "create_pr"}], "group": "pr"}
{"id": "d", "query": "order pizza", "relevant": []}
"#;

#[test]
fn a_group_holds_only_when_every_phrasing_does() {
    let queries = parse_queries(QUERIES).unwrap();
    // fax: refused twice (holds); hotel: refused, answered, refused (does not hold);
    // pr: hit@5 twice (holds); d: no group, not counted.
    let scores = [
        refused(true),
        refused(true),
        refused(true),
        refused(false),
        refused(true),
        hit5(true),
        hit5(true),
        refused(false),
    ];
    let r = report(&queries, &scores).unwrap();
    assert_eq!(r.no_answer, Tally { groups: 2, held: 1, queries: 5, queries_held: 4 });
    assert_eq!(r.answerable, Tally { groups: 1, held: 1, queries: 2, queries_held: 2 });
    assert_eq!(r.no_answer.group_share(), Some(0.5));
    assert_eq!(r.no_answer.query_share(), Some(0.8));
    assert_eq!(r.metrics(), [(GROUP_ABSTAIN, 0.5), (GROUP_HIT5, 1.0)]);
    let lines = r.lines();
    assert_eq!(
        lines[0],
        "groups, no answer: 1 of 2 refused in every phrasing (0.500); single queries refused: \
         4 of 5 (0.800)"
    );
    assert_eq!(lines.len(), 2);

    // A miss in the answerable group breaks it; the no-answer figures do not move.
    let mut scores = scores;
    scores[6] = hit5(false);
    let r = report(&queries, &scores).unwrap();
    assert_eq!(r.answerable, Tally { groups: 1, held: 0, queries: 2, queries_held: 1 });
    assert_eq!(r.metrics(), [(GROUP_ABSTAIN, 0.5), (GROUP_HIT5, 0.0)]);
}

#[test]
fn no_group_no_report_and_one_kind_reports_one_line() {
    let queries = parse_queries(r#"{"id": "d", "query": "order pizza", "relevant": []}"#).unwrap();
    assert_eq!(report(&queries, &[refused(true)]), None);

    let queries = parse_queries(
        "{\"id\": \"a\", \"query\": \"send a fax\", \"relevant\": [], \"group\": \"g\"}\n",
    )
    .unwrap();
    let r: GroupReport = report(&queries, &[refused(false)]).unwrap();
    assert_eq!(r.metrics(), [(GROUP_ABSTAIN, 0.0)]);
    assert_eq!(r.lines().len(), 1);
    assert_eq!(r.answerable.group_share(), None);
    let json = r.to_json();
    assert_eq!(json["no_answer"]["groups_held_share"], 0.0);
    assert!(json["answerable"]["groups_held_share"].is_null());
}
