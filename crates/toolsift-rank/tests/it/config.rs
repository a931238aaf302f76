//! Builder validation.

use toolsift_rank::{ErrorKind, Index, IndexBuilder};
use toolsift_text::Origin;

#[track_caller]
fn check_invalid(b: IndexBuilder, setting: &str) {
    match b.build() {
        Err(e) => match e.kind() {
            ErrorKind::InvalidConfig { setting: s, .. } => assert_eq!(*s, setting, "{e}"),
            other => panic!("expected an invalid-config error, got {other:?}"),
        },
        Ok(_) => panic!("expected `{setting}` to be rejected"),
    }
}

#[test]
fn out_of_range_settings_are_rejected() {
    let b = IndexBuilder::new;
    check_invalid(b().k1(-1.0), "k1");
    check_invalid(b().k1(f32::NAN), "k1");
    check_invalid(b().b(1.5), "b");
    check_invalid(b().field_b("name", -0.1), "field b");
    check_invalid(b().field("name", f32::INFINITY), "field weight");
    check_invalid(b().clear_fields(), "fields");
    check_invalid(b().relation_weight(toolsift_rank::Relation::Stem, 1.5), "stem weight");
    check_invalid(b().origin_weight(Origin::Part, 2.0), "origin weight");
    check_invalid(b().query_origin_weight(Origin::Part, -1.0), "query origin weight");
    check_invalid(b().coverage(2, 1.1), "coverage fraction");
    check_invalid(b().min_relative_score(2.0), "min_relative_score");
    check_invalid(b().max_query_terms(0), "max_query_terms");
    check_invalid(b().max_query_terms(65), "max_query_terms");
    check_invalid(b().prefix_min_chars(0), "prefix_min_chars");
}

#[test]
fn defaults_and_field_order() {
    let ix = Index::builder().build().expect("defaults are valid");
    let c = ix.config();
    let fields: Vec<(&str, f32, f32)> =
        c.fields().iter().map(|f| (f.name(), f.weight(), f.b())).collect();
    assert_eq!(fields, [("name", 3.0, 0.75), ("summary", 1.5, 0.75), ("details", 1.0, 0.75)]);
    assert_eq!((c.k1(), c.gate(), c.coverage(), c.min_relative_score()), (1.2, false, None, 0.0));
    let ix = Index::builder().field("tags", 0.5).field("name", 2.0).b(0.5).build().expect("valid");
    let fields: Vec<(&str, f32, f32)> =
        ix.config().fields().iter().map(|f| (f.name(), f.weight(), f.b())).collect();
    assert_eq!(
        fields,
        [("name", 2.0, 0.5), ("summary", 1.5, 0.5), ("details", 1.0, 0.5), ("tags", 0.5, 0.5)]
    );
    let again = IndexBuilder::from_config(ix.config().clone()).build().expect("valid");
    assert_eq!(again.config(), ix.config());
}
