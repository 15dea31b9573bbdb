//! The request event: one structured record per finished request, for the host to publish
//! (telemetry). The core decides every field it can know; the host adds the timings (the core has
//! no clock) and its target.
//!
//! What the request says is noted while it runs ([`Trail`]); the outcome is what the core noted as
//! it wrote the reply (`reply::Note`), read back from the reply only where it wrote none (an OAuth
//! refusal, a result it passed through), and only when the host asks ([`Trail::fields`]), so a
//! host that publishes nothing pays for a few lookups only. The event never carries tokens,
//! secrets, header values, argument or result values: only the method, the request id, the tool/prompt name or
//! resource URI, the outcome, sizes, the protocol revision, the principal's `sub` and validated W3C
//! trace context.
use crate::authorization::Grant;
use crate::envelope::{meta, PROTOCOL_VERSION_KEY};
use crate::errors;
use crate::head::Kept;
use crate::json::{self, write, Object, Value};
use crate::reply::{Note, Reply};

/// Longest method, name or URI the event carries; a longer one is left out (it is client input).
const MAX_NAME_BYTES: usize = 256;
/// W3C Trace Context: `tracestate` is at most 32 members of at most 256 bytes, about 8 KiB; the
/// event keeps the common 512-byte bound that propagators send.
const MAX_TRACESTATE_BYTES: usize = 512;
/// Depth enough for `{"result":{"isError":…}}` or `{"error":{"code":…}}`; deeper is not looked at.
const READ_BACK_DEPTH: u32 = 64;

/// What a host's driver measured of one request (the core has no clock), in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// Waiting for the request body.
    pub body_ms: f64,
    /// Performing effects (handlers, HTTP exchanges), their answers included.
    pub effects_ms: f64,
    /// From the head to the reply.
    pub total_ms: f64,
}

impl Timings {
    /// The whole event: the core's JSON `core` with the timings and `target` (the runtime) added,
    /// the members the TypeScript hosts add (`src/telemetry/channel.ts`).
    pub fn complete(&self, core: &[u8], target: &str, out: &mut Vec<u8>) {
        let core = core.strip_suffix(b"}").unwrap_or(core);
        out.extend_from_slice(core);
        let rest = (self.total_ms - self.body_ms - self.effects_ms).max(0.0);
        for (key, ms) in [
            ("bodyMs", self.body_ms),
            ("effectsMs", self.effects_ms),
            ("coreMs", rest),
            ("totalMs", self.total_ms),
        ] {
            let ms = if ms.is_finite() { ms } else { 0.0 };
            out.extend_from_slice(format!(",\"{}\":{}", key, ms).as_bytes());
        }
        out.extend_from_slice(b",\"target\":");
        write::string(out, target);
        out.push(b'}');
    }
}

/// What the request said, noted as it runs.
#[derive(Default)]
pub struct Trail {
    bytes_in: usize,
    method: Option<String>,
    request_id: Option<String>,
    name: Option<String>,
    version: Option<String>,
    sub: Option<String>,
    traceparent: Option<String>,
    tracestate: Option<String>,
}

impl Trail {
    /// Body bytes the host fed (the whole chunk, even past the size limit).
    pub fn received(&mut self, n: usize) {
        self.bytes_in += n;
    }

    /// A complete body: its method, the target it names, the protocol revision and trace context
    /// from `_meta` (else the `MCP-Protocol-Version` header), and the granted principal.
    pub fn body(&mut self, root: &Value<'_>, kept: &Kept, grant: Option<&Grant>) {
        self.sub = grant.map(|g| g.sub().to_string());
        self.version = kept
            .version
            .as_deref()
            .and_then(|v| std::str::from_utf8(v).ok())
            .and_then(bounded);
        let o = match root {
            Value::Object(o) => o,
            _ => return,
        };
        self.method = string(o.get("method"));
        // A string id as its text, a number as written; null or absent (a notification): none.
        self.request_id = match o.get("id") {
            Some(Value::Number(n)) => bounded(n.raw()),
            id => string(id),
        };
        let params = match o.get("params") {
            Some(Value::Object(p)) => p,
            _ => return,
        };
        let key = match self.method.as_deref() {
            Some("resources/read" | "resources/subscribe" | "resources/unsubscribe") => "uri",
            Some("tools/call" | "prompts/get") => "name",
            _ => "",
        };
        if !key.is_empty() {
            self.name = string(params.get(key));
        }
        if let Some(m) = meta(&params) {
            if let Some(v) = string(m.get(PROTOCOL_VERSION_KEY)) {
                self.version = Some(v);
            }
            self.trace(&m);
        }
    }

