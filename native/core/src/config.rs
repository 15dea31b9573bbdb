//! The engine configuration (docs/contracts.md#engine-configuration), validated once at construction. This is the one
//! judge of every plain-data option the hosts pass through: each message names the user's option and
//! the offending entry (`allowedOrigins[2]`, `limits.requestBytes`), never the value.
use crate::authorization::Authorization;
use crate::cors::Cors;
use crate::decl::known_key;
pub use crate::decl::{secret_ref, ConfigError, SecretRef};
use crate::hmac::Hmac;
use crate::json::{self, JsonError, Object, Value};
use crate::limits::Limits;
use crate::prompts::Prompts;
use crate::rate_limit::RateLimit;
use crate::resources::Resources;
use crate::state::{StateKey, MAX_KEY_BYTES, MIN_KEY_BYTES};
use crate::tools::Tools;
use crate::url::{Url, Use};

/// The only legacy revision the compatibility profile speaks.
pub const LEGACY_REVISION: &str = "2025-06-18";
pub const MAX_PATH_BYTES: usize = 256;
pub const MAX_ORIGINS: usize = 64;
pub const MAX_INFO_CHARS: usize = 128;
/// Nesting admitted in the configuration text itself (the manifest nests deeper than requests).
const CONFIG_DEPTH: u32 = 128;
/// Room the response budget must leave above the request budget for echoed ids in errors.
pub const RESPONSE_HEADROOM: usize = 512;

const OPTION_KEYS: [&str; 21] = [
    "path",
    "allowedOrigins",
    "cors",
    "serverInfo",
    "limits",
    "legacyProtocol",
    "tools",
    "profile",
    "resources",
    "resourceTemplates",
    "prompts",
    "listCacheTtlMs",
    "listCacheScope",
    "requestStateKey",
    "unsealedRequestState",
    "serverCard",
    "authorization",
    "progress",
    "contentBlocks",
    "fastlyLogEndpoint",
    "rateLimit",
];
/// Default freshness of list results and resource reads: five minutes.
pub const DEFAULT_LIST_CACHE_TTL_MS: u64 = 300_000;
/// The longest freshness a server may promise: one day.
pub const MAX_LIST_CACHE_TTL_MS: u64 = 86_400_000;
const LIMIT_KEYS: [&str; 5] = [
    "requestBytes",
    "responseBytes",
    "depth",
    "deadlineMs",
    "toolResultBytes",
];

pub struct Config {
    pub path: String,
    pub allowed_origins: Vec<String>,
    /// `cors: true`: browser clients of the listed origins may call (needs `allowedOrigins`).
    pub cors: Option<Cors>,
    pub server_name: String,
    pub server_version: String,
    pub limits: Limits,
    /// `legacyProtocol: "2025-06-18"`.
    pub legacy: bool,
    /// `profile: "jsonrpc"`.
    pub jsonrpc: bool,
    pub tools: Option<Tools>,
    pub resources: Option<Resources>,
    pub prompts: Option<Prompts>,
    /// Some prompt argument or template variable declares completion values (computed once: the
    /// method table asks on every request).
    pub completions: bool,
    pub list_cache: ListCache,
    /// Seals the `requestState` of multi-round requests; `None` when nothing declares inputs, or
    /// while the secret named by `state_key_secret` is not installed.
    pub state_key: Option<StateKey>,
    /// `requestStateKey: {"secretStore", "key"}`, until the host installs that secret with
    /// `Engine::install_secret`: the key then lives in the host's secret store, in no build artifact.
    pub state_key_secret: Option<SecretRef>,
    /// Serve the server card (`serverCard: true`).
    pub server_card: bool,
    /// OAuth resource-server admission of every MCP request.
    pub authorization: Option<Authorization>,
    /// `progress: true`: a `tools/call` whose client sent `_meta.progressToken` gives its
    /// JavaScript handler a progress channel (the reply may become an event stream). Off, every
    /// reply is plain JSON.
    pub progress: bool,
    /// `contentBlocks: true`: tools may return MCP content blocks (`content: true` in the
    /// manifest) instead of their typed text and `structuredContent`.
    pub content_blocks: bool,
    /// `fastlyLogEndpoint`: the Fastly log endpoint the Native service writes each request event
    /// to, one line per request; the Node and Fetch hosts ignore it.
    pub log_endpoint: Option<String>,
    /// `rateLimit`: the budgets per client address and per caller (`rate_limit.rs`).
    pub rate_limit: Option<RateLimit>,
}

/// The caching hints of list results and resource reads (`ttlMs`, `cacheScope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListCache {
    pub ttl_ms: u64,
    /// `"public"`: shared caches may reuse results across users; else `"private"`.
    pub public: bool,
}

