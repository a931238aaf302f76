//! `toolsift check`: lint a catalog the way an agent experiences it.
//!
//! Every tool is searched for twice, with its own name and with its summary, as an agent that
//! read the listing would ask; a tool that does not come back in the top `K` is hard to reach,
//! and the tools that beat it say why. The same searches propose near-duplicate candidates, so
//! the whole check costs two searches per tool plus linear passes over the catalog.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use clap::ArgMatches;
use serde_json::{Map, Value, json};
use toolsift::listing::{PieceEstimate, TokenEstimator, short_description};
use toolsift::text::{available_cores, parallel_map};
use toolsift::{DiagnosticKind, SearchResults, Tool, ToolId, ToolSearch};

use crate::cli::CheckArgs;
use crate::cmd::{Failure, Report};
use crate::input::{self, Input};
use crate::term::{self, WIDTH, clean, clip};

/// How deep a missed tool is looked for, to report its rank.
const RANK_DEPTH: usize = 50;
/// Summaries at least this alike (Jaccard over their words) are near-duplicates.
const SIMILAR: f32 = 0.8;
/// Summaries with fewer distinct words are too short to compare.
const MIN_WORDS: usize = 3;
/// The most lines of detail shown under a finding.
const DETAIL_LINES: usize = 4;
/// Hits of a summary query looked at for near-duplicates.
const CANDIDATES: usize = 5;

/// The checks of this command, in report order after the ingestion diagnostics.
const CHECKS: [(&str, &str); 6] = [
    ("name-miss", "own name, as a query, does not bring the tool into the top K"),
    ("summary-miss", "summary, as a query, does not bring the tool into the top K"),
    ("near-duplicate", "tools on different servers that look alike"),
    ("empty-description", "tools without a description"),
    ("huge-description", "descriptions longer than the limit"),
    ("repeated-description", "tools sharing one description"),
];

/// The ingestion diagnostic codes known when this was written (new ones are reported too).
const DIAGNOSTIC_CODES: [&str; 26] = [
    "not-an-object",
    "missing-name",
    "duplicate-name",
    "invalid-schema",
    "missing-schema",
    "wrong-type",
    "unsupported-tool",
    "description-truncated",
    "schema-too-deep",
    "schema-too-large",
    "too-many-tools",
    "ref-cycle",
    "external-ref",
    "unresolved-ref",
    "parameter-conflict",
    "unknown-method",
    "malformed-openapi",
    "reserved-name",
    "name-collision",
    "server-mismatch",
    "duplicate-key",
    "nested-too-deep",
    "name-too-long",
    "text-truncated",
    "key-too-long",
    "body-repeats-parameter",
];

/// Examples shown per server when a group is cut to its per-server counts.
const EXAMPLES_PER_SERVER: usize = 2;

/// One problem.
#[derive(Debug)]
struct Finding {
    server: String,
    tool: Option<String>,
    name: Option<String>,
    /// One line: what is wrong.
    message: String,
    /// A second line for people: the query, the tools involved, where in the file.
    detail: Option<String>,
    /// Code-specific JSON fields.
    extra: Map<String, Value>,
}

impl Finding {
    fn new(tool: Option<(&str, &Tool)>, message: String) -> Finding {
        Finding {
            server: tool.map(|(_, t)| t.id.server.clone()).unwrap_or_default(),
            tool: tool.map(|(_, t)| t.id.name.clone()),
            name: tool.map(|(n, _)| n.to_owned()),
            message,
            detail: None,
            extra: Map::new(),
        }
    }

    fn detail(mut self, detail: String) -> Finding {
        self.detail = Some(detail);
        self
    }

    fn with(mut self, key: &str, value: Value) -> Finding {
        self.extra.insert(key.to_owned(), value);
        self
    }
}

/// The findings of one code.
#[derive(Debug)]
struct Group {
    code: String,
    title: String,
    findings: Vec<Finding>,
    /// A normal pattern of real catalogs, reported but not counted as a problem.
    note: bool,
}

