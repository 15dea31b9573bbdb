//! Tool parameters mirrored into `Mcp-Param-<Name>` headers (`x-mcp-header` in the input schema), so
//! infrastructure can route without reading bodies. The core reads the body anyway, so it holds the
//! two to agreement: a present value needs its header, a header needs its value, and they must be
//! equal (integers numerically); anything else is 400 `-32020`.
use crate::base64;
use crate::codec::Program;
use crate::errors::{self, RpcError, HEADER_MISMATCH};
use crate::json::Value;

pub const MAX_HEADER_PARAMS: usize = 16;
const MAX_NAME: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Text,
    Integer,
    Boolean,
}

#[derive(Debug)]
pub struct HeaderParam {
    field: String,
    /// The header name after `Mcp-Param-`, lowercase (header names are case-insensitive).
    name: Vec<u8>,
    kind: Kind,
}

impl HeaderParam {
    /// The header name after `Mcp-Param-`, lowercase.
    pub fn name(&self) -> &[u8] {
        &self.name
    }
}

/// RFC 9110 `token` characters.
fn tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// `headers`: `[[field, headerName], …]`; each field a top-level string, enum, integer or boolean
/// input field, each name a token unique without regard to case.
pub fn parse(v: Value<'_>, input: Option<&Program>) -> Result<Vec<HeaderParam>, &'static str> {
    let list = match v {
        Value::Array(a) if a.len() <= MAX_HEADER_PARAMS => a,
        _ => return Err("tools: headers must be an array of at most 16 [field, headerName] pairs"),
    };
    let mut out: Vec<HeaderParam> = Vec::new();
    for pair in list.iter() {
        let (field, name) =
            match pair {
                Value::Array(p) if p.len() == 2 => match (p.get(0), p.get(1)) {
                    (Some(Value::String(f)), Some(Value::String(n))) => {
                        (f.as_str().into_owned(), n.as_str().into_owned())
                    }
                    _ => return Err(
                        "tools: headers must be an array of at most 16 [field, headerName] pairs",
                    ),
                },
                _ => {
                    return Err(
                        "tools: headers must be an array of at most 16 [field, headerName] pairs",
                    )
                }
            };
        if name.is_empty() || name.len() > MAX_NAME || !name.bytes().all(tchar) {
            return Err(
                "tools: a header parameter name must be an RFC 9110 token of 1 to 64 characters",
            );
        }
        let lower = name.to_ascii_lowercase().into_bytes();
        if out.iter().any(|p| p.name == lower) {
            return Err("tools: header parameter names must be unique (case-insensitively)");
        }
        let kind = match input.and_then(|p| p.root_field(&field)) {
            Some(("string", _)) | Some(("enum", _)) => Kind::Text,
            Some(("integer", _)) => Kind::Integer,
            Some(("boolean", _)) => Kind::Boolean,
            _ => return Err("tools: a header parameter must name a top-level string, integer or boolean input field"),
        };
        out.push(HeaderParam {
            field,
            name: lower,
            kind,
        });
    }
    Ok(out)
}

fn mismatch() -> RpcError {
    RpcError::new(400, HEADER_MISMATCH, errors::PARAM_HEADER_MISMATCH)
}

/// A header value: `=?base64?<padded base64 of UTF-8>?=`, else the visible ASCII text itself; a
/// value with only the prefix or only the suffix is literal. Stricter than `Mcp-Name` (padding
/// required), as the custom-header rules ask.
fn decode(v: &[u8]) -> Option<Vec<u8>> {
    match base64::encoded_word(v) {
        Some(inner) if base64::is_padded(inner) => String::from_utf8(base64::decode(inner)?)
            .ok()
            .map(String::into_bytes),
        Some(_) => None,
        None if base64::is_visible_ascii(v) => Some(v.to_vec()),
        None => None,
    }
}

/// Whether the decoded header text stands for the body value.
fn agrees(kind: Kind, header: &[u8], value: &Value<'_>) -> bool {
    match (kind, value) {
        (Kind::Text, Value::String(s)) => s.as_str().as_bytes() == header,
        (Kind::Integer, Value::Number(n)) => {
            let text = match std::str::from_utf8(header) {
                Ok(t) => t,
                Err(_) => return false,
            };
            let canonical = text.strip_prefix('-').unwrap_or(text);
            let digits = !canonical.is_empty()
                && canonical.bytes().all(|b| b.is_ascii_digit())
                && (canonical == "0" || !canonical.starts_with('0'));
            digits
                && matches!((text.parse::<i64>(), n.as_safe_integer()), (Ok(h), Some(b)) if h == b)
        }
        (Kind::Boolean, Value::Bool(b)) => header == if *b { &b"true"[..] } else { &b"false"[..] },
        _ => false,
    }
}

/// Checks every declared header parameter of one call against its arguments.
pub fn check(
    declared: &[HeaderParam],
    arguments: Option<&Value<'_>>,
    headers: &[(Vec<u8>, Vec<u8>)],
) -> Result<(), RpcError> {
    for p in declared {
        let value = match arguments {
            Some(Value::Object(o)) => o.get(&p.field).filter(|v| !matches!(v, Value::Null)),
            _ => None,
        };
        let header = headers
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, v)| v.as_slice());
        match (value, header) {
            (None, None) => {}
            (Some(v), Some(h)) => {
                let decoded = decode(h).ok_or_else(mismatch)?;
                if !agrees(p.kind, &decoded, &v) {
                    return Err(mismatch());
                }
            }
            _ => return Err(mismatch()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn program() -> Program {
        let doc = json::parse(
            br#"[["string",0,null],["i32",-100,100],["boolean"],["number",null,null],["object",0,[["region",0,1],["n",1,1],["b",2,1],["x",3,1]]]]"#,
            16,
        )
        .unwrap();
        Program::from_value(doc.root()).unwrap()
    }

    fn declared(text: &str) -> Result<Vec<HeaderParam>, &'static str> {
        let doc = json::parse(text.as_bytes(), 8).unwrap();
        parse(doc.root(), Some(&program()))
    }

    #[test]
    fn declarations() {
        assert_eq!(
            declared(r#"[["region","Region"],["n","N"],["b","Flag"]]"#)
                .unwrap()
                .len(),
            3
        );
        for (text, why) in [
            (r#"[["region",""]]"#, "tools: a header parameter name must be an RFC 9110 token of 1 to 64 characters"),
            (r#"[["region","Re gion"]]"#, "tools: a header parameter name must be an RFC 9110 token of 1 to 64 characters"),
            (r#"[["region","R"],["n","r"]]"#, "tools: header parameter names must be unique (case-insensitively)"),
            (r#"[["x","X"]]"#, "tools: a header parameter must name a top-level string, integer or boolean input field"),
            (r#"[["missing","M"]]"#, "tools: a header parameter must name a top-level string, integer or boolean input field"),
        ] {
            assert_eq!(declared(text).err(), Some(why), "{}", text);
        }
    }

    #[test]
    fn agreement() {
        let d = declared(r#"[["region","Region"],["n","N"],["b","Flag"]]"#).unwrap();
        let args = |text: &str| json::parse(text.as_bytes(), 8).unwrap();
        let h = |pairs: &[(&str, &str)]| -> Vec<(Vec<u8>, Vec<u8>)> {
            pairs
                .iter()
                .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
                .collect()
        };
        let ok = |a: &str, hs: &[(&str, &str)]| {
            let doc = args(a);
            check(&d, Some(&doc.root()), &h(hs)).is_ok()
        };
        assert!(ok(
            r#"{"region":"Hello"}"#,
            &[("region", "=?base64?SGVsbG8=?=")]
        ));
        assert!(ok(
            r#"{"region":"us-west1","n":-7,"b":true}"#,
            &[("region", "us-west1"), ("n", "-7"), ("flag", "true")]
        ));
        assert!(
            ok(
                r#"{"region":"=?base64?SGVsbG8="}"#,
                &[("region", "=?base64?SGVsbG8=")]
            ),
            "no suffix: literal"
        );
        assert!(ok("{}", &[]));
        assert!(ok(r#"{"region":null}"#, &[]));
        assert!(!ok(r#"{"region":"Hello"}"#, &[]), "missing header");
        assert!(!ok("{}", &[("region", "x")]), "header without value");
        assert!(
            !ok(r#"{"region":"Hello"}"#, &[("region", "=?base64?SGVsbG8?=")]),
            "padding missing"
        );
        assert!(
            !ok(
                r#"{"region":"Hello"}"#,
                &[("region", "=?base64?SGVsbG8==?=")]
            ),
            "padding wrong"
        );
        assert!(!ok(
            r#"{"region":"Hello"}"#,
            &[("region", "=?base64?SGV$bG8=?=")]
        ));
        assert!(!ok(r#"{"n":7}"#, &[("n", "07")]));
        assert!(!ok(r#"{"n":7}"#, &[("n", "8")]));
        assert!(!ok(r#"{"b":false}"#, &[("flag", "False")]));
    }
}
