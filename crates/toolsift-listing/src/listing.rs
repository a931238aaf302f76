//! The catalog listing: server blocks in three forms, and the budget that chooses between them.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use toolsift_catalog::{Catalog, Tool};

use crate::config::{Config, LineCost, Order};
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
    /// With an estimate that adds up over lines, each form's cost before rounding (see
    /// `LineCost`), so that a listing's cost is the sum of its blocks' without estimating the
    /// joined text; zero otherwise, or while the form is not rendered.
    units: [u64; 3],
    /// Whether the full and names-only forms (`text[0..2]`, `cost[0..2]`) are rendered yet;
    /// until then `cost[1]` is a lower bound of the names-only form's cost.
    full_known: bool,
    /// A lower bound of the full form's cost (0 when the estimator gives none).
    full_lo: usize,
    /// Lower bounds of the units of the names-only and full headers.
    headers_lo: (u64, u64),
    /// Whether `cost[1]` and `full_lo` are the bounds from every tool's name
    /// ([`Blocks::refine`]) rather than from the number of tools.
    refined: bool,
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

/// Blocks whose full forms may still be unrendered, and the way to render one.
trait Source {
    fn blocks(&self) -> &[Block];
    /// Renders block `i`'s full form if it is not rendered yet.
    fn resolve(&mut self, i: usize);
}

/// Blocks with every form rendered.
struct Rendered<'b>(&'b [Block]);

impl Source for Rendered<'_> {
    fn blocks(&self) -> &[Block] {
        self.0
    }

    fn resolve(&mut self, _: usize) {}
}

/// A server's tools as its block lists them: shown name and tool, in listing order.
type Entries<'c> = Vec<(Cow<'c, str>, &'c Tool)>;

/// Every server's entries, and its blocks with the names-only and summary forms rendered; the
/// full forms are rendered on demand.
struct Blocks<'c> {
    config: Arc<Config>,
    blocks: Vec<Block>,
    entries: Vec<Entries<'c>>,
}

impl Source for Blocks<'_> {
    fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    fn resolve(&mut self, i: usize) {
        let (Some(block), Some(entries)) = (self.blocks.get_mut(i), self.entries.get_mut(i)) else {
            return;
        };
        if block.full_known {
            return;
        }
        if self.config.order == Order::Name && !entries.is_sorted_by(|a, b| a.0 <= b.0) {
            // A stable sort: equal shown names keep their source order.
            entries.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let names = render_names(&block.server, block.tools, entries);
        let full = render_full(&self.config, &block.server, block.tools, entries);
        (block.cost[0], block.units[0]) = self.config.cost(&full);
        (block.cost[1], block.units[1]) = self.config.cost(&names);
        block.text = [full, names, std::mem::take(&mut block.text[2])];
        block.full_known = true;
    }
}

