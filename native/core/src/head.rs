//! The head record (docs/contracts.md §3.1): `METHOD SP request-target CRLF (name: value CRLF)*`.
//!
//! Only the headers the engine decides on are kept, as slices into the record; a name repeated
//! despite the host's joining is joined the same way (`", "`), so the verdict never depends on it.
use std::borrow::Cow;

/// Head records above this are refused with 431 before anything else is looked at.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    Origin,
    Accept,
    ContentType,
    ContentEncoding,
    ContentLength,
    ProtocolVersion,
    McpMethod,
    McpName,
}

const FIELDS: [(&str, Field); 8] = [
    ("origin", Field::Origin),
    ("accept", Field::Accept),
    ("content-type", Field::ContentType),
    ("content-encoding", Field::ContentEncoding),
    ("content-length", Field::ContentLength),
    ("mcp-protocol-version", Field::ProtocolVersion),
    ("mcp-method", Field::McpMethod),
    ("mcp-name", Field::McpName),
];

#[derive(Debug, PartialEq, Eq)]
pub enum HeadError {
    /// Over [`MAX_HEAD_BYTES`]: 431.
    TooLarge,
    /// Not a head record at all: the host broke the contract.
    Malformed,
}

#[derive(Debug)]
pub struct Head<'a> {
    pub method: &'a [u8],
    /// The request target without its query.
    pub path: &'a [u8],
    fields: [Option<Cow<'a, [u8]>>; 8],
}

impl<'a> Head<'a> {
    pub fn get(&self, f: Field) -> Option<&[u8]> {
        self.fields[f as usize].as_deref()
    }

    /// Moves out the headers needed after the body (header/body agreement).
    pub fn keep(&mut self) -> Kept {
        let mut take = |f: Field| {
            self.fields[f as usize]
                .take()
                .map(|v| v.into_owned().into_boxed_slice())
        };
        Kept {
            version: take(Field::ProtocolVersion),
            method: take(Field::McpMethod),
            name: take(Field::McpName),
        }
    }
}

/// The MCP headers compared with the body once it is parsed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Kept {
    pub version: Option<Box<[u8]>>,
    pub method: Option<Box<[u8]>>,
    pub name: Option<Box<[u8]>>,
}

fn trim(mut v: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = v {
        v = rest;
    }
    while let [rest @ .., b' ' | b'\t' | b'\r'] = v {
        v = rest;
    }
    v
}

pub fn parse(record: &[u8]) -> Result<Head<'_>, HeadError> {
    if record.len() > MAX_HEAD_BYTES {
        return Err(HeadError::TooLarge);
    }
    let mut lines = record.split(|&b| b == b'\n');
    let first = lines.next().ok_or(HeadError::Malformed)?;
    let first = first.strip_suffix(b"\r").unwrap_or(first);
    let sp = first
        .iter()
        .position(|&b| b == b' ')
        .ok_or(HeadError::Malformed)?;
    let (method, target) = (&first[..sp], &first[sp + 1..]);
    if method.is_empty() || target.is_empty() || target.contains(&b' ') {
        return Err(HeadError::Malformed);
    }
    let path = match target.iter().position(|&b| b == b'?') {
        Some(q) => &target[..q],
        None => target,
    };
    let mut head = Head {
        method,
        path,
        fields: Default::default(),
    };
    let mut ended = false;
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            ended = true;
            continue;
        }
        if ended {
            return Err(HeadError::Malformed);
        }
        let colon = line
            .iter()
            .position(|&b| b == b':')
            .ok_or(HeadError::Malformed)?;
        let name = &line[..colon];
        if name.is_empty() || name.iter().any(|&b| b <= b' ' || b >= 0x7f) {
            return Err(HeadError::Malformed);
        }
        let value = trim(&line[colon + 1..]);
        if let Some((_, f)) = FIELDS
            .iter()
            .find(|(n, _)| name.eq_ignore_ascii_case(n.as_bytes()))
        {
            let slot = &mut head.fields[*f as usize];
            *slot = Some(match slot.take() {
                None => Cow::Borrowed(value),
                Some(prev) => {
                    let mut joined = prev.into_owned();
                    joined.extend_from_slice(b", ");
                    joined.extend_from_slice(value);
                    Cow::Owned(joined)
                }
            });
        }
    }
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_method_path_and_known_headers() {
        let h = parse(b"POST /mcp?x=1\r\nAccept: a\r\nX-Other: z\r\nMCP-Method:  tools/list \r\n")
            .unwrap();
        assert_eq!(h.method, b"POST");
        assert_eq!(h.path, b"/mcp");
        assert_eq!(h.get(Field::Accept), Some(&b"a"[..]));
        assert_eq!(h.get(Field::McpMethod), Some(&b"tools/list"[..]));
        assert_eq!(h.get(Field::Origin), None);
    }

    #[test]
    fn repeated_names_join_in_arrival_order() {
        let h = parse(b"POST /mcp\r\naccept: application/json\r\nACCEPT: text/event-stream\r\n")
            .unwrap();
        assert_eq!(
            h.get(Field::Accept),
            Some(&b"application/json, text/event-stream"[..])
        );
    }

    #[test]
    fn empty_value_and_trailing_blank_line() {
        let h = parse(b"POST /mcp\r\norigin:\r\n\r\n").unwrap();
        assert_eq!(h.get(Field::Origin), Some(&b""[..]));
    }

    #[test]
    fn rejects_broken_records_and_oversize() {
        assert_eq!(parse(b"").unwrap_err(), HeadError::Malformed);
        assert_eq!(parse(b"POST\r\n").unwrap_err(), HeadError::Malformed);
        assert_eq!(
            parse(b"POST /mcp HTTP/1.1\r\n").unwrap_err(),
            HeadError::Malformed
        );
        assert_eq!(
            parse(b"POST /mcp\r\nnocolon\r\n").unwrap_err(),
            HeadError::Malformed
        );
        assert_eq!(
            parse(b"POST /mcp\r\n\r\na: b\r\n").unwrap_err(),
            HeadError::Malformed
        );
        let mut big = b"POST /mcp\r\nx: ".to_vec();
        big.resize(MAX_HEAD_BYTES + 1, b'a');
        assert_eq!(parse(&big).unwrap_err(), HeadError::TooLarge);
    }

    #[test]
    fn keep_moves_the_mcp_headers() {
        let mut h = parse(b"POST /mcp\r\nmcp-protocol-version: v\r\nmcp-name: n\r\n").unwrap();
        let k = h.keep();
        assert_eq!(k.version.as_deref(), Some(&b"v"[..]));
        assert_eq!(k.method, None);
        assert_eq!(k.name.as_deref(), Some(&b"n"[..]));
    }
}
