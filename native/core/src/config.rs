//! The engine configuration (docs/contracts.md §4), validated once at construction. The host's
//! TypeScript validates first; this check fails closed on its own with fixed messages that name the
//! option and never echo its value.
use crate::json::{self, Object, Value};
use crate::limits::Limits;
use crate::tools::Tools;

/// The only legacy revision the compatibility profile speaks.
pub const LEGACY_REVISION: &str = "2025-06-18";
pub const MAX_PATH_BYTES: usize = 256;
pub const MAX_ORIGINS: usize = 64;
pub const MAX_ORIGIN_BYTES: usize = 256;
pub const MAX_INFO_CHARS: usize = 128;
/// Nesting admitted in the configuration text itself (the manifest nests deeper than requests).
const CONFIG_DEPTH: u32 = 128;
/// Room the response budget must leave above the request budget for echoed ids in errors.
pub const RESPONSE_HEADROOM: usize = 512;

pub struct Config {
    pub path: String,
    pub allowed_origins: Vec<String>,
    pub server_name: String,
    pub server_version: String,
    pub limits: Limits,
    /// `legacyProtocol: "2025-06-18"`.
    pub legacy: bool,
    /// `profile: "jsonrpc"`.
    pub jsonrpc: bool,
    pub tools: Option<Tools>,
}

/// A fixed message naming the option (and the entry, e.g. `allowedOrigins[2]`); never the value.
pub type ConfigError = String;

impl Config {
    pub fn parse(text: &[u8]) -> Result<Config, ConfigError> {
        Config::parse_fixed(text).map_err(String::from)
    }

    fn parse_fixed(text: &[u8]) -> Result<Config, &'static str> {
        let doc = json::parse(text, CONFIG_DEPTH).map_err(|_| "config: must be a JSON object")?;
        let root = match doc.root() {
            Value::Object(o) => o,
            _ => return Err("config: must be a JSON object"),
        };
        for (key, _) in root.iter() {
            let known = [
                "path",
                "allowedOrigins",
                "serverInfo",
                "limits",
                "legacyProtocol",
                "tools",
                "profile",
            ];
            if !known.iter().any(|k| key.eq_str(k)) {
                return Err("config: unknown option");
            }
        }
        let limits = parse_limits(present(root.get("limits")))?;
        let path = match present(root.get("path")) {
            None => "/mcp".to_string(),
            Some(Value::String(s)) => {
                let p = s.as_str().into_owned();
                if !valid_path(&p) {
                    return Err("path: must start with / and hold at most 256 visible ASCII characters, no query");
                }
                p
            }
            Some(_) => return Err("path: must be a string"),
        };
        let allowed_origins = parse_origins(present(root.get("allowedOrigins")))?;
        let (server_name, server_version) = parse_server_info(present(root.get("serverInfo")))?;
        let legacy = match present(root.get("legacyProtocol")) {
            None => false,
            Some(Value::String(s)) if s.eq_str(LEGACY_REVISION) => true,
            Some(_) => return Err("legacyProtocol: must be null or \"2025-06-18\""),
        };
        let tools = match present(root.get("tools")) {
            None => None,
            Some(manifest) => Some(Tools::from_manifest(manifest, &limits)?),
        };
        // `jsonrpc`: the router as a plain JSON-RPC 2.0 endpoint (`jsonRpc(router)`), no MCP layer.
        let jsonrpc = match present(root.get("profile")) {
            None => false,
            Some(Value::String(s)) if s.eq_str("mcp") => false,
            Some(Value::String(s)) if s.eq_str("jsonrpc") => true,
            Some(_) => return Err("profile: must be \"mcp\" or \"jsonrpc\""),
        };
        if jsonrpc && (tools.is_none() || legacy) {
            return Err("profile: \"jsonrpc\" needs tools and no legacyProtocol");
        }
        Ok(Config {
            path,
            allowed_origins,
            server_name,
            server_version,
            limits,
            legacy,
            jsonrpc,
            tools,
        })
    }
}

/// `null` and absence both mean "the default".
fn present(v: Option<Value<'_>>) -> Option<Value<'_>> {
    match v {
        Some(Value::Null) | None => None,
        other => other,
    }
}

fn valid_path(p: &str) -> bool {
    p.starts_with('/')
        && p.len() <= MAX_PATH_BYTES
        && p.bytes()
            .all(|b| (0x21..0x7f).contains(&b) && b != b'?' && b != b'#')
}

/// An exact, serialized http(s) origin: lowercase scheme and host, optional port, nothing else
/// (browsers send exactly this form, and the comparison is byte-exact).
pub fn valid_origin(o: &str) -> bool {
    let rest = match o
        .strip_prefix("https://")
        .or_else(|| o.strip_prefix("http://"))
    {
        Some(r) => r,
        None => return false,
    };
    if o.len() > MAX_ORIGIN_BYTES || rest.is_empty() {
        return false;
    }
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, p))
                if !h.is_empty()
                    && h.bytes().all(|b| {
                        b.is_ascii_hexdigit() && !b.is_ascii_uppercase() || b == b':' || b == b'.'
                    }) =>
            {
                (h, p)
            }
            _ => return false,
        }
    } else {
        match rest.find(':') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        }
    };
    let host_ok = rest.starts_with('[')
        || (!host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-'));
    let port_ok = port.is_empty()
        || matches!(port.strip_prefix(':'), Some(d) if !d.is_empty() && d.len() <= 5
            && d.bytes().all(|b| b.is_ascii_digit()) && matches!(d.parse::<u32>(), Ok(n) if n <= 65535));
    // A default port is not part of the serialized origin a browser sends.
    let default_port = (o.starts_with("https://") && port == ":443")
        || (o.starts_with("http://") && port == ":80");
    host_ok && port_ok && !default_port
}

