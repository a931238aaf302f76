//! Unit tests for sanitization and the hash.

use super::*;

#[test]
fn fnv1a_matches_reference_vectors() {
    // Reference values of 64-bit FNV-1a.
    let mut h = Fnv1a::new();
    h.write(b"");
    assert_eq!(h.finish(), 0xcbf2_9ce4_8422_2325);
    let mut h = Fnv1a::new();
    h.write(b"a");
    assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    let mut h = Fnv1a::new();
    h.write(b"foobar");
    assert_eq!(h.finish(), 0x8594_4171_f739_67e8);
}

#[test]
fn sanitize_segments() {
    let check = |raw: &str, want: &str, lossless: bool| {
        assert_eq!(sanitize_segment(raw), (want.to_owned(), lossless), "{raw:?}");
    };
    check("create_issue", "create_issue", true);
    check("get-sum", "get-sum", true);
    check("GET /pets/{petId}", "GET_pets_petId", false);
    check("a.b", "a_b", false);
    check("créer tâche", "cr_er_t_che", false);
    check("创建", "", false);
    check("", "", false);
}

#[test]
fn long_names_get_a_hash_suffix() {
    let id = ToolId::new("s", "x".repeat(200));
    let (name, lossless) = NameScheme::Kind.candidate(&id, ToolKind::Mcp);
    assert!(!lossless);
    assert_eq!(name.len(), 64);
    assert!(name.starts_with("mcp__s__xxx"));
    assert!(is_valid_model_name(&name));
}
