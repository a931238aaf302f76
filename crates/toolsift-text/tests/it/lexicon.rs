//! The intent lexicon: parsing, lookups by stem, phrases, translations, and its laws.

use proptest::prelude::*;
use toolsift_text::{Analyzer, ErrorKind, Lexicon};

/// The built-in data files, parsed here with the public builder so a broken line fails a test.
const GROUPS: &str = include_str!("../../data/lexicon.txt");
const TRANSLATIONS: &str = include_str!("../../data/bilingual.txt");

/// What `lexicon` emits for the query word `word`, as `word:weight` with two decimals.
fn expand(lexicon: &Lexicon, word: &str) -> String {
    let analyzer = Analyzer::default();
    let mut out = Vec::new();
    for term in analyzer.analyze(word) {
        lexicon.expand(&term.word, &term.stem, &mut |w, x| out.push(format!("{w}:{x:.2}")));
    }
    out.join(" ")
}

/// Asserts the expansions of each `(query word, expected)` pair.
#[track_caller]
fn check(lexicon: &Lexicon, pairs: &[(&str, &str)]) {
    for &(word, want) in pairs {
        assert_eq!(expand(lexicon, word), want, "expansions of {word:?}");
    }
}

fn small() -> Lexicon {
    Lexicon::builder()
        .groups(
            "# comment line\n\
             delete, remove, drop   # trailing comment\n\
             pull request, pr, merge request\n\
             look up, fetch\n\
             cancel, hang up, shut down, call off\n\
             on-call, oncall, e-mail\n",
        )
        .and_then(|b| b.translations("删除 = delete\n拉取请求 = pull request\n"))
        .unwrap_or_else(|e| panic!("{e}"))
        .build()
}

#[test]
fn the_built_in_data_parses() {
    let built = Lexicon::builder()
        .groups(GROUPS)
        .and_then(|b| b.translations(TRANSLATIONS))
        .map(|b| b.build());
    let built = built.unwrap_or_else(|e| panic!("built-in data: {e}"));
    let default = Lexicon::default();
    assert_eq!(built.len(), default.len());
    assert!(default.len() > 500, "{default:?}");
    assert!(!default.is_empty());
}

#[test]
fn a_word_finds_the_other_members_of_its_group() {
    let lexicon = small();
    check(
        &lexicon,
        &[
            ("delete", "remove:1.00 drop:1.00"),
            // Any inflection: lookups go by stem.
            ("deleting", "remove:1.00 drop:1.00"),
            ("removed", "delete:1.00 drop:1.00"),
            // A particle (`up` of `look up`) is not emitted: alone it matches anything.
            ("fetch", "look:0.50"),
            ("unrelated", ""),
        ],
    );
}

#[test]
fn phrases_are_found_by_their_joined_form_and_emit_their_words() {
    let lexicon = small();
    check(
        &lexicon,
        &[
            // `pr` emits the words of both phrases, each at the phrase weight, each word once.
            ("pr", "pull:0.50 request:0.50 merge:0.50"),
            ("pullRequest", "pr:1.00 merge:0.50 request:0.50"),
            // `pull` alone is not the phrase.
            ("pull", ""),
            ("lookup", "fetch:1.00"),
            // Phrasal verbs emit their verbs, never their particles.
            ("cancel", "hang:0.50 shut:0.50 call:0.50"),
            ("hangup", "cancel:1.00 shut:0.50 call:0.50"),
            // A stopword inside a phrase (`on` of `on-call`) and a one-letter word (`e` of
            // `e-mail`) are never emitted; `email` is the joined form of `e-mail`.
            ("oncall", "mail:0.50 call:0.50"),
            ("email", "call:0.50 oncall:1.00"),
        ],
    );
}

#[test]
fn cjk_words_are_found_through_bigrams() {
    let lexicon = small();
    check(
        &lexicon,
        &[
            ("删除", "delete:1.00"),
            // Three bigrams share the weight of `拉取请求`, and the phrase halves it again.
            ("拉取请求", "pull:0.17 request:0.17 pull:0.17 request:0.17 pull:0.17 request:0.17"),
        ],
    );
}

#[test]
fn weights_are_configurable() {
    let lexicon = Lexicon::builder()
        .phrase_weight(0.25)
        .translation_weight(0.5)
        .groups("pull request, pr")
        .and_then(|b| b.translations("删除 = delete"))
        .unwrap_or_else(|e| panic!("{e}"))
        .build();
    check(&lexicon, &[("pr", "pull:0.25 request:0.25"), ("删除", "delete:0.50")]);
    let clamped = Lexicon::builder()
        .phrase_weight(7.0)
        .translation_weight(f32::NAN)
        .groups("pull request, pr")
        .and_then(|b| b.translations("删除 = delete"))
        .unwrap_or_else(|e| panic!("{e}"))
        .build();
    // A weight of 0 emits nothing.
    check(&clamped, &[("pr", "pull:1.00 request:1.00"), ("删除", "")]);
}