impl Config {
    pub fn parse(text: &[u8]) -> Result<Config, ConfigError> {
        let doc = json::parse(text, CONFIG_DEPTH).map_err(|e| {
            match e {
                JsonError::Depth => "options: must nest at most 128 levels deep",
                JsonError::DuplicateKey => "options: an object repeats a key",
                JsonError::LoneSurrogate => "options: a string holds a lone surrogate",
                _ => "options: must be a JSON object",
            }
            .to_string()
        })?;
        let root = match doc.root() {
            Value::Object(o) => o,
            _ => return Err("options: must be a JSON object".to_string()),
        };
        for (key, _) in root.iter() {
            known_key("options", key, &OPTION_KEYS)?;
        }
        let path = match present(root.get("path")) {
            None => "/mcp".to_string(),
            Some(Value::String(s)) => {
                let p = s.as_str().into_owned();
                if !valid_path(&p) {
                    return Err("path: must start with / and hold at most 256 visible ASCII characters, no query".to_string());
                }
                p
            }
            Some(_) => return Err("path: must be a string".to_string()),
        };
        let allowed_origins = parse_origins(present(root.get("allowedOrigins")))?;
        let (server_name, server_version) = parse_server_info(present(root.get("serverInfo")))?;
        let limits = parse_limits(present(root.get("limits")))?;
        let legacy = match present(root.get("legacyProtocol")) {
            None => false,
            Some(Value::String(s)) if s.eq_str(LEGACY_REVISION) => true,
            Some(_) => return Err("legacyProtocol: must be null or \"2025-06-18\"".to_string()),
        };
        // `jsonrpc`: the router as a plain JSON-RPC 2.0 endpoint (`jsonRpc(router)`), no MCP layer.
        let jsonrpc = match present(root.get("profile")) {
            None => false,
            Some(Value::String(s)) if s.eq_str("mcp") => false,
            Some(Value::String(s)) if s.eq_str("jsonrpc") => true,
            Some(_) => return Err("profile: must be \"mcp\" or \"jsonrpc\"".to_string()),
        };
        let tools = match present(root.get("tools")) {
            None => None,
            Some(manifest) => Some(Tools::from_manifest(manifest, &limits)?),
        };
        if jsonrpc && (tools.is_none() || legacy) {
            return Err("profile: \"jsonrpc\" needs tools and no legacyProtocol".to_string());
        }
        let progress = flag(root, "progress")?;
        let content_blocks = flag(root, "contentBlocks")?;
        // The JSON-RPC profile answers with one JSON body (no event stream) and gives a content
        // tool's blocks as its plain result: neither opt-in means anything there.
        if jsonrpc && progress {
            return Err(
                "profile: \"jsonrpc\" answers with one JSON body, never progress; drop progress"
                    .to_string(),
            );
        }
        if jsonrpc && content_blocks {
            return Err("profile: \"jsonrpc\" returns a content tool's blocks as its result; drop contentBlocks".to_string());
        }
        let unannounced = tools.as_ref().and_then(|t| t.content_tool());
        if let Some(name) = unannounced.filter(|_| !content_blocks && !jsonrpc) {
            return Err(content_refusal(name));
        }
        let resources = Resources::parse(
            present(root.get("resources")),
            present(root.get("resourceTemplates")),
        )?;
        let prompts = Prompts::parse(present(root.get("prompts")))?;
        if jsonrpc && (resources.is_some() || prompts.is_some()) {
            return Err("profile: \"jsonrpc\" serves tools only; drop resources, resourceTemplates and prompts".to_string());
        }
        let (state_key, state_key_secret) = parse_state_key(
            present(root.get("requestStateKey")),
            present(root.get("unsealedRequestState")),
        )?;
        let declares_inputs = matches!(&tools, Some(t) if t.declares_inputs())
            || matches!(&prompts, Some(p) if p.declares_inputs());
        if declares_inputs && state_key.is_none() && state_key_secret.is_none() {
            return Err("requestStateKey: required (at least 32 bytes) when a tool or prompt declares inputs; or set unsealedRequestState: true to accept unsigned, untrusted state".to_string());
        }
        let completions = matches!(&prompts, Some(p) if p.has_completions())
            || matches!(&resources, Some(r) if r.has_completions());
        let server_card = match present(root.get("serverCard")) {
            None => false,
            Some(Value::Bool(b)) => b,
            Some(_) => return Err("serverCard: must be a boolean".to_string()),
        };
        if jsonrpc && server_card {
            return Err("profile: \"jsonrpc\" serves no server card; drop serverCard".to_string());
        }
        let authorization = match present(root.get("authorization")) {
            None => None,
            Some(v) => Some(Authorization::parse(v, &path, tools.as_ref())?),
        };
        if authorization.is_some() && jsonrpc {
            return Err("profile: \"jsonrpc\" is a backend's endpoint; authorization belongs to the MCP host in front of it".to_string());
        }
        if authorization.is_some() && server_card {
            return Err("serverCard: the card lists every tool without authentication; it cannot be combined with authorization".to_string());
        }
        let cors =
            match flag(root, "cors")? {
                false => None,
                true if allowed_origins.is_empty() => return Err(
                    "cors: needs allowedOrigins, the exact origins browser clients may call from"
                        .to_string(),
                ),
                true => Some(Cors::new(tools.as_ref())),
            };
        let log_endpoint = parse_log_endpoint(present(root.get("fastlyLogEndpoint")))?;
        let rate_limit = match present(root.get("rateLimit")) {
            None => None,
            Some(v) => Some(RateLimit::parse(v, tools.as_ref())?),
        };
        if rate_limit.is_some() && jsonrpc {
            return Err("profile: \"jsonrpc\" is a backend's endpoint; rate limits belong to the MCP host in front of it".to_string());
        }
        let list_cache = parse_list_cache(
            present(root.get("listCacheTtlMs")),
            present(root.get("listCacheScope")),
        )?;
        Ok(Config {
            path,
            allowed_origins,
            cors,
            server_name,
            server_version,
            limits,
            legacy,
            jsonrpc,
            tools,
            resources,
            completions,
            prompts,
            list_cache,
            state_key,
            state_key_secret,
            server_card,
            authorization,
            progress,
            content_blocks,
            log_endpoint,
            rate_limit,
        })
    }
}

/// The longest Fastly log endpoint name.
const MAX_LOG_ENDPOINT_BYTES: usize = 255;

