//! The `toolsift` command (placeholder).
fn main() {}
