//! Tests of the ranking-setting overrides.

use super::{builder, parse_list};

fn settings(text: &str) -> Vec<(String, String)> {
    parse_list(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[track_caller]
fn check_error(text: &str, want: &str) {
    match builder(&settings(text)) {
        Ok(_) => panic!("{text}: accepted"),
        Err(e) => assert!(e.to_string().contains(want), "{text}: error `{e}`"),
    }
}

#[test]
fn lists_split_on_commas_and_skip_blanks() {
    assert_eq!(
        settings(" k1=1.5, ,field.name.b = 0.3,"),
        [("k1".to_owned(), "1.5".to_owned()), ("field.name.b".to_owned(), "0.3".to_owned())]
    );
    assert!(settings("").is_empty());
    assert!(parse_list("k1").is_err());
    assert!(parse_list("=3").is_err());
}

#[test]
fn overrides_reach_the_index_config() -> crate::Result<()> {
    let catalog = toolsift::Catalog::new();
    let search = builder(&settings(
        "k1=0.9,b=0.5,field.name.weight=4,field.details.b=0.2,relation.stem=0.4,gate=true,\
         coverage=3:0.6,min_answerable=0.5,min_relative_score=0.1,max_enum_values=8,\
         action_mismatch=0.5,service_mismatch=0.25,implied_words=false,past_tense_weight=0.5,\
         name_match=1.5",
    ))?
    .build(catalog)?;
    let c = search.index_config();
    assert!((c.k1() - 0.9).abs() < 1e-6);
    assert!((c.fields()[0].weight() - 4.0).abs() < 1e-6);
    assert!((c.fields()[1].b() - 0.5).abs() < 1e-6);
    assert!((c.fields()[2].b() - 0.2).abs() < 1e-6);
    assert!((c.relation_weight(toolsift::rank::Relation::Stem) - 0.4).abs() < 1e-6);
    assert!(c.gate());
    assert_eq!(c.coverage().map(|c| c.min_terms), Some(3));
    assert!((c.min_answerable() - 0.5).abs() < 1e-6);
    assert!((c.min_relative_score() - 0.1).abs() < 1e-6);
    assert!((c.past_tense_weight() - 0.5).abs() < 1e-6);
    assert_eq!(search.max_enum_values(), 8);
    assert!((search.action_mismatch() - 0.5).abs() < 1e-6);
    assert!((search.service_mismatch() - 0.25).abs() < 1e-6);
    assert!((search.name_match() - 1.5).abs() < 1e-6);
    assert!(!search.implied_words());
    Ok(())
}

#[test]
fn no_overrides_give_the_defaults() -> crate::Result<()> {
    let got = builder(&[])?.build(toolsift::Catalog::new())?;
    let want = toolsift::ToolSearch::new(toolsift::Catalog::new())?;
    assert_eq!(got.index_config(), want.index_config());
    Ok(())
}

#[test]
fn bad_settings_are_errors() {
    check_error("frobnicate=1", "unknown setting `frobnicate`");
    check_error("k1=fast", "is not a number");
    check_error("origin.elsewhere=0.5", "is not an origin");
    check_error("coverage=3", "MIN_TERMS:FRACTION");
    check_error("gate=maybe", "true or false");
    check_error("stopwords=/nonexistent/list.txt", "stopwords /nonexistent/list.txt");
}
