//! The opt-in rate limits (`rateLimit`): which requests count, under which key, against which
//! budget, and what a limited request is answered. The core decides all of it; a host only counts
//! under the entry it is given and keeps entries in a penalty box ([`RateEffect`]): Node and Fetch
//! in a bounded in-process store, the Fastly Native service in Fastly's Edge Rate Limiting rate
//! counter and penalty box.
//!
//! Two budgets, each off unless configured:
//! - `requests`: every request that passed the head's checks, per client address, counted before
//!   authorization, so a flood of unknown tokens is refused before it costs an introspection;
//! - `toolCalls`: every `tools/call` a caller may make (a declared tool it is permitted, valid input
//!   or not), per caller: the authorized `sub`, else the client address. A tool may have a budget
//!   of its own (`toolCalls.tools`), counted apart. A notification is never charged; while its
//!   caller is in the penalty box it is refused too.
//!
//! An entry is limited while it is in the penalty box, or when a charge brings its count over the
//! last `window` seconds above `limit`: it then enters the penalty box for `penaltyMinutes`. The
//! windows and the minute-grained penalty are Fastly's (`ratecounter_lookup_count` durations,
//! `penaltybox_add` TTLs), so every host counts the same way.
//!
//! A limited request is answered 429 with `Retry-After`, `Cache-Control: no-store` and the
//! JSON-RPC error [`errors::RATE_LIMITED_CODE`] carrying `retryAfterMs`, the shape of the draft MCP
//! proposal SEP-3304; a notification gets 429 with no body.
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::net::IpAddr;

use crate::base64;
use crate::decl::{known_key, name_rule, valid_name, ConfigError};
use crate::effect::{RateEffect, RateOp};
use crate::errors::{self, RpcError};
use crate::hmac::Sha256;
use crate::host_store;
use crate::json::{write, Value};
use crate::reply::{Reply, Timing};
use crate::tools::Tools;

/// The windows a count may cover, in seconds: the durations of Fastly's rate counter lookups.
pub const WINDOWS: [u32; 6] = [10, 20, 30, 40, 50, 60];
pub const MAX_LIMIT: u32 = 1_000_000;
/// Fastly's penalty box keeps an entry from one minute to one hour, in whole minutes.
pub const MAX_PENALTY_MINUTES: u32 = 60;
const DEFAULT_WINDOW: u32 = 60;
const DEFAULT_PENALTY_MINUTES: u32 = 1;
/// The rate counter and penalty box the Native service uses unless named.
pub const DEFAULT_NAME: &str = "pulse_mcp";
/// Bytes of the digest an entry carries: 128 bits, far from any collision between callers.
const ENTRY_DIGEST_BYTES: usize = 16;

const KEYS: [&str; 6] = [
    "requests",
    "toolCalls",
    "rateCounter",
    "penaltyBox",
    host_store::KEYS[0],
    host_store::KEYS[1],
];
const BUDGET_KEYS: [&str; 3] = ["limit", "window", "penaltyMinutes"];
const CALL_KEYS: [&str; 4] = ["limit", "window", "penaltyMinutes", "tools"];

/// At most `limit` charged requests over the last `window_s` seconds; past it, `penalty_min`
/// minutes in the penalty box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub limit: u32,
    pub window_s: u32,
    pub penalty_min: u32,
}

impl Budget {
    /// How long a limited caller should wait: the penalty it is serving.
    pub fn retry_after_ms(&self) -> u64 {
        u64::from(self.penalty_min) * 60_000
    }
}

/// Which budget an entry counts against; part of the entry, so budgets never share a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    Requests,
    ToolCalls,
    Tool(&'a str),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimit {
    pub requests: Option<Budget>,
    pub tool_calls: Option<Budget>,
    /// Tools with a budget of their own, sorted by name.
    tools: Vec<(String, Budget)>,
    pub rate_counter: String,
    pub penalty_box: String,
}

