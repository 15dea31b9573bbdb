//! Effects: the only work a host does on the core's behalf, and the typed answers it reports.
//!
//! [`HttpEffect`] is one outbound HTTP exchange to a fixed URL (a governed backend call, later token
//! introspection): the host sends exactly what the effect says, never follows a redirect, never
//! retries, stops reading once more than `max_bytes` arrived, and gives up after `timeout_ms`.
//! [`HandlerEffect`] runs a JavaScript handler (hosts without JavaScript report it failed).
//! [`RateEffect`] counts an entry of the opt-in rate limits or puts it in the penalty box (a host's
//! store, Fastly's rate counter and penalty box): the host counts, the core judges the count.
//! Everything else — whether a status, a size, an encoding, a timeout or a count is acceptable, and
//! which deadline it counts against — is decided here, so every host reaches the same verdict.

/// What the host performs next, after `Action::Perform`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Http(HttpEffect),
    Handler(HandlerEffect),
    Rate(RateEffect),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpMethod {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

const METHODS: [(HttpMethod, &str); 5] = [
    (HttpMethod::Get, "GET"),
    (HttpMethod::Post, "POST"),
    (HttpMethod::Put, "PUT"),
    (HttpMethod::Patch, "PATCH"),
    (HttpMethod::Delete, "DELETE"),
];

impl HttpMethod {
    pub fn as_str(&self) -> &'static str {
        METHODS
            .iter()
            .find(|(m, _)| m == self)
            .map_or("GET", |(_, s)| s)
    }

    /// The method named exactly (uppercase), if it is one a declared backend may use.
    pub fn parse(s: &str) -> Option<HttpMethod> {
        METHODS.iter().find(|(_, n)| *n == s).map(|(m, _)| *m)
    }
}

/// One outbound HTTP exchange.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpEffect {
    /// The name of the declared backend (hosts that route by name, such as Fastly, use it).
    pub backend: String,
    pub method: HttpMethod,
    /// Absolute and fixed at build or configuration time; never taken from a request.
    pub url: String,
    /// Sent as given, and nothing else (no cookies, no client credentials, no forwarded headers).
    pub headers: Vec<(&'static str, String)>,
    /// `None`: no body at all (a GET never carries one).
    pub body: Option<Vec<u8>>,
    /// The host reads at most this many bytes plus one; more is the core's "oversized".
    pub max_bytes: usize,
    /// The effect's own time budget; the request's deadline bounds the wait as well.
    pub timeout_ms: u64,
    /// Token introspection with `authorization.cache` only: the key of the host's stored entry. A
    /// host holding a fresh entry under it answers [`Answer::Cached`] with its bytes instead of
    /// performing the exchange.
    pub cache_key: Option<String>,
}

/// What the host keeps after an introspection the core judged (`Request::take_cache_entry`): the
/// value under the key for at most `ttl_ms`, then forgets it. Never a token, never a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheEntry {
    pub key: String,
    pub value: Vec<u8>,
    pub ttl_ms: u64,
}

/// One JavaScript handler run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerEffect {
    pub op: String,
    /// Canonical JSON of the decoded input; `None` for an operation without input (no params).
    pub input: Option<Vec<u8>>,
    /// JSON object of the client's answers to the tool's declared inputs, when it declares any.
    pub input_responses: Option<Vec<u8>>,
    /// The client asked for progress: the host forwards the handler's reports with
    /// `Request::progress` while the effect is pending.
    pub progress: bool,
    pub timeout_ms: u64,
}

/// One operation on an entry of the rate limits (`rate_limit.rs`), in the named rate counter and
/// penalty box (Fastly's names; a host with one store of its own keeps the entries apart by name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateEffect {
    pub rate_counter: String,
    pub penalty_box: String,
    /// Opaque and short: a digest of the budget and the caller, never an address or a subject.
    pub entry: String,
    pub op: RateOp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateOp {
    /// Whether the entry is in the penalty box; if not, with `charge` the entry is counted once
    /// (now), and the count over the last `window_s` seconds is reported.
    Count { window_s: u32, charge: bool },
    /// The entry goes into the penalty box for `ttl_s` seconds (whole minutes).
    Penalize { ttl_s: u32 },
}

/// The host's report of a [`RateEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateAnswer {
    /// In the penalty box (nothing was counted), or not, with the count over the window (this
    /// charge included; 0 when nothing was charged).
    Counted {
        boxed: bool,
        count: u32,
    },
    Penalized,
    /// The store could not answer.
    Failed,
}

