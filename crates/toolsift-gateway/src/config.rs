//! The upstream servers: the `mcpServers` JSON that Claude Desktop, Claude Code and Cursor
//! read, or VS Code's `servers`, with environment variables expanded.
//!
//! ```json
//! {"mcpServers": {
//!   "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
//!              "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}},
//!   "linear": {"type": "http", "url": "https://mcp.linear.app/mcp",
//!              "headers": {"Authorization": "Bearer ${LINEAR_TOKEN}"}}
//! }}
//! ```
//!
//! A server with `command` is a stdio server (the gateway starts it as a child process); one
//! with `url` is a streamable-HTTP server. `type` may say so (`stdio`, `http`,
//! `streamable-http`); `sse` is refused, since the old SSE transport is not supported.
//! `"disabled": true` leaves a server out. Other fields that clients write (`alwaysAllow`,
//! `autoApprove`, …) are ignored.
//!
//! `${VAR}` and `${env:VAR}` (VS Code's spelling) are replaced by the variable's value in
//! `command`, `args`, `env`, `cwd`, `url` and `headers`; `${VAR:-default}` gives a default
//! for an unset or empty variable, as Claude Code does. An unset variable without a default is
//! an error naming the server and the field, as are a wrong type and an unknown `type`.

use std::fmt;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::{Map, Value};

/// Every upstream server the gateway connects to, in the order the file lists them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    /// Servers by name, in file order. Disabled servers are not here.
    pub servers: IndexMap<String, ServerConfig>,
}

/// How to reach one upstream server.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum ServerConfig {
    /// A child process speaking MCP on its stdin and stdout.
    Stdio {
        /// The program, found on `PATH` like a shell would.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to the gateway's own environment for this process.
        env: IndexMap<String, String>,
        /// The working directory; the gateway's own when `None`.
        cwd: Option<PathBuf>,
    },
    /// A streamable-HTTP endpoint.
    Http {
        /// The endpoint (`http://` or `https://`).
        url: String,
        /// Headers sent with every request (`Authorization`, API keys).
        headers: IndexMap<String, String>,
    },
}

/// A configuration the gateway cannot use: the file, the server and the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, when the configuration came from one.
    pub path: Option<PathBuf>,
    /// The server whose entry is wrong, if the problem is in one.
    pub server: Option<String>,
    /// The field, as a path inside the server's entry (`args[2]`, `env.TOKEN`).
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}: ", path.display())?;
        }
        if let Some(server) = &self.server {
            write!(f, "server \"{server}\": ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "field \"{field}\": ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Reads the configuration file at `path`, expanding variables from the process
    /// environment.
    ///
    /// # Errors
    ///
    /// An unreadable file, invalid JSON, or an entry the gateway cannot use (see
    /// [`Config::parse_with`]); the error names the file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: Some(path.to_owned()),
            server: None,
            field: None,
            message: format!("cannot read the file: {e}"),
        })?;
        Config::parse_with(&text, &|name| std::env::var(name).ok())
            .map_err(|e| ConfigError { path: Some(path.to_owned()), ..e })
    }

    /// Parses a configuration, expanding variables from the process environment.
    ///
    /// ```
    /// let config = toolsift_gateway::Config::parse(r#"{"mcpServers": {
    ///     "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
    /// }}"#)?;
    /// assert_eq!(config.servers.len(), 1);
    /// # Ok::<(), toolsift_gateway::ConfigError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// See [`Config::parse_with`].
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse_with(text, &|name| std::env::var(name).ok())
    }

    /// Parses a configuration, expanding `${VAR}` with `env`.
    ///
    /// ```
    /// let env = |name: &str| (name == "TOKEN").then(|| "s3cret".to_owned());
    /// let config = toolsift_gateway::Config::parse_with(r#"{"servers": {
    ///     "api": {"type": "http", "url": "https://${HOST:-example.com}/mcp",
    ///             "headers": {"Authorization": "Bearer ${env:TOKEN}"}}
    /// }}"#, &env)?;
    /// let toolsift_gateway::ServerConfig::Http { url, headers } = &config.servers["api"] else {
    ///     panic!("not an HTTP server");
    /// };
    /// assert_eq!(url, "https://example.com/mcp");
    /// assert_eq!(headers["Authorization"], "Bearer s3cret");
    /// # Ok::<(), toolsift_gateway::ConfigError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Invalid JSON; no `mcpServers` or `servers` object; a server entry that is not an object,
    /// has neither `command` nor `url`, has a field of the wrong type, an unknown or
    /// unsupported `type`, or names an unset variable without a default; a server name given
    /// under both keys.
    pub fn parse_with(
        text: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let doc: Value = serde_json::from_str(text).map_err(|e| ConfigError {
            path: None,
            server: None,
            field: None,
            message: format!("not valid JSON: {e}"),
        })?;
        let Value::Object(doc) = doc else {
            return Err(top_error("the configuration must be a JSON object"));
        };
        let mut config = Config::default();
        let mut found = false;
        for key in ["mcpServers", "servers"] {
            let Some(servers) = doc.get(key) else { continue };
            found = true;
            let Value::Object(servers) = servers else {
                return Err(ConfigError {
                    field: Some(key.to_owned()),
                    ..top_error("expected an object of servers by name")
                });
            };
            for (name, entry) in servers {
                let parsed = parse_server(entry, env).map_err(|(field, message)| ConfigError {
                    path: None,
                    server: Some(name.clone()),
                    field,
                    message,
                })?;
                let Some(parsed) = parsed else { continue };
                if config.servers.insert(name.clone(), parsed).is_some() {
                    return Err(ConfigError {
                        path: None,
                        server: Some(name.clone()),
                        field: None,
                        message: "listed under both \"mcpServers\" and \"servers\"".to_owned(),
                    });
                }
            }
        }
        if !found {
            return Err(top_error(
                "no \"mcpServers\" (Claude Desktop, Claude Code, Cursor) or \"servers\" (VS Code) \
                 object",
            ));
        }
        Ok(config)
    }
}