#[test]
fn bad_lines_are_errors_with_their_line() {
    let cases: [(&str, bool, ErrorKind, usize); 4] = [
        ("a, b\n\nlonely\n", true, ErrorKind::GroupTooSmall, 3),
        ("a, , \n", true, ErrorKind::GroupTooSmall, 1),
        ("# c\n删除 delete\n", false, ErrorKind::MissingEquals, 2),
        ("删除 = \n", false, ErrorKind::EmptySide, 1),
    ];
    for (text, groups, kind, line) in cases {
        let builder = Lexicon::builder();
        let got = if groups { builder.groups(text) } else { builder.translations(text) };
        let err = got.err().unwrap_or_else(|| panic!("{text:?} parsed"));
        assert_eq!((err.kind(), err.line()), (kind, line), "{text:?}");
        assert!(err.to_string().starts_with(&format!("line {line}: ")), "{err}");
    }
}

#[test]
fn the_default_lexicon_knows_common_intents() {
    let lexicon = Lexicon::default();
    let has = |word: &str, other: &str| {
        expand(&lexicon, word).split(' ').any(|e| e.starts_with(&format!("{other}:")))
    };
    assert!(has("delete", "remove"));
    assert!(has("repo", "repository"));
    assert!(has("ticket", "issue"));
    assert!(has("mr", "pull"));
    assert!(has("创建", "create"));
    // Pruned: words with many unrelated senses expand to nothing.
    for broad in ["page", "item", "type", "server"] {
        assert_eq!(expand(&lexicon, broad), "", "{broad}");
    }
    assert!(format!("{lexicon:?}").starts_with("Lexicon { keys: "));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the query word: weights are in (0, 1], each word comes once, never a word with
    /// the query's own stem, and `expansions` agrees with `expand`.
    #[test]
    fn expansions_are_well_formed(word in "[a-z]{1,12}|[\\u{4e00}-\\u{4e20}]{2}") {
        let lexicon = Lexicon::default();
        let analyzer = Analyzer::default();
        for term in analyzer.analyze(&word) {
            let mut seen: Vec<(String, f32)> = Vec::new();
            lexicon.expand(&term.word, &term.stem, &mut |w, x| seen.push((w.to_owned(), x)));
            let listed: Vec<(String, f32)> =
                lexicon.expansions(&term.stem).map(|(w, x)| (w.to_owned(), x)).collect();
            prop_assert_eq!(&seen, &listed);
            for (i, (w, x)) in seen.iter().enumerate() {
                prop_assert!(*x > 0.0 && *x <= 1.0, "{} {}", w, x);
                prop_assert!(seen[..i].iter().all(|(v, _)| v != w), "{} twice", w);
                let stem = analyzer.stem(w).into_owned();
                prop_assert_ne!(stem, term.stem.clone());
            }
        }
    }

    /// Lookups are symmetric inside a group of one-word members: if `a` emits `b`, `b` emits
    /// `a` (or a word with `a`'s stem).
    #[test]
    fn one_word_groups_are_symmetric(i in 0usize..64, j in 0usize..64) {
        let groups = "delete, remove, drop, erase\ncreate, add, new, make\nlist, enumerate\n";
        let lexicon = Lexicon::builder().groups(groups).map(|b| b.build()).unwrap_or_else(|e| panic!("{e}"));
        let words: Vec<&str> = groups.split([',', '\n']).map(str::trim).filter(|w| !w.is_empty()).collect();
        let (a, b) = (words[i % words.len()], words[j % words.len()]);
        let analyzer = Analyzer::default();
        let emits = |from: &str, to: &str| {
            lexicon.expansions(&analyzer.stem(from)).any(|(w, _)| analyzer.stem(w) == analyzer.stem(to))
        };
        prop_assert_eq!(emits(a, b), emits(b, a));
    }
}

#[test]
fn every_expansion_shares_an_entry_with_its_term() {
    let lexicon = Lexicon::default();
    let analyzer = Analyzer::default();
    let words = [
        "delete",
        "pr",
        "lookup",
        "create",
        "fetch",
        "signin",
        "pullrequest",
        "删除",
        "创建",
        "repo",
        "email",
        "shutdown",
        "unknownword",
    ];
    let mut checked = 0;
    for word in words {
        for term in analyzer.analyze(word) {
            let keys = lexicon.key_entries(&term.stem);
            if term.origin == toolsift_text::Origin::Bigram {
                // A CJK bigram is a piece of a word: it expands, but has no entry.
                assert!(keys.is_empty(), "{word}");
                continue;
            }
            lexicon.expand(&term.word, &term.stem, &mut |emitted, _| {
                let stem = analyzer.stem(emitted);
                let shared = lexicon.word_entries(&stem).iter().any(|e| keys.contains(e));
                assert!(shared, "{word} emits {emitted} without a shared entry");
                checked += 1;
            });
        }
    }
    assert!(checked > 50, "{checked}");
    assert!(lexicon.key_entries("unknownword").is_empty());
}
