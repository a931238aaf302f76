//! Project tasks (placeholder).
fn main() {}
