//! Fuzzes the OpenAPI adapter on JSON documents (inputs that would be read as YAML are skipped;
//! `openapi_yaml` covers those).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_catalog::{ToolKind, load_openapi};

fuzz_target!(|data: &[u8]| {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    if !matches!(data.iter().find(|b| !b.is_ascii_whitespace()), Some(b'{' | b'[')) {
        return;
    }
    toolsift_fuzz::check_loaded(load_openapi(data, "fuzz"), ToolKind::OpenApi);
});