impl RateLimit {
    /// `rateLimit`, its tool names checked against `tools`.
    pub fn parse(v: Value<'_>, tools: Option<&Tools>) -> Result<RateLimit, ConfigError> {
        let o = match v {
            Value::Object(o) => o,
            _ => return Err("rateLimit: must be an object {requests?, toolCalls?, rateCounter?, penaltyBox?, maxEntries?, maxBytes?}".to_string()),
        };
        for (key, _) in o.iter() {
            known_key("rateLimit", key, &KEYS)?;
        }
        let requests = match o.get("requests") {
            None => None,
            Some(b) => Some(budget(b, "rateLimit.requests", &BUDGET_KEYS)?.0),
        };
        let (tool_calls, tool_budgets) = match o.get("toolCalls") {
            None => (None, Vec::new()),
            Some(b) => {
                let (general, own) = budget(b, "rateLimit.toolCalls", &CALL_KEYS)?;
                (Some(general), tool_budgets(own, tools)?)
            }
        };
        if requests.is_none() && tool_calls.is_none() {
            return Err("rateLimit: names no budget; give requests, toolCalls or both".to_string());
        }
        let name = |key: &str| -> Result<String, ConfigError> {
            match o.get(key) {
                None => Ok(DEFAULT_NAME.to_string()),
                Some(Value::String(s)) if valid_name(&s.as_str()) => Ok(s.as_str().into_owned()),
                Some(_) => Err(format!(
                    concat!("rateLimit.{}: must be a Fastly name (", name_rule!(), ")"),
                    key
                )),
            }
        };
        host_store::check(o, "rateLimit")?;
        Ok(RateLimit {
            requests,
            tool_calls,
            tools: tool_budgets,
            rate_counter: name("rateCounter")?,
            penalty_box: name("penaltyBox")?,
        })
    }

    /// Whether a budget counts per client address: `requests` always, `toolCalls` without
    /// authorization (whose callers are their `sub`).
    pub fn counts_addresses(&self, authorized: bool) -> bool {
        self.requests.is_some() || (self.tool_calls.is_some() && !authorized)
    }

    /// The budget a call of tool `name` is charged to, and its scope.
    pub fn call_budget<'n>(&self, name: &'n str) -> Option<(Budget, Scope<'n>)> {
        let general = self.tool_calls?;
        match self.tools.binary_search_by(|(t, _)| t.as_str().cmp(name)) {
            Ok(i) => Some((self.tools[i].1, Scope::Tool(name))),
            Err(_) => Some((general, Scope::ToolCalls)),
        }
    }

    /// The effect that counts `entry` (a charge, or only a look into the penalty box).
    pub fn count(&self, entry: String, budget: &Budget, charge: bool) -> RateEffect {
        RateEffect {
            rate_counter: self.rate_counter.clone(),
            penalty_box: self.penalty_box.clone(),
            entry,
            op: RateOp::Count {
                window_s: budget.window_s,
                charge,
            },
        }
    }

    /// The effect that puts `entry` in the penalty box for the budget's penalty.
    pub fn penalize(&self, entry: String, budget: &Budget) -> RateEffect {
        RateEffect {
            rate_counter: self.rate_counter.clone(),
            penalty_box: self.penalty_box.clone(),
            entry,
            op: RateOp::Penalize {
                ttl_s: budget.penalty_min * 60,
            },
        }
    }
}

