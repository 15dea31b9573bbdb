//! Every row of spec/outcomes.json, the admission outcome table that the Node and Fetch host suites
//! also run, driven through the core's Rust API as a host drives it. Each row is its own case: every
//! row runs, each failure is reported with its mismatches, and the summary uses libtest's format.
use pulse_core::json::{self, Object, Value};
use pulse_core::{base64, Action, Engine};
use std::fmt::Write as _;

const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/outcomes.json");
/// Ample for the table's own nesting; row bodies are never parsed with it.
const TABLE_DEPTH: u32 = 64;

fn text(v: Option<Value<'_>>) -> Option<String> {
    v.and_then(|v| v.as_string())
        .map(|s| s.as_str().into_owned())
}

fn member<'a>(o: &Object<'a>, key: &str) -> Value<'a> {
    o.get(key)
        .unwrap_or_else(|| panic!("table: member {key} missing"))
}

/// A stored chunk: UTF-8 text, `{ base64 }`, or `{ text, run, times }`.
fn chunk(v: Value<'_>) -> Vec<u8> {
    if let Some(s) = v.as_string() {
        return s.as_str().into_owned().into_bytes();
    }
    let o = v
        .as_object()
        .expect("table: a chunk is a string or an object");
    if let Some(b) = text(o.get("base64")) {
        return base64::decode(b.as_bytes()).expect("table: chunk base64");
    }
    let mut out = text(o.get("text")).expect("table: chunk text").into_bytes();
    let run = text(o.get("run")).expect("table: chunk run");
    let times = o
        .get("times")
        .and_then(|n| n.as_number())
        .and_then(|n| n.as_safe_integer())
        .expect("table: chunk times");
    for _ in 0..times {
        out.extend_from_slice(run.as_bytes());
    }
    out
}

/// JSON equality as the hosts' suites judge it: member order is irrelevant, numbers by value.
fn same(a: Value<'_>, b: Value<'_>) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) => x.as_str() == y.as_str(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| matches!(y.get(&k.as_str()), Some(w) if same(v, w)))
        }
        _ => false,
    }
}

fn show(v: Option<Value<'_>>) -> String {
    match v {
        None => "(absent)".into(),
        Some(v) => {
            let mut out = Vec::new();
            json::write::value(&mut out, v);
            String::from_utf8_lossy(&out).into_owned()
        }
    }
}

struct Observed {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    close: bool,
    /// Answered before the body's end was fed (at the head, a chunk, the deadline or an abort).
    early: bool,
}

