//! The byte forms of the C ABI (docs/contracts.md#records), and nothing else: the head record a
//! JavaScript host writes, the reply record and the effect JSON it reads. Only `abi.rs` (and tests
//! that speak the ABI's language) use them; Rust hosts work with the typed values.
use crate::effect::{CacheEntry, Effect, RateOp};
use crate::event::Fields;
use crate::json::write;
use crate::reply::Reply;

type Lines<'a> = Vec<(&'a [u8], &'a [u8])>;

/// The parts of a head record: method, target, the client's address when the host gave one, and
/// the header lines.
pub type HeadParts<'a> = (&'a [u8], &'a [u8], Option<&'a [u8]>, Lines<'a>);

/// `METHOD SP request-target [SP client-address] CRLF (name ":" SP value CRLF)*` into its parts;
/// `None` when it is not a head record. A request target holds no space, so a third word is the
/// client's address. Values are handed over as written; the engine trims and joins them.
pub fn head(record: &[u8]) -> Option<HeadParts<'_>> {
    let mut lines = record.split(|&b| b == b'\n');
    let first = lines.next()?;
    let first = first.strip_suffix(b"\r").unwrap_or(first);
    let sp = first.iter().position(|&b| b == b' ')?;
    let (method, rest) = (&first[..sp], &first[sp + 1..]);
    let (target, client) = match rest.iter().position(|&b| b == b' ') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    // Room for a typical client's header lines at once, instead of growing through 4, 8 and 16.
    let mut out = Vec::with_capacity(16);
    let mut ended = false;
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            ended = true;
            continue;
        }
        if ended {
            return None;
        }
        let colon = line.iter().position(|&b| b == b':')?;
        out.push((&line[..colon], &line[colon + 1..]));
    }
    Some((method, target, client, out))
}

