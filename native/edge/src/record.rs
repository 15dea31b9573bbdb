//! Byte formats between Compute and the core, free of hostcalls so they test on any target:
//! the head record (docs/contracts.md §3.1), the response record (§3.2), backend instructions and
//! the payloads that answer them (§3.3).
use pulse_core::json::{self, write, Value};

/// What a host answers on its own when the core misbehaves (the TypeScript hosts send the same).
pub const INTERNAL_STATUS: u16 = 500;
pub const INTERNAL_HEADERS: [(&str, &str); 2] = [
    ("content-type", "application/json"),
    ("cache-control", "no-store"),
];
pub const INTERNAL_BODY: &[u8] =
    br#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}"#;

pub const TIMEOUT: &[u8] = br#"{"ok":false,"reason":"timeout"}"#;
pub const REFUSED: &[u8] = br#"{"ok":false,"reason":"refused"}"#;
pub const OVERSIZED: &[u8] = br#"{"ok":false,"reason":"oversized"}"#;
/// A JavaScript handler cannot run in a Native service.
pub const HANDLER_UNAVAILABLE: &[u8] = br#"{"ok":false}"#;

/// Compute hands the guest an absolute URL; the core wants the raw path plus query.
pub fn request_target(uri: &str) -> String {
    let rest = match uri.find("://") {
        Some(i) => &uri[i + 3..],
        None => return uri.to_string(),
    };
    match rest.find(&['/', '?'][..]) {
        Some(j) if rest.as_bytes()[j] == b'/' => rest[j..].to_string(),
        Some(j) => format!("/{}", &rest[j..]),
        None => "/".to_string(),
    }
}

/// Appends one `name: value` line of the head record; repeated names stay separate lines (the core
/// joins them, as it does for the Node host's raw headers).
pub fn head_line(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

pub fn head_start(method: &[u8], target: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(method);
    out.push(b' ');
    out.extend_from_slice(target.as_bytes());
    out.extend_from_slice(b"\r\n");
    out
}

pub struct Record<'a> {
    pub status: u16,
    pub headers: Vec<(&'a [u8], &'a [u8])>,
    pub body: &'a [u8],
}

fn line(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = bytes.windows(2).position(|w| w == b"\r\n")?;
    Some((&bytes[..at], &bytes[at + 2..]))
}

/// Parses a response record; `None` means the core broke its contract (the host answers 500).
pub fn parse_response(rec: &[u8]) -> Option<Record<'_>> {
    let (status_line, mut rest) = line(rec)?;
    let status: u16 = std::str::from_utf8(status_line).ok()?.parse().ok()?;
    if !(100..=999).contains(&status) {
        return None;
    }
    let mut headers = Vec::new();
    loop {
        let (l, after) = line(rest)?;
        rest = after;
        if l.is_empty() {
            break;
        }
        let colon = l.iter().position(|&b| b == b':')?;
        let value = l[colon + 1..].strip_prefix(b" ").unwrap_or(&l[colon + 1..]);
        headers.push((&l[..colon], value));
    }
    Some(Record {
        status,
        headers,
        body: rest,
    })
}

/// A `{"kind":"backend"}` instruction.
#[derive(Debug, PartialEq)]
pub struct BackendCall {
    pub backend: String,
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub max_bytes: usize,
    pub timeout_ms: f64,
}

#[derive(Debug, PartialEq)]
pub enum Instruction {
    Backend(BackendCall),
    /// Handler calls and anything this host does not perform.
    Unavailable {
        backend_shaped: bool,
    },
}

fn positive(v: Option<Value<'_>>) -> f64 {
    match v {
        Some(Value::Number(n)) if n.as_f64().is_finite() && n.as_f64() > 0.0 => n.as_f64(),
        _ => 0.0,
    }
}

