//! One port's HTTP server, as the Node subgraph server's: POST /graphql (and /fed2/graphql, the
//! same Federation 2 schema), GET /health, and GET /__gwprof/stats with this port's own count of
//! GraphQL requests, so that each gateway given its own port counts its own fan-out.
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use async_graphql::Executor;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::response::Response;
use axum::serve::ListenerExt;
use axum::Router;
use tokio::net::TcpListener;

use crate::graphql_endpoint::answer;

struct Port<E> {
    name: &'static str,
    requests: AtomicU64,
    executor: E,
    /// Whitespace before each GraphQL answer's JSON on this port (SUBGRAPH_PADDING_BYTES).
    padding: String,
}

/// Binds 127.0.0.1:port; the error names the port when it is taken.
pub async fn bind(port: u16) -> Result<TcpListener, String> {
    TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::AddrInUse => format!("port {port} is already in use"),
            _ => format!("port {port}: {error}"),
        })
}

pub async fn serve<E: Executor>(listener: TcpListener, name: &'static str, executor: E, padding: usize) {
    let port = Arc::new(Port {
        name,
        requests: AtomicU64::new(0),
        executor,
        padding: " ".repeat(padding),
    });
    let app = Router::new().fallback(handle::<E>).with_state(port);
    // Responses go out in one write; no reason to let Nagle hold any of them.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app).await.expect("the server stops only with the process");
}

async fn handle<E: Executor>(State(port): State<Arc<Port<E>>>, request: Request) -> Response {
    let method = request.method().clone();
    let url = request.uri().path_and_query().map_or("/", |p| p.as_str()).to_owned();
    if method == Method::GET && url.starts_with("/__gwprof/stats") {
        let requests = port.requests.load(Ordering::Relaxed);
        return json(
            StatusCode::OK,
            serde_json::json!({ "name": port.name, "requests": requests }).to_string(),
        );
    }
    if method == Method::GET && url.starts_with("/health") {
        return json(StatusCode::OK, r#"{"ok":true}"#.to_owned());
    }
    if method != Method::POST || !(url.starts_with("/graphql") || url.starts_with("/fed2/graphql")) {
        let message = format!("POST /graphql or /fed2/graphql only (got {method} {url})");
        return json(
            StatusCode::NOT_FOUND,
            serde_json::json!({ "errors": [{ "message": message }] }).to_string(),
        );
    }
    port.requests.fetch_add(1, Ordering::Relaxed);
    let raw = match axum::body::to_bytes(request.into_body(), usize::MAX).await {
        Ok(raw) => raw,
        Err(error) => {
            return json(
                StatusCode::BAD_REQUEST,
                serde_json::json!({ "errors": [{ "message": error.to_string() }] }).to_string(),
            )
        }
    };
    let (status, body) = answer(&port.executor, &raw).await;
    if port.padding.is_empty() {
        json(status, body)
    } else {
        json(status, format!("{}{body}", port.padding))
    }
}

fn json(status: StatusCode, body: String) -> Response {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json; charset=utf-8")
        .body(Body::from(body))
        .expect("a valid response")
}