/// Runs `toolsift check`.
pub(crate) fn run(args: &CheckArgs, matches: Option<&ArgMatches>) -> Result<Report, Failure> {
    for code in &args.skip {
        let known = code == "diagnostics"
            || CHECKS.iter().any(|(c, _)| c == code)
            || DIAGNOSTIC_CODES.contains(&code.as_str())
            || code == "unreadable-file";
        if !known {
            return Err(Failure::one(format!(
                "--skip {code}: unknown code; see `toolsift check --help` for the codes"
            )));
        }
    }
    let top = usize::try_from(args.top).unwrap_or(3).max(1);
    let input = input::load(&args.input, matches)?;
    let mut groups: Vec<Group> = Vec::new();
    let skipped = |code: &str| args.skip.iter().any(|s| s == code);

    if !input.skipped.is_empty() && !skipped("unreadable-file") {
        let findings = input
            .skipped
            .iter()
            .map(|(file, error)| {
                Finding::new(None, error.clone()).with("file", json!(file.as_str()))
            })
            .collect();
        groups.push(Group {
            code: "unreadable-file".into(),
            title: "catalog files that could not be read (skipped)".into(),
            findings,
            note: false,
        });
    }
    if !skipped("diagnostics") {
        groups.extend(diagnostics(&input, &args.skip));
    }

    let Input { catalog, .. } = input;
    let servers = catalog.servers().len();
    let search = ToolSearch::new(catalog)?;
    let tools: Vec<(&str, &Tool)> = search.catalog().tools().collect();
    let summaries: Vec<String> = tools.iter().map(|(_, t)| summary(t)).collect();

    let want_summary = !skipped("summary-miss") || !skipped("near-duplicate");
    let probes = probe(&search, &tools, &summaries, top, !skipped("name-miss"), want_summary);

    let title = |code: &str| -> String {
        let base = CHECKS.iter().find(|(c, _)| *c == code).map_or("", |(_, t)| t);
        base.replace("top K", &format!("top {top}"))
    };
    let mut push = |code: &str, title: String, findings: Vec<Finding>| {
        if !findings.is_empty() && !skipped(code) {
            groups.push(Group { code: code.to_owned(), title, findings, note: false });
        }
    };
    let (name_misses, summary_misses): (Vec<_>, Vec<_>) = probes
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            [p.name.as_ref().map(|m| (true, i, m)), p.summary.as_ref().map(|m| (false, i, m))]
        })
        .flatten()
        .partition(|(is_name, _, _)| *is_name);
    let miss = |list: Vec<(bool, usize, &Miss)>, what: &str| -> Vec<Finding> {
        list.into_iter().map(|(_, i, m)| miss_finding(tools[i], m, what, top)).collect()
    };
    push("name-miss", title("name-miss"), miss(name_misses, "own name"));
    push("summary-miss", title("summary-miss"), miss(summary_misses, "summary"));
    push("near-duplicate", title("near-duplicate"), near_duplicates(&tools, &summaries, &probes));
    push("empty-description", title("empty-description"), empty_descriptions(&tools));
    let huge = format!("descriptions longer than {} characters", args.huge_description);
    push("huge-description", huge, huge_descriptions(&tools, args.huge_description));
    push("repeated-description", title("repeated-description"), repeated(&tools));

    let problems: usize = groups.iter().filter(|g| !g.note).map(|g| g.findings.len()).sum();
    let stdout = if args.json {
        term::json_document(&json_document(servers, tools.len(), problems, &groups))
    } else {
        human(servers, tools.len(), problems, &groups, args.max_per_group)
    };
    Ok(Report { stdout, problems: problems > 0 })
}

