//! The catalog listing: server blocks in three forms, and the budget that chooses between them.

use std::fmt;
use std::sync::Arc;

use toolsift_catalog::{Catalog, Tool};

use crate::config::{Config, Order};
use crate::sanitize;
use crate::sentence::push_short_description;

/// The form a server got in a [`Listing`], from most to least detailed.
///
/// The forms are ordered: `Full < NamesOnly < Summary < Omitted`.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// A header and one `- name: short description` line per tool.
    Full,
    /// A header (`…, names only`) and one `- name` line per tool.
    NamesOnly,
    /// One header line: `## linear (198 tools — search to see them)`.
    Summary,
    /// Not listed; counted in the final `## N more servers (…)` line, if that fits.
    Omitted,
}

impl Form {
    /// A lower-case word for the form: `full`, `names`, `summary` or `omitted`.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Full => "full",
            Form::NamesOnly => "names",
            Form::Summary => "summary",
            Form::Omitted => "omitted",
        }
    }

    fn index(self) -> usize {
        match self {
            Form::Full => 0,
            Form::NamesOnly => 1,
            Form::Summary => 2,
            Form::Omitted => 3,
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const FORMS: [Form; 3] = [Form::Full, Form::NamesOnly, Form::Summary];

/// One server's block, rendered in each of the three listed forms.
#[derive(Debug, Clone)]
struct Block {
    server: Arc<str>,
    tools: usize,
    text: [String; 3],
    cost: [usize; 3],
}

impl Block {
    fn cost(&self, form: Form) -> usize {
        self.cost.get(form.index()).copied().unwrap_or(0)
    }

    fn text(&self, form: Form) -> &str {
        self.text.get(form.index()).map_or("", String::as_str)
    }
}

/// Every server block of a catalog rendered once in each form, ready for any budget.
///
/// Made by [`Lister::prepare`](crate::Lister::prepare). Rendering a budget from it only picks a
/// form per server and joins strings, so a host can keep it for as long as the catalog's
/// [`epoch`](toolsift_catalog::Catalog::epoch) stays the same.
#[derive(Debug, Clone)]
pub struct PreparedListing {
    config: Arc<Config>,
    blocks: Vec<Block>,
    epoch: u64,
}

impl PreparedListing {
    pub(crate) fn new(config: Arc<Config>, catalog: &Catalog) -> Self {
        // `Catalog::tools` yields model-facing names with their tools, servers in insertion
        // order and tools in source order, which is `servers()` flattened: walk both and look
        // a name up by id only if they ever disagree.
        let mut named = catalog.tools();
        let mut blocks = Vec::with_capacity(catalog.servers().len());
        let mut entries: Vec<(String, &Tool)> = Vec::new();
        for server in catalog.servers() {
            entries.clear();
            for tool in &server.tools {
                let model_name = match named.next() {
                    Some((name, named_tool)) if std::ptr::eq(named_tool, tool) => name,
                    _ => catalog.model_name(&tool.id).unwrap_or(&tool.id.name),
                };
                entries.push((sanitize::name(model_name).into_owned(), tool));
            }
            if config.order == Order::Name {
                // A stable sort: equal shown names keep their source order.
                entries.sort_by(|a, b| a.0.cmp(&b.0));
            }
            blocks.push(render_block(&config, &server.name, server.tools.len(), &entries));
        }
        if config.order == Order::Name {
            blocks.sort_by(|a, b| shown_name(&a.server).cmp(&shown_name(&b.server)));
        }
        PreparedListing { config, blocks, epoch: catalog.epoch() }
    }

    /// The [`Catalog::epoch`] of the catalog this was prepared from.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The number of servers.
    pub fn server_count(&self) -> usize {
        self.blocks.len()
    }

    /// The estimated tokens of the listing with every server in full.
    pub fn full_tokens(&self) -> usize {
        self.blocks.iter().fold(0usize, |sum, b| sum.saturating_add(b.cost(Form::Full)))
    }

    /// The listing within `budget` tokens (as the configured estimator counts them).
    ///
    /// Servers are degraded one step at a time, the largest rendered server first, until the
    /// listing fits: full lines, then names only, then a one-line summary (a step is skipped
    /// when it would not make the block smaller). If every server is a summary and the listing
    /// still does not fit, servers are left out, again largest first, and one final line counts
    /// them (`## 3 more servers (412 tools — search to see them)`). If not even that line fits,
    /// the text is empty and [`Listing::nothing_fits`] is true. Finally, any server whose better
    /// form now fits again is upgraded, smallest upgrade first. Ties go to the server that comes
    /// first in the listing.
    ///
    /// The result is never over budget and depends only on the catalog, the configuration and
    /// the budget.
    pub fn render(&self, budget: usize) -> Listing {
        let mut inner = budget;
        for _ in 0..8 {
            let forms = choose_forms(&self.config, &self.blocks, inner);
            let listing = self.assemble(&forms, budget);
            if listing.tokens <= budget {
                return listing;
            }
            // The estimator is not additive: shrink the working budget by the excess.
            let excess = listing.tokens - budget;
            inner = inner.saturating_sub(excess.max(1));
        }
        // Still over: list no server (the trailer line alone, if it fits).
        self.assemble(&vec![Form::Omitted; self.blocks.len()], budget)
    }

    fn assemble(&self, forms: &[Form], budget: usize) -> Listing {
        let mut text = String::new();
        let mut servers = Vec::with_capacity(self.blocks.len());
        let (mut omitted, mut omitted_tools) = (0usize, 0usize);
        for (block, &form) in self.blocks.iter().zip(forms) {
            let tokens = if form == Form::Omitted {
                omitted += 1;
                omitted_tools += block.tools;
                0
            } else {
                text.push_str(block.text(form));
                block.cost(form)
            };
            servers.push(ServerListing {
                name: Arc::clone(&block.server),
                tools: block.tools,
                form,
                tokens,
            });
        }
        if omitted > 0 {
            let trailer = trailer(omitted, omitted_tools, omitted == self.blocks.len());
            if text.is_empty() {
                if self.config.estimate(&trailer) <= budget {
                    text = trailer;
                }
            } else {
                text.push_str(&trailer);
            }
        }
        let tokens = if text.is_empty() { 0 } else { self.config.estimate(&text) };
        Listing { text, servers, tokens, budget }
    }
}

/// The name of a server as its header shows it.
fn shown_name(server: &str) -> std::borrow::Cow<'_, str> {
    sanitize::name(server)
}

fn render_block(config: &Config, server: &str, tools: usize, entries: &[(String, &Tool)]) -> Block {
    let name = shown_name(server);
    let noun = if tools == 1 { "tool" } else { "tools" };

    let mut full = format!("## {name} ({tools} {noun})\n");
    for (shown, tool) in entries {
        full.push_str("- ");
        full.push_str(shown);
        let mark = full.len();
        full.push_str(": ");
        let before = full.len();
        push_short_description(&mut full, &tool.description, config.description_chars);
        if full.len() == before
            && let Some(title) = &tool.title
        {
            push_short_description(&mut full, title, config.description_chars);
        }
        if full.len() == before {
            full.truncate(mark);
        }
        full.push('\n');
    }

    let mut names = format!("## {name} ({tools} {noun}, names only)\n");
    for (shown, _) in entries {
        names.push_str("- ");
        names.push_str(shown);
        names.push('\n');
    }

    let them = if tools == 1 { "it" } else { "them" };
    let summary = format!("## {name} ({tools} {noun} — search to see {them})\n");

    let cost = [config.estimate(&full), config.estimate(&names), config.estimate(&summary)];
    Block { server: Arc::from(server), tools, text: [full, names, summary], cost }
}

/// The final line counting the servers left out.
fn trailer(servers: usize, tools: usize, all: bool) -> String {
    let more = if all { "" } else { " more" };
    let s = if servers == 1 { "server" } else { "servers" };
    let noun = if tools == 1 { "tool" } else { "tools" };
    let them = if tools == 1 { "it" } else { "them" };
    format!("## {servers}{more} {s} ({tools} {noun} — search to see {them})\n")
}

/// The degradation algorithm of [`PreparedListing::render`], on costs only.
fn choose_forms(config: &Config, blocks: &[Block], budget: usize) -> Vec<Form> {
    let n = blocks.len();
    let mut forms = vec![Form::Full; n];
    let mut sum = blocks.iter().fold(0usize, |s, b| s.saturating_add(b.cost(Form::Full)));
    if sum <= budget {
        return forms;
    }
    let cost = |i: usize, form: Form| blocks.get(i).map_or(0, |b| b.cost(form));

    // Phase 1: full → names only → summary, the largest rendered server first.
    while sum > budget {
        let mut best: Option<(usize, usize, Form)> = None;
        for (i, &form) in forms.iter().enumerate() {
            let current = cost(i, form);
            let Some(next) = cheaper_form(&blocks[i], form) else { continue };
            if best.is_none_or(|(_, c, _)| current > c) {
                best = Some((i, current, next));
            }
        }
        let Some((i, current, next)) = best else { break };
        sum = sum - current + cost(i, next);
        forms[i] = next;
    }

    // Phase 2: leave servers out, the largest first, while the listing with its trailer line
    // does not fit.
    let mut omitted = Omitted::default();
    while sum.saturating_add(omitted.cost(config, n)) > budget {
        let mut best: Option<(usize, usize)> = None;
        for (i, &form) in forms.iter().enumerate() {
            if form != Form::Omitted && best.is_none_or(|(_, c)| cost(i, form) > c) {
                best = Some((i, cost(i, form)));
            }
        }
        let Some((i, current)) = best else { break };
        sum -= current;
        forms[i] = Form::Omitted;
        omitted.servers += 1;
        omitted.tools += blocks[i].tools;
    }
    // Upgrades: any server whose better form fits again, the smallest increase first.
    loop {
        let trailer = omitted.cost(config, n);
        let total = sum.saturating_add(trailer);
        let mut best: Option<(usize, Form, usize)> = None;
        for (i, &form) in forms.iter().enumerate() {
            if form == Form::Full {
                continue;
            }
            // The listing without this server's current block, and the trailer it would have.
            let (rest, rest_trailer) = if form == Form::Omitted {
                let rest = Omitted {
                    servers: omitted.servers - 1,
                    tools: omitted.tools - blocks[i].tools,
                };
                (sum, rest.cost(config, n))
            } else {
                (sum - cost(i, form), trailer)
            };
            for &better in FORMS.iter().filter(|&&f| f < form) {
                let new_total = rest.saturating_add(cost(i, better)).saturating_add(rest_trailer);
                if new_total > budget {
                    continue;
                }
                let increase = new_total.saturating_sub(total);
                if best.is_none_or(|(_, _, inc)| increase < inc) {
                    best = Some((i, better, increase));
                }
            }
        }
        let Some((i, better, _)) = best else { break };
        if forms[i] == Form::Omitted {
            omitted.servers -= 1;
            omitted.tools -= blocks[i].tools;
            sum = sum.saturating_add(cost(i, better));
        } else {
            sum = (sum - cost(i, forms[i])).saturating_add(cost(i, better));
        }
        forms[i] = better;
    }
    forms
}

/// The next form after `form` that makes the block strictly smaller, up to a summary.
fn cheaper_form(block: &Block, form: Form) -> Option<Form> {
    let current = block.cost(form);
    FORMS.iter().copied().filter(|&f| f > form).find(|&f| block.cost(f) < current)
}

/// The servers left out so far.
#[derive(Debug, Default, Clone, Copy)]
struct Omitted {
    servers: usize,
    tools: usize,
}

impl Omitted {
    fn cost(self, config: &Config, total_servers: usize) -> usize {
        if self.servers == 0 {
            0
        } else {
            config.estimate(&trailer(self.servers, self.tools, self.servers == total_servers))
        }
    }
}

/// A catalog listing that fits a token budget.
///
/// Its [`text`](Listing::text) is made of lines, each ending with `\n`:
///
/// - a server header, `## github (117 tools)` (full form), `## github (117 tools, names only)`
///   or `## linear (198 tools — search to see them)` (summary);
/// - a tool line under a header, `- mcp__github__create_issue: Create a new issue in a GitHub
///   repository` (full form) or `- mcp__github__create_issue` (names only);
/// - at most one final line counting the servers left out, `## 3 more servers (412 tools —
///   search to see them)` (or `## 70 servers (…)` when none is listed).
///
/// `Display` writes the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    text: String,
    servers: Vec<ServerListing>,
    tokens: usize,
    budget: usize,
}

