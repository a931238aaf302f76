//! The integration tests of toolsift-listing, in one binary.

/// Shared helpers: real catalogs, small catalogs, and an independent listing parser.
mod common;

/// The bridge tool definitions.
mod bridge;
/// Byte-for-byte golden listings of real catalogs (`UPDATE_GOLDEN=1` rewrites them).
mod golden;
/// The budget algorithm on small hand-made catalogs.
mod listing;
/// Property tests: the laws of the listing and of result rendering.
mod props;
/// Search results and the empty-result text.
mod results;
/// Short descriptions: first sentence, cleaning, clipping.
mod sentence;
/// The catalogs of the tuning set listed and counted with real tokenizers.
#[path = "../support/measure.rs"]
#[allow(dead_code)]
mod support;
/// The default estimate against real tokenizers.
mod tokens;