/// A tool's summary as the ranker sees it: the OpenAPI summary, else the short description
/// (the first sentence, at most 200 characters).
fn summary(tool: &Tool) -> String {
    if let Some(s) = tool.openapi.as_ref().and_then(|op| op.summary.as_deref())
        && !s.trim().is_empty()
    {
        return s.trim().to_owned();
    }
    short_description(&tool.description, 200)
}

/// The words of an identifier, lower case: `linear_getIssues` → `linear get issues`.
fn name_words(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !out.ends_with(' ') {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
    }
    out.trim_end().to_owned()
}

/// A tool missing from the top K for one of its own queries.
#[derive(Debug)]
struct Miss {
    query: String,
    /// Its 1-based rank, if within [`RANK_DEPTH`].
    rank: Option<usize>,
    /// The model-facing names ranked above it, at most K.
    beaten_by: Vec<String>,
    /// Why the search was empty, if it was.
    empty: Option<String>,
}

/// The outcome of one tool's two searches.
#[derive(Debug, Default)]
struct Probe {
    name: Option<Miss>,
    summary: Option<Miss>,
    /// The top hits of the summary query (catalog positions), for near-duplicates.
    similar: Vec<usize>,
}

/// Searches every tool's name and summary, on all cores, in catalog order.
fn probe(
    search: &ToolSearch,
    tools: &[(&str, &Tool)],
    summaries: &[String],
    top: usize,
    names: bool,
    summary: bool,
) -> Vec<Probe> {
    let position: HashMap<&ToolId, usize> =
        tools.iter().enumerate().map(|(i, (_, t))| (&t.id, i)).collect();
    let one = |i: usize| -> Probe {
        let (_, tool) = tools[i];
        let mut p = Probe::default();
        if names {
            p.name = miss(search, &name_words(tool.name()), &tool.id, top, top);
        }
        if summary && !summaries[i].is_empty() {
            let n = top.max(CANDIDATES);
            let results = search.search(&summaries[i], n);
            p.similar = results
                .hits()
                .iter()
                .filter_map(|h| position.get(h.tool()).copied())
                .filter(|&j| j != i)
                .collect();
            p.summary = miss_in(search, &summaries[i], &tool.id, top, &results);
        }
        p
    };
    // A short catalog is not worth a thread.
    let threads = if tools.len() < 64 { 1 } else { available_cores() };
    parallel_map((0..tools.len()).collect(), threads, one)
}

/// Searches `query` and reports whether `tool` is missing from the top `top`.
fn miss(search: &ToolSearch, query: &str, tool: &ToolId, top: usize, n: usize) -> Option<Miss> {
    let results = search.search(query, n);
    miss_in(search, query, tool, top, &results)
}

fn miss_in(
    search: &ToolSearch,
    query: &str,
    tool: &ToolId,
    top: usize,
    results: &SearchResults,
) -> Option<Miss> {
    let hits = results.hits();
    if hits.iter().take(top).any(|h| h.tool() == tool) {
        return None;
    }
    let beaten_by: Vec<String> = hits.iter().take(top).map(|h| h.name().to_owned()).collect();
    if results.is_empty() {
        return Some(Miss {
            query: query.to_owned(),
            rank: None,
            beaten_by,
            empty: Some(results.refusal_text()),
        });
    }
    let rank = hits
        .iter()
        .position(|h| h.tool() == tool)
        .or_else(|| search.search(query, RANK_DEPTH).hits().iter().position(|h| h.tool() == tool))
        .map(|p| p + 1);
    Some(Miss { query: query.to_owned(), rank, beaten_by, empty: None })
}

