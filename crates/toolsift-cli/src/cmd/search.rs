//! `toolsift search`: ranked hits for a query, or why there are none.

use std::fmt::Write as _;

use clap::ArgMatches;
use serde_json::{Map, Value, json};
use toolsift::listing::{Lister, short_description};
use toolsift::rank::Relation;
use toolsift::{Explanation, Hit, Refusal, SearchResults, ToolSearch};

use crate::cli::SearchArgs;
use crate::cmd::{Failure, Report};
use crate::input;
use crate::term::{self, WIDTH, clean, clip, number, two_ends};

/// Runs `toolsift search`.
pub(crate) fn run(args: &SearchArgs, matches: Option<&ArgMatches>) -> Result<Report, Failure> {
    let input = input::load(&args.input, matches)?;
    input.note_diagnostics();
    let search = ToolSearch::new(input.catalog)?;
    let query = args.query.join(" ");
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    let results = ranked(&search, &query, limit, args.server.as_deref())?;
    let empty = results.is_empty().then(|| no_match(&search, &query, &results, args));

    let stdout = if args.json {
        term::json_document(&json_document(&search, &query, args, &results, empty.as_ref()))
    } else {
        human(&search, &query, args, &results, empty.as_ref())
    };
    Ok(Report { stdout, problems: args.fail_empty && results.is_empty() })
}

/// The hits, restricted to one server when asked: the whole catalog is ranked (so scores and
/// abstention are what an unfiltered search gives) and the other servers' hits dropped.
fn ranked(
    search: &ToolSearch,
    query: &str,
    limit: usize,
    server: Option<&str>,
) -> Result<SearchResults, Failure> {
    let Some(server) = server else { return Ok(search.search(query, limit)) };
    if search.catalog().server(server).is_none() {
        let names: Vec<&str> = search.catalog().servers().map(|s| s.name.as_str()).collect();
        return Err(Failure::one(format!(
            "unknown server `{server}`; the catalog has: {}",
            names.join(", ")
        )));
    }
    let all = search.search(query, search.len());
    if all.is_empty() {
        return Ok(all);
    }
    let missing = all.missing_services().to_vec();
    let hits: Vec<Hit> =
        all.into_hits().into_iter().filter(|h| h.tool().server == server).take(limit).collect();
    Ok(SearchResults::new(hits).with_missing_services(missing))
}

/// What a host tells the model for an empty result, and the ranker's reason.
#[derive(Debug)]
struct Empty {
    /// The lines for the model.
    text: String,
    /// The ranker's reason, when it abstained (`None` when only the server filter emptied it).
    why: Option<Refusal>,
}

fn no_match(search: &ToolSearch, query: &str, results: &SearchResults, args: &SearchArgs) -> Empty {
    let why = results.refusal().cloned();
    let mut nm = search.no_match(query, results);
    if let Some(server) = &args.server {
        nm = nm.server_filter(server.as_str());
    }
    Empty { text: Lister::default().render_empty(&nm), why }
}

/// The short description shown for a hit (the title when the description is empty).
fn summary(search: &ToolSearch, hit: &Hit, max: usize) -> String {
    let Some(tool) = search.catalog().tool(hit.tool()) else { return String::new() };
    let text = short_description(&tool.description, max);
    if text.is_empty() { short_description(tool.title.as_deref().unwrap_or(""), max) } else { text }
}

fn human(
    search: &ToolSearch,
    query: &str,
    args: &SearchArgs,
    results: &SearchResults,
    empty: Option<&Empty>,
) -> String {
    let mut out = String::new();
    if let Some(empty) = empty {
        out.push_str(&term::wrap(&clean(&empty.text, true), 0));
        match &empty.why {
            Some(why) => out.push_str(&term::wrap(&format!("(reason: {why})"), 0)),
            None => out.push_str(&term::wrap("(reason: the catalog has hits on other servers)", 0)),
        }
        return out;
    }
    for (i, hit) in results.hits().iter().enumerate() {
        let left = format!("{:>2}. {}", i + 1, hit.name());
        let right = format!("{}  {:>6.2}", clean(&hit.tool().server, false), hit.score());
        out.push_str(&two_ends(&left, &right));
        let description = clean(&summary(search, hit, WIDTH - 4), false);
        if !description.is_empty() {
            out.push_str("    ");
            out.push_str(&description);
            out.push('\n');
        }
        if args.explain {
            out.push_str(&term::wrap(
                &format!("matched: {}", hit.matched().collect::<Vec<_>>().join(", ")),
                4,
            ));
            if let Some(e) = search.explain(query, hit.tool()) {
                explain_human(&mut out, &e);
            }
            if hit.action_mismatch() {
                out.push_str(&term::wrap(
                    &format!(
                        "× {}: the tool does another kind of action (read, write, delete) than \
                         the query asks for",
                        search.action_mismatch()
                    ),
                    4,
                ));
            }
            if hit.service_mismatch() {
                out.push_str(&term::wrap(
                    &format!(
                        "× {}: the query names a service this tool's server does not provide",
                        search.service_mismatch()
                    ),
                    4,
                ));
            }
            if hit.name_match() {
                out.push_str(&term::wrap(
                    &format!("× {}: the query spells the tool's name", search.name_match()),
                    4,
                ));
            }
            if hit.demoted() || hit.name_match() {
                out.push_str(&term::wrap(&format!("= {:.4}", hit.score()), 4));
            }
        }
    }
    let missing = Lister::default().render_missing(results.missing_services());
    if !missing.is_empty() {
        out.push_str(&term::wrap(&clean(&missing, true), 0));
    }
    out
}