    /// `traceparent` only when it is exactly a version-00 W3C value; `tracestate` only beside it.
    fn trace(&mut self, m: &Object<'_>) {
        let parent = match m.get("traceparent").and_then(|v| v.as_string()) {
            Some(s) => s.as_str().into_owned(),
            None => return,
        };
        if !is_traceparent(&parent) {
            return;
        }
        self.traceparent = Some(parent);
        self.tracestate = m
            .get("tracestate")
            .and_then(|v| v.as_string())
            .map(|s| s.as_str().into_owned())
            .filter(|s| is_tracestate(s));
    }

    /// The event of a request that ended with `reply` (the host's own 500 for misuse).
    pub fn fields(&self, reply: &Reply) -> Fields<'_> {
        let outcome = Outcome::of(reply, self.method.as_deref() == Some("tools/call"));
        Fields {
            method: self.method.as_deref(),
            request_id: self.request_id.as_deref(),
            name: self.name.as_deref(),
            status: reply.status,
            code: outcome.code,
            is_error: outcome.is_error,
            refusal: outcome.refusal,
            bytes_in: self.bytes_in,
            bytes_out: reply.body.len(),
            protocol_version: self.version.as_deref(),
            sub: self.sub.as_deref(),
            traceparent: self.traceparent.as_deref(),
            tracestate: self.tracestate.as_deref(),
        }
    }

    /// The event as one JSON object (what a Rust host logs), every member always present (`null`
    /// when it does not apply).
    pub fn write(&self, reply: &Reply, out: &mut Vec<u8>) {
        self.fields(reply).write(out);
    }
}

/// Every field of one request's event that the core decides. JavaScript hosts read them as a
/// record (`record::event`), Rust hosts as JSON ([`Fields::write`]).
#[derive(Debug, PartialEq, Eq)]
pub struct Fields<'a> {
    pub method: Option<&'a str>,
    /// The JSON-RPC `id` as text (a string's value, a number as written); `None` for a
    /// notification, a null id or one longer than the event keeps.
    pub request_id: Option<&'a str>,
    pub name: Option<&'a str>,
    pub status: u16,
    pub code: Option<i32>,
    pub is_error: Option<bool>,
    pub refusal: Option<String>,
    pub bytes_in: usize,
    pub bytes_out: usize,
    pub protocol_version: Option<&'a str>,
    pub sub: Option<&'a str>,
    pub traceparent: Option<&'a str>,
    pub tracestate: Option<&'a str>,
}

impl Fields<'_> {
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"method\":");
        opt_string(out, self.method);
        out.extend_from_slice(b",\"requestId\":");
        opt_string(out, self.request_id);
        out.extend_from_slice(b",\"name\":");
        opt_string(out, self.name);
        out.extend_from_slice(b",\"status\":");
        write::integer(out, i64::from(self.status));
        out.extend_from_slice(b",\"code\":");
        match self.code {
            Some(c) => write::integer(out, i64::from(c)),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"isError\":");
        out.extend_from_slice(match self.is_error {
            Some(true) => b"true",
            Some(false) => b"false",
            None => b"null",
        });
        out.extend_from_slice(b",\"refusal\":");
        opt_string(out, self.refusal.as_deref());
        out.extend_from_slice(b",\"bytesIn\":");
        write::integer(out, self.bytes_in as i64);
        out.extend_from_slice(b",\"bytesOut\":");
        write::integer(out, self.bytes_out as i64);
        out.extend_from_slice(b",\"protocolVersion\":");
        opt_string(out, self.protocol_version);
        out.extend_from_slice(b",\"sub\":");
        opt_string(out, self.sub);
        out.extend_from_slice(b",\"traceparent\":");
        opt_string(out, self.traceparent);
        out.extend_from_slice(b",\"tracestate\":");
        opt_string(out, self.tracestate);
        out.push(b'}');
    }
}

fn bounded(s: &str) -> Option<String> {
    (s.len() <= MAX_NAME_BYTES).then(|| s.to_string())
}

fn string(v: Option<Value<'_>>) -> Option<String> {
    bounded(&v?.as_string()?.as_str())
}