fn top_error(message: &str) -> ConfigError {
    ConfigError { path: None, server: None, field: None, message: message.to_owned() }
}

/// A problem inside one server's entry: the field, if any, and the message.
type EntryError = (Option<String>, String);

fn field_error(field: &str, message: impl Into<String>) -> EntryError {
    (Some(field.to_owned()), message.into())
}

/// One server's entry; `None` when it is disabled.
fn parse_server(
    entry: &Value,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<ServerConfig>, EntryError> {
    let Value::Object(entry) = entry else {
        return Err((None, "expected an object".to_owned()));
    };
    match entry.get("disabled") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => return Ok(None),
        Some(_) => return Err(field_error("disabled", "expected true or false")),
    }
    let kind = match entry.get("type") {
        None => None,
        Some(Value::String(kind)) => Some(kind.as_str()),
        Some(_) => return Err(field_error("type", "expected a string")),
    };
    let has_command = entry.contains_key("command");
    let has_url = entry.contains_key("url");
    let stdio = match kind {
        Some("stdio") => true,
        Some("http" | "streamable-http" | "streamableHttp") => false,
        Some("sse") => {
            return Err(field_error(
                "type",
                "the SSE transport is not supported; use the server's streamable-HTTP endpoint \
                 (\"type\": \"http\")",
            ));
        }
        Some(other) => {
            return Err(field_error(
                "type",
                format!("unknown transport \"{other}\" (expected \"stdio\" or \"http\")"),
            ));
        }
        None if has_command => true,
        None if has_url => false,
        None => {
            return Err((
                None,
                "needs \"command\" (a stdio server) or \"url\" (an HTTP server)".to_owned(),
            ));
        }
    };
    if stdio {
        let command = expand(
            &string(entry, "command")?.ok_or_else(|| field_error("command", "missing"))?,
            env,
        )
        .map_err(|m| field_error("command", m))?;
        if command.trim().is_empty() {
            return Err(field_error("command", "empty"));
        }
        let args = match entry.get("args") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let field = format!("args[{i}]");
                    match item {
                        Value::String(s) => expand(s, env).map_err(|m| field_error(&field, m)),
                        _ => Err(field_error(&field, "expected a string")),
                    }
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(field_error("args", "expected an array of strings")),
        };
        let env_vars = string_map(entry, "env", env)?;
        let cwd = string(entry, "cwd")?
            .map(|cwd| expand(&cwd, env).map_err(|m| field_error("cwd", m)))
            .transpose()?
            .map(PathBuf::from);
        Ok(Some(ServerConfig::Stdio { command, args, env: env_vars, cwd }))
    } else {
        let url = expand(&string(entry, "url")?.ok_or_else(|| field_error("url", "missing"))?, env)
            .map_err(|m| field_error("url", m))?;
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(field_error("url", format!("\"{url}\" is not an http:// or https:// URL")));
        }
        let headers = string_map(entry, "headers", env)?;
        for name in headers.keys() {
            if http::HeaderName::from_bytes(name.as_bytes()).is_err() {
                return Err(field_error(&format!("headers.{name}"), "not a valid header name"));
            }
        }
        for (name, value) in &headers {
            if http::HeaderValue::from_str(value).is_err() {
                return Err(field_error(
                    &format!("headers.{name}"),
                    "not a valid header value (control characters or non-ASCII)",
                ));
            }
        }
        Ok(Some(ServerConfig::Http { url, headers }))
    }
}

fn string(entry: &Map<String, Value>, field: &str) -> Result<Option<String>, EntryError> {
    match entry.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(field_error(field, "expected a string")),
    }
}

fn string_map(
    entry: &Map<String, Value>,
    field: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<IndexMap<String, String>, EntryError> {
    match entry.get(field) {
        None | Some(Value::Null) => Ok(IndexMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(key, value)| {
                let path = format!("{field}.{key}");
                match value {
                    Value::String(s) => {
                        Ok((key.clone(), expand(s, env).map_err(|m| field_error(&path, m))?))
                    }
                    _ => Err(field_error(&path, "expected a string")),
                }
            })
            .collect(),
        Some(_) => Err(field_error(field, "expected an object of strings")),
    }
}

/// Replaces `${VAR}`, `${env:VAR}` and `${VAR:-default}` in `text`. A `$` not followed by
/// `{` stays as it is.
///
/// # Errors
///
/// An unset variable without a default, an unclosed `${`, an empty or invalid name, or
/// VS Code's `${input:…}`, which needs a prompt the gateway cannot show.
pub(crate) fn expand(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!("unclosed \"${{\" in \"{text}\""));
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        if name.starts_with("input:") {
            return Err(format!(
                "\"${{{inner}}}\" asks for an input prompt, which the gateway cannot show; use an \
                 environment variable (\"${{NAME}}\")"
            ));
        }
        let name = name.strip_prefix("env:").unwrap_or(name);
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!(
                "\"${{{inner}}}\" is not a variable reference (expected ${{NAME}})"
            ));
        }
        match (env(name).filter(|v| !v.is_empty() || default.is_none()), default) {
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return Err(format!("environment variable {name} is not set"));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests;
