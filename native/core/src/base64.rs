//! Standard base64 (RFC 4648 §4), the one decoder: `=?base64?…?=` header values and the `data`/`blob`
//! members of declared content.

/// Standard base64, padding optional, non-zero trailing bits refused.
pub fn decode(s: &[u8]) -> Option<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let body = if s.len() & 3 == 0 {
        s.strip_suffix(b"==")
            .or_else(|| s.strip_suffix(b"="))
            .unwrap_or(s)
    } else {
        s
    };
    if body.len() & 3 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    for chunk in body.chunks(4) {
        let mut acc = 0u32;
        for &c in chunk {
            acc = acc << 6 | val(c)?;
        }
        match chunk.len() {
            4 => out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]),
            3 => {
                if acc & 0x3 != 0 {
                    return None;
                }
                out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]);
            }
            _ => {
                if acc & 0xf != 0 {
                    return None;
                }
                out.push((acc >> 4) as u8);
            }
        }
    }
    Some(out)
}

/// The text inside `=?base64?…?=` (prefix without regard to case), the encoded form of header
/// values that are not plain visible ASCII; `None` when `v` is not in that form.
pub fn encoded_word(v: &[u8]) -> Option<&[u8]> {
    const PREFIX: &[u8] = b"=?base64?";
    let framed = v.len() >= PREFIX.len() + 2
        && v[..PREFIX.len()].eq_ignore_ascii_case(PREFIX)
        && v.ends_with(b"?=");
    if framed {
        Some(&v[PREFIX.len()..v.len() - 2])
    } else {
        None
    }
}

/// Plain visible ASCII (space included), the other form of such header values.
pub fn is_visible_ascii(v: &[u8]) -> bool {
    v.iter().all(|&b| (0x20..0x7f).contains(&b))
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn encode_with(data: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(data.len() / 3 * 4 + 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        if pad {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    out
}

/// Padded standard base64 (RFC 4648 §4): the form of HTTP Basic credentials.
pub fn encode(data: &[u8]) -> String {
    encode_with(data, ALPHABET, true)
}

/// Unpadded base64url (RFC 4648 §5): the form of sealed request state.
pub fn encode_url(data: &[u8]) -> String {
    encode_with(data, URL_ALPHABET, false)
}

/// Unpadded base64url, strict: the URL alphabet only, no padding, no non-zero trailing bits.
pub fn decode_url(s: &[u8]) -> Option<Vec<u8>> {
    if s.contains(&b'+') || s.contains(&b'/') || s.contains(&b'=') {
        return None;
    }
    let standard: Vec<u8> = s
        .iter()
        .map(|&c| match c {
            b'-' => b'+',
            b'_' => b'/',
            c => c,
        })
        .collect();
    decode(&standard)
}

/// Whether `s` is canonical padded base64, as `data` and `blob` members must be.
pub fn is_padded(s: &[u8]) -> bool {
    s.len() & 3 == 0 && decode(s).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_refuses() {
        assert_eq!(decode(b"ZWNobw==").as_deref(), Some(&b"echo"[..]));
        assert_eq!(decode(b"ZWNobw").as_deref(), Some(&b"echo"[..]));
        assert_eq!(decode(b"").as_deref(), Some(&b""[..]));
        assert!(decode(b"ZWNobx==").is_none(), "trailing bits");
        assert!(decode(b"Z").is_none());
        assert!(decode(b"!!!!").is_none());
        assert!(is_padded(b"ZWNobw=="));
        assert!(!is_padded(b"ZWNobw"));
        assert!(!is_padded(b"ZW=obw=="));
    }

    #[test]
    fn url_round_trip() {
        for n in 0..70u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
            let text = encode_url(&data);
            assert!(!text.contains('=') && !text.contains('+') && !text.contains('/'));
            assert_eq!(decode_url(text.as_bytes()), Some(data));
        }
        assert_eq!(encode_url(b"\xfb\xff"), "-_8");
        for n in 0..70u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
            let text = encode(&data);
            assert!(is_padded(text.as_bytes()));
            assert_eq!(decode(text.as_bytes()), Some(data));
        }
        assert_eq!(encode(b"id:s"), "aWQ6cw==");
        assert!(decode_url(b"-_8=").is_none());
        assert!(decode_url(b"+/8").is_none());
        assert!(decode_url(b"-_9").is_none(), "trailing bits");
    }
}