/// Reads an outbound instruction. Malformed backend instructions are refused, never guessed at.
pub fn parse_instruction(bytes: &[u8]) -> Instruction {
    let doc = match json::parse(bytes, 8) {
        Ok(d) => d,
        Err(_) => {
            return Instruction::Unavailable {
                backend_shaped: false,
            }
        }
    };
    let obj = match doc.root() {
        Value::Object(o) => o,
        _ => {
            return Instruction::Unavailable {
                backend_shaped: false,
            }
        }
    };
    let kind_is = |k: &str| matches!(obj.get("kind"), Some(Value::String(s)) if s.eq_str(k));
    if !kind_is("backend") {
        return Instruction::Unavailable {
            backend_shaped: false,
        };
    }
    let text = |key: &str| match obj.get(key) {
        Some(Value::String(s)) => Some(s.as_str().into_owned()),
        _ => None,
    };
    let (backend, method, url) = match (text("backend"), text("method"), text("url")) {
        (Some(b), Some(m), Some(u)) => (b, m, u),
        _ => {
            return Instruction::Unavailable {
                backend_shaped: true,
            }
        }
    };
    let mut headers = Vec::new();
    if let Some(Value::Array(list)) = obj.get("headers") {
        for pair in list.iter() {
            if let Value::Array(p) = pair {
                if let (Some(Value::String(n)), Some(Value::String(v))) = (p.get(0), p.get(1)) {
                    headers.push((n.as_str().into_owned(), v.as_str().into_owned()));
                }
            }
        }
    }
    Instruction::Backend(BackendCall {
        backend,
        method,
        url,
        headers,
        body: text("body"),
        max_bytes: positive(obj.get("maxBytes")) as usize,
        timeout_ms: positive(obj.get("timeoutMs")),
    })
}

/// `{"ok":true,"status":n,"body":"…"}`; a body that is not UTF-8 is refused, a leading BOM dropped
/// (what the TypeScript hosts' fatal `TextDecoder` does).
pub fn backend_ok(status: u16, body: &[u8]) -> Vec<u8> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(_) => return REFUSED.to_vec(),
    };
    let mut out = Vec::with_capacity(text.len() + 40);
    out.extend_from_slice(b"{\"ok\":true,\"status\":");
    out.extend_from_slice(status.to_string().as_bytes());
    out.extend_from_slice(b",\"body\":");
    write::string(&mut out, text);
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_is_path_and_query() {
        assert_eq!(request_target("http://127.0.0.1:7676/mcp?x=1"), "/mcp?x=1");
        assert_eq!(request_target("https://h.example"), "/");
        assert_eq!(request_target("https://h.example?q"), "/?q");
        assert_eq!(request_target("/raw"), "/raw");
    }

    #[test]
    fn head_record_lines() {
        let mut h = head_start(b"POST", "/mcp");
        head_line(&mut h, b"accept", b"a");
        head_line(&mut h, b"accept", b"b");
        assert_eq!(h, b"POST /mcp\r\naccept: a\r\naccept: b\r\n");
    }

    #[test]
    fn response_record_round_trip() {
        let r = parse_response(b"202\r\ncontent-type: application/json\r\nx: \r\n\r\n{}")
            .expect("valid");
        assert_eq!(r.status, 202);
        assert_eq!(
            r.headers,
            vec![
                (&b"content-type"[..], &b"application/json"[..]),
                (&b"x"[..], &b""[..])
            ]
        );
        assert_eq!(r.body, b"{}");
        assert!(parse_response(b"20x\r\n\r\n").is_none());
        assert!(parse_response(b"200\r\nbroken").is_none());
        assert!(parse_response(b"200\r\nno-colon\r\n\r\n").is_none());
    }

    #[test]
    fn backend_instruction() {
        let i = parse_instruction(br#"{"kind":"backend","backend":"origin","method":"POST","url":"http://127.0.0.1:1/a","headers":[["content-type","application/json"]],"body":"{}","maxBytes":10,"timeoutMs":250}"#);
        assert_eq!(
            i,
            Instruction::Backend(BackendCall {
                backend: "origin".into(),
                method: "POST".into(),
                url: "http://127.0.0.1:1/a".into(),
                headers: vec![("content-type".into(), "application/json".into())],
                body: Some("{}".into()),
                max_bytes: 10,
                timeout_ms: 250.0,
            })
        );
        assert_eq!(
            parse_instruction(br#"{"kind":"handler","op":"x"}"#),
            Instruction::Unavailable {
                backend_shaped: false
            }
        );
        assert_eq!(
            parse_instruction(br#"{"kind":"backend","method":"GET"}"#),
            Instruction::Unavailable {
                backend_shaped: true
            }
        );
    }

    #[test]
    fn backend_payloads() {
        assert_eq!(
            backend_ok(200, b"\xEF\xBB\xBFhi\""),
            br#"{"ok":true,"status":200,"body":"hi\""}"#.to_vec()
        );
        assert_eq!(backend_ok(200, b"\xff"), REFUSED.to_vec());
    }
}
