//! Catalog-backed tools: the one JSON-RPC 2.0 request the core sends to a governed backend (the
//! `jsonRpc(router)` wire, served by `jsonrpc.rs` on the other end) and the judgement of its reply.
//! The backend owns admission, effects and output encoding; this side checks the framing and the
//! output structure, and forwards nothing the backend says but the result value: its error
//! messages and data never reach the client.
pub use crate::decl::{valid_bearer, MAX_BEARER};
use crate::effect::{Effect, HttpEffect, HttpMethod};
use crate::errors::{EXECUTION_FAILED, INVALID_PARAMS};
use crate::json::{write, Value};
use crate::manifest::Backend;

/// One request per HTTP exchange: a fixed id is enough to refuse a reply to some other request.
pub const REQUEST_ID: i64 = 1;
/// The request for operation `method`; `params` is the canonical decoded input, absent for an
/// operation without input (the backend then gets no `params` member). Only the backend's own
/// bearer travels with it.
pub fn request(b: &Backend, method: &str, params: Option<Vec<u8>>, timeout_ms: u64) -> Effect {
    let mut body = Vec::with_capacity(64 + method.len() + params.as_ref().map_or(0, |p| p.len()));
    body.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    write::integer(&mut body, REQUEST_ID);
    body.extend_from_slice(b",\"method\":");
    write::string(&mut body, method);
    if let Some(p) = params {
        body.extend_from_slice(b",\"params\":");
        body.extend_from_slice(&p);
    }
    body.push(b'}');
    let mut headers = vec![
        ("content-type", "application/json".to_string()),
        ("accept", "application/json".to_string()),
    ];
    if let Some(token) = &b.bearer {
        headers.push(("authorization", format!("Bearer {}", token)));
    }
    Effect::Http(HttpEffect {
        backend: b.backend.clone(),
        method: HttpMethod::Post,
        url: b.url.clone(),
        headers,
        body: Some(body),
        max_bytes: b.max_bytes,
        timeout_ms,
        cache_key: None,
    })
}

/// What a well-framed reply says.
pub enum Reply<'a> {
    Result(Value<'a>),
    /// The backend refused the input (its own validation, beyond the structure checked here).
    InvalidParams,
    /// The handler or the backend's output validation failed: one code for both, by design.
    ExecutionFailed,
}

/// The HTTP statuses whose bodies are JSON-RPC replies: a result or an execution failure (200),
/// invalid params (400). Anything else, 404 `-32601` included (the backend does not know the
/// operation: the catalog and the backend disagree), is not a reply this side accepts.
pub fn reads_body(status: u16) -> bool {
    status == 200 || status == 400
}