fn miss_finding((name, tool): (&str, &Tool), m: &Miss, what: &str, top: usize) -> Finding {
    let message = match (&m.empty, m.rank) {
        (Some(why), _) => format!("{what} as a query finds nothing: {why}"),
        (None, Some(r)) => format!("{what} as a query ranks it {}", ordinal(r)),
        (None, None) => format!("{what} as a query leaves it out of the top {RANK_DEPTH}"),
    };
    let detail = if m.beaten_by.is_empty() {
        format!("query {:?}", clip(&m.query, 60))
    } else {
        format!("query {:?}\ntop {top}: {}", clip(&m.query, 60), m.beaten_by.join(", "))
    };
    Finding::new(Some((name, tool)), message)
        .detail(detail)
        .with("query", json!(m.query))
        .with("rank", json!(m.rank))
        .with("beaten_by", json!(m.beaten_by))
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The words of a summary for comparing: lower case, without the commonest function words.
fn words(text: &str) -> BTreeSet<String> {
    const STOP: [&str; 20] = [
        "a", "an", "and", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on",
        "or", "the", "this", "to", "with", "that",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect()
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f32 {
    let inter = a.intersection(b).count();
    let union = a.len() + b.len() - inter;
    if union == 0 { 0.0 } else { inter as f32 / union as f32 }
}

fn tool_ref((name, tool): (&str, &Tool)) -> Value {
    json!({"server": tool.id.server, "tool": tool.id.name, "name": name})
}

/// Same name words on several servers, and cross-server pairs whose summaries are alike.
fn near_duplicates(
    tools: &[(&str, &Tool)],
    summaries: &[String],
    probes: &[Probe],
) -> Vec<Finding> {
    let mut out: Vec<(usize, Finding)> = Vec::new();
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, (_, tool)) in tools.iter().enumerate() {
        by_name.entry(name_words(tool.name()).replace(' ', "")).or_default().push(i);
    }
    let mut same_name: BTreeSet<(usize, usize)> = BTreeSet::new();
    for members in by_name.values() {
        let servers: BTreeSet<&str> =
            members.iter().map(|&i| tools[i].1.id.server.as_str()).collect();
        if servers.len() < 2 {
            continue;
        }
        for (k, &a) in members.iter().enumerate() {
            for &b in &members[k + 1..] {
                same_name.insert((a, b));
            }
        }
        let first = tools[members[0]];
        let names: Vec<String> = members.iter().map(|&i| tools[i].1.id.to_string()).collect();
        let finding =
            Finding::new(Some(first), format!("the same name on {} servers", servers.len()))
                .detail(names.join(", "))
                .with("reason", json!("same-name"))
                .with("similarity", Value::Null)
                .with("tools", Value::Array(members.iter().map(|&i| tool_ref(tools[i])).collect()));
        out.push((members[0], finding));
    }

    let sets: Vec<BTreeSet<String>> = summaries.iter().map(|s| words(s)).collect();
    let mut pairs: BTreeMap<(usize, usize), f32> = BTreeMap::new();
    for (i, p) in probes.iter().enumerate() {
        for &j in &p.similar {
            let key = (i.min(j), i.max(j));
            if tools[i].1.id.server == tools[j].1.id.server
                || same_name.contains(&key)
                || sets[i].len() < MIN_WORDS
                || sets[j].len() < MIN_WORDS
            {
                continue;
            }
            let s = jaccard(&sets[i], &sets[j]);
            if s >= SIMILAR {
                pairs.insert(key, s);
            }
        }
    }
    // One finding per tool: the later tools whose summaries are alike its own.
    let mut alike: BTreeMap<usize, Vec<(usize, f32)>> = BTreeMap::new();
    for ((a, b), s) in pairs {
        alike.entry(a).or_default().push((b, s));
    }
    for (a, others) in alike {
        let best = others.iter().map(|&(_, s)| s).fold(0.0f32, f32::max);
        let percent = (best * 100.0).round();
        let names: Vec<String> = others.iter().map(|&(b, _)| tools[b].1.id.to_string()).collect();
        let message = match others.as_slice() {
            [(b, _)] => format!("summary {percent}% alike a tool of {}", tools[*b].1.id.server),
            _ => format!("summary up to {percent}% alike {} other tools", others.len()),
        };
        let mut refs = vec![tool_ref(tools[a])];
        refs.extend(others.iter().map(|&(b, _)| tool_ref(tools[b])));
        let finding = Finding::new(Some(tools[a]), message)
            .detail(format!("{:?}\n{}", clip(&summaries[a], 70), names.join(", ")))
            .with("reason", json!("similar-summary"))
            .with("similarity", term::number(best))
            .with("tools", Value::Array(refs));
        out.push((a, finding));
    }
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, f)| f).collect()
}

