//! The effects the tools pipeline asks hosts to perform: a JavaScript handler run, or one governed
//! HTTP call to a declared backend.
use crate::effect::{Effect, HandlerEffect, HttpEffect, HttpMethod};
use crate::manifest::Backend;

pub const HANDLER_FAILED: &str = "Tool execution failed";

/// Runs operation `op`'s JavaScript handler; `input` is absent for a tool without input, so the
/// handler gets no params.
pub fn handler(
    op: &str,
    input: Option<Vec<u8>>,
    input_responses: Option<Vec<u8>>,
    timeout_ms: u64,
) -> Effect {
    Effect::Handler(HandlerEffect {
        op: op.to_string(),
        input,
        input_responses,
        progress: false,
        timeout_ms,
    })
}

/// One governed HTTP call; the body is the canonical decoded input, sent as JSON. A call without
/// input, and every GET, carries no body.
pub fn backend(b: &Backend, body: Option<Vec<u8>>, max_bytes: usize, timeout_ms: u64) -> Effect {
    let method = b.method;
    let body = match method {
        HttpMethod::Get => None,
        _ => body,
    };
    let mut headers = Vec::with_capacity(2);
    if body.is_some() {
        headers.push(("content-type", "application/json".to_string()));
    }
    headers.push(("accept", "application/json".to_string()));
    Effect::Http(HttpEffect {
        backend: b.backend.clone(),
        method,
        url: b.url.clone(),
        headers,
        body,
        max_bytes,
        timeout_ms,
        cache_key: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(method: &str) -> Backend {
        Backend {
            backend: "api".into(),
            method: HttpMethod::parse(method).unwrap(),
            url: "https://api.example/v1".into(),
            max_bytes: 10,
            timeout_ms: 5.0,
            bearer: None,
        }
    }

    #[test]
    fn handler_effects_carry_input_only_when_there_is_one() {
        assert_eq!(
            handler("a.b", Some(br#"{"x":1}"#.to_vec()), None, 250),
            Effect::Handler(HandlerEffect {
                op: "a.b".into(),
                input: Some(br#"{"x":1}"#.to_vec()),
                input_responses: None,
                progress: false,
                timeout_ms: 250
            })
        );
        assert!(matches!(
            handler("a", None, None, 1),
            Effect::Handler(HandlerEffect { input: None, .. })
        ));
    }

    #[test]
    fn http_effects_send_json_bodies_and_get_sends_none() {
        let post = match backend(&api("POST"), Some(b"{}".to_vec()), 10, 5) {
            Effect::Http(h) => h,
            _ => panic!("expected an HTTP effect"),
        };
        assert_eq!(post.method, HttpMethod::Post);
        assert_eq!(post.url, "https://api.example/v1");
        assert_eq!(post.body.as_deref(), Some(&b"{}"[..]));
        assert_eq!(
            post.headers,
            vec![
                ("content-type", "application/json".to_string()),
                ("accept", "application/json".to_string())
            ]
        );
        assert_eq!((post.max_bytes, post.timeout_ms), (10, 5));
        let get = match backend(&api("GET"), Some(b"{}".to_vec()), 10, 5) {
            Effect::Http(h) => h,
            _ => panic!("expected an HTTP effect"),
        };
        assert_eq!((get.method, get.body), (HttpMethod::Get, None));
        assert_eq!(
            get.headers,
            vec![("accept", "application/json".to_string())]
        );
        let bare = match backend(&api("POST"), None, 10, 5) {
            Effect::Http(h) => h,
            _ => panic!("expected an HTTP effect"),
        };
        assert_eq!(bare.body, None);
        for m in ["PUT", "PATCH", "DELETE"] {
            match backend(&api(m), Some(b"{}".to_vec()), 10, 5) {
                Effect::Http(h) => assert_eq!((h.method.as_str(), h.body.is_some()), (m, true)),
                _ => panic!("expected an HTTP effect"),
            }
        }
    }
}
