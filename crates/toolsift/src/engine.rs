//! [`SearchEngine`]: the boundary a host codes against, so it can swap engines.

use toolsift_catalog::ToolId;

use crate::results::{Hit, SearchResults};

/// Anything that answers an agent's tool query with ranked tools.
///
/// [`ToolSearch`](crate::ToolSearch) is the engine this crate provides; a host can put another
/// one (an embedding model, a remote service) behind the same calls. Only
/// [`search`](SearchEngine::search) is required; the other methods have defaults.
///
/// # Example
///
/// ```
/// use toolsift::{Hit, SearchEngine, SearchResults, ToolId};
///
/// /// An engine that always proposes the same tool.
/// struct Always(ToolId);
///
/// impl SearchEngine for Always {
///     fn search(&self, _query: &str, limit: usize) -> SearchResults {
///         let hit = Hit::new(self.0.clone(), "mcp__time__now", 1.0, Vec::new());
///         SearchResults::new(vec![hit].into_iter().take(limit).collect())
///     }
/// }
///
/// let engine = Always(ToolId::new("time", "now"));
/// assert_eq!(engine.best("what time is it").map(|h| h.name().to_owned()), Some("mcp__time__now".into()));
/// assert_eq!(engine.engine_name(), "custom");
/// ```
pub trait SearchEngine {
    /// The best `limit` tools for `query`, best first; an empty result says why if it can.
    fn search(&self, query: &str, limit: usize) -> SearchResults;

    /// The single best tool for `query`, if any.
    fn best(&self, query: &str) -> Option<Hit> {
        self.search(query, 1).into_hits().into_iter().next()
    }

    /// A human-readable account of how `tool` scored for `query`; `None` if the engine cannot
    /// explain itself or does not know the tool.
    fn explain_text(&self, query: &str, tool: &ToolId) -> Option<String> {
        let _ = (query, tool);
        None
    }

    /// A short name for reports (`toolsift` for [`ToolSearch`](crate::ToolSearch)).
    fn engine_name(&self) -> &str {
        "custom"
    }
}
