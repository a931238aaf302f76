//! `describe` resolves model-facing names; `explain` accounts for scores.

use toolsift::ToolId;

use crate::mixed;

#[test]
fn describe_resolves_model_facing_names() {
    let search = mixed();
    let tool = search.describe("mcp__slack__slack_post_message").expect("known name");
    assert_eq!(tool.id, ToolId::new("slack", "slack_post_message"));
    assert!(tool.input_schema["properties"]["channel_id"].is_object());
    let op = search.describe("openapi__petstore__getPetById").expect("known name");
    assert_eq!(op.openapi.as_ref().map(|o| o.path.as_str()), Some("/pet/{petId}"));
    assert!(search.describe("slack_post_message").is_none());
    assert!(search.describe("").is_none());
}

#[test]
fn explain_matches_the_search_score() {
    let search = mixed();
    let query = "post a message to a slack channel";
    let hit = search.search(query, 1).into_hits().remove(0);
    let explanation = search.explain(query, hit.tool()).expect("indexed tool");
    // The query spells `slack_post_message`: the hit's score is the index's times the factor.
    assert!(hit.name_match() && !hit.demoted());
    let raised = explanation.score * search.name_match();
    assert!((raised - hit.score()).abs() < 1e-4, "{explanation}");
    let words: Vec<&str> = explanation.terms.iter().map(|t| t.word.as_str()).collect();
    assert!(words.contains(&"message"), "{words:?}");
    // A tool the query does not touch scores 0; an unknown tool has no explanation.
    let other = search.explain(query, &ToolId::new("petstore", "deletePet")).expect("indexed");
    assert!(other.score.abs() < 1e-6);
    assert!(search.explain(query, &ToolId::new("nope", "nothing")).is_none());
}

#[test]
fn explain_counts_implied_words() {
    let search = mixed();
    // `#general` implies `channel`: the explanation has that term and the hit's score.
    let query = "post the release notes to #general";
    let hit = search.search(query, 1).into_hits().remove(0);
    let explanation = search.explain(query, hit.tool()).expect("indexed tool");
    assert!((explanation.score - hit.score()).abs() < 1e-5, "{explanation}");
    assert!(explanation.terms.iter().any(|t| t.word == "channel"), "{explanation}");
}
