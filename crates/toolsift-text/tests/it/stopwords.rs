//! Stopwords: dropped from natural text, kept inside identifiers (by default).

use toolsift_text::{Analyzer, StopwordPolicy, default_stopwords};

use crate::{check, check_with};

#[test]
fn plain_stopwords_are_dropped() {
    check("Please list all the issues of my repo", "list issues repo");
    check("I want a tool to create issues", "create issues");
    check("how do I send a message", "send message");
    check("can't won't user's", "user");
}

#[test]
fn a_text_of_only_stopwords_yields_nothing() {
    check("the", "");
    check("How can I use some of these tools, please?", "");
    check("THE And OF", "");
}

#[test]
fn stopwords_inside_identifiers_are_kept() {
    check("get_me", "get me");
    check("getMe", "getme +get +me");
    check("tell me", "tell");
    check("up-to-date", "up to date");
    check("read/write and/or", "read write and or");
}

#[test]
fn policy_everywhere_drops_identifier_stopwords_too() {
    let analyzer = Analyzer::builder().stopword_policy(StopwordPolicy::Everywhere).build();
    check_with(&analyzer, "get_me", "get");
    check_with(&analyzer, "getMe", "getme +get");
    check_with(&analyzer, "tell me", "tell");
}

#[test]
fn policy_nowhere_keeps_everything() {
    let analyzer = Analyzer::builder().stopword_policy(StopwordPolicy::Nowhere).build();
    check_with(&analyzer, "tell me the news", "tell me the news");
    assert!(analyzer.is_stopword("the"));
    assert_eq!(analyzer.stopword_policy(), StopwordPolicy::Nowhere);
}

#[test]
fn the_list_can_be_replaced() {
    let analyzer = Analyzer::builder().stopwords(["Issue", "  the "]).build();
    check_with(&analyzer, "The issue of my repo", "of my repo");
    let long = Analyzer::builder().stopwords(["Supercalifragilisticexpialidocious", ""]).build();
    check_with(&long, "supercalifragilisticexpialidocious words", "words");
    let none = Analyzer::builder().stopwords(Vec::<String>::new()).build();
    check_with(&none, "the", "the");
}

#[test]
fn is_stopword_folds_its_input() {
    let analyzer = Analyzer::default();
    assert!(analyzer.is_stopword("The"));
    assert!(analyzer.is_stopword("TOOLS"));
    assert!(!analyzer.is_stopword("issue"));
    assert!(!analyzer.is_stopword(""));
}

#[test]
fn the_default_list_is_folded_data_without_intent_words() {
    let words: Vec<&str> = default_stopwords().collect();
    assert!(words.len() > 150, "the list has {} words", words.len());
    for word in &words {
        assert_eq!(*word, toolsift_text::fold(word), "{word:?} must be written folded");
        assert!(word.chars().all(char::is_alphanumeric), "{word:?} is not one word");
    }
    for intent in ["get", "list", "create", "delete", "update", "search", "find", "up", "off"] {
        assert!(!words.contains(&intent), "{intent:?} carries intent");
    }
    let mut sorted = words.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), words.len(), "the list has duplicates");
}
