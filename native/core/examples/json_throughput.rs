//! Parse throughput of the strict JSON module on generated bodies.
//! Host: `cd native && cargo run --release -p pulse-core --example json_throughput`
//! Wasm (Node): build with `--target wasm32-wasi` (Debian's rustc) and run the .wasm under `node:wasi`.
use std::time::{Duration, Instant};

use pulse_core::json;

/// A JSON-RPC `tools/call`-like body of about `target` bytes: nested objects, arrays of mixed
/// scalars, ASCII text with a few escapes and some non-ASCII text.
fn body(target: usize) -> Vec<u8> {
    let mut s = String::from(
        "{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"items\":[",
    );
    let mut i = 0;
    while s.len() + 200 < target {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "{{\"id\":{},\"title\":\"Item number {} of the generated catalogue\",\"price\":{}.{:02},\"tags\":[\"alpha\",\"beta\",\"caf\u{e9}\"],\"ok\":{},\"note\":\"line\\none \\\"quoted\\\" \\u00e9\",\"score\":-1.5e-3,\"meta\":null}}",
            i, i, i * 7, i % 100, i % 2 == 0
        ));
        i += 1;
    }
    s.push_str("]}}}");
    s.into_bytes()
}

/// One large text argument: mostly ASCII prose with some escapes and non-ASCII characters.
fn text_body(target: usize) -> Vec<u8> {
    let mut s = String::from("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"summarize\",\"arguments\":{\"text\":\"");
    while s.len() + 120 < target {
        s.push_str("The quick brown fox jumps over the lazy dog; caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e \u{2014} \\\"quoted\\\"\\n");
    }
    s.push_str("\"}}}");
    s.into_bytes()
}

/// An array of numbers, integers and decimals.
fn number_body(target: usize) -> Vec<u8> {
    let mut s = String::from("[");
    let mut i = 0u64;
    while s.len() + 40 < target {
        s.push_str(&format!(
            "{},{}.{},-{}e-3,",
            i,
            i * 31 % 1000,
            i % 97,
            i % 13
        ));
        i += 1;
    }
    s.push_str("0]");
    s.into_bytes()
}

fn measure(label: &str, input: &[u8]) {
    // Consumed below so the parses cannot be optimized away.
    let mut members = 0usize;
    let mut round = |budget: Duration| {
        let start = Instant::now();
        let mut runs = 0u64;
        while start.elapsed() < budget {
            for _ in 0..8 {
                let doc = json::parse(input, 32).expect("generated body parses");
                members += match doc.root() {
                    json::Value::Object(o) => o.len(),
                    json::Value::Array(a) => a.len(),
                    _ => 0,
                };
            }
            runs += 8;
        }
        start.elapsed().as_secs_f64() / runs as f64
    };
    // Warm up (lets a wasm engine tier up), then keep the best of a few rounds: the machine is shared.
    round(Duration::from_millis(100));
    let best = (0..5)
        .map(|_| round(Duration::from_millis(60)))
        .fold(f64::INFINITY, f64::min);
    assert!(members > 0);
    let mbps = input.len() as f64 / best / 1e6;
    println!(
        "{:>14} ({} bytes): {:8.1} MB/s  ({:.2} us/parse)",
        label,
        input.len(),
        mbps,
        best * 1e6
    );
}

fn main() {
    measure("1 KiB", &body(1024));
    measure("64 KiB", &body(64 * 1024));
    measure("64 KiB text", &text_body(64 * 1024));
    measure("64 KiB numbers", &number_body(64 * 1024));
}