/// `status CRLF (name ": " value CRLF)* CRLF body`; `connection: close` is the last header line
/// when the reply was decided before the body was complete.
pub fn reply(out: &mut Vec<u8>, r: &Reply) {
    out.reserve(96 + r.body.len());
    write::integer(out, i64::from(r.status));
    out.extend_from_slice(b"\r\n");
    for (name, value) in &r.headers {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if r.close {
        out.extend_from_slice(b"connection: close\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(&r.body);
}

/// Words of [`event`]'s fixed part: five numbers, then eight string lengths.
const EVENT_WORDS: usize = 13;

/// The request event's fields: thirteen little-endian `u32` words, then the strings' UTF-8 bytes
/// one after the other. Words: `status`, `code` (an `i32`), flags (1: `code` present, 2: `isError`
/// present, 4: `isError` true), `bytesIn`, `bytesOut` (both saturating), then the byte lengths of
/// `method`, `name`, `refusal`, `protocolVersion`, `sub`, `traceparent`, `tracestate` and `requestId`, with
/// `u32::MAX` for null. No JSON to write or parse: a JavaScript host publishing an event per request
/// reads numbers and a few short strings.
pub fn event(out: &mut Vec<u8>, f: &Fields<'_>) {
    let strings = [
        f.method,
        f.name,
        f.refusal.as_deref(),
        f.protocol_version,
        f.sub,
        f.traceparent,
        f.tracestate,
        f.request_id,
    ];
    out.reserve(EVENT_WORDS * 4 + strings.iter().flatten().map(|s| s.len()).sum::<usize>());
    let flags = u32::from(f.code.is_some())
        | (u32::from(f.is_error.is_some()) << 1)
        | (u32::from(f.is_error == Some(true)) << 2);
    let saturate = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let words = [
        u32::from(f.status),
        f.code.unwrap_or(0) as u32,
        flags,
        saturate(f.bytes_in),
        saturate(f.bytes_out),
    ];
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for s in strings {
        // The event's strings are bounded far below u32::MAX (`event::MAX_NAME_BYTES` and kin).
        let len = s.map_or(u32::MAX, |s| saturate(s.len()));
        out.extend_from_slice(&len.to_le_bytes());
    }
    for s in strings.iter().flatten() {
        out.extend_from_slice(s.as_bytes());
    }
}

/// The effect as one JSON object:
/// `{"kind":"http","backend","method","url","headers":[[n,v]…],"body"?,"maxBytes","timeoutMs","cacheKey"?}`,
/// `{"kind":"handler","op","input"?,"inputResponses"?,"progress"?,"timeoutMs"}`, or
/// `{"kind":"rate","rateCounter","penaltyBox","entry","op":"count","windowS","charge"}` /
/// `{…,"op":"penalize","ttlS"}`. `body` is text (every body the core builds is UTF-8); an absent
/// member means no body / no input.
pub fn effect(out: &mut Vec<u8>, e: &Effect) {
    match e {
        Effect::Http(h) => {
            out.extend_from_slice(b"{\"kind\":\"http\",\"backend\":");
            write::string(out, &h.backend);
            out.extend_from_slice(b",\"method\":\"");
            out.extend_from_slice(h.method.as_str().as_bytes());
            out.extend_from_slice(b"\",\"url\":");
            write::string(out, &h.url);
            out.extend_from_slice(b",\"headers\":[");
            for (i, (name, value)) in h.headers.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.push(b'[');
                write::string(out, name);
                out.push(b',');
                write::string(out, value);
                out.push(b']');
            }
            out.push(b']');
            if let Some(body) = &h.body {
                out.extend_from_slice(b",\"body\":");
                write::string(out, &String::from_utf8_lossy(body));
            }
            out.extend_from_slice(b",\"maxBytes\":");
            write::integer(out, h.max_bytes as i64);
            out.extend_from_slice(b",\"timeoutMs\":");
            write::integer(out, h.timeout_ms as i64);
            if let Some(key) = &h.cache_key {
                out.extend_from_slice(b",\"cacheKey\":");
                write::string(out, key);
            }
            out.push(b'}');
        }
        Effect::Handler(h) => {
            let len = |v: &Option<Vec<u8>>| v.as_ref().map_or(0, Vec::len);
            out.reserve(96 + h.op.len() + len(&h.input) + len(&h.input_responses));
            out.extend_from_slice(b"{\"kind\":\"handler\",\"op\":");
            write::string(out, &h.op);
            if let Some(input) = &h.input {
                out.extend_from_slice(b",\"input\":");
                out.extend_from_slice(input);
            }
            if let Some(responses) = &h.input_responses {
                out.extend_from_slice(b",\"inputResponses\":");
                out.extend_from_slice(responses);
            }
            if h.progress {
                out.extend_from_slice(b",\"progress\":true");
            }
            out.extend_from_slice(b",\"timeoutMs\":");
            write::integer(out, h.timeout_ms as i64);
            out.push(b'}');
        }
        Effect::Rate(r) => {
            out.extend_from_slice(b"{\"kind\":\"rate\",\"rateCounter\":");
            write::string(out, &r.rate_counter);
            out.extend_from_slice(b",\"penaltyBox\":");
            write::string(out, &r.penalty_box);
            out.extend_from_slice(b",\"entry\":");
            write::string(out, &r.entry);
            match r.op {
                RateOp::Count { window_s, charge } => {
                    out.extend_from_slice(b",\"op\":\"count\",\"windowS\":");
                    write::integer(out, i64::from(window_s));
                    out.extend_from_slice(if charge {
                        b",\"charge\":true}"
                    } else {
                        b",\"charge\":false}"
                    });
                }
                RateOp::Penalize { ttl_s } => {
                    out.extend_from_slice(b",\"op\":\"penalize\",\"ttlS\":");
                    write::integer(out, i64::from(ttl_s));
                    out.push(b'}');
                }
            }
        }
    }
}

/// `{"key","ttlMs","value"}`: an introspection cache entry, its value as text (the core writes
/// JSON there).
pub fn cache_entry(out: &mut Vec<u8>, e: &CacheEntry) {
    out.extend_from_slice(b"{\"key\":");
    write::string(out, &e.key);
    out.extend_from_slice(b",\"ttlMs\":");
    write::integer(out, e.ttl_ms as i64);
    out.extend_from_slice(b",\"value\":");
    write::string(out, &String::from_utf8_lossy(&e.value));
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{HandlerEffect, HttpEffect, HttpMethod};
    use crate::reply::Timing;

    /// The event record read back the way `src/core/engine.ts` reads it.
    fn words(r: &[u8]) -> Vec<u32> {
        r[..EVENT_WORDS * 4]
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn event_records_hold_numbers_flags_and_strings() {
        let f = Fields {
            method: Some("tools/call"),
            request_id: Some("7"),
            name: Some("écho"),
            status: 400,
            code: Some(-32020),
            is_error: None,
            refusal: Some("name_missing".to_string()),
            bytes_in: 7,
            bytes_out: usize::MAX,
            protocol_version: Some("2026-07-28"),
            sub: None,
            traceparent: None,
            tracestate: Some(""),
        };
        let mut out = Vec::new();
        event(&mut out, &f);
        let null = u32::MAX;
        assert_eq!(
            words(&out),
            [
                400,
                -32020i32 as u32,
                1,
                7,
                null,
                10,
                5,
                12,
                10,
                null,
                null,
                0,
                1
            ]
        );
        assert_eq!(
            &out[52..],
            "tools/calléchoname_missing2026-07-287".as_bytes()
        );
        let f = Fields {
            code: None,
            is_error: Some(true),
            refusal: None,
            tracestate: None,
            ..f
        };
        out.clear();
        event(&mut out, &f);
        assert_eq!(words(&out)[..3], [400, 0, 6]);
        let f = Fields {
            is_error: Some(false),
            ..f
        };
        out.clear();
        event(&mut out, &f);
        assert_eq!(words(&out)[2], 2);
    }

    #[test]
    fn head_records_split_into_parts() {
        let (m, t, client, lines) = head(b"POST /mcp?x\r\naccept: a\r\nx:\r\n\r\n").unwrap();
        assert_eq!((m, t, client), (&b"POST"[..], &b"/mcp?x"[..], None));
        assert_eq!(
            lines,
            vec![(&b"accept"[..], &b" a"[..]), (&b"x"[..], &b""[..])]
        );
        let (_, t, client, _) = head(b"POST /mcp 2001:db8::1\r\n\r\n").unwrap();
        assert_eq!((t, client), (&b"/mcp"[..], Some(&b"2001:db8::1"[..])));
        assert!(head(b"").is_none());
        assert!(head(b"POST\r\n").is_none());
        assert!(head(b"POST /mcp\r\nnocolon\r\n").is_none());
        assert!(head(b"POST /mcp\r\n\r\na: b\r\n").is_none());
    }

    #[test]
    fn replies_become_records() {
        let mut out = Vec::new();
        reply(&mut out, &Reply::empty(405, Timing::Early));
        assert_eq!(
            out,
            b"405\r\nallow: POST\r\ncache-control: no-store\r\nconnection: close\r\n\r\n"
        );
        out.clear();
        reply(&mut out, &Reply::result(b"1", b"{}", 100));
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "200\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"
        );
    }

    #[test]
    fn effects_become_json() {
        let mut out = Vec::new();
        effect(
            &mut out,
            &Effect::Http(HttpEffect {
                backend: "api".into(),
                method: HttpMethod::Post,
                url: "https://api.example/v1".into(),
                headers: vec![("content-type", "application/json".into())],
                body: Some(br#"{"q":"\""}"#.to_vec()),
                max_bytes: 10,
                timeout_ms: 5,
                cache_key: None,
            }),
        );
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            r#"{"kind":"http","backend":"api","method":"POST","url":"https://api.example/v1","headers":[["content-type","application/json"]],"body":"{\"q\":\"\\\"\"}","maxBytes":10,"timeoutMs":5}"#
        );
        out.clear();
        effect(
            &mut out,
            &Effect::Handler(HandlerEffect {
                op: "a".into(),
                input: None,
                input_responses: None,
                progress: false,
                timeout_ms: 1,
            }),
        );
        assert_eq!(out, br#"{"kind":"handler","op":"a","timeoutMs":1}"#);
    }
}
