//! One supervisor task per upstream server: connect, list every tool, index them, follow
//! `notifications/tools/list_changed`, and restart with backoff when the server fails to
//! start, exits or stops answering.

use std::collections::{HashMap, VecDeque};
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::model::{ClientConfig, Implementation};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use crate::config::ServerConfig;
use crate::hub::Hub;

/// How many of a child's last stderr lines a failure report quotes.
const STDERR_LINES: usize = 3;

/// How long a failure report waits for a child's stderr to close before quoting it. A child
/// that prints why it refuses to start and exits closes stdout and stderr together; the
/// connection sees the closed stdout first, and the reader needs a moment to take the last
/// line from stderr.
const STDERR_DRAIN: Duration = Duration::from_millis(500);

/// The last lines a child wrote to stderr, and the task that reads them.
#[derive(Default)]
struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    reader: Option<JoinHandle<()>>,
}

impl StderrTail {
    /// Reads `child_stderr` in the background, keeping the last [`STDERR_LINES`] lines.
    fn follow(&mut self, server: &str, child_stderr: tokio::process::ChildStderr) {
        let lines = Arc::clone(&self.lines);
        let server = server.to_owned();
        self.reader = Some(tokio::spawn(async move {
            let mut reader = BufReader::new(child_stderr).lines();
            while let Ok(Some(line)) = reader.next_line().await {
                tracing::info!(server, "stderr: {line}");
                let mut lines = lines.lock().unwrap_or_else(PoisonError::into_inner);
                if lines.len() == STDERR_LINES {
                    lines.pop_front();
                }
                lines.push_back(line);
            }
        }));
    }

    /// ` (stderr: a | b)` for a failure report, or nothing when the child wrote nothing. Waits
    /// up to [`STDERR_DRAIN`] for stderr to close first, so the lines a child wrote just
    /// before it exited are there.
    async fn quote(&mut self) -> String {
        if let Some(reader) = self.reader.as_mut()
            && tokio::time::timeout(STDERR_DRAIN, &mut *reader).await.is_ok()
        {
            self.reader = None;
        }
        let lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        if lines.is_empty() {
            return String::new();
        }
        let joined: Vec<&str> = lines.iter().map(String::as_str).collect();
        format!(" (stderr: {})", joined.join(" | "))
    }
}

impl Drop for StderrTail {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.take() {
            reader.abort();
        }
    }
}

/// The gateway as a client of one upstream: it only listens for tool list changes.
#[derive(Debug, Clone)]
struct UpstreamClient {
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for UpstreamClient {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }

    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.client_info = Implementation::new("toolsift-gateway", env!("CARGO_PKG_VERSION"));
        config
    }
}

/// Runs `server` until `shutdown` turns true. `ready` fires after the first attempt, whether it
/// connected or failed.
pub(crate) async fn supervise(
    hub: Arc<Hub>,
    server: String,
    config: ServerConfig,
    ready: oneshot::Sender<()>,
    mut shutdown: watch::Receiver<bool>,
) {
    let options = hub.options.clone();
    let mut ready = Some(ready);
    let mut backoff = options.restart_backoff;
    loop {
        hub.set_starting(&server);
        let mut stderr = StderrTail::default();
        let (changed_tx, mut changed) = mpsc::unbounded_channel();
        let client = UpstreamClient { changed: changed_tx };
        let started = tokio::select! {
            started = tokio::time::timeout(
                options.startup_timeout,
                start(&server, &config, client, &mut stderr),
            ) => started,
            _ = shutdown.changed() => return,
        };
        let reason = match started {
            Err(_) => format!(
                "did not start within {}s (startup timeout){}",
                options.startup_timeout.as_secs_f32(),
                stderr.quote().await
            ),
            Ok(Err(e)) => format!("{e}{}", stderr.quote().await),
            Ok(Ok((running, tools))) => {
                let up_since = Instant::now();
                hub.set_up(&server, running.peer().clone(), &tools);
                if let Some(ready) = ready.take() {
                    let _ = ready.send(());
                }
                let peer = running.peer().clone();
                let mut cancel = Some(running.cancellation_token());
                let waiting = running.waiting();
                tokio::pin!(waiting);
                let reason = loop {
                    tokio::select! {
                        quit = &mut waiting => {
                            break match quit {
                                Ok(_) => "the connection closed (the server exited)".to_owned(),
                                Err(e) => format!("the connection failed: {e}"),
                            };
                        }
                        Some(()) = changed.recv() => {
                            while changed.try_recv().is_ok() {}
                            match tokio::time::timeout(options.request_timeout, peer.list_all_tools()).await {
                                Ok(Ok(tools)) => hub.set_up(&server, peer.clone(), &tools),
                                Ok(Err(e)) => tracing::warn!(server, "tools/list after list_changed failed: {e}"),
                                Err(_) => {
                                    if let Some(cancel) = cancel.take() {
                                        cancel.cancel();
                                    }
                                    break format!(
                                        "tools/list did not answer within {}s",
                                        options.request_timeout.as_secs_f32()
                                    );
                                }
                            }
                        }
                        _ = shutdown.changed() => {
                            if let Some(cancel) = cancel.take() {
                                cancel.cancel();
                            }
                            let _ = tokio::time::timeout(Duration::from_secs(2), &mut waiting).await;
                            return;
                        }
                    }
                };
                if up_since.elapsed() >= options.restart_backoff_max {
                    backoff = options.restart_backoff;
                }
                format!("{reason}{}", stderr.quote().await)
            }
        };
        tracing::warn!(server, "down: {reason}; retrying in {:.1}s", backoff.as_secs_f32());
        hub.set_down(&server, reason, backoff);
        if let Some(ready) = ready.take() {
            let _ = ready.send(());
        }
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            _ = shutdown.changed() => return,
        }
        backoff = (backoff * 2).min(options.restart_backoff_max);
    }
}

type Running = RunningService<RoleClient, UpstreamClient>;

/// Connects, initializes and lists every tool (following `nextCursor`).
async fn start(
    server: &str,
    config: &ServerConfig,
    client: UpstreamClient,
    stderr: &mut StderrTail,
) -> Result<(Running, Vec<rmcp::model::Tool>), String> {
    let running = match config {
        ServerConfig::Stdio { command, args, env, cwd } => {
            let mut cmd = tokio::process::Command::new(command);
            // The child dies with the gateway, even when no task is left to end it.
            cmd.args(args).envs(env).kill_on_drop(true);
            if let Some(cwd) = cwd {
                cmd.current_dir(cwd);
            }
            let (transport, child_stderr) = TokioChildProcess::builder(cmd)
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("cannot start `{command}`: {e}"))?;
            if let Some(child_stderr) = child_stderr {
                stderr.follow(server, child_stderr);
            }
            client.serve(transport).await.map_err(|e| format!("initialize failed: {e}"))?
        }
        ServerConfig::Http { url, headers } => {
            crate::install_crypto_provider();
            let mut custom = HashMap::new();
            for (name, value) in headers {
                // The configuration checked both; a failure here is a bug in that check.
                let (Ok(name), Ok(value)) = (
                    http::HeaderName::from_bytes(name.as_bytes()),
                    http::HeaderValue::from_str(value),
                ) else {
                    return Err(format!("invalid header {name}"));
                };
                custom.insert(name, value);
            }
            let transport = StreamableHttpClientTransport::from_config(
                StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom),
            );
            client.serve(transport).await.map_err(|e| format!("initialize failed: {e}"))?
        }
    };
    let tools =
        running.peer().list_all_tools().await.map_err(|e| format!("tools/list failed: {e}"))?;
    Ok((running, tools))
}
