//! Outbound instructions (docs/contracts.md §3.3) and the answers hosts resume with.
use crate::json::{self, write, Document, Value};
use crate::manifest::Backend;

pub const HANDLER_FAILED: &str = "Tool execution failed";

/// `{"kind":"handler","op":…,"input":…,"timeoutMs":n}`; `input` is omitted for a tool without
/// input, so the handler gets no params.
pub fn handler(op: &str, input: Option<&[u8]>, timeout_ms: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + op.len() + input.map_or(0, |i| i.len()));
    out.extend_from_slice(b"{\"kind\":\"handler\",\"op\":");
    write::string(&mut out, op);
    if let Some(input) = input {
        out.extend_from_slice(b",\"input\":");
        out.extend_from_slice(input);
    }
    out.extend_from_slice(format!(",\"timeoutMs\":{}}}", timeout_ms).as_bytes());
    out
}

/// One governed HTTP call; the body is the canonical decoded input, sent as JSON.
pub fn backend(b: &Backend, body: Option<&[u8]>, max_bytes: usize, timeout_ms: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(192 + b.url.len() + body.map_or(0, |x| x.len() * 2));
    out.extend_from_slice(b"{\"kind\":\"backend\",\"backend\":");
    write::string(&mut out, &b.backend);
    out.extend_from_slice(b",\"method\":");
    write::string(&mut out, b.method);
    out.extend_from_slice(b",\"url\":");
    write::string(&mut out, &b.url);
    match body {
        Some(body) => {
            out.extend_from_slice(b",\"headers\":[[\"content-type\",\"application/json\"],[\"accept\",\"application/json\"]],\"body\":");
            // Canonical JSON is valid UTF-8 by construction.
            write::string(&mut out, &String::from_utf8_lossy(body));
        }
        None => {
            out.extend_from_slice(b",\"headers\":[[\"accept\",\"application/json\"]],\"body\":\"\"")
        }
    }
    out.extend_from_slice(
        format!(",\"maxBytes\":{},\"timeoutMs\":{}}}", max_bytes, timeout_ms).as_bytes(),
    );
    out
}

/// The answer to a handler CALL.
pub enum HandlerAnswer {
    /// The parsed payload; the output is its `output` member (absent reads as null).
    Ok(Document),
    Failed,
}

/// The answer to a backend CALL.
pub enum BackendAnswer {
    Ok {
        status: u16,
        body: String,
    },
    Timeout,
    /// `refused`, `oversized` or any other failure reason.
    Failed,
}

/// `None`: the payload is not a well-formed answer (a host bug).
pub fn parse_handler(payload: &[u8], depth: u32) -> Option<HandlerAnswer> {
    let doc = json::parse(payload, depth.saturating_add(1)).ok()?;
    let ok = doc.root().as_object()?.get("ok")?.as_bool()?;
    Some(if ok {
        HandlerAnswer::Ok(doc)
    } else {
        HandlerAnswer::Failed
    })
}

pub fn handler_output(doc: &Document) -> Value<'_> {
    doc.root()
        .as_object()
        .and_then(|o| o.get("output"))
        .unwrap_or(Value::Null)
}

pub fn parse_backend(payload: &[u8]) -> Option<BackendAnswer> {
    let doc = json::parse(payload, 2).ok()?;
    let o = doc.root().as_object()?;
    if o.get("ok")?.as_bool()? {
        let status = o
            .get("status")?
            .as_number()?
            .as_safe_integer()
            .filter(|s| (100..=599).contains(s))? as u16;
        let body = o.get("body")?.as_string()?.as_str().into_owned();
        Some(BackendAnswer::Ok { status, body })
    } else {
        match o.get("reason") {
            Some(Value::String(r)) if r.eq_str("timeout") => Some(BackendAnswer::Timeout),
            _ => Some(BackendAnswer::Failed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_have_the_contract_shape() {
        assert_eq!(
            handler("a.b", Some(br#"{"x":1}"#), 250),
            br#"{"kind":"handler","op":"a.b","input":{"x":1},"timeoutMs":250}"#
        );
        assert_eq!(
            handler("a", None, 1),
            br#"{"kind":"handler","op":"a","timeoutMs":1}"#
        );
        let b = Backend {
            backend: "api".into(),
            method: "POST",
            url: "https://api.example/v1".into(),
            max_bytes: 10,
            timeout_ms: 5.0,
        };
        assert_eq!(
            String::from_utf8(backend(&b, Some(br#"{"q":"\""}"#), 10, 5)).unwrap(),
            r#"{"kind":"backend","backend":"api","method":"POST","url":"https://api.example/v1","headers":[["content-type","application/json"],["accept","application/json"]],"body":"{\"q\":\"\\\"\"}","maxBytes":10,"timeoutMs":5}"#
        );
        assert!(String::from_utf8(backend(&b, None, 10, 5))
            .unwrap()
            .contains(r#""headers":[["accept","application/json"]],"body":"""#));
    }

    #[test]
    fn answers_parse() {
        assert!(matches!(
            parse_backend(br#"{"ok":true,"status":200,"body":"{}"}"#),
            Some(BackendAnswer::Ok { status: 200, .. })
        ));
        assert!(matches!(
            parse_backend(br#"{"ok":false,"reason":"timeout"}"#),
            Some(BackendAnswer::Timeout)
        ));
        assert!(matches!(
            parse_backend(br#"{"ok":false,"reason":"refused"}"#),
            Some(BackendAnswer::Failed)
        ));
        assert!(parse_backend(br#"{"ok":true,"status":99,"body":""}"#).is_none());
        assert!(parse_backend(b"nope").is_none());
        match parse_handler(br#"{"ok":true,"output":[1]}"#, 4) {
            Some(HandlerAnswer::Ok(doc)) => assert!(handler_output(&doc).as_array().is_some()),
            _ => panic!("expected ok"),
        }
        assert!(matches!(
            parse_handler(br#"{"ok":false}"#, 4),
            Some(HandlerAnswer::Failed)
        ));
        assert!(parse_handler(br#"{"output":1}"#, 4).is_none());
    }
}
