//! Unicode: lowercasing, folding, CJK bigrams, and input that must not break anything.

use toolsift_text::{Analyzer, Origin, fold};

use crate::check;

#[test]
fn latin_diacritics_fold_to_ascii() {
    check("café", "cafe");
    check("Café Crème Brûlée", "cafe creme brulee");
    check("Straße", "strasse");
    check("Ærøskøbing Łódź Œuvre", "aeroskobing lodz oeuvre");
    check("naïve façade jalapeño", "naive facade jalapeno");
    check("ŠKODA Dvořák", "skoda dvorak");
    check("ＡＰＩ ｓｅａｒｃｈ １２３", "api search 123");
}

#[test]
fn combining_marks_fold_like_precomposed_letters() {
    check("cafe\u{301}", "cafe");
    check("e\u{301}te\u{301}", "ete");
    // A lone combining mark is a separator, not a word.
    check("\u{301}", "");
    check("a \u{301}b", "b");
}

#[test]
fn other_scripts_are_lowercased_not_folded() {
    check("Привет МИР", "привет мир");
    check("ΑΘΗΝΑ", "αθηνα");
    check("İstanbul", "istanbul");
    check("שלום עולם", "שלום עולם");
    check("مرحبا بالعالم", "مرحبا بالعالم");
    // The virama is not alphanumeric and is dropped; the vowel sign is alphabetic and stays.
    check("नमस्ते", "\u{928}\u{92e}\u{938}\u{924}\u{947}");
}

#[test]
fn cjk_runs_become_bigrams() {
    check("多维表格", "~多维 ~维表 ~表格");
    check("表", "~表");
    check("使用GitHub搜索", "~使用 github +git +hub ~搜索");
    check("新建 多维表格 记录", "~新建 ~多维 ~维表 ~表格 ~记录");
    check("テキストを検索", "~テキ ~キス ~スト ~トを ~を検 ~検索");
    check("한국어 검색", "~한국 ~국어 ~검색");
    check("获取用户信息。", "~获取 ~取用 ~用户 ~户信 ~信息");
    check("飞书_bitable", "~飞书 bitable");
}

#[test]
fn bigram_positions_advance() {
    let terms = Analyzer::default().analyze("多维表格 add");
    let seen: Vec<(&str, Origin, u32)> =
        terms.iter().map(|t| (t.word.as_str(), t.origin, t.position)).collect();
    assert_eq!(
        seen,
        [
            ("多维", Origin::Bigram, 0),
            ("维表", Origin::Bigram, 1),
            ("表格", Origin::Bigram, 2),
            ("add", Origin::Whole, 3),
        ]
    );
    assert!(terms.iter().filter(|t| t.origin == Origin::Bigram).all(|t| t.stem == t.word));
}

#[test]
fn hostile_input_loses_no_letters() {
    check("deploy🚀now", "deploy now");
    check("👍🏽", "");
    check("a\u{0}b", "a b");
    check("nul\u{0}", "nul");
    // A zero-width joiner extends the cluster before it, so it joins rather than separates.
    check("\u{200d}\u{fe0f}zwj\u{200d}join", "zwjjoin");
    check("co\u{ad}operate", "co operate");
    check("\u{202e}reversed\u{202c}", "reversed");
    check("\u{600}x", "x");
    check("mixed\u{5d0}\u{5d1}text", "mixed\u{5d0}\u{5d1}text");
}

#[test]
fn fold_is_lowercase_and_diacritic_folding_only() {
    assert_eq!(fold("Café-Straße!"), "cafe-strasse!");
    assert_eq!(fold("ΑΘΗΝΑ"), "αθηνα");
    assert_eq!(fold("3×4÷2"), "3×4÷2");
    assert_eq!(fold("e\u{301}"), "e");
    assert!(matches!(fold("plain ascii"), std::borrow::Cow::Borrowed(_)));
}