/// A Fastly log endpoint name: visible ASCII, and none of the names Fastly keeps for itself
/// (`endpoint_get` refuses them).
fn parse_log_endpoint(v: Option<Value<'_>>) -> Result<Option<String>, ConfigError> {
    let name = match v {
        None => return Ok(None),
        Some(Value::String(s)) => s.as_str().into_owned(),
        Some(_) => String::new(),
    };
    let lower = name.to_ascii_lowercase();
    let reserved = lower == "stdout" || lower == "stderr" || lower.starts_with("fst_managed_");
    if name.is_empty()
        || name.len() > MAX_LOG_ENDPOINT_BYTES
        || !name.bytes().all(|b| (0x21..0x7f).contains(&b))
        || reserved
    {
        return Err("fastlyLogEndpoint: must be the name of a Fastly log endpoint: 1 to 255 visible ASCII characters, not stdout, stderr or fst_managed_*".to_string());
    }
    Ok(Some(name))
}

/// A content tool in a configuration without `contentBlocks: true`. A valid tool name is plain
/// ASCII of the name alphabet, safe to quote.
fn content_refusal(tool: &str) -> ConfigError {
    format!(
        "tools: tool \"{}\" returns content blocks; enable them with contentBlocks: true",
        tool
    )
}

/// A boolean option, `false` when absent or null.
fn flag(root: Object<'_>, key: &str) -> Result<bool, ConfigError> {
    match present(root.get(key)) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(b),
        Some(_) => Err(format!("{}: must be a boolean", key)),
    }
}

/// `null` and absence both mean "the default".
fn present(v: Option<Value<'_>>) -> Option<Value<'_>> {
    match v {
        Some(Value::Null) | None => None,
        other => other,
    }
}

/// The secrets a configuration may name in a host's secret store instead of holding them (so they
/// end up in no build artifact); the host reads each before serving (`Engine::install_secret`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Secret {
    /// `requestStateKey`: seals multi-round state.
    StateKey,
    /// `tools.backendBearerToken`: the catalog-backed tools' service credential.
    BackendToken,
    /// `authorization.clientSecret`: the introspection client's secret.
    IntrospectionSecret,
}

impl Secret {
    pub const ALL: [Secret; 3] = [
        Secret::StateKey,
        Secret::BackendToken,
        Secret::IntrospectionSecret,
    ];

    /// The option that names it, for messages and logs.
    pub fn option(self) -> &'static str {
        match self {
            Secret::StateKey => "requestStateKey",
            Secret::BackendToken => "tools.backendBearerToken",
            Secret::IntrospectionSecret => "authorization.clientSecret",
        }
    }

    /// The longest secret of this kind; a host reads one byte more to tell a longer one.
    pub fn max_bytes(self) -> usize {
        match self {
            Secret::StateKey => MAX_KEY_BYTES,
            Secret::BackendToken => crate::decl::MAX_BEARER,
            Secret::IntrospectionSecret => crate::authorization::MAX_SECRET_BYTES,
        }
    }
}

const KEY_RULE: &str =
    "requestStateKey: must be a string of 32 to 1024 bytes (for example 64 hex digits)";

/// The sealing key from its bytes; the key never appears in a message, only the option and the rule.
pub fn state_key_from(bytes: &[u8]) -> Result<StateKey, ConfigError> {
    if (MIN_KEY_BYTES..=MAX_KEY_BYTES).contains(&bytes.len()) {
        Ok(StateKey::Sealed(Box::new(Hmac::new(bytes))))
    } else {
        Err(KEY_RULE.to_string())
    }
}

/// The key never appears in a message: only its option name and the rule.
fn parse_state_key(
    key: Option<Value<'_>>,
    unsealed: Option<Value<'_>>,
) -> Result<(Option<StateKey>, Option<SecretRef>), ConfigError> {
    let unsealed = match unsealed {
        None | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(_) => return Err("unsealedRequestState: must be a boolean".to_string()),
    };
    match (key, unsealed) {
        (None, false) => Ok((None, None)),
        (None, true) => Ok((Some(StateKey::Unsealed), None)),
        (Some(_), true) => {
            Err("unsealedRequestState: cannot be combined with requestStateKey".to_string())
        }
        (Some(Value::Object(o)), false) => Ok((None, Some(secret_ref(o, "requestStateKey")?))),
        (Some(Value::String(s)), false) => Ok((Some(state_key_from(s.as_str().as_bytes())?), None)),
        (Some(_), false) => Err(KEY_RULE.to_string()),
    }
}

fn parse_list_cache(
    ttl: Option<Value<'_>>,
    scope: Option<Value<'_>>,
) -> Result<ListCache, ConfigError> {
    let ttl_ms = match ttl {
        None => DEFAULT_LIST_CACHE_TTL_MS,
        Some(Value::Number(n)) => match n.as_safe_integer() {
            Some(i) if i >= 0 && i as u64 <= MAX_LIST_CACHE_TTL_MS => i as u64,
            _ => {
                return Err("listCacheTtlMs: must be an integer between 0 and 86400000".to_string())
            }
        },
        Some(_) => {
            return Err("listCacheTtlMs: must be an integer between 0 and 86400000".to_string())
        }
    };
    let public = match scope {
        None => false,
        Some(Value::String(s)) if s.eq_str("private") => false,
        Some(Value::String(s)) if s.eq_str("public") => true,
        Some(_) => return Err("listCacheScope: must be \"private\" or \"public\"".to_string()),
    };
    Ok(ListCache { ttl_ms, public })
}

fn valid_path(p: &str) -> bool {
    p.starts_with('/')
        && p.len() <= MAX_PATH_BYTES
        && p.bytes()
            .all(|b| (0x21..0x7f).contains(&b) && b != b'?' && b != b'#')
}

