//! Resources, templates, prompts, completions and list caching: one row per outcome, through the
//! public Rust API as a host drives it (head, body, end), asserting status, code and body.
use pulse_core::json::{self, Value};
use pulse_core::{Action, Engine};

const CONFIG: &str = r#"{
  "serverInfo": {"name": "s", "version": "1"},
  "listCacheTtlMs": 60000,
  "resources": [
    {"uri": "test://static-text", "name": "text", "title": "Text", "mimeType": "text/plain", "text": "This is the content of the static text resource."},
    {"uri": "test://static-binary", "name": "binary", "mimeType": "image/png", "blob": "iVBORw0KGgo="}
  ],
  "resourceTemplates": [
    {"uriTemplate": "test://template/{id}/data", "name": "data", "mimeType": "application/json",
     "text": "{\"id\":\"{id}\"}", "completions": {"id": ["123", "124", "200"]}}
  ],
  "prompts": [
    {"name": "test_simple_prompt", "description": "Simple", "messages": [{"role": "user", "content": {"type": "text", "text": "Hello"}}]},
    {"name": "test_prompt_with_arguments", "arguments": [{"name": "arg1", "required": true, "completions": ["test", "testing", "other"]}, {"name": "arg2"}],
     "messages": [{"role": "user", "content": {"type": "text", "text": "{arg1} / {arg2}"}}]},
    {"name": "test_prompt_with_embedded_resource", "arguments": [{"name": "resourceUri", "required": true}],
     "messages": [{"role": "user", "content": {"type": "resource", "resource": {"uri": "test://example-resource", "mimeType": "text/plain", "text": "embedded"}}}]}
  ]
}"#;

const SERVER: &str = r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;

/// One modern request fed through head, body and end. `params` holds the members before `_meta`
/// (may be empty), `meta` extra `_meta` members (each with a leading comma), `header` one more line.
fn start(
    engine: &Engine,
    method: &str,
    name: Option<&str>,
    params: &str,
    meta: &str,
    header: Option<(&str, &str)>,
) -> pulse_core::Request {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"{}","params":{{{}{}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}{}}}}}}}"#,
        method,
        params,
        if params.is_empty() { "" } else { "," },
        meta
    );
    let mut lines: Vec<(&str, &str)> = vec![
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ];
    lines.extend(name.map(|n| ("mcp-name", n)));
    lines.extend(header);
    let mut req = engine.request(0.0);
    assert_eq!(req.head(b"POST", b"/mcp", lines, 0.0), Action::Continue);
    assert_eq!(req.body(body.as_bytes(), 0.0), Action::Continue);
    req.end(0.0);
    req
}

/// Status and body of a request answered at its end.
fn replied(req: &pulse_core::Request) -> (u16, String) {
    let reply = req.reply().expect("answered at the end of the body");
    (reply.status, String::from_utf8(reply.body.clone()).unwrap())
}

fn post(engine: &Engine, method: &str, name: Option<&str>, params: &str) -> (u16, String) {
    replied(&start(engine, method, name, params, "", None))
}