fn relation(r: Relation) -> &'static str {
    match r {
        Relation::Exact => "exact",
        Relation::Stem => "stem",
        Relation::Prefix => "prefix",
        Relation::Typo => "typo",
        _ => "related",
    }
}

/// The breakdown of one score, indented under its hit, within 80 columns.
fn explain_human(out: &mut String, e: &Explanation) {
    let exact = if e.exact_key { "; the query is one of its names (ranked first)" } else { "" };
    let _ = writeln!(out, "    score {:.4} = Σ weight × idf × saturation{exact}", e.score);
    for t in &e.terms {
        let word = clip(&clean(&t.word, false), 24);
        if !t.answerable {
            let _ = writeln!(out, "      {word:<16} unknown: no tool has it");
            continue;
        }
        if t.forms.is_empty() {
            let _ = writeln!(out, "      {word:<16} 0  (not in this tool; idf {:.3})", t.idf);
            continue;
        }
        let _ = writeln!(
            out,
            "      {word:<16} {:.4} = {} × idf {:.3} (df {}) × sat {:.3} (x {:.3})",
            t.score, t.weight, t.idf, t.df, t.saturation, t.pseudo_frequency
        );
        for form in &t.forms {
            let fields: Vec<String> = form
                .fields
                .iter()
                .map(|f| format!("{} tf {} → {:.3}", f.field, f.tf, f.value))
                .collect();
            let line = format!(
                "{} ({} ×{}): {}",
                clean(&form.word, false),
                relation(form.relation),
                form.relation_weight,
                fields.join(", ")
            );
            out.push_str(&term::wrap(&line, 8));
        }
    }
}

fn json_document(
    search: &ToolSearch,
    query: &str,
    args: &SearchArgs,
    results: &SearchResults,
    empty: Option<&Empty>,
) -> Value {
    let hits: Vec<Value> = results
        .hits()
        .iter()
        .enumerate()
        .map(|(i, hit)| {
            let kind = search.catalog().tool(hit.tool()).map_or("", |t| t.kind.as_str());
            let mut o = Map::new();
            o.insert("rank".into(), json!(i + 1));
            o.insert("name".into(), json!(hit.name()));
            o.insert("server".into(), json!(hit.tool().server));
            o.insert("tool".into(), json!(hit.tool().name));
            o.insert("kind".into(), json!(kind));
            o.insert("score".into(), number(hit.score()));
            let demoted: Vec<&str> =
                [(hit.action_mismatch(), "action"), (hit.service_mismatch(), "service")]
                    .into_iter()
                    .filter_map(|(on, why)| on.then_some(why))
                    .collect();
            o.insert("demoted".into(), json!(demoted));
            let promoted: Vec<&str> = hit.name_match().then_some("name").into_iter().collect();
            o.insert("promoted".into(), json!(promoted));
            o.insert("matched".into(), json!(hit.matched().collect::<Vec<_>>()));
            o.insert("description".into(), json!(summary(search, hit, 200)));
            if args.explain
                && let Some(e) = search.explain(query, hit.tool())
            {
                o.insert("explanation".into(), explanation_json(&e));
            }
            Value::Object(o)
        })
        .collect();
    let empty = empty.map(|e| {
        let (reason, message, unknown, weak, missing) = match &e.why {
            Some(w) => (
                w.reason().code(),
                w.to_string(),
                w.unknown_terms().to_vec(),
                w.filtered_terms().to_vec(),
                w.missing_services().to_vec(),
            ),
            None => {
                ("server-filter", "only other servers have hits".to_owned(), vec![], vec![], vec![])
            }
        };
        json!({"reason": reason, "message": message, "unknown": unknown, "weak": weak,
               "missing_services": missing, "text": e.text})
    });
    let missing = (!results.missing_services().is_empty()).then(|| {
        json!({"services": results.missing_services(),
               "text": Lister::default().render_missing(results.missing_services())})
    });
    json!({
        "query": query,
        "limit": args.limit,
        "server": args.server,
        "hits": hits,
        "missing": missing,
        "empty": empty,
    })
}

fn explanation_json(e: &Explanation) -> Value {
    let terms: Vec<Value> = e
        .terms
        .iter()
        .map(|t| {
            let forms: Vec<Value> = t
                .forms
                .iter()
                .map(|f| {
                    let fields: Vec<Value> = f
                        .fields
                        .iter()
                        .map(|x| {
                            json!({"field": x.field, "tf": number(x.tf), "weight": number(x.weight),
                                   "b": number(x.b), "length": number(x.length),
                                   "avg_length": number(x.avg_length), "norm": number(x.norm),
                                   "value": number(x.value)})
                        })
                        .collect();
                    json!({"word": f.word, "relation": relation(f.relation),
                           "relation_weight": number(f.relation_weight),
                           "pseudo_frequency": number(f.pseudo_frequency), "fields": fields})
                })
                .collect();
            json!({"word": t.word, "answerable": t.answerable, "weight": number(t.weight),
                   "df": t.df, "idf": number(t.idf), "pseudo_frequency": number(t.pseudo_frequency),
                   "saturation": number(t.saturation), "score": number(t.score), "forms": forms})
        })
        .collect();
    json!({"score": number(e.score), "exact_key": e.exact_key, "docs": e.docs, "k1": number(e.k1),
           "terms": terms})
}
