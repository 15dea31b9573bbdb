//! The outcome table: one row per admission outcome (seed "Admission and lifetime", issue 2 §3 and
//! issue 5 §1), driven through the public Rust API exactly as a host would.
use pulse_core::json::{self, Value};
use pulse_core::{record, Action, Engine, HandlerAnswer, Request};

/// The ABI's head record, handed to the typed API.
fn feed_head(req: &mut Request, rec: &[u8], now: f64) -> Action {
    match record::head(rec) {
        Some((method, target, lines)) => req.head(method, target, lines, now),
        None => Action::Misuse,
    }
}

/// The reply as the ABI's reply record.
fn rec(req: &Request) -> Vec<u8> {
    let mut out = Vec::new();
    record::reply(&mut out, req.reply().expect("a reply"));
    out
}

/// The pending effect as the ABI's JSON.
fn effect_json(req: &Request) -> String {
    let mut out = Vec::new();
    record::effect(&mut out, req.effect().expect("an effect"));
    String::from_utf8(out).unwrap()
}

const MODERN: &str = "2026-07-28";
const ACCEPT: &str = "accept: application/json, text/event-stream\r\n";
const CT: &str = "content-type: application/json\r\n";

/// Where the body stops being fed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stop {
    /// Replied at `head`.
    Head,
    /// Replied at a `body` call.
    Body,
    /// Replied at `end`.
    End,
}

#[derive(Clone, Copy, Debug)]
enum Id {
    /// The `id` member must be absent.
    Omitted,
    /// The raw JSON of the echoed id.
    Echo(&'static str),
    /// Empty body (no JSON).
    NoBody,
}

struct Row {
    name: &'static str,
    config: String,
    head: String,
    chunks: Vec<Vec<u8>>,
    status: u16,
    code: Option<i32>,
    id: Id,
    stop: Stop,
    headers: Vec<&'static str>,
    body_has: Vec<String>,
}

impl Row {
    fn new(name: &'static str, head: String, body: impl Into<Vec<u8>>) -> Row {
        Row {
            name,
            config: "{}".into(),
            head,
            chunks: vec![body.into()],
            status: 200,
            code: None,
            id: Id::Echo("1"),
            stop: Stop::End,
            headers: Vec::new(),
            body_has: Vec::new(),
        }
    }
    fn config(mut self, c: &str) -> Row {
        self.config = c.into();
        self
    }
    fn chunks(mut self, c: Vec<Vec<u8>>) -> Row {
        self.chunks = c;
        self
    }
    fn expect(mut self, status: u16, code: Option<i32>, id: Id) -> Row {
        self.status = status;
        self.code = code;
        self.id = id;
        self
    }
    fn empty(self, status: u16, stop: Stop) -> Row {
        self.expect(status, None, Id::NoBody).stop(stop)
    }
    fn stop(mut self, s: Stop) -> Row {
        self.stop = s;
        self
    }
    fn header(mut self, h: &'static str) -> Row {
        self.headers.push(h);
        self
    }
    fn has(mut self, s: &str) -> Row {
        self.body_has.push(s.into());
        self
    }
}

fn modern_head(method: &str, name: Option<&str>) -> String {
    let mut h = format!(
        "POST /mcp\r\n{ACCEPT}{CT}mcp-protocol-version: {MODERN}\r\nmcp-method: {method}\r\n"
    );
    if let Some(n) = name {
        h.push_str(&format!("mcp-name: {n}\r\n"));
    }
    h
}

fn meta(version: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"t","version":"1"}}}}"#
    )
}

fn request(id: &str, method: &str, extra: &str) -> String {
    let sep = if extra.is_empty() { "" } else { "," };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{}{sep}{extra}}}}}"#,
        meta(MODERN)
    )
}

fn discover_head() -> String {
    modern_head("server/discover", None)
}

fn discover() -> String {
    request("1", "server/discover", "")
}

fn legacy_head(version: Option<&str>) -> String {
    let mut h = format!("POST /mcp\r\naccept: text/event-stream, application/json\r\n{CT}");
    if let Some(v) = version {
        h.push_str(&format!("mcp-protocol-version: {v}\r\n"));
    }
    h
}

const LEGACY_CFG: &str =
    r#"{"legacyProtocol":"2025-06-18","serverInfo":{"name":"pulse","version":"0.1.0"}}"#;

struct Reply {
    status: u16,
    headers: Vec<String>,
    body: Vec<u8>,
}

fn split_record(record: &[u8]) -> Reply {
    let text = record;
    let end = text
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 2);
    let (head, body) = match end {
        Some(e) => (&text[..e], &text[e + 2..]),
        None => panic!("record without head end"),
    };
    let head = std::str::from_utf8(head).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().parse().unwrap();
    let headers = lines
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    Reply {
        status,
        headers,
        body: body.to_vec(),
    }
}

