//! Updates without a rebuild: add, remove, replace a group.

use crate::{builder, doc, index};
use toolsift_rank::{ErrorKind, Index};

#[test]
fn ids_are_insertion_order_and_never_reused() {
    let (mut ix, ids) = index(&[&[("name", "alpha")], &[("name", "beta")]]);
    assert_eq!(ids.iter().map(|d| d.get()).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(ix.remove(&[ids[1], ids[1], ids[1]]), 1);
    let more = ix.add([doc(&[("name", "gamma")])]).expect("fields");
    assert_eq!(more[0].get(), 2);
    assert_eq!(ix.docs().collect::<Vec<_>>(), [ids[0], more[0]]);
    assert!(!ix.contains(ids[1]));
    assert_eq!(ix.remove(&[ids[1]]), 0);
}

#[test]
fn statistics_stay_exact() {
    let (mut ix, ids) = index(&[
        &[("name", "alpha beta")],
        &[("name", "alpha")],
        &[("name", "gamma delta epsilon")],
    ]);
    assert_eq!(ix.stats().avg_field_len, [2.0, 0.0, 0.0]);
    ix.remove(&[ids[2]]);
    let stats = ix.stats();
    assert_eq!((stats.docs, stats.terms, stats.postings), (2, 2, 3));
    assert_eq!(stats.avg_field_len, [1.5, 0.0, 0.0]);
    // The removed words match nothing now.
    assert!(ix.search("gamma", 10).is_empty());
    // And the scores are those of a fresh index of the remaining documents.
    let (fresh, _) = index(&[&[("name", "alpha beta")], &[("name", "alpha")]]);
    assert_eq!(ix.search("alpha beta", 10).hits().len(), 2);
    let a: Vec<f32> = ix.search("alpha beta", 10).hits().iter().map(|h| h.score()).collect();
    let b: Vec<f32> = fresh.search("alpha beta", 10).hits().iter().map(|h| h.score()).collect();
    assert_eq!(a, b);
}

#[test]
fn replace_group_swaps_one_servers_documents() {
    let mut ix = builder().build().expect("config");
    let gh = ix
        .add([
            doc(&[("name", "create issue")]).group("github"),
            doc(&[("name", "list issues")]).group("github"),
        ])
        .expect("fields");
    let sl = ix.add([doc(&[("name", "send message")]).group("slack")]).expect("fields");
    assert_eq!(ix.groups().collect::<Vec<_>>(), ["github", "slack"]);
    let new = ix
        .replace_group("github", [doc(&[("name", "close issue")]), doc(&[("name", "star repo")])])
        .expect("fields");
    assert_eq!(ix.group_docs("github").collect::<Vec<_>>(), new);
    assert_eq!(ix.group_docs("slack").collect::<Vec<_>>(), sl);
    assert!(gh.iter().all(|&d| !ix.contains(d)));
    assert_eq!(ix.group_of(new[1]), Some("github"));
    assert_eq!(ix.len(), 3);
    assert_eq!(ix.search("close", 10).hits()[0].doc(), new[0]);
    assert!(ix.search("create", 10).is_empty());
    assert_eq!(ix.remove_group("slack"), 1);
    assert_eq!(ix.groups().collect::<Vec<_>>(), ["github"]);
    assert_eq!(ix.remove_group("nope"), 0);
}

#[test]
fn group_matches_follow_interleaved_and_moved_groups() {
    // Groups interleaved in one batch, then one replaced (its documents move to the end) and
    // one removed: each group matches the words of its own documents only.
    let mut ix = builder().build().expect("config");
    ix.add([
        doc(&[("name", "create issue")]).group("a"),
        doc(&[("name", "send message")]).group("b"),
        doc(&[("name", "list branches")]).group("a"),
        doc(&[("name", "upload file")]).group("c"),
        doc(&[("name", "star repo")]).group("b"),
    ])
    .expect("fields");
    let each = |ix: &Index, word: &str| -> Vec<bool> {
        ["a", "b", "c"].iter().map(|g| ix.matches_in_groups(word, &[*g])).collect()
    };
    assert_eq!(each(&ix, "branch"), [true, false, false]);
    assert_eq!(each(&ix, "star"), [false, true, false]);
    assert_eq!(each(&ix, "upload"), [false, false, true]);
    assert!(ix.matches_in_groups("star", &["c", "b"]));
    assert!(!ix.matches_in_groups("star", &["a", "c", "zz"]));
    ix.replace_group("a", [doc(&[("name", "star gist")]), doc(&[("name", "merge branch")])])
        .expect("fields");
    assert_eq!(each(&ix, "star"), [true, true, false]);
    assert_eq!(each(&ix, "issue"), [false, false, false]);
    assert_eq!(each(&ix, "branch"), [true, false, false]);
    assert_eq!(ix.remove_group("b"), 2);
    assert_eq!(each(&ix, "star"), [true, false, false]);
    assert_eq!(each(&ix, "upload"), [false, false, true]);
    assert!(ix.any_field_match_in_groups("merge", &["a"], &["name"], |_| true));
    assert!(!ix.any_field_match_in_groups("merge", &["c"], &["name"], |_| true));
}

#[test]
fn a_bad_batch_changes_nothing() {
    let (mut ix, ids) = index(&[&[("name", "alpha")]]);
    let before = ix.search("alpha", 10);
    let err = ix
        .add([doc(&[("name", "beta")]), doc(&[("title", "gamma")])])
        .expect_err("title is not a field");
    assert_eq!(err.kind(), &ErrorKind::UnknownField("title".into()));
    assert_eq!(err.to_string(), "unknown field `title`: the index has no such field");
    assert!(ix.replace_group("g", [doc(&[("nope", "x")])]).is_err());
    assert_eq!(ix.len(), 1);
    assert_eq!(ix.search("alpha", 10), before);
    assert!(ix.search("beta", 10).is_empty());
    assert_eq!(ix.docs().collect::<Vec<_>>(), ids);
}

#[test]
fn empty_index_and_empty_fields() {
    let ix = builder().build().expect("config");
    assert!(ix.is_empty());
    assert!(ix.search("anything", 10).is_empty());
    let (other, other_ids) = index(&[&[("name", "alpha")]]);
    assert!(ix.explain(other_ids[0], "alpha").is_none());
    assert!(other.explain(other_ids[0], "alpha").is_some());
    let (ix, ids) = index(&[&[], &[("name", "")], &[("details", "alpha")]]);
    assert_eq!(ix.len(), 3);
    assert_eq!(ix.search("alpha", 10).hits()[0].doc(), ids[2]);
}

#[test]
fn index_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Index>();
    let (ix, ids) = index(&[&[("name", "alpha")], &[("name", "beta")]]);
    std::thread::scope(|s| {
        let a = s.spawn(|| ix.search("alpha", 10));
        let b = s.spawn(|| ix.search("beta", 10));
        assert_eq!(a.join().map(|o| o.hits()[0].doc()).ok(), Some(ids[0]));
        assert_eq!(b.join().map(|o| o.hits()[0].doc()).ok(), Some(ids[1]));
    });
}
