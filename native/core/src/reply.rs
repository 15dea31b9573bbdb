//! Replies: the status, headers and body a host sends verbatim, and whether it must stop reading.
//!
//! JSON bodies are written straight into the reply, then measured against the response budget; an
//! over-budget body is replaced by a 500 `-32603`, so no reply ever exceeds it.
use std::borrow::Cow;

use crate::errors::{self, RpcError};
use crate::json::write;

pub type Header = (&'static str, Cow<'static, str>);

const NO_STORE: Header = ("cache-control", Cow::Borrowed("no-store"));
const JSON: Header = ("content-type", Cow::Borrowed("application/json"));
const ALLOW: Header = ("allow", Cow::Borrowed("POST"));

/// Whether the reply is decided before the body was read to its end (the host then closes or
/// cancels the unread input instead of draining it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Timing {
    Early,
    AfterBody,
}

/// What the core noted about a reply's outcome where it wrote the body, so that the request event
/// need not read the body back. `Unread`: the body is not the core's own JSON-RPC result or error
/// (an empty reply, an OAuth refusal, a document), or it carries a result the core passed through
/// without looking into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    Unread,
    /// A JSON-RPC result; `is_error` when the core framed a tool result itself.
    Result {
        is_error: Option<bool>,
    },
    /// A JSON-RPC error with its fixed message.
    Error {
        code: i32,
        message: &'static str,
    },
}

