//! Response records (docs/contracts.md §3.2): `status CRLF (name: value CRLF)* CRLF body`.
//!
//! JSON bodies are written straight into the record after its head, then measured against the
//! response budget; an over-budget body is replaced by a 500 `-32603` so no reply ever exceeds it.
use crate::errors::{self, RpcError};

const NO_STORE: &[u8] = b"cache-control: no-store\r\n";
const JSON: &[u8] = b"content-type: application/json\r\n";
const CLOSE: &[u8] = b"connection: close\r\n";
const ALLOW: &[u8] = b"allow: POST\r\n";

/// Whether the reply is decided before the body was read to its end (the host then closes or
/// cancels the unread input instead of draining it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Timing {
    Early,
    AfterBody,
}

fn head(out: &mut Vec<u8>, status: u16, json: bool, timing: Timing) {
    out.clear();
    push_u32(out, u32::from(status));
    out.extend_from_slice(b"\r\n");
    if status == 405 {
        out.extend_from_slice(ALLOW);
    }
    if json {
        out.extend_from_slice(JSON);
    }
    out.extend_from_slice(NO_STORE);
    if timing == Timing::Early {
        out.extend_from_slice(CLOSE);
    }
    out.extend_from_slice(b"\r\n");
}

/// A reply without a body (404, 405, 403, 406, 415, 431, 202).
pub fn empty(out: &mut Vec<u8>, status: u16, timing: Timing) {
    head(out, status, false, timing);
}

/// Starts a JSON reply; returns the offset where the body begins (for [`finish`]).
pub fn begin(out: &mut Vec<u8>, status: u16, timing: Timing) -> usize {
    head(out, status, true, timing);
    out.len()
}

/// Enforces the response budget on the body written since `body_start`.
pub fn finish(
    out: &mut Vec<u8>,
    body_start: usize,
    budget: usize,
    id: Option<&[u8]>,
    timing: Timing,
) {
    if out.len() - body_start > budget {
        internal(out, budget, id, timing, errors::RESPONSE_TOO_LARGE);
    }
}

/// `{"jsonrpc":"2.0","id":<id>,"result":` – the caller appends the result and `}`.
pub fn result_prefix(out: &mut Vec<u8>, id: &[u8]) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id);
    out.extend_from_slice(b",\"result\":");
}

fn error_body(out: &mut Vec<u8>, e: &RpcError, id: Option<&[u8]>) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",");
    if let Some(id) = id {
        out.extend_from_slice(b"\"id\":");
        out.extend_from_slice(id);
        out.push(b',');
    }
    out.extend_from_slice(b"\"error\":{\"code\":");
    push_i32(out, e.code);
    out.extend_from_slice(b",\"message\":\"");
    out.extend_from_slice(e.message.as_bytes());
    out.push(b'"');
    if let Some(data) = &e.data {
        out.extend_from_slice(b",\"data\":");
        out.extend_from_slice(data);
    }
    out.extend_from_slice(b"}}");
}

/// A JSON-RPC error reply; `id` is the pre-encoded readable id, or `None` (member omitted).
pub fn error(out: &mut Vec<u8>, budget: usize, e: &RpcError, id: Option<&[u8]>, timing: Timing) {
    let start = begin(out, e.status, timing);
    error_body(out, e, id);
    if out.len() - start > budget {
        internal(out, budget, id, timing, errors::RESPONSE_TOO_LARGE);
    }
}

/// 500 `-32603`; drops the id when even that does not fit (the budget always fits the id-less form:
/// it is at least 513 bytes).
fn internal(
    out: &mut Vec<u8>,
    budget: usize,
    id: Option<&[u8]>,
    timing: Timing,
    message: &'static str,
) {
    let e = RpcError::new(500, errors::INTERNAL_ERROR, message);
    let start = begin(out, 500, timing);
    error_body(out, &e, id);
    if out.len() - start > budget {
        let start = begin(out, 500, timing);
        error_body(out, &e, None);
        debug_assert!(out.len() - start <= budget);
    }
}

/// 500 `-32603` with a fixed message (tool result over its own budget).
pub fn internal_error(out: &mut Vec<u8>, budget: usize, id: Option<&[u8]>, message: &'static str) {
    internal(out, budget, id, Timing::AfterBody, message);
}

pub fn push_u32(out: &mut Vec<u8>, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

pub fn push_i32(out: &mut Vec<u8>, n: i32) {
    if n < 0 {
        out.push(b'-');
    }
    push_u32(out, n.unsigned_abs());
}

pub fn push_i64(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    let mut m = n.unsigned_abs();
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: &[u8]) -> &str {
        std::str::from_utf8(v).unwrap()
    }

    #[test]
    fn empty_405_carries_allow_and_close() {
        let mut out = Vec::new();
        empty(&mut out, 405, Timing::Early);
        assert_eq!(
            text(&out),
            "405\r\nallow: POST\r\ncache-control: no-store\r\nconnection: close\r\n\r\n"
        );
        empty(&mut out, 202, Timing::AfterBody);
        assert_eq!(text(&out), "202\r\ncache-control: no-store\r\n\r\n");
    }

    #[test]
    fn error_with_and_without_id() {
        let mut out = Vec::new();
        let e = RpcError::new(400, -32600, "Invalid");
        error(&mut out, 1000, &e, Some(b"7"), Timing::AfterBody);
        assert_eq!(
            text(&out),
            "400\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\r\n\
             {\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32600,\"message\":\"Invalid\"}}"
        );
        error(&mut out, 1000, &e, None, Timing::AfterBody);
        assert!(text(&out).ends_with(
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid\"}}"
        ));
    }

    #[test]
    fn over_budget_error_becomes_internal_error_and_drops_a_huge_id() {
        let mut out = Vec::new();
        let mut e = RpcError::new(400, -32022, "Unsupported");
        e.data = Some(vec![b'1'; 600]);
        error(&mut out, 513, &e, Some(b"1"), Timing::AfterBody);
        assert!(text(&out).starts_with("500\r\n"));
        assert!(text(&out).ends_with("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"Response too large\"}}"));
        let id = vec![b'2'; 600];
        error(&mut out, 513, &e, Some(&id), Timing::AfterBody);
        assert!(text(&out).ends_with(
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"Response too large\"}}"
        ));
    }

    #[test]
    fn integers() {
        let mut out = Vec::new();
        push_i32(&mut out, i32::MIN);
        out.push(b' ');
        push_i64(&mut out, -9007199254740991);
        out.push(b' ');
        push_u32(&mut out, 0);
        assert_eq!(text(&out), "-2147483648 -9007199254740991 0");
    }
}
