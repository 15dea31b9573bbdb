//! The strict 2026-07-28 path, in this order: header presence, `_meta` validation, header/body
//! agreement, revision, `Mcp-Name` agreement, then the method table.
use std::borrow::Cow;

use crate::base64;
use crate::config::Config;
use crate::envelope::{meta, Envelope, CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY};
use crate::errors::{
    self, RpcError, HEADER_MISMATCH, INVALID_PARAMS, METHOD_NOT_FOUND, UNSUPPORTED_VERSION,
};
use crate::fragments::{unsupported_data, Fragments, MODERN_REVISION};
use crate::head::Kept;
use crate::json::Value;
use crate::methods::{self, Method};

/// Admits a modern request and selects its row of the method table.
pub fn admit(
    kept: &Kept,
    env: &Envelope<'_>,
    frags: &Fragments,
    config: &Config,
) -> Result<&'static Method, RpcError> {
    let method = env.method.as_str();
    let row = methods::find(&method);
    let mirror = row.and_then(|m| m.mirror);
    let (version_header, method_header) = match (&kept.version, &kept.method) {
        (Some(v), Some(m)) => (v, m),
        _ => return Err(RpcError::new(400, HEADER_MISMATCH, errors::HEADERS_MISSING)),
    };
    if mirror.is_some() && kept.name.is_none() {
        return Err(RpcError::new(400, HEADER_MISMATCH, errors::NAME_MISSING));
    }

    let meta_missing = || RpcError::new(400, INVALID_PARAMS, errors::META_MISSING);
    let params = env.params.as_ref().ok_or_else(meta_missing)?;
    let m = meta(params).ok_or_else(meta_missing)?;
    let version = match m.get(PROTOCOL_VERSION_KEY) {
        Some(Value::String(s)) => s,
        _ => return Err(meta_missing()),
    };
    if !matches!(m.get(CLIENT_CAPABILITIES_KEY), Some(Value::Object(_))) {
        return Err(meta_missing());
    }
    let version = version.as_str();

    if version.as_bytes() != &**version_header || method.as_bytes() != &**method_header {
        return Err(RpcError::new(
            400,
            HEADER_MISMATCH,
            errors::HEADERS_DISAGREE,
        ));
    }

    if version != MODERN_REVISION {
        let mut e = RpcError::new(400, UNSUPPORTED_VERSION, errors::UNSUPPORTED);
        e.data = Some(unsupported_data(&frags.unsupported_prefix, Some(&version)));
        return Err(e);
    }

    if let (Some(member), Some(header)) = (mirror, &kept.name) {
        let decoded = decode_name(header)
            .ok_or_else(|| RpcError::new(400, HEADER_MISMATCH, errors::NAME_MALFORMED))?;
        let agrees = match params.get(member) {
            Some(Value::String(s)) => s.as_str().as_bytes() == &*decoded,
            _ => false,
        };
        if !agrees {
            return Err(RpcError::new(400, HEADER_MISMATCH, errors::NAME_DISAGREES));
        }
    }

    match row {
        Some(m) if m.served(config, false) => Ok(m),
        _ => Err(RpcError::new(404, METHOD_NOT_FOUND, errors::NOT_FOUND)),
    }
}

/// Whether the request carries anything of the modern envelope: a `_meta` protocolVersion key, an
/// `Mcp-Method`/`Mcp-Name` header, or `MCP-Protocol-Version: 2026-07-28`. Such requests are never
/// downgraded to the legacy profile; every other request is envelope-less (a legacy client).
pub fn is_modern(kept: &Kept, env: &Envelope<'_>) -> bool {
    let meta_key = env
        .params
        .as_ref()
        .and_then(|p| meta(p).map(|m| m.get(PROTOCOL_VERSION_KEY).is_some()));
    meta_key == Some(true)
        || kept.method.is_some()
        || kept.name.is_some()
        || matches!(&kept.version, Some(v) if &**v == MODERN_REVISION.as_bytes())
}

/// `Mcp-Name`: plain visible ASCII, or `=?base64?<base64 of UTF-8>?=`.
pub fn decode_name(v: &[u8]) -> Option<Cow<'_, [u8]>> {
    if let Some(inner) = base64::encoded_word(v) {
        let bytes = base64::decode(inner)?;
        std::str::from_utf8(&bytes).ok()?;
        return Some(Cow::Owned(bytes));
    }
    if base64::is_visible_ascii(v) {
        Some(Cow::Borrowed(v))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_plain_and_encoded() {
        assert_eq!(decode_name(b"echo").as_deref(), Some(&b"echo"[..]));
        assert_eq!(decode_name(b"a b").as_deref(), Some(&b"a b"[..]));
        assert_eq!(
            decode_name("=?base64?w6ljaG8=?=".as_bytes()).as_deref(),
            Some("écho".as_bytes())
        );
        assert_eq!(
            decode_name("=?BASE64?w6ljaG8?=".as_bytes()).as_deref(),
            Some("écho".as_bytes())
        );
        assert_eq!(
            decode_name(b"=?base64?ZWNobw==?=").as_deref(),
            Some(&b"echo"[..])
        );
        assert_eq!(decode_name(b"=?base64??=").as_deref(), Some(&b""[..]));
        assert!(decode_name(b"=?base64?!!!!?=").is_none());
        assert!(decode_name(b"=?base64?/w==?=").is_none(), "not UTF-8");
        assert!(
            decode_name(b"=?base64?ZWNobx==?=").is_none(),
            "trailing bits"
        );
        assert!(decode_name(b"=?base64?Z?=").is_none());
        assert!(decode_name("é".as_bytes()).is_none());
        assert!(decode_name(b"a\x01").is_none());
    }
}