fn opt_string(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => write::string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// `00-<32 hex>-<16 hex>-<2 hex>`, lowercase, neither id all zeros (W3C Trace Context §3.2).
pub fn is_traceparent(s: &str) -> bool {
    let b = s.as_bytes();
    let hex = |r: &[u8]| r.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    let zero = |r: &[u8]| r.iter().all(|&c| c == b'0');
    b.len() == 55
        && &b[..3] == b"00-"
        && b[35] == b'-'
        && b[52] == b'-'
        && hex(&b[3..35])
        && hex(&b[36..52])
        && hex(&b[53..])
        && !zero(&b[3..35])
        && !zero(&b[36..52])
}

/// Printable ASCII list members `key=value` separated by commas, within the size bound.
fn is_tracestate(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_TRACESTATE_BYTES
        && s.bytes().all(|c| (0x20..0x7f).contains(&c))
        && s.split(',')
            .map(|m| m.trim_matches(|c| c == ' ' || c == '\t'))
            .all(|m| m.is_empty() || matches!(m.split_once('='), Some((k, _)) if !k.is_empty()))
}

/// What the reply says about the outcome.
struct Outcome {
    code: Option<i32>,
    is_error: Option<bool>,
    refusal: Option<String>,
}

impl Outcome {
    fn of(reply: &Reply, tool_call: bool) -> Outcome {
        let mut o = Outcome {
            code: None,
            is_error: None,
            refusal: None,
        };
        // Where the core noted the outcome as it wrote the body, the note is the outcome.
        match reply.note {
            Note::Error { code, message } => {
                o.code = Some(code);
                o.refusal = Some(message_kind(message, o.code));
                return o;
            }
            Note::Result { is_error } if !tool_call || is_error.is_some() => {
                o.is_error = if tool_call { is_error } else { None };
                return o;
            }
            _ => {}
        }
        // A streamed reply's last event carries the JSON after its `data: ` line prefix.
        let body = match reply.body.strip_prefix(b"event: message\ndata: ") {
            Some(rest) => rest.strip_suffix(b"\n\n").unwrap_or(rest),
            None => &reply.body,
        };
        let doc = if body.is_empty() {
            None
        } else {
            json::parse(body, READ_BACK_DEPTH).ok()
        };
        let root = doc.as_ref().and_then(|d| d.root().as_object());
        if let Some(root) = &root {
            if let Some(Value::Object(e)) = root.get("error") {
                o.code = e
                    .get("code")
                    .and_then(|c| c.as_number()?.as_safe_integer())
                    .and_then(|c| i32::try_from(c).ok());
                let message = e.get("message").and_then(|m| m.as_string());
                o.refusal = Some(match message {
                    Some(m) => message_kind(&m.as_str(), o.code),
                    None => code_kind(o.code),
                });
                return o;
            }
            if let (true, Some(Value::Object(r))) = (tool_call, root.get("result")) {
                o.is_error = Some(r.get("isError").and_then(|v| v.as_bool()) == Some(true));
            }
            // OAuth refusals (RFC 6750): the `error` code, or none when no token was sent.
            if let Some(e) = string(root.get("error")) {
                o.refusal = Some(e);
                return o;
            }
        }
        if reply.status >= 400 && o.refusal.is_none() {
            o.refusal = Some(status_kind(reply.status).to_string());
        }
        o
    }
}

/// The kind of a JSON-RPC error: its fixed message's name, `parse_error` for any `-32700`, else
/// the code's name.
fn message_kind(message: &str, code: Option<i32>) -> String {
    if code == Some(errors::PARSE_ERROR) {
        return "parse_error".to_string();
    }
    match errors::MESSAGES.iter().find(|(m, _)| *m == message) {
        Some((_, name)) => name.to_ascii_lowercase(),
        None => code_kind(code),
    }
}

fn code_kind(code: Option<i32>) -> String {
    let name = match code {
        Some(errors::PARSE_ERROR) => "parse_error",
        Some(errors::INVALID_REQUEST) => "invalid_request",
        Some(errors::METHOD_NOT_FOUND) => "method_not_found",
        Some(errors::INVALID_PARAMS) => "invalid_params",
        Some(errors::INTERNAL_ERROR) => "internal_error",
        Some(errors::HEADER_MISMATCH) => "header_mismatch",
        Some(errors::MISSING_CAPABILITY) => "missing_capability",
        Some(errors::UNSUPPORTED_VERSION) => "unsupported_version",
        Some(errors::EXECUTION_FAILED) => "execution_failed",
        Some(errors::RATE_LIMITED_CODE) => "rate_limited",
        _ => "error",
    };
    name.to_string()
}

/// The kind of a refusal without a JSON-RPC error (an empty reply, or an OAuth one without code).
fn status_kind(status: u16) -> &'static str {
    match status {
        400 => "bad_request",
        401 => "token_required",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        406 => "not_acceptable",
        408 => "timeout",
        413 => "body_too_large",
        415 => "unsupported_media_type",
        429 => "rate_limited",
        431 => "head_too_large",
        503 => "unavailable",
        _ => "refused",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reply::Timing;

    fn event(trail: &Trail, reply: &Reply) -> String {
        let mut out = Vec::new();
        trail.write(reply, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// Every reply the core notes, as its constructors build it: the note must say what reading
    /// the body back says, or the event would depend on which of the two a path took.
    #[test]
    fn notes_agree_with_reading_the_reply_back() {
        use crate::calls::frame;
        use crate::config::Config;
        use crate::limits::Limits;
        use crate::progress::last_event;
        use crate::reply::Note;
        use crate::tools::ToolResult;

        let frags = crate::discover::build(
            &Config::parse(br#"{"serverInfo":{"name":"s","version":"1"}}"#).unwrap(),
        )
        .unwrap();
        let tool = |is_error| ToolResult {
            is_error,
            text: "t".to_string(),
            structured: None,
            content: None,
        };
        let tight = Limits {
            tool_result_bytes: 8,
            ..Limits::DEFAULT
        };
        let mut replies = vec![
            Reply::result(b"1", br#"{"isError":true}"#, 4096),
            Reply::result(b"1", br#"{"content":[]}"#, 4096),
            Reply::result(b"1", &[b'1'; 600], 513),
            Reply::internal(errors::INTERNAL, Some(b"9"), Timing::Early, 4096),
            Reply::internal(
                errors::RESPONSE_TOO_LARGE,
                Some(&[b'2'; 600]),
                Timing::AfterBody,
                513,
            ),
            Reply::internal_error(),
            frame(&tool(true), b"2", false, &frags, &Limits::DEFAULT),
            frame(&tool(false), b"2", true, &frags, &Limits::DEFAULT),
            frame(&tool(false), b"2", false, &frags, &tight),
        ];
        for (status, code, message) in errors::MESSAGES.iter().map(|(m, _)| (400, -32602, *m)) {
            replies.push(Reply::error(
                &errors::RpcError::new(status, code, message),
                Some(b"1"),
                Timing::AfterBody,
                4096,
            ));
        }
        replies.push(Reply::error(
            &errors::RpcError::new(400, errors::PARSE_ERROR, "x"),
            None,
            Timing::Early,
            4096,
        ));
        let streamed: Vec<Reply> = replies.iter().cloned().map(last_event).collect();
        replies.extend(streamed);
        for r in &replies {
            assert_ne!(r.note, Note::Unread, "{}", String::from_utf8_lossy(&r.body));
            let read_back = Reply {
                note: Note::Unread,
                ..r.clone()
            };
            for tool_call in [true, false] {
                let (a, b) = (
                    Outcome::of(r, tool_call),
                    Outcome::of(&read_back, tool_call),
                );
                assert_eq!(
                    (a.code, a.is_error, a.refusal),
                    (b.code, b.is_error, b.refusal),
                    "{} (tools/call: {tool_call})",
                    String::from_utf8_lossy(&r.body)
                );
            }
        }
    }

    #[test]
    fn traceparent_is_strict() {
        let ok = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        assert!(is_traceparent(ok));
        for bad in [
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-001",
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "",
        ] {
            assert!(!is_traceparent(bad), "{bad}");
        }
    }

    #[test]
    fn tracestate_is_bounded_printable_members() {
        assert!(is_tracestate("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"));
        assert!(!is_tracestate("=x"));
        assert!(!is_tracestate("a=b\n"));
        assert!(!is_tracestate(&"a=".repeat(300)));
    }

    #[test]
    fn refusal_kinds_name_the_fixed_message() {
        let e = errors::RpcError::new(400, errors::HEADER_MISMATCH, errors::NAME_MISSING);
        let r = Reply::error(&e, Some(b"1"), Timing::AfterBody, 4096);
        let got = event(&Trail::default(), &r);
        assert!(
            got.contains(r#""status":400,"code":-32020,"isError":null,"refusal":"name_missing""#),
            "{got}"
        );
        let r = Reply::empty(406, Timing::Early);
        assert!(event(&Trail::default(), &r)
            .contains(r#""code":null,"isError":null,"refusal":"not_acceptable""#));
        let r = Reply::empty(202, Timing::AfterBody);
        assert!(event(&Trail::default(), &r).contains(r#""refusal":null,"bytesIn":0,"bytesOut":0"#));
    }

    #[test]
    fn every_kind_is_distinct() {
        for (i, (m, k)) in errors::MESSAGES.iter().enumerate() {
            assert!(
                errors::MESSAGES[i + 1..]
                    .iter()
                    .all(|(n, l)| m != n && k != l),
                "{k}"
            );
        }
    }

    #[test]
    fn a_tool_result_reports_is_error() {
        let mut t = Trail {
            method: Some("tools/call".into()),
            request_id: Some("3".into()),
            name: Some("echo".into()),
            ..Trail::default()
        };
        t.received(10);
        let r = Reply::result(b"3", br#"{"content":[],"isError":true}"#, 4096);
        let got = event(&t, &r);
        let want = format!(
            r#"{{"method":"tools/call","requestId":"3","name":"echo","status":200,"code":null,"isError":true,"refusal":null,"bytesIn":10,"bytesOut":{},"protocolVersion":null,"sub":null,"traceparent":null,"tracestate":null}}"#,
            r.body.len()
        );
        assert_eq!(got, want);
        let r = Reply::result(b"3", br#"{"content":[]}"#, 4096);
        assert!(event(&t, &r).contains(r#""isError":false"#));
    }
}
