//! The opt-in 2025-06-18 stateless profile (`legacyProtocol: "2025-06-18"`), and the refusal of
//! envelope-less requests on the modern-only profile.
//!
//! `initialize` is answered from a prebuilt result and stores nothing; every later legacy request must
//! carry exactly `MCP-Protocol-Version: 2025-06-18`. Method-not-found is 404 `-32601` with the id, as
//! on the modern profile. 2025-06-18 reads a 404 as "session expired" only for a request that carried
//! an `Mcp-Session-Id`, which this stateless profile never issues. The pinned Codex probes
//! `resources/list` and `resources/templates/list` after `tools/list` and goes on listing and calling
//! tools (`npm run qualify`: `codex.dual mcpServerStatus/list`, `codex.dual mcpServer/tool/call`).
use crate::config::{Config, LEGACY_REVISION};
use crate::envelope::Envelope;
use crate::errors::{
    self, RpcError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, UNSUPPORTED_VERSION,
};
use crate::fragments::{unsupported_data, Fragments};
use crate::head::Kept;
use crate::json::Value;
use crate::methods::{self, Legacy, Method};

/// A `requested` value echoed from `initialize` params only up to this length.
const MAX_REQUESTED: usize = 128;

/// `params.protocolVersion` of an `initialize`, when it is a short string.
fn offered_version(env: &Envelope<'_>) -> Option<String> {
    match env.params.as_ref()?.get("protocolVersion") {
        Some(Value::String(s)) => {
            let v = s.as_str();
            if v.len() <= MAX_REQUESTED {
                Some(v.into_owned())
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The `MCP-Protocol-Version` header as a short string, for `requested`.
fn header_version(kept: &Kept) -> Option<&str> {
    let v = std::str::from_utf8(kept.version.as_deref()?).ok()?;
    if v.len() <= MAX_REQUESTED {
        Some(v)
    } else {
        None
    }
}

/// Modern-only profile: an envelope-less request (a legacy client) gets `-32022` listing the modern
/// revision and echoing what it asked for (initialize's `protocolVersion`, else the header); with no
/// revision named anywhere it gets the modern missing-header answer, `-32020`.
pub fn refuse(kept: &Kept, env: &Envelope<'_>, frags: &Fragments) -> RpcError {
    let offered = if env.method.eq_str("initialize") {
        offered_version(env)
    } else {
        None
    };
    let requested = match offered.or_else(|| header_version(kept).map(str::to_string)) {
        Some(r) => r,
        // Nothing names a revision: the modern header-presence rule applies (-32022 must echo one).
        None => return RpcError::new(400, errors::HEADER_MISMATCH, errors::HEADERS_MISSING),
    };
    let mut e = RpcError::new(400, UNSUPPORTED_VERSION, errors::UNSUPPORTED);
    e.data = Some(unsupported_data(
        &frags.unsupported_prefix,
        Some(&requested),
    ));
    e
}

/// Admits an envelope-less request on the legacy profile and selects its row of the method table.
pub fn admit(
    kept: &Kept,
    env: &Envelope<'_>,
    frags: &Fragments,
    config: &Config,
) -> Result<&'static Method, RpcError> {
    let row = methods::find(&env.method.as_str());
    if matches!(row, Some(m) if m.legacy == Legacy::Handshake) {
        // Any offered version is answered with 2025-06-18 (the server names the one it speaks).
        return match offered_version(env) {
            Some(_) => Ok(row.unwrap_or_else(|| unreachable!("matched above"))),
            None => Err(RpcError::new(400, INVALID_PARAMS, errors::INIT_PARAMS)),
        };
    }
    match &kept.version {
        None => {
            return Err(RpcError::new(
                400,
                INVALID_REQUEST,
                errors::NO_VERSION_HEADER,
            ))
        }
        Some(v) if &**v != LEGACY_REVISION.as_bytes() => {
            let mut e = RpcError::new(400, UNSUPPORTED_VERSION, errors::UNSUPPORTED);
            e.data = Some(unsupported_data(
                &frags.unsupported_prefix,
                header_version(kept),
            ));
            return Err(e);
        }
        Some(_) => {}
    }
    match row {
        Some(m) if m.served(config, true) => Ok(m),
        _ => Err(RpcError::new(404, METHOD_NOT_FOUND, errors::NOT_FOUND)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::envelope::classify;
    use crate::json;

    fn kept(version: Option<&str>) -> Kept {
        Kept {
            version: version.map(|v| v.as_bytes().into()),
            method: None,
            name: None,
            params: Vec::new(),
        }
    }

    fn with_env<R>(body: &str, f: impl FnOnce(&Envelope<'_>) -> R) -> R {
        let doc = json::parse(body.as_bytes(), 8).unwrap();
        let root = doc.root();
        let env = classify(&root).ok().unwrap();
        f(&env)
    }

    fn data(e: &RpcError) -> &str {
        std::str::from_utf8(e.data.as_deref().unwrap()).unwrap()
    }

    #[test]
    fn refusal_echoes_the_offered_or_header_version_when_short() {
        let f = crate::discover::build(&Config::parse(b"{}").unwrap()).unwrap();
        let init = |v: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":{v}}}}}"#
            )
        };
        let e = with_env(&init("\"2025-06-18\""), |env| {
            refuse(&kept(Some("2025-03-26")), env, &f)
        });
        assert_eq!((e.status, e.code), (400, UNSUPPORTED_VERSION));
        assert_eq!(
            data(&e),
            r#"{"supported":["2026-07-28"],"requested":"2025-06-18"}"#
        );
        let e = with_env(&init("1"), |env| refuse(&kept(Some("2025-03-26")), env, &f));
        assert_eq!(
            data(&e),
            r#"{"supported":["2026-07-28"],"requested":"2025-03-26"}"#
        );
        let long = format!("\"{}\"", "v".repeat(MAX_REQUESTED + 1));
        // Nothing echoable names a revision: the missing-header answer, never a -32022 without
        // the `requested` member the schema requires.
        let e = with_env(&init(&long), |env| refuse(&kept(None), env, &f));
        assert_eq!((e.code, e.data.is_none()), (errors::HEADER_MISMATCH, true));
        let e = with_env(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"protocolVersion":"x"}}"#,
            |env| refuse(&kept(None), env, &f),
        );
        assert_eq!(
            (e.code, e.data.is_none()),
            (errors::HEADER_MISMATCH, true),
            "only initialize offers a version"
        );
    }

    #[test]
    fn admission_of_the_legacy_profile() {
        let bare = Config::parse(br#"{"legacyProtocol":"2025-06-18"}"#).unwrap();
        let text = format!(
            r#"{{"legacyProtocol":"2025-06-18","tools":{}}}"#,
            crate::tools::tests::manifest()
        );
        let tools = Config::parse(text.as_bytes()).unwrap();
        let f = crate::discover::build(&bare).unwrap();
        let req = |m: &str| format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{m}"}}"#);
        let v = Some(LEGACY_REVISION);
        let name = |r: Result<&'static Method, RpcError>| r.map(|m| m.name);
        assert_eq!(
            with_env(&req("ping"), |e| name(admit(&kept(v), e, &f, &bare))),
            Ok("ping")
        );
        assert_eq!(
            with_env(&req("tools/list"), |e| name(admit(&kept(v), e, &f, &tools))),
            Ok("tools/list")
        );
        assert_eq!(
            with_env(&req("tools/call"), |e| name(admit(&kept(v), e, &f, &tools))),
            Ok("tools/call")
        );
        let e = with_env(&req("tools/list"), |e| admit(&kept(v), e, &f, &bare)).unwrap_err();
        assert_eq!((e.status, e.code), (404, METHOD_NOT_FOUND));
        let e = with_env(&req("server/discover"), |e| admit(&kept(v), e, &f, &bare)).unwrap_err();
        assert_eq!(
            (e.status, e.code),
            (404, METHOD_NOT_FOUND),
            "modern-only row"
        );
        let e = with_env(&req("ping"), |e| admit(&kept(None), e, &f, &bare)).unwrap_err();
        assert_eq!((e.status, e.code), (400, INVALID_REQUEST));
        let e = with_env(&req("ping"), |e| {
            admit(&kept(Some("2025-11-25")), e, &f, &bare)
        })
        .unwrap_err();
        assert_eq!(
            data(&e),
            r#"{"supported":["2026-07-28","2025-06-18"],"requested":"2025-11-25"}"#
        );
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}"#;
        assert_eq!(
            with_env(init, |e| name(admit(&kept(Some("junk")), e, &f, &bare))),
            Ok("initialize")
        );
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        let e = with_env(init, |e| admit(&kept(None), e, &f, &bare)).unwrap_err();
        assert_eq!((e.status, e.code), (400, INVALID_PARAMS));
    }
}
