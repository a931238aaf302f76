//! The five commands, and what they hand back to `main`: the text for stdout and an exit
//! status, or a [`Failure`].

pub(crate) mod check;
pub(crate) mod describe;
pub(crate) mod listing;
pub(crate) mod search;
pub(crate) mod serve;

use std::process::ExitCode;

use clap::ArgMatches;

use crate::cli::Command;

/// What a command produced: the whole of stdout, and whether it found problems.
#[derive(Debug)]
pub(crate) struct Report {
    /// Printed to stdout as is.
    pub(crate) stdout: String,
    /// Exit status 1 instead of 0: `check` found problems, or `search --fail-empty` found
    /// nothing.
    pub(crate) problems: bool,
}

/// A usage or input error (exit status 2): one or more lines, printed to stderr as
/// `toolsift: error: …`.
#[derive(Debug)]
pub(crate) struct Failure {
    messages: Vec<String>,
}

impl Failure {
    /// A failure with these messages, in order.
    pub(crate) fn new(messages: Vec<String>) -> Failure {
        Failure { messages }
    }

    /// A failure with one message.
    pub(crate) fn one(message: impl Into<String>) -> Failure {
        Failure { messages: vec![message.into()] }
    }
}

impl From<toolsift::Error> for Failure {
    fn from(e: toolsift::Error) -> Failure {
        Failure::one(e.to_string())
    }
}

/// Runs `command`; `matches` are the subcommand's matches (for the order of catalog flags).
pub(crate) fn run(command: &Command, matches: Option<&ArgMatches>) -> ExitCode {
    let result = match command {
        Command::Search(args) => search::run(args, matches),
        Command::Listing(args) => listing::run(args, matches),
        Command::Describe(args) => describe::run(args, matches),
        Command::Check(args) => check::run(args, matches),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(report) => {
            write_stdout(&report.stdout);
            ExitCode::from(u8::from(report.problems))
        }
        Err(failure) => {
            for message in &failure.messages {
                crate::term::note(&format!("toolsift: error: {message}"));
            }
            ExitCode::from(2)
        }
    }
}

/// Writes `text` to stdout; a closed pipe (`toolsift listing | head`) is not an error.
fn write_stdout(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let text = crate::term::printable(text);
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
