//! Canonical compact JSON output.
use super::document::Value;
use super::text::{Piece, Pieces};

/// Escape to emit for each byte: 0 = none, `u` = `\u00XX`, otherwise the letter after `\`.
const fn make_escapes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
}

static ESCAPES: [u8; 256] = make_escapes();
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `bytes` (UTF-8) with the minimal JSON escapes, without quotes.
fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let e = ESCAPES[b as usize];
        if e == 0 {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        if e == b'u' {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(b >> 4) as usize],
                HEX[(b & 15) as usize],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', e]);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Writes `s` as a JSON string: escapes `"`, `\` and control characters (`\n \r \t \b \f`, others
/// `\u00XX`); every other character stays UTF-8.
pub fn string(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    escaped(out, s.as_bytes());
    out.push(b'"');
}

/// Writes `v` as canonical compact JSON: no whitespace, member order kept, numbers as their source
/// text, strings re-escaped minimally. Recursion is bounded by the parser's depth limit.
/// Appends a decimal integer (ids, codes, statuses) without going through `format!`.
pub fn integer(out: &mut Vec<u8>, n: i64) {
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

/// Appends `,"key":"value"`: one string member after earlier members of an object being written.
pub fn member(out: &mut Vec<u8>, key: &str, value: &str) {
    out.push(b',');
    string(out, key);
    out.push(b':');
    string(out, value);
}

pub fn value(out: &mut Vec<u8>, v: Value<'_>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => out.extend_from_slice(n.raw().as_bytes()),
        Value::String(s) => str_value(out, s.raw(), s.has_escapes()),
        Value::Array(a) => {
            out.push(b'[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                value(out, item);
            }
            out.push(b']');
        }
        Value::Object(o) => {
            out.push(b'{');
            for (i, (k, item)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                str_value(out, k.raw(), k.has_escapes());
                out.push(b':');
                value(out, item);
            }
            out.push(b'}');
        }
    }
}

/// A parsed string span: without escapes it holds no `"`, `\` or control byte, so it is already
/// minimal; with escapes, decode and re-escape piece by piece without an intermediate String.
fn str_value(out: &mut Vec<u8>, raw: &[u8], has_escapes: bool) {
    out.push(b'"');
    if !has_escapes {
        out.extend_from_slice(raw);
    } else {
        for piece in Pieces::new(raw) {
            match piece {
                Piece::Run(r) => out.extend_from_slice(r),
                Piece::Char(c) => {
                    let mut buf = [0u8; 4];
                    escaped(out, c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }
    out.push(b'"');
}
