//! Progress of a `tools/call` that carries `_meta.progressToken` and runs a JavaScript handler: the
//! handler's reports become `notifications/progress` events of a `text/event-stream` reply, then the
//! response is the stream's last event. Bounded: at most 32 events, each message at most 256
//! characters, progress strictly increasing, and all events together within a quarter of the
//! response budget, so the final response always keeps its room. Reports past a bound are dropped.
use std::borrow::Cow;

use crate::envelope::meta;
use crate::json::{write, Object, Value};
use crate::reply::{Header, Note, Reply};

pub const MAX_EVENTS: usize = 32;
pub const MAX_MESSAGE_CHARS: usize = 256;

pub const STREAM_HEADERS: [Header; 3] = [
    ("content-type", Cow::Borrowed("text/event-stream")),
    ("cache-control", Cow::Borrowed("no-store")),
    ("x-accel-buffering", Cow::Borrowed("no")),
];

pub struct Progress {
    /// JSON text of the token, echoed in every event.
    token: Vec<u8>,
    events: usize,
    last: f64,
    bytes: usize,
}

/// What one report became.
#[derive(Debug, PartialEq, Eq)]
pub enum Reported {
    Dropped,
    /// The first event: send the stream head ([`stream_head`]) and then these bytes.
    First(Vec<u8>),
    Next(Vec<u8>),
}

/// 200 with the event-stream headers and no body yet.
pub fn stream_head() -> Reply {
    Reply {
        status: 200,
        headers: STREAM_HEADERS.to_vec(),
        body: Vec::new(),
        close: false,
        note: Note::Unread,
    }
}

/// One SSE `message` event around a JSON-RPC message.
fn event(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + 24);
    out.extend_from_slice(b"event: message\ndata: ");
    out.extend_from_slice(json);
    out.extend_from_slice(b"\n\n");
    out
}

/// The final reply of a streamed request: the response (or error) as the stream's last event.
pub fn last_event(reply: Reply) -> Reply {
    Reply {
        body: event(&reply.body),
        note: reply.note,
        ..stream_head()
    }
}

impl Progress {
    /// `_meta.progressToken`, when it is a string or a safe integer.
    pub fn requested(params: Option<&Object<'_>>) -> Option<Progress> {
        let token = match meta(params?)?.get("progressToken")? {
            Value::String(s) => {
                let mut t = Vec::new();
                write::string(&mut t, &s.as_str());
                t
            }
            Value::Number(n) => {
                let mut t = Vec::new();
                write::integer(&mut t, n.as_safe_integer()?);
                t
            }
            _ => return None,
        };
        Some(Progress {
            token,
            events: 0,
            last: f64::NEG_INFINITY,
            bytes: 0,
        })
    }

    /// Frames one report, or drops it when it breaks a bound. `budget` is `limits.responseBytes`.
    pub fn report(
        &mut self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
        budget: usize,
    ) -> Reported {
        let valid = progress.is_finite()
            && progress > self.last
            && !matches!(total, Some(t) if !t.is_finite())
            && !matches!(message, Some(m) if m.chars().count() > MAX_MESSAGE_CHARS);
        if !valid || self.events >= MAX_EVENTS {
            return Reported::Dropped;
        }
        let mut json = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":".to_vec();
        json.extend_from_slice(&self.token);
        json.extend_from_slice(b",\"progress\":");
        crate::codec::number(&mut json, progress);
        if let Some(t) = total {
            json.extend_from_slice(b",\"total\":");
            crate::codec::number(&mut json, t);
        }
        if let Some(m) = message {
            json.extend_from_slice(b",\"message\":");
            write::string(&mut json, m);
        }
        json.extend_from_slice(b"}}");
        let bytes = event(&json);
        if self.bytes + bytes.len() > budget / 4 {
            return Reported::Dropped;
        }
        self.bytes += bytes.len();
        self.last = progress;
        self.events += 1;
        if self.events == 1 {
            Reported::First(bytes)
        } else {
            Reported::Next(bytes)
        }
    }

    /// Whether any event was sent (the reply is then a stream).
    pub fn streaming(&self) -> bool {
        self.events > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn requested(params: &str) -> Option<Progress> {
        let doc = json::parse(params.as_bytes(), 8).unwrap();
        let o = doc.root().as_object();
        Progress::requested(o.as_ref())
    }

    #[test]
    fn tokens_and_events() {
        assert!(requested(r#"{"_meta":{}}"#).is_none());
        assert!(requested(r#"{"_meta":{"progressToken":1.5}}"#).is_none());
        assert!(requested(r#"{"_meta":{"progressToken":true}}"#).is_none());
        let mut p = requested(r#"{"_meta":{"progressToken":"progress-test-1"}}"#).unwrap();
        assert_eq!(
            p.report(0.0, Some(100.0), Some("start"), 1 << 20),
            Reported::First(
                b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"progress-test-1\",\"progress\":0,\"total\":100,\"message\":\"start\"}}\n\n".to_vec()
            )
        );
        assert!(matches!(
            p.report(50.0, None, None, 1 << 20),
            Reported::Next(_)
        ));
        assert_eq!(
            p.report(50.0, None, None, 1 << 20),
            Reported::Dropped,
            "not increasing"
        );
        assert_eq!(p.report(f64::NAN, None, None, 1 << 20), Reported::Dropped);
        let long = "x".repeat(MAX_MESSAGE_CHARS + 1);
        assert_eq!(
            p.report(60.0, None, Some(&long), 1 << 20),
            Reported::Dropped
        );
        let mut n = requested(r#"{"_meta":{"progressToken":7}}"#).unwrap();
        for i in 0..MAX_EVENTS {
            assert_ne!(n.report(i as f64, None, None, 1 << 20), Reported::Dropped);
        }
        assert_eq!(
            n.report(1000.0, None, None, 1 << 20),
            Reported::Dropped,
            "count bound"
        );
        let mut small = requested(r#"{"_meta":{"progressToken":7}}"#).unwrap();
        assert_eq!(
            small.report(1.0, None, None, 400),
            Reported::Dropped,
            "byte bound"
        );
    }
}