fn parse_origins(v: Option<Value<'_>>) -> Result<Vec<String>, ConfigError> {
    let arr = match v {
        None => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => {
            return Err(
                "allowedOrigins: must be an array of exact lowercase http(s) origins".to_string(),
            )
        }
    };
    if arr.len() > MAX_ORIGINS {
        return Err("allowedOrigins: must hold at most 64 origins".to_string());
    }
    let mut out = Vec::with_capacity(arr.len());
    for (i, item) in arr.iter().enumerate() {
        let origin = match item {
            Value::String(s) => Url::parse(&s.as_str(), Use::Origin).map(|u| u.text),
            _ => None,
        };
        match origin {
            Some(o) => out.push(o),
            None => {
                return Err(format!(
                    "allowedOrigins[{}]: must be an exact lowercase http(s) origin such as https://app.example",
                    i
                ))
            }
        }
    }
    Ok(out)
}

/// 1 to 128 Unicode characters (scalar values, so an emoji is one), no control characters.
fn info_string(obj: Object<'_>, key: &str) -> Option<String> {
    match obj.get(key) {
        Some(Value::String(s)) => {
            let v = s.as_str().into_owned();
            let n = v.chars().count();
            if n == 0 || n > MAX_INFO_CHARS || v.chars().any(|c| c.is_control()) {
                None
            } else {
                Some(v)
            }
        }
        _ => None,
    }
}

fn parse_server_info(v: Option<Value<'_>>) -> Result<(String, String), ConfigError> {
    let obj = match v {
        None => {
            return Ok((
                "pulse-mcp".to_string(),
                env!("CARGO_PKG_VERSION").to_string(),
            ))
        }
        Some(Value::Object(o)) => o,
        Some(_) => return Err("serverInfo: must be an object with name and version".to_string()),
    };
    for (key, _) in obj.iter() {
        known_key("serverInfo", key, &["name", "version"])?;
    }
    let name = info_string(obj, "name").ok_or_else(|| {
        "serverInfo.name: must be 1 to 128 characters without control characters".to_string()
    })?;
    let version = info_string(obj, "version").ok_or_else(|| {
        "serverInfo.version: must be 1 to 128 characters without control characters".to_string()
    })?;
    Ok((name, version))
}

/// `limits.<key>` when present: an integer from 1 to `max` (the default: limits only go down).
fn limit(obj: Object<'_>, key: &str, max: u64) -> Result<Option<u64>, ConfigError> {
    let n = match present(obj.get(key)) {
        None => return Ok(None),
        Some(Value::Number(n)) => n.as_safe_integer(),
        Some(_) => None,
    };
    match n {
        Some(i) if i >= 1 && (i as u64) <= max => Ok(Some(i as u64)),
        _ => Err(format!(
            "limits.{}: must be an integer between 1 and {}",
            key, max
        )),
    }
}

