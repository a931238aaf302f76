//! Stemming: the light stemmer's tables, and the Snowball stemmer behind its feature.

use toolsift_text::{Analyzer, LightStemmer, Stemmer};

/// Asserts the light stem of every `(word, stem)` pair.
#[track_caller]
fn check_stems(pairs: &[(&str, &str)]) {
    for &(word, expect) in pairs {
        assert_eq!(LightStemmer.stem(word), expect, "stem of {word:?}");
        let mut buf = String::from("garbage");
        assert_eq!(LightStemmer.stem_buffered(word, &mut buf), expect, "buffered stem of {word:?}");
    }
}

/// Asserts that all `words` share one light stem.
#[track_caller]
fn check_same(words: &[&str]) {
    let stems: Vec<_> = words.iter().map(|w| LightStemmer.stem(w)).collect();
    assert!(stems.windows(2).all(|w| w[0] == w[1]), "{words:?} stem to {stems:?}");
}

#[test]
fn inflections_share_a_stem() {
    check_same(&["create", "created", "creates", "creating"]);
    check_same(&["issue", "issues", "issued"]);
    check_same(&["repository", "repositories"]);
    check_same(&["message", "messages"]);
    check_same(&["run", "runs", "running"]);
    check_same(&["stop", "stops", "stopped", "stopping"]);
    check_same(&["update", "updates", "updated", "updating"]);
    check_same(&["list", "lists", "listing", "listed", "listings"]);
    check_same(&["query", "queries", "queried", "querying"]);
    check_same(&["process", "processes", "processed", "processing"]);
    check_same(&["analysis", "analyses", "analyse"]);
    check_same(&["use", "uses", "used", "using"]);
    check_same(&["status", "statuses"]);
    check_same(&["address", "addresses"]);
    check_same(&["box", "boxes"]);
    check_same(&["match", "matches", "matched", "matching"]);
    check_same(&["cache", "caches", "cached", "caching"]);
    check_same(&["set", "sets", "setting", "settings"]);
    check_same(&["call", "calls", "called", "calling"]);
    check_same(&["add", "adds", "added", "adding"]);
    check_same(&["embed", "embeds", "embedded", "embedding"]);
    check_same(&["log", "logs", "logged", "logging"]);
    check_same(&["try", "tries", "tried", "trying"]);
    check_same(&["cookie", "cookies"]);
    check_same(&["alias", "aliases"]);
    check_same(&["menu", "menus"]);
    check_same(&["api", "apis"]);
    check_same(&["key", "keys"]);
}

#[test]
fn some_words_stay_whole() {
    check_stems(&[
        ("status", "status"),
        ("address", "address"),
        ("news", "news"),
        ("string", "string"),
        ("strings", "string"),
        ("bus", "bus"),
        ("thing", "thing"),
        ("redis", "redis"),
        ("series", "series"),
        ("speed", "speed"),
        ("need", "need"),
        ("ids", "ids"),
        ("key", "key"),
    ]);
}

#[test]
fn stem_table() {
    check_stems(&[
        ("create", "creat"),
        ("issues", "issu"),
        ("repositories", "repositori"),
        ("running", "run"),
        ("stopped", "stop"),
        ("listing", "list"),
        ("queries", "queri"),
        ("processes", "process"),
        ("analyses", "analys"),
        ("using", "use"),
        ("https", "http"),
        ("employees", "employee"),
        ("calling", "call"),
        ("pulls", "pull"),
    ]);
}

#[test]
fn never_below_three_letters_and_only_ascii_letters() {
    check_stems(&[
        ("as", "as"),
        ("is", "is"),
        ("yes", "yes"),
        ("ties", "tie"),
        ("being", "being"),
        ("ring", "ring"),
        ("v1s", "v1s"),
        ("oauth2", "oauth2"),
        ("cafés", "cafés"),
        ("日本", "日本"),
        ("", ""),
    ]);
}

#[test]
fn the_analyzer_stems_words_and_parts() {
    let terms = Analyzer::default().analyze("listIssues");
    let stems: Vec<&str> = terms.iter().map(|t| t.stem.as_str()).collect();
    assert_eq!(stems, ["listissu", "list", "issu"]);
    assert_eq!(Analyzer::default().stem("messages"), "messag");
}

#[cfg(feature = "snowball")]
#[test]
fn snowball_is_porter2() {
    use toolsift_text::SnowballStemmer;
    let analyzer = Analyzer::builder().stemmer(SnowballStemmer::new()).build();
    for (word, stem) in [
        ("running", "run"),
        ("issues", "issu"),
        ("repositories", "repositori"),
        ("generalization", "general"),
        ("created", "creat"),
    ] {
        assert_eq!(analyzer.stem(word), stem, "stem of {word:?}");
    }
    let terms = analyzer.analyze("listRepositories");
    let stems: Vec<&str> = terms.iter().map(|t| t.stem.as_str()).collect();
    assert_eq!(stems, ["listrepositori", "list", "repositori"]);
    assert_eq!(format!("{:?}", SnowballStemmer::default()), "SnowballStemmer(english)");
}

#[test]
fn a_short_word_keeps_its_final_e() {
    // One vowel between consonants and one final consonant: the `e` stays, so these pairs of
    // different words no longer share a stem.
    for (a, b) in [("note", "not"), ("state", "stats"), ("side", "sid"), ("type", "typ")] {
        assert_ne!(LightStemmer.stem(a), LightStemmer.stem(b), "{a} / {b}");
    }
    for (a, b) in [("plane", "plan"), ("none", "non"), ("theme", "them")] {
        assert_ne!(LightStemmer.stem(a), LightStemmer.stem(b), "{a} / {b}");
    }
    // Their inflections get the `e` back, unless a consonant was undoubled.
    check_same(&["note", "notes", "noted", "noting"]);
    check_same(&["type", "types", "typed", "typing"]);
    check_same(&["make", "makes", "making"]);
    check_same(&["page", "pages", "paging"]);
    check_same(&["save", "saves", "saved", "saving"]);
    check_same(&["plan", "plans", "planned", "planning"]);
    // Longer words still lose it, and a vowel pair is not a short word.
    check_stems(&[("update", "updat"), ("delete", "delet"), ("remove", "remov")]);
    check_stems(&[("create", "creat"), ("creating", "creat"), ("opening", "open")]);
    check_stems(&[("state", "state"), ("stated", "state"), ("cafe", "cafe")]);
}
