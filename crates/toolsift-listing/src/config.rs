//! [`ListingBuilder`] and the frozen [`Lister`] it builds.

use std::fmt;
use std::sync::Arc;

use toolsift_catalog::Catalog;

use crate::bridge::{BridgeTools, Placement};
use crate::empty::NoMatch;
use crate::estimate::{CharsPerToken, PieceEstimate, TokenEstimator};
use crate::listing::{Listing, PreparedListing};
use crate::results::{Hit, Rendered, ResultForm};

/// The order of servers and of the tools inside each server.
///
/// Both orders are deterministic: the same catalog always renders the same bytes.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Servers by name, tools by model-facing name (byte order of the names as shown; ties,
    /// which only sanitized names can produce, by catalog position). The listing does not
    /// depend on the order in which servers connected or tools were listed. The default.
    #[default]
    Name,
    /// Servers in catalog insertion order, tools in the order their source listed them. A host
    /// that only ever appends servers keeps the listing's prefix stable for prompt caches.
    Catalog,
}

/// The frozen configuration behind a [`Lister`].
pub(crate) struct Config {
    pub(crate) description_chars: usize,
    pub(crate) result_description_chars: usize,
    pub(crate) order: Order,
    pub(crate) show_scores: bool,
    pub(crate) estimator: Arc<dyn TokenEstimator + Send + Sync>,
    /// `Some` when the estimator is one of this crate's, whose costs add up over lines and can
    /// be bounded without rendering descriptions (see `PreparedListing::listing`).
    pub(crate) lines: Option<LineCost>,
    pub(crate) search_name: String,
    pub(crate) describe_name: String,
    pub(crate) call_name: String,
    pub(crate) default_limit: u32,
    pub(crate) max_limit: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            description_chars: 80,
            result_description_chars: 200,
            order: Order::Name,
            show_scores: false,
            estimator: Arc::new(PieceEstimate::default()),
            lines: Some(LineCost::Pieces(PieceEstimate::default())),
            search_name: "tool_search".to_owned(),
            describe_name: "tool_describe".to_owned(),
            call_name: "tool_call".to_owned(),
            default_limit: 5,
            max_limit: 20,
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("description_chars", &self.description_chars)
            .field("result_description_chars", &self.result_description_chars)
            .field("order", &self.order)
            .field("show_scores", &self.show_scores)
            .field("bridge_names", &[&self.search_name, &self.describe_name, &self.call_name])
            .field("limit", &(self.default_limit, self.max_limit))
            .finish_non_exhaustive()
    }
}

impl Config {
    pub(crate) fn estimate(&self, text: &str) -> usize {
        self.estimator.estimate(text)
    }

    /// The estimate of `text` and, with an estimate that adds up over lines, its units before
    /// rounding (zero otherwise).
    pub(crate) fn cost(&self, text: &str) -> (usize, u64) {
        match self.lines {
            Some(lines) => {
                let units = lines.units(text);
                (lines.tokens(units), units)
            }
            None => (self.estimate(text), 0),
        }
    }
}

/// The configured estimator, when it is one of this crate's: its cost of a text is a sum over
/// the text's lines (in units, rounded up to tokens once), and a lower bound of a line's units
/// is cheap.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LineCost {
    /// [`CharsPerToken`]: one unit per character, `n` units per token.
    Chars(usize),
    /// [`PieceEstimate`]: thousandths of a token.
    Pieces(PieceEstimate),
}

impl LineCost {
    /// The units of `text`.
    pub(crate) fn units(&self, text: &str) -> u64 {
        match self {
            LineCost::Chars(_) => text.chars().count() as u64,
            LineCost::Pieces(p) => p.units(text),
        }
    }

    /// A lower bound of the units of `text` (exact for characters).
    pub(crate) fn lower(&self, text: &str) -> u64 {
        match self {
            LineCost::Chars(_) => text.chars().count() as u64,
            LineCost::Pieces(p) => p.units_lower(text),
        }
    }

