//! Shared bench fixtures (placeholder).