fn parse_limits(v: Option<Value<'_>>) -> Result<Limits, ConfigError> {
    let d = Limits::DEFAULT;
    let obj = match v {
        None => return Ok(d),
        Some(Value::Object(o)) => o,
        Some(_) => return Err("limits: must be an object".to_string()),
    };
    for (key, _) in obj.iter() {
        known_key("limits", key, &LIMIT_KEYS)?;
    }
    let request_bytes =
        limit(obj, "requestBytes", d.request_bytes as u64)?.map_or(d.request_bytes, |n| n as usize);
    let response_bytes = limit(obj, "responseBytes", d.response_bytes as u64)?
        .map_or(d.response_bytes, |n| n as usize);
    let depth = limit(obj, "depth", u64::from(d.depth))?.map_or(d.depth, |n| n as u32);
    let deadline_ms =
        limit(obj, "deadlineMs", d.deadline_ms as u64)?.map_or(d.deadline_ms, |n| n as f64);
    let tool_result_bytes = limit(obj, "toolResultBytes", d.tool_result_bytes as u64)?
        .map_or(d.tool_result_bytes.min(response_bytes), |n| n as usize);
    if response_bytes < request_bytes + RESPONSE_HEADROOM {
        return Err("limits.responseBytes: must be at least limits.requestBytes + 512".to_string());
    }
    if tool_result_bytes > response_bytes {
        return Err("limits.toolResultBytes: must not exceed limits.responseBytes".to_string());
    }
    Ok(Limits {
        request_bytes,
        response_bytes,
        depth,
        deadline_ms,
        tool_result_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ConfigError {
        match Config::parse(text.as_bytes()) {
            Ok(_) => panic!("accepted {text}"),
            Err(e) => e,
        }
    }

    /// Every message names an option and stays printable ASCII (hosts decode it as Latin-1 and bound
    /// it to 512 bytes).
    fn assert_well_formed(message: &str) {
        assert!(message.len() <= 512, "{message}");
        assert!(
            message.bytes().all(|b| (0x20..0x7f).contains(&b)),
            "{message}"
        );
        assert!(message.contains(": "), "{message}");
    }

    #[test]
    fn defaults() {
        let c = Config::parse(b"{}").unwrap();
        assert_eq!(c.path, "/mcp");
        assert!(c.allowed_origins.is_empty());
        assert_eq!(c.limits, Limits::DEFAULT);
        assert!(!c.legacy);
        assert!(c.tools.is_none());
        assert_eq!(
            (c.server_name.as_str(), c.server_version.as_str()),
            ("pulse-mcp", env!("CARGO_PKG_VERSION"))
        );
        let c = Config::parse(br#"{"path":"/mcp","allowedOrigins":[],"serverInfo":{"name":"pulse","version":"0.1.0"},"limits":{"requestBytes":65536,"responseBytes":1048576,"depth":32,"deadlineMs":10000,"toolResultBytes":1048576},"legacyProtocol":null,"tools":null}"#).unwrap();
        assert_eq!(
            (c.server_name.as_str(), c.server_version.as_str()),
            ("pulse", "0.1.0")
        );
        let nulls = Config::parse(br#"{"path":null,"allowedOrigins":null,"serverInfo":null,"limits":{"depth":null},"profile":null}"#).unwrap();
        assert_eq!(nulls.limits, Limits::DEFAULT);
    }

    #[test]
    fn fastly_log_endpoint_is_a_visible_ascii_name() {
        let name = |text: &str| Config::parse(text.as_bytes()).unwrap().log_endpoint;
        assert_eq!(name("{}"), None);
        assert_eq!(name(r#"{"fastlyLogEndpoint":null}"#), None);
        assert_eq!(
            name(r#"{"fastlyLogEndpoint":"pulse-events"}"#).as_deref(),
            Some("pulse-events")
        );
        let longest = format!(r#"{{"fastlyLogEndpoint":"{}"}}"#, "e".repeat(255));
        assert_eq!(name(&longest).map(|n| n.len()), Some(255));
        let message = "fastlyLogEndpoint: must be the name of a Fastly log endpoint: 1 to 255 visible ASCII characters, not stdout, stderr or fst_managed_*";
        for bad in [
            r#""""#.to_string(),
            format!(r#""{}""#, "e".repeat(256)),
            r#""two words""#.to_string(),
            r#""caf\u00e9""#.to_string(),
            r#""tab\there""#.to_string(),
            r#""STDOUT""#.to_string(),
            r#""stderr""#.to_string(),
            r#""fst_managed_x""#.to_string(),
            "true".to_string(),
            r#"["events"]"#.to_string(),
        ] {
            let cfg = format!(r#"{{"fastlyLogEndpoint":{}}}"#, bad);
            assert_eq!(err(&cfg), message, "{cfg}");
            assert_well_formed(message);
        }
    }

    #[test]
    fn lowered_limits_and_legacy() {
        let c = Config::parse(br#"{"limits":{"requestBytes":100,"responseBytes":612,"depth":3,"deadlineMs":50,"toolResultBytes":10},"legacyProtocol":"2025-06-18","allowedOrigins":["https://app.example","http://127.0.0.1:3000","http://[::1]:8080"]}"#).unwrap();
        assert_eq!(
            c.limits,
            Limits {
                request_bytes: 100,
                response_bytes: 612,
                depth: 3,
                deadline_ms: 50.0,
                tool_result_bytes: 10
            }
        );
        assert!(c.legacy);
        assert_eq!(c.allowed_origins.len(), 3);
    }

    #[test]
    fn limits_only_lowered_positive_integers() {
        for (cfg, msg) in [
            (
                r#"{"limits":{"requestBytes":65537}}"#,
                "limits.requestBytes: must be an integer between 1 and 65536",
            ),
            (
                r#"{"limits":{"requestBytes":0}}"#,
                "limits.requestBytes: must be an integer between 1 and 65536",
            ),
            (
                r#"{"limits":{"requestBytes":1.5}}"#,
                "limits.requestBytes: must be an integer between 1 and 65536",
            ),
            (
                r#"{"limits":{"requestBytes":"1"}}"#,
                "limits.requestBytes: must be an integer between 1 and 65536",
            ),
            (
                r#"{"limits":{"depth":33}}"#,
                "limits.depth: must be an integer between 1 and 32",
            ),
            (
                r#"{"limits":{"deadlineMs":10001}}"#,
                "limits.deadlineMs: must be an integer between 1 and 10000",
            ),
            (
                r#"{"limits":{"responseBytes":2000000}}"#,
                "limits.responseBytes: must be an integer between 1 and 1048576",
            ),
            (
                r#"{"limits":{"toolResultBytes":-1}}"#,
                "limits.toolResultBytes: must be an integer between 1 and 1048576",
            ),
            (
                r#"{"limits":{"requestBytes":1000,"responseBytes":1511}}"#,
                "limits.responseBytes: must be at least limits.requestBytes + 512",
            ),
            (
                r#"{"limits":{"responseBytes":5000,"requestBytes":100,"toolResultBytes":5001}}"#,
                "limits.toolResultBytes: must not exceed limits.responseBytes",
            ),
            (r#"{"limits":[]}"#, "limits: must be an object"),
        ] {
            assert_eq!(err(cfg), msg, "{cfg}");
        }
        let c = Config::parse(br#"{"limits":{"responseBytes":5000,"requestBytes":100}}"#).unwrap();
        assert_eq!(
            c.limits.tool_result_bytes, 5000,
            "the default follows a lowered response budget"
        );
    }

    #[test]
    fn unknown_keys_are_named_only_when_short_printable_ascii() {
        assert_eq!(
            err(r#"{"limits":{"bodyBytes":1}}"#),
            r#"limits: unknown key "bodyBytes""#
        );
        assert_eq!(
            err(r#"{"authorisation":{}}"#),
            r#"options: unknown key "authorisation""#
        );
        assert_eq!(
            err(r#"{"serverInfo":{"name":"n","version":"1","x":1}}"#),
            r#"serverInfo: unknown key "x""#
        );
        assert_eq!(err(r#"{"a\"b\\c":1}"#), r#"options: unknown key "a\"b\\c""#);
        let unnamed =
            "options: an unknown key (not shown: longer than 64 characters or not printable ASCII)";
        assert_eq!(
            err(&format!(r#"{{"{}":1}}"#, "k".repeat(64))),
            format!(r#"options: unknown key "{}""#, "k".repeat(64))
        );
        assert_eq!(err(&format!(r#"{{"{}":1}}"#, "k".repeat(65))), unnamed);
        assert_eq!(err(r#"{"caf\u00e9":1}"#), unnamed);
        assert_eq!(err(r#"{"a\nb":1}"#), unnamed);
        assert_eq!(err(r#"{"":1}"#), unnamed);
        assert_eq!(
            err(r#"{"authorization":{"issuer":"x"}}"#),
            "authorization.resource: is required"
        );
    }

    #[test]
    fn path_origins_info_legacy_shape() {
        for bad in [
            r#"{"path":"mcp"}"#,
            r#"{"path":"/m?x"}"#,
            r#"{"path":"/a b"}"#,
            r#"{"path":""}"#,
        ] {
            assert!(err(bad).starts_with("path: "), "{bad}");
        }
        assert!(err(&format!(r#"{{"path":"/{}"}}"#, "a".repeat(256))).starts_with("path: "));
        assert_eq!(err(r#"{"path":1}"#), "path: must be a string");
        for bad in [
            "https://a.example/",
            "ftp://a.example",
            "https://A.example",
            "https://",
            "https://a.example:99999",
            "*",
            "null",
            "https://a.example:",
        ] {
            assert_eq!(
                err(&format!(
                    r#"{{"allowedOrigins":["https://ok.example","http://ok.example:8080","{bad}"]}}"#
                )),
                "allowedOrigins[2]: must be an exact lowercase http(s) origin such as https://app.example",
                "{bad}"
            );
        }
        assert_eq!(
            err(r#"{"allowedOrigins":[1]}"#),
            "allowedOrigins[0]: must be an exact lowercase http(s) origin such as https://app.example"
        );
        assert_eq!(
            err(r#"{"allowedOrigins":"https://a.example"}"#),
            "allowedOrigins: must be an array of exact lowercase http(s) origins"
        );
        let many: Vec<String> = (0..65)
            .map(|i| format!("\"https://h{i}.example\""))
            .collect();
        assert_eq!(
            err(&format!(r#"{{"allowedOrigins":[{}]}}"#, many.join(","))),
            "allowedOrigins: must hold at most 64 origins"
        );
        for (cfg, msg) in [
            (
                r#"{"serverInfo":{"name":"","version":"1"}}"#,
                "serverInfo.name: must be 1 to 128 characters without control characters",
            ),
            (
                r#"{"serverInfo":{"name":"a\u0007b","version":"1"}}"#,
                "serverInfo.name: must be 1 to 128 characters without control characters",
            ),
            (
                r#"{"serverInfo":{"name":"n","version":"1\u0085"}}"#,
                "serverInfo.version: must be 1 to 128 characters without control characters",
            ),
            (
                r#"{"serverInfo":{"name":"n"}}"#,
                "serverInfo.version: must be 1 to 128 characters without control characters",
            ),
            (
                r#"{"serverInfo":{"name":1,"version":"1"}}"#,
                "serverInfo.name: must be 1 to 128 characters without control characters",
            ),
            (
                r#"{"serverInfo":"pulse"}"#,
                "serverInfo: must be an object with name and version",
            ),
        ] {
            assert_eq!(err(cfg), msg, "{cfg}");
        }
        assert_eq!(
            err(&format!(
                r#"{{"serverInfo":{{"name":"n","version":"{}"}}}}"#,
                "v".repeat(129)
            )),
            "serverInfo.version: must be 1 to 128 characters without control characters"
        );
        for bad in ["true", "false", "\"2025-11-25\"", "\"2026-07-28\"", "1"] {
            assert_eq!(
                err(&format!(r#"{{"legacyProtocol":{bad}}}"#)),
                "legacyProtocol: must be null or \"2025-06-18\""
            );
        }
        assert_eq!(err("[]"), "options: must be a JSON object");
        assert_eq!(err("{"), "options: must be a JSON object");
        assert_eq!(
            err(&format!(
                "{{\"limits\":{}1{}}}",
                "[".repeat(128),
                "]".repeat(128)
            )),
            "options: must nest at most 128 levels deep"
        );
        assert_eq!(
            err(r#"{"path":"/a","path":"/b"}"#),
            "options: an object repeats a key"
        );
        assert_eq!(
            err(r#"{"path":"/\ud800"}"#),
            "options: a string holds a lone surrogate"
        );
    }

    #[test]
    fn server_info_counts_characters_and_accepts_emoji() {
        // 128 four-byte characters (256 UTF-16 units, 512 UTF-8 bytes) are 128 characters.
        let emoji = "\u{1F600}".repeat(128);
        let c = Config::parse(
            format!(
                "{{\"serverInfo\":{{\"name\":\"{}\",\"version\":\"1 \u{2728}\"}}}}",
                emoji
            )
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(c.server_name, emoji);
        assert_eq!(c.server_version, "1 \u{2728}");
        // An escaped surrogate pair is one character too.
        let c = Config::parse(br#"{"serverInfo":{"name":"\ud83d\ude00","version":"1"}}"#).unwrap();
        assert_eq!(c.server_name, "\u{1F600}");
        assert_eq!(
            err(&format!(
                r#"{{"serverInfo":{{"name":"{}","version":"1"}}}}"#,
                "\u{1F600}".repeat(129)
            )),
            "serverInfo.name: must be 1 to 128 characters without control characters"
        );
    }

    /// The parts of an accepted configuration that the option rules decide, in one line.
    fn summary(c: &Config) -> String {
        format!(
            "profile={} legacy={} origins={} cors={} card={} progress={} blocks={} ttl={} public={} key={} completions={}",
            if c.jsonrpc { "jsonrpc" } else { "mcp" },
            c.legacy,
            c.allowed_origins.len(),
            c.cors.is_some(),
            c.server_card,
            c.progress,
            c.content_blocks,
            c.list_cache.ttl_ms,
            c.list_cache.public,
            match (&c.state_key, &c.state_key_secret) {
                (None, None) => "none",
                (Some(StateKey::Sealed(_)), None) => "sealed",
                (Some(StateKey::Unsealed), None) => "unsealed",
                (None, Some(_)) => "secret",
                (Some(_), Some(_)) => "both",
            },
            c.completions
        )
    }

    /// One row per rule that decides between acceptance (what was accepted) and one exact message.
    #[test]
    fn option_rules() {
        const TOOLS: &str = r#""tools":{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]","tools":[{"name":"t","input":null,"output":null,"handler":{"kind":"javascript"}}],"corpora":{}}"#;
        const CONTENT_TOOLS: &str = r#""tools":{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]","tools":[{"name":"t","input":null,"output":null,"content":true,"handler":{"kind":"javascript"}}],"corpora":{}}"#;
        const RESOURCES: &str =
            r#""resources":[{"uri":"test://a","name":"a","mimeType":"text/plain","text":"x"}]"#;
        const TEMPLATES: &str = r#""resourceTemplates":[{"uriTemplate":"test://t/{id}","name":"t","mimeType":"text/plain","text":"{id}"}]"#;
        const PROMPTS: &str = r#""prompts":[{"name":"p","messages":[{"role":"user","content":{"type":"text","text":"Hi"}}]}]"#;
        const INPUT_TOOLS: &str = r#""contentBlocks":true,"tools":{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]","tools":[{"name":"t","input":null,"output":null,"content":true,"inputs":[{"roots":{"method":"roots/list"}}],"handler":{"kind":"javascript"}}],"corpora":{}}"#;
        const INPUT_PROMPTS: &str = r#""prompts":[{"name":"p","inputs":[{"roots":{"method":"roots/list"}}],"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}]}]"#;
        const NEEDS_KEY: &str = "requestStateKey: required (at least 32 bytes) when a tool or prompt declares inputs; or set unsealedRequestState: true to accept unsigned, untrusted state";
        const MCP: &str = "profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=none completions=false";
        const JSONRPC: &str = "profile=jsonrpc legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=none completions=false";
        const PROFILE: &str = "profile: must be \"mcp\" or \"jsonrpc\"";
        const NEEDS_TOOLS: &str = "profile: \"jsonrpc\" needs tools and no legacyProtocol";
        const TOOLS_ONLY: &str =
            "profile: \"jsonrpc\" serves tools only; drop resources, resourceTemplates and prompts";
        const TTL: &str = "listCacheTtlMs: must be an integer between 0 and 86400000";
        const SCOPE: &str = "listCacheScope: must be \"private\" or \"public\"";
        let origins = |n: usize| {
            let list: Vec<String> = (0..n)
                .map(|i| format!("\"https://h{i}.example\""))
                .collect();
            format!(r#""allowedOrigins":[{}]"#, list.join(","))
        };
        let key = format!(r#""requestStateKey":"{}""#, "k".repeat(32));
        let rows: Vec<(String, Result<&str, &str>)> = vec![
            // profile
            (r#""profile":"mcp""#.into(), Ok(MCP)),
            (TOOLS.into(), Ok(MCP)),
            (format!(r#""profile":"jsonrpc",{TOOLS}"#), Ok(JSONRPC)),
            (format!(r#""profile":"mcp",{TOOLS}"#), Ok(MCP)),
            (r#""profile":"JSONRPC""#.into(), Err(PROFILE)),
            (r#""profile":"json-rpc""#.into(), Err(PROFILE)),
            (r#""profile":"""#.into(), Err(PROFILE)),
            (r#""profile":true"#.into(), Err(PROFILE)),
            (r#""profile":"jsonrpc""#.into(), Err(NEEDS_TOOLS)),
            (
                format!(r#""profile":"jsonrpc","legacyProtocol":"2025-06-18",{TOOLS}"#),
                Err(NEEDS_TOOLS),
            ),
            (
                format!(r#""profile":"jsonrpc","progress":true,{TOOLS}"#),
                Err("profile: \"jsonrpc\" answers with one JSON body, never progress; drop progress"),
            ),
            (
                format!(r#""profile":"jsonrpc","contentBlocks":true,{CONTENT_TOOLS}"#),
                Err("profile: \"jsonrpc\" returns a content tool's blocks as its result; drop contentBlocks"),
            ),
            // A content tool needs contentBlocks in the MCP profile only.
            (format!(r#""profile":"jsonrpc",{CONTENT_TOOLS}"#), Ok(JSONRPC)),
            (
                CONTENT_TOOLS.into(),
                Err("tools: tool \"t\" returns content blocks; enable them with contentBlocks: true"),
            ),
            (
                format!(r#""contentBlocks":true,{CONTENT_TOOLS}"#),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=true ttl=300000 public=false key=none completions=false"),
            ),
            (format!(r#""profile":"jsonrpc",{RESOURCES},{TOOLS}"#), Err(TOOLS_ONLY)),
            (format!(r#""profile":"jsonrpc",{TEMPLATES},{TOOLS}"#), Err(TOOLS_ONLY)),
            (format!(r#""profile":"jsonrpc",{PROMPTS},{TOOLS}"#), Err(TOOLS_ONLY)),
            (format!("{RESOURCES},{PROMPTS},{TOOLS}"), Ok(MCP)),
            // Completions are served when a prompt or a resource template declares values.
            (
                r#""prompts":[{"name":"p","arguments":[{"name":"a","completions":["x"]}],"messages":[{"role":"user","content":{"type":"text","text":"{a}"}}]}]"#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=none completions=true"),
            ),
            (
                r#""resourceTemplates":[{"uriTemplate":"test://t/{id}","name":"t","mimeType":"text/plain","text":"{id}","completions":{"id":["1"]}}]"#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=none completions=true"),
            ),
            (
                format!(r#""profile":"jsonrpc","serverCard":true,{TOOLS}"#),
                Err("profile: \"jsonrpc\" serves no server card; drop serverCard"),
            ),
            (
                r#""serverCard":true"#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=true progress=false blocks=false ttl=300000 public=false key=none completions=false"),
            ),
            (r#""serverCard":false"#.into(), Ok(MCP)),
            (r#""serverCard":1"#.into(), Err("serverCard: must be a boolean")),
            (
                r#""progress":true"#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=true blocks=false ttl=300000 public=false key=none completions=false"),
            ),
            (r#""progress":"yes""#.into(), Err("progress: must be a boolean")),
            // cors and allowedOrigins
            (
                r#""cors":true"#.into(),
                Err("cors: needs allowedOrigins, the exact origins browser clients may call from"),
            ),
            (
                format!(r#""cors":true,{}"#, origins(1)),
                Ok("profile=mcp legacy=false origins=1 cors=true card=false progress=false blocks=false ttl=300000 public=false key=none completions=false"),
            ),
            (format!(r#""cors":false,{}"#, origins(1)), Ok("profile=mcp legacy=false origins=1 cors=false card=false progress=false blocks=false ttl=300000 public=false key=none completions=false")),
            (
                origins(64),
                Ok("profile=mcp legacy=false origins=64 cors=false card=false progress=false blocks=false ttl=300000 public=false key=none completions=false"),
            ),
            (origins(65), Err("allowedOrigins: must hold at most 64 origins")),
            // list caching
            (
                r#""listCacheTtlMs":0,"listCacheScope":"private""#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=0 public=false key=none completions=false"),
            ),
            (
                r#""listCacheTtlMs":86400000,"listCacheScope":"public""#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=86400000 public=true key=none completions=false"),
            ),
            (r#""listCacheTtlMs":null,"listCacheScope":null"#.into(), Ok(MCP)),
            (r#""listCacheTtlMs":86400001"#.into(), Err(TTL)),
            (r#""listCacheTtlMs":-1"#.into(), Err(TTL)),
            (r#""listCacheTtlMs":1.5"#.into(), Err(TTL)),
            (r#""listCacheTtlMs":"1""#.into(), Err(TTL)),
            (r#""listCacheScope":"shared""#.into(), Err(SCOPE)),
            (r#""listCacheScope":"Public""#.into(), Err(SCOPE)),
            (r#""listCacheScope":true"#.into(), Err(SCOPE)),
            // the state key
            (
                key.clone(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=sealed completions=false"),
            ),
            (
                r#""unsealedRequestState":true"#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=unsealed completions=false"),
            ),
            (
                format!(r#"{key},"unsealedRequestState":false"#),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=sealed completions=false"),
            ),
            (
                r#""requestStateKey":{"secretStore":"s","key":"k"}"#.into(),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=secret completions=false"),
            ),
            (
                r#""unsealedRequestState":1"#.into(),
                Err("unsealedRequestState: must be a boolean"),
            ),
            // Inputs, of a tool or of a prompt, need a key or the unsealed opt-in.
            (INPUT_TOOLS.into(), Err(NEEDS_KEY)),
            (INPUT_PROMPTS.into(), Err(NEEDS_KEY)),
            (
                format!(r#"{INPUT_TOOLS},"unsealedRequestState":true"#),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=true ttl=300000 public=false key=unsealed completions=false"),
            ),
            (
                format!(r#"{INPUT_PROMPTS},"requestStateKey":{{"secretStore":"s","key":"k"}}"#),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=secret completions=false"),
            ),
            (
                format!(r#"{INPUT_TOOLS},{key}"#),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=true ttl=300000 public=false key=sealed completions=false"),
            ),
            (r#""requestStateKey":7"#.into(), Err(KEY_RULE)),
            (format!(r#""requestStateKey":"{}""#, "k".repeat(31)), Err(KEY_RULE)),
            (format!(r#""requestStateKey":"{}""#, "k".repeat(1025)), Err(KEY_RULE)),
            (
                format!(r#""requestStateKey":"{}""#, "k".repeat(1024)),
                Ok("profile=mcp legacy=false origins=0 cors=false card=false progress=false blocks=false ttl=300000 public=false key=sealed completions=false"),
            ),
        ];
        for (members, want) in rows {
            let text = format!("{{{members}}}");
            let got = Config::parse(text.as_bytes()).map(|c| summary(&c));
            assert_eq!(got.as_deref().map_err(String::as_str), want, "{text}");
        }
    }

    /// The secrets a host reads, with the option each message names and the longest each may be.
    #[test]
    fn secrets_name_their_option_and_bound() {
        let got: Vec<(&str, usize)> = Secret::ALL
            .iter()
            .map(|s| (s.option(), s.max_bytes()))
            .collect();
        assert_eq!(
            got,
            [
                ("requestStateKey", 1024),
                ("tools.backendBearerToken", 4096),
                ("authorization.clientSecret", 1024),
            ]
        );
    }

    #[test]
    fn messages_never_echo_the_rejected_value() {
        const CANARY: &str = "zq7canary";
        for cfg in [
            format!(r#"{{"path":"{CANARY}"}}"#),
            format!(r#"{{"path":"/{CANARY}?"}}"#),
            format!(r#"{{"allowedOrigins":["https://{CANARY}.example/"]}}"#),
            format!(r#"{{"serverInfo":{{"name":"{CANARY}\u0000","version":"1"}}}}"#),
            format!(
                r#"{{"serverInfo":{{"name":"n","version":"{}"}}}}"#,
                CANARY.repeat(20)
            ),
            format!(r#"{{"limits":{{"requestBytes":"{CANARY}"}}}}"#),
            r#"{"limits":{"depth":987654321}}"#.to_string(),
            format!(r#"{{"legacyProtocol":"{CANARY}"}}"#),
            format!(r#"{{"profile":"{CANARY}"}}"#),
            format!(r#"{{"tools":"{CANARY}"}}"#),
        ] {
            let e = err(&cfg);
            assert_well_formed(&e);
            assert!(
                !e.contains(CANARY) && !e.contains("987654321"),
                "{cfg}: {e}"
            );
        }
    }
}