impl Listing {
    /// The listing text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The listing text, owned.
    pub fn into_text(self) -> String {
        self.text
    }

    /// Every server of the catalog, in listing order, with the form it got.
    pub fn servers(&self) -> &[ServerListing] {
        &self.servers
    }

    /// The estimated tokens of the text (never more than [`Listing::budget`]).
    pub fn tokens(&self) -> usize {
        self.tokens
    }

    /// The budget the listing was rendered for.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Whether every server got its full form.
    pub fn is_complete(&self) -> bool {
        self.servers.iter().all(|s| s.form == Form::Full)
    }

    /// Whether no server could be listed at all (the text is then the single line counting
    /// them, or empty when not even that fits the budget). An empty catalog is not in this
    /// state.
    pub fn nothing_fits(&self) -> bool {
        !self.servers.is_empty() && self.servers.iter().all(|s| s.form == Form::Omitted)
    }
}

impl fmt::Display for Listing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// One server's place in a [`Listing`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerListing {
    name: Arc<str>,
    tools: usize,
    form: Form,
    tokens: usize,
}

impl ServerListing {
    /// The server's name in the catalog (the header shows it escaped like a tool name: `%XX`
    /// for whitespace, control and invisible characters and `%`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of tools of the server.
    pub fn tools(&self) -> usize {
        self.tools
    }

    /// The form the server got.
    pub fn form(&self) -> Form {
        self.form
    }

    /// The estimated tokens of the server's block (0 when omitted).
    pub fn tokens(&self) -> usize {
        self.tokens
    }
}
