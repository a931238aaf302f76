//! The command line: clap types for the five commands, their options and their help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const ABOUT: &str = "Search, list, describe and check tool catalogs as an LLM agent sees them";

const LONG_ABOUT: &str = "\
Search, list, describe and check tool catalogs the way an LLM agent sees them.

toolsift reads MCP `tools/list` results, OpenAPI 2.0/3.x documents (JSON or
YAML) and plugin function-tool arrays, ranks tools against short queries with
BM25F, abstains when nothing fits, and renders the token-budgeted catalog
listing a host embeds in its prompt.

Every command reads its catalogs from --mcp, --openapi, --plugin (repeatable,
FILE or FILE=SERVER; the server defaults to the file stem) or --dataset DIR (a
dataset.json in the eval format). Without any of them it uses an embedded demo
catalog: the real MCP catalogs of github, slack, filesystem, playwright,
linear, postgres and notion (407 tools); demo/SOURCES.md in the toolsift-cli
crate names each source package, version and licence (MIT or Apache-2.0).

Exit status: 0 ok; 1 `check` found problems, or `search --fail-empty` found
nothing; 2 usage or input error (unreadable catalog, unknown tool or server).";

const AFTER_HELP: &str = "\
Examples:
  toolsift search \"open a pull request\"
  toolsift listing --budget 1000
  toolsift describe mcp__github__create_pull_request
  toolsift check --mcp tools.json=myserver";

/// The `toolsift` command.
#[derive(Debug, Parser)]
#[command(
    name = "toolsift",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP,
    propagate_version = true,
    term_width = 80
)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The five commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Rank the catalog's tools for a query
    #[command(
        long_about = SEARCH_LONG,
        after_help = "Example:\n  toolsift search \"open a pull request\" --limit 3 --explain"
    )]
    Search(SearchArgs),
    /// Print the listing a host embeds, within a token budget
    #[command(
        long_about = LISTING_LONG,
        after_help = "Example:\n  toolsift listing --budget 1000 --mcp tools.json=myserver"
    )]
    Listing(ListingArgs),
    /// Show one tool's full definition
    #[command(
        long_about = DESCRIBE_LONG,
        after_help = "Example:\n  toolsift describe mcp__github__create_pull_request\n  \
                      toolsift describe github/create_pull_request --json"
    )]
    Describe(DescribeArgs),
    /// Lint a catalog as an agent experiences it
    #[command(
        long_about = CHECK_LONG,
        after_help = "Example:\n  toolsift check --mcp tools.json=myserver\n  \
                      toolsift check --dataset xtask/tuning/all --skip near-duplicate"
    )]
    Check(CheckArgs),
    /// Run an MCP gateway: one server with tool search in front of many
    #[command(
        long_about = SERVE_LONG,
        after_help = "Examples:\n  toolsift serve --config ~/.config/toolsift/servers.json\n  \
                      toolsift serve --config servers.json --http 127.0.0.1:8765 --verbose"
    )]
    Serve(ServeArgs),
}

/// Where the catalog comes from, and how it is named; shared by every command.
#[derive(Debug, Args)]
#[command(next_help_heading = "Catalog input")]
pub(crate) struct InputArgs {
    /// An MCP tools/list result; SERVER: file stem
    #[arg(long, value_name = "FILE[=SERVER]")]
    pub(crate) mcp: Vec<String>,
    /// An OpenAPI 3.x or Swagger 2.0 document
    #[arg(long, value_name = "FILE[=SERVER]")]
    pub(crate) openapi: Vec<String>,
    /// A JSON array of function tools
    #[arg(long, value_name = "FILE[=SERVER]")]
    pub(crate) plugin: Vec<String>,
    /// Every catalog of an eval dataset folder
    #[arg(long, value_name = "DIR")]
    pub(crate) dataset: Vec<PathBuf>,
    /// Skip unreadable catalog files, with a warning
    #[arg(long)]
    pub(crate) keep_going: bool,
    /// Model-facing names: kind, claude or bare
    #[arg(long, value_enum, default_value_t = Names::Kind, value_name = "SCHEME",
          hide_possible_values = true)]
    pub(crate) names: Names,
}

