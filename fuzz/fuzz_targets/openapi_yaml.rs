//! Fuzzes the OpenAPI adapter on YAML documents: a comment line is put first, so every input
//! takes the YAML path (flow-style YAML, JSON included, is still YAML).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_catalog::{ToolKind, load_openapi};

fuzz_target!(|data: &[u8]| {
    let mut doc = b"# fuzz\n".to_vec();
    doc.extend_from_slice(data);
    toolsift_fuzz::check_loaded(load_openapi(&doc, "fuzz"), ToolKind::OpenApi);
});
