//! Project tasks, run as `cargo xtask <task>` (the alias lives in `.cargo/config.toml`).
//!
//! This file only dispatches: each task lives in its own module, and the command line is
//! declared in `flags.rs`.

// xtask is a command-line tool: printing is its output.
#![allow(clippy::print_stdout, clippy::print_stderr)]
// xtask is a binary with no public API; its items are documented where it helps a reader.
#![allow(missing_docs)]

mod baseline;
mod bench;
mod dataset;
mod eval;
mod flags;
mod gateway_e2e;
mod groups;
mod metrics;
mod params;
mod report;
mod scale;
mod typos;

use std::process::ExitCode;

/// The error type of every task: a message for a person at a terminal.
pub(crate) type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match flags::parse(&args) {
        Ok(flags::Task::Help) => {
            print!("{}", flags::HELP);
            Ok(())
        }
        Ok(flags::Task::Eval(f)) => eval::run(&f),
        Ok(flags::Task::Bench(f)) => bench::run(&f),
        Ok(flags::Task::GatewayE2e) => gateway_e2e::run(),
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
