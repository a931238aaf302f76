//! The YAML builder against serde-saphyr, the path it replaced: every YAML catalog under
//! xtask/tuning/catalogs, a table of snippets (each scalar kind, keys, duplicates, anchors,
//! merges, block and flow forms, limits, malformed input), and random values.

use std::fmt;

use proptest::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value, json};
use toolsift_catalog::{ErrorKind, Limits, parse_document};

/// The former production path: serde-saphyr with a lenient-key visitor, with the same options.
fn reference(text: &str) -> Result<Value, (String, u64, u64)> {
    let mut options = serde_saphyr::Options::default();
    options.with_snippet = false;
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::LastWins;
    options.strict_booleans = true;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 128;
    budget.max_nodes = usize::MAX;
    budget.max_events = usize::MAX;
    options.budget = Some(budget);
    options.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::AsString;
    serde_saphyr::from_str_with_options::<Lenient>(text, options).map(|v| v.0).map_err(|e| {
        let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        (e.to_string().lines().next().unwrap_or("").to_owned(), line, column)
    })
}

struct Lenient(Value);

impl<'de> serde::Deserialize<'de> for Lenient {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Lenient, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(Lenient)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any yaml value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(i64::try_from(v)
            .map_or_else(|_| Value::String(v.to_string()), |n| Value::Number(n.into())))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(u64::try_from(v)
            .map_or_else(|_| Value::String(v.to_string()), |n| Value::Number(n.into())))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or_else(|| Value::String(v.to_string()), Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::String(String::from_utf8_lossy(v).into_owned()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Lenient(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let Lenient(value) = map.next_value()?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        Ok(match d.deserialize_any(ValueVisitor)? {
            Value::String(s) => s,
            Value::Null => "null".to_owned(),
            other => other.to_string(),
        })
    }
}

/// Flow documents are prefixed with `--- ` so that they stay YAML (`parse_document` reads text
/// starting with `[` or `{` as JSON).
fn yaml_text(text: &str) -> String {
    if text.starts_with(['[', '{']) { format!("--- {text}") } else { text.to_owned() }
}

fn ours(text: &str) -> Result<Value, toolsift_catalog::Error> {
    let text = &yaml_text(text);
    let mut limits = Limits::default();
    limits.max_document_bytes = usize::MAX;
    parse_document(text.as_bytes(), &limits)
}

/// Both paths give the same value (compared in order, keys included), or both fail at the
/// same line and column.
#[track_caller]
fn same(text: &str) -> Result<Value, toolsift_catalog::Error> {
    let new = ours(text);
    match (&new, reference(&yaml_text(text))) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, &b, "{text:?}");
            assert_eq!(
                serde_json::to_string(a).unwrap(),
                serde_json::to_string(&b).unwrap(),
                "order {text:?}"
            );
        }
        (Err(a), Err((message, line, column))) => {
            assert_eq!(a.kind(), ErrorKind::Yaml, "{text:?}");
            assert_eq!(
                (a.line(), a.column()),
                (Some(line), Some(column)),
                "{text:?}: {a} / {message}"
            );
        }
        (a, b) => panic!("{text:?}: ours {a:?}, serde-saphyr {b:?}"),
    }
    new
}

