//! `toolsift describe`: one tool's full definition, found by model-facing or original name.

use clap::ArgMatches;
use serde_json::{Value, json};
use toolsift::listing::{Hit, Lister, ResultForm};
use toolsift::{Catalog, Tool, ToolId};

use crate::cli::DescribeArgs;
use crate::cmd::{Failure, Report};
use crate::input::{self, Input};
use crate::term::{self, clean};

/// The most names suggested for an unknown one.
const SUGGESTIONS: usize = 5;

/// Runs `toolsift describe`.
pub(crate) fn run(args: &DescribeArgs, matches: Option<&ArgMatches>) -> Result<Report, Failure> {
    let input = input::load(&args.input, matches)?;
    input.note_diagnostics();
    let tool = resolve(&input.catalog, &args.name)?;
    let name = input.catalog.model_name(&tool.id).unwrap_or(tool.name());
    let signature = signature(tool, name);
    let stdout = if args.json {
        term::json_document(&json_document(tool, name, &signature))
    } else {
        human(&input, tool, name, &signature)
    };
    Ok(Report { stdout, problems: false })
}

/// The tool `query` names: a model-facing name, `server/tool`, an original name; then the same
/// ignoring case and separators. Several matches, or none, are an error (with suggestions).
fn resolve<'c>(catalog: &'c Catalog, query: &str) -> Result<&'c Tool, Failure> {
    if let Some(tool) = catalog.tool_by_model_name(query) {
        return Ok(tool);
    }
    if let Some((server, name)) = query.split_once('/')
        && let Some(tool) = catalog.tool(&ToolId::new(server, name))
    {
        return Ok(tool);
    }
    let exact: Vec<(&str, &Tool)> = catalog.tools().filter(|(_, t)| t.name() == query).collect();
    let key = normalize(query);
    let found = if exact.is_empty() {
        catalog
            .tools()
            .filter(|(n, t)| {
                normalize(n) == key
                    || normalize(t.name()) == key
                    || normalize(&t.id.to_string()) == key
            })
            .collect()
    } else {
        exact
    };
    match found.as_slice() {
        [(_, tool)] => Ok(*tool),
        [] => Err(Failure::one(unknown(catalog, query))),
        many => {
            let names: Vec<&str> = many.iter().map(|(n, _)| *n).collect();
            Err(Failure::one(format!(
                "`{query}` names {} tools: {}; give a model-facing name",
                many.len(),
                names.join(", ")
            )))
        }
    }
}

/// Lower case, with every run of `_ - . /` and whitespace as one `_`.
fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for part in s.split(|c: char| matches!(c, '_' | '-' | '.' | '/') || c.is_whitespace()) {
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('_');
        }
        out.extend(part.chars().flat_map(char::to_lowercase));
    }
    out
}

/// The message for a name no tool has, with the closest names.
fn unknown(catalog: &Catalog, query: &str) -> String {
    let q = normalize(query);
    let mut scored: Vec<(usize, &str)> = Vec::new();
    for (name, tool) in catalog.tools() {
        let d = [normalize(name), normalize(tool.name())]
            .iter()
            .map(|c| if c.contains(&q) && !q.is_empty() { 1 } else { distance(&q, c) })
            .min()
            .unwrap_or(usize::MAX);
        scored.push((d, name));
    }
    // Stable: equal distances keep catalog order.
    scored.sort_by_key(|(d, _)| *d);
    let cutoff = (term::chars(&q) / 3).max(2);
    let close: Vec<&str> =
        scored.iter().filter(|(d, _)| *d <= cutoff).take(SUGGESTIONS).map(|(_, n)| *n).collect();
    let query = clean(query, false);
    if close.is_empty() {
        format!("no tool is named `{query}` ({} tools searched)", catalog.len())
    } else {
        format!("no tool is named `{query}`; did you mean: {}?", close.join(", "))
    }
}

/// Levenshtein distance over characters, in O(len(a) · len(b)) time and O(len(b)) space.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `name(required: type, +n optional)`: the call line the model sees in compact results.
fn signature(tool: &Tool, name: &str) -> String {
    let mut bare = tool.clone();
    bare.description.clear();
    bare.title = None;
    let text = Lister::default().render_hits(&[Hit::new(&bare, name)], ResultForm::Text);
    text.to_string().trim_end().trim_start_matches("- ").to_owned()
}

fn human(input: &Input, tool: &Tool, name: &str, signature: &str) -> String {
    let mut out = String::new();
    out.push_str(name);
    out.push('\n');
    // `  label       value`, the value wrapped with its continuation lines under it.
    let mut field = |label: &str, value: &str| {
        let wrapped = term::wrap(&clean(value, false), 14);
        for (i, line) in wrapped.lines().enumerate() {
            if i == 0 {
                out.push_str(&format!("  {label:<12}{}", line.trim_start()));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
    };
    let file = input.file_of(&tool.id.server);
    field("server", &format!("{} ({}, {file})", tool.id.server, tool.kind));
    field("tool", tool.name());
    if let Some(title) = &tool.title {
        field("title", title);
    }
    if let Some(op) = &tool.openapi {
        field("route", &format!("{} {}", op.method, op.path));
        if !op.tags.is_empty() {
            field("tags", &op.tags.join(", "));
        }
        if op.deprecated {
            field("deprecated", "yes");
        }
    }
    field("call", signature);
    if let Some(a) = &tool.annotations {
        field("annotations", &a.to_string());
    }
    // Untrusted text (the description and the schemas) is quoted line by line, so none of it
    // can pass for a line of toolsift's own or of a listing.
    out.push('\n');
    if tool.description.trim().is_empty() {
        out.push_str("(no description)\n");
    } else {
        out.push_str("Description:\n");
        out.push_str(&term::quoted_wrap(&clean(tool.description.trim(), true)));
    }
    out.push_str("\nInput schema:\n");
    out.push_str(&term::quoted(&term::json_document(&tool.input_schema)));
    if let Some(schema) = &tool.output_schema {
        out.push_str("\nOutput schema:\n");
        out.push_str(&term::quoted(&term::json_document(schema)));
    }
    out
}

fn json_document(tool: &Tool, name: &str, signature: &str) -> Value {
    let openapi = tool.openapi.as_ref().map(|op| {
        json!({"method": op.method, "path": op.path, "tags": op.tags, "summary": op.summary,
               "deprecated": op.deprecated, "operation_id": op.operation_id})
    });
    json!({
        "name": name,
        "server": tool.id.server,
        "tool": tool.id.name,
        "kind": tool.kind.as_str(),
        "title": tool.title,
        "signature": signature,
        "description": tool.description,
        "input_schema": tool.input_schema,
        "output_schema": tool.output_schema,
        "annotations": tool.annotations,
        "openapi": openapi,
    })
}
