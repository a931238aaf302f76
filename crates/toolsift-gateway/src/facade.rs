//! Every use of the toolsift facade: indexing an upstream's tools, ranking, describing, the
//! listing and the bridge tools. The rest of the gateway sees only [`ToolIndex`] and plain
//! strings and JSON, so a change of the facade's types touches this file alone.

use serde_json::{Map, Value, json};
use toolsift::listing::{Hit as ListedHit, Lister, Placement, ResultForm};
use toolsift::{Catalog, Server, ToolId, ToolKind, ToolSearch};

/// The answer to a search: tool definitions, or the text that says why nothing fits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    /// A JSON array of `{"name", "description", "input_schema"}`, best first, and the line
    /// on the services the request names that no connected server provides (empty when it
    /// names none).
    Found(Value, String),
    /// Why nothing fits, for the model.
    Refused(String),
}

/// The index over every connected server's tools.
#[derive(Debug)]
pub(crate) struct ToolIndex {
    search: ToolSearch,
    lister: Lister,
}

impl ToolIndex {
    /// An index with every configured server present and empty, in configuration order, so
    /// model-facing names do not depend on which server connected first.
    ///
    /// # Errors
    ///
    /// When the index cannot be built (the facade's error, as text).
    pub(crate) fn new<'a>(servers: impl IntoIterator<Item = &'a str>) -> Result<ToolIndex, String> {
        let mut catalog = Catalog::new();
        for server in servers {
            catalog.add_server(Server::new(server, ToolKind::Mcp, Vec::new()));
        }
        let search = ToolSearch::new(catalog).map_err(|e| e.to_string())?;
        Ok(ToolIndex { search, lister: Lister::default() })
    }

    /// Replaces `server`'s tools with `tools` (a whole `tools/list` answer). Returns the
    /// problems found in single tools, one line each; those tools are left out or renamed.
    pub(crate) fn set_tools(&mut self, server: &str, tools: &[rmcp::model::Tool]) -> Vec<String> {
        let loaded = match toolsift_catalog::load_rmcp(tools, server) {
            Ok(loaded) => loaded,
            Err(e) => return vec![format!("tools/list refused: {e}")],
        };
        let mut problems: Vec<String> =
            loaded.diagnostics.iter().map(ToString::to_string).collect();
        let result = if self.search.catalog().server(server).is_some() {
            self.search.replace_tools(server, loaded.server.tools)
        } else {
            self.search.add_server(loaded.server)
        };
        match result {
            Ok(diagnostics) => problems.extend(diagnostics.iter().map(ToString::to_string)),
            Err(e) => problems.push(format!("indexing failed: {e}")),
        }
        problems
    }

    /// Takes every tool of `server` out of the index (it stays, empty, in its position).
    pub(crate) fn clear(&mut self, server: &str) {
        if self.search.catalog().server(server).is_some_and(|s| !s.tools.is_empty()) {
            // Replacing with nothing cannot fail for a server that is there.
            let _ = self.search.replace_tools(server, Vec::new());
        }
    }

    /// How many tools `server` has in the index.
    pub(crate) fn tool_count(&self, server: &str) -> usize {
        self.search.catalog().server(server).map_or(0, |s| s.tools.len())
    }

    /// The model-facing names of `server`'s tools.
    pub(crate) fn model_names(&self, server: &str) -> Vec<String> {
        let catalog = self.search.catalog();
        catalog.server(server).map_or_else(Vec::new, |s| {
            s.tools.iter().filter_map(|t| catalog.model_name(&t.id).map(str::to_owned)).collect()
        })
    }

    /// The (server, tool) a model-facing name stands for: an exact lookup, never a guess.
    pub(crate) fn resolve(&self, model_name: &str) -> Option<ToolId> {
        self.search.describe(model_name).map(|tool| tool.id.clone())
    }

    /// The full definition of a tool, by model-facing name.
    pub(crate) fn describe(&self, model_name: &str) -> Option<Value> {
        let tool = self.search.describe(model_name)?;
        let mut out = Map::new();
        out.insert("name".into(), json!(model_name));
        out.insert("server".into(), json!(tool.id.server));
        out.insert("tool".into(), json!(tool.id.name));
        if let Some(title) = &tool.title {
            out.insert("title".into(), json!(title));
        }
        out.insert("description".into(), json!(tool.description));
        out.insert("inputSchema".into(), tool.input_schema.clone());
        if let Some(schema) = &tool.output_schema {
            out.insert("outputSchema".into(), schema.clone());
        }
        if let Some(annotations) = &tool.annotations {
            out.insert("annotations".into(), annotations.clone());
        }
        Some(Value::Object(out))
    }

    /// The model-facing names whose tool is named exactly `query`: the model-facing name
    /// itself, or a server's own tool name (every server that has it). Empty when none is.
    pub(crate) fn exact(&self, query: &str) -> Vec<String> {
        let query = query.trim();
        if self.search.describe(query).is_some() {
            return vec![query.to_owned()];
        }
        self.search
            .catalog()
            .tools()
            .filter(|(_, tool)| tool.id.name == query)
            .map(|(name, _)| name.to_owned())
            .collect()
    }

    /// The definitions of the tools with these model-facing names, in the order given, and
    /// the names that match no tool.
    pub(crate) fn select(&self, names: &[&str]) -> (Value, Vec<String>) {
        let mut unknown = Vec::new();
        let mut hits = Vec::new();
        for name in names {
            match self.search.describe(name) {
                Some(tool) => hits.push(ListedHit::new(tool, name)),
                None => unknown.push((*name).to_owned()),
            }
        }
        let rendered = self.lister.render_hits(&hits, ResultForm::Json);
        (rendered.as_json().cloned().unwrap_or_else(|| json!([])), unknown)
    }

    /// Ranks the tools for `query`: at most `limit`, of `server` only when given.
    pub(crate) fn search(&self, query: &str, limit: usize, server: Option<&str>) -> Answer {
        let Some(server) = server else {
            let results = self.search.search(query, limit);
            let missing = self.lister.render_missing(results.missing_services());
            return match self.search.render(query, &results, ResultForm::Json) {
                toolsift::listing::Rendered::Json(value) => Answer::Found(value, missing),
                other => Answer::Refused(other.to_string()),
            };
        };
        // One server: rank all, keep that server's best. Bounded by the catalog's size.
        let results = self.search.search(query, self.search.len().max(1));
        let catalog = self.search.catalog();
        let hits: Vec<ListedHit<'_>> = results
            .hits()
            .iter()
            .filter(|hit| hit.tool().server == server)
            .take(limit)
            .filter_map(|hit| {
                let tool = catalog.tool(hit.tool())?;
                Some(ListedHit::new(tool, hit.name()).with_score(hit.score()))
            })
            .collect();
        if hits.is_empty() {
            let why = self.search.no_match(query, &results).server_filter(server);
            return Answer::Refused(self.lister.render_empty(&why));
        }
        match self.lister.render_hits(&hits, ResultForm::Json) {
            toolsift::listing::Rendered::Json(value) => {
                Answer::Found(value, self.lister.render_missing(results.missing_services()))
            }
            other => Answer::Refused(other.to_string()),
        }
    }

    /// The three bridge tools (search, describe, call) with the listing of what is connected,
    /// at most `budget` tokens, in the search tool's description: `(name, description,
    /// input schema)` each.
    pub(crate) fn bridge_tools(&self, budget: usize) -> Vec<(String, String, Value)> {
        let listing = self.search.listing_with(&self.lister, budget);
        self.lister
            .bridge_tools(&listing, Placement::SearchDescription)
            .iter()
            .map(|tool| {
                (tool.name().to_owned(), tool.description().to_owned(), tool.input_schema().clone())
            })
            .collect()
    }

    /// The most results one search returns, and the default.
    pub(crate) fn limits() -> (usize, usize) {
        (5, 20)
    }
}

#[cfg(test)]
mod tests;