fn error_code(body: &str) -> Option<i64> {
    let doc = json::parse(body.as_bytes(), 64).unwrap();
    match doc.root() {
        Value::Object(o) => match o.get("error") {
            Some(Value::Object(e)) => match e.get("code") {
                Some(Value::Number(n)) => n.as_safe_integer(),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

struct Row {
    method: &'static str,
    name: Option<&'static str>,
    params: &'static str,
    status: u16,
    code: Option<i64>,
    /// The exact `result` (or `error`) member text.
    body: &'static str,
}

const fn row(
    method: &'static str,
    name: Option<&'static str>,
    params: &'static str,
    status: u16,
    code: Option<i64>,
    body: &'static str,
) -> Row {
    Row {
        method,
        name,
        params,
        status,
        code,
        body,
    }
}

const ROWS: &[Row] = &[
    row(
        "resources/list",
        None,
        "",
        200,
        None,
        r#""result":{"resultType":"complete","resources":[{"uri":"test://static-text","name":"text","title":"Text","mimeType":"text/plain"},{"uri":"test://static-binary","name":"binary","mimeType":"image/png"}],"ttlMs":60000,"cacheScope":"private","#,
    ),
    row(
        "resources/templates/list",
        None,
        "",
        200,
        None,
        r#""result":{"resultType":"complete","resourceTemplates":[{"uriTemplate":"test://template/{id}/data","name":"data","mimeType":"application/json"}],"ttlMs":60000,"cacheScope":"private","#,
    ),
    row(
        "resources/read",
        Some("test://static-text"),
        r#""uri":"test://static-text""#,
        200,
        None,
        r#""result":{"resultType":"complete","contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}],"ttlMs":60000,"cacheScope":"private","#,
    ),
    row(
        "resources/read",
        Some("test://static-binary"),
        r#""uri":"test://static-binary""#,
        200,
        None,
        r#""contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":"iVBORw0KGgo="}]"#,
    ),
    row(
        "resources/read",
        Some("test://template/123/data"),
        r#""uri":"test://template/123/data""#,
        200,
        None,
        r#""contents":[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\"}"}]"#,
    ),
    row(
        "resources/read",
        Some("test://nonexistent"),
        r#""uri":"test://nonexistent""#,
        400,
        Some(-32602),
        r#""error":{"code":-32602,"message":"Resource not found","data":{"uri":"test://nonexistent"}}"#,
    ),
    row(
        "resources/read",
        Some("x"),
        r#""uri":1"#,
        400,
        Some(-32020),
        r#""message":"Header mismatch: Mcp-Name disagrees with the body""#,
    ),
    row(
        "resources/list",
        None,
        r#""cursor":"abc""#,
        400,
        Some(-32602),
        r#""message":"Invalid params: only _meta is accepted""#,
    ),
    row(
        "prompts/list",
        None,
        "",
        200,
        None,
        r#""prompts":[{"name":"test_simple_prompt","description":"Simple"},{"name":"test_prompt_with_arguments","arguments":[{"name":"arg1","required":true},{"name":"arg2"}]},{"name":"test_prompt_with_embedded_resource","arguments":[{"name":"resourceUri","required":true}]}],"ttlMs":60000,"cacheScope":"private","#,
    ),
    row(
        "prompts/get",
        Some("test_simple_prompt"),
        r#""name":"test_simple_prompt""#,
        200,
        None,
        r#""result":{"resultType":"complete","description":"Simple","messages":[{"role":"user","content":{"type":"text","text":"Hello"}}],"#,
    ),
    row(
        "prompts/get",
        Some("test_prompt_with_arguments"),
        r#""name":"test_prompt_with_arguments","arguments":{"arg1":"testValue1","arg2":"testValue2"}"#,
        200,
        None,
        r#""messages":[{"role":"user","content":{"type":"text","text":"testValue1 / testValue2"}}]"#,
    ),
    row(
        "prompts/get",
        Some("test_prompt_with_arguments"),
        r#""name":"test_prompt_with_arguments","arguments":{"arg2":"x"}"#,
        400,
        Some(-32602),
        r#""message":"Invalid params: a required prompt argument is missing""#,
    ),
    row(
        "prompts/get",
        Some("test_prompt_with_arguments"),
        r#""name":"test_prompt_with_arguments","arguments":{"arg1":true}"#,
        400,
        Some(-32602),
        r#""message":"Invalid params: prompt arguments must be an object of strings""#,
    ),
    row(
        "prompts/get",
        Some("test_prompt_with_arguments"),
        r#""name":"test_prompt_with_arguments","arguments":["a"]"#,
        400,
        Some(-32602),
        r#""message":"Invalid params: prompt arguments must be an object of strings""#,
    ),
    row(
        "prompts/get",
        Some("nope"),
        r#""name":"nope""#,
        400,
        Some(-32602),
        r#""message":"Invalid params: unknown prompt""#,
    ),
    row(
        "prompts/get",
        Some("test_prompt_with_embedded_resource"),
        r#""name":"test_prompt_with_embedded_resource","arguments":{"resourceUri":"test://example-resource"}"#,
        200,
        None,
        r#""content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"embedded"}}"#,
    ),
    row(
        "completion/complete",
        None,
        r#""ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"test"}"#,
        200,
        None,
        r#""result":{"resultType":"complete","completion":{"values":["test","testing"],"total":2,"hasMore":false},"#,
    ),
    row(
        "completion/complete",
        None,
        r#""ref":{"type":"ref/resource","uri":"test://template/{id}/data"},"argument":{"name":"id","value":"12"}"#,
        200,
        None,
        r#""completion":{"values":["123","124"],"total":2,"hasMore":false}"#,
    ),
    row(
        "completion/complete",
        None,
        r#""ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg2","value":""}"#,
        200,
        None,
        r#""completion":{"values":[],"total":0,"hasMore":false}"#,
    ),
    row(
        "completion/complete",
        None,
        r#""ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"arg1","value":""}"#,
        400,
        Some(-32602),
        r#""message":"Invalid params: unknown completion reference""#,
    ),
    row(
        "completion/complete",
        None,
        r#""ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"}"#,
        400,
        Some(-32602),
        r#""message":"Invalid params: ref and argument (name and value strings) are required""#,
    ),
    row(
        "tools/list",
        None,
        "",
        404,
        Some(-32601),
        r#""message":"Method not found""#,
    ),
    row(
        "subscriptions/listen",
        None,
        "",
        404,
        Some(-32601),
        r#""message":"Method not found""#,
    ),
    row(
        "resources/subscribe",
        None,
        r#""uri":"test://static-text""#,
        404,
        Some(-32601),
        r#""message":"Method not found""#,
    ),
    row(
        "server/discover",
        None,
        "",
        200,
        None,
        r#""capabilities":{"resources":{},"prompts":{},"completions":{}},"ttlMs":0,"cacheScope":"private""#,
    ),
];

#[test]
fn every_row() {
    let engine = Engine::new(CONFIG.as_bytes()).unwrap();
    let mut failures = Vec::new();
    for (i, r) in ROWS.iter().enumerate() {
        let (status, body) = post(&engine, r.method, r.name, r.params);
        let ok = status == r.status && error_code(&body) == r.code && body.contains(r.body);
        let server_meta = r.code.is_some() || body.contains(SERVER);
        if !ok || !server_meta {
            failures.push(format!("row {} {}: {} {}", i, r.method, status, body));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn without_declarations_nothing_new_is_served() {
    let engine = Engine::new(b"{}").unwrap();
    for m in [
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "completion/complete",
    ] {
        let (status, body) = post(&engine, m, None, "");
        assert_eq!((status, error_code(&body)), (404, Some(-32601)), "{}", m);
    }
    let (_, body) = post(&engine, "server/discover", None, "");
    assert!(body.contains(r#""capabilities":{}"#), "{}", body);
}

#[test]
fn completions_are_advertised_only_when_declared() {
    let engine = Engine::new(
        br#"{"prompts":[{"name":"p","arguments":[{"name":"a"}],"messages":[{"role":"user","content":{"type":"text","text":"t"}}]}]}"#,
    )
    .unwrap();
    let (_, body) = post(&engine, "server/discover", None, "");
    assert!(
        body.contains(r#""capabilities":{"prompts":{}}"#),
        "{}",
        body
    );
    let (status, _) = post(&engine, "completion/complete", None, "");
    assert_eq!(status, 404);
}

#[test]
fn list_cache_options() {
    let tools = r#""tools":{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]","tools":[{"name":"t","input":null,"output":null,"handler":{"kind":"javascript"}}],"corpora":{}}"#;
    for (options, expected) in [
        ("", r#""ttlMs":300000,"cacheScope":"private""#),
        (
            r#""listCacheTtlMs":0,"#,
            r#""ttlMs":0,"cacheScope":"private""#,
        ),
        (
            r#""listCacheScope":"public","#,
            r#""ttlMs":300000,"cacheScope":"public""#,
        ),
    ] {
        let engine = Engine::new(format!("{{{}{}}}", options, tools).as_bytes()).unwrap();
        let (_, body) = post(&engine, "tools/list", None, "");
        assert!(body.contains(expected), "{} → {}", options, body);
        let (_, body) = post(&engine, "server/discover", None, "");
        assert!(
            body.contains(r#""ttlMs":0,"cacheScope":"private""#),
            "{}",
            body
        );
    }
    for (options, message) in [
        (
            r#"{"listCacheTtlMs":-1}"#,
            "listCacheTtlMs: must be an integer between 0 and 86400000",
        ),
        (
            r#"{"listCacheTtlMs":86400001}"#,
            "listCacheTtlMs: must be an integer between 0 and 86400000",
        ),
        (
            r#"{"listCacheScope":"shared"}"#,
            "listCacheScope: must be \"private\" or \"public\"",
        ),
    ] {
        assert_eq!(
            Engine::new(options.as_bytes()).err().as_deref(),
            Some(message)
        );
    }
}

#[test]
fn a_static_resource_must_fit_the_response_budget() {
    let text = "x".repeat(2000);
    let config = format!(
        r#"{{"limits":{{"requestBytes":1024,"responseBytes":2048}},"resources":[{{"uri":"a:b","name":"n","text":"{}"}}]}}"#,
        text
    );
    let err = Engine::new(config.as_bytes()).err().unwrap();
    assert!(
        err.starts_with("resources: the resources/read reply exceeds limits.responseBytes by "),
        "{}",
        err
    );
}

/// A manifest with content tools: one static, one JavaScript; content blocks enabled.
fn content_tools(static_result: &str) -> String {
    content_tools_with(r#""contentBlocks":true,"#, static_result)
}

/// The same, with the options `extra` (each followed by a comma) instead.
fn content_tools_with(extra: &str, static_result: &str) -> String {
    let list = r#"[{\"name\":\"test_image_content\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"mixed\",\"inputSchema\":{\"type\":\"object\"}}]"#;
    format!(
        r#"{{{}"tools":{{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"{}","tools":[{{"name":"test_image_content","input":null,"output":null,"content":true,"handler":{{"kind":"static","result":{}}}}},{{"name":"mixed","input":null,"output":null,"content":true,"handler":{{"kind":"javascript"}}}}],"corpora":{{}}}}}}"#,
        extra, list, static_result
    )
}

fn call(engine: &Engine, name: &str) -> pulse_core::Request {
    start(
        engine,
        "tools/call",
        Some(name),
        &format!(r#""name":"{}""#, name),
        "",
        None,
    )
}

#[test]
fn content_tools_send_their_blocks() {
    let image = r#""[{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\",\"mimeType\":\"image/png\",\"extra\":1}]""#;
    let engine = Engine::new(content_tools(image).as_bytes()).unwrap();
    let req = call(&engine, "test_image_content");
    let body = String::from_utf8(req.reply().unwrap().body.clone()).unwrap();
    assert!(
        body.contains(r#""result":{"resultType":"complete","content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"isError":false,"#),
        "{}",
        body
    );
    assert!(!body.contains("structuredContent"));

    for (output, expected) in [
        (
            &br#"[{"type":"text","text":"t"},{"type":"resource","resource":{"uri":"test://r","text":"x"}}]"#[..],
            r#""content":[{"type":"text","text":"t"},{"type":"resource","resource":{"uri":"test://r","text":"x"}}],"isError":false"#,
        ),
        (
            &br#"[{"type":"image","data":"not base64"}]"#[..],
            r#""content":[{"type":"text","text":"Output validation failed"}],"isError":true"#,
        ),
        (&b"[]"[..], r#""text":"Output validation failed"}],"isError":true"#),
        (&br#"{"type":"text","text":"t"}"#[..], r#""text":"Output validation failed"}],"isError":true"#),
    ] {
        let mut req = call(&engine, "mixed");
        assert!(req.effect().is_some());
        assert_eq!(
            req.answer_handler(pulse_core::HandlerAnswer::Output(output), 0.0),
            Action::Respond
        );
        let body = String::from_utf8(req.reply().unwrap().body.clone()).unwrap();
        assert!(body.contains(expected), "{}", body);
    }
}

#[test]
fn content_tool_declarations_are_checked() {
    let bad = r#""[{\"type\":\"image\"}]""#;
    assert_eq!(
        Engine::new(content_tools(bad).as_bytes()).err().as_deref(),
        Some(
            "tools[0] (test_image_content): static content is not an array of valid content blocks"
        )
    );
}

fn call_with_meta(engine: &Engine, name: &str, meta: &str) -> pulse_core::Request {
    start(
        engine,
        "tools/call",
        Some(name),
        &format!(r#""name":"{}""#, name),
        meta,
        None,
    )
}

const TEXT_BLOCK: &str = r#""[{\"type\":\"text\",\"text\":\"x\"}]""#;

#[test]
fn content_blocks_are_opt_in() {
    let refused = r#"tools: tool "test_image_content" returns content blocks; enable them with contentBlocks: true"#;
    for extra in [
        "",
        r#""contentBlocks":false,"#,
        r#""contentBlocks":null,"#,
        r#""legacyProtocol":"2025-06-18","#,
    ] {
        assert_eq!(
            Engine::new(content_tools_with(extra, TEXT_BLOCK).as_bytes())
                .err()
                .as_deref(),
            Some(refused),
            "{extra}"
        );
    }
    assert!(Engine::new(
        content_tools_with(
            r#""legacyProtocol":"2025-06-18","contentBlocks":true,"#,
            TEXT_BLOCK
        )
        .as_bytes()
    )
    .is_ok());
    // Without content tools the option changes nothing.
    assert!(Engine::new(br#"{"contentBlocks":true}"#).is_ok());
    // The JSON-RPC profile returns a content tool's blocks as its plain result: no opt-in there,
    // and the option means nothing.
    assert!(
        Engine::new(content_tools_with(r#""profile":"jsonrpc","#, TEXT_BLOCK).as_bytes()).is_ok()
    );
    assert_eq!(
        Engine::new(
            content_tools_with(r#""profile":"jsonrpc","contentBlocks":true,"#, TEXT_BLOCK)
                .as_bytes()
        )
        .err()
        .as_deref(),
        Some(
            r#"profile: "jsonrpc" returns a content tool's blocks as its result; drop contentBlocks"#
        )
    );
}

#[test]
fn progress_is_opt_in() {
    use pulse_core::progress::Reported;
    for extra in [
        r#""contentBlocks":true,"#,
        r#""contentBlocks":true,"progress":false,"#,
    ] {
        let engine = Engine::new(content_tools_with(extra, TEXT_BLOCK).as_bytes()).unwrap();
        let mut req = call_with_meta(&engine, "mixed", r#","progressToken":"p""#);
        match req.effect() {
            Some(pulse_core::Effect::Handler(h)) => assert!(!h.progress, "{extra}"),
            other => panic!("{:?}", other),
        }
        assert_eq!(req.progress(0.0, Some(3.0), None, 0.0), Reported::Dropped);
        req.answer_handler(
            pulse_core::HandlerAnswer::Output(br#"[{"type":"text","text":"d"}]"#),
            0.0,
        );
        let reply = req.reply().unwrap();
        assert!(reply
            .headers
            .iter()
            .any(|(n, v)| *n == "content-type" && v == "application/json"));
        assert!(reply
            .body
            .starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\""));
    }
    // Accepted beside the legacy profile (its calls never stream) and without tools.
    assert!(Engine::new(br#"{"progress":true,"legacyProtocol":"2025-06-18"}"#).is_ok());
    assert!(Engine::new(br#"{"progress":true}"#).is_ok());
}

#[test]
fn progress_and_content_blocks_options_are_checked() {
    for (cfg, msg) in [
        (
            r#"{"progress":1}"#.to_string(),
            "progress: must be a boolean",
        ),
        (
            r#"{"progress":"true"}"#.to_string(),
            "progress: must be a boolean",
        ),
        (
            r#"{"contentBlocks":"yes"}"#.to_string(),
            "contentBlocks: must be a boolean",
        ),
        (
            r#"{"contentBlocks":{}}"#.to_string(),
            "contentBlocks: must be a boolean",
        ),
        (
            content_tools_with(r#""profile":"jsonrpc","progress":true,"#, TEXT_BLOCK),
            r#"profile: "jsonrpc" answers with one JSON body, never progress; drop progress"#,
        ),
    ] {
        assert_eq!(
            Engine::new(cfg.as_bytes()).err().as_deref(),
            Some(msg),
            "{cfg}"
        );
    }
    // Explicitly off is the default, on every profile.
    assert!(Engine::new(
        content_tools_with(
            r#""profile":"jsonrpc","progress":false,"contentBlocks":false,"#,
            TEXT_BLOCK
        )
        .as_bytes()
    )
    .is_ok());
}

#[test]
fn progress_streams_events_then_the_response() {
    use pulse_core::progress::Reported;
    let engine = Engine::new(
        content_tools_with(r#""contentBlocks":true,"progress":true,"#, TEXT_BLOCK).as_bytes(),
    )
    .unwrap();
    let mut req = call_with_meta(&engine, "mixed", r#","progressToken":"progress-test-1""#);
    match req.effect() {
        Some(pulse_core::Effect::Handler(h)) => assert!(h.progress),
        other => panic!("{:?}", other),
    }
    let first = req.progress(0.0, Some(3.0), None, 0.0);
    assert_eq!(
        first,
        Reported::First(b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"progress-test-1\",\"progress\":0,\"total\":3}}\n\n".to_vec())
    );
    assert!(matches!(
        req.progress(1.0, Some(3.0), Some("half"), 0.0),
        Reported::Next(_)
    ));
    assert_eq!(req.progress(1.0, Some(3.0), None, 0.0), Reported::Dropped);
    let out = br#"[{"type":"text","text":"done"}]"#;
    assert_eq!(
        req.answer_handler(pulse_core::HandlerAnswer::Output(out), 0.0),
        Action::Respond
    );
    let reply = req.reply().unwrap();
    assert_eq!(reply.status, 200);
    assert!(reply
        .headers
        .iter()
        .any(|(n, v)| *n == "content-type" && v == "text/event-stream"));
    let body = String::from_utf8(reply.body.clone()).unwrap();
    assert!(body.starts_with("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]"), "{}", body);
    assert!(body.ends_with("}\n\n"));
    // After the reply, reports are dropped.
    assert_eq!(req.progress(2.0, None, None, 0.0), Reported::Dropped);
}

#[test]
fn without_a_token_or_a_report_the_reply_stays_json() {
    use pulse_core::progress::Reported;
    let engine = Engine::new(
        content_tools_with(r#""contentBlocks":true,"progress":true,"#, TEXT_BLOCK).as_bytes(),
    )
    .unwrap();
    let mut req = call_with_meta(&engine, "mixed", "");
    match req.effect() {
        Some(pulse_core::Effect::Handler(h)) => assert!(!h.progress),
        other => panic!("{:?}", other),
    }
    assert_eq!(req.progress(1.0, None, None, 0.0), Reported::Dropped);
    req.answer_handler(
        pulse_core::HandlerAnswer::Output(br#"[{"type":"text","text":"d"}]"#),
        0.0,
    );
    assert!(req
        .reply()
        .unwrap()
        .headers
        .iter()
        .any(|(n, v)| *n == "content-type" && v == "application/json"));
    // A token but no report: plain JSON as well.
    let mut quiet = call_with_meta(&engine, "mixed", r#","progressToken":5"#);
    quiet.answer_handler(
        pulse_core::HandlerAnswer::Output(br#"[{"type":"text","text":"d"}]"#),
        0.0,
    );
    assert!(quiet.reply().unwrap().body.starts_with(b"{\"jsonrpc\""));
}

#[test]
fn mcp_param_headers_must_agree_with_the_body() {
    let config = r#"{"tools":{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,
      "list":"[{\"name\":\"route\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}}]",
      "tools":[{"name":"route","input":[["string",0,null],["object",0,[["region",0,1]]]],"output":null,"headers":[["region","Region"]],"handler":{"kind":"static"}}],"corpora":{}}}"#;
    let engine = Engine::new(config.as_bytes()).unwrap();
    let send = |arguments: &str, header: Option<&str>| -> (u16, String) {
        let params = format!(r#""name":"route","arguments":{}"#, arguments);
        let line = header.map(|h| ("MCP-PARAM-region", h));
        replied(&start(
            &engine,
            "tools/call",
            Some("route"),
            &params,
            "",
            line,
        ))
    };
    for (arguments, header, status, code) in [
        (
            r#"{"region":"Hello"}"#,
            Some("=?base64?SGVsbG8=?="),
            200,
            None,
        ),
        (r#"{"region":"us-west1"}"#, Some("us-west1"), 200, None),
        ("{}", None, 200, None),
        (
            r#"{"region":"Hello"}"#,
            Some("=?base64?SGVsbG8?="),
            400,
            Some(-32020),
        ),
        (
            r#"{"region":"Hello"}"#,
            Some("=?base64?SGV*bG8=?="),
            400,
            Some(-32020),
        ),
        (r#"{"region":"Hello"}"#, None, 400, Some(-32020)),
        ("{}", Some("Hello"), 400, Some(-32020)),
        (r#"{"region":"Hello"}"#, Some("World"), 400, Some(-32020)),
    ] {
        let (s, body) = send(arguments, header);
        assert_eq!(
            (s, error_code(&body)),
            (status, code),
            "{} {:?}: {}",
            arguments,
            header,
            body
        );
        if code.is_some() {
            assert!(
                body.contains("an Mcp-Param header disagrees with the body"),
                "{}",
                body
            );
        }
    }
}

/// The server card: served only when configured, GET only, public and cacheable, with the
/// endpoint, capabilities and tools; nothing else changes.
#[test]
fn server_card_is_opt_in_and_cacheable() {
    let card_config = CONFIG.replacen('{', r#"{"serverCard": true,"#, 1);
    let engine = Engine::new(card_config.as_bytes()).unwrap();
    let fetch = |engine: &Engine, method: &[u8], target: &[u8]| {
        let mut req = engine.request(0.0);
        assert_eq!(
            req.head(method, target, Vec::<(&str, &str)>::new(), 0.0),
            Action::Respond
        );
        req.reply().unwrap().clone()
    };
    let r = fetch(&engine, b"GET", b"/.well-known/mcp/server-card.json");
    assert_eq!(r.status, 200);
    let header = |r: &pulse_core::reply::Reply, name: &str| {
        r.headers
            .iter()
            .find(|h| h.0 == name)
            .map(|h| h.1.to_string())
    };
    assert_eq!(
        header(&r, "cache-control").as_deref(),
        Some("public, max-age=300")
    );
    assert_eq!(
        header(&r, "content-type").as_deref(),
        Some("application/json")
    );
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert_eq!(
        body,
        r#"{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"s","version":"1","protocolVersion":"2026-07-28","serverInfo":{"name":"s","version":"1"},"transport":{"type":"streamable-http","endpoint":"/mcp"},"capabilities":{"resources":{},"prompts":{},"completions":{}},"tools":[]}"#
    );
    // A query does not change the resource; other methods are refused.
    assert_eq!(
        fetch(&engine, b"GET", b"/.well-known/mcp/server-card.json?x=1").status,
        200
    );
    let post = fetch(&engine, b"POST", b"/.well-known/mcp/server-card.json");
    assert_eq!(
        (post.status, header(&post, "allow").as_deref()),
        (405, Some("GET"))
    );
    // MCP replies stay no-store.
    let (status, _) = post_discover(&engine);
    assert_eq!(status, 200);

    let plain = Engine::new(CONFIG.as_bytes()).unwrap();
    assert_eq!(
        fetch(&plain, b"GET", b"/.well-known/mcp/server-card.json").status,
        404
    );
    let long_name = format!(
        r#"{{"serverCard":true,"serverInfo":{{"name":"{0}","version":"{0}"}},"limits":{{"requestBytes":16,"responseBytes":528}}}}"#,
        "n".repeat(128)
    );
    for (cfg, why) in [
        (r#"{"serverCard":"yes"}"#, "serverCard: must be a boolean"),
        (
            long_name.as_str(),
            "serverCard: the server card reply exceeds limits.responseBytes",
        ),
    ] {
        match Engine::new(cfg.as_bytes()) {
            Err(e) => assert!(e.starts_with(why), "{cfg}: {e}"),
            Ok(_) => panic!("{cfg} accepted"),
        }
    }
}

fn post_discover(engine: &Engine) -> (u16, String) {
    post(engine, "server/discover", None, "")
}
