//! gwprof's four demo subgraphs in one binary: `gwprof-subgraphs <accounts|reviews|products|inventory>`,
//! with the Node subgraphs' contract: `PORT` (one port or several separated by commas, each
//! counted apart), `SUBGRAPH_DELAY_MS`, `SUBGRAPH_PADDING_BYTES` ("port=bytes,…": whitespace before
//! each GraphQL answer there, work planted in the gateway that parses it), 127.0.0.1 only, one JSON line on stdout when ready, exit
//! when the parent dies. `TOKIO_WORKER_THREADS` sets the number of worker threads (default: one
//! per CPU the process may run on).
mod data_set;
mod graphql_endpoint;
mod http_server;
mod js_number;
mod parent_watch;
mod subgraphs;
mod unprovided_variables;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_graphql::{EmptyMutation, EmptySubscription, ObjectType, SchemaBuilder};

use graphql_endpoint::ExecutionGate;
use subgraphs::{accounts, inventory, products, reviews};

const SUBGRAPHS: [(&str, u16); 4] = [("accounts", 4001), ("reviews", 4002), ("products", 4003), ("inventory", 4004)];

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(&(name, default_port)) = SUBGRAPHS.iter().find(|(n, _)| *n == name) else {
        eprintln!("usage: gwprof-subgraphs <accounts|reviews|products|inventory> (PORT=4001[,4101] SUBGRAPH_DELAY_MS=0)");
        std::process::exit(2);
    };
    let ports = match ports_from(std::env::var("PORT").ok(), default_port) {
        Ok(ports) => ports,
        Err(message) => fail(name, &message),
    };
    let delay_ms: f64 = std::env::var("SUBGRAPH_DELAY_MS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0);
    let padding = match padding_from(std::env::var("SUBGRAPH_PADDING_BYTES").unwrap_or_default()) {
        Ok(padding) => padding,
        Err(message) => fail(name, &message),
    };
    parent_watch::exit_with_parent();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(run(name, ports, delay_ms, padding));
}

/// "4011=2000,4012=2000" → (port, bytes) pairs.
fn padding_from(value: String) -> Result<Vec<(u16, usize)>, String> {
    value
        .split(',')
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| {
            let parsed = entry
                .trim()
                .split_once('=')
                .and_then(|(port, bytes)| Some((port.parse().ok()?, bytes.parse().ok()?)));
            parsed.ok_or_else(|| format!("SUBGRAPH_PADDING_BYTES: {entry:?} is not port=bytes"))
        })
        .collect()
}

fn ports_from(value: Option<String>, default_port: u16) -> Result<Vec<u16>, String> {
    let Some(value) = value else { return Ok(vec![default_port]) };
    value
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<u16>()
                .map_err(|_| format!("PORT {value:?} is not a list of ports"))
        })
        .collect()
}

async fn run(name: &'static str, ports: Vec<u16>, delay_ms: f64, padding: Vec<(u16, usize)>) {
    let mut listeners = Vec::new();
    for &port in &ports {
        let bytes = padding.iter().find(|(p, _)| *p == port).map_or(0, |(_, bytes)| *bytes);
        match http_server::bind(port).await {
            Ok(listener) => listeners.push((listener, bytes)),
            Err(message) => fail(name, &message),
        }
    }
    let gate = ExecutionGate {
        delay: Duration::from_secs_f64(delay_ms.max(0.0) / 1000.0),
    };
    match name {
        "accounts" => serve_all(name, listeners, accounts::schema(), gate),
        "reviews" => serve_all(name, listeners, reviews::schema(), gate),
        "products" => serve_all(name, listeners, products::schema(), gate),
        _ => serve_all(name, listeners, inventory::schema(), gate),
    }
    let ports_json = serde_json::to_string(&ports).expect("ports are JSON");
    println!(
        r#"{{"level":30,"time":{},"msg":"subgraph ready","name":"{name}","ports":{ports_json},"delayMs":{delay_ms}}}"#,
        now_ms()
    );
    wait_for_stop().await;
}

fn serve_all<Q: ObjectType + 'static>(
    name: &'static str,
    listeners: Vec<(tokio::net::TcpListener, usize)>,
    schema: SchemaBuilder<Q, EmptyMutation, EmptySubscription>,
    gate: ExecutionGate,
) {
    let schema = schema.enable_federation().extension(gate).finish();
    for (listener, padding) in listeners {
        tokio::spawn(http_server::serve(listener, name, schema.clone(), padding));
    }
}

/// SIGTERM or SIGINT ends the process with 0, as the Node subgraphs do.
async fn wait_for_stop() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut terminate = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    let mut interrupt = signal(SignalKind::interrupt()).expect("a SIGINT handler");
    tokio::select! {
        _ = terminate.recv() => {}
        _ = interrupt.recv() => {}
    }
    std::process::exit(0);
}

fn fail(name: &str, message: &str) -> ! {
    let line = serde_json::json!({ "level": 50, "time": now_ms(), "msg": format!("subgraph {name} failed to start: {message}") });
    eprintln!("{line}");
    std::process::exit(1);
}

fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis())
}
