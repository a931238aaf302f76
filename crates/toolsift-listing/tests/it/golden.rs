//! Byte-for-byte golden listings of real catalogs from the tuning set.
//!
//! The files live in `tests/golden/`. `UPDATE_GOLDEN=1 cargo test -p toolsift-listing --test it
//! golden` rewrites them; review the change with `git diff` before committing it.

use std::path::PathBuf;

use toolsift_listing::{
    CharsPerToken, Form, Hit, Lister, ListingBuilder, Order, Placement, ResultForm,
};

use crate::common::{all_catalog_files, parse_listing, real_catalog};

const THREE: [&str; 3] = ["mcp/github.json", "mcp/slack.json", "openapi/okta-management.yaml"];

/// Compares `actual` with the golden file `name`, or rewrites it under `UPDATE_GOLDEN=1`.
#[track_caller]
fn check_golden(name: &str, actual: &str) {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden")).join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return;
    }
    let line = expected
        .split_inclusive('\n')
        .zip(actual.split_inclusive('\n'))
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    panic!(
        "golden file {} differs from the output at line {}\n  expected: {:?}\n  actual:   {:?}\n\
         ({} vs {} bytes)\nhelp: if the change is intended, rerun with UPDATE_GOLDEN=1 \
         cargo test -p toolsift-listing --test it golden and review `git diff`",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end of file>"),
        actual.lines().nth(line).unwrap_or("<end of output>"),
        expected.len(),
        actual.len(),
    );
}

/// The listing of github + slack + okta-management at `budget`, with the forms it must give.
#[track_caller]
fn check_three(budget: usize, forms: [Form; 3]) {
    let catalog = real_catalog(&THREE);
    let listing = Lister::default().listing(&catalog, budget);
    assert!(listing.tokens() <= budget);
    if let Err(e) = parse_listing(listing.text()) {
        panic!("{e}");
    }
    let got: Vec<(&str, Form)> = listing.servers().iter().map(|s| (s.name(), s.form())).collect();
    assert_eq!(got, [("github", forms[0]), ("okta-management", forms[1]), ("slack", forms[2])]);
    check_golden(&format!("github-slack-okta-{budget}.txt"), listing.text());
}

#[test]
fn github_slack_okta_500() {
    check_three(500, [Form::Summary, Form::Summary, Form::Full]);
}

#[test]
fn github_slack_okta_2000() {
    check_three(2_000, [Form::NamesOnly, Form::Summary, Form::Full]);
}

#[test]
fn github_slack_okta_8000() {
    check_three(8_000, [Form::Full, Form::Summary, Form::Full]);
}

#[test]
fn all_catalogs_4000() {
    let files = all_catalog_files();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let catalog = real_catalog(&files);
    assert_eq!(catalog.len(), 3_952);
    let listing = Lister::default().listing(&catalog, 4_000);
    assert!(listing.tokens() <= 4_000);
    if let Err(e) = parse_listing(listing.text()) {
        panic!("{e}");
    }
    check_golden("all-4000.txt", listing.text());
}

/// `Lister::listing` renders only what a budget needs; its listing must be the one a full
/// preparation renders, at every budget, with every estimator and order.
#[test]
fn listing_equals_the_prepared_listing_on_all_catalogs() {
    let files = all_catalog_files();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let catalog = real_catalog(&files);
    let listers = [
        Lister::default(),
        ListingBuilder::new().order(Order::Catalog).build(),
        ListingBuilder::new().estimator(CharsPerToken::new(3)).description_chars(40).build(),
        ListingBuilder::new().estimator(|t: &str| t.split_whitespace().count()).build(),
    ];
    let budgets = (0..40).map(|i| i * 250).chain([4_000, 12_000, 30_000, 80_000, 200_000]);
    for lister in &listers {
        let prepared = lister.prepare(&catalog);
        for budget in budgets.clone() {
            assert_eq!(
                lister.listing(&catalog, budget),
                prepared.render(budget),
                "budget {budget}"
            );
        }
    }
}

#[test]
fn search_results_and_bridge_tools() {
    let catalog = real_catalog(&THREE);
    let lister = Lister::default();
    let wanted = [
        "mcp__github__create_issue",
        "mcp__github__search_code",
        "mcp__slack__slack_post_message",
        "openapi__okta-management__listUsers",
        "openapi__okta-management__createUser",
    ];
    let hits: Vec<Hit<'_>> = wanted
        .iter()
        .map(|name| {
            let tool = catalog.tool_by_model_name(name).unwrap_or_else(|| panic!("no {name}"));
            Hit::new(tool, name)
        })
        .collect();
    let text = lister.render_hits(&hits, ResultForm::Text).to_string();
    check_golden("results-text.txt", &text);

    let listing = lister.listing(&catalog, 2_000);
    let bridge = lister.bridge_tools(&listing, Placement::SearchDescription);
    let tools: Vec<serde_json::Value> = bridge.iter().map(|t| t.to_anthropic()).collect();
    let json = serde_json::to_string_pretty(&tools).unwrap_or_default() + "\n";
    check_golden("bridge-tools.json", &json);
}
