//! Core work per request for a 32 KiB body, measured natively: head, body (one chunk), end and the
//! reply of a `tools/call` whose 32 KiB string argument is validated, for `npm run bench`. Prints
//! one JSON line: the median microseconds per request over several rounds.
use std::time::Instant;

use pulse_core::engine::{Action, Engine};

const ROUNDS: usize = 15;
const PER_ROUND: usize = 200;

fn main() {
    let schema = r#"[["string",0,40000],["object",0,[["text",0,0]]]]"#;
    let manifest = format!(
        r#"{{"formatVersion":1,"routerId":"b","catalogHash":"sha256:0","deadlineMs":3000,"list":"[{{\"name\":\"echo\",\"inputSchema\":{{\"type\":\"object\"}}}}]","tools":[{{"name":"echo","input":{s},"output":null,"handler":{{"kind":"static"}}}}],"corpora":{{}}}}"#,
        s = schema
    );
    let engine = Engine::new(format!(r#"{{"tools":{}}}"#, manifest).as_bytes()).expect("engine");
    let text = "x".repeat(32 * 1024 - 300);
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#,
        text
    );
    let headers = [
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "echo"),
    ];
    let one = || {
        let mut r = engine.request_at(0.0, 1.78e12);
        assert_eq!(r.head(b"POST", b"/mcp", headers, 0.0), Action::Continue);
        assert_eq!(r.body(body.as_bytes(), 0.0), Action::Continue);
        assert_eq!(r.end(0.0), Action::Respond);
        assert_eq!(r.reply().map(|x| x.status), Some(200));
    };
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..PER_ROUND {
                one();
            }
            t.elapsed().as_secs_f64() * 1e6 / PER_ROUND as f64
        })
        .collect();
    rounds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        r#"{{"bodyBytes":{},"medianUsPerRequest":{:.1}}}"#,
        body.len(),
        rounds[ROUNDS / 2]
    );
}
