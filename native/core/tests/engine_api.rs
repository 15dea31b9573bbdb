//! The engine's typed API beyond the admission table (spec/outcomes.json, run by outcome_table.rs):
//! deadlines and aborts, misuse, configuration refusals, tools, handler effects and the JSON-RPC
//! profile, driven as a host drives them.
use pulse_core::json::{self, Value};
use pulse_core::{record, Action, Engine, HandlerAnswer, Request};

/// The ABI's head record, handed to the typed API.
fn feed_head(req: &mut Request, rec: &[u8], now: f64) -> Action {
    match record::head(rec) {
        Some((method, target, _, lines)) => req.head(method, target, lines, now),
        None => req.misuse(),
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

/// A request answered at its end, with a JSON-RPC reply echoing `id` (raw JSON).
struct Row {
    name: &'static str,
    config: String,
    head: String,
    body: Vec<u8>,
    status: u16,
    code: Option<i32>,
    id: &'static str,
    body_has: Vec<String>,
}

impl Row {
    fn new(name: &'static str, head: String, body: impl Into<Vec<u8>>) -> Row {
        Row {
            name,
            config: "{}".into(),
            head,
            body: body.into(),
            status: 200,
            code: None,
            id: "1",
            body_has: Vec::new(),
        }
    }
    fn config(mut self, c: &str) -> Row {
        self.config = c.into();
        self
    }
    fn expect(mut self, status: u16, code: Option<i32>, id: &'static str) -> Row {
        self.status = status;
        self.code = code;
        self.id = id;
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
    let (reply, stop) = drive(
        &engine,
        row.head.as_bytes(),
        std::slice::from_ref(&row.body),
    );
    let body = String::from_utf8(reply.body.clone()).unwrap();
    assert_eq!(
        reply.status, row.status,
        "{}: status; body {body}",
        row.name
    );
    assert_eq!(stop, Stop::End, "{}: answered at the end", row.name);
    for h in ["cache-control: no-store", "content-type: application/json"] {
        assert!(reply.headers.iter().any(|x| x == h), "{}: {h}", row.name);
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
    let mut id = Vec::new();
    json::write::value(&mut id, obj.get("id").expect("an id"));
    assert_eq!(String::from_utf8(id).unwrap(), row.id, "{}: id", row.name);
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

/// Once answered, every call in order repeats the reply (misuse: tests/misuse.rs).
#[test]
fn repeated_respond() {
    let engine = Engine::new(b"{}").unwrap();
    let mut req = engine.request(0.0);
    assert_eq!(
        feed_head(&mut req, discover_head().as_bytes(), 1.0),
        Action::Continue
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
        feed_head(&mut req, discover_head().as_bytes(), 5.0),
        Action::Respond
    );
    assert_eq!(
        req.answer_handler(HandlerAnswer::Failed, 6.0),
        Action::Respond
    );
    assert_eq!(rec(&req), first, "the same reply every time");
}

#[test]
fn a_handler_past_its_own_budget_is_a_tool_error() {
    let engine = Engine::new(
        tools_config(r#""limits":{"deadlineMs":10000},"#)
            .replace(r#""deadlineMs":5000"#, r#""deadlineMs":300"#)
            .as_bytes(),
    )
    .unwrap();
    let head = modern_head("tools/call", Some("echo"));
    let body = call_body("\"c\"", "echo", r#"{"msg":"hi"}"#);
    let (mut req, instruction) = pending(&engine, &head, &body);
    assert!(
        instruction.ends_with(r#","timeoutMs":300}"#),
        "{instruction}"
    );
    let (status, body_text) =
        status_of(&mut req, |r| r.answer_handler(HandlerAnswer::Failed, 303.0));
    assert_eq!(status, 200);
    assert!(
        body_text.starts_with(r#"{"jsonrpc":"2.0","id":"c","result":{"resultType":"complete","content":[{"type":"text","text":"Tool execution failed"}],"isError":true"#),
        "{body_text}"
    );
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
        Row::new("tools/list cursor refused", modern_head("tools/list", None), request("1", "tools/list", r#""cursor":"x""#)).config(&cfg).expect(400, Some(-32602), "1"),
        Row::new("tools/call static", modern_head("tools/call", Some("fixed")), call_body("1", "fixed", "{}")).config(&cfg)
            .has(r#""result":{"resultType":"complete","content":[{"type":"text","text":"true"}],"structuredContent":true,"isError":false,"_meta":{"#),
        Row::new("tools/call unknown tool", modern_head("tools/call", Some("nope")), call_body("1", "nope", "{}")).config(&cfg).expect(400, Some(-32602), "1"),
        Row::new("tools/call arguments not an object", modern_head("tools/call", Some("fixed")), call_body("1", "fixed", "[]")).config(&cfg).expect(400, Some(-32602), "1"),
        Row::new("tools/call result over toolResultBytes", modern_head("tools/call", Some("fixed")), call_body("1", "fixed", "{}")).config(&small_result)
            .expect(500, Some(-32603), "1").has("Tool result too large"),
        Row::new("legacy tools/list", legacy_head(Some("2025-06-18")), r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":0}}}"#).config(&legacy_cfg)
            .has(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"fixed","inputSchema":{"type":"object"}}]}}"#),
        Row::new("legacy tools/call, non-object structured content as text only", legacy_head(Some("2025-06-18")),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1},"name":"fixed","arguments":{}}}"#).config(&legacy_cfg)
            .has(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"true"}],"isError":false}}"#),
        Row::new("legacy initialize advertises tools", legacy_head(None), r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#).config(&legacy_cfg)
            .expect(200, None, "0").has(r#""capabilities":{"tools":{"listChanged":false}}"#),
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

    // The request's deadline (1000 ms, below the manifest's 5000) bounds the handler: its timeout,
    // reported by the host's timer for the effect's whole-millisecond `timeoutMs` just before the
    // deadline's own, is the request's 408 too.
    assert!(
        instruction.ends_with(r#","timeoutMs":997}"#),
        "{instruction}"
    );
    let (mut req, _) = pending(&engine, &head, &body);
    assert_eq!(
        status_of(&mut req, |r| r.answer_handler(HandlerAnswer::Failed, 998.5)),
        (408, expired.to_string()),
        "handler timed out at the request's deadline"
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
        .expect(400, Some(-32022), "1")
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
    .expect(400, Some(-32020), "1");
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