/// Drives one row; returns the reply and where it stopped.
fn drive(engine: &Engine, head: &[u8], chunks: &[Vec<u8>]) -> (Reply, Stop) {
    let mut req = engine.request(0.0);
    if let Action::Respond = feed_head(&mut req, head, 1.0) {
        return (split_record(&rec(&req)), Stop::Head);
    }
    for c in chunks {
        match req.body(c, 2.0) {
            Action::Respond => return (split_record(&rec(&req)), Stop::Body),
            Action::Continue => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    match req.end(3.0) {
        Action::Respond => (split_record(&rec(&req)), Stop::End),
        other => panic!("unexpected {other:?}"),
    }
}

fn check(row: &Row) {
    let engine =
        Engine::new(row.config.as_bytes()).unwrap_or_else(|e| panic!("{}: config {e}", row.name));
    let (reply, stop) = drive(&engine, row.head.as_bytes(), &row.chunks);
    let body = String::from_utf8(reply.body.clone()).unwrap();
    assert_eq!(
        reply.status, row.status,
        "{}: status; body {body}",
        row.name
    );
    assert_eq!(stop, row.stop, "{}: stopped at", row.name);
    assert!(
        reply.headers.iter().any(|h| h == "cache-control: no-store"),
        "{}: no-store",
        row.name
    );
    let early = reply.headers.iter().any(|h| h == "connection: close");
    assert_eq!(
        early,
        stop != Stop::End,
        "{}: connection: close iff answered before the end",
        row.name
    );
    for h in &row.headers {
        assert!(
            reply.headers.iter().any(|x| x == h),
            "{}: header {h} in {:?}",
            row.name,
            reply.headers
        );
    }
    match row.id {
        Id::NoBody => {
            assert!(reply.body.is_empty(), "{}: body {body}", row.name);
            assert!(
                !reply.headers.iter().any(|h| h.starts_with("content-type")),
                "{}",
                row.name
            );
            return;
        }
        _ => assert!(
            reply
                .headers
                .iter()
                .any(|h| h == "content-type: application/json"),
            "{}",
            row.name
        ),
    }
    let doc = json::parse(&reply.body, 64)
        .unwrap_or_else(|_| panic!("{}: reply is not JSON: {body}", row.name));
    let obj = match doc.root() {
        Value::Object(o) => o,
        _ => panic!("{}: not an object", row.name),
    };
    assert!(
        matches!(obj.get("jsonrpc"), Some(Value::String(s)) if s.eq_str("2.0")),
        "{}",
        row.name
    );
    match (row.id, obj.get("id")) {
        (Id::Omitted, None) => {}
        (Id::Echo(raw), Some(v)) => {
            let mut out = Vec::new();
            json::write::value(&mut out, v);
            assert_eq!(String::from_utf8(out).unwrap(), raw, "{}: id", row.name);
        }
        (want, got) => panic!(
            "{}: id {want:?} vs {:?}; body {body}",
            row.name,
            got.is_some()
        ),
    }
    match (row.code, obj.get("error"), obj.get("result")) {
        (Some(code), Some(Value::Object(e)), None) => {
            let got = match e.get("code") {
                Some(Value::Number(n)) => n.as_safe_integer(),
                _ => None,
            };
            assert_eq!(
                got,
                Some(i64::from(code)),
                "{}: code; body {body}",
                row.name
            );
            assert!(
                matches!(e.get("message"), Some(Value::String(_))),
                "{}",
                row.name
            );
        }
        (None, None, Some(_)) => {}
        _ => panic!("{}: wrong shape {body}", row.name),
    }
    for s in &row.body_has {
        assert!(
            body.contains(s.as_str()),
            "{}: body lacks {s}: {body}",
            row.name
        );
    }
}

fn pad(body: &str, to: usize) -> Vec<u8> {
    let mut v = body.as_bytes().to_vec();
    assert!(v.len() <= to, "body longer than {to}");
    v.resize(to, b' ');
    v
}

fn bytes_each(s: &str) -> Vec<Vec<u8>> {
    s.bytes().map(|b| vec![b]).collect()
}

fn rows() -> Vec<Row> {
    let d = discover;
    let dh = discover_head;
    let small = r#"{"limits":{"requestBytes":400,"responseBytes":912}}"#;
    let big_info = format!(
        r#"{{"limits":{{"requestBytes":1000,"responseBytes":1512}},"serverInfo":{{"name":"{}","version":"{}"}}}}"#,
        "\u{1F600}".repeat(128),
        "\u{1F600}".repeat(128)
    );
    let long_id = format!("\"{}\"", "i".repeat(600));
    let mut rows = vec![
        // Discovery and the head-level refusals, in the seed's order.
        Row::new("discover", dh(), d())
            .has(r#""result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"pulse-mcp","version":"0.1.0"}}}"#),
        Row::new("discover string id", dh(), request("\"a\\u0062\"", "server/discover", "")).expect(200, None, Id::Echo("\"ab\"")),
        Row::new("discover with query and vendor meta", format!("POST /mcp?x=1\r\n{ACCEPT}{CT}mcp-protocol-version: {MODERN}\r\nmcp-method: server/discover\r\n"),
            request("1", "server/discover", r#""other":1"#)),
        Row::new("head over 32 KiB", format!("{}x-pad: {}\r\n", dh(), "a".repeat(32 * 1024)), d()).empty(431, Stop::Head),
        Row::new("other path", dh().replacen("/mcp", "/other", 1), d()).empty(404, Stop::Head),
        Row::new("path prefix", dh().replacen("/mcp", "/mcp/", 1), d()).empty(404, Stop::Head),
        Row::new("GET", dh().replacen("POST", "GET", 1), "").empty(405, Stop::Head).header("allow: POST"),
        Row::new("DELETE", dh().replacen("POST", "DELETE", 1), "").empty(405, Stop::Head).header("allow: POST"),
        Row::new("origin not allowed", format!("{}origin: https://evil.example\r\n", dh()), d()).empty(403, Stop::Head),
        Row::new("origin allowed", format!("{}origin: https://app.example\r\n", dh()), d()).config(r#"{"allowedOrigins":["https://app.example"]}"#),
        Row::new("origin case differs", format!("{}origin: https://APP.example\r\n", dh()), d()).config(r#"{"allowedOrigins":["https://app.example"]}"#).empty(403, Stop::Head),
        Row::new("accept missing", dh().replace(ACCEPT, ""), d()).empty(406, Stop::Head),
        Row::new("accept json only", dh().replace(ACCEPT, "accept: application/json\r\n"), d()).empty(406, Stop::Head),
        Row::new("accept wildcard", dh().replace(ACCEPT, "accept: */*\r\n"), d()).empty(406, Stop::Head),
        Row::new("accept sse q=0", dh().replace(ACCEPT, "accept: application/json, text/event-stream;q=0\r\n"), d()).empty(406, Stop::Head),
        Row::new("accept split over two lines", dh().replace(ACCEPT, "accept: application/json\r\naccept: text/event-stream\r\n"), d()),
        Row::new("content-type missing", dh().replace(CT, ""), d()).empty(415, Stop::Head),
        Row::new("content-type text", dh().replace(CT, "content-type: text/plain\r\n"), d()).empty(415, Stop::Head),
        Row::new("content-type latin1", dh().replace(CT, "content-type: application/json; charset=latin1\r\n"), d()).empty(415, Stop::Head),
        Row::new("content-type utf-8", dh().replace(CT, "content-type: Application/JSON; charset=UTF-8\r\n"), d()),
        Row::new("content-encoding gzip", format!("{}content-encoding: gzip\r\n", dh()), d()).empty(415, Stop::Head),
        Row::new("content-encoding identity", format!("{}content-encoding: identity\r\n", dh()), d()),
        Row::new("content-length over", format!("{}content-length: 401\r\n", dh()), d()).config(small)
            .expect(413, Some(-32600), Id::Omitted).stop(Stop::Head).has("Request body too large"),
        Row::new("content-length lies small", format!("{}content-length: 1\r\n", dh()), d()),
        // Body counting.
        Row::new("body exactly at limit", dh(), pad(&d(), 400)).config(small),
        Row::new("body limit + 1", dh(), pad(&d(), 401)).config(small).expect(413, Some(-32600), Id::Omitted).stop(Stop::Body)
            .has(r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body too large"}}"#),
        Row::new("body limit + 1 split", dh(), d()).config(small)
            .chunks(vec![pad(&d(), 400)[..399].to_vec(), b"  ".to_vec()]).expect(413, Some(-32600), Id::Omitted).stop(Stop::Body),
        Row::new("parse error before the limit wins over 413", dh(), pad("{]", 401))
            .config(small)
            .expect(400, Some(-32700), Id::Omitted)
            .stop(Stop::Body),
        Row::new("byte-by-byte chunks", dh(), d()).chunks(bytes_each(&d())),
        Row::new("empty chunks", dh(), d()).chunks(vec![Vec::new(), d().into_bytes(), Vec::new()]),
        // Strict JSON.
        Row::new("syntax error mid-body", dh(), "").chunks(vec![b"{\"jsonrpc\":]".to_vec(), b"never".to_vec()])
            .expect(400, Some(-32700), Id::Omitted).stop(Stop::Body).has("Parse error: invalid JSON"),
        Row::new("incomplete body", dh(), "{\"jsonrpc\":\"2.0\"").expect(400, Some(-32700), Id::Omitted).has("Parse error: incomplete JSON"),
        Row::new("empty body", dh(), "").expect(400, Some(-32700), Id::Omitted),
        Row::new("too deep", dh(), "[[[[").config(r#"{"limits":{"depth":3}}"#).expect(400, Some(-32700), Id::Omitted).stop(Stop::Body).has("nesting too deep"),
        Row::new("duplicate key", dh(), r#"{"id":1,"id":2}"#).expect(400, Some(-32700), Id::Omitted).stop(Stop::Body).has("duplicate member"),
        Row::new("invalid utf-8", dh(), b"{\"a\":\"\xff\"}".to_vec()).expect(400, Some(-32700), Id::Omitted).stop(Stop::Body),
        Row::new("lone surrogate", dh(), r#"{"a":"\ud800"}"#).expect(400, Some(-32700), Id::Omitted).stop(Stop::Body),
        Row::new("number out of range", dh(), r#"{"a":1e400}"#).expect(400, Some(-32700), Id::Omitted).stop(Stop::Body),
        Row::new("trailing data", dh(), "{} x").expect(400, Some(-32700), Id::Omitted).stop(Stop::Body),
        // Envelope.
        Row::new("batch", dh(), format!("[{}]", d())).expect(400, Some(-32600), Id::Omitted),
        Row::new("not an object", dh(), "\"x\"").expect(400, Some(-32600), Id::Omitted),
        Row::new("client response", dh(), r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).expect(400, Some(-32600), Id::Echo("1")),
        Row::new("jsonrpc 1.0", dh(), d().replace("\"2.0\"", "\"1.0\"")).expect(400, Some(-32600), Id::Echo("1")),
        Row::new("extra member", dh(), d().replacen("{", "{\"x\":1,", 1)).expect(400, Some(-32600), Id::Echo("1")),
        Row::new("id null", dh(), request("null", "server/discover", "")).expect(400, Some(-32600), Id::Omitted),
        Row::new("id fractional", dh(), request("1.5", "server/discover", "")).expect(400, Some(-32600), Id::Omitted),
        Row::new("id unsafe", dh(), request("9007199254740992", "server/discover", "")).expect(400, Some(-32600), Id::Omitted),
        Row::new("id safe max", dh(), request("9007199254740991", "server/discover", "")).expect(200, None, Id::Echo("9007199254740991")),
        Row::new("method not a string", dh(), r#"{"jsonrpc":"2.0","id":1,"method":7}"#).expect(400, Some(-32600), Id::Echo("1")),
        Row::new("params array", dh(), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":[]}"#).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("params string", dh(), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":"x"}"#).expect(400, Some(-32600), Id::Echo("1")),
        // Notifications.
        Row::new("notification", modern_head("notifications/cancelled", None), r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#).empty(202, Stop::End),
        Row::new("notification without headers", legacy_head(None), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).empty(202, Stop::End),
        Row::new("tools/call without id is a notification", modern_head("tools/call", Some("x")), r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"}}"#).empty(202, Stop::End),
        Row::new("notification method header disagrees", modern_head("notifications/other", None), r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#)
            .expect(400, Some(-32020), Id::Omitted),
        // Envelope-less initialize on the modern-only profile.
        Row::new("legacy initialize refused", legacy_head(None), r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#)
            .expect(400, Some(-32022), Id::Echo("0")).has(r#""data":{"supported":["2026-07-28"],"requested":"2025-06-18"}"#),
        Row::new("legacy tools/list refused", legacy_head(Some("2025-11-25")), r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
            .expect(400, Some(-32022), Id::Echo("2")).has(r#""data":{"supported":["2026-07-28"],"requested":"2025-11-25"}"#),
        // Modern ladder: presence, _meta, agreement, revision, name, allowlist.
        Row::new("version header missing", dh().replace(&format!("mcp-protocol-version: {MODERN}\r\n"), ""), d()).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("method header missing", dh().replace("mcp-method: server/discover\r\n", ""), d()).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("name header missing", modern_head("tools/call", None), request("1", "tools/call", r#""name":"echo""#)).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("presence precedes _meta", modern_head("tools/call", None), r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("_meta missing", dh(), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("params missing", dh(), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("capabilities missing", dh(), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("version not a string", dh(), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}}"#).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("_meta precedes agreement", modern_head("tools/list", None), r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("version header disagrees", dh().replace(&format!("mcp-protocol-version: {MODERN}"), "mcp-protocol-version: 2025-11-25"), d()).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("method header disagrees by case", modern_head("Server/Discover", None), d()).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("agreement precedes revision", modern_head("server/discover", None), request("1", "server/discover", "").replace(MODERN, "2099-01-01")).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("unsupported revision", dh().replace(MODERN, "2099-01-01"), request("1", "server/discover", "").replace(MODERN, "2099-01-01"))
            .expect(400, Some(-32022), Id::Echo("1")).has(r#""data":{"supported":["2026-07-28"],"requested":"2099-01-01"}"#),
        Row::new("name disagrees", modern_head("tools/call", Some("other")), request("1", "tools/call", r#""name":"echo""#)).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("name malformed base64", modern_head("tools/call", Some("=?base64?***?=")), request("1", "tools/call", r#""name":"echo""#)).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("name not a string", modern_head("tools/call", Some("echo")), request("1", "tools/call", r#""name":1"#)).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("encoded name agrees, then allowlist", modern_head("tools/call", Some("=?base64?w6ljaG8=?=")), request("1", "tools/call", "\"name\":\"\u{e9}cho\"")).expect(404, Some(-32601), Id::Echo("1")),
        Row::new("resources/read uri agreement", modern_head("resources/read", Some("file:///x")), request("1", "resources/read", r#""uri":"file:///y""#)).expect(400, Some(-32020), Id::Echo("1")),
        Row::new("tools/list without tools", modern_head("tools/list", None), request("1", "tools/list", "")).expect(404, Some(-32601), Id::Echo("1")),
        Row::new("unknown method", modern_head("x/y", None), request("1", "x/y", "")).expect(404, Some(-32601), Id::Echo("1")),
        // Budgets.
        Row::new("response over budget", dh(), request(&long_id, "server/discover", "")).config(&big_info)
            .expect(500, Some(-32603), Id::Echo(Box::leak(long_id.clone().into_boxed_str()))).has("Response too large"),
        // The opt-in legacy profile.
        Row::new("legacy initialize", legacy_head(None), r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"codex-mcp-client","version":"0.171.0"}}}"#)
            .config(LEGACY_CFG).expect(200, None, Id::Echo("0"))
            .has(r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"pulse","version":"0.1.0"}}}"#),
        Row::new("legacy initialize other version", legacy_head(None), r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#)
            .config(LEGACY_CFG).expect(200, None, Id::Echo("0")).has(r#""protocolVersion":"2025-06-18""#),
        Row::new("legacy initialize without params", legacy_head(None), r#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#)
            .config(LEGACY_CFG).expect(400, Some(-32602), Id::Echo("0")),
        Row::new("legacy initialized notification", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).config(LEGACY_CFG).empty(202, Stop::End),
        Row::new("legacy ping", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#).config(LEGACY_CFG)
            .expect(200, None, Id::Echo("\"p\"")).has(r#"{"jsonrpc":"2.0","id":"p","result":{}}"#),
        Row::new("legacy ping without version header", legacy_head(None), r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).config(LEGACY_CFG).expect(400, Some(-32600), Id::Echo("1")),
        Row::new("legacy ping with other legacy version", legacy_head(Some("2025-11-25")), r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).config(LEGACY_CFG)
            .expect(400, Some(-32022), Id::Echo("1")).has(r#""data":{"supported":["2026-07-28","2025-06-18"],"requested":"2025-11-25"}"#),
        Row::new("legacy resources/list", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"_meta":{"progressToken":1}}}"#).config(LEGACY_CFG)
            .expect(200, Some(-32601), Id::Echo("1")),
        Row::new("legacy resources/templates/list", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","id":2,"method":"resources/templates/list"}"#).config(LEGACY_CFG)
            .expect(200, Some(-32601), Id::Echo("2")),
        Row::new("legacy tools/list without tools", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":0}}}"#).config(LEGACY_CFG)
            .expect(200, Some(-32601), Id::Echo("1")),
        Row::new("legacy profile: modern discover unchanged", dh(), d()).config(LEGACY_CFG).has(r#""supportedVersions":["2026-07-28"]"#),
        Row::new("legacy profile: modern revision error lists both", dh().replace(MODERN, "2099-01-01"), request("1", "server/discover", "").replace(MODERN, "2099-01-01")).config(LEGACY_CFG)
            .expect(400, Some(-32022), Id::Echo("1")).has(r#""supported":["2026-07-28","2025-06-18"]"#),
        Row::new("legacy profile: mixed modern header is never downgraded", format!("{}mcp-method: initialize\r\n", legacy_head(Some("2025-06-18"))), r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#).config(LEGACY_CFG)
            .expect(400, Some(-32602), Id::Echo("0")),
        Row::new("legacy profile: modern _meta is never downgraded", legacy_head(Some("2025-06-18")), request("1", "ping", "")).config(LEGACY_CFG)
            .expect(400, Some(-32020), Id::Echo("1")),
        Row::new("legacy profile: modern initialize is removed", modern_head("initialize", None), request("1", "initialize", "")).config(LEGACY_CFG)
            .expect(404, Some(-32601), Id::Echo("1")),
    ];
    for m in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "subscriptions/listen",
        "prompts/list",
        "resources/list",
    ] {
        rows.push(
            Row::new("removed method", modern_head(m, None), request("7", m, "")).expect(
                404,
                Some(-32601),
                Id::Echo("7"),
            ),
        );
    }
    rows
}

#[test]
fn outcome_table() {
    let rows = rows();
    assert!(rows.len() > 90);
    for row in &rows {
        check(row);
    }
}

/// Chunk boundaries never change the verdict.
#[test]
fn every_split_of_a_row_gives_the_same_reply() {
    let engine = Engine::new(b"{}").unwrap();
    for body in [
        discover(),
        format!("[{}]", discover()),
        request("null", "server/discover", ""),
        "{\"a\":]".to_string(),
    ] {
        let (whole, _) = drive(
            &engine,
            discover_head().as_bytes(),
            &[body.clone().into_bytes()],
        );
        for at in 0..=body.len() {
            let (a, b) = body.as_bytes().split_at(at);
            let (split, _) = drive(
                &engine,
                discover_head().as_bytes(),
                &[a.to_vec(), b.to_vec()],
            );
            assert_eq!(
                (split.status, &split.body),
                (whole.status, &whole.body),
                "split at {at} of {body}"
            );
        }
    }
}

fn started(engine: &Engine) -> pulse_core::Request {
    let mut req = engine.request(0.0);
    assert_eq!(
        feed_head(&mut req, discover_head().as_bytes(), 0.0),
        Action::Continue
    );
    req
}

fn status_of(req: &mut Request, f: impl FnOnce(&mut Request) -> Action) -> (u16, String) {
    match f(req) {
        Action::Respond => {
            let r = split_record(&rec(req));
            (r.status, String::from_utf8(r.body).unwrap())
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn deadline_and_abort() {
    let engine = Engine::new(br#"{"limits":{"deadlineMs":100}}"#).unwrap();
    let interrupted =
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body interrupted"}}"#;

    let mut req = started(&engine);
    assert_eq!(req.timeout_ms(40.0), 60.0);
    assert_eq!(req.tick(99.9), Action::Continue);
    assert_eq!(
        status_of(&mut req, |r| r.tick(100.0)),
        (408, interrupted.to_string())
    );
    assert_eq!(req.timeout_ms(100.0), 0.0);

    let mut req = started(&engine);
    assert_eq!(req.body(b"{", 50.0), Action::Continue);
    assert_eq!(
        status_of(&mut req, |r| r.body(b"}", 100.0)).0,
        408,
        "body at the deadline"
    );

    let mut req = started(&engine);
    assert_eq!(
        status_of(&mut req, |r| r.end(150.0)).0,
        408,
        "end after the deadline"
    );

    let mut req = started(&engine);
    assert_eq!(req.body(b"{", 1.0), Action::Continue);
    let (status, body) = status_of(&mut req, |r| r.abort(2.0));
    assert_eq!((status, body.as_str()), (408, interrupted));
    assert_eq!(
        status_of(&mut req, |r| r.end(3.0)).0,
        408,
        "RESPOND repeats after RESPOND"
    );

    let mut req = engine.request(0.0);
    assert_eq!(
        status_of(&mut req, |r| feed_head(
            r,
            discover_head().as_bytes(),
            100.0
        ))
        .0,
        408,
        "head after the deadline"
    );

    let mut req = engine.request(0.0);
    assert_eq!(
        status_of(&mut req, |r| r.abort(1.0)).0,
        408,
        "abort before the head"
    );
}

#[test]
fn misuse_and_repeated_respond() {
    let engine = Engine::new(b"{}").unwrap();
    let mut req = engine.request(0.0);
    assert_eq!(req.body(b"{}", 1.0), Action::Misuse, "body before head");
    assert_eq!(req.end(1.0), Action::Misuse, "end before head");
    assert_eq!(
        req.answer_handler(HandlerAnswer::Failed, 1.0),
        Action::Misuse,
        "resume without a call"
    );
    assert_eq!(
        feed_head(&mut req, b"not a head record", 1.0),
        Action::Misuse
    );
    assert_eq!(
        feed_head(&mut req, discover_head().as_bytes(), 1.0),
        Action::Continue
    );
    assert_eq!(
        feed_head(&mut req, discover_head().as_bytes(), 1.0),
        Action::Misuse,
        "head twice"
    );
    assert_eq!(
        req.answer_handler(HandlerAnswer::Failed, 1.0),
        Action::Misuse
    );
    assert_eq!(req.body(discover().as_bytes(), 1.0), Action::Continue);
    assert_eq!(req.end(2.0), Action::Respond);
    let first = rec(&req);
    assert!(req.is_finished());
    assert_eq!(req.end(3.0), Action::Respond);
    assert_eq!(req.tick(1e9), Action::Respond);
    assert_eq!(req.abort(4.0), Action::Respond);
    assert_eq!(req.body(b"x", 5.0), Action::Respond);
    assert_eq!(
        req.answer_handler(HandlerAnswer::Failed, 6.0),
        Action::Respond
    );
    assert_eq!(rec(&req), first, "the same reply every time");
}

#[test]
fn config_rejections_name_the_option() {
    for (cfg, msg) in [
        (
            r#"{"limits":{"requestBytes":65537}}"#,
            "limits.requestBytes: must be an integer between 1 and 65536",
        ),
        (
            r#"{"limits":{"requestBytes":1000,"responseBytes":1200}}"#,
            "limits.responseBytes: must be at least limits.requestBytes + 512",
        ),
        (
            r#"{"legacyProtocol":true}"#,
            "legacyProtocol: must be null or \"2025-06-18\"",
        ),
        (
            r#"{"path":"mcp"}"#,
            "path: must start with / and hold at most 256 visible ASCII characters, no query",
        ),
    ] {
        match Engine::new(cfg.as_bytes()) {
            Err(e) => assert_eq!(e, msg),
            Ok(_) => panic!("accepted {cfg}"),
        }
    }
}

/// A manifest with a JavaScript handler (`echo`, needs a CALL) and a static one (`fixed`).
fn tools_config(extra: &str) -> String {
    let program = r#"[["string",0,null],["object",0,[["msg",0,0]]]]"#;
    let list = r#""[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"fixed\",\"inputSchema\":{\"type\":\"object\"}}]""#;
    format!(
        r#"{{{extra}"tools":{{"formatVersion":1,"routerId":"r","catalogHash":"sha256:x","deadlineMs":5000,"list":{list},"tools":[{{"name":"echo","input":{program},"output":{program},"handler":{{"kind":"javascript"}}}},{{"name":"fixed","input":null,"output":[["boolean"]],"handler":{{"kind":"static","result":"true"}}}}],"corpora":{{}}}}}}"#
    )
}

fn call_body(id: &str, name: &str, args: &str) -> String {
    request(
        id,
        "tools/call",
        &format!(r#""name":"{name}","arguments":{args}"#),
    )
}

#[test]
fn tool_rows() {
    let cfg = tools_config("");
    let legacy_cfg = tools_config(r#""legacyProtocol":"2025-06-18","#);
    let small_result = tools_config(r#""limits":{"toolResultBytes":40},"#);
    let rows = vec![
        Row::new("discover advertises tools", discover_head(), discover()).config(&cfg).has(r#""capabilities":{"tools":{"listChanged":false}}"#),
        Row::new("tools/list", modern_head("tools/list", None), request("1", "tools/list", "")).config(&cfg)
            .has(r#""result":{"resultType":"complete","tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"fixed","inputSchema":{"type":"object"}}],"ttlMs":300000,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":"#),
        Row::new("tools/list cursor refused", modern_head("tools/list", None), request("1", "tools/list", r#""cursor":"x""#)).config(&cfg).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("tools/call static", modern_head("tools/call", Some("fixed")), call_body("1", "fixed", "{}")).config(&cfg)
            .has(r#""result":{"resultType":"complete","content":[{"type":"text","text":"true"}],"structuredContent":true,"isError":false,"_meta":{"#),
        Row::new("tools/call unknown tool", modern_head("tools/call", Some("nope")), call_body("1", "nope", "{}")).config(&cfg).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("tools/call arguments not an object", modern_head("tools/call", Some("fixed")), call_body("1", "fixed", "[]")).config(&cfg).expect(400, Some(-32602), Id::Echo("1")),
        Row::new("tools/call result over toolResultBytes", modern_head("tools/call", Some("fixed")), call_body("1", "fixed", "{}")).config(&small_result)
            .expect(500, Some(-32603), Id::Echo("1")).has("Tool result too large"),
        Row::new("legacy tools/list", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":0}}}"#).config(&legacy_cfg)
            .has(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"fixed","inputSchema":{"type":"object"}}]}}"#),
        Row::new("legacy tools/call, non-object structured content as text only", legacy_head(Some("2025-06-18")),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1},"name":"fixed","arguments":{}}}"#).config(&legacy_cfg)
            .has(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"true"}],"isError":false}}"#),
        Row::new("legacy initialize advertises tools", legacy_head(None), r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#).config(&legacy_cfg)
            .expect(200, None, Id::Echo("0")).has(r#""capabilities":{"tools":{"listChanged":false}}"#),
    ];
    for row in &rows {
        check(row);
    }
}

fn pending(engine: &Engine, head: &str, body: &str) -> (pulse_core::Request, String) {
    let mut req = engine.request(0.0);
    assert_eq!(feed_head(&mut req, head.as_bytes(), 1.0), Action::Continue);
    assert_eq!(req.body(body.as_bytes(), 2.0), Action::Continue);
    let instruction = match req.end(3.0) {
        Action::Perform => effect_json(&req),
        other => panic!("expected an effect, got {other:?}"),
    };
    (req, instruction)
}

#[test]
fn call_resume_deadline_abort() {
    let engine = Engine::new(tools_config(r#""limits":{"deadlineMs":1000},"#).as_bytes()).unwrap();
    let head = modern_head("tools/call", Some("echo"));
    let body = call_body("\"c\"", "echo", r#"{"msg":"hi"}"#);

    let (mut req, instruction) = pending(&engine, &head, &body);
    assert!(
        instruction.starts_with(r#"{"kind":"handler","op":"echo","input":{"msg":"hi"}"#),
        "{instruction}"
    );
    assert_eq!(
        req.tick(500.0),
        Action::Continue,
        "pending call, deadline not reached"
    );
    assert_eq!(req.timeout_ms(500.0), 500.0);
    assert_eq!(req.body(b"x", 500.0), Action::Misuse);
    let (status, body_text) = status_of(&mut req, |r| {
        r.answer_handler(HandlerAnswer::Output(br#"{"msg":"hi"}"#), 600.0)
    });
    assert_eq!(status, 200);
    assert!(body_text.starts_with(r#"{"jsonrpc":"2.0","id":"c","result":{"resultType":"complete","content":[{"type":"text","text":"{\"msg\":\"hi\"}"}],"structuredContent":{"msg":"hi"},"isError":false,"#), "{body_text}");

    let (mut req, _) = pending(&engine, &head, &body);
    let (status, body_text) =
        status_of(&mut req, |r| r.answer_handler(HandlerAnswer::Failed, 600.0));
    assert_eq!(status, 200);
    assert!(body_text.contains(r#""isError":true"#), "{body_text}");

    let expired =
        r#"{"jsonrpc":"2.0","id":"c","error":{"code":-32603,"message":"Request interrupted"}}"#;
    let (mut req, _) = pending(&engine, &head, &body);
    assert_eq!(
        status_of(&mut req, |r| r.tick(1000.0)),
        (408, expired.to_string()),
        "deadline while pending"
    );

    let (mut req, _) = pending(&engine, &head, &body);
    assert_eq!(
        status_of(&mut req, |r| r
            .answer_handler(HandlerAnswer::Output(br#"{"msg":"hi"}"#), 1000.0)),
        (408, expired.to_string()),
        "resume at the deadline"
    );

    let (mut req, _) = pending(&engine, &head, &body);
    assert_eq!(
        status_of(&mut req, |r| r.abort(10.0)),
        (408, expired.to_string()),
        "client gone while pending"
    );
}

#[test]
fn unknown_version_header_without_envelope_is_a_legacy_client() {
    for (cfg, supported) in [
        ("{}", r#"["2026-07-28"]"#),
        (LEGACY_CFG, r#"["2026-07-28","2025-06-18"]"#),
    ] {
        let row = Row::new(
            "garbage version header",
            legacy_head(Some("v9")),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        )
        .config(cfg)
        .expect(400, Some(-32022), Id::Echo("1"))
        .has(&format!(
            r#""data":{{"supported":{supported},"requested":"v9"}}"#
        ));
        check(&row);
    }
    let row = Row::new(
        "modern header alone is modern",
        legacy_head(Some(MODERN)),
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    )
    .config(LEGACY_CFG)
    .expect(400, Some(-32020), Id::Echo("1"));
    check(&row);
}

/// `profile: "jsonrpc"`: the router as a plain JSON-RPC 2.0 endpoint, no MCP headers.
#[test]
fn jsonrpc_profile() {
    let engine = Engine::new(tools_config(r#""profile":"jsonrpc","#).as_bytes()).unwrap();
    let head = "POST /mcp\r\ncontent-type: application/json\r\n";
    let run = |body: &str| {
        let mut req = engine.request(0.0);
        assert_eq!(feed_head(&mut req, head.as_bytes(), 0.0), Action::Continue);
        assert_eq!(req.body(body.as_bytes(), 0.0), Action::Continue);
        status_of(&mut req, |r| r.end(0.0))
    };
    assert_eq!(
        run(r#"{"jsonrpc":"2.0","id":1,"method":"fixed"}"#),
        (200, r#"{"jsonrpc":"2.0","id":1,"result":true}"#.to_string())
    );
    let (status, body) = run(r#"{"jsonrpc":"2.0","id":2,"method":"nope"}"#);
    assert_eq!(status, 404);
    assert!(body.contains(r#""id":2,"error":{"code":-32601"#), "{body}");
    let (status, body) = run(r#"{"jsonrpc":"2.0","id":3,"method":"echo","params":{"msg":7}}"#);
    assert_eq!(status, 400);
    assert!(body.contains(r#""code":-32602"#), "{body}");
    assert_eq!(
        run(r#"{"jsonrpc":"2.0","method":"fixed"}"#),
        (204, String::new())
    );
    let (status, body) = run(r#"[{"jsonrpc":"2.0","id":1,"method":"fixed"}]"#);
    assert_eq!((status, body.contains("-32600")), (400, true));

    // A JavaScript handler goes out as a CALL and comes back framed as JSON-RPC.
    let mut req = engine.request(0.0);
    feed_head(&mut req, head.as_bytes(), 0.0);
    req.body(
        br#"{"jsonrpc":"2.0","id":"j","method":"echo","params":{"msg":"hi"}}"#,
        0.0,
    );
    assert_eq!(req.end(0.0), Action::Perform);
    assert_eq!(
        status_of(&mut req, |r| r
            .answer_handler(HandlerAnswer::Output(br#"{"msg":"hi"}"#), 1.0)),
        (
            200,
            r#"{"jsonrpc":"2.0","id":"j","result":{"msg":"hi"}}"#.to_string()
        )
    );
    let mut req = engine.request(0.0);
    feed_head(&mut req, head.as_bytes(), 0.0);
    req.body(
        br#"{"jsonrpc":"2.0","id":"k","method":"echo","params":{"msg":"hi"}}"#,
        0.0,
    );
    assert_eq!(req.end(0.0), Action::Perform);
    let (status, body) = status_of(&mut req, |r| r.answer_handler(HandlerAnswer::Failed, 1.0));
    assert!(body.contains(r#""code":-32000"#), "{status} {body}");

    assert!(
        Engine::new(br#"{"profile":"jsonrpc"}"#).is_err(),
        "jsonrpc needs tools"
    );
}