/// One budget object; the `tools` member, when `keys` admits it, is returned apart.
fn budget<'a>(
    v: Value<'a>,
    option: &str,
    keys: &[&str],
) -> Result<(Budget, Option<Value<'a>>), ConfigError> {
    let o = match v {
        Value::Object(o) => o,
        _ => {
            return Err(format!(
                "{}: must be an object {{limit, window?, penaltyMinutes?}}",
                option
            ))
        }
    };
    for (key, _) in o.iter() {
        known_key(option, key, keys)?;
    }
    let limit = match host_store::integer(o, option, "limit", 1, MAX_LIMIT.into())? {
        Some(n) => n as u32,
        None => return Err(format!("{}.limit: is required", option)),
    };
    let window_s = match o.get("window") {
        None => DEFAULT_WINDOW,
        Some(w) => match w.as_number().and_then(|n| n.as_safe_integer()) {
            Some(n) if WINDOWS.iter().any(|&x| i64::from(x) == n) => n as u32,
            _ => {
                return Err(format!(
                    "{}.window: must be one of 10, 20, 30, 40, 50 or 60 seconds",
                    option
                ))
            }
        },
    };
    let penalty_min =
        host_store::integer(o, option, "penaltyMinutes", 1, MAX_PENALTY_MINUTES.into())?
            .map_or(DEFAULT_PENALTY_MINUTES, |n| n as u32);
    let budget = Budget {
        limit,
        window_s,
        penalty_min,
    };
    Ok((budget, o.get("tools")))
}