/// Judges a parsed reply body that came with `status`; `None` is a framing failure.
pub fn reply(status: u16, root: Value<'_>) -> Option<Reply<'_>> {
    let o = root.as_object()?;
    let allowed = ["jsonrpc", "id", "result", "error"];
    if !o.iter().all(|(k, _)| allowed.iter().any(|a| k.eq_str(a))) {
        return None;
    }
    if !matches!(o.get("jsonrpc"), Some(Value::String(s)) if s.eq_str("2.0")) {
        return None;
    }
    let id = o.get("id")?.as_number()?.as_safe_integer()?;
    if id != REQUEST_ID {
        return None;
    }
    match (o.get("result"), o.get("error")) {
        (Some(v), None) if status == 200 => Some(Reply::Result(v)),
        (None, Some(e)) => {
            let e = e.as_object()?;
            if !e
                .iter()
                .all(|(k, _)| k.eq_str("code") || k.eq_str("message") || k.eq_str("data"))
                || !matches!(e.get("message"), Some(Value::String(_)))
            {
                return None;
            }
            match (status, e.get("code")?.as_number()?.as_safe_integer()?) {
                (200, c) if c == EXECUTION_FAILED as i64 => Some(Reply::ExecutionFailed),
                (400, c) if c == INVALID_PARAMS as i64 => Some(Reply::InvalidParams),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn api(bearer: Option<&str>) -> Backend {
        Backend {
            backend: "endpoint".into(),
            method: HttpMethod::Post,
            url: "http://127.0.0.1:4000/".into(),
            max_bytes: 100,
            timeout_ms: 1000.0,
            bearer: bearer.map(str::to_string),
        }
    }

    #[test]
    fn requests_name_the_operation_and_carry_params_only_with_input() {
        let h = match request(
            &api(Some("s3cr.et")),
            "notes.read",
            Some(br#"{"id":"a"}"#.to_vec()),
            250,
        ) {
            Effect::Http(h) => h,
            _ => panic!("expected an HTTP effect"),
        };
        assert_eq!(
            String::from_utf8(h.body.unwrap()).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"method":"notes.read","params":{"id":"a"}}"#
        );
        assert_eq!(
            (h.method, h.url.as_str(), h.max_bytes, h.timeout_ms),
            (HttpMethod::Post, "http://127.0.0.1:4000/", 100, 250)
        );
        assert_eq!(
            h.headers,
            vec![
                ("content-type", "application/json".to_string()),
                ("accept", "application/json".to_string()),
                ("authorization", "Bearer s3cr.et".to_string()),
            ]
        );
        let bare = match request(&api(None), "status", None, 5) {
            Effect::Http(h) => h,
            _ => panic!("expected an HTTP effect"),
        };
        assert_eq!(
            String::from_utf8(bare.body.unwrap()).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"method":"status"}"#
        );
        assert!(bare.headers.iter().all(|(k, _)| *k != "authorization"));
    }

    #[test]
    fn bearer_tokens_are_b64token() {
        for ok in ["a", "abc.DEF-_~+/", "tok==", &"x".repeat(MAX_BEARER)] {
            assert!(valid_bearer(ok), "{}", ok);
        }
        for bad in [
            "",
            "=",
            "a b",
            "a\r\nX: y",
            "tök",
            "a=b",
            &"x".repeat(MAX_BEARER + 1),
        ] {
            assert!(!valid_bearer(bad), "{:?}", bad);
        }
    }

    #[test]
    fn replies_follow_the_backend_wire() {
        let cases: &[(u16, &str, Option<&str>)] = &[
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#,
                Some("result"),
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"result":null}"#,
                Some("result"),
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Execution failed"}}"#,
                Some("failed"),
            ),
            (
                400,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"path":"$.a","reason":"x"}}}"#,
                Some("params"),
            ),
            // Framing failures.
            (200, r#"{"jsonrpc":"2.0","id":2,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":"1","result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":null,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":1.5,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":[1],"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":0,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":-1,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":true,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":{},"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":"","result":1}"#, None),
            // The request's id is written `1`: another spelling of one is another id.
            (200, r#"{"jsonrpc":"2.0","id":1.0,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":1e0,"result":1}"#, None),
            (
                200,
                r#"{"jsonrpc":"2.0","id":9007199254740993,"result":1}"#,
                None,
            ),
            // The error replies are held to the same id.
            (
                200,
                r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32000,"message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"x"}}"#,
                None,
            ),
            (
                400,
                r#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"x"}}"#,
                None,
            ),
            (
                400,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"x"}}"#,
                None,
            ),
            (
                400,
                r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32602,"message":"x"}}"#,
                None,
            ),
            (
                400,
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"x"}}"#,
                None,
            ),
            (200, r#"{"jsonrpc":2,"id":1,"result":1}"#, None),
            (200, r#"{"jsonrpc":"1.0","id":1,"result":1}"#, None),
            (200, r#"{"id":1,"result":1}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":1}"#, None),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":-32000,"message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"result":1,"extra":true}"#,
                None,
            ),
            (200, r#"[{"jsonrpc":"2.0","id":1,"result":1}]"#, None),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":1}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":"-32000","message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000.5,"message":"x"}}"#,
                None,
            ),
            (200, r#"{"jsonrpc":"2.0","id":1,"error":"x"}"#, None),
            (200, r#"{"jsonrpc":"2.0","id":1,"error":null}"#, None),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x","stack":"y"}}"#,
                None,
            ),
            // A code that does not belong with its status, or that no backend outcome has.
            (
                400,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}"#,
                None,
            ),
            (400, r#"{"jsonrpc":"2.0","id":1,"result":1}"#, None),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
                None,
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}"#,
                None,
            ),
        ];
        for (status, text, want) in cases {
            let doc = parse(text.as_bytes(), 32).unwrap();
            let got = reply(*status, doc.root()).map(|r| match r {
                Reply::Result(_) => "result",
                Reply::InvalidParams => "params",
                Reply::ExecutionFailed => "failed",
            });
            assert_eq!(got, *want, "{} {}", status, text);
        }
        assert!(reads_body(200) && reads_body(400));
        assert!(!reads_body(404) && !reads_body(302) && !reads_body(500) && !reads_body(204));
    }
}
