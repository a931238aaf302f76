//! Short descriptions: first sentence, cleaning, clipping.

use toolsift_listing::short_description;

#[track_caller]
fn check(text: &str, max: usize, expect: &str) {
    let got = short_description(text, max);
    assert_eq!(got, expect, "short_description({text:?}, {max})");
    assert!(got.chars().count() <= max, "{got:?} is longer than {max}");
}

#[test]
fn first_sentence_ends_at_terminal_punctuation() {
    check("Add a reaction. Then more.", 80, "Add a reaction");
    check("Is it done? Check it.", 80, "Is it done?");
    check("Stop now! Really.", 80, "Stop now!");
    check("No period at all", 80, "No period at all");
    check("Ends with a period.", 80, "Ends with a period");
    check("Quoted (like this.) Next.", 80, "Quoted (like this.)");
    check("He said \"go.\" Then left.", 80, "He said \"go.\"");
}

#[test]
fn periods_inside_words_and_abbreviations_do_not_end_it() {
    check("Works on v1.2 and later. Other.", 80, "Works on v1.2 and later");
    check(
        "Fetch https://example.com/a.b.c for you. Next.",
        80,
        "Fetch https://example.com/a.b.c for you",
    );
    check("Read config.yaml first. Next.", 80, "Read config.yaml first");
    check("Pick a target, e.g. a file. Next.", 80, "Pick a target, e.g. a file");
    check("Pick one, i.e. the best. Next.", 80, "Pick one, i.e. the best");
    check("Files, folders, etc. are listed. Next.", 80, "Files, folders, etc. are listed");
    check("Cats vs. dogs compared. Next.", 80, "Cats vs. dogs compared");
    check("Made in the U.S. by us. Next.", 80, "Made in the U.S. by us");
    check("Lists files, folders, etc.", 80, "Lists files, folders, etc.");
    check("Pick a format (e.g. JSON). Next.", 80, "Pick a format (e.g. JSON)");
}

#[test]
fn blocks_and_blank_lines_end_it() {
    check("Summary line\n\nLonger description.", 80, "Summary line");
    check("Summary line\r\n\r\nLonger.", 80, "Summary line");
    check("Search for issues:\n- by label\n- by state", 80, "Search for issues");
    check("Usage\n## Heading", 80, "Usage");
    check("Example\n```json\n{}", 80, "Example");
    check("Steps\n1. first\n2. second", 80, "Steps");
    // A single line break inside a sentence is only whitespace.
    check(
        "Gets metadata for a metric including\n        statistics. Next.",
        80,
        "Gets metadata for a metric including statistics",
    );
}

#[test]
fn cjk_sentences() {
    check("获取日程信息。其他内容。", 80, "获取日程信息。");
    check("[Feishu/Lark]-日历-日程管理-创建日程", 80, "[Feishu/Lark]-日历-日程管理-创建日程");
    // CJK characters are word boundaries.
    check("调用该接口以当前身份在指定日历上创建一个日程", 10, "调用该接口以当前身…");
}

#[test]
fn leading_markup_and_whitespace_are_skipped() {
    check("\n  Scrape content from a URL.\nMore.", 80, "Scrape content from a URL");
    check("# Title\n\nBody.", 80, "Title");
    check("## Heading text", 80, "Heading text");
    check("- list item first. Next.", 80, "list item first");
    check("> quoted text", 80, "quoted text");
    check("-1 is a number", 80, "-1 is a number");
    check("#hashtag stays", 80, "#hashtag stays");
}

#[test]
fn cleaning_drops_invisibles_and_collapses_whitespace() {
    check("Tab\tseparated   words", 80, "Tab separated words");
    check("Hidden\u{202E}override\u{200B} here", 80, "Hiddenoverride here");
    check("Bell\u{7}\u{1B}[31m red", 80, "Bell[31m red");
    check("Tags\u{E0041}\u{E0042} gone", 80, "Tags gone");
    check("\u{FEFF}BOM first", 80, "BOM first");
    check("Line\u{2028}separator", 80, "Line separator");
    check("", 80, "");
    check("   \n\t ", 80, "");
    check("\u{200B}\u{202E}", 80, "");
}

#[test]
fn clipping_on_word_boundaries() {
    check("Create a new issue in a GitHub repository", 20, "Create a new issue…");
    check("Create a new issue in a GitHub repository", 19, "Create a new issue…");
    check("Create a new issue in a GitHub repository", 18, "Create a new…");
    check("Create, update, or delete things", 16, "Create, update…");
    check("Supercalifragilisticexpialidocious word", 10, "Supercali…");
    check("Exactly ten", 11, "Exactly ten");
    check("Exactly ten.", 11, "Exactly ten");
    check("Anything", 1, "…");
    check("Anything", 0, "");
    check("A b", 2, "A…");
    // Shrunk from a proptest failure: the removed final period left a trailing space.
    check("a\n. ", 2, "a");
}

#[test]
fn long_inputs_are_linear() {
    // A huge run of whitespace, invisibles and periods-in-words stays fast (linear) and
    // still yields the first sentence.
    let mut text = String::from("Start");
    text.push_str(&" \u{200B}".repeat(200_000));
    text.push_str("end.");
    check(&text, 80, "Start end");
    let dots = "a.".repeat(300_000);
    let got = short_description(&dots, 80);
    assert_eq!(got.chars().count(), 80);
    assert!(got.ends_with('…'));
    let periods = ". ".repeat(300_000);
    check(&periods, 80, "");
}
