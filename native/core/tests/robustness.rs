//! Invariants over generated inputs: every call sequence ends in exactly one well-formed response
//! record, within the response budget, with `cache-control: no-store`, and chunking never changes it.
use pulse_core::{record, Action, Engine, Request};

/// The head record handed to the typed API, as the C ABI does.
fn head(req: &mut Request, rec: &[u8], now: f64) -> Action {
    match record::head(rec) {
        Some((method, target, _, lines)) => req.head(method, target, lines, now),
        None => req.misuse(),
    }
}

fn rec(req: &Request) -> Vec<u8> {
    let mut out = Vec::new();
    record::reply(&mut out, req.reply().expect("a reply"));
    out
}

/// xorshift64*: deterministic, no crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const HEAD: &str = "POST /mcp\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: server/discover\r\n";
const SEEDS: [&str; 4] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    r#"{"jsonrpc":"2.0","id":"x\u00e9","method":"tools/call","params":{"name":"a","arguments":{"k":[1,2.5e3,null,true]},"_meta":{}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
];
const NOISE: &[u8] = b"{}[]\",:\\ 0123456789.eE+-truefalsnul\xc3\xa9\xff\x00\"id\"\"method\"";

fn mutate(rng: &mut Rng, seed: &str) -> Vec<u8> {
    let mut v = seed.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(4) {
            0 if at < v.len() => {
                v.remove(at);
            }
            1 => v.insert(at, NOISE[rng.below(NOISE.len())]),
            2 if at < v.len() => v[at] = NOISE[rng.below(NOISE.len())],
            _ => v.truncate(at),
        }
    }
    v
}

/// Feeds `body` in random chunks; returns the final record.
fn run(engine: &Engine, head: &[u8], body: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut req = engine.request(0.0);
    if let Action::Respond = self::head(&mut req, head, 0.0) {
        return rec(&req);
    }
    let mut rest = body;
    while !rest.is_empty() {
        let n = 1 + rng.below(rest.len());
        let (chunk, tail) = rest.split_at(n);
        rest = tail;
        match req.body(chunk, 1.0) {
            Action::Continue => {}
            Action::Respond => return rec(&req),
            other => panic!("{other:?}"),
        }
    }
    match req.end(2.0) {
        Action::Respond => rec(&req),
        Action::Perform => panic!("no tools configured"),
        other => panic!("{other:?}"),
    }
}

fn check_record(record: &[u8], budget: usize) -> (u16, Vec<u8>) {
    let end = record
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("head end");
    let head = std::str::from_utf8(&record[..end]).unwrap();
    let body = &record[end + 4..];
    let status: u16 = head[..3].parse().unwrap();
    assert!(head.contains("\r\ncache-control: no-store"));
    assert!(body.len() <= budget, "body over budget");
    if !body.is_empty() {
        assert!(head.contains("\r\ncontent-type: application/json"));
        assert!(pulse_core::json::parse(body, 64).is_ok(), "reply is JSON");
    }
    assert!(
        [200, 202, 400, 403, 404, 405, 406, 413, 415, 431, 500].contains(&status),
        "{status}"
    );
    (status, body.to_vec())
}

#[test]
fn mutated_bodies_always_get_one_bounded_reply_independent_of_chunking() {
    let configs = [
        r#"{}"#,
        r#"{"legacyProtocol":"2025-06-18","limits":{"requestBytes":120,"responseBytes":632,"depth":4}}"#,
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for cfg in configs {
        let engine = Engine::new(cfg.as_bytes()).unwrap();
        let budget = engine.limits().response_bytes;
        for i in 0..3000 {
            let body = mutate(&mut rng, SEEDS[i % SEEDS.len()]);
            let whole = check_record(&run(&engine, HEAD.as_bytes(), &body, &mut Rng(1)), budget);
            let split = check_record(&run(&engine, HEAD.as_bytes(), &body, &mut rng), budget);
            // A 413 or mid-body 400 may be decided at different chunks, but never differently.
            assert_eq!(
                whole,
                split,
                "chunking changed the reply for {:?}",
                String::from_utf8_lossy(&body)
            );
        }
    }
}

#[test]
fn mutated_heads_never_panic() {
    let engine = Engine::new(b"{}").unwrap();
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let head = mutate(&mut rng, HEAD);
        let mut req = engine.request(0.0);
        match self::head(&mut req, &head, 0.0) {
            Action::Continue => {
                let _ = req.body(SEEDS[0].as_bytes(), 1.0);
                assert_eq!(req.end(2.0), Action::Respond);
            }
            Action::Respond => {
                check_record(&rec(&req), engine.limits().response_bytes);
            }
            Action::Misuse => {}
            Action::Perform => panic!("an effect from a head"),
        }
    }
}