fn empty_descriptions(tools: &[(&str, &Tool)]) -> Vec<Finding> {
    tools
        .iter()
        .filter(|(_, t)| t.description.trim().is_empty())
        .map(|&(n, t)| {
            let message = match &t.title {
                Some(title) => format!("no description; only the title {:?}", clip(title, 40)),
                None => "no description: the model sees only the name".to_owned(),
            };
            Finding::new(Some((n, t)), message)
        })
        .collect()
}

fn huge_descriptions(tools: &[(&str, &Tool)], limit: usize) -> Vec<Finding> {
    // The estimate the listing budgets with.
    let estimate = PieceEstimate::default();
    tools
        .iter()
        .filter_map(|&(n, t)| {
            let chars = term::chars(&t.description);
            (chars > limit).then(|| {
                let tokens = estimate.estimate(&t.description);
                Finding::new(Some((n, t)), format!("{chars} characters (about {tokens} tokens)"))
                    .with("chars", json!(chars))
                    .with("tokens", json!(tokens))
            })
        })
        .collect()
}

fn repeated(tools: &[(&str, &Tool)]) -> Vec<Finding> {
    let mut by_text: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (_, t)) in tools.iter().enumerate() {
        let d = t.description.trim();
        if !d.is_empty() {
            by_text.entry(d).or_default().push(i);
        }
    }
    let mut groups: Vec<&Vec<usize>> = by_text.values().filter(|m| m.len() > 1).collect();
    groups.sort_by_key(|m| m[0]);
    groups
        .into_iter()
        .map(|members| {
            let first = tools[members[0]];
            let names: Vec<String> = members.iter().map(|&i| tools[i].1.id.to_string()).collect();
            Finding::new(Some(first), format!("{} tools share one description", members.len()))
                .detail(format!(
                    "{:?}\n{}",
                    clip(&clean(first.1.description.trim(), false), 70),
                    names.join(", ")
                ))
                .with("tools", Value::Array(members.iter().map(|&i| tool_ref(tools[i])).collect()))
        })
        .collect()
}

fn diagnostic_title(kind: DiagnosticKind) -> &'static str {
    match kind {
        DiagnosticKind::NotAnObject => "tool entries that are not objects (skipped)",
        DiagnosticKind::MissingName => "tools without a usable name (skipped)",
        DiagnosticKind::DuplicateName => "a tool name that came earlier in the server",
        DiagnosticKind::InvalidSchema => "input schemas that are not objects (tool skipped)",
        DiagnosticKind::MissingSchema => "MCP tools without an inputSchema",
        DiagnosticKind::WrongType => "fields of the wrong type (ignored)",
        DiagnosticKind::UnsupportedTool => "entries that are not function tools (skipped)",
        DiagnosticKind::DescriptionTruncated => "descriptions cut at the size limit",
        DiagnosticKind::SchemaTooDeep => "schemas nested too deep (cut)",
        DiagnosticKind::SchemaTooLarge => "schemas too large once $refs are expanded (cut)",
        DiagnosticKind::TooManyTools => "servers over the tool limit",
        DiagnosticKind::RefCycle => "$ref cycles (cut)",
        DiagnosticKind::ExternalRef => "$refs to other documents (not fetched)",
        DiagnosticKind::UnresolvedRef => "$refs to nothing",
        DiagnosticKind::ParameterConflict => "parameters sharing a name",
        DiagnosticKind::UnknownMethod => "path item keys that are not HTTP methods",
        DiagnosticKind::MalformedOpenApi => "malformed OpenAPI parts (ignored)",
        DiagnosticKind::ReservedName => "names reserved for the bridge tools (renamed)",
        DiagnosticKind::NameCollision => "model-facing names already taken (renamed)",
        DiagnosticKind::ServerMismatch => "tools filed under another server",
        DiagnosticKind::DuplicateKey => "keys written twice (the last one kept)",
        DiagnosticKind::NestedTooDeep => "parts nested too deep to read (tool skipped)",
        DiagnosticKind::NameTooLong => "names over the size limit (tool skipped)",
        DiagnosticKind::TextTruncated => "texts cut at the size limit",
        DiagnosticKind::KeyTooLong => "schema keys over the size limit (tool skipped)",
        DiagnosticKind::BodyRepeatsParameter => {
            "body fields repeating a query parameter (normal, not a problem)"
        }
        _ => "ingestion diagnostics",
    }
}

