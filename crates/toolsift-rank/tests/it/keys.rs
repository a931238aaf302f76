//! Exact-key override.

use crate::{builder, doc};
use toolsift_rank::Index;

fn keyed() -> (Index, Vec<toolsift_rank::DocId>) {
    let mut ix = builder().min_relative_score(0.9).build().expect("config");
    let ids = ix
        .add([
            doc(&[("name", "create issue"), ("details", "github issue tracker issue")]),
            doc(&[("name", "list pulls"), ("details", "github")])
                .key("list_pull_requests")
                .key("mcp__github__list_pull_requests"),
            doc(&[("name", "search")]).key("search").group("web"),
            doc(&[("name", "search")]).key("search").group("docs"),
            doc(&[("name", "café")]).key("Café-Crème.Tool"),
        ])
        .expect("fields");
    (ix, ids)
}

#[track_caller]
fn check(query: &str, want_exact: &[usize]) {
    let (ix, ids) = keyed();
    let out = ix.search(query, 10);
    let exact: Vec<usize> = out
        .hits()
        .iter()
        .filter(|h| h.is_exact_key())
        .map(|h| ids.iter().position(|&d| d == h.doc()).unwrap_or(usize::MAX))
        .collect();
    assert_eq!(exact, want_exact, "query {query:?}");
    // Exact-key hits come first.
    let n = want_exact.len();
    assert!(out.hits()[..n].iter().all(|h| h.is_exact_key()), "query {query:?}");
}

#[test]
fn key_spellings() {
    check("list_pull_requests", &[1]);
    check("List-Pull-Requests", &[1]);
    check("list pull requests", &[1]);
    check("  list..pull__requests ", &[1]);
    check("mcp__github__list_pull_requests", &[1]);
    // An identifier that equals a key but for the number of one word names it too; the same
    // words written apart, one word, or two words off do not.
    check("list_pull_request", &[1]);
    check("listPullRequest", &[1]);
    check("list pull request", &[]);
    check("list_pulls_request", &[]);
    check("searches", &[]);
    // An abbreviation in full, or a full word abbreviated.
    check("list_prs", &[1]);
    check("list_pull_requests_info", &[]);
    // Every ASCII whitespace byte separates (tab to carriage return), on the byte path and
    // next to non-ASCII text alike; other bytes do not.
    check("list\u{b}pull\u{c}requests\r", &[1]);
    check("\tLIST\npull-requests", &[1]);
    check("list\u{1}pull_requests", &[]);
    check("list\u{a0}pull_requests", &[1]);
    check("list pull requests é", &[]);
    // Two documents share a key: both first, in insertion order.
    check("search", &[2, 3]);
    check("CAFÉ CRÈME tool", &[4]);
    check("café_crème__tool", &[4]);
}

#[test]
fn keys_bypass_every_floor() {
    // The floor (0.9 of the best possible score) removes everything else; the key still wins,
    // even though the terms "mcp", "list_pull_requests" hardly score.
    let (ix, ids) = keyed();
    let out = ix.search("mcp__github__list_pull_requests", 10);
    assert_eq!(out.hits()[0].doc(), ids[1]);
    assert_eq!(out.abstention(), None);
}

#[test]
fn removed_documents_lose_their_keys() {
    let (mut ix, ids) = keyed();
    ix.remove(&[ids[1]]);
    assert!(ix.search("list_pull_requests", 10).hits().iter().all(|h| !h.is_exact_key()));
    assert_eq!(ix.remove_group("web"), 1);
    let out = ix.search("search", 10);
    assert_eq!(out.hits()[0].doc(), ids[3]);
    assert!(out.hits()[0].is_exact_key());
}