impl Effect {
    /// The effect's own time budget; a rate effect is answered at once, from memory or a hostcall.
    pub fn timeout_ms(&self) -> u64 {
        match self {
            Effect::Http(h) => h.timeout_ms,
            Effect::Handler(h) => h.timeout_ms,
            Effect::Rate(_) => 0,
        }
    }
}

/// Why an HTTP exchange produced no response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpFailure {
    /// Refused, reset, unresolvable, or the body stream failed.
    Unreachable,
    /// The effect's own time budget ran out first.
    TimedOut,
}

/// The host's report of an [`HttpEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpAnswer<'a> {
    /// The status and the body bytes read (more than `max_bytes` only when the body was longer).
    Response {
        status: u16,
        body: &'a [u8],
    },
    Failed(HttpFailure),
}

/// The host's report of a [`HandlerEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandlerAnswer<'a> {
    /// JSON text of the handler's output (`null` for none).
    Output(&'a [u8]),
    /// Thrown, rejected, timed out, or not runnable on this host.
    Failed,
}

/// The answer to whichever effect is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer<'a> {
    Http(HttpAnswer<'a>),
    Handler(HandlerAnswer<'a>),
    /// An HTTP effect with a `cache_key` answered from the host's fresh entry: its value bytes.
    Cached(&'a [u8]),
    Rate(RateAnswer),
}

/// What an HTTP answer means once judged: an acceptable text body, or why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpVerdict<'a> {
    /// A 2xx within the byte cap, valid UTF-8 (a leading BOM dropped).
    Text(&'a str),
    /// Any other status; a 3xx is here too, since hosts never follow redirects.
    Status(u16),
    Oversized,
    NotUtf8,
    Unreachable,
    TimedOut,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The one judgement of an HTTP answer, shared by every use of the HTTP effect.
pub fn judge(answer: HttpAnswer<'_>, max_bytes: usize) -> HttpVerdict<'_> {
    match answer {
        HttpAnswer::Failed(HttpFailure::Unreachable) => HttpVerdict::Unreachable,
        HttpAnswer::Failed(HttpFailure::TimedOut) => HttpVerdict::TimedOut,
        HttpAnswer::Response { status, .. } if !(200..300).contains(&status) => {
            HttpVerdict::Status(status)
        }
        HttpAnswer::Response { body, .. } => body_text(body, max_bytes),
    }
}

/// A body read whole: its text within the byte cap, valid UTF-8 (a leading BOM dropped), or why not.
pub fn body_text(body: &[u8], max_bytes: usize) -> HttpVerdict<'_> {
    if body.len() > max_bytes {
        return HttpVerdict::Oversized;
    }
    let body = body.strip_prefix(BOM).unwrap_or(body);
    match std::str::from_utf8(body) {
        Ok(text) => HttpVerdict::Text(text),
        Err(_) => HttpVerdict::NotUtf8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(status: u16, body: &[u8]) -> HttpAnswer<'_> {
        HttpAnswer::Response { status, body }
    }

    #[test]
    fn judges_status_size_and_encoding() {
        assert_eq!(judge(ok(200, b"{}"), 2), HttpVerdict::Text("{}"));
        assert_eq!(judge(ok(204, b""), 0), HttpVerdict::Text(""));
        assert_eq!(judge(ok(299, b"x"), 1), HttpVerdict::Text("x"));
        assert_eq!(judge(ok(302, b""), 10), HttpVerdict::Status(302));
        assert_eq!(judge(ok(199, b""), 10), HttpVerdict::Status(199));
        assert_eq!(judge(ok(500, b"{}"), 10), HttpVerdict::Status(500));
        // Exactly at the cap passes; one over does not.
        assert_eq!(judge(ok(200, b"abc"), 3), HttpVerdict::Text("abc"));
        assert_eq!(judge(ok(200, b"abcd"), 3), HttpVerdict::Oversized);
        // The BOM counts against the cap (bytes on the wire) but is not part of the text.
        assert_eq!(
            judge(ok(200, b"\xEF\xBB\xBFhi"), 5),
            HttpVerdict::Text("hi")
        );
        assert_eq!(judge(ok(200, b"\xEF\xBB\xBFhi"), 4), HttpVerdict::Oversized);
        assert_eq!(judge(ok(200, b"\xff"), 10), HttpVerdict::NotUtf8);
        assert_eq!(judge(ok(200, b"\xEF\xBB"), 10), HttpVerdict::NotUtf8);
        assert_eq!(
            judge(HttpAnswer::Failed(HttpFailure::TimedOut), 1),
            HttpVerdict::TimedOut
        );
        assert_eq!(
            judge(HttpAnswer::Failed(HttpFailure::Unreachable), 1),
            HttpVerdict::Unreachable
        );
    }
}
