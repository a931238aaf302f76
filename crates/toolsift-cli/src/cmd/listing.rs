//! `toolsift listing`: the catalog listing as a host embeds it, and which form each server got.

use clap::ArgMatches;
use serde_json::{Value, json};
use toolsift::listing::{
    Form, Lister, Listing, ListingBuilder, OpenAiEncoding, PieceEstimate, PreparedListing,
};

use crate::cli::{FormArg, ListingArgs, TokenizerArg};
use crate::cmd::{Failure, Report};
use crate::input;
use crate::term;

/// The budget of `--form auto` when none is given, in estimated tokens.
const DEFAULT_BUDGET: usize = 2000;

/// Runs `toolsift listing`.
pub(crate) fn run(args: &ListingArgs, matches: Option<&ArgMatches>) -> Result<Report, Failure> {
    let input = input::load(&args.input, matches)?;
    input.note_diagnostics();
    let builder = match args.tokenizer {
        TokenizerArg::Estimate => ListingBuilder::new().estimator(PieceEstimate::default()),
        TokenizerArg::Cl100k => ListingBuilder::new().estimator(OpenAiEncoding::Cl100k),
        TokenizerArg::O200k => ListingBuilder::new().estimator(OpenAiEncoding::O200k),
    };
    let lister: Lister = match args.form {
        // A host that lists names only configures its lister without descriptions.
        FormArg::Names => builder.description_chars(0).build(),
        _ => builder.build(),
    };
    let prepared = lister.prepare(&input.catalog);
    let listing = match args.form {
        FormArg::Auto => {
            let listing = prepared.render(args.budget.unwrap_or(DEFAULT_BUDGET));
            if listing.nothing_fits() && listing.text().is_empty() {
                smallest_nonempty(&prepared)
            } else {
                listing
            }
        }
        FormArg::Full | FormArg::Names => prepared.render(usize::MAX),
        FormArg::Groups => smallest_complete(&prepared),
    };
    let budget = match args.form {
        FormArg::Auto => Some(args.budget.unwrap_or(DEFAULT_BUDGET)),
        _ => args.budget,
    };

    if args.json {
        let doc = json_document(args.form, args.tokenizer, budget, &prepared, &listing);
        let stdout = term::json_document(&doc);
        return Ok(Report { stdout, problems: false });
    }
    term::note(&format!("toolsift: {}", forms_line(args.form, args.tokenizer, budget, &listing)));
    if let Some(budget) = budget.filter(|&b| listing.tokens() > b) {
        eprintln!(
            "toolsift: note: the listing takes {} tokens, over the budget of {budget}",
            listing.tokens()
        );
    }
    Ok(Report { stdout: listing.into_text(), problems: false })
}

/// The smallest listing with any text: at least the one line counting every server and tool
/// and telling the model to search. Printed when the budget asked for is too small for even
/// that line, so that a host never embeds an empty listing.
fn smallest_nonempty(prepared: &PreparedListing) -> Listing {
    let mut hi = 16usize;
    while prepared.render(hi).text().is_empty() && hi < prepared.full_tokens().max(16) {
        hi = hi.saturating_mul(2);
    }
    let mut lo = 0usize;
    let mut best = prepared.render(hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let listing = prepared.render(mid);
        if listing.text().is_empty() {
            lo = mid + 1;
        } else {
            hi = mid;
            best = listing;
        }
    }
    best
}

/// The listing at the smallest budget that still lists every server: each as small as it goes,
/// a one-line summary. Found by bisection over budgets (each render is microseconds).
fn smallest_complete(prepared: &PreparedListing) -> Listing {
    let complete = |l: &Listing| l.servers().iter().all(|s| s.form() != Form::Omitted);
    let (mut lo, mut hi) = (0usize, prepared.full_tokens());
    let mut best = prepared.render(hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let listing = prepared.render(mid);
        if complete(&listing) {
            hi = mid;
            best = listing;
        } else {
            lo = mid + 1;
        }
    }
    best
}

/// `listing: 1998 of 2000 tokens (estimated); full: a, b; names: c; summary: d`, for stderr.
fn forms_line(
    mode: FormArg,
    tokenizer: TokenizerArg,
    budget: Option<usize>,
    listing: &Listing,
) -> String {
    let how = match tokenizer {
        TokenizerArg::Estimate => "estimated",
        exact => tokenizer_word(exact),
    };
    let mut line = match budget {
        Some(b) => format!("listing: {} of {b} tokens ({how})", listing.tokens()),
        None => format!("listing: {} tokens ({how})", listing.tokens()),
    };
    for form in [Form::Full, Form::NamesOnly, Form::Summary, Form::Omitted] {
        let names: Vec<String> = listing
            .servers()
            .iter()
            .filter(|s| s.form() == form)
            .map(|s| term::clean(s.name(), false))
            .collect();
        if !names.is_empty() {
            line.push_str(&format!("; {}: {}", form_name(mode, form), names.join(", ")));
        }
    }
    line
}

/// The word for the form a server got. A names-only lister lists every tool without a
/// description, which the listing counts as its full form: that is reported as `names`.
fn form_name(mode: FormArg, form: Form) -> &'static str {
    if mode == FormArg::Names && form == Form::Full { "names" } else { form.as_str() }
}

fn form_word(form: FormArg) -> &'static str {
    match form {
        FormArg::Auto => "auto",
        FormArg::Full => "full",
        FormArg::Names => "names",
        FormArg::Groups => "groups",
    }
}

fn tokenizer_word(tokenizer: TokenizerArg) -> &'static str {
    match tokenizer {
        TokenizerArg::Estimate => "estimate",
        TokenizerArg::Cl100k => "cl100k",
        TokenizerArg::O200k => "o200k",
    }
}

fn json_document(
    form: FormArg,
    tokenizer: TokenizerArg,
    budget: Option<usize>,
    prepared: &PreparedListing,
    listing: &Listing,
) -> Value {
    let servers: Vec<Value> = listing
        .servers()
        .iter()
        .map(|s| {
            json!({"name": s.name(), "tools": s.tools(), "form": form_name(form, s.form()),
                   "tokens": s.tokens()})
        })
        .collect();
    json!({
        "form": form_word(form),
        "tokenizer": tokenizer_word(tokenizer),
        "budget": budget,
        "tokens": listing.tokens(),
        "full_tokens": prepared.full_tokens(),
        "complete": listing.is_complete(),
        "servers": servers,
        "text": listing.text(),
    })
}
