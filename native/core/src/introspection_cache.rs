//! The opt-in introspection cache (`authorization.cache`): under which key an introspection may be
//! answered from a host's store, what of its answer is kept, and for how long. The core decides all
//! three; a host only keeps bytes under a key for a time (Node and Fetch in a bounded LRU per
//! handler, Fastly in its core cache).
//!
//! What is kept is the introspection's result, never a verdict: expiry, not-before and the scope
//! policy are judged again at every use. A verifier failure is never kept. The price is the
//! revocation delay: a token revoked at the issuer keeps working for up to `maxAgeMs`.
use crate::decl::{known_key, ConfigError};
use crate::effect::CacheEntry;
use crate::hmac::Sha256;
use crate::host_store;
use crate::json::{self, write, Value};

/// The longest `maxAgeMs`: one minute of revocation delay at most.
pub const MAX_AGE_LIMIT_MS: u64 = 60_000;
/// How long an inactive or invalid token's result is kept (never longer than `maxAgeMs`): a burst
/// of refused requests costs one introspection, and a token the issuer activates late waits at most
/// this long.
pub const INACTIVE_TTL_MS: u64 = 5_000;
const KEYS: [&str; 3] = ["maxAgeMs", host_store::KEYS[0], host_store::KEYS[1]];
/// Nesting of a stored value.
const VALUE_DEPTH: u32 = 2;

/// `authorization.cache`. `maxEntries` and `maxBytes` bound the Node and Fetch hosts' store; they
/// are checked here so every host refuses the same options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    pub max_age_ms: u64,
}

/// What one introspection said, once its time-independent claims (issuer, audience, subject, token
/// type, scope syntax) were checked: what the cache keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Introspected {
    Active {
        sub: String,
        /// The space-separated `scope` claim, well-formed.
        scope: String,
        /// `exp` and `nbf`, NumericDate seconds.
        exp_s: i64,
        nbf_s: Option<i64>,
    },
    /// Inactive, or active with a claim that does not hold.
    Inactive,
}

pub fn parse(v: Value<'_>) -> Result<CacheConfig, ConfigError> {
    let o = match v {
        Value::Object(o) => o,
        _ => {
            return Err(
                "authorization.cache: must be an object {maxAgeMs, maxEntries?, maxBytes?}"
                    .to_string(),
            )
        }
    };
    for (key, _) in o.iter() {
        known_key("authorization.cache", key, &KEYS)?;
    }
    let max_age_ms =
        match host_store::integer(o, "authorization.cache", "maxAgeMs", 1, MAX_AGE_LIMIT_MS)? {
            Some(ms) => ms,
            None => {
                return Err(format!(
                    "authorization.cache.maxAgeMs: must be an integer from 1 to {}",
                    MAX_AGE_LIMIT_MS
                ))
            }
        };
    host_store::check(o, "authorization.cache")?;
    Ok(CacheConfig { max_age_ms })
}

/// The entry's key, in hex: SHA-256 over what judged the token (so two configurations never share
/// an entry in a shared store) and the token. The token cannot be recovered from it.
pub fn key(context: &[&str], token: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(b"pulse-introspection-cache\0");
    for part in context {
        h.update(part.as_bytes());
        h.update(b"\0");
    }
    h.update(token);
    let mut out = String::with_capacity(64);
    for b in h.finish() {
        out.push_str(&format!("{:02x}", b));
    }
    out
}

impl CacheConfig {
    /// What to keep of `result` judged at wall-clock `now_ms`: an active token's claims until the
    /// smaller of `maxAgeMs` and its `exp`, anything else for [`INACTIVE_TTL_MS`] at most. `None`
    /// without a wall clock.
    pub fn entry(&self, key: &str, result: &Introspected, now_ms: f64) -> Option<CacheEntry> {
        if !now_ms.is_finite() {
            return None;
        }
        let short = INACTIVE_TTL_MS.min(self.max_age_ms);
        let ttl_ms = match result {
            Introspected::Active { exp_s, .. } => {
                let left = *exp_s as f64 * 1000.0 - now_ms;
                if left >= 1.0 {
                    (self.max_age_ms as f64).min(left.floor()) as u64
                } else {
                    short
                }
            }
            Introspected::Inactive => short,
        };
        Some(CacheEntry {
            key: key.to_string(),
            value: encode(result),
            ttl_ms,
        })
    }
}

/// `{"active":true,"sub":…,"scope":…,"exp":…,"nbf"?:…}` or `{"active":false}`.
pub fn encode(result: &Introspected) -> Vec<u8> {
    match result {
        Introspected::Inactive => b"{\"active\":false}".to_vec(),
        Introspected::Active {
            sub,
            scope,
            exp_s,
            nbf_s,
        } => {
            let mut out = b"{\"active\":true,\"sub\":".to_vec();
            write::string(&mut out, sub);
            out.extend_from_slice(b",\"scope\":");
            write::string(&mut out, scope);
            out.extend_from_slice(b",\"exp\":");
            write::integer(&mut out, *exp_s);
            if let Some(n) = nbf_s {
                out.extend_from_slice(b",\"nbf\":");
                write::integer(&mut out, *n);
            }
            out.push(b'}');
            out
        }
    }
}

