//! Conversion from the official Rust MCP SDK's tool type (`rmcp::model::Tool`), behind the
//! `rmcp` feature.
//!
//! A host that talks MCP through `rmcp` already holds the `tools/list` result as typed values.
//! Each tool is serialized to JSON exactly as it travels on the wire and read by the same MCP
//! adapter as a captured `tools/list` file, so the two paths give the same [`Tool`]s and the
//! same diagnostics.
//!
//! [`Tool`]: crate::Tool

use serde_json::Value;

use crate::common::Loaded;
use crate::error::Error;
use crate::load::Loader;
use crate::mcp;

impl Loader {
    /// Reads tools as the official Rust MCP SDK returns them from `tools/list`, as the tools of
    /// `server`.
    ///
    /// # Errors
    ///
    /// Only when the limits refuse the input as a whole; problems with single tools are
    /// diagnostics in the [`Loaded`] value, as for [`Loader::load`].
    pub fn load_rmcp<'a>(
        &self,
        tools: impl IntoIterator<Item = &'a rmcp::model::Tool>,
        server: &str,
    ) -> Result<Loaded, Error> {
        // A tool that cannot be serialized (it cannot happen with rmcp's own types) becomes
        // `null`, which the adapter reports as a `not-an-object` diagnostic at its index.
        let tools: Vec<Value> =
            tools.into_iter().map(|t| serde_json::to_value(t).unwrap_or(Value::Null)).collect();
        let mut doc = serde_json::Map::new();
        doc.insert("tools".to_owned(), Value::Array(tools));
        mcp::load(Value::Object(doc), crate::parse::Notes::default(), server, self.limits())
    }
}

/// Reads tools as the official Rust MCP SDK returns them from `tools/list`, with the default
/// [`Limits`](crate::Limits).
///
/// ```
/// use std::sync::Arc;
///
/// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}});
/// let serde_json::Value::Object(schema) = schema else { unreachable!() };
/// let tool = rmcp::model::Tool::new("get_weather", "Current weather for a city", Arc::new(schema));
/// let loaded = toolsift_catalog::load_rmcp([&tool], "weather")?;
/// assert_eq!(loaded.tools()[0].id.name, "get_weather");
/// assert!(loaded.diagnostics.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// See [`Loader::load_rmcp`].
pub fn load_rmcp<'a>(
    tools: impl IntoIterator<Item = &'a rmcp::model::Tool>,
    server: &str,
) -> Result<Loaded, Error> {
    Loader::default().load_rmcp(tools, server)
}