/// Every ingestion diagnostic, grouped by kind.
fn diagnostics(input: &Input, skip: &[String]) -> Vec<Group> {
    let mut by_kind: BTreeMap<DiagnosticKind, Vec<Finding>> = BTreeMap::new();
    for d in &input.diagnostics {
        if skip.iter().any(|s| s == d.kind().code()) {
            continue;
        }
        let file = input.file_of(d.server());
        let name = d
            .tool()
            .and_then(|t| input.catalog.model_name(&ToolId::new(d.server(), t)))
            .map(str::to_owned);
        let at =
            if d.pointer().is_empty() { String::new() } else { format!(" at {}", d.pointer()) };
        let finding = Finding {
            server: d.server().to_owned(),
            tool: d.tool().map(str::to_owned),
            name,
            message: d.message().to_owned(),
            detail: Some(format!("{file}{at}")),
            extra: Map::new(),
        }
        .with("file", json!(file))
        .with("pointer", json!(d.pointer()));
        by_kind.entry(d.kind()).or_default().push(finding);
    }
    by_kind
        .into_iter()
        .map(|(kind, findings)| Group {
            code: kind.code().to_owned(),
            title: diagnostic_title(kind).to_owned(),
            findings,
            note: kind.is_note(),
        })
        .collect()
}

fn human(servers: usize, tools: usize, problems: usize, groups: &[Group], cap: usize) -> String {
    let mut out = String::new();
    for group in groups {
        let kind = if group.note { "note" } else { "" };
        let head = if group.note {
            format!("{} ({} {kind}s): {}", group.code, group.findings.len(), group.title)
        } else {
            format!("{} ({}): {}", group.code, group.findings.len(), group.title)
        };
        out.push_str(&clip(&head, WIDTH));
        out.push('\n');
        let shown = if cap == 0 { group.findings.len() } else { cap.min(group.findings.len()) };
        // Many findings of one kind: a count per server with a few examples, not a wall.
        let split = by_server(&group.findings);
        let examples: Vec<&Finding> = if shown < group.findings.len() && split.len() < shown {
            split
                .iter()
                .flat_map(|(_, list)| list.iter().take(EXAMPLES_PER_SERVER).copied())
                .collect()
        } else {
            group.findings[..shown].iter().collect()
        };
        let per_server = examples.len() < group.findings.len() && split.len() < shown;
        if per_server {
            for (server, list) in &split {
                let line = format!(
                    "  {}: {}, for example:",
                    if server.is_empty() { "(document)" } else { server },
                    term::count(list.len(), "finding")
                );
                out.push_str(&clip(&clean(&line, false), WIDTH));
                out.push('\n');
                for f in list.iter().take(EXAMPLES_PER_SERVER) {
                    push_finding(&mut out, f);
                }
                if list.len() > EXAMPLES_PER_SERVER {
                    out.push_str(&format!("    … {} more\n", list.len() - EXAMPLES_PER_SERVER));
                }
            }
            out.push('\n');
            continue;
        }
        for f in examples {
            push_finding(&mut out, f);
        }
        if shown < group.findings.len() {
            out.push_str(&format!("  … {} more\n", group.findings.len() - shown));
        }
        out.push('\n');
    }
    human_totals(&mut out, servers, tools, problems, groups);
    out
}

