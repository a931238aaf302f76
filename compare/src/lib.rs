//! The engines of the README's comparison (see `README.md` beside `Cargo.toml`) and the tool text
//! the baselines index; `src/main.rs` runs them on the tuning datasets.

pub mod engines;
pub mod text;

/// The error type: a message for a person at a terminal.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// How many tools an engine returns per query: the depth the eval's metrics read.
pub const CUTOFF: usize = 10;
