//! `cors: true`: what the configuration requires, the preflight's header list with declared
//! `Mcp-Param-*` headers, and the event-stream head. The status and header rows of every host are in
//! the outcome table (spec/outcomes.rows.ts).
use pulse_core::{Action, Engine};

/// Two tools; `region` is declared by both (listed once), `tenant` by one.
const TOOLS: &str = r#""tools":{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,
  "list":"[{\"name\":\"route\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}},{\"name\":\"pick\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"tenant\":{\"type\":\"string\",\"x-mcp-header\":\"Tenant\"},\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}}]",
  "tools":[
    {"name":"route","input":[["string",0,null],["object",0,[["region",0,1]]]],"output":null,"headers":[["region","Region"]],"handler":{"kind":"static"}},
    {"name":"pick","input":[["string",0,null],["object",0,[["tenant",0,1],["region",0,1]]]],"output":null,"headers":[["tenant","Tenant"],["region","REGION"]],"handler":{"kind":"static"}}
  ],"corpora":{}}"#;

fn headers(req: &pulse_core::Request) -> Vec<(String, String)> {
    req.reply()
        .unwrap()
        .headers
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn cors_needs_allowed_origins_and_a_boolean() {
    for config in [r#"{"cors":true}"#, r#"{"cors":true,"allowedOrigins":[]}"#] {
        assert_eq!(
            Engine::new(config.as_bytes()).err().unwrap(),
            "cors: needs allowedOrigins, the exact origins browser clients may call from"
        );
    }
    assert_eq!(
        Engine::new(br#"{"cors":"yes","allowedOrigins":["https://app.example"]}"#)
            .err()
            .unwrap(),
        "cors: must be a boolean"
    );
    assert!(Engine::new(br#"{"cors":false}"#).is_ok());
    assert!(Engine::new(br#"{"cors":null}"#).is_ok());
}

#[test]
fn preflight_lists_every_declared_param_header_once() {
    let config = format!(r#"{{"cors":true,"allowedOrigins":["http://127.0.0.1:8080"],{TOOLS}}}"#);
    let engine = Engine::new(config.as_bytes()).unwrap();
    let mut req = engine.request(0.0);
    let lines = [
        ("origin", "http://127.0.0.1:8080"),
        ("access-control-request-method", "POST"),
    ];
    assert_eq!(req.head(b"OPTIONS", b"/mcp", lines, 0.0), Action::Respond);
    let reply = req.reply().unwrap();
    assert_eq!(
        (reply.status, reply.close, reply.body.is_empty()),
        (204, true, true)
    );
    assert_eq!(
        headers(&req),
        pairs(&[
            ("cache-control", "no-store"),
            ("access-control-allow-methods", "POST"),
            ("access-control-allow-headers", "content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, mcp-param-tenant"),
            ("access-control-max-age", "7200"),
            ("access-control-allow-origin", "http://127.0.0.1:8080"),
            ("access-control-expose-headers", "www-authenticate"),
            ("vary", "Origin"),
        ])
    );
}

#[test]
fn the_event_stream_head_names_the_listed_origin_only() {
    let engine = Engine::new(br#"{"cors":true,"allowedOrigins":["https://app.example"]}"#).unwrap();
    let post = |origin: Option<&str>| {
        let mut lines = vec![
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
        ];
        lines.extend(origin.map(|o| ("origin", o)));
        let mut req = engine.request(0.0);
        assert_eq!(req.head(b"POST", b"/mcp", lines, 0.0), Action::Continue);
        req.stream_head()
            .headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };
    let stream = [
        ("content-type", "text/event-stream"),
        ("cache-control", "no-store"),
        ("x-accel-buffering", "no"),
    ];
    let mut listed = stream.to_vec();
    listed.extend([
        ("access-control-allow-origin", "https://app.example"),
        ("access-control-expose-headers", "www-authenticate"),
        ("vary", "Origin"),
    ]);
    assert_eq!(post(Some("https://app.example")), pairs(&listed));
    assert_eq!(post(None), pairs(&stream));
}

#[test]
fn the_401_challenge_is_readable_by_the_listed_origin() {
    let engine = Engine::new(
        br#"{"cors":true,"allowedOrigins":["https://app.example"],"authorization":{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/introspect","clientId":"rs","clientSecret":"rs-secret","scopes":["mcp:access"]}}"#,
    )
    .unwrap();
    let mut req = engine.request(0.0);
    let lines = [
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("origin", "https://app.example"),
    ];
    assert_eq!(req.head(b"POST", b"/mcp", lines, 0.0), Action::Respond);
    assert_eq!(req.reply().unwrap().status, 401);
    let got = headers(&req);
    assert_eq!(
        got[got.len() - 4..],
        pairs(&[
            ("www-authenticate", "Bearer resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:access\""),
            ("access-control-allow-origin", "https://app.example"),
            ("access-control-expose-headers", "www-authenticate"),
            ("vary", "Origin"),
        ])
    );
}
