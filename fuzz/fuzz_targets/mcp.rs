//! Fuzzes the MCP adapter (`tools/list` results, bare arrays, JSON-RPC responses; JSON or YAML).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_catalog::{ToolKind, load_mcp};

fuzz_target!(|data: &[u8]| {
    toolsift_fuzz::check_loaded(load_mcp(data, "fuzz"), ToolKind::Mcp);
});
