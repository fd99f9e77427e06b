//! A stand-in for a Rust gateway, for the Rust CI recipe (examples/gwprof-compare-rust.yml) and its
//! test: it serves `query Stub { ok }` with `{"data":{"ok":true}}` on 127.0.0.1:$PORT (HTTP/1.1,
//! keep-alive, a thread per connection), after a fixed amount of work per request in
//! `resolve_ok`, which a pull request can change. `{ __typename }` (gwprof's readiness probe) gets
//! its own answer.
use std::env;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;

/// Iterations of the resolver's loop per request: the work a pull request may add to.
const WORK_ITERATIONS: u64 = 20_000;

#[inline(never)]
fn resolve_ok(iterations: u64) -> bool {
    let mut acc: u64 = 0;
    for i in 0..iterations {
        acc = black_box((acc + i * 31) % 1_000_003);
    }
    acc != u64::MAX
}

fn answer(body: &str) -> String {
    if body.contains("__typename") {
        return r#"{"data":{"__typename":"Query"}}"#.to_string();
    }
    format!(r#"{{"data":{{"ok":{}}}}}"#, resolve_ok(WORK_ITERATIONS))
}

/// Reads one request's head and body; None when the client closed the connection.
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<String> {
    let mut length = 0usize;
    let mut line = String::new();
    let mut first = true;
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if first {
            first = false;
            continue;
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    String::from_utf8(body).ok()
}

fn serve(stream: TcpStream) {
    let mut writer = match stream.try_clone() {
        Ok(w) => w,
        Err(_) => return,
    };
    let mut reader = BufReader::new(stream);
    while let Some(body) = read_request(&mut reader) {
        let json = answer(&body);
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{}",
            json.len(),
            json
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

fn main() {
    let port = env::var("PORT").unwrap_or_else(|_| "4000".to_string());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}")).expect("the port is free");
    for stream in listener.incoming().flatten() {
        thread::spawn(move || serve(stream));
    }
}