    /// Lower bounds of the units of a tool's names-only line `- {shown}\n` and of the start of
    /// its full line, `- {shown}:`.
    pub(crate) fn name_lines_lower(&self, shown: &str) -> (u64, u64) {
        match self {
            LineCost::Chars(_) => {
                let chars = shown.chars().count() as u64 + 3;
                (chars, chars)
            }
            LineCost::Pieces(p) => p.name_lines_lower(shown),
        }
    }

    /// A lower bound of the units of any tool line with a name (`- {name}\n`, or
    /// `- {name}: …\n`).
    pub(crate) fn min_tool_line(&self) -> u64 {
        match self {
            // `- `, one character, `\n`.
            LineCost::Chars(_) => 4,
            LineCost::Pieces(p) => p.min_tool_line(),
        }
    }

    /// `units` in whole tokens, rounded up.
    pub(crate) fn tokens(&self, units: u64) -> usize {
        let per = match self {
            LineCost::Chars(n) => (*n).max(1) as u64,
            LineCost::Pieces(_) => 1000,
        };
        usize::try_from(units.div_ceil(per)).unwrap_or(usize::MAX)
    }
}

/// Configures a [`Lister`]. Every setting has a default; [`ListingBuilder::build`] freezes them.
///
/// ```
/// use toolsift_listing::{CharsPerToken, ListingBuilder, Order};
///
/// let lister = ListingBuilder::new()
///     .description_chars(60)
///     .order(Order::Catalog)
///     .estimator(CharsPerToken::new(3))
///     .build();
/// assert_eq!(lister.estimate("123456"), 2);
/// ```
#[derive(Debug, Default)]
pub struct ListingBuilder {
    config: Config,
}

impl ListingBuilder {
    /// A builder with the defaults: 80-character listing descriptions, 200-character result
    /// descriptions, [`Order::Name`], [`PieceEstimate`], no scores, bridge tools named
    /// `tool_search`, `tool_describe` and `tool_call`, search limit 5 by default and 20 at most.
    pub fn new() -> Self {
        ListingBuilder::default()
    }

    /// The most characters of a tool's short description in the listing, ellipsis included.
    /// `0` lists names only (every server then costs the same in its full and names-only form,
    /// and the header still says which form it got).
    pub fn description_chars(mut self, chars: usize) -> Self {
        self.config.description_chars = chars;
        self
    }

    /// The most characters of a tool's short description in compact search results.
    pub fn result_description_chars(mut self, chars: usize) -> Self {
        self.config.result_description_chars = chars;
        self
    }

    /// The order of servers and tools.
    pub fn order(mut self, order: Order) -> Self {
        self.config.order = order;
        self
    }

    /// The token estimator budgets are measured with.
    pub fn estimator(mut self, estimator: impl TokenEstimator + Send + Sync + 'static) -> Self {
        let any: &dyn std::any::Any = &estimator;
        self.config.lines = match (any.downcast_ref::<CharsPerToken>(), any.downcast_ref()) {
            (Some(chars), _) => Some(LineCost::Chars(chars.chars())),
            (None, Some(&pieces)) => Some(LineCost::Pieces(pieces)),
            (None, None) => None,
        };
        self.config.estimator = Arc::new(estimator);
        self
    }

    /// Whether rendered search results show each hit's score (compact text appends
    /// `(score 12.34)`, JSON adds a `score` key). Provider shapes never carry scores. Off by
    /// default: the model does not need them, a command-line user might.
    pub fn show_scores(mut self, show: bool) -> Self {
        self.config.show_scores = show;
        self
    }

    /// The names of the three bridge tools (they must match the names the catalog reserves).
    /// Each name is sanitized like a tool name.
    pub fn bridge_names(
        mut self,
        search: impl Into<String>,
        describe: impl Into<String>,
        call: impl Into<String>,
    ) -> Self {
        self.config.search_name = crate::sanitize::name(&search.into()).into_owned();
        self.config.describe_name = crate::sanitize::name(&describe.into()).into_owned();
        self.config.call_name = crate::sanitize::name(&call.into()).into_owned();
        self
    }