fn parse_origins(v: Option<Value<'_>>) -> Result<Vec<String>, &'static str> {
    const MSG: &str =
        "allowedOrigins: must be an array of at most 64 exact lowercase http(s) origins";
    let arr = match v {
        None => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return Err(MSG),
    };
    if arr.len() > MAX_ORIGINS {
        return Err(MSG);
    }
    let mut out = Vec::with_capacity(arr.len());
    for item in arr.iter() {
        match item {
            Value::String(s) => {
                let o = s.as_str().into_owned();
                if !valid_origin(&o) {
                    return Err(MSG);
                }
                out.push(o);
            }
            _ => return Err(MSG),
        }
    }
    Ok(out)
}

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

fn parse_server_info(v: Option<Value<'_>>) -> Result<(String, String), &'static str> {
    let obj = match v {
        None => {
            return Ok((
                "pulse-mcp".to_string(),
                env!("CARGO_PKG_VERSION").to_string(),
            ))
        }
        Some(Value::Object(o)) => o,
        Some(_) => return Err("serverInfo: must be an object with name and version"),
    };
    for (key, _) in obj.iter() {
        if !key.eq_str("name") && !key.eq_str("version") {
            return Err("serverInfo: only name and version are accepted");
        }
    }
    let name = info_string(obj, "name")
        .ok_or("serverInfo.name: must be a string of 1 to 128 characters")?;
    let version = info_string(obj, "version")
        .ok_or("serverInfo.version: must be a string of 1 to 128 characters")?;
    Ok((name, version))
}

fn limit(
    obj: Object<'_>,
    key: &str,
    max: u64,
    msg: &'static str,
) -> Result<Option<u64>, &'static str> {
    match present(obj.get(key)) {
        None => Ok(None),
        Some(Value::Number(n)) => match n.as_safe_integer() {
            Some(i) if i >= 1 && (i as u64) <= max => Ok(Some(i as u64)),
            _ => Err(msg),
        },
        Some(_) => Err(msg),
    }
}

fn parse_limits(v: Option<Value<'_>>) -> Result<Limits, &'static str> {
    let d = Limits::DEFAULT;
    let obj = match v {
        None => return Ok(d),
        Some(Value::Object(o)) => o,
        Some(_) => return Err("limits: must be an object"),
    };
    for (key, _) in obj.iter() {
        let known = [
            "requestBytes",
            "responseBytes",
            "depth",
            "deadlineMs",
            "toolResultBytes",
        ];
        if !known.iter().any(|k| key.eq_str(k)) {
            return Err("limits: unknown limit");
        }
    }
    let request_bytes = limit(
        obj,
        "requestBytes",
        d.request_bytes as u64,
        "limits.requestBytes: must be an integer between 1 and 65536",
    )?
    .map_or(d.request_bytes, |n| n as usize);
    let response_bytes = limit(
        obj,
        "responseBytes",
        d.response_bytes as u64,
        "limits.responseBytes: must be an integer between 1 and 1048576",
    )?
    .map_or(d.response_bytes, |n| n as usize);
    let depth = limit(
        obj,
        "depth",
        u64::from(d.depth),
        "limits.depth: must be an integer between 1 and 32",
    )?
    .map_or(d.depth, |n| n as u32);
    let deadline_ms = limit(
        obj,
        "deadlineMs",
        d.deadline_ms as u64,
        "limits.deadlineMs: must be an integer between 1 and 10000",
    )?
    .map_or(d.deadline_ms, |n| n as f64);
    let tool_result_bytes = limit(
        obj,
        "toolResultBytes",
        d.tool_result_bytes as u64,
        "limits.toolResultBytes: must be an integer between 1 and 1048576",
    )?
    .map_or(d.tool_result_bytes.min(response_bytes), |n| n as usize);
    if response_bytes < request_bytes + RESPONSE_HEADROOM {
        return Err("limits.responseBytes: must be at least limits.requestBytes + 512");
    }
    if tool_result_bytes > response_bytes {
        return Err("limits.toolResultBytes: must not exceed limits.responseBytes");
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

    #[test]
    fn defaults() {
        let c = Config::parse(b"{}").unwrap();
        assert_eq!(c.path, "/mcp");
        assert!(c.allowed_origins.is_empty());
        assert_eq!(c.limits, Limits::DEFAULT);
        assert!(!c.legacy);
        assert!(c.tools.is_none());
        let c = Config::parse(br#"{"path":"/mcp","allowedOrigins":[],"serverInfo":{"name":"pulse","version":"0.1.0"},"limits":{"requestBytes":65536,"responseBytes":1048576,"depth":32,"deadlineMs":10000,"toolResultBytes":1048576},"legacyProtocol":null,"tools":null}"#).unwrap();
        assert_eq!(
            (c.server_name.as_str(), c.server_version.as_str()),
            ("pulse", "0.1.0")
        );
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
        assert_eq!(
            err(r#"{"limits":{"requestBytes":65537}}"#),
            "limits.requestBytes: must be an integer between 1 and 65536"
        );
        assert_eq!(
            err(r#"{"limits":{"requestBytes":0}}"#),
            "limits.requestBytes: must be an integer between 1 and 65536"
        );
        assert_eq!(
            err(r#"{"limits":{"requestBytes":1.5}}"#),
            "limits.requestBytes: must be an integer between 1 and 65536"
        );
        assert_eq!(
            err(r#"{"limits":{"requestBytes":"1"}}"#),
            "limits.requestBytes: must be an integer between 1 and 65536"
        );
        assert_eq!(
            err(r#"{"limits":{"depth":33}}"#),
            "limits.depth: must be an integer between 1 and 32"
        );
        assert_eq!(
            err(r#"{"limits":{"deadlineMs":10001}}"#),
            "limits.deadlineMs: must be an integer between 1 and 10000"
        );
        assert_eq!(
            err(r#"{"limits":{"responseBytes":2000000}}"#),
            "limits.responseBytes: must be an integer between 1 and 1048576"
        );
        assert_eq!(
            err(r#"{"limits":{"toolResultBytes":-1}}"#),
            "limits.toolResultBytes: must be an integer between 1 and 1048576"
        );
        assert_eq!(
            err(r#"{"limits":{"requestBytes":1000,"responseBytes":1511}}"#),
            "limits.responseBytes: must be at least limits.requestBytes + 512"
        );
        assert_eq!(
            err(r#"{"limits":{"bodyBytes":1}}"#),
            "limits: unknown limit"
        );
        assert_eq!(
            err(r#"{"limits":{"responseBytes":5000,"requestBytes":100,"toolResultBytes":5001}}"#),
            "limits.toolResultBytes: must not exceed limits.responseBytes"
        );
        let c = Config::parse(br#"{"limits":{"responseBytes":5000,"requestBytes":100}}"#).unwrap();
        assert_eq!(
            c.limits.tool_result_bytes, 5000,
            "the default follows a lowered response budget"
        );
        assert_eq!(err(r#"{"limits":[]}"#), "limits: must be an object");
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
            assert!(
                err(&format!(r#"{{"allowedOrigins":["{bad}"]}}"#)).starts_with("allowedOrigins: "),
                "{bad}"
            );
        }
        let many: Vec<String> = (0..65)
            .map(|i| format!("\"https://h{i}.example\""))
            .collect();
        assert!(
            err(&format!(r#"{{"allowedOrigins":[{}]}}"#, many.join(",")))
                .starts_with("allowedOrigins: ")
        );
        assert_eq!(
            err(r#"{"serverInfo":{"name":"","version":"1"}}"#),
            "serverInfo.name: must be a string of 1 to 128 characters"
        );
        assert_eq!(
            err(&format!(
                r#"{{"serverInfo":{{"name":"n","version":"{}"}}}}"#,
                "v".repeat(129)
            )),
            "serverInfo.version: must be a string of 1 to 128 characters"
        );
        assert_eq!(
            err(r#"{"serverInfo":{"name":"n"}}"#),
            "serverInfo.version: must be a string of 1 to 128 characters"
        );
        assert_eq!(
            err(r#"{"serverInfo":{"name":"n","version":"1","x":1}}"#),
            "serverInfo: only name and version are accepted"
        );
        for bad in ["true", "false", "\"2025-11-25\"", "\"2026-07-28\"", "1"] {
            assert_eq!(
                err(&format!(r#"{{"legacyProtocol":{bad}}}"#)),
                "legacyProtocol: must be null or \"2025-06-18\""
            );
        }
        assert_eq!(err(r#"{"other":1}"#), "config: unknown option");
        assert_eq!(err("[]"), "config: must be a JSON object");
        assert_eq!(err("{"), "config: must be a JSON object");
    }

    #[test]
    fn origin_forms() {
        assert!(valid_origin("https://app.example"));
        assert!(valid_origin("http://localhost:3000"));
        assert!(valid_origin("http://[::1]"));
        assert!(!valid_origin("http://[::1]x"));
        assert!(!valid_origin("https://app.example:+1"));
        assert!(!valid_origin("https://app.example:443"));
        assert!(!valid_origin("http://app.example:80"));
        assert!(valid_origin("http://app.example:443"));
    }
}
