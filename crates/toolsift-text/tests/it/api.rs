//! The small value types and the analyzer's traits.

use toolsift_text::{Analyzer, AnalyzerBuilder, Origin, StopwordPolicy, Term, Token};

#[test]
fn origins_print_lowercase() {
    let names: Vec<String> =
        [Origin::Whole, Origin::Part, Origin::Bigram].iter().map(ToString::to_string).collect();
    assert_eq!(names, ["whole", "part", "bigram"]);
    assert!(Origin::Whole < Origin::Part && Origin::Part < Origin::Bigram);
}

#[test]
fn terms_and_tokens_convert() {
    let token = Token { word: "issues", stem: "issu", origin: Origin::Part, position: 3 };
    let term = Term::from(token);
    assert_eq!(term.as_token(), token);
    assert_eq!(term.word, "issues");
}

#[test]
fn analyzers_are_cheap_shared_values() {
    fn shared<T: Send + Sync + Clone + Default + std::fmt::Debug>() {}
    shared::<Analyzer>();
    let builder = AnalyzerBuilder::default();
    assert_eq!(builder.build().stopword_policy(), StopwordPolicy::PlainWords);
    let analyzer = Analyzer::default();
    let handle = std::thread::spawn({
        let analyzer = analyzer.clone();
        move || analyzer.analyze("getIssues")
    });
    let from_thread = handle.join().unwrap_or_default();
    assert_eq!(from_thread, analyzer.analyze("getIssues"));
    assert_eq!(from_thread.len(), 3);
}

#[test]
fn debug_output_stays_short() {
    let debug = format!("{:?}", Analyzer::default());
    assert!(debug.len() < 300, "{debug}");
    assert!(debug.contains("LightStemmer") && debug.contains("PlainWords"), "{debug}");
}
