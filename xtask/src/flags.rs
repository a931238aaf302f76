//! The command line of `cargo xtask`, parsed by hand (xtask adds no argument-parsing crate).
//!
//! Every task and every option is declared here, with the help text next to it, so this file
//! is the one place that says what the tool accepts.

use std::path::PathBuf;

use crate::Result;

/// The help printed by `cargo xtask` with no arguments, `help`, `-h` or `--help`.
pub(crate) const HELP: &str = "\
cargo xtask <task> [options]

Tasks:
  eval    Search every query of one or more tuning datasets and report relevance metrics
  bench   Measure the performance targets in a short run and print one summary table
  gateway-e2e
          Run `toolsift serve` in front of the npm MCP reference servers (everything,
          filesystem, memory) and check it with the official Python MCP SDK, over stdio and
          streamable HTTP. Needs node, npm and python3 (3.10 or newer); says so and succeeds
          without running when one is missing. Pinned versions: xtask/gateway-e2e/
  help    Print this help

cargo xtask eval [options]
  --dataset DIR   Evaluate the dataset folder DIR (holding dataset.json and queries.jsonl);
                  repeatable. Default: every folder under xtask/tuning that has a dataset.json
  --by-tag        Also print one row per query tag
  --out DIR       Write DIR/<dataset>/{rankings.jsonl, timing.json, report.json}
  --failures N    Print the N worst queries per dataset: expected tools, returned tools, and the
                  score breakdown of the top wrong hit
  --check         Compare with xtask/baseline.json; fail if any dataset's nDCG@10, hit@1,
                  abstain or (groups of phrasings) share of groups refused in every phrasing
                  or with a top-5 hit in every phrasing drops, or empty rises, by more than
                  0.005
  --bless         Rewrite xtask/baseline.json with this run's numbers
  --rounds N      Timing rounds: builds and query passes to time (default 5)
  --typos SEED    Evaluate each dataset with one typo in every query (one word of five or more
                  letters gets a letter deleted, inserted, replaced or swapped with its
                  neighbour, never its first or last letter; queries without such a word are
                  left out); the datasets are named <name>-typo. Not with --check or --bless
  --set KEY=VALUE Override one ranking setting for this run (repeatable; also read, before the
                  command line, from the environment variable TOOLSIFT_EVAL_SET as
                  comma-separated KEY=VALUE pairs). Keys: k1, b, field.NAME.weight,
                  field.NAME.b, relation.stem, relation.prefix, relation.expansion
                  (the intent lexicon; 0 = off), relation.typo (0 = off),
                  typo_min_chars, prefix_min_chars, past_tense_weight,
                  origin.whole|part|bigram, query_origin.whole|part|bigram,
                  gate (true|false), coverage (MIN_TERMS:FRACTION or off), min_answerable,
                  join_particles (true|false), require_own_match (true|false),
                  min_relative_score, max_query_terms, max_enum_values,
                  action_mismatch (1 = off), service_mismatch (1 = off), name_match
                  (1 = off), implied_words
                  (true|false), stopwords (a file path, one word a line, or `none`).
                  `--bless` refuses to run with overrides
  -h, --help      Print this help

cargo xtask bench [options]
  --rounds N      Passes over the queries, builds and ingests to time (default 5: the short
                  run CI makes, under a minute; faster operations run a multiple of N)
  --check         Compare with benches/baseline.json; fail if any time or size is 3x its
                  baseline or worse (a missed target only prints a warning)
  --bless         Rewrite benches/baseline.json with this run's numbers
  --out DIR       Write DIR/results.json and DIR/scale.svg (cost against catalog size)
  -h, --help      Print this help
";

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Task {
    /// Print the help text.
    Help,
    /// `cargo xtask eval`.
    Eval(EvalFlags),
    /// `cargo xtask bench`.
    Bench(BenchFlags),
    /// `cargo xtask gateway-e2e`.
    GatewayE2e,
}

/// The options of `cargo xtask eval`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EvalFlags {
    /// Dataset folders to evaluate; empty = every dataset under xtask/tuning.
    pub(crate) datasets: Vec<PathBuf>,
    /// Print one row per tag too.
    pub(crate) by_tag: bool,
    /// Where to write rankings, timing and report files.
    pub(crate) out: Option<PathBuf>,
    /// How many worst queries to print per dataset (0 = none).
    pub(crate) failures: usize,
    /// Compare with the committed baseline.
    pub(crate) check: bool,
    /// Rewrite the committed baseline.
    pub(crate) bless: bool,
    /// How many times the build and the query pass are timed.
    pub(crate) rounds: usize,
    /// Ranking-setting overrides, `(key, value)` in the order given (see [`crate::params`]).
    pub(crate) settings: Vec<(String, String)>,
    /// Evaluate each dataset with one typo per query, from this seed (see [`crate::typos`]).
    pub(crate) typos: Option<u64>,
}

impl Default for EvalFlags {
    fn default() -> Self {
        EvalFlags {
            datasets: Vec::new(),
            by_tag: false,
            out: None,
            failures: 0,
            check: false,
            bless: false,
            rounds: 5,
            settings: Vec::new(),
            typos: None,
        }
    }
}

