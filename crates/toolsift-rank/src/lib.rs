//! BM25F index (placeholder until the rank helper lands).
#![forbid(unsafe_code)]
