//! The request head as the core sees it: method, path and the few header fields it decides on.
//!
//! Hosts hand over every header line; only the fields below are kept (owned, so a host may pass
//! temporaries), and a repeated name is joined with `", "` whether or not the host joined it.
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
    Authorization,
}

const FIELDS: [(&str, Field); 9] = [
    ("origin", Field::Origin),
    ("accept", Field::Accept),
    ("content-type", Field::ContentType),
    ("content-encoding", Field::ContentEncoding),
    ("content-length", Field::ContentLength),
    ("mcp-protocol-version", Field::ProtocolVersion),
    ("mcp-method", Field::McpMethod),
    ("mcp-name", Field::McpName),
    ("authorization", Field::Authorization),
];

#[derive(Debug, PartialEq, Eq)]
pub enum HeadError {
    /// Over [`MAX_HEAD_BYTES`]: 431.
    TooLarge,
    /// Not a head record at all: the host broke the contract.
    Malformed,
}

/// `Mcp-Param-<Name>` headers: a tool parameter mirrored into a header, checked against the body.
const PARAM_PREFIX: &[u8] = b"mcp-param-";

#[derive(Debug)]
pub struct Head {
    pub method: Vec<u8>,
    /// The request target without its query.
    pub path: Vec<u8>,
    /// The query after `?`, if any (authorization refuses a token sent there).
    pub query: Option<Vec<u8>>,
    fields: [Option<Vec<u8>>; 9],
    /// (lowercase name after the prefix, value), repeated names joined; bounded by the head size.
    params: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Head {
    /// Reads a request head from its parts: the method, the raw request target (path and query) and
    /// the header lines in arrival order. Repeated names are joined with `", "`, so a host that
    /// joins them itself and one that does not give the core the same view. The size counted
    /// against [`MAX_HEAD_BYTES`] is that of the head written as `METHOD SP target CRLF` plus
    /// `name: value CRLF` per line, whichever form the host holds it in.
    pub fn read<I, N, V>(method: &[u8], target: &[u8], lines: I) -> Result<Head, HeadError>
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        if method.is_empty()
            || target.is_empty()
            || method.iter().any(|&b| b <= b' ' || b >= 0x7f)
            || target.contains(&b' ')
        {
            return Err(HeadError::Malformed);
        }
        let mut size = method.len() + target.len() + 3;
        let (path, query) = match target.iter().position(|&b| b == b'?') {
            Some(q) => (&target[..q], Some(target[q + 1..].to_vec())),
            None => (target, None),
        };
        let mut head = Head {
            method: method.to_vec(),
            path: path.to_vec(),
            query,
            fields: Default::default(),
            params: Vec::new(),
        };
        for (name, value) in lines {
            let (name, value) = (name.as_ref(), trim(value.as_ref()));
            size += name.len() + value.len() + 4;
            if size > MAX_HEAD_BYTES {
                return Err(HeadError::TooLarge);
            }
            if name.is_empty() || name.iter().any(|&b| b <= b' ' || b >= 0x7f || b == b':') {
                return Err(HeadError::Malformed);
            }
            if let Some((_, f)) = FIELDS
                .iter()
                .find(|(n, _)| name.eq_ignore_ascii_case(n.as_bytes()))
            {
                match &mut head.fields[*f as usize] {
                    Some(joined) => {
                        joined.extend_from_slice(b", ");
                        joined.extend_from_slice(value);
                    }
                    slot => *slot = Some(value.to_vec()),
                }
            } else if name.len() > PARAM_PREFIX.len()
                && name[..PARAM_PREFIX.len()].eq_ignore_ascii_case(PARAM_PREFIX)
            {
                let suffix = name[PARAM_PREFIX.len()..].to_ascii_lowercase();
                match head.params.iter_mut().find(|(n, _)| *n == suffix) {
                    Some((_, joined)) => {
                        joined.extend_from_slice(b", ");
                        joined.extend_from_slice(value);
                    }
                    None => head.params.push((suffix, value.to_vec())),
                }
            }
        }
        if size > MAX_HEAD_BYTES {
            return Err(HeadError::TooLarge);
        }
        Ok(head)
    }