/// The options of `cargo xtask bench`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BenchFlags {
    /// Timing rounds (see the help).
    pub(crate) rounds: usize,
    /// Compare with the committed baseline.
    pub(crate) check: bool,
    /// Rewrite the committed baseline.
    pub(crate) bless: bool,
    /// Where to write results.json and scale.svg.
    pub(crate) out: Option<PathBuf>,
}

impl Default for BenchFlags {
    fn default() -> Self {
        BenchFlags { rounds: 5, check: false, bless: false, out: None }
    }
}

/// Parses the arguments after the program name.
///
/// Accepts `--option value` and `--option=value`.
pub(crate) fn parse(args: &[String]) -> Result<Task> {
    let Some((task, rest)) = args.split_first() else {
        return Ok(Task::Help);
    };
    match task.as_str() {
        "help" | "-h" | "--help" => Ok(Task::Help),
        "eval" => parse_eval(rest),
        "bench" => parse_bench(rest),
        "gateway-e2e" => match rest.first().map(String::as_str) {
            None => Ok(Task::GatewayE2e),
            Some("-h" | "--help") => Ok(Task::Help),
            Some(other) => Err(format!("`gateway-e2e` takes no options, not `{other}`").into()),
        },
        other => Err(format!("unknown task `{other}` (try `cargo xtask help`)").into()),
    }
}

fn parse_eval(args: &[String]) -> Result<Task> {
    let mut flags = EvalFlags::default();
    let mut args = Args::new(args);
    while let Some((name, inline)) = args.next_option() {
        let mut value = |what: &str| args.value(name, inline, what);
        match name {
            "-h" | "--help" => return Ok(Task::Help),
            "--dataset" => flags.datasets.push(PathBuf::from(value("a folder")?)),
            "--out" => flags.out = Some(PathBuf::from(value("a folder")?)),
            "--failures" => flags.failures = count(name, &value("a count")?)?,
            "--rounds" => flags.rounds = rounds(&value("a count")?)?,
            "--set" => flags.settings.push(setting(&value("KEY=VALUE")?)?),
            "--typos" => {
                let v = value("a seed")?;
                let seed =
                    v.parse().map_err(|_| format!("`--typos` takes a whole number, not `{v}`"))?;
                flags.typos = Some(seed);
            }
            "--by-tag" | "--check" | "--bless" if inline.is_some() => {
                return Err(format!("`{name}` takes no value").into());
            }
            "--by-tag" => flags.by_tag = true,
            "--check" => flags.check = true,
            "--bless" => flags.bless = true,
            other => {
                return Err(format!("unknown option `{other}` for `eval` (try `--help`)").into());
            }
        }
    }
    if flags.bless && !flags.settings.is_empty() {
        return Err("`--bless` records the defaults: drop `--set`".into());
    }
    if flags.typos.is_some() && (flags.bless || flags.check) {
        return Err("`--typos` datasets have no baseline: drop `--check` and `--bless`".into());
    }
    if flags.check && flags.bless {
        return Err("`--check` and `--bless` exclude each other".into());
    }
    Ok(Task::Eval(flags))
}

/// Splits one `KEY=VALUE` setting.
pub(crate) fn setting(text: &str) -> Result<(String, String)> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(format!("`--set` needs KEY=VALUE, not `{text}`").into()),
    }
}

fn parse_bench(args: &[String]) -> Result<Task> {
    let mut flags = BenchFlags::default();
    let mut args = Args::new(args);
    while let Some((name, inline)) = args.next_option() {
        let mut value = |what: &str| args.value(name, inline, what);
        match name {
            "-h" | "--help" => return Ok(Task::Help),
            "--out" => flags.out = Some(PathBuf::from(value("a folder")?)),
            "--rounds" => flags.rounds = rounds(&value("a count")?)?,
            "--check" | "--bless" if inline.is_some() => {
                return Err(format!("`{name}` takes no value").into());
            }
            "--check" => flags.check = true,
            "--bless" => flags.bless = true,
            other => {
                return Err(format!("unknown option `{other}` for `bench` (try `--help`)").into());
            }
        }
    }
    Ok(Task::Bench(flags))
}

/// The options of one task: `--name value`, `--name=value`, or a bare flag.
struct Args<'a> {
    rest: std::slice::Iter<'a, String>,
}

impl<'a> Args<'a> {
    fn new(args: &'a [String]) -> Args<'a> {
        Args { rest: args.iter() }
    }

    /// The next option's name, and its value when written inline (`--name=value`).
    fn next_option(&mut self) -> Option<(&'a str, Option<&'a str>)> {
        let arg = self.rest.next()?;
        Some(match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (arg.as_str(), None),
        })
    }

    /// The value of option `name`: the inline one, else the next argument.
    fn value(&mut self, name: &str, inline: Option<&str>, what: &str) -> Result<String> {
        match inline.or_else(|| self.rest.next().map(String::as_str)) {
            Some(v) => Ok(v.to_owned()),
            None => Err(format!("`{name}` needs {what}").into()),
        }
    }
}

/// A `--rounds` count: a whole number of at least 1.
fn rounds(text: &str) -> Result<usize> {
    match count("--rounds", text)? {
        0 => Err("`--rounds` must be at least 1".into()),
        n => Ok(n),
    }
}

fn count(name: &str, text: &str) -> Result<usize> {
    text.parse().map_err(|_| format!("`{name}` needs a whole number, not `{text}`").into())
}

#[cfg(test)]
mod tests;