#[test]
fn every_yaml_catalog_reads_as_before() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../xtask/tuning/catalogs");
    let mut seen = 0;
    for dir in ["mcp", "openapi", "plugin"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let value = same(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(value.is_object(), "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 3, "{seen} yaml catalogs");
}

/// Snippets that both paths read to the same value; `expected` pins the value itself.
#[test]
fn snippets_read_as_serde_saphyr_reads_them() {
    let cases: &[(&str, Value)] = &[
        // Null spellings, booleans (YAML 1.2 only), and strings that look like YAML 1.1 ones.
        (
            "a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: nULL",
            json!({"a": null, "b": null, "c": null, "d": null, "e": null, "f": "nULL"}),
        ),
        (
            "[true, True, TRUE, false, False, FALSE, tRUE, yes, no, on, off, y, n, Y, N]",
            json!([
                true, true, true, false, false, false, "tRUE", "yes", "no", "on", "off", "y", "n",
                "Y", "N"
            ]),
        ),
        // Integers: decimal, signs, radices, underscores, overflow, leading zeros.
        (
            "[0, 1, -1, +7, 1_000, 0x1F, 0o17, 0b101, -0x10, 0X1F, 0O17, 0B1, 012, -012, +012, 1__0, _1]",
            json!([
                0, 1, -1, 7, 1000, 31, 15, 5, -16, "0X1F", "0O17", "0B1", 12.0, -12.0, 12.0,
                "1__0", "_1"
            ]),
        ),
        (
            "[18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFFF]",
            json!([
                18446744073709551615u64,
                1.8446744073709552e19,
                -9223372036854775808i64,
                -9.223372036854776e18,
                "0xFFFFFFFFFFFFFFFFFF"
            ]),
        ),
        // Floats, non-finite ones as text.
        (
            "[1.5, -2.25, 1e3, 1E-3, .5, 5., +1.0, .inf, -.inf, +.inf, .Inf, .INF, .nan, .NaN, .NAN, -.nan, +.nan, inf, nan, infinity, 1e999, -1e999, 1.0e+2]",
            json!([
                1.5, -2.25, 1000.0, 0.001, 0.5, 5.0, 1.0, ".inf", "-.inf", ".inf", ".inf", ".inf",
                ".nan", ".nan", ".nan", "-.nan", "+.nan", "inf", "nan", "infinity", ".inf",
                "-.inf", 100.0
            ]),
        ),
        // Quoted and block scalars are strings.
        (
            "['1', \"true\", 'null', \"\", '', \"~\", \"a\\tb\\u00e9\", 'it''s']",
            json!(["1", "true", "null", "", "", "~", "a\tb\u{e9}", "it's"]),
        ),
        (
            "a: |\n  line 1\n  line 2\nb: >\n  folded\n  text\n\n  para\nc: |-\n  strip\nd: |+\n  keep\n\ne: >-\n  12\n",
            json!({"a": "line 1\nline 2\n", "b": "folded text\npara\n", "c": "strip", "d": "keep\n\n", "e": "12"}),
        ),
        ("plain multi\n  line scalar", json!("plain multi line scalar")),
        ("a: 1 # comment\n# whole line\nb: x#y  # trailing\n", json!({"a": 1, "b": "x#y"})),
        // Tags.
        (
            "[!!str 1, !!str null, !!str, ! 12, !!int '42', !!float '1', !!null 'x', !!bool 'true', !custom 5, !custom '5', !!str true, !!float .nan, !!float -.nan]",
            json!(["1", "null", "", "12", 42, 1.0, null, true, 5, "5", "true", ".nan", ".nan"]),
        ),
        // Lenient keys.
        (
            "null: a\n~: b\ntrue: c\n1.50: d\n0x10: e\n[1, 2]: f\n{x: 1}: g\n'k': h\n? |\n  block\n: i\n",
            json!({"null": "b", "true": "c", "1.5": "d", "16": "e", "[1,2]": "f", "{\"x\":1}": "g", "k": "h", "block\n": "i"}),
        ),
        // Duplicates: last value, first place (integer keys: see `duplicates_one_rule`).
        ("a: 1\nb: 2\na: 3\n", json!({"a": 3, "b": 2})),
        // Anchors and aliases.
        (
            "base: &b {x: 1, y: [1, 2]}\ncopy: *b\nlist: [&s str, *s, *b]\n",
            json!({"base": {"x": 1, "y": [1, 2]}, "copy": {"x": 1, "y": [1, 2]}, "list": ["str", "str", {"x": 1, "y": [1, 2]}]}),
        ),
        ("a: &x 1\nb: &x 2\nc: *x\n", json!({"a": 1, "b": 2, "c": 2})),
        ("&k key: v\n*k : w\n", json!({"key": "w"})),
        // Merge keys.
        (
            "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n  z: 4\n",
            json!({"base": {"x": 1, "y": 2}, "m": {"y": 3, "z": 4, "x": 1}}),
        ),
        (
            "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nm: {<<: [*a, *b], z: 0}\n",
            json!({"a": {"x": 1}, "b": {"x": 2, "y": 2}, "m": {"z": 0, "x": 1, "y": 2}}),
        ),
        ("m: {<<: ~, a: 1}\n", json!({"m": {"a": 1}})),
        ("m: {<<: {a: 1}, <<: {a: 2, b: 2}, b: 0}\n", json!({"m": {"b": 0, "a": 1}})),
        ("m: {'<<': {a: 1}}\n", json!({"m": {"<<": {"a": 1}}})),
        ("m: {!!merge <<: {a: 1}}\n", json!({"m": {"a": 1}})),
        ("m: {<<: [[{a: 1}], {b: 2}], <<: []}\n", json!({"m": {"a": 1, "b": 2}})),
        ("m: {<<: &s [{a: 1}]}\nn: *s\n", json!({"m": {"a": 1}, "n": [{"a": 1}]})),
        // Tags on collections that allow them; binary text.
        (
            "a: !!map {b: 1}\nc: !!seq [1]\nd: !custom {e: 1}\nf: ! [1]\ng: !!set {h}\n",
            json!({"a": {"b": 1}, "c": [1], "d": {"e": 1}, "f": [1], "g": {"h": null}}),
        ),
        (
            "a: !!binary aGVsbG8=\nb: !!binary \"aGVs\\nbG8=\"\nc: !int 5\nd: !str 5\ne: !<tag:yaml.org,2002:str> 5\nf: !!merge x\n",
            json!({"a": "hello", "b": "hello", "c": 5, "d": "5", "e": "5", "f": "x"}),
        ),
        // Flow collections and documents.
        (
            "{a: [1, {b: c}], d: {}, e: [], 'f g': [[]]}",
            json!({"a": [1, {"b": "c"}], "d": {}, "e": [], "f g": [[]]}),
        ),
        ("- a\n- - b\n  - c\n- d: e\n  f: g\n", json!(["a", ["b", "c"], {"d": "e", "f": "g"}])),
        ("---\na: 1\n...\n", json!({"a": 1})),
        ("%YAML 1.2\n---\na: 1\n", json!({"a": 1})),
        ("", Value::Null),
        ("# only a comment\n", Value::Null),
        ("---\n", Value::Null),
        ("~", Value::Null),
        ("just text", json!("just text")),
        ("\u{feff}a: 1", json!({"a": 1})),
    ];
    for (text, expected) in cases {
        let value = same(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(&value, expected, "{text:?}");
    }
}

/// Where toolsift's reader differs from serde-saphyr on purpose: an alias bomb is refused
/// by a byte budget (serde-saphyr counts replayed events, and stops later), and a part nested
/// deeper than 128 levels is read as `null` instead of failing the document.
#[test]
fn byte_budget_and_deep_parts() {
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let e = ours(&bomb).expect_err("bomb");
    assert!(e.message().contains("alias bomb"), "{e}");
    assert!(reference(&bomb).is_err());
    // One huge anchored string aliased many times: few events, many bytes.
    let huge = format!("s: &s {}\nl: [{}]\n", "x".repeat(1 << 20), vec!["*s"; 64].join(", "));
    let e = ours(&huge).expect_err("byte bomb");
    assert!(e.message().contains("more than"), "{e}");
    // Nested anchors copy what they hold once per level: 40 levels around 1 MiB.
    let anchors: String = (0..40).map(|i| format!("&n{i} [")).collect();
    let nested = format!("a: {anchors}{}{}\n", "x".repeat(1 << 20), "]".repeat(40));
    let e = ours(&nested).expect_err("anchor copies");
    assert!(e.message().starts_with("anchors would copy more than"), "{e}");
    for n in [128, 200, 10_000] {
        let text = format!("a: {}{}\nb: 1\n", "[".repeat(n), "]".repeat(n));
        let value = ours(&text).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_eq!(value["b"], json!(1));
        let mut at = &value["a"];
        let mut levels = 0;
        while let Some(inner) = at.get(0) {
            at = inner;
            levels += 1;
        }
        assert_eq!((levels, at), (127, &Value::Null), "{n}");
    }
}

/// Where toolsift's reader differs from serde-saphyr on purpose: every repeated key, integer
/// or not, keeps its first place and its last value, as in JSON, and is reported;
/// serde-saphyr's `LastWins` moves a repeated integer key to its last place and tells `1` from
/// `'1'`, so that one of them replaced the other unreported.
#[test]
fn duplicates_one_rule() {
    let cases = [
        ("200: a\n404: b\n200: c\n", r#"{"200":"c","404":"b"}"#),
        ("x: 0\n200: a\n'404': b\n0xC8: c\n", r#"{"x":0,"200":"c","404":"b"}"#),
        ("'1': a\n2: b\n1: c\n", r#"{"1":"c","2":"b"}"#),
        ("m: {<<: {1: a}, '1': b}\n", r#"{"m":{"1":"b"}}"#),
    ];
    for (text, expected) in cases {
        let value = ours(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(serde_json::to_string(&value).unwrap(), expected, "{text:?}");
    }
    let loaded = toolsift_catalog::load_mcp(
        "tools:\n  - name: t\n    inputSchema:\n      properties:\n        '1': {type: string}\n        1: {type: integer}\n",
        "s",
    )
    .expect("loads");
    let d: Vec<(toolsift_catalog::DiagnosticKind, &str)> =
        loaded.diagnostics.iter().map(|d| (d.kind(), d.pointer())).collect();
    assert_eq!(
        d,
        [(toolsift_catalog::DiagnosticKind::DuplicateKey, "/tools/0/inputSchema/properties/1")]
    );
    assert_eq!(loaded.tools()[0].input_schema["properties"]["1"], json!({"type": "integer"}));
}

/// Malformed input and limits fail in both paths, at the same place.
#[test]
fn errors_carry_line_and_column() {
    let deep = |n: usize| format!("a: {}{}\n", "[".repeat(n), "]".repeat(n));
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let cases: &[(&str, u64, u64)] = &[
        ("a: [1, 2\n", 1, 4),
        ("a: 'open\n", 1, 4),
        ("a:\n\tb: 1\n", 2, 2),
        ("a: b: c\n", 1, 5),
        ("a: *nope\n", 1, 4),
        ("a: 1\n---\nb: 2\n", 3, 1),
        ("- a\nb: 1\n", 2, 1),
        ("m: {<<: 5}\n", 1, 9),
        ("m: {<<: [{a: 1}, x]}\n", 1, 18),
        ("a: !!str [1]\n", 1, 10),
        ("a: !!int {b: 1}\n", 1, 10),
        ("a: !!seq {b: 1}\n", 1, 10),
        ("a: !!map [1]\n", 1, 10),
        ("a: !!seq x\n", 1, 10),
        ("a: !!binary aGVsbG8\n", 1, 13),
        ("a: !!binary //79\n", 1, 13),
        ("a: !!timestamp 2001-12-14\n", 1, 16),
        ("a: !!time 5\n", 1, 11),
        ("a: !x!y 5\n", 1, 4),
        ("a: 1\n...\n---\n", 3, 4),
        ("a: !!int x\n", 1, 10),
        ("a: !!bool yes\n", 1, 11),
        ("a: !!float x\n", 1, 12),
        ("{a: 1}}", 1, 11),
        (&deep(127), 0, 0),
    ];
    for (text, line, column) in cases {
        let new = ours(text);
        match (&new, reference(text)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, &b, "{text:?}");
                assert_eq!((*line, *column), (0, 0), "{text:?} read as {a}");
            }
            (Err(a), Err((message, l, c))) => {
                assert_eq!(a.kind(), ErrorKind::Yaml, "{text:?}");
                assert_eq!((a.line(), a.column()), (Some(*line), Some(*column)), "{text:?}: {a}");
                // serde-saphyr places a misplaced closing bracket elsewhere; we name the bracket.
                if !text.ends_with("}}") {
                    assert_eq!((l, c), (*line, *column), "{text:?}: serde-saphyr: {message}");
                }
            }
            (a, b) => panic!("{text:?}: ours {a:?}, serde-saphyr {b:?}"),
        }
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1e12f64..1e12).prop_map(|f| json!(f)),
        "[a-zA-Z0-9 _.:#'\"-]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z0-9 ._-]{0,8}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// JSON text is YAML flow text: any JSON value reads back as itself.
    #[test]
    fn json_text_reads_back_equal(value in json_value()) {
        let text = serde_json::to_string(&value).unwrap();
        prop_assert_eq!(same(&format!("v: {text}")).unwrap(), json!({"v": value.clone()}));
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        prop_assert_eq!(same(&format!("v: {pretty}")).unwrap(), json!({"v": value}));
    }

    /// Never a panic on YAML-shaped noise (indentation, flow brackets, anchors, aliases, tags,
    /// merges, block scalars, quotes): a value or a YAML error, and where serde-saphyr reads
    /// the text too, the same value.
    #[test]
    fn yaml_noise_never_panics(text in "([a-c0-9 :,\\-\\[\\]{}&*!|>'\"#?<~.]|\n|\n  |\n    |<<: |&a |\\*a|!!str |!!int ){0,60}") {
        // A document opener keeps text whose first non-blank character is `[` or `{` YAML.
        let text = format!("---\n{text}");
        match ours(&text) {
            Ok(value) => {
                if let Ok(expected) = reference(&yaml_text(&text)) {
                    prop_assert_eq!(value, expected, "{:?}", text);
                }
            }
            Err(e) => prop_assert_eq!(e.kind(), ErrorKind::Yaml, "{}", e),
        }
    }
}
