//! The opt-in 2025-06-18 stateless profile (`legacyProtocol: "2025-06-18"`), and the refusal of
//! envelope-less requests on the modern-only profile.
//!
//! `initialize` is answered from prebuilt bytes and stores nothing; every later legacy request must
//! carry exactly `MCP-Protocol-Version: 2025-06-18`. Method-not-found is answered in-band with HTTP
//! 200: in 2025-06-18 Streamable HTTP a 404 means "session expired, re-initialize", and the measured
//! Codex client proceeds after an in-band `-32601` to its `resources/list` probes.
use crate::config::LEGACY_REVISION;
use crate::discover::{unsupported_data, Fragments};
use crate::envelope::Envelope;
use crate::errors::{
    self, RpcError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, UNSUPPORTED_VERSION,
};
use crate::head::Kept;
use crate::json::Value;

/// A `requested` value echoed from `initialize` params only up to this length.
const MAX_REQUESTED: usize = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Initialize,
    Ping,
    ToolsList,
    ToolsCall,
}

pub struct LegacyFragments {
    /// The initialize result object and closing brace.
    pub initialize: Vec<u8>,
    /// The legacy `tools/list` result (`{"tools":[…]}`) and closing brace (empty without tools).
    pub tools_list: Vec<u8>,
}

impl LegacyFragments {
    pub fn build(frags: &Fragments, tools_json: Option<&[u8]>) -> LegacyFragments {
        let mut initialize = b"{\"protocolVersion\":\"2025-06-18\",\"capabilities\":".to_vec();
        initialize.extend_from_slice(&frags.capabilities);
        initialize.extend_from_slice(b",\"serverInfo\":");
        initialize.extend_from_slice(&frags.server_info);
        initialize.extend_from_slice(b"}}");
        let mut tools_list = Vec::new();
        if let Some(list) = tools_json {
            tools_list.extend_from_slice(b"{\"tools\":");
            tools_list.extend_from_slice(list);
            tools_list.extend_from_slice(b"}}");
        }
        LegacyFragments {
            initialize,
            tools_list,
        }
    }
}

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

pub fn admit(
    kept: &Kept,
    env: &Envelope<'_>,
    frags: &Fragments,
    tools: bool,
) -> Result<Method, RpcError> {
    if env.method.eq_str("initialize") {
        // Any offered version is answered with 2025-06-18 (lifecycle: the server names the one it speaks).
        return match offered_version(env) {
            Some(_) => Ok(Method::Initialize),
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
    let method = env.method.as_str();
    match &*method {
        "ping" => Ok(Method::Ping),
        "tools/list" if tools => Ok(Method::ToolsList),
        "tools/call" if tools => Ok(Method::ToolsCall),
        _ => Err(RpcError::new(200, METHOD_NOT_FOUND, errors::NOT_FOUND)),
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
        let f = Fragments::build(&Config::parse(b"{}").unwrap()).unwrap();
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
        let f = Fragments::build(&Config::parse(br#"{"legacyProtocol":"2025-06-18"}"#).unwrap())
            .unwrap();
        let req = |m: &str| format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{m}"}}"#);
        let v = Some(LEGACY_REVISION);
        assert_eq!(
            with_env(&req("ping"), |e| admit(&kept(v), e, &f, false)),
            Ok(Method::Ping)
        );
        assert_eq!(
            with_env(&req("tools/list"), |e| admit(&kept(v), e, &f, true)),
            Ok(Method::ToolsList)
        );
        assert_eq!(
            with_env(&req("tools/call"), |e| admit(&kept(v), e, &f, true)),
            Ok(Method::ToolsCall)
        );
        let e = with_env(&req("tools/list"), |e| admit(&kept(v), e, &f, false)).unwrap_err();
        assert_eq!((e.status, e.code), (200, METHOD_NOT_FOUND));
        let e = with_env(&req("ping"), |e| admit(&kept(None), e, &f, false)).unwrap_err();
        assert_eq!((e.status, e.code), (400, INVALID_REQUEST));
        let e = with_env(&req("ping"), |e| {
            admit(&kept(Some("2025-11-25")), e, &f, false)
        })
        .unwrap_err();
        assert_eq!(
            data(&e),
            r#"{"supported":["2026-07-28","2025-06-18"],"requested":"2025-11-25"}"#
        );
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}"#;
        assert_eq!(
            with_env(init, |e| admit(&kept(Some("junk")), e, &f, false)),
            Ok(Method::Initialize)
        );
    }

    #[test]
    fn initialize_fragment() {
        let c = Config::parse(br#"{"serverInfo":{"name":"n","version":"v"}}"#).unwrap();
        let f = Fragments::build(&c).unwrap();
        let l = LegacyFragments::build(&f, Some(b"[]"));
        assert_eq!(l.initialize, br#"{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"n","version":"v"}}}"#);
        assert_eq!(l.tools_list, br#"{"tools":[]}}"#);
    }
}
