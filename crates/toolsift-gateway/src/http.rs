//! The streamable-HTTP side, safe by default: loopback unless told otherwise, `Origin`
//! checked (the MCP specification's guard against DNS rebinding), and no listening on
//! another address without a bearer token.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode, header};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_service::Service as _;

use crate::Error;
use crate::server::GatewayServer;

/// The environment variable `toolsift serve` reads the bearer token from.
pub const TOKEN_ENV: &str = "TOOLSIFT_GATEWAY_TOKEN";

/// Where and how the gateway listens for HTTP clients.
///
/// The endpoint is `/mcp`. Rules:
///
/// - [`bind`](HttpOptions::bind) defaults to `127.0.0.1:8765`;
/// - with a [`token`](HttpOptions::token), every request must carry
///   `Authorization: Bearer <token>` or is refused with 401;
/// - a non-loopback address without a token is refused: the server does not start;
/// - a request with an `Origin` header is refused with 403 unless the origin is allowed: on a
///   loopback address `http://localhost`, `http://127.0.0.1` and `http://[::1]` on any port
///   are, plus [`allowed_origins`](HttpOptions::allowed_origins); elsewhere only those.
///   Requests without `Origin` (clients that are not browsers) pass;
/// - on a loopback address, the `Host` header must name a loopback host too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// The address to listen on. Port 0 picks a free port ([`HttpServer::local_addr`]).
    pub bind: SocketAddr,
    /// The bearer token every request must carry; `None` for none (loopback only).
    pub token: Option<String>,
    /// More browser origins to accept (`https://app.example.com:443`, `http://localhost:*`).
    pub allowed_origins: Vec<String>,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8765),
            token: None,
            allowed_origins: Vec::new(),
        }
    }
}

/// A running HTTP endpoint; dropping it stops listening.
#[derive(Debug)]
pub struct HttpServer {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    done: watch::Receiver<bool>,
}

impl HttpServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint's URL (`http://127.0.0.1:8765/mcp`).
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.local_addr)
    }

    /// Waits until the server stops (it stops when [`HttpServer::stop`] is called or it is
    /// dropped).
    pub async fn stopped(&self) {
        let mut done = self.done.clone();
        let _ = done.wait_for(|done| *done).await;
    }

    /// Stops accepting connections.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop();
    }
}

pub(crate) async fn serve(
    server: GatewayServer,
    options: HttpOptions,
) -> Result<HttpServer, Error> {
    let loopback = options.bind.ip().is_loopback();
    if options.token.as_deref().is_some_and(str::is_empty) {
        return Err(Error::new("the bearer token is empty"));
    }
    if !loopback && options.token.is_none() {
        return Err(Error::new(format!(
            "refusing to listen on {} without a bearer token: anyone who can reach it could call \
             every upstream tool. Set {TOKEN_ENV} or pass --token-file, or bind 127.0.0.1",
            options.bind
        )));
    }
    let mut origins = options.allowed_origins.clone();
    let mut config = StreamableHttpServerConfig::default();
    if loopback {
        origins.extend(
            ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"].map(str::to_owned),
        );
    } else {
        // The token guards a public address; the Host check is for unauthenticated loopback.
        config = config.disable_allowed_hosts();
    }
    let config = config.with_allowed_origins(origins).enforce_origin_validation();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let listener = TcpListener::bind(options.bind)
        .await
        .map_err(|e| Error::new(format!("cannot listen on {}: {e}", options.bind)))?;
    let local_addr = listener
        .local_addr()
        .map_err(|e| Error::new(format!("cannot listen on {}: {e}", options.bind)))?;
    let (stop, mut stop_rx) = watch::channel(false);
    let (done_tx, done) = watch::channel(false);
    let token: Option<Arc<str>> = options.token.map(Arc::from);
    tokio::spawn(async move {
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        tracing::warn!("accept failed: {e}");
                        continue;
                    }
                },
                _ = stop_rx.changed() => break,
            };
            let service = service.clone();
            let token = token.clone();
            let mut stop = stop_rx.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let mut service = service.clone();
                    let token = token.clone();
                    async move {
                        if let Some(token) = token.as_deref()
                            && !authorized(&request, token)
                        {
                            tracing::info!(%peer, "refused a request without the bearer token");
                            return Ok::<_, Infallible>(unauthorized());
                        }
                        service.call(request).await
                    }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler);
                tokio::pin!(connection);
                tokio::select! {
                    result = connection.as_mut() => {
                        if let Err(e) = result {
                            tracing::debug!(%peer, "connection ended: {e}");
                        }
                    }
                    _ = stop.changed() => connection.as_mut().graceful_shutdown(),
                }
            });
        }
        let _ = done_tx.send(true);
    });
    tracing::info!("listening on http://{local_addr}/mcp");
    Ok(HttpServer { local_addr, stop, done })
}

/// Whether the request carries `Authorization: Bearer <token>`, compared in constant time.
fn authorized<B>(request: &Request<B>, token: &str) -> bool {
    let Some(value) = request.headers().get(header::AUTHORIZATION) else { return false };
    let Some(given) = value.as_bytes().strip_prefix(b"Bearer ") else { return false };
    let expected = token.as_bytes();
    given.len() == expected.len()
        && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

fn unauthorized() -> Response<Body> {
    let mut response =
        Response::new(Full::new(Bytes::from_static(b"missing or wrong bearer token\n")).boxed());
    *response.status_mut() = StatusCode::UNAUTHORIZED;
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, header::HeaderValue::from_static("Bearer"));
    response
}