/// The findings of a group by server, in first-seen order.
fn by_server(findings: &[Finding]) -> Vec<(&str, Vec<&Finding>)> {
    let mut out: Vec<(&str, Vec<&Finding>)> = Vec::new();
    for f in findings {
        match out.iter_mut().find(|(s, _)| *s == f.server) {
            Some((_, list)) => list.push(f),
            None => out.push((&f.server, vec![f])),
        }
    }
    out
}

/// One finding: its subject and message, then its detail lines.
fn push_finding(out: &mut String, f: &Finding) {
    {
        let subject = match &f.tool {
            Some(tool) => format!("{}/{}: ", f.server, tool),
            None if f.server.is_empty() => String::new(),
            None => format!("{}: ", f.server),
        };
        // The message goes under the subject when both do not fit on one line.
        let line = clean(&format!("  {subject}{}", f.message), false);
        let mut detail = f.detail.clone();
        if term::chars(&line) <= WIDTH {
            out.push_str(&line);
        } else {
            out.push_str(&clip(&clean(&format!("  {}", subject.trim_end()), false), WIDTH));
            let message = clean(&f.message, false);
            detail = Some(detail.map_or_else(|| message.clone(), |d| format!("{message}\n{d}")));
        }
        out.push('\n');
        if let Some(detail) = &detail {
            let wrapped = term::wrap(&clean(detail, true), 6);
            let lines: Vec<&str> = wrapped.lines().collect();
            for (k, line) in lines.iter().take(DETAIL_LINES).enumerate() {
                if k + 1 == DETAIL_LINES && lines.len() > DETAIL_LINES {
                    out.push_str(&clip(&format!("{line} …"), WIDTH));
                } else {
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
    }
}

/// The closing line: the scope and the problems by code (notes named apart).
fn human_totals(out: &mut String, servers: usize, tools: usize, problems: usize, groups: &[Group]) {
    let scope = format!("{} on {}", term::count(tools, "tool"), term::count(servers, "server"));
    let notes: Vec<String> = groups
        .iter()
        .filter(|g| g.note)
        .map(|g| format!("{} {}", g.code, g.findings.len()))
        .collect();
    let notes =
        if notes.is_empty() { String::new() } else { format!("; notes: {}", notes.join(", ")) };
    if problems == 0 {
        out.push_str(&term::wrap(&format!("{scope}: no problems found{notes}"), 0));
    } else {
        let counts: Vec<String> = groups
            .iter()
            .filter(|g| !g.note)
            .map(|g| format!("{} {}", g.code, g.findings.len()))
            .collect();
        out.push_str(&term::wrap(
            &format!(
                "{scope}: {} ({}){notes}",
                term::count(problems, "problem"),
                counts.join(", ")
            ),
            0,
        ));
    }
}

fn json_document(servers: usize, tools: usize, problems: usize, groups: &[Group]) -> Value {
    let groups: Vec<Value> = groups
        .iter()
        .map(|g| {
            let findings: Vec<Value> = g
                .findings
                .iter()
                .map(|f| {
                    let mut o = Map::new();
                    o.insert("server".into(), json!(f.server));
                    o.insert("tool".into(), json!(f.tool));
                    o.insert("name".into(), json!(f.name));
                    o.insert("message".into(), json!(f.message));
                    o.extend(f.extra.clone());
                    Value::Object(o)
                })
                .collect();
            json!({"code": g.code, "title": g.title, "count": g.findings.len(),
                   "note": g.note, "findings": findings})
        })
        .collect();
    json!({"servers": servers, "tools": tools, "problems": problems, "groups": groups})
}
