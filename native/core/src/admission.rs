//! Head-level admission, in the product's order of checks: path, method (or, with `cors: true`, a
//! listed origin's preflight), Origin, Accept, Content-Type, Content-Encoding, then a Content-Length
//! already over the body limit. Every refusal here is decided before a body byte is read.
use crate::config::Config;
use crate::head::{Field, Head};
use crate::reply::Reply;

#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// An empty reply with this status (404, 405, 403, 406, 415).
    Empty(u16),
    /// The declared length already exceeds the body limit: the same 413 as when counting.
    TooLarge,
    /// `cors: true` and a listed origin's `OPTIONS`: the preflight grant, not a refusal of access.
    Preflight(Reply),
}

pub fn check(config: &Config, head: &Head) -> Result<(), Refusal> {
    if head.path != config.path.as_bytes() {
        return Err(Refusal::Empty(404));
    }
    if head.method != b"POST" {
        // A preflight is an `OPTIONS` with an `Origin`; without one it is any other method.
        return match (
            &config.cors,
            head.method == b"OPTIONS",
            head.get(Field::Origin),
        ) {
            (Some(cors), true, Some(origin)) if listed(config, origin) => {
                Err(Refusal::Preflight(cors.preflight()))
            }
            (Some(_), true, Some(_)) => Err(Refusal::Empty(403)),
            _ => Err(Refusal::Empty(405)),
        };
    }
    if let Some(origin) = head.get(Field::Origin) {
        if !listed(config, origin) {
            return Err(Refusal::Empty(403));
        }
    }
    // The JSON-RPC profile answers JSON only; the MCP transport requires both media types listed.
    if !config.jsonrpc && !matches!(head.get(Field::Accept), Some(v) if accepts_json_and_sse(v)) {
        return Err(Refusal::Empty(406));
    }
    if !matches!(head.get(Field::ContentType), Some(v) if is_json_utf8(v)) {
        return Err(Refusal::Empty(415));
    }
    if let Some(enc) = head.get(Field::ContentEncoding) {
        if !enc.eq_ignore_ascii_case(b"identity") {
            return Err(Refusal::Empty(415));
        }
    }
    if let Some(len) = head.get(Field::ContentLength) {
        if declared_over(len, config.limits.request_bytes) {
            return Err(Refusal::TooLarge);
        }
    }
    Ok(())
}

fn listed(config: &Config, origin: &[u8]) -> bool {
    config
        .allowed_origins
        .iter()
        .any(|o| o.as_bytes() == origin)
}

/// The origin every reply names in `Access-Control-Allow-Origin`: the request's own, when
/// `cors: true` and it is listed; `None` otherwise (no cross-origin header at all).
pub fn cors_origin(config: &Config, head: &Head) -> Option<String> {
    match (&config.cors, head.get(Field::Origin)) {
        // A listed origin is an exact lowercase http(s) origin: ASCII.
        (Some(_), Some(origin)) if listed(config, origin) => {
            Some(String::from_utf8_lossy(origin).into_owned())
        }
        _ => None,
    }
}

/// The declared body length when it is within `limit`: only a capacity hint, never trusted.
pub fn size_hint(head: &Head, limit: usize) -> usize {
    match head.get(Field::ContentLength).map(std::str::from_utf8) {
        Some(Ok(s)) => match s.parse::<usize>() {
            Ok(n) if n <= limit => n,
            _ => 0,
        },
        _ => 0,
    }
}

fn trim(v: &[u8]) -> &[u8] {
    let start = v
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(v.len());
    let end = v
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |i| i + 1);
    &v[start..end]
}

/// Strips one pair of surrounding double quotes from a parameter value.
fn unquote(v: &[u8]) -> &[u8] {
    match v {
        [b'"', inner @ .., b'"'] => inner,
        _ => v,
    }
}

/// `q=0`, `q=0.0`, … withdraw a media range.
fn zero_quality(params: &[u8]) -> bool {
    params.split(|&b| b == b';').any(|p| {
        let p = trim(p);
        match p.iter().position(|&b| b == b'=') {
            Some(eq) if trim(&p[..eq]).eq_ignore_ascii_case(b"q") => {
                let q = trim(&p[eq + 1..]);
                q.first() == Some(&b'0') && q[1..].iter().all(|&b| b == b'.' || b == b'0')
            }
            _ => false,
        }
    })
}

/// Both media ranges listed explicitly (wildcards do not count), each with a non-zero quality.
pub fn accepts_json_and_sse(accept: &[u8]) -> bool {
    // What MCP clients send, answered without splitting.
    if accept == b"application/json, text/event-stream" {
        return true;
    }
    let (mut json, mut sse) = (false, false);
    for range in accept.split(|&b| b == b',') {
        let (ty, params) = match range.iter().position(|&b| b == b';') {
            Some(i) => (trim(&range[..i]), &range[i + 1..]),
            None => (trim(range), &b""[..]),
        };
        if zero_quality(params) {
            continue;
        }
        json |= ty.eq_ignore_ascii_case(b"application/json");
        sse |= ty.eq_ignore_ascii_case(b"text/event-stream");
    }
    json && sse
}