    /// The `limit` of the `tool_search` bridge tool: its default and its maximum (both at
    /// least 1; the default is capped by the maximum).
    pub fn search_limit(mut self, default: u32, max: u32) -> Self {
        let max = max.max(1);
        self.config.max_limit = max;
        self.config.default_limit = default.clamp(1, max);
        self
    }

    /// Freezes the configuration.
    pub fn build(self) -> Lister {
        Lister { config: Arc::new(self.config) }
    }
}

/// Renders listings, search results and bridge tool definitions with a frozen configuration.
///
/// Built by [`ListingBuilder`]; cheap to clone (the configuration is shared), `Send` and
/// `Sync`. See the [crate documentation](crate) for the listing format.
#[derive(Debug, Clone)]
pub struct Lister {
    pub(crate) config: Arc<Config>,
}

impl Default for Lister {
    fn default() -> Self {
        ListingBuilder::new().build()
    }
}

impl Lister {
    /// The listing of `catalog` within `budget` tokens: the same text as [`Lister::prepare`]
    /// then [`PreparedListing::render`], but only the parts the budget can need are rendered.
    /// With this crate's estimators ([`PieceEstimate`], the default, and [`CharsPerToken`]) the
    /// short descriptions of servers that are certain to be summarized are never computed, so a
    /// tight budget over a large catalog costs a fraction of a full preparation. A host that renders several budgets of the same
    /// catalog keeps a [`PreparedListing`] instead (its [`epoch`](PreparedListing::epoch)
    /// tells when the catalog changed).
    pub fn listing(&self, catalog: &Catalog, budget: usize) -> Listing {
        PreparedListing::listing(Arc::clone(&self.config), catalog, budget)
    }

    /// Renders every server block of `catalog` in every form once, so that rendering a budget
    /// afterwards only chooses forms and joins strings.
    pub fn prepare(&self, catalog: &Catalog) -> PreparedListing {
        PreparedListing::new(Arc::clone(&self.config), catalog)
    }

    /// Renders search hits (in the order given) in `form`. An empty slice renders a short
    /// "no matching tools" text; a host that knows why nothing matched renders
    /// [`Lister::render_empty`] instead.
    pub fn render_hits(&self, hits: &[Hit<'_>], form: ResultForm) -> Rendered {
        crate::results::render(&self.config, hits, form)
    }

    /// The text for an empty result: one or two lines that say which words nothing in the
    /// catalog carries, which matched too weakly, which servers are connected, and that
    /// rephrasing will not help.
    pub fn render_empty(&self, why: &NoMatch) -> String {
        crate::empty::render(why)
    }

    /// The line that goes with hits for a request naming `services` no connected server
    /// provides (the facade's `SearchResults::missing_services`): the model learns the
    /// service is not connected, and that a hit may still do the job (taking the service as
    /// a value) or, if none does, that it should tell the user. Empty when `services` is.
    ///
    /// ```
    /// use toolsift_listing::Lister;
    /// let note = Lister::default().render_missing(&["mysql".to_owned()]);
    /// assert_eq!(
    ///     note,
    ///     "No connected server provides \"mysql\": the tools above may still do it (taking it \
    ///      as a value); if none does, tell the user \"mysql\" is not connected.\n"
    /// );
    /// ```
    pub fn render_missing(&self, services: &[String]) -> String {
        crate::empty::render_missing(services)
    }

    /// The three bridge tool definitions (`tool_search`, `tool_describe`, `tool_call`) for the
    /// servers of `listing`, with the listing embedded where `placement` says.
    pub fn bridge_tools(&self, listing: &Listing, placement: Placement) -> BridgeTools {
        crate::bridge::build(&self.config, listing, placement)
    }

    /// The configured estimate of `text`, in tokens.
    pub fn estimate(&self, text: &str) -> usize {
        self.config.estimate(text)
    }
}