    pub fn get(&self, f: Field) -> Option<&[u8]> {
        self.fields[f as usize].as_deref()
    }

    /// Moves out the headers needed after the body (header/body agreement).
    pub fn keep(&mut self) -> Kept {
        let mut take = |f: Field| self.fields[f as usize].take().map(Vec::into_boxed_slice);
        Kept {
            version: take(Field::ProtocolVersion),
            method: take(Field::McpMethod),
            name: take(Field::McpName),
            params: std::mem::take(&mut self.params),
        }
    }
}

/// The MCP headers compared with the body once it is parsed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Kept {
    pub version: Option<Box<[u8]>>,
    pub method: Option<Box<[u8]>>,
    pub name: Option<Box<[u8]>>,
    /// `Mcp-Param-*` headers: (lowercase name after the prefix, value).
    pub params: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Optional whitespace around a field value (RFC 9110 OWS; a stray CR is dropped too).
fn trim(mut v: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = v {
        v = rest;
    }
    while let [rest @ .., b' ' | b'\t' | b'\r'] = v {
        v = rest;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(target: &str, lines: &[(&str, &str)]) -> Result<Head, HeadError> {
        Head::read(
            b"POST",
            target.as_bytes(),
            lines.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())),
        )
    }

    #[test]
    fn reads_method_path_and_known_fields() {
        let h = head(
            "/mcp?x=1",
            &[
                ("Accept", "a"),
                ("X-Other", "z"),
                ("MCP-Method", "  tools/list \t"),
            ],
        )
        .unwrap();
        assert_eq!(h.method, b"POST");
        assert_eq!(h.path, b"/mcp");
        assert_eq!(h.get(Field::Accept), Some(&b"a"[..]));
        assert_eq!(h.get(Field::McpMethod), Some(&b"tools/list"[..]));
        assert_eq!(h.get(Field::Origin), None);
        assert_eq!(h.query.as_deref(), Some(&b"x=1"[..]));
        assert_eq!(head("/mcp", &[]).unwrap().query, None);
        assert_eq!(head("/mcp?", &[]).unwrap().query.as_deref(), Some(&b""[..]));
    }

    #[test]
    fn trims_optional_whitespace_and_a_stray_cr() {
        let h = head("/mcp", &[("accept", "\t a \r"), ("origin", " \t\r")]).unwrap();
        assert_eq!(h.get(Field::Accept), Some(&b"a"[..]));
        assert_eq!(h.get(Field::Origin), Some(&b""[..]));
    }

    #[test]
    fn every_known_field_is_kept_by_its_own_name() {
        let names = [
            ("Origin", Field::Origin),
            ("Accept", Field::Accept),
            ("Content-Type", Field::ContentType),
            ("Content-Encoding", Field::ContentEncoding),
            ("Content-Length", Field::ContentLength),
            ("Mcp-Protocol-Version", Field::ProtocolVersion),
            ("Mcp-Method", Field::McpMethod),
            ("Mcp-Name", Field::McpName),
            ("Authorization", Field::Authorization),
        ];
        let h = head("/mcp", &names.map(|(n, _)| (n, n))).unwrap();
        for (n, f) in names {
            assert_eq!(h.get(f), Some(n.as_bytes()), "{n}");
        }
    }

    #[test]
    fn param_headers_are_kept_lowercase_and_joined() {
        let mut h = head(
            "/mcp",
            &[
                ("Mcp-Param-City", "Paris"),
                ("mcp-param-", "no name"),
                ("mcp-paraX-y", "other"),
                ("MCP-PARAM-city", "Lyon"),
                ("mcp-param-n", "1"),
            ],
        )
        .unwrap();
        let k = h.keep();
        assert_eq!(
            k.params,
            vec![
                (b"city".to_vec(), b"Paris, Lyon".to_vec()),
                (b"n".to_vec(), b"1".to_vec()),
            ]
        );
        assert!(h.keep().params.is_empty());
    }

    #[test]
    fn repeated_names_join_in_arrival_order() {
        let h = head(
            "/mcp",
            &[
                ("accept", "application/json"),
                ("ACCEPT", "text/event-stream"),
            ],
        )
        .unwrap();
        assert_eq!(
            h.get(Field::Accept),
            Some(&b"application/json, text/event-stream"[..])
        );
        let h = head("/mcp", &[("origin", "")]).unwrap();
        assert_eq!(h.get(Field::Origin), Some(&b""[..]));
    }

    #[test]
    fn refuses_malformed_parts_and_oversize() {
        assert_eq!(
            Head::read(b"", b"/mcp", Vec::<(&[u8], &[u8])>::new()).unwrap_err(),
            HeadError::Malformed
        );
        assert_eq!(
            Head::read(b"POST", b"", Vec::<(&[u8], &[u8])>::new()).unwrap_err(),
            HeadError::Malformed
        );
        assert_eq!(
            head("/mcp HTTP/1.1", &[]).unwrap_err(),
            HeadError::Malformed
        );
        assert_eq!(
            head("/mcp", &[("", "v")]).unwrap_err(),
            HeadError::Malformed
        );
        assert_eq!(
            head("/mcp", &[("a b", "v")]).unwrap_err(),
            HeadError::Malformed
        );
        for method in [&b"PO ST"[..], b"PO\x1fST", b"POST\x7f", b"POST\xff"] {
            let r = Head::read(method, b"/mcp", Vec::<(&[u8], &[u8])>::new());
            assert_eq!(r.unwrap_err(), HeadError::Malformed);
        }
        assert!(Head::read(b"!~", b"/mcp", Vec::<(&[u8], &[u8])>::new()).is_ok());
        for name in ["a:b", "a\tb", "a\x7f", "\u{e9}"] {
            assert_eq!(
                head("/mcp", &[(name, "v")]).unwrap_err(),
                HeadError::Malformed
            );
        }
        assert!(head("/mcp", &[("!#$%&'*+-.^_`|~09AZaz", "v")]).is_ok());
        // "POST /mcp\r\n" (11 bytes) + "x: <value>\r\n": exactly at the limit, then one over.
        let at = "a".repeat(MAX_HEAD_BYTES - 11 - 5);
        assert!(head("/mcp", &[("x", &at)]).is_ok());
        let over = "a".repeat(MAX_HEAD_BYTES - 11 - 5 + 1);
        assert_eq!(
            head("/mcp", &[("x", &over)]).unwrap_err(),
            HeadError::TooLarge
        );
        // Refused as soon as the count passes the limit, before later lines are looked at.
        assert_eq!(
            head("/mcp", &[("x", &over), ("a b", "v")]).unwrap_err(),
            HeadError::TooLarge
        );
        // The request line alone counts: "POST <target>\r\n".
        let target = format!("/{}", "a".repeat(MAX_HEAD_BYTES - 8));
        assert!(head(&target, &[]).is_ok());
        let target = format!("/{}", "a".repeat(MAX_HEAD_BYTES - 7));
        assert_eq!(head(&target, &[]).unwrap_err(), HeadError::TooLarge);
    }

    #[test]
    fn keep_moves_the_mcp_headers() {
        let mut h = head("/mcp", &[("mcp-protocol-version", "v"), ("mcp-name", "n")]).unwrap();
        let k = h.keep();
        assert_eq!(k.version.as_deref(), Some(&b"v"[..]));
        assert_eq!(k.method, None);
        assert_eq!(k.name.as_deref(), Some(&b"n"[..]));
    }
}
