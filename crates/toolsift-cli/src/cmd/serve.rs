//! `toolsift serve`: the MCP gateway of `toolsift-gateway`, over stdio or streamable HTTP.
//!
//! stdout belongs to the MCP session on stdio, so this command prints nothing there: logs go
//! to stderr through `tracing`, warnings by default and progress with `--verbose`.

use std::time::Duration;

use toolsift_gateway::{Config, Gateway, HttpOptions, Options, ServerStatus, TOKEN_ENV};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use crate::cli::ServeArgs;
use crate::cmd::{Failure, Report};

/// Runs `toolsift serve` until the client disconnects (stdio) or the process is stopped (HTTP).
pub(crate) fn run(args: &ServeArgs) -> Result<Report, Failure> {
    init_logging(args.verbose);
    let config = Config::load(&args.config).map_err(|e| Failure::one(e.to_string()))?;
    let options = Options {
        request_timeout: seconds(args.request_timeout, "--request-timeout")?,
        startup_timeout: seconds(args.startup_timeout, "--startup-timeout")?,
        listing_budget: args.listing_budget,
        ..Options::default()
    };
    let http = match args.http {
        Some(bind) => Some(HttpOptions {
            bind,
            token: token(args)?,
            allowed_origins: args.allow_origin.clone(),
        }),
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::one(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async move {
        let gateway =
            Gateway::start(config, options).await.map_err(|e| Failure::one(e.to_string()))?;
        for (server, status) in gateway.statuses() {
            match status {
                ServerStatus::Up { tools } => tracing::info!(server, tools, "ready"),
                ServerStatus::Down { reason, .. } => {
                    tracing::warn!(server, "not available: {reason}")
                }
                _ => tracing::info!(server, "starting"),
            }
        }
        let result = match http {
            None => gateway.serve_stdio().await.map_err(|e| Failure::one(e.to_string())),
            Some(http) => {
                let server =
                    gateway.serve_http(http).await.map_err(|e| Failure::one(e.to_string()))?;
                tracing::warn!("serving MCP at {}", server.url());
                tokio::select! {
                    () = server.stopped() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
                Ok(())
            }
        };
        gateway.close().await;
        result
    })?;
    Ok(Report { stdout: String::new(), problems: false })
}

fn seconds(value: f64, flag: &str) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| Failure::one(format!("{flag} must be a positive number of seconds")))
}

/// The bearer token: from `--token-file`, else the environment, else none.
fn token(args: &ServeArgs) -> Result<Option<String>, Failure> {
    if let Some(path) = &args.token_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::one(format!("{}: cannot read the token file: {e}", path.display()))
        })?;
        let token = text.trim();
        if token.is_empty() {
            return Err(Failure::one(format!("{}: the token file is empty", path.display())));
        }
        return Ok(Some(token.to_owned()));
    }
    Ok(std::env::var(TOKEN_ENV).ok().map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()))
}

/// Logs to stderr: warnings, or with `verbose` the gateway's progress and the SDK's notes.
fn init_logging(verbose: bool) {
    let (gateway, sdk) = if verbose {
        (LevelFilter::DEBUG, LevelFilter::INFO)
    } else {
        (LevelFilter::WARN, LevelFilter::ERROR)
    };
    let filter = Targets::new()
        .with_target("toolsift_gateway", gateway)
        .with_target("rmcp", sdk)
        .with_default(LevelFilter::WARN);
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false);
    let _ = tracing_subscriber::registry().with(filter).with(layer).try_init();
}
