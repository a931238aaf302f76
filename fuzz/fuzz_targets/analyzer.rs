//! Fuzzes the text analyzer: any text gives the same terms twice, through both entry points,
//! with non-empty words and non-decreasing positions.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolsift_text::{Analyzer, SnowballStemmer};

fn analyzers() -> &'static [Analyzer; 2] {
    static ANALYZERS: OnceLock<[Analyzer; 2]> = OnceLock::new();
    ANALYZERS.get_or_init(|| {
        [Analyzer::builder().build(), Analyzer::builder().stemmer(SnowballStemmer::new()).build()]
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for analyzer in analyzers() {
        let terms = analyzer.analyze(&text);
        assert_eq!(terms, analyzer.analyze(&text), "not deterministic");
        let mut streamed = Vec::new();
        analyzer.for_each_token(&text, |t| streamed.push((t.word.to_owned(), t.position)));
        let collected: Vec<(String, u32)> =
            terms.iter().map(|t| (t.word.clone(), t.position)).collect();
        assert_eq!(streamed, collected, "analyze and for_each_token disagree");
        let mut last = 0;
        for term in &terms {
            assert!(!term.word.is_empty(), "empty word from {text:?}");
            assert!(term.position >= last, "positions go back in {text:?}");
            last = term.position;
        }
    }
});
