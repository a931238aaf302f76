//! Unit tests of private internals: key normalization, the vocabulary's related terms.

use crate::config::Relation;
use crate::keys::normalize_key;
use crate::vocab::{Form, Vocab};

#[test]
fn key_normalization() {
    for (input, want) in [
        ("create_issue", "create_issue"),
        ("Create-Issue", "create_issue"),
        ("  create  issue ", "create_issue"),
        ("mcp__github__create_issue", "mcp_github_create_issue"),
        ("github/create.issue", "github/create_issue"),
        ("-_.", ""),
        ("ÉTAT", "état"),
    ] {
        assert_eq!(normalize_key(input), want, "input {input:?}");
    }
}

fn vocab(words: &[(&str, &str)]) -> Vocab {
    let mut v = Vocab::default();
    for &(w, s) in words {
        let t = v.intern(w, s).unwrap_or(0);
        v.terms[t as usize].postings.push(crate::vocab::Posting { doc: 0, pf: 1.0 });
    }
    v.finish();
    v
}

#[track_caller]
fn check_related(v: &Vocab, word: &str, stem: &str, want: &[(&str, Relation)]) {
    let mut out: Vec<Form> = Vec::new();
    v.related(word, stem, 4, &mut out);
    let got: Vec<(&str, Relation)> =
        out.iter().map(|f| (&*v.terms[f.term as usize].word, f.relation)).collect();
    assert_eq!(got, want, "related({word:?}, {stem:?})");
}

#[test]
fn related_terms_from_sorted_tables() {
    let v = vocab(&[
        ("repository", "repository"),
        ("repositories", "repository"),
        ("repos", "repo"),
        ("repo", "repo"),
        ("report", "report"),
        ("rep", "rep"),
        ("list", "list"),
    ]);
    use Relation::*;
    check_related(
        &v,
        "repo",
        "repo",
        &[
            ("repo", Exact),
            ("repos", Stem),
            ("report", Prefix),
            ("repositories", Prefix),
            ("repository", Prefix),
        ],
    );
    check_related(
        &v,
        "repository",
        "repository",
        &[("repository", Exact), ("repositories", Stem), ("repo", Prefix), ("repos", Prefix)],
    );
    // Not in the vocabulary, but its stem is.
    check_related(
        &v,
        "repositorys",
        "repository",
        &[("repositories", Stem), ("repository", Stem), ("repo", Prefix), ("repos", Prefix)],
    );
    // Shorter than 4 characters: no prefix relations.
    check_related(&v, "rep", "rep", &[("rep", Exact)]);
    check_related(&v, "unknown", "unknown", &[]);
    // Neither word nor stem indexed: prefixes by lookup (longest first), extensions by search.
    check_related(
        &v,
        "repositoryx",
        "repositoryx",
        &[("repositories", Prefix), ("repository", Prefix), ("repo", Prefix), ("repos", Prefix)],
    );
    check_related(&v, "repor", "repor", &[("repo", Prefix), ("repos", Prefix), ("report", Prefix)]);
    // A stem with a chain of indexed prefixes: longest first.
    let v = vocab(&[
        ("abcd", "abcd"),
        ("abcde", "abcde"),
        ("abcdef", "abcdef"),
        ("abcdefg", "abcdefg"),
        ("abd", "abd"),
    ]);
    check_related(
        &v,
        "abcdef",
        "abcdef",
        &[("abcdef", Exact), ("abcde", Prefix), ("abcd", Prefix), ("abcdefg", Prefix)],
    );
    check_related(
        &v,
        "abcd",
        "abcd",
        &[("abcd", Exact), ("abcde", Prefix), ("abcdef", Prefix), ("abcdefg", Prefix)],
    );
}
