//! The integration tests of toolsift-catalog, in one binary.

// The real catalogs under xtask/tuning/catalogs: counts, diagnostics, names.
mod real;

// One hand-made fixture per adapter rule.
mod adapters;

// Model-facing names and catalog changes.
mod naming;

// Whole-document errors and limits.
mod errors;

// Laws checked with proptest.
mod props;

// YAML read as serde-saphyr read it, with line and column on errors.
mod yaml;

// The hostile-catalog corpus under tests/hostile/: expected outcome of every file (#10).
mod hostile;

// A GitHub-shaped REST description of any size, generated (too large to commit).
mod rest_description;

// The `rmcp` feature: tools typed by the official Rust MCP SDK.
#[cfg(feature = "rmcp")]
mod rmcp;
