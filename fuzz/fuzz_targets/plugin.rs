//! Fuzzes the plugin adapter (OpenAI chat and Responses function tools, Anthropic tools).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_catalog::{ToolKind, load_plugin};

fuzz_target!(|data: &[u8]| {
    toolsift_fuzz::check_loaded(load_plugin(data, "fuzz"), ToolKind::Plugin);
});
