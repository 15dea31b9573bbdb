//! Token introspection: a fuzzed bearer and a fuzzed introspection answer (status and body). A
//! request goes on to its body only when an independent reading of the claims (serde_json) says
//! every rule holds; every other answer is a fixed refusal that echoes nothing it was sent.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pulse_core::effect::{Effect, HttpAnswer};
use pulse_core::engine::{Action, Engine};
use pulse_core_fuzz::oracle;
use serde_json::Value;

const NOW_S: i64 = 1_780_000_000;
const ISSUER: &str = "https://id.example";
const RESOURCE: &str = "https://mcp.example/mcp";

fn engine() -> Engine {
    let config = format!(
        r#"{{"authorization":{{"resource":"{}","issuer":"{}","introspectionEndpoint":"{}/introspect","clientId":"rs","clientSecret":"s3cret","scopes":["mcp:access"]}}}}"#,
        RESOURCE, ISSUER, ISSUER
    );
    Engine::new(config.as_bytes()).expect("valid configuration")
}

/// The rules, read independently of the core.
fn grants(status: u16, body: &[u8]) -> bool {
    if !(200..300).contains(&status) || body.len() > 16 * 1024 {
        return false;
    }
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    // Well-formed as the core reads JSON (no duplicate key, at most 8 levels), then its claims.
    if !matches!(oracle(body), Some(v) if v.depth() <= 8) {
        return false;
    }
    let v: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(_) => return false,
    };
    let c = match v.as_object() {
        Some(c) => c,
        None => return false,
    };
    // NumericDate: a non-negative integer literal within 2^53.
    let int = |v: &Value| match v {
        Value::Number(n) => n.as_u64().filter(|&i| i < 1 << 53).map(|i| i as i64),
        _ => None,
    };
    let scope = c.get("scope").and_then(Value::as_str);
    c.get("active") == Some(&Value::Bool(true))
        && c.get("iss").and_then(Value::as_str) == Some(ISSUER)
        && match c.get("aud") {
            Some(Value::String(s)) => s == RESOURCE,
            Some(Value::Array(a)) => a.iter().any(|x| x.as_str() == Some(RESOURCE)),
            _ => false,
        }
        && c.get("exp").and_then(int).map_or(false, |e| e > NOW_S)
        && c.get("sub").and_then(Value::as_str).map_or(false, |s| !s.is_empty())
        && scope.map_or(false, |s| !s.starts_with(' ') && !s.ends_with(' ') && !s.contains("  ") && s.split(' ').any(|t| t == "mcp:access"))
        && c.get("nbf").map_or(true, |n| int(n).map_or(false, |n| n <= NOW_S))
        && c.get("token_type").map_or(true, |t| t.as_str().map_or(false, |t| t.eq_ignore_ascii_case("bearer")))
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let status = u16::from_le_bytes([data[0], data[1]]) % 600;
    let split = (data[2] as usize).min(data.len() - 3);
    let (token, body) = data[3..].split_at(split);
    let e = engine();
    let mut r = e.request_at(0.0, NOW_S as f64 * 1000.0);
    let mut auth = b"Bearer ".to_vec();
    auth.extend_from_slice(token);
    let headers: [(&[u8], &[u8]); 3] = [
        (b"accept", b"application/json, text/event-stream"),
        (b"content-type", b"application/json"),
        (b"authorization", &auth),
    ];
    match r.head(b"POST", b"/mcp", headers, 0.0) {
        Action::Perform => {}
        Action::Respond => {
            // Refused before asking: the token is not a bearer token; nothing of it is echoed.
            let reply = r.reply().expect("a reply");
            assert!(reply.status == 401, "head refusal {}", reply.status);
            return;
        }
        other => panic!("head answered {:?}", other),
    }
    match r.effect() {
        Some(Effect::Http(h)) => assert!(h.url.ends_with("/introspect") && h.headers.iter().all(|(_, v)| !v.contains("s3cret"))),
        _ => panic!("no introspection effect"),
    }
    let action = r.answer_http(HttpAnswer::Response { status, body }, 1.0);
    let expected = grants(status, body);
    assert_eq!(action == Action::Continue, expected, "status {} body {:?}", status, String::from_utf8_lossy(body));
    if action == Action::Respond {
        let reply = r.reply().expect("a reply");
        assert!(matches!(reply.status, 401 | 403 | 503), "status {}", reply.status);
        let text = String::from_utf8_lossy(&reply.body);
        assert!(text.starts_with("{\"error"), "{}", text);
        for (_, v) in &reply.headers {
            assert!(!v.contains("id.example"), "issuer in a header");
        }
    }
});