impl Observed {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A row's request as the core receives it.
struct Sent {
    method: String,
    path: String,
    headers: Vec<(Vec<u8>, Vec<u8>)>,
    chunks: Vec<Vec<u8>>,
    /// After the chunks: `None` ends the body; `Some(true)` stalls it to the deadline; `Some(false)`
    /// interrupts it.
    cut: Option<bool>,
}

fn sent(request: &Object<'_>) -> Sent {
    let headers = member(request, "headers")
        .as_array()
        .expect("table: headers")
        .iter()
        .map(|pair| {
            let pair = pair.as_array().expect("table: header pair");
            let part = |i| text(pair.get(i)).expect("table: header text").into_bytes();
            (part(0), part(1))
        })
        .collect();
    let chunks = match (request.get("chunks"), request.get("body")) {
        (Some(c), _) => c
            .as_array()
            .expect("table: chunks")
            .iter()
            .map(chunk)
            .collect(),
        (None, Some(b)) => vec![chunk(b)],
        (None, None) => Vec::new(),
    };
    let flag = |k| matches!(request.get(k), Some(Value::Bool(true)));
    Sent {
        method: text(request.get("method")).expect("table: request method"),
        path: text(request.get("path")).expect("table: request path"),
        headers,
        chunks,
        cut: if flag("stall") {
            Some(true)
        } else if flag("fail") {
            Some(false)
        } else {
            None
        },
    }
}

/// Drives one request as a host does: head, body chunks, then the end, a stall until the
/// deadline, or an abort.
fn drive(engine: &Engine, s: &Sent, chunks: &[Vec<u8>]) -> Observed {
    let mut req = engine.request(0.0);
    let mut now = 1.0;
    let mut action = req.head(
        s.method.as_bytes(),
        s.path.as_bytes(),
        s.headers.clone(),
        now,
    );
    for c in chunks {
        if action != Action::Continue {
            break;
        }
        now += 1.0;
        action = req.body(c, now);
    }
    let early = action != Action::Continue || s.cut.is_some();
    if action == Action::Continue {
        action = match s.cut {
            Some(true) => {
                let at = now + req.timeout_ms(now);
                assert_eq!(
                    req.tick(at - 1.0),
                    Action::Continue,
                    "expired before the deadline"
                );
                req.tick(at)
            }
            Some(false) => req.abort(now + 1.0),
            None => req.end(now + 1.0),
        };
    }
    assert_eq!(action, Action::Respond, "the request ends in a reply");
    let r = req.reply().expect("a reply after RESPOND");
    Observed {
        status: r.status,
        headers: r
            .headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        body: r.body.clone(),
        close: r.close,
        early,
    }
}

/// Where a body is cut in two to show that chunk boundaries never change the reply: every offset
/// of a short body, 64 spread over a long one.
fn cuts(len: usize) -> Vec<usize> {
    if len <= 512 {
        (0..=len).collect()
    } else {
        (0..=64).map(|i| len * i / 64).collect()
    }
}

/// The same request split differently must get the same status and bytes.
fn split_mismatches(engine: &Engine, s: &Sent, whole: &Observed) -> Vec<String> {
    if s.cut.is_some() {
        return Vec::new();
    }
    let body: Vec<u8> = s.chunks.concat();
    let mut out = Vec::new();
    for at in cuts(body.len()) {
        let (a, b) = body.split_at(at);
        let split = drive(engine, s, &[a.to_vec(), b.to_vec()]);
        if (split.status, &split.body) != (whole.status, &whole.body) {
            out.push(format!(
                "split at byte {at}: {} {} instead of {} {}",
                split.status,
                String::from_utf8_lossy(&split.body),
                whole.status,
                String::from_utf8_lossy(&whole.body)
            ));
            break;
        }
    }
    out
}

/// Every mismatch between the reply and the row's expectation, one line each.
fn compare(expected: &Object<'_>, o: &Observed, canary: &str) -> Vec<String> {
    let mut out = Vec::new();
    let body = String::from_utf8_lossy(&o.body).into_owned();
    let status = expected
        .get("status")
        .and_then(|v| v.as_number())
        .and_then(|n| n.as_safe_integer())
        .expect("table: status");
    if i64::from(o.status) != status {
        out.push(format!(
            "status: expected {status}, got {} (body {body})",
            o.status
        ));
    }
    if o.close != o.early {
        out.push(format!(
            "connection: close is {}, but the reply came {} the body's end",
            o.close,
            if o.early { "before" } else { "at" }
        ));
    }
    if o.header("cache-control") != Some("no-store") {
        out.push(format!("cache-control: {:?}", o.header("cache-control")));
    }
    if let Some(Value::Object(hs)) = expected.get("headers") {
        for (k, v) in hs.iter() {
            // `null`: the header must be absent.
            let want = v.as_string().map(|s| s.as_str().into_owned());
            if o.header(&k.as_str()) != want.as_deref() {
                out.push(format!(
                    "header {}: expected {want:?}, got {:?}",
                    k.as_str(),
                    o.header(&k.as_str())
                ));
            }
        }
    }
    if matches!(expected.get("empty"), Some(Value::Bool(true))) {
        if !o.body.is_empty() {
            out.push(format!("body: expected empty, got {body}"));
        }
        return out;
    }
    let media = o.header("content-type").map(|v| {
        v.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    if media.as_deref() != Some("application/json") {
        out.push(format!("content-type: {:?}", o.header("content-type")));
    }
    let doc = match json::parse(&o.body, 64) {
        Ok(d) => d,
        Err(_) => {
            out.push(format!("body: not JSON: {body}"));
            return out;
        }
    };
    let reply = match doc.root() {
        Value::Object(r) => r,
        _ => {
            out.push(format!("body: not an object: {body}"));
            return out;
        }
    };
    if text(reply.get("jsonrpc")).as_deref() != Some("2.0") {
        out.push(format!("jsonrpc: {}", show(reply.get("jsonrpc"))));
    }
    let mut keys: Vec<String> = reply.iter().map(|(k, _)| k.as_str().into_owned()).collect();
    keys.sort();
    let id = expected.get("id");
    let id_rule = text(id);
    let check_id = |out: &mut Vec<String>| {
        if let Some(want) = id {
            if !matches!(reply.get("id"), Some(got) if same(want, got)) {
                out.push(format!(
                    "id: expected {}, got {}",
                    show(Some(want)),
                    show(reply.get("id"))
                ));
            }
        }
    };
    let code = expected.get("code").expect("table: code");
    if code.is_null() {
        if keys != ["id", "jsonrpc", "result"] {
            out.push(format!("members: expected id,jsonrpc,result, got {keys:?}"));
        }
        if id_rule.as_deref() != Some("any") {
            check_id(&mut out);
        }
        if let Some(want) = expected.get("result") {
            if !matches!(reply.get("result"), Some(got) if same(want, got)) {
                out.push(format!(
                    "result: expected {}, got {}",
                    show(Some(want)),
                    show(reply.get("result"))
                ));
            }
        }
        return out;
    }
    let error = match reply.get("error") {
        Some(Value::Object(e)) => e,
        _ => {
            out.push(format!(
                "error: expected code {}, got {body}",
                show(Some(code))
            ));
            return out;
        }
    };
    if !matches!(error.get("code"), Some(got) if same(code, got)) {
        out.push(format!(
            "code: expected {}, got {}",
            show(Some(code)),
            show(error.get("code"))
        ));
    }
    if !matches!(text(error.get("message")), Some(m) if !m.is_empty()) {
        out.push(format!("message: {}", show(error.get("message"))));
    }
    if body.contains(canary) {
        out.push("body echoes request input (canary found)".into());
    }
    for (k, _) in error.iter() {
        if !["code", "message", "data"].contains(&k.as_str().as_ref()) {
            out.push(format!("error member {} unexpected", k.as_str()));
        }
    }
    match (expected.get("data"), error.get("data")) {
        (Some(want), Some(got)) if same(want, got) => {}
        (None, None) => {}
        (want, got) => out.push(format!(
            "error.data: expected {}, got {}",
            show(want),
            show(got)
        )),
    }
    match id_rule.as_deref() {
        Some("any") => {
            if keys
                .iter()
                .any(|k| !["error", "id", "jsonrpc"].contains(&k.as_str()))
            {
                out.push(format!("members: unexpected {keys:?}"));
            }
        }
        Some("absent") => {
            if keys != ["error", "jsonrpc"] {
                out.push(format!("members: expected error,jsonrpc, got {keys:?}"));
            }
        }
        _ => {
            if keys != ["error", "id", "jsonrpc"] {
                out.push(format!("members: expected error,id,jsonrpc, got {keys:?}"));
            }
            check_id(&mut out);
        }
    }
    out
}

fn main() {
    let bytes = std::fs::read(TABLE).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let doc = json::parse(&bytes, TABLE_DEPTH).expect("spec/outcomes.json is JSON");
    let table = doc.root().as_object().expect("table: an object");
    let canary = text(table.get("canary")).expect("table: canary");
    let profiles = member(&table, "profiles")
        .as_object()
        .expect("table: profiles");
    let rows = member(&table, "rows").as_array().expect("table: rows");
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();

    println!("\nrunning {} tests", rows.len());
    let (mut passed, mut failed, mut filtered) = (0, 0, 0);
    let mut failures = String::new();
    for row in rows.iter() {
        let row = row.as_object().expect("table: a row");
        let name = text(row.get("name")).expect("table: row name");
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            filtered += 1;
            continue;
        }
        let profile = text(row.get("profile")).expect("table: row profile");
        let config = profiles
            .get(&profile)
            .and_then(|p| p.as_object())
            .and_then(|p| p.get("config"))
            .unwrap_or_else(|| panic!("{name}: profile {profile} unknown"));
        let mut config_json = Vec::new();
        json::write::value(&mut config_json, config);
        let outcome = std::panic::catch_unwind(|| {
            let engine = Engine::new(&config_json).map_err(|e| vec![format!("config: {e}")])?;
            let request = sent(&member(&row, "request").as_object().expect("table: request"));
            let expected = member(&row, "expected")
                .as_object()
                .expect("table: expected");
            let observed = drive(&engine, &request, &request.chunks);
            let mut mismatches = compare(&expected, &observed, &canary);
            mismatches.extend(split_mismatches(&engine, &request, &observed));
            if mismatches.is_empty() {
                Ok(())
            } else {
                Err(mismatches)
            }
        });
        let verdict = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(m)) => Some(m.join("\n    ")),
            Err(p) => Some(
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panicked".into()),
            ),
        };
        match verdict {
            None => {
                passed += 1;
                println!("test outcome: {name} ... ok");
            }
            Some(why) => {
                failed += 1;
                println!("test outcome: {name} ... FAILED");
                let _ = writeln!(failures, "---- outcome: {name} ----\n    {why}");
            }
        }
    }
    if failed > 0 {
        println!("\nfailures:\n\n{failures}");
    }
    println!(
        "\ntest result: {}. {passed} passed; {failed} failed; 0 ignored; 0 measured; {filtered} filtered out\n",
        if failed == 0 { "ok" } else { "FAILED" }
    );
    if failed > 0 {
        std::process::exit(101);
    }
}
