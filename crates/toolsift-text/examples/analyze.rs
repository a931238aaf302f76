//! Prints the terms of the text given on the command line, one per line: word, stem, origin.
//!
//! ```text
//! cargo run --example analyze -p toolsift-text -- "getHTTPResponseCode"
//! ```
// An example program reports on stdout; that is its whole purpose.
#![allow(clippy::print_stdout)]

use toolsift_text::Analyzer;

fn main() {
    // All arguments together are the text, so quoting is optional.
    let text = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let analyzer = Analyzer::default();
    analyzer.for_each_token(&text, |token| {
        println!("{}\t{}\t{}\t{}", token.position, token.word, token.stem, token.origin);
    });
}