/// `toolCalls.tools`: a budget per declared tool, sorted by name.
fn tool_budgets(
    own: Option<Value<'_>>,
    tools: Option<&Tools>,
) -> Result<Vec<(String, Budget)>, ConfigError> {
    let o = match own {
        None => return Ok(Vec::new()),
        Some(Value::Object(o)) => o,
        Some(_) => {
            return Err(
                "rateLimit.toolCalls.tools: must map tool names to budgets {limit, window?, penaltyMinutes?}"
                    .to_string(),
            )
        }
    };
    let mut out = Vec::new();
    for (name, v) in o.iter() {
        let name = name.as_str().into_owned();
        // Only a declared tool's name is repeated in a message; it is the user's own spelling.
        if tools.and_then(|t| t.find(&name)).is_none() {
            return Err(
                "rateLimit.toolCalls.tools: names a tool the router does not declare".to_string(),
            );
        }
        let option = format!("rateLimit.toolCalls.tools.{}", name);
        out.push((name, budget(v, &option, &BUDGET_KEYS)?.0));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The entries of the callers seen last, so a caller's next request is counted without a digest:
/// the engine's memo (a few short strings; it changes no answer). A request counts one or two
/// entries, and a busy caller sends many requests in a row.
#[derive(Default)]
pub struct Entries {
    recent: RefCell<VecDeque<(u8, String, String, String)>>,
}

const REMEMBERED: usize = 8;

impl Entries {
    /// [`entry`] of `key` in `scope`.
    pub fn get(&self, scope: Scope<'_>, key: &str) -> String {
        let (tag, tool) = tag_of(scope);
        let mut recent = self.recent.borrow_mut();
        if let Some(i) = recent
            .iter()
            .position(|(t, n, k, _)| *t == tag && n == tool && k == key)
        {
            let hit = recent.remove(i).expect("a position found");
            let e = hit.3.clone();
            recent.push_front(hit);
            return e;
        }
        let e = entry(scope, key);
        if recent.len() == REMEMBERED {
            recent.pop_back();
        }
        recent.push_front((tag, tool.to_string(), key.to_string(), e.clone()));
        e
    }
}

fn tag_of(scope: Scope<'_>) -> (u8, &str) {
    match scope {
        Scope::Requests => (b'r', ""),
        Scope::ToolCalls => (b'c', ""),
        Scope::Tool(name) => (b't', name),
    }
}

/// The entry `key` is counted under in `scope`: a digest, so the count and the penalty box hold
/// neither the address nor the subject, and every entry is short (Fastly admits 256 bytes).
pub fn entry(scope: Scope<'_>, key: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"pulse-rate-limit\0");
    let (tag, tool) = tag_of(scope);
    h.update(&[tag]);
    h.update(b"\0");
    h.update(tool.as_bytes());
    h.update(b"\0");
    h.update(key.as_bytes());
    let digest = h.finish();
    let mut out = String::with_capacity(2 + 22);
    out.push(char::from(tag));
    out.push(':');
    out.push_str(&base64::encode_url(&digest[..ENTRY_DIGEST_BYTES]));
    out
}

/// The key of a client address as the host reports it (text): an IPv4 address, an IPv6 address
/// counted by its /64 (one subscriber's prefix: a client rotating addresses inside it is still one
/// client), an IPv4-mapped IPv6 address as its IPv4 one. `None` for anything else.
pub fn address_key(text: &str) -> Option<String> {
    let ip: IpAddr = text
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()?;
    Some(match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    })
}

/// 429 for a limited request: the JSON-RPC error with `id` (`None` before the body was read), or
/// no body for a notification (`notification`).
pub fn limited(
    budget: &Budget,
    id: Option<&[u8]>,
    notification: bool,
    timing: Timing,
    response_bytes: usize,
) -> Reply {
    let retry_after_ms = budget.retry_after_ms();
    let mut reply = if notification {
        Reply::empty(429, timing)
    } else {
        let mut data = b"{\"retryAfterMs\":".to_vec();
        write::integer(&mut data, retry_after_ms as i64);
        data.push(b'}');
        let err = RpcError {
            status: 429,
            code: errors::RATE_LIMITED_CODE,
            message: errors::RATE_LIMITED,
            data: Some(data),
        };
        Reply::error(&err, id, timing, response_bytes)
    };
    reply.headers.push((
        "retry-after",
        Cow::Owned((retry_after_ms / 1000).to_string()),
    ));
    reply
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    /// Two declared tools, `echo` and `remote`, and `rateLimit` as given.
    fn config(rate_limit: &str) -> Result<Config, ConfigError> {
        profiled("mcp", rate_limit)
    }

    fn profiled(profile: &str, rate_limit: &str) -> Result<Config, ConfigError> {
        let tools = r#"{"formatVersion":1,"routerId":"t","catalogHash":"sha256:0","deadlineMs":3000,"list":"[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"remote\",\"inputSchema\":{\"type\":\"object\"}}]","tools":[{"name":"echo","input":[["object",0,[]]],"output":[["object",0,[]]],"handler":{"kind":"javascript"}},{"name":"remote","input":[["object",0,[]]],"output":[["object",0,[]]],"handler":{"kind":"javascript"}}],"corpora":{}}"#;
        let text = format!(
            r#"{{"profile":"{}","tools":{},"rateLimit":{}}}"#,
            profile, tools, rate_limit
        );
        Config::parse(text.as_bytes())
    }

    fn limits(rate_limit: &str) -> RateLimit {
        config(rate_limit)
            .unwrap()
            .rate_limit
            .expect("a rate limit")
    }

    #[test]
    fn defaults_and_the_tools_own_budgets() {
        let r = limits(
            r#"{"toolCalls":{"limit":5,"tools":{"remote":{"limit":2,"window":10,"penaltyMinutes":3}}}}"#,
        );
        assert_eq!(r.requests, None);
        let general = Budget {
            limit: 5,
            window_s: 60,
            penalty_min: 1,
        };
        assert_eq!(r.tool_calls, Some(general));
        assert_eq!(
            (r.rate_counter.as_str(), r.penalty_box.as_str()),
            ("pulse_mcp", "pulse_mcp")
        );
        assert_eq!(r.call_budget("echo"), Some((general, Scope::ToolCalls)));
        let own = Budget {
            limit: 2,
            window_s: 10,
            penalty_min: 3,
        };
        assert_eq!(r.call_budget("remote"), Some((own, Scope::Tool("remote"))));
        assert_eq!(own.retry_after_ms(), 180_000);
        let r = limits(
            r#"{"requests":{"limit":1000000,"window":60,"penaltyMinutes":60},"rateCounter":"rc.1","penaltyBox":"pb-2"}"#,
        );
        assert_eq!(r.call_budget("echo"), None);
        assert_eq!(
            (r.rate_counter.as_str(), r.penalty_box.as_str()),
            ("rc.1", "pb-2")
        );
        assert!(config("null").unwrap().rate_limit.is_none());
        for w in WINDOWS {
            let r = limits(&format!(r#"{{"requests":{{"limit":1,"window":{}}}}}"#, w));
            assert_eq!(r.requests.map(|b| b.window_s), Some(w));
        }
    }

    #[test]
    fn configuration_refusals_name_the_option() {
        let rows: &[(&str, &str)] = &[
            ("[]", "rateLimit: must be an object {requests?, toolCalls?, rateCounter?, penaltyBox?, maxEntries?, maxBytes?}"),
            ("{}", "rateLimit: names no budget; give requests, toolCalls or both"),
            (r#"{"request":{"limit":1}}"#, r#"rateLimit: unknown key "request""#),
            (r#"{"requests":5}"#, "rateLimit.requests: must be an object {limit, window?, penaltyMinutes?}"),
            (r#"{"requests":{}}"#, "rateLimit.requests.limit: is required"),
            (r#"{"requests":{"limit":0}}"#, "rateLimit.requests.limit: must be an integer from 1 to 1000000"),
            (r#"{"requests":{"limit":1000001}}"#, "rateLimit.requests.limit: must be an integer from 1 to 1000000"),
            (r#"{"requests":{"limit":1.5}}"#, "rateLimit.requests.limit: must be an integer from 1 to 1000000"),
            (r#"{"requests":{"limit":"5"}}"#, "rateLimit.requests.limit: must be an integer from 1 to 1000000"),
            (r#"{"requests":{"limit":5,"window":15}}"#, "rateLimit.requests.window: must be one of 10, 20, 30, 40, 50 or 60 seconds"),
            (r#"{"requests":{"limit":5,"window":120}}"#, "rateLimit.requests.window: must be one of 10, 20, 30, 40, 50 or 60 seconds"),
            (r#"{"requests":{"limit":5,"penaltyMinutes":0}}"#, "rateLimit.requests.penaltyMinutes: must be an integer from 1 to 60"),
            (r#"{"requests":{"limit":5,"penaltyMinutes":61}}"#, "rateLimit.requests.penaltyMinutes: must be an integer from 1 to 60"),
            (r#"{"requests":{"limit":5,"tools":{}}}"#, r#"rateLimit.requests: unknown key "tools""#),
            (r#"{"toolCalls":{"limit":5,"tools":[]}}"#, "rateLimit.toolCalls.tools: must map tool names to budgets {limit, window?, penaltyMinutes?}"),
            (r#"{"toolCalls":{"limit":5,"tools":{"nope":{"limit":1}}}}"#, "rateLimit.toolCalls.tools: names a tool the router does not declare"),
            (r#"{"toolCalls":{"limit":5,"tools":{"echo":{"limit":1,"every":2}}}}"#, r#"rateLimit.toolCalls.tools.echo: unknown key "every""#),
            (r#"{"toolCalls":{"limit":5,"tools":{"echo":{}}}}"#, "rateLimit.toolCalls.tools.echo.limit: is required"),
            (r#"{"requests":{"limit":5},"rateCounter":""}"#, "rateLimit.rateCounter: must be a Fastly name (1-128 characters of A-Za-z0-9_.-)"),
            (r#"{"requests":{"limit":5},"penaltyBox":"a b"}"#, "rateLimit.penaltyBox: must be a Fastly name (1-128 characters of A-Za-z0-9_.-)"),
            (r#"{"requests":{"limit":5},"maxEntries":0}"#, "rateLimit.maxEntries: must be an integer from 1 to 1000000"),
            (r#"{"requests":{"limit":5},"maxBytes":1024}"#, "rateLimit.maxBytes: must be an integer from 65536 to 1073741824"),
        ];
        for (text, want) in rows {
            match config(text) {
                Ok(_) => panic!("accepted {text}"),
                Err(e) => assert_eq!(e, *want, "{text}"),
            }
        }
        assert!(profiled("jsonrpc", "null").is_ok());
        let jsonrpc = profiled("jsonrpc", r#"{"requests":{"limit":5}}"#);
        assert_eq!(
            jsonrpc.err().as_deref(),
            Some("profile: \"jsonrpc\" is a backend's endpoint; rate limits belong to the MCP host in front of it")
        );
    }

    #[test]
    fn entries_keep_budgets_and_callers_apart_and_hide_them() {
        let a = entry(Scope::Requests, "203.0.113.7");
        assert_eq!(a, entry(Scope::Requests, "203.0.113.7"));
        assert!(a.starts_with("r:") && a.len() == 2 + 22, "{a}");
        assert!(!a.contains("203"));
        let all = [
            a.clone(),
            entry(Scope::Requests, "203.0.113.8"),
            entry(Scope::ToolCalls, "203.0.113.7"),
            entry(Scope::Tool("echo"), "203.0.113.7"),
            entry(Scope::Tool("remote"), "203.0.113.7"),
            // The separators keep a tool name from running into the key.
            entry(Scope::Tool("echo2"), "03.0.113.7"),
        ];
        for (i, x) in all.iter().enumerate() {
            for y in &all[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert!(all[2].starts_with("c:") && all[3].starts_with("t:"));
    }

    #[test]
    fn the_memo_answers_what_entry_answers() {
        let memo = Entries::default();
        let keys = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "a", "b", "i"];
        for scope in [
            Scope::Requests,
            Scope::ToolCalls,
            Scope::Tool("echo"),
            Scope::Tool("x"),
        ] {
            for k in keys {
                assert_eq!(memo.get(scope, k), entry(scope, k));
            }
        }
        assert_eq!(memo.recent.borrow().len(), REMEMBERED);
    }

    #[test]
    fn address_keys() {
        let rows: &[(&str, Option<&str>)] = &[
            ("203.0.113.7", Some("203.0.113.7")),
            (" 203.0.113.7 ", Some("203.0.113.7")),
            ("::ffff:203.0.113.7", Some("203.0.113.7")),
            ("2001:db8:1:2:3:4:5:6", Some("2001:db8:1:2::/64")),
            ("[2001:db8:1:2:ffff::1]", Some("2001:db8:1:2::/64")),
            ("::1", Some("0:0:0:0::/64")),
            ("", None),
            ("localhost", None),
            ("203.0.113.7:443", None),
            ("203.0.113.7, 198.51.100.1", None),
        ];
        for (text, want) in rows {
            assert_eq!(address_key(text).as_deref(), *want, "{text}");
        }
    }

    #[test]
    fn a_limited_reply() {
        let budget = Budget {
            limit: 1,
            window_s: 60,
            penalty_min: 2,
        };
        let r = limited(&budget, Some(b"\"a\""), false, Timing::AfterBody, 1 << 20);
        assert_eq!(r.status, 429);
        assert_eq!(
            String::from_utf8_lossy(&r.body),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32023,"message":"Rate limited","data":{"retryAfterMs":120000}}}"#
        );
        let header = |r: &Reply, name: &str| {
            r.headers
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        };
        assert_eq!(header(&r, "retry-after").as_deref(), Some("120"));
        assert_eq!(header(&r, "cache-control").as_deref(), Some("no-store"));
        let n = limited(&budget, None, true, Timing::AfterBody, 1 << 20);
        assert_eq!((n.status, n.body.len()), (429, 0));
        assert_eq!(header(&n, "retry-after").as_deref(), Some("120"));
        assert_eq!(header(&n, "cache-control").as_deref(), Some("no-store"));
    }
}