impl Note {
    fn error(e: &RpcError) -> Note {
        Note::Error {
            code: e.code,
            message: e.message,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    /// Lowercase names; `connection` is never among them (see `close`).
    pub headers: Vec<Header>,
    pub body: Vec<u8>,
    /// The core answered before the body was complete: stop reading, then close the connection
    /// (or cancel the unread body). Hosts express this in their own way.
    pub close: bool,
    pub note: Note,
}

impl Reply {
    fn start(status: u16, json: bool, timing: Timing) -> Reply {
        let mut headers = Vec::with_capacity(3);
        if status == 405 {
            headers.push(ALLOW);
        }
        if json {
            headers.push(JSON);
        }
        headers.push(NO_STORE);
        Reply {
            status,
            headers,
            body: Vec::new(),
            close: timing == Timing::Early,
            note: Note::Unread,
        }
    }

    /// A reply without a body (404, 405, 403, 406, 415, 431, 202).
    pub fn empty(status: u16, timing: Timing) -> Reply {
        Reply::start(status, false, timing)
    }

    /// 405 for a path served under other methods, which `allow` lists.
    pub fn method_not_allowed(allow: &'static str) -> Reply {
        let mut r = Reply::empty(405, Timing::Early);
        for h in r.headers.iter_mut().filter(|h| h.0 == "allow") {
            h.1 = Cow::Borrowed(allow);
        }
        r
    }

    /// A JSON reply whose body the caller writes, then checks with [`Reply::within`].
    pub fn json(status: u16, timing: Timing) -> Reply {
        Reply::start(status, true, timing)
    }

    /// `{"jsonrpc":"2.0","id":<id>,"result":<result>}` under the response budget.
    pub fn result(id: &[u8], result: &[u8], budget: usize) -> Reply {
        let mut r = Reply::json(200, Timing::AfterBody);
        r.note = Note::Result { is_error: None };
        r.body
            .reserve(RESULT_ENVELOPE_BYTES + id.len() + result.len());
        result_prefix(&mut r.body, id);
        r.body.extend_from_slice(result);
        r.body.push(b'}');
        r.within(budget, Some(id))
    }

    /// A JSON-RPC error; `id` is the pre-encoded readable id, or `None` (member omitted).
    pub fn error(e: &RpcError, id: Option<&[u8]>, timing: Timing, budget: usize) -> Reply {
        let mut r = Reply::json(e.status, timing);
        error_body(&mut r.body, e, id);
        r.note = Note::error(e);
        r.within(budget, id)
    }

    /// 500 `-32603` with a fixed message; drops the id when even that does not fit (every budget
    /// fits the id-less form: it is at least 513 bytes).
    pub fn internal(
        message: &'static str,
        id: Option<&[u8]>,
        timing: Timing,
        budget: usize,
    ) -> Reply {
        let e = RpcError::new(500, errors::INTERNAL_ERROR, message);
        let mut r = Reply::json(500, timing);
        error_body(&mut r.body, &e, id);
        if r.body.len() > budget {
            r.body.clear();
            error_body(&mut r.body, &e, None);
        }
        r.note = Note::error(&e);
        r
    }

    /// What a host sends when the core cannot answer at all (it broke its contract or trapped).
    pub fn internal_error() -> Reply {
        Reply::internal(errors::INTERNAL, None, Timing::Early, usize::MAX)
    }

    /// Enforces the response budget on the body written so far.
    pub fn within(self, budget: usize, id: Option<&[u8]>) -> Reply {
        if self.body.len() > budget {
            let timing = if self.close {
                Timing::Early
            } else {
                Timing::AfterBody
            };
            Reply::internal(errors::RESPONSE_TOO_LARGE, id, timing, budget)
        } else {
            self
        }
    }
}

/// Bytes of `{"jsonrpc":"2.0","id":` + `,"result":` + `}`.
pub const RESULT_ENVELOPE_BYTES: usize = 33;

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
    write::integer(out, i64::from(e.code));
    out.extend_from_slice(b",\"message\":\"");
    out.extend_from_slice(e.message.as_bytes());
    out.push(b'"');
    if let Some(data) = &e.data {
        out.extend_from_slice(b",\"data\":");
        out.extend_from_slice(data);
    }
    out.extend_from_slice(b"}}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(r: &Reply) -> &str {
        std::str::from_utf8(&r.body).unwrap()
    }

    fn names(r: &Reply) -> Vec<&str> {
        r.headers.iter().map(|(n, _)| *n).collect()
    }

    #[test]
    fn empty_405_carries_allow_and_close() {
        let r = Reply::empty(405, Timing::Early);
        assert_eq!((r.status, r.close), (405, true));
        assert_eq!(names(&r), ["allow", "cache-control"]);
        assert!(r.body.is_empty());
        let r = Reply::empty(202, Timing::AfterBody);
        assert_eq!(
            (r.status, r.close, names(&r)),
            (202, false, vec!["cache-control"])
        );
    }

    #[test]
    fn error_with_and_without_id() {
        let e = RpcError::new(400, -32600, "Invalid");
        let r = Reply::error(&e, Some(b"7"), Timing::AfterBody, 1000);
        assert_eq!(names(&r), ["content-type", "cache-control"]);
        assert_eq!(
            text(&r),
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32600,\"message\":\"Invalid\"}}"
        );
        let r = Reply::error(&e, None, Timing::AfterBody, 1000);
        assert_eq!(
            text(&r),
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid\"}}"
        );
    }

    #[test]
    fn over_budget_error_becomes_internal_error_and_drops_a_huge_id() {
        let mut e = RpcError::new(400, -32022, "Unsupported");
        e.data = Some(vec![b'1'; 600]);
        let r = Reply::error(&e, Some(b"1"), Timing::AfterBody, 513);
        assert_eq!(r.status, 500);
        assert_eq!(text(&r), "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"Response too large\"}}");
        let id = vec![b'2'; 600];
        let r = Reply::error(&e, Some(&id), Timing::Early, 513);
        assert!(r.close, "the timing survives the replacement");
        assert_eq!(
            text(&r),
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"Response too large\"}}"
        );
    }

    #[test]
    fn results_count_against_the_budget_exactly() {
        let r = Reply::result(b"1", b"{}", 1000);
        assert_eq!(text(&r), r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        assert_eq!(r.body.len(), RESULT_ENVELOPE_BYTES + 1 + 2);
        assert_eq!(Reply::result(b"1", b"{}", r.body.len()).status, 200);
        assert_eq!(Reply::result(b"1", b"{}", r.body.len() - 1).status, 500);
    }
}