/// The model-facing name scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Names {
    /// `<kind>__<server>__<tool>`: mcp__github__create_issue
    Kind,
    /// Claude Code's `mcp__<server>__<tool>` for every kind
    Claude,
    /// The tool's own name; same names on two servers collide
    Bare,
}

const SEARCH_LONG: &str = "\
Rank the catalog's tools for a query, as an agent's tool search would.

Prints one entry per hit: rank, model-facing name, server, score, and the
short description the model would read; when the query names a service no
connected server provides and hits are given anyway, then the line a host would
add for it. When nothing fits, prints the two lines a host would hand the model
instead, and the ranker's reason. --explain
adds the per-term, per-field BM25F breakdown of every hit, and the factors of a
demoted hit: its tool does another kind of action (read, write, delete) than
the query asks for, or belongs to another service than the query names; and of
a promoted one: the query spells its tool's name.

Several QUERY words are joined with spaces; --server ranks the whole catalog,
then keeps that server's hits. A query with no words to search for (empty,
or only words such as \"the\") asks for words instead.

JSON (--json): one object; scores have at most four decimals.
  {\"query\", \"limit\", \"server\": string|null,
   \"hits\": [{\"rank\", \"name\", \"server\", \"tool\", \"kind\", \"score\",
             \"demoted\": [\"action\" | \"service\"], \"promoted\": [\"name\"],
             \"matched\": [term],
             \"description\",
             \"explanation\"?: {\"score\", \"exact_key\", \"docs\", \"k1\",
               \"terms\": [{\"word\", \"answerable\", \"weight\", \"df\", \"idf\",
                 \"pseudo_frequency\", \"saturation\", \"score\",
                 \"forms\": [{\"word\", \"relation\", \"relation_weight\",
                   \"pseudo_frequency\", \"fields\": [{\"field\", \"tf\",
                     \"weight\", \"b\", \"length\", \"avg_length\", \"norm\",
                     \"value\"}]}]}]}}],
   \"missing\": null | {\"services\": [service], \"text\": the line for the model},
   \"empty\": null | {\"reason\", \"message\", \"unknown\": [term],
                    \"weak\": [term], \"missing_services\": [service],
                    \"text\": the lines for the model}}

A demoted or promoted hit's score is its explanation's score times the factor
of each reason it was demoted or promoted for.

Exit status: 0, also when nothing matched; 1 when nothing matched and
--fail-empty is given; 2 on a usage or input error.";

/// `toolsift search`.
#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// The query, in an agent's words
    #[arg(required = true, value_name = "QUERY")]
    pub(crate) query: Vec<String>,
    /// Hits to show
    #[arg(long, short = 'n', default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) limit: u32,
    /// Only hits from this server
    #[arg(long, value_name = "SERVER")]
    pub(crate) server: Option<String>,
    /// Show the score breakdown of each hit
    #[arg(long)]
    pub(crate) explain: bool,
    /// Exit with status 1 when nothing matches
    #[arg(long)]
    pub(crate) fail_empty: bool,
    /// Print one JSON document (see --help)
    #[arg(long)]
    pub(crate) json: bool,
    /// Catalog input.
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

const LISTING_LONG: &str = "\
Print the catalog listing exactly as a host would embed it in the prompt,
within a budget of tokens, and say on stderr which form each server got.

Tokens (--tokenizer): `estimate` (the default) is toolsift's estimate,
calibrated so that a listing stays within its budget in OpenAI's cl100k
and o200k counts and about 10% denser counts (Claude's), and fills 85-95%
of it in cl100k; `cl100k` and `o200k` count exactly in those encodings
(loading one takes a fraction of a second).

Forms: with `auto` (the default, budget 2000) each server gets the most
detailed form the budget allows: full lines, then names only, then a
one-line summary, then left out, the largest server first. `full` lists
every tool with its short description and `names` every tool name (as a host
configured without descriptions would), both ignoring the budget; `groups`
gives every server its one-line summary. With a forced form, stderr notes
when the listing exceeds a --budget given.

A budget too small for anything (`--budget 10`) still prints the smallest
honest listing, one line counting the servers and tools and telling the
model to search (`## 7 servers (407 tools — search to see them)`), and
stderr notes that it is over the budget: a host never embeds an empty
listing.

JSON (--json): one object
  {\"form\", \"tokenizer\", \"budget\": number|null, \"tokens\", \"full_tokens\", \"complete\",
   \"servers\": [{\"name\", \"tools\", \"tokens\",
                \"form\": \"full\"|\"names\"|\"summary\"|\"omitted\"}],
   \"text\": the listing}";

/// `toolsift listing`.
#[derive(Debug, Args)]
pub(crate) struct ListingArgs {
    /// Token budget (auto: 2000)
    #[arg(long, short = 'b', value_name = "TOKENS")]
    pub(crate) budget: Option<usize>,
    /// Tokens: estimate, cl100k or o200k
    #[arg(long, value_enum, default_value_t = TokenizerArg::Estimate, hide_possible_values = true)]
    pub(crate) tokenizer: TokenizerArg,
    /// Forms: auto, full, names or groups
    #[arg(long, value_enum, default_value_t = FormArg::Auto, hide_possible_values = true)]
    pub(crate) form: FormArg,
    /// Print one JSON document (see --help)
    #[arg(long)]
    pub(crate) json: bool,
    /// Catalog input.
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

/// `listing --form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormArg {
    /// The budget chooses each server's form
    Auto,
    /// Every tool with its short description
    Full,
    /// Every tool name, no descriptions
    Names,
    /// One summary line per server
    Groups,
}

/// `listing --tokenizer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TokenizerArg {
    /// toolsift's estimate
    Estimate,
    /// OpenAI's cl100k_base, exactly
    Cl100k,
    /// OpenAI's o200k_base, exactly
    O200k,
}

const DESCRIBE_LONG: &str = "\
Show one tool's full definition: identity, the call signature the model
sees in search results, the whole description and the input schema,
pretty-printed.

NAME is a model-facing name (mcp__github__create_issue), SERVER/TOOL, or the
tool's original name; when nothing matches exactly, case and the separators
`_ - . /` and space do not matter. An unknown name suggests the closest
names (exit status 2), and so does a name several tools share.

JSON (--json): one object
  {\"name\", \"server\", \"tool\", \"kind\", \"title\": string|null, \"signature\",
   \"description\", \"input_schema\", \"output_schema\": object|null,
   \"annotations\": object|null,
   \"openapi\": null | {\"method\", \"path\", \"tags\", \"summary\", \"deprecated\",
                      \"operation_id\"}}";

/// `toolsift describe`.
#[derive(Debug, Args)]
pub(crate) struct DescribeArgs {
    /// Model-facing name, SERVER/TOOL or tool name
    #[arg(value_name = "NAME")]
    pub(crate) name: String,
    /// Print one JSON document (see --help)
    #[arg(long)]
    pub(crate) json: bool,
    /// Catalog input.
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

const CHECK_LONG: &str = "\
Lint a catalog the way an agent experiences it. Checks, by code:

  name-miss             the tool's own name words, as a query, do not bring
                        it into the top K (--top, 3); names who beats it
  summary-miss          the same for its summary (OpenAPI summary, else
                        the first sentence of the description)
  near-duplicate        tools on different servers with the same name
                        words, or with summaries at least 80% alike
  empty-description     no description at all
  huge-description      a description longer than --huge-description
  repeated-description  several tools with one identical description
  unreadable-file       a catalog file skipped under --keep-going
  <diagnostic code>     every ingestion diagnostic: reserved-name,
                        name-collision, missing-schema, duplicate-name,
                        ref-cycle, ... (--skip diagnostics skips them all)

Human output groups findings by code, shows at most --max-per-group of each
with `... N more`, and ends with a summary line. Exit status 1 when anything
is found, so it can run in a server author's CI.

JSON (--json): one object, never capped
  {\"servers\", \"tools\", \"problems\",
   \"groups\": [{\"code\", \"title\", \"count\",
               \"findings\": [{\"server\", \"tool\": string|null,
                             \"name\": string|null, \"message\", ...}]}]}
Code-specific fields: name-miss and summary-miss have \"query\", \"rank\"
(null when not in the top 50) and \"beaten_by\" (model-facing names);
near-duplicate has \"reason\" (\"same-name\" or \"similar-summary\"),
\"similarity\" and \"tools\" ([{\"server\", \"tool\", \"name\"}]);
repeated-description has \"tools\"; huge-description has \"chars\" and
\"tokens\" (the estimate listings are budgeted with);
diagnostics have \"file\" and \"pointer\"; unreadable-file has \"file\".";

/// `toolsift check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Rank a tool must reach for its own queries
    #[arg(long, default_value_t = 3, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..=50))]
    pub(crate) top: u32,
    /// Longest description that is not huge
    #[arg(long, default_value_t = 2000, value_name = "CHARS")]
    pub(crate) huge_description: usize,
    /// Skip a check or diagnostic by code
    #[arg(long, value_name = "CODE")]
    pub(crate) skip: Vec<String>,
    /// Findings shown per code (0: all)
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub(crate) max_per_group: usize,
    /// Print one JSON document (see --help)
    #[arg(long)]
    pub(crate) json: bool,
    /// Catalog input.
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

const SERVE_LONG: &str = "\
Run an MCP gateway: an MCP server that connects to every server in a config
file, indexes all their tools, and shows the client three tools instead of
hundreds: tool_search (ranked results with names, descriptions and input
schemas, or why nothing fits; its description lists what is connected),
tool_describe and tool_call.

The config file is the \"mcpServers\" JSON of Claude Desktop, Claude Code and
Cursor (stdio servers: command, args, env; remote servers: url, headers), or
VS Code's \"servers\". ${VAR}, ${env:VAR} and ${VAR:-default} are expanded.

By default the gateway speaks MCP on stdin/stdout, for a client that starts it
as a stdio server; --http serves streamable HTTP at /mcp instead. HTTP binds
127.0.0.1 unless told otherwise, rejects browser origins other than localhost
(add some with --allow-origin), and refuses a non-loopback address without a
bearer token, read from $TOOLSIFT_GATEWAY_TOKEN or --token-file (never from the
command line).

Upstream servers start all at once; the gateway is ready when each is indexed
or has failed (at most --startup-timeout). A server that fails to start, exits
or stops answering is restarted with backoff (1 s doubling to 60 s); its tools
leave the index meanwhile and tool_search's description says it is down.

Logs go to stderr, never stdout: warnings by default, progress with --verbose.

Exit status: 0 when the client disconnects (stdio); 2 on a bad config file
(the message names the server and the field) or an address that cannot be
served.";

/// `toolsift serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The servers: an mcpServers (or VS Code servers) JSON file
    #[arg(long, value_name = "PATH")]
    pub(crate) config: PathBuf,
    /// Serve streamable HTTP at ADDR instead of stdio [default: 127.0.0.1:8765]
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8765")]
    pub(crate) http: Option<std::net::SocketAddr>,
    /// Read the HTTP bearer token from this file (else $TOOLSIFT_GATEWAY_TOKEN)
    #[arg(long, value_name = "PATH", requires = "http")]
    pub(crate) token_file: Option<PathBuf>,
    /// Also accept requests from this browser origin (e.g. https://app.example.com:443)
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub(crate) allow_origin: Vec<String>,
    /// Seconds a forwarded request (a tool call, tools/list) may take
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    pub(crate) request_timeout: f64,
    /// Seconds a server may take to start and list its tools
    #[arg(long, default_value_t = 30.0, value_name = "SECS")]
    pub(crate) startup_timeout: f64,
    /// Token budget of the listing in tool_search's description
    #[arg(long, default_value_t = 1000, value_name = "TOKENS")]
    pub(crate) listing_budget: usize,
    /// Log progress (connections, tool counts, servers' stderr) to stderr
    #[arg(long, short = 'v')]
    pub(crate) verbose: bool,
}