/// A stored value read back; `None` when it is not one [`encode`] writes.
pub fn decode(value: &[u8]) -> Option<Introspected> {
    let doc = json::parse(value, VALUE_DEPTH).ok()?;
    let o = doc.root().as_object()?;
    let int = |v: Value<'_>| v.as_number()?.as_safe_integer();
    match o.get("active")?.as_bool()? {
        false => Some(Introspected::Inactive),
        true => {
            let scope = o.get("scope")?.as_string()?.as_str().into_owned();
            let nbf_s = match o.get("nbf") {
                None => None,
                Some(v) => Some(int(v)?),
            };
            let well_formed =
                !scope.starts_with(' ') && !scope.ends_with(' ') && !scope.contains("  ");
            if !well_formed {
                return None;
            }
            Some(Introspected::Active {
                sub: o.get("sub")?.as_string()?.as_str().into_owned(),
                scope,
                exp_s: int(o.get("exp")?)?,
                nbf_s,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<CacheConfig, ConfigError> {
        let doc = json::parse(text.as_bytes(), 4).unwrap();
        parse(doc.root())
    }

    #[test]
    fn the_option_is_checked_and_names_itself() {
        let rows: &[(&str, Result<u64, &str>)] = &[
            (r#"{"maxAgeMs":1}"#, Ok(1)),
            (
                r#"{"maxAgeMs":60000,"maxEntries":1,"maxBytes":65536}"#,
                Ok(60_000),
            ),
            (
                r#"{"maxAgeMs":0}"#,
                Err("authorization.cache.maxAgeMs: must be an integer from 1 to 60000"),
            ),
            (
                r#"{"maxAgeMs":60001}"#,
                Err("authorization.cache.maxAgeMs: must be an integer from 1 to 60000"),
            ),
            (
                r#"{"maxAgeMs":1.5}"#,
                Err("authorization.cache.maxAgeMs: must be an integer from 1 to 60000"),
            ),
            (
                r#"{"maxAgeMs":"10"}"#,
                Err("authorization.cache.maxAgeMs: must be an integer from 1 to 60000"),
            ),
            (
                r#"{}"#,
                Err("authorization.cache.maxAgeMs: must be an integer from 1 to 60000"),
            ),
            (
                r#"{"maxAgeMs":1,"maxEntries":0}"#,
                Err("authorization.cache.maxEntries: must be an integer from 1 to 1000000"),
            ),
            (
                r#"{"maxAgeMs":1,"maxBytes":1024}"#,
                Err("authorization.cache.maxBytes: must be an integer from 65536 to 1073741824"),
            ),
            (
                "true",
                Err("authorization.cache: must be an object {maxAgeMs, maxEntries?, maxBytes?}"),
            ),
        ];
        for (text, expected) in rows {
            let got = config(text).map(|c| c.max_age_ms);
            assert_eq!(got, expected.map_err(str::to_string), "{}", text);
        }
        assert!(config(r#"{"maxAgeMs":1,"ttl":2}"#)
            .unwrap_err()
            .starts_with("authorization.cache: unknown key \"ttl\""));
    }

    #[test]
    fn keys_separate_tokens_and_configurations_and_hide_the_token() {
        let a = key(&["https://id.example/i", "rs"], b"token-a");
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(!a.contains("token"));
        assert_ne!(a, key(&["https://id.example/i", "rs"], b"token-b"));
        assert_ne!(a, key(&["https://id.example/i", "rs2"], b"token-a"));
        // A separator between parts: moving a byte across a boundary is another key.
        assert_ne!(a, key(&["https://id.example/ir", "s"], b"token-a"));
        assert_eq!(a, key(&["https://id.example/i", "rs"], b"token-a"));
    }

    #[test]
    fn active_results_live_until_the_smaller_of_max_age_and_exp_others_briefly() {
        let c = CacheConfig { max_age_ms: 30_000 };
        let now = 1_000_000.0;
        let active = |exp_s: i64| Introspected::Active {
            sub: "u1".into(),
            scope: "a b".into(),
            exp_s,
            nbf_s: Some(900),
        };
        let rows = [
            (active(2_000), Some(30_000)),
            (active(1_010), Some(10_000)),
            (active(1_000), Some(INACTIVE_TTL_MS)),
            (Introspected::Inactive, Some(INACTIVE_TTL_MS)),
        ];
        for (result, ttl) in rows {
            let e = c.entry("k", &result, now);
            assert_eq!(e.as_ref().map(|e| e.ttl_ms), ttl, "{:?}", result);
            assert_eq!(decode(&e.unwrap().value), Some(result));
        }
        let brief = CacheConfig { max_age_ms: 100 };
        assert_eq!(
            brief
                .entry("k", &Introspected::Inactive, now)
                .unwrap()
                .ttl_ms,
            100
        );
        assert_eq!(c.entry("k", &Introspected::Inactive, f64::NAN), None);
        for bad in [
            &b"{}"[..],
            b"[]",
            b"{\"active\":true}",
            b"{\"active\":true,\"sub\":\"u\",\"scope\":\" a\",\"exp\":1}",
            b"x",
        ] {
            assert_eq!(decode(bad), None);
        }
    }
}
