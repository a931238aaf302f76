//! `toolsift listing`.

use serde_json::Value;

use crate::toolsift;

/// The `form` of every server in a `--json` listing.
fn forms(doc: &Value) -> Vec<String> {
    doc["servers"]
        .as_array()
        .map(|s| s.iter().map(|x| x["form"].as_str().unwrap_or("?").to_owned()).collect())
        .unwrap_or_default()
}

#[test]
fn default_budget_fits_and_stderr_names_the_forms() {
    let run = toolsift(&["listing"]).status(0);
    assert!(run.stdout.starts_with("## "), "{}", run.stdout);
    assert!(run.stdout.lines().all(|l| l.starts_with("## ") || l.starts_with("- ")));
    assert!(run.stderr.starts_with("toolsift: listing: "), "{}", run.stderr);
    assert!(run.stderr.contains(" of 2000 tokens"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);

    let doc = toolsift(&["listing", "--json"]).status(0).json();
    assert_eq!(doc["form"], "auto");
    assert_eq!(doc["budget"], 2000);
    assert!(doc["tokens"].as_u64().is_some_and(|t| t <= 2000));
    assert_eq!(doc["text"].as_str(), Some(run.stdout.as_str()));
    assert_eq!(doc["servers"].as_array().map(Vec::len), Some(7));
    assert_eq!(doc["complete"], false);
}

#[test]
fn a_large_budget_lists_everything_in_full() {
    let doc = toolsift(&["listing", "--budget", "100000", "--json"]).status(0).json();
    assert_eq!(doc["complete"], true);
    assert!(forms(&doc).iter().all(|f| f == "full"));
    // Each block is estimated on its own, so the sum can exceed the whole by a rounding.
    assert!(doc["tokens"].as_u64() <= doc["full_tokens"].as_u64());
}

#[test]
fn forced_forms() {
    let full = toolsift(&["listing", "--form", "full", "--json"]).status(0).json();
    assert!(forms(&full).iter().all(|f| f == "full"));
    assert_eq!(full["budget"], Value::Null);

    let names = toolsift(&["listing", "--form", "names"]).status(0);
    assert!(names.stdout.lines().filter(|l| l.starts_with("- ")).all(|l| !l.contains(": ")));
    assert!(names.stderr.contains("names: "), "{}", names.stderr);
    let names = toolsift(&["listing", "--form", "names", "--json"]).status(0).json();
    assert!(forms(&names).iter().all(|f| f == "names"), "{:?}", forms(&names));

    let groups = toolsift(&["listing", "--form", "groups"]).status(0);
    assert_eq!(groups.stdout.lines().count(), 7, "{}", groups.stdout);
    assert!(groups.stdout.lines().all(|l| l.contains("search to see")), "{}", groups.stdout);

    let over = toolsift(&["listing", "--form", "full", "--budget", "10"]).status(0);
    assert!(over.stderr.contains("over the budget of 10"), "{}", over.stderr);
}

/// A budget too small for anything still prints the smallest honest listing (issue #39): one
/// line counting the servers and telling the model to search, with a note on stderr.
#[test]
fn a_budget_nothing_fits_prints_the_smallest_honest_form() {
    for budget in ["0", "10"] {
        let run = toolsift(&["listing", "--budget", budget]).status(0);
        assert_eq!(run.stdout, "## 7 servers (407 tools — search to see them)\n", "{budget}");
        assert!(run.stderr.contains(&format!("over the budget of {budget}")), "{}", run.stderr);
        let doc = toolsift(&["listing", "--budget", budget, "--json"]).status(0).json();
        assert_eq!(doc["text"], "## 7 servers (407 tools — search to see them)\n");
        assert!(forms(&doc).iter().all(|f| f == "omitted"));
    }
}

#[test]
fn tokenizers_count_the_budget() {
    use toolsift::listing::OpenAiEncoding;

    // The estimate keeps the listing within its budget in real tokens.
    let doc = toolsift(&["listing", "--budget", "2000", "--json"]).status(0).json();
    assert_eq!(doc["tokenizer"], "estimate");
    let text = doc["text"].as_str().unwrap_or_default();
    for encoding in [OpenAiEncoding::Cl100k, OpenAiEncoding::O200k] {
        let real = encoding.count(text);
        assert!((1700..=2000).contains(&real), "{encoding}: {real}");
    }

    // An exact tokenizer budgets and reports in its own tokens.
    for (flag, encoding) in [("cl100k", OpenAiEncoding::Cl100k), ("o200k", OpenAiEncoding::O200k)] {
        let args = ["listing", "--budget", "2000", "--tokenizer", flag, "--json"];
        let doc = toolsift(&args).status(0).json();
        assert_eq!(doc["tokenizer"], flag);
        let text = doc["text"].as_str().unwrap_or_default();
        assert_eq!(doc["tokens"].as_u64(), Some(encoding.count(text) as u64));
        // Seven servers divide the budget coarsely: 1,710 cl100k tokens fill it best.
        assert!(doc["tokens"].as_u64().is_some_and(|t| (1600..=2000).contains(&t)), "{doc}");
        let run = toolsift(&["listing", "--budget", "2000", "--tokenizer", flag]).status(0);
        assert!(run.stderr.contains(&format!(" of 2000 tokens ({flag})")), "{}", run.stderr);
    }
    toolsift(&["listing", "--tokenizer", "words"]).status(2);
}