impl<'c> Blocks<'c> {
    fn new(config: Arc<Config>, catalog: &'c Catalog) -> Blocks<'c> {
        // `Catalog::tools` yields model-facing names with their tools, servers in insertion
        // order and tools in source order, which is `servers()` flattened: walk both and look
        // a name up by id only if they ever disagree.
        let mut named = catalog.tools();
        let mut blocks = Vec::with_capacity(catalog.servers().len());
        let mut all = Vec::with_capacity(catalog.servers().len());
        for server in catalog.servers() {
            let mut entries: Entries<'c> = Vec::with_capacity(server.tools.len());
            for tool in &server.tools {
                let model_name = match named.next() {
                    Some((name, named_tool)) if std::ptr::eq(named_tool, tool) => name,
                    _ => catalog.model_name(&tool.id).unwrap_or(&tool.id.name),
                };
                entries.push((sanitize::name(model_name), tool));
            }
            blocks.push(render_short_forms(&config, &server.name, server.tools.len(), &entries));
            all.push(entries);
        }
        if config.order == Order::Name {
            // Stable, so servers whose names show alike keep their catalog order.
            let mut pairs: Vec<(Block, Entries<'c>)> = blocks.into_iter().zip(all).collect();
            pairs.sort_by(|a, b| shown_name(&a.0.server).cmp(&shown_name(&b.0.server)));
            (blocks, all) = pairs.into_iter().unzip();
        }
        Blocks { config, blocks, entries: all }
    }

    /// Tightens block `i`'s bounds with every tool's name, if they are still the quick ones.
    fn refine(&mut self, i: usize) {
        let (Some(block), Some(entries), Some(lines)) =
            (self.blocks.get_mut(i), self.entries.get(i), self.config.lines)
        else {
            return;
        };
        if block.refined || block.full_known {
            return;
        }
        let (names, full) = name_bounds(&lines, block.headers_lo, entries);
        (block.cost[1], block.full_lo, block.refined) = (names, full, true);
    }

    fn resolve_all(&mut self) {
        for i in 0..self.blocks.len() {
            self.resolve(i);
        }
    }

    /// The forms degrading can start from for `budget` without changing its result: a
    /// summary for the servers of `U` (see [`PreparedListing::listing`]), full for the rest,
    /// whose full forms are rendered.
    fn start_forms(&mut self, budget: usize) -> Vec<Form> {
        let n = self.blocks.len();
        let bound = |b: &Block| b.full_lo.min(b.cost(Form::NamesOnly));
        let in_u = |b: &Block| {
            let summary = b.cost(Form::Summary);
            !b.full_known && summary < b.cost(Form::NamesOnly) && summary < b.full_lo
        };
        for i in 0..n {
            if !in_u(&self.blocks[i]) {
                self.refine(i);
            }
        }
        let mut large: Vec<usize> = (0..n).filter(|&i| in_u(&self.blocks[i])).collect();
        // The smallest bound last (ties: the later server last), to leave `U` first.
        let order = |blocks: &[Block], i: usize| {
            (std::cmp::Reverse(blocks.get(i).map_or(0, bound)), std::cmp::Reverse(i))
        };
        large.sort_by_key(|&i| order(&self.blocks, i));
        let mut in_large = vec![false; n];
        for &i in &large {
            in_large[i] = true;
        }
        let small: Vec<usize> = (0..n).filter(|&i| !in_large[i]).collect();
        for i in small {
            self.resolve(i);
        }
        while let Some(&smallest) = large.last() {
            if !self.blocks[smallest].refined && self.config.lines.is_some() {
                // Bounds from names, for the servers that come up smallest: the quick bound of
                // a large server stays above them.
                self.refine(smallest);
                large.sort_by_key(|&i| order(&self.blocks, i));
                continue;
            }
            // Every step of a server in `U` costs more than `k`.
            let k = bound(&self.blocks[smallest]).saturating_sub(1);
            let total = (0..n).fold(0usize, |sum, i| {
                let b = &self.blocks[i];
                let cost = if in_large[i] { b.cost(Form::Summary) } else { settle(b, k) };
                sum.saturating_add(cost)
            });
            if total > budget {
                break;
            }
            large.pop();
            in_large[smallest] = false;
            self.resolve(smallest);
        }
        in_large.iter().map(|&s| if s { Form::Summary } else { Form::Full }).collect()
    }
}

/// The cost of a (rendered) block after every degrading step that costs more than `k`.
fn settle(block: &Block, k: usize) -> usize {
    let mut form = Form::Full;
    while block.cost(form) > k {
        match cheaper_form(block, form) {
            Some(next) => form = next,
            None => break,
        }
    }
    block.cost(form)
}

impl PreparedListing {
    pub(crate) fn new(config: Arc<Config>, catalog: &Catalog) -> Self {
        let mut blocks = Blocks::new(Arc::clone(&config), catalog);
        blocks.resolve_all();
        PreparedListing { config, blocks: blocks.blocks, epoch: catalog.epoch() }
    }

    /// The listing of `catalog` within `budget`, rendering only the full forms the budget can
    /// need: the same listing as `PreparedListing::new(..).render(budget)`, byte for byte.
    ///
    /// With this crate's estimates, whose costs add up over lines, a block's names-only form
    /// costs at least the sum of lower bounds of its lines, and its full form at least that of
    /// its header and of each tool's name with its `:`, whatever the descriptions say; a block
    /// whose forms are not rendered yet is rendered before an upgrade takes one. Degrading (see [`PreparedListing::render`]) takes the largest current
    /// cost first, so it takes the degrading steps of all servers in descending order of their
    /// cost, and every step lowers the total. Let `K` be one less than the smallest bound
    /// (lower bound of the full form, or names-only cost) over a set `U` of servers whose
    /// summary is cheaper than both. Every step of a server in `U` costs more than `K`. If the
    /// total after all steps that cost more than `K` is still over budget, they are all taken
    /// before degrading can stop, so every server of `U` ends as a summary exactly as if it had
    /// started as one, and its full form matters only to an upgrade, which the lower bound rules
    /// out or rendering it decides. `U` starts as every such server and gives up its smallest
    /// one until the total is over budget (or `U` is empty: every full form is rendered).
    pub(crate) fn listing(config: Arc<Config>, catalog: &Catalog, budget: usize) -> Listing {
        let mut blocks = Blocks::new(Arc::clone(&config), catalog);
        let start = if config.lines.is_some() {
            blocks.start_forms(budget)
        } else {
            blocks.resolve_all();
            vec![Form::Full; blocks.blocks.len()]
        };
        render(&config, &mut blocks, &start, budget)
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
        let start = vec![Form::Full; self.blocks.len()];
        render(&self.config, &mut Rendered(&self.blocks), &start, budget)
    }
}

/// [`PreparedListing::render`] from the forms `start`.
fn render(config: &Config, src: &mut dyn Source, start: &[Form], budget: usize) -> Listing {
    let mut inner = budget;
    for _ in 0..8 {
        let forms = choose_forms(config, src, start, inner);
        for (i, &form) in forms.iter().enumerate() {
            if matches!(form, Form::Full | Form::NamesOnly) {
                src.resolve(i);
            }
        }
        let listing = assemble(config, src.blocks(), &forms, budget);
        if listing.tokens <= budget {
            return listing;
        }
        // The estimator is not additive: shrink the working budget by the excess.
        let excess = listing.tokens - budget;
        inner = inner.saturating_sub(excess.max(1));
    }
    // Still over: list no server (the trailer line alone, if it fits).
    assemble(config, src.blocks(), &vec![Form::Omitted; src.blocks().len()], budget)
}

fn assemble(config: &Config, blocks: &[Block], forms: &[Form], budget: usize) -> Listing {
    let mut text = String::new();
    let mut servers = Vec::with_capacity(blocks.len());
    let (mut omitted, mut omitted_tools) = (0usize, 0usize);
    let mut units = 0u64;
    for (block, &form) in blocks.iter().zip(forms) {
        let tokens = if form == Form::Omitted {
            omitted += 1;
            omitted_tools += block.tools;
            0
        } else {
            text.push_str(block.text(form));
            units = units.saturating_add(block.units.get(form.index()).copied().unwrap_or(0));
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
        let trailer = trailer(omitted, omitted_tools, omitted == blocks.len());
        let (cost, trailer_units) = config.cost(&trailer);
        if !text.is_empty() || cost <= budget {
            text.push_str(&trailer);
            units = units.saturating_add(trailer_units);
        }
    }
    let tokens = match config.lines {
        _ if text.is_empty() => 0,
        // Every block and the trailer end with a line break: the costs add up.
        Some(lines) => lines.tokens(units),
        None => config.estimate(&text),
    };
    Listing { text, servers, tokens, budget }
}

/// The name of a server as its header shows it.
fn shown_name(server: &str) -> Cow<'_, str> {
    sanitize::name(server)
}

/// A block with its summary form; the names-only and full forms are left for
/// [`Source::resolve`]. With an estimate whose costs add up over lines, lower bounds of both
/// forms' costs are known here: from the tools' names ([`name_bounds`]) when characters are
/// counted, otherwise from the number of tools until [`Blocks::refine`] needs better.
fn render_short_forms(config: &Config, server: &str, tools: usize, entries: &Entries<'_>) -> Block {
    let name = shown_name(server);
    let noun = if tools == 1 { "tool" } else { "tools" };
    let them = if tools == 1 { "it" } else { "them" };
    let summary = format!("## {name} ({tools} {noun} — search to see {them})\n");
    let headers_lo = match config.lines {
        Some(lines) => (
            lines.lower(&format!("## {name} ({tools} {noun}, names only)\n")),
            lines.lower(&format!("## {name} ({tools} {noun})\n")),
        ),
        None => (0, 0),
    };
    let (names_lo, full_lo, refined) = match config.lines {
        // Counting characters is quick: bound from the names at once.
        Some(lines @ LineCost::Chars(_)) => {
            let (names, full) = name_bounds(&lines, headers_lo, entries);
            (names, full, true)
        }
        // Otherwise from the number of tools and the start their names share, until
        // `Blocks::refine` needs better.
        Some(lines) => {
            let line = lines.min_tool_line().max(shared_start_lower(&lines, entries));
            let tools_lo = (tools as u64).saturating_mul(line);
            let (names, full) = headers_lo;
            let (names, full) = (names.saturating_add(tools_lo), full.saturating_add(tools_lo));
            (lines.tokens(names), lines.tokens(full), false)
        }
        None => (0, 0, true),
    };
    let (summary_cost, summary_units) = config.cost(&summary);
    Block {
        server: Arc::from(server),
        tools,
        text: [String::new(), String::new(), summary],
        cost: [0, names_lo, summary_cost],
        units: [0, 0, summary_units],
        full_known: false,
        full_lo,
        headers_lo,
        refined,
    }
}

/// A lower bound of the units of every tool line of `entries`, from the start all their names
/// share (`mcp__github__`): `- ` and that start, cut after its last run of two or more
/// punctuation characters (which whatever follows never joins a word, so the rest of a line
/// only adds to the bound).
fn shared_start_lower(lines: &LineCost, entries: &Entries<'_>) -> u64 {
    let Some((first, _)) = entries.first() else { return 0 };
    let first = first.as_bytes();
    let mut shared = first.len();
    for (shown, _) in entries.iter().skip(1) {
        shared =
            first.iter().zip(shown.as_bytes()).take(shared).take_while(|(a, b)| a == b).count();
    }
    let is_punct = |b: &u8| b.is_ascii_punctuation();
    let cut = (2..=shared)
        .rev()
        .find(|&end| first.get(end - 2..end).is_some_and(|pair| pair.iter().all(is_punct)));
    match cut.and_then(|end| std::str::from_utf8(first.get(..end)?).ok()) {
        Some(start) => lines.lower(&format!("- {start}")),
        None => 0,
    }
}

/// Lower bounds of the costs of a block's names-only and full forms from its tools' names:
/// the names-only lines' bounds, and for the full form the bound of each line up to the name
/// (the line either ends there or goes on with `: ` and a description).
fn name_bounds(lines: &LineCost, headers: (u64, u64), entries: &Entries<'_>) -> (usize, usize) {
    let (mut names, mut full) = headers;
    for (shown, _) in entries {
        let (bare, described) = lines.name_lines_lower(shown);
        names = names.saturating_add(bare);
        full = full.saturating_add(bare.min(described));
    }
    (lines.tokens(names), lines.tokens(full))
}

/// The names-only form of a block: a header and a `- name` line per tool.
fn render_names(server: &str, tools: usize, entries: &Entries<'_>) -> String {
    let name = shown_name(server);
    let noun = if tools == 1 { "tool" } else { "tools" };
    let lines: usize = entries.iter().map(|(shown, _)| shown.len() + 3).sum();
    let mut names = String::with_capacity(name.len() + 40 + lines);
    names.push_str("## ");
    names.push_str(&name);
    names.push_str(&format!(" ({tools} {noun}, names only)\n"));
    for (shown, _) in entries {
        names.push_str("- ");
        names.push_str(shown);
        names.push('\n');
    }
    names
}

/// The full form of a block: a header and a `- name: short description` line per tool.
fn render_full(config: &Config, server: &str, tools: usize, entries: &Entries<'_>) -> String {
    let name = shown_name(server);
    let noun = if tools == 1 { "tool" } else { "tools" };
    let lines: usize =
        entries.iter().map(|(shown, _)| shown.len() + 5 + config.description_chars).sum();
    let mut full = String::with_capacity(name.len() + 30 + lines);
    full.push_str("## ");
    full.push_str(&name);
    full.push_str(&format!(" ({tools} {noun})\n"));
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
    full
}

/// The final line counting the servers left out.
fn trailer(servers: usize, tools: usize, all: bool) -> String {
    let more = if all { "" } else { " more" };
    let s = if servers == 1 { "server" } else { "servers" };
    let noun = if tools == 1 { "tool" } else { "tools" };
    let them = if tools == 1 { "it" } else { "them" };
    format!("## {servers}{more} {s} ({tools} {noun} — search to see {them})\n")
}

/// The cost of block `i` in `form`.
fn cost(blocks: &[Block], i: usize, form: Form) -> usize {
    blocks.get(i).map_or(0, |b| b.cost(form))
}

/// The degradation algorithm of [`PreparedListing::render`], on costs only, from the forms
/// `start` (all full, or what [`Blocks::start_forms`] chose). Full forms not rendered yet are
/// rendered when an upgrade could fit them.
fn choose_forms(config: &Config, src: &mut dyn Source, start: &[Form], budget: usize) -> Vec<Form> {
    let n = src.blocks().len();
    let mut forms = start.to_vec();
    let mut sum = (0..n).fold(0usize, |s, i| s.saturating_add(cost(src.blocks(), i, forms[i])));
    if sum <= budget {
        return forms;
    }

    // Phase 1: full → names only → summary, the largest rendered server first.
    while sum > budget {
        let blocks = src.blocks();
        let mut best: Option<(usize, usize, Form)> = None;
        for (i, &form) in forms.iter().enumerate() {
            let current = cost(blocks, i, form);
            let Some(next) = cheaper_form(&blocks[i], form) else { continue };
            if best.is_none_or(|(_, c, _)| current > c) {
                best = Some((i, current, next));
            }
        }
        let Some((i, current, next)) = best else { break };
        sum = sum - current + cost(blocks, i, next);
        forms[i] = next;
    }

    // Phase 2: leave servers out, the largest first, while the listing with its trailer line
    // does not fit.
    let mut omitted = Omitted::default();
    while sum.saturating_add(omitted.cost(config, n)) > budget {
        let blocks = src.blocks();
        let mut best: Option<(usize, usize)> = None;
        for (i, &form) in forms.iter().enumerate() {
            if form != Form::Omitted && best.is_none_or(|(_, c)| cost(blocks, i, form) > c) {
                best = Some((i, cost(blocks, i, form)));
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
        for (i, form) in forms.clone().into_iter().enumerate() {
            if form == Form::Full {
                continue;
            }
            // The listing without this server's current block, and the trailer it would have.
            let (rest, rest_trailer) = if form == Form::Omitted {
                let rest = Omitted {
                    servers: omitted.servers - 1,
                    tools: omitted.tools - src.blocks()[i].tools,
                };
                (sum, rest.cost(config, n))
            } else {
                (sum - cost(src.blocks(), i, form), trailer)
            };
            for &better in FORMS.iter().filter(|&&f| f < form) {
                let block = &src.blocks()[i];
                if better != Form::Summary && !block.full_known {
                    // Rendered only if it could fit.
                    let lower = if better == Form::Full { block.full_lo } else { block.cost[1] };
                    let at_least = rest.saturating_add(lower).saturating_add(rest_trailer);
                    if at_least > budget {
                        continue;
                    }
                    src.resolve(i);
                }
                let new_total =
                    rest.saturating_add(cost(src.blocks(), i, better)).saturating_add(rest_trailer);
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
            omitted.tools -= src.blocks()[i].tools;
            sum = sum.saturating_add(cost(src.blocks(), i, better));
        } else {
            sum = (sum - cost(src.blocks(), i, forms[i])).saturating_add(cost(
                src.blocks(),
                i,
                better,
            ));
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
