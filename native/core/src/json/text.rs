//! Byte classes, UTF-8 lead rules and lazy decoding of escaped string spans.
//!
//! Decoding functions take spans the parser has already validated; they never see arbitrary input.

/// Plain string content byte (copied as is).
pub(crate) const PLAIN: u8 = 0;
pub(crate) const QUOTE: u8 = 1;
pub(crate) const BACKSLASH: u8 = 2;
pub(crate) const CONTROL: u8 = 3;
pub(crate) const HIGH: u8 = 4;

const fn make_class() -> [u8; 256] {
    let mut t = [PLAIN; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i < 0x20 {
            CONTROL
        } else if i == b'"' as usize {
            QUOTE
        } else if i == b'\\' as usize {
            BACKSLASH
        } else if i >= 0x80 {
            HIGH
        } else {
            PLAIN
        };
        i += 1;
    }
    t
}

/// Class of each byte inside a string: one load per byte in the hot loop.
pub(crate) static CLASS: [u8; 256] = make_class();

/// For a UTF-8 lead byte: (continuation bytes, allowed range of the first continuation byte).
/// The narrowed ranges reject overlongs (E0, F0), UTF-8-encoded surrogates (ED) and values above
/// U+10FFFF (F4); C0, C1 and F5..FF are never leads (Unicode Table 3-7).
#[inline]
pub(crate) fn utf8_lead(b: u8) -> Option<(u8, u8, u8)> {
    match b {
        0xC2..=0xDF => Some((1, 0x80, 0xBF)),
        0xE0 => Some((2, 0xA0, 0xBF)),
        0xE1..=0xEC | 0xEE..=0xEF => Some((2, 0x80, 0xBF)),
        0xED => Some((2, 0x80, 0x9F)),
        0xF0 => Some((3, 0x90, 0xBF)),
        0xF1..=0xF3 => Some((3, 0x80, 0xBF)),
        0xF4 => Some((3, 0x80, 0x8F)),
        _ => None,
    }
}

#[inline]
pub(crate) fn hex_value(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some((b - b'0') as u32),
        b'a'..=b'f' => Some((b - b'a' + 10) as u32),
        b'A'..=b'F' => Some((b - b'A' + 10) as u32),
        _ => None,
    }
}

fn hex4(s: &[u8]) -> u32 {
    s[..4]
        .iter()
        .fold(0, |acc, &b| (acc << 4) | hex_value(b).unwrap_or(0))
}

/// A piece of a decoded string: a run of bytes copied verbatim, or the character of one escape.
pub(crate) enum Piece<'a> {
    Run(&'a [u8]),
    Char(char),
}

/// Splits a validated escaped span into runs and decoded escapes.
pub(crate) struct Pieces<'a> {
    raw: &'a [u8],
    i: usize,
}

impl<'a> Pieces<'a> {
    pub(crate) fn new(raw: &'a [u8]) -> Pieces<'a> {
        Pieces { raw, i: 0 }
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        let raw = self.raw;
        let i = self.i;
        if i >= raw.len() {
            return None;
        }
        if raw[i] != b'\\' {
            let end = raw[i..]
                .iter()
                .position(|&b| b == b'\\')
                .map_or(raw.len(), |k| i + k);
            self.i = end;
            return Some(Piece::Run(&raw[i..end]));
        }
        let (c, len) = match raw[i + 1] {
            b'"' => ('"', 2),
            b'\\' => ('\\', 2),
            b'/' => ('/', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'n' => ('\n', 2),
            b'r' => ('\r', 2),
            b't' => ('\t', 2),
            _ => {
                let hi = hex4(&raw[i + 2..]);
                if (0xD800..0xDC00).contains(&hi) {
                    let lo = hex4(&raw[i + 8..]);
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                    (char::from_u32(c).unwrap_or('\u{FFFD}'), 12)
                } else {
                    (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
                }
            }
        };
        self.i = i + len;
        Some(Piece::Char(c))
    }
}

/// The decoded UTF-8 bytes of a validated escaped span, without allocating.
pub(crate) struct DecodedBytes<'a> {
    pieces: Pieces<'a>,
    run: &'a [u8],
    ch: [u8; 4],
    ch_i: u8,
    ch_n: u8,
}

impl<'a> DecodedBytes<'a> {
    pub(crate) fn new(raw: &'a [u8]) -> DecodedBytes<'a> {
        DecodedBytes {
            pieces: Pieces::new(raw),
            run: &[],
            ch: [0; 4],
            ch_i: 0,
            ch_n: 0,
        }
    }
}

impl<'a> Iterator for DecodedBytes<'a> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        loop {
            if self.ch_i < self.ch_n {
                let b = self.ch[self.ch_i as usize];
                self.ch_i += 1;
                return Some(b);
            }
            if let Some((&b, rest)) = self.run.split_first() {
                self.run = rest;
                return Some(b);
            }
            match self.pieces.next()? {
                Piece::Run(r) => self.run = r,
                Piece::Char(c) => {
                    self.ch_n = c.encode_utf8(&mut self.ch).len() as u8;
                    self.ch_i = 0;
                }
            }
        }
    }
}

/// A span the parser validated as UTF-8 (the body is checked once, byte by byte, while parsing;
/// spans are converted when read instead of converting the whole body). Never fails for such spans.
#[inline]
pub(crate) fn validated(span: &[u8]) -> &str {
    core::str::from_utf8(span).unwrap_or("\u{FFFD}")
}

/// Appends the decoded text of a validated escaped span.
pub(crate) fn decode_into(raw: &[u8], out: &mut String) {
    for piece in Pieces::new(raw) {
        match piece {
            // Runs of a validated span are whole UTF-8 sequences (they end at a backslash or the end).
            Piece::Run(r) => out.push_str(validated(r)),
            Piece::Char(c) => out.push(c),
        }
    }
}

/// Whether two validated spans decode to the same text.
pub(crate) fn spans_equal(a: &[u8], a_escaped: bool, b: &[u8], b_escaped: bool) -> bool {
    match (a_escaped, b_escaped) {
        (false, false) => a == b,
        (true, false) => DecodedBytes::new(a).eq(b.iter().copied()),
        (false, true) => DecodedBytes::new(b).eq(a.iter().copied()),
        (true, true) => DecodedBytes::new(a).eq(DecodedBytes::new(b)),
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a (64-bit) of the decoded text of a validated span.
pub(crate) fn span_hash(raw: &[u8], escaped: bool) -> u64 {
    let step = |h: u64, b: u8| (h ^ b as u64).wrapping_mul(FNV_PRIME);
    if escaped {
        DecodedBytes::new(raw).fold(FNV_OFFSET, step)
    } else {
        raw.iter().fold(FNV_OFFSET, |h, &b| step(h, b))
    }
}
