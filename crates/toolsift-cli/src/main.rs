//! The `toolsift` command: search, list, describe and check tool catalogs from a terminal.
//!
//! ```text
//! toolsift search "open a pull request"      ranked hits, or why nothing fits
//! toolsift listing --budget 2000             the listing a host embeds, within a budget
//! toolsift describe mcp__github__create_pull_request
//! toolsift check --mcp tools.json=myserver   lint a catalog as an agent experiences it
//! toolsift serve --config servers.json       an MCP gateway with tool search in front
//! ```
//!
//! Catalogs come from `--mcp`, `--openapi`, `--plugin` (`FILE[=SERVER]`) and `--dataset DIR`,
//! or, with none of them, from an embedded demo catalog of seven real MCP servers (407 tools;
//! see [`input`] for their sources and licences). Every command documents its `--json` shape
//! in its `--help`:
//!
//! - `search`: `{"query", "limit", "server", "hits": [{"rank", "name", "server", "tool",
//!   "kind", "score", "demoted", "promoted", "matched", "description", "explanation"?}],
//!   "missing": null | {"services", "text"}, "empty": null | {"reason", "message", "unknown",
//!   "weak", "missing_services", "text"}}`;
//! - `listing`: `{"form", "tokenizer", "budget", "tokens", "full_tokens", "complete",
//!   "servers": [{"name", "tools", "form", "tokens"}], "text"}`;
//! - `describe`: `{"name", "server", "tool", "kind", "title", "signature", "description",
//!   "input_schema", "output_schema", "annotations", "openapi"}`;
//! - `check`: `{"servers", "tools", "problems", "groups": [{"code", "title", "count",
//!   "findings": [{"server", "tool", "name", "message", …}]}]}`.
//!
//! `serve` reads an `mcpServers` JSON file and runs the gateway of the `toolsift-gateway` crate
//! over stdio (or streamable HTTP with `--http`); it logs to stderr only.
//!
//! Exit status: 0 ok; 1 `check` found problems, or `search --fail-empty` found nothing; 2 a
//! usage or input error. Errors go to stderr and name the file and position.
//!
//! `main` only parses and dispatches: the clap types are in [`cli`], catalog loading in
//! [`input`], each command in [`cmd`].

// A command-line program prints: stdout carries the results, stderr the notes and errors.
#![allow(clippy::print_stdout, clippy::print_stderr)]
#![forbid(unsafe_code)]

mod cli;
mod cmd;
mod input;
mod term;

use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

fn main() -> ExitCode {
    let matches = cli::Cli::command().get_matches();
    let cli = match cli::Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    cmd::run(&cli.command, matches.subcommand().map(|(_, m)| m))
}