/// `application/json`, optionally with `charset=utf-8`; any other parameter is refused.
pub fn is_json_utf8(content_type: &[u8]) -> bool {
    if content_type == b"application/json" {
        return true;
    }
    let mut parts = content_type.split(|&b| b == b';');
    if !matches!(parts.next(), Some(t) if trim(t).eq_ignore_ascii_case(b"application/json")) {
        return false;
    }
    parts.all(|p| {
        let p = trim(p);
        match p.iter().position(|&b| b == b'=') {
            Some(eq) => {
                trim(&p[..eq]).eq_ignore_ascii_case(b"charset")
                    && unquote(trim(&p[eq + 1..])).eq_ignore_ascii_case(b"utf-8")
            }
            None => false,
        }
    })
}

/// A decimal Content-Length above the limit; anything unparsable is left to the byte count.
fn declared_over(len: &[u8], limit: usize) -> bool {
    !len.is_empty()
        && len.iter().all(|b| b.is_ascii_digit())
        && (len.len() > 18
            || matches!(std::str::from_utf8(len).map(str::parse::<u64>), Ok(Ok(n)) if n > limit as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_needs_both_explicit_ranges() {
        assert!(accepts_json_and_sse(b"application/json, text/event-stream"));
        assert!(accepts_json_and_sse(b"text/event-stream, application/json"));
        assert!(accepts_json_and_sse(
            b"Application/JSON;q=0.9,TEXT/event-stream;q=1"
        ));
        assert!(accepts_json_and_sse(
            b"application/json; charset=utf-8, text/event-stream"
        ));
        assert!(!accepts_json_and_sse(b"application/json"));
        assert!(!accepts_json_and_sse(b"*/*"));
        assert!(!accepts_json_and_sse(b"application/*, text/*"));
        assert!(!accepts_json_and_sse(
            b"application/json, text/event-stream;q=0"
        ));
        assert!(!accepts_json_and_sse(
            b"application/json;q=0.000, text/event-stream"
        ));
        assert!(accepts_json_and_sse(
            b"application/json;q=0.001, text/event-stream"
        ));
        assert!(!accepts_json_and_sse(b""));
        // Whitespace before a comma or a parameter is not part of the type.
        assert!(accepts_json_and_sse(
            b"application/json \t, text/event-stream\t;q=1"
        ));
        // Only `q` withdraws a range; another parameter set to 0 does not.
        assert!(accepts_json_and_sse(
            b"application/json;level=0, text/event-stream"
        ));
        // A range with parameters and no type lists nothing.
        assert!(accepts_json_and_sse(
            b";q=1, application/json, text/event-stream"
        ));
    }

    fn with_length(len: &[u8]) -> Head {
        Head::read(b"POST", b"/mcp", [(&b"content-length"[..], len)]).unwrap()
    }

    #[test]
    fn size_hint_is_the_declared_length_within_the_limit() {
        assert_eq!(size_hint(&with_length(b"0"), 10), 0);
        assert_eq!(size_hint(&with_length(b"7"), 10), 7);
        assert_eq!(size_hint(&with_length(b"10"), 10), 10);
        assert_eq!(size_hint(&with_length(b"11"), 10), 0);
        assert_eq!(size_hint(&with_length(b"7x"), 10), 0);
        assert_eq!(size_hint(&with_length(b"\xff"), 10), 0);
        let none = Head::read(b"POST", b"/mcp", Vec::<(&[u8], &[u8])>::new()).unwrap();
        assert_eq!(size_hint(&none, 10), 0);
    }

    #[test]
    fn content_type_json_with_utf8_only() {
        assert!(is_json_utf8(b"application/json"));
        assert!(is_json_utf8(b"Application/Json; charset=UTF-8"));
        assert!(is_json_utf8(b"application/json;charset=\"utf-8\""));
        assert!(!is_json_utf8(b"application/json; charset=latin1"));
        assert!(!is_json_utf8(b"application/json; boundary=x"));
        assert!(!is_json_utf8(b"text/plain"));
        assert!(!is_json_utf8(b"application/json-seq"));
        assert!(!is_json_utf8(b""));
    }

    #[test]
    fn declared_length() {
        assert!(declared_over(b"65537", 65536));
        assert!(!declared_over(b"65536", 65536));
        assert!(declared_over(b"99999999999999999999999", 65536));
        // Up to 18 digits the value decides, not the number of digits.
        assert!(!declared_over(b"000000000000000001", 65536));
        assert!(declared_over(b"0000000000000000001", 65536));
        assert!(!declared_over(b"12x", 1));
        assert!(!declared_over(b"", 1));
    }
}
