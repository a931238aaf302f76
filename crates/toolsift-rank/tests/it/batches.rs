//! A large batch (analyzed through the per-batch memos of repeated lines and chunks) indexes
//! exactly what the same documents give in small batches (analyzed text by text): same
//! statistics, same hits, bit-identical scores.

use proptest::prelude::*;
use toolsift_rank::{Document, Index, IndexBuilder};
use toolsift_text::Origin;

use crate::builder;

/// Pieces of tool text: identifiers, stopwords, CJK, Unicode letters, and the separators the
/// chunk scan must treat as the analyzer does (ASCII whitespace splits; no-break space,
/// vertical tab and control bytes do not split a run between ASCII whitespace).
const PIECES: &[&str] = &[
    "getIssue",
    "get_issue",
    "the",
    "Issues",
    "{owner}/{repo}",
    "東京都の天気",
    "naïve",
    "café",
    "Ǆemal",
    "\u{a0}",
    "\u{b}",
    "\u{c}",
    "\r",
    "\u{1}x",
    "a.b-c",
    "listPullRequestsForTheAuthenticatedUser",
    "ID",
    "of",
    "repository",
    "12345678",
    "",
];

/// Joins of pieces.
const JOINS: &[&str] = &[" ", "", "\n", "\t", "  \n ", "\u{2003}"];

/// A line: a few pieces with joins between them.
fn line() -> impl Strategy<Value = String> {
    prop::collection::vec((0..PIECES.len(), 0..JOINS.len()), 1..6).prop_map(|parts| {
        parts.iter().map(|&(p, j)| format!("{}{}", PIECES[p], JOINS[j])).collect::<String>()
    })
}

/// Field texts built from a small pool of lines, so lines and chunks repeat across documents.
fn corpus() -> impl Strategy<Value = (Vec<String>, Vec<[Vec<usize>; 3]>)> {
    let pool = prop::collection::vec(line(), 1..12);
    pool.prop_flat_map(|pool| {
        let n = pool.len();
        let field = prop::collection::vec(0..n, 0..4);
        let doc = [field.clone(), field.clone(), field].prop_map(|f| f);
        (Just(pool), prop::collection::vec(doc, 260..300))
    })
}

/// The text of one field: the chosen pool lines, one per line.
fn text(pool: &[String], lines: &[usize]) -> String {
    lines.iter().map(|&i| pool[i].as_str()).collect::<Vec<_>>().join("\n")
}

fn documents(pool: &[String], docs: &[[Vec<usize>; 3]]) -> Vec<Document<'static>> {
    docs.iter()
        .enumerate()
        .map(|(i, [name, summary, details])| {
            Document::new()
                .field("name", text(pool, name))
                .field("summary", text(pool, summary))
                .field("details", text(pool, details))
                .key(format!("Tool-{i}"))
                .group(if i % 3 == 0 { "a" } else { "b" })
        })
        .collect()
}

/// Weights whose sums are not exact in `f32`, and a zero weight (tokens left out).
fn weighted() -> IndexBuilder {
    builder()
        .origin_weight(Origin::Part, 0.3)
        .origin_weight(Origin::Bigram, 0.0)
        .field("details", 0.7)
}

/// Every hit of every query, with its score's bits.
fn answers(index: &Index, queries: &[&str]) -> Vec<Vec<(u32, u32, bool)>> {
    queries
        .iter()
        .map(|q| {
            index
                .search(q, 50)
                .hits()
                .iter()
                .map(|h| (h.doc().get(), h.score().to_bits(), h.is_exact_key()))
                .collect()
        })
        .collect()
}

const QUERIES: &[&str] = &[
    "get issue",
    "issues repository",
    "天気",
    "naive cafe",
    "list pull requests",
    "tool 7",
    "owner repo id",
    "x",
    "dzemal",
];

fn check(make: fn() -> IndexBuilder, pool: &[String], docs: &[[Vec<usize>; 3]]) {
    let mut whole = make().build().expect("config");
    whole.add(documents(pool, docs)).expect("fields");
    let mut pieces = make().build().expect("config");
    for chunk in documents(pool, docs).chunks(97) {
        pieces.add(chunk.to_vec()).expect("fields");
    }
    assert_eq!(whole.stats(), pieces.stats());
    assert_eq!(answers(&whole, QUERIES), answers(&pieces, QUERIES));
    // Replacing a group with a large batch, too.
    let again: Vec<Document<'static>> =
        documents(pool, docs).into_iter().filter(|d| d.group_name() == Some("a")).collect();
    let ids = whole.replace_group("a", again.clone()).expect("fields");
    let mut fresh = make().build().expect("config");
    let kept: Vec<Document<'static>> =
        documents(pool, docs).into_iter().filter(|d| d.group_name() == Some("b")).collect();
    fresh.add(kept).expect("fields");
    fresh.add(again).expect("fields");
    assert_eq!(ids.len(), fresh.group_docs("a").count());
    assert_eq!(whole.stats(), fresh.stats());
    let scores = |ix: &Index| -> Vec<Vec<u32>> {
        answers(ix, QUERIES).into_iter().map(|a| a.into_iter().map(|h| h.1).collect()).collect()
    };
    assert_eq!(scores(&whole), scores(&fresh));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_large_batch_indexes_what_small_batches_do((pool, docs) in corpus()) {
        check(builder, &pool, &docs);
        check(weighted, &pool, &docs);
    }
}

#[test]
fn repeated_lines_and_chunks_of_a_real_catalog() {
    // A long run without ASCII whitespace (control bytes inside), a line repeated with
    // different neighbours, and a chunk that only repeats inside other lines.
    let pool: Vec<String> = [
        "The owner of the repository.",
        "owner\u{1}repository\u{0}name-with.many_separators_and_more_than_eight_bytes",
        "getIssue getIssue\tgetIssue",
        "  leading and trailing  ",
        "",
    ]
    .map(str::to_owned)
    .to_vec();
    let docs: Vec<[Vec<usize>; 3]> =
        (0..300).map(|i| [vec![i % 5], vec![(i + 1) % 5, i % 3], vec![0, 1, 2, 3, 4]]).collect();
    check(builder, &pool, &docs);
    check(weighted, &pool, &docs);
}

#[test]
fn memos_that_fill_up_start_again() {
    // More distinct lines and chunks than a memo holds (65,536 texts), then the early ones
    // again: the memos empty themselves once full, and replays after that are still exact.
    let pool: Vec<String> = (0..70_000).map(|i| format!("w{i} x{} the", i % 50)).collect();
    let docs: Vec<[Vec<usize>; 3]> = (0..300)
        .map(|d| [vec![d % 7], vec![], (0..400).map(|j| (d * 400 + j) % pool.len()).collect()])
        .collect();
    check(builder, &pool, &docs);
}
