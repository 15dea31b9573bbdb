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
use crate::errors::{self, RpcError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, UNSUPPORTED_VERSION};
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
        LegacyFragments { initialize, tools_list }
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

/// Modern-only profile: an envelope-less request (a legacy client) gets `-32022` listing the modern
/// revision and echoing what it asked for (initialize's `protocolVersion`, else the header).
pub fn refuse(kept: &Kept, env: &Envelope<'_>, frags: &Fragments) -> RpcError {
    let offered = if env.method.eq_str("initialize") { offered_version(env) } else { None };
    let requested = offered.or_else(|| kept.version.as_ref().and_then(|v| std::str::from_utf8(v).ok().map(str::to_string)));
    let mut e = RpcError::new(400, UNSUPPORTED_VERSION, errors::UNSUPPORTED);
    e.data = Some(unsupported_data(&frags.unsupported_prefix, requested.as_deref()));
    e
}

pub fn admit(kept: &Kept, env: &Envelope<'_>, frags: &Fragments, tools: bool) -> Result<Method, RpcError> {
    if env.method.eq_str("initialize") {
        // Any offered version is answered with 2025-06-18 (lifecycle: the server names the one it speaks).
        return match offered_version(env) {
            Some(_) => Ok(Method::Initialize),
            None => Err(RpcError::new(400, INVALID_PARAMS, errors::INIT_PARAMS)),
        };
    }
    match &kept.version {
        None => return Err(RpcError::new(400, INVALID_REQUEST, errors::NO_VERSION_HEADER)),
        Some(v) if &**v != LEGACY_REVISION.as_bytes() => {
            let mut e = RpcError::new(400, UNSUPPORTED_VERSION, errors::UNSUPPORTED);
            e.data = Some(unsupported_data(&frags.unsupported_prefix, std::str::from_utf8(v).ok()));
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
