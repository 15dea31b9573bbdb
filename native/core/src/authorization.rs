//! OAuth 2.1 resource-server admission (`authorization` option): the bearer token of every MCP POST
//! is verified by RFC 7662 introspection at the configured issuer before a body byte is parsed,
//! and each request is then held to the per-operation scope policy.
//!
//! The core never parses a token and never trusts a claim it did not get from the fixed
//! introspection endpoint; nothing is kept across requests unless `authorization.cache` asks for it
//! (`introspection_cache`: results are kept, judged every time). Refusals carry RFC 6750 challenges
//! pointing at the RFC 9728 metadata this module also serves, and fixed texts only: no token,
//! secret, issuer message or claim ever appears in a reply.
use std::borrow::Cow;

use crate::base64;
use crate::decl::{
    is_b64token, known_key, name_rule, secret_ref, valid_name, ConfigError, SecretRef,
};
use crate::effect::{self, CacheEntry, Effect, HttpAnswer, HttpEffect, HttpMethod, HttpVerdict};
use crate::head::{Field, Head};
use crate::introspection_cache::{self, CacheConfig, Introspected};
use crate::json::{self, write, Object, Value};
use crate::reply::{Reply, Timing};
use crate::tools::Tools;
use crate::url::{Url, Use};

/// Characters of a bearer token; a longer one is refused without asking the issuer.
pub const MAX_TOKEN_CHARS: usize = 8192;
/// Bytes of an introspection response; more is the verifier failing.
pub const INTROSPECTION_MAX_BYTES: usize = 16 * 1024;
/// Nesting of an introspection response.
pub const INTROSPECTION_DEPTH: u32 = 8;
/// The introspection ceiling; the request's own deadline may cut it shorter.
pub const INTROSPECTION_TIMEOUT_MS: u64 = 3_000;
/// RFC 9728 §3.1: the well-known prefix inserted before the resource's path.
pub const METADATA_PREFIX: &str = "/.well-known/oauth-protected-resource";
/// The Fastly backend that reaches the issuer, unless `authorization.backend` names another.
pub const DEFAULT_BACKEND: &str = "issuer";
const MAX_CLIENT_CHARS: usize = 256;
pub const MAX_SECRET_BYTES: usize = 1024;
const MAX_SCOPES: usize = 64;
const MAX_SCOPE_CHARS: usize = 128;

const KEYS: [&str; 10] = [
    "resource",
    "issuer",
    "introspectionEndpoint",
    "clientId",
    "clientSecret",
    "scopes",
    "operations",
    "allowInsecureLoopback",
    "backend",
    "cache",
];

pub struct Authorization {
    resource: String,
    issuer: String,
    introspection_url: String,
    backend: String,
    client_id: String,
    /// `Basic …` of the introspection client; `None` until the secret is installed.
    basic: Option<String>,
    secret: Option<SecretRef>,
    /// Baseline scopes, needed by every request.
    scopes: Vec<String>,
    /// Operation name → every scope it needs (the baseline and its own), sorted by name.
    operations: Vec<(String, Vec<String>)>,
    metadata_path: Vec<u8>,
    metadata: Vec<u8>,
    metadata_url: String,
    /// Each tool's `tools/list` entry and its index in `operations` (none: never listed), in list
    /// order: lists are filtered per grant.
    entries: Vec<(Vec<u8>, Option<usize>)>,
    cache: Option<CacheConfig>,
}

/// What one introspection granted, for the rest of its request only.
#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    scopes: Vec<String>,
    /// The token's `exp`, in milliseconds since the Unix epoch.
    expires_ms: f64,
    /// The token's `sub`: the principal the request event names.
    sub: String,
}

impl Grant {
    pub fn sub(&self) -> &str {
        &self.sub
    }

    fn holds(&self, needed: &[String]) -> bool {
        needed.iter().all(|s| self.scopes.contains(s))
    }
}

/// The head-phase verdict: ask the issuer, or refuse now.
pub enum Admission {
    Introspect(Effect),
    Refuse(Reply),
}

/// Why a request is refused; each has one status, challenge and fixed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Denial {
    Missing,
    InvalidToken,
    QueryToken,
    Unavailable,
    Unpermitted,
}

impl Authorization {
    /// Parses and checks the option. `path` is the handler path; operation names must be tools.
    pub fn parse(
        v: Value<'_>,
        path: &str,
        tools: Option<&Tools>,
    ) -> Result<Authorization, ConfigError> {
        let o = match v {
            Value::Object(o) => o,
            _ => return Err("authorization: must be an object".to_string()),
        };
        for (key, _) in o.iter() {
            known_key("authorization", key, &KEYS)?;
        }
        let loopback = match o.get("allowInsecureLoopback") {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                return Err("authorization.allowInsecureLoopback: must be a boolean".to_string())
            }
        };
        let url = |key: &str| -> Result<Url, ConfigError> {
            let text = match o.get(key) {
                Some(Value::String(s)) => s.as_str().into_owned(),
                None => return Err(format!("authorization.{}: is required", key)),
                Some(_) => return Err(format!("authorization.{}: must be a URL string", key)),
            };
            let use_ = Use::AuthorizationServer {
                insecure_loopback: loopback,
            };
            Url::parse(&text, use_).ok_or_else(|| {
                format!(
                    "authorization.{}: must be an https URL without credentials, query or fragment{}",
                    key,
                    if loopback { " (or http to a literal loopback IP, 127.0.0.0/8 or [::1]: never a name such as localhost)" } else { "; http only to a literal loopback IP with allowInsecureLoopback: true" }
                )
            })
        };
        let resource = url("resource")?;
        let issuer = url("issuer")?;
        let introspection = url("introspectionEndpoint")?;
        if resource.path() != path {
            return Err(format!(
                "authorization.resource: its path must be the handler path ({})",
                path
            ));
        }
        if introspection.origin() != issuer.origin() {
            return Err("authorization.introspectionEndpoint: must have the issuer's origin (scheme, host and port)".to_string());
        }
        let client_id = match o.get("clientId") {
            Some(Value::String(s))
                if !s.as_str().is_empty()
                    && s.as_str().chars().count() <= MAX_CLIENT_CHARS
                    && s.as_str().chars().all(|c| !c.is_control()) =>
            {
                s.as_str().into_owned()
            }
            _ => {
                return Err(format!(
                    "authorization.clientId: must be 1-{} characters without control characters",
                    MAX_CLIENT_CHARS
                ))
            }
        };
        let (basic, secret) = match o.get("clientSecret") {
            Some(Value::String(s)) => (Some(basic(&client_id, s.as_str().as_bytes())?), None),
            Some(Value::Object(r)) => (None, Some(secret_ref(r, "authorization.clientSecret")?)),
            _ => return Err(format!("authorization.clientSecret: must be the introspection client's secret (1-{} bytes) or a secret-store reference {{\"secretStore\", \"key\"}}", MAX_SECRET_BYTES)),
        };
        let scopes = scope_list(o.get("scopes"), "authorization.scopes")?;
        if scopes.is_empty() {
            return Err("authorization.scopes: must name at least one baseline scope".to_string());
        }
        let operations = operations(o.get("operations"), tools, &scopes)?;
        let backend = match o.get("backend") {
            None => DEFAULT_BACKEND.to_string(),
            Some(Value::String(s)) if valid_name(&s.as_str()) => s.as_str().into_owned(),
            Some(_) => {
                return Err(concat!(
                    "authorization.backend: must be a Fastly backend name (",
                    name_rule!(),
                    ")"
                )
                .to_string())
            }
        };
        let cache = o.get("cache").map(introspection_cache::parse).transpose()?;
        let entries = match tools {
            Some(t) => list_entries(t.list_json())
                .into_iter()
                .map(|(name, entry)| (entry, operation_index(&operations, &name)))
                .collect(),
            None => Vec::new(),
        };
        let mut metadata_path = METADATA_PREFIX.as_bytes().to_vec();
        metadata_path.extend_from_slice(resource.path().as_bytes());
        let metadata_url = format!(
            "{}{}{}",
            resource.origin(),
            METADATA_PREFIX,
            resource.path()
        );
        let mut a = Authorization {
            resource: resource.text,
            issuer: issuer.text,
            introspection_url: introspection.text,
            backend,
            client_id,
            basic,
            secret,
            scopes,
            operations,
            metadata_path,
            metadata: Vec::new(),
            metadata_url,
            entries,
            cache,
        };
        a.metadata = a.metadata_document();
        Ok(a)
    }

    /// The Fastly backend that reaches the issuer.
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// The secret holding the introspection client's secret, while it is not installed.
    pub fn secret(&self) -> Option<&SecretRef> {
        self.secret.as_ref()
    }

    /// Installs the introspection client's secret read from the secret store. Until then every
    /// MCP request is answered 500: a token is never accepted unverified.
    pub fn set_secret(&mut self, secret: &[u8]) -> Result<(), ConfigError> {
        if self.secret.is_none() {
            return Err(
                "authorization.clientSecret: no secret is waiting to be installed".to_string(),
            );
        }
        self.basic = Some(basic(&self.client_id, secret)?);
        self.secret = None;
        Ok(())
    }

    pub fn is_metadata_path(&self, path: &[u8]) -> bool {
        path == self.metadata_path.as_slice()
    }

    /// RFC 9728 protected-resource metadata: GET and HEAD, unauthenticated.
    pub fn metadata_reply(&self, method: &[u8]) -> Reply {
        if method != b"GET" && method != b"HEAD" {
            return Reply::method_not_allowed("GET, HEAD");
        }
        let mut r = Reply::json(200, Timing::Early);
        if method == b"GET" {
            r.body = self.metadata.clone();
        }
        r
    }

    fn metadata_document(&self) -> Vec<u8> {
        let mut out = b"{\"resource\":".to_vec();
        write::string(&mut out, &self.resource);
        out.extend_from_slice(b",\"authorization_servers\":[");
        write::string(&mut out, &self.issuer);
        out.extend_from_slice(b"],\"scopes_supported\":");
        string_array(&mut out, &self.scopes);
        out.extend_from_slice(b",\"bearer_methods_supported\":[\"header\"]}");
        out
    }

    /// The head phase, after the header checks: the token from `Authorization` only, then one
    /// introspection effect.
    pub fn admit(&self, head: &Head) -> Admission {
        if matches!(head.query.as_deref(), Some(q) if query_has_token(q)) {
            return Admission::Refuse(self.refuse(Denial::QueryToken, Timing::Early));
        }
        let token = match head.get(Field::Authorization).map(bearer) {
            None | Some(Bearer::None) => {
                return Admission::Refuse(self.refuse(Denial::Missing, Timing::Early))
            }
            Some(Bearer::Malformed) => {
                return Admission::Refuse(self.refuse(Denial::InvalidToken, Timing::Early))
            }
            Some(Bearer::Token(t)) => t,
        };
        let basic = match &self.basic {
            Some(b) => b,
            None => return Admission::Refuse(Reply::internal_error()),
        };
        let mut body = b"token=".to_vec();
        form_encode(&mut body, token);
        body.extend_from_slice(b"&token_type_hint=access_token");
        let cache_key = self.cache.map(|_| {
            let context = [
                self.introspection_url.as_str(),
                &self.client_id,
                &self.issuer,
                &self.resource,
            ];
            introspection_cache::key(&context, token)
        });
        Admission::Introspect(Effect::Http(HttpEffect {
            backend: self.backend.clone(),
            method: HttpMethod::Post,
            url: self.introspection_url.clone(),
            headers: vec![
                (
                    "content-type",
                    "application/x-www-form-urlencoded".to_string(),
                ),
                ("accept", "application/json".to_string()),
                ("authorization", basic.clone()),
            ],
            body: Some(body),
            max_bytes: INTROSPECTION_MAX_BYTES,
            // The hosts bound the wait by the request's deadline too; when that passes first the
            // reply is 408, not a verifier failure.
            timeout_ms: INTROSPECTION_TIMEOUT_MS,
            cache_key,
        }))
    }

    /// Judges a fresh introspection answer at wall-clock `now_ms`: a grant holding the baseline
    /// scopes, or the refusal; and, under `cache_key`, the entry the host keeps. A verifier that
    /// fails in any way is 503, never a pass, and never kept.
    pub fn judge(
        &self,
        answer: HttpAnswer<'_>,
        cache_key: Option<&str>,
        now_ms: f64,
    ) -> (Result<Grant, Reply>, Option<CacheEntry>) {
        let result = match self.introspected(answer) {
            Ok(r) => r,
            Err(reply) => return (Err(reply), None),
        };
        let entry = match (self.cache, cache_key) {
            (Some(c), Some(key)) => c.entry(key, &result, now_ms),
            _ => None,
        };
        (self.assess(&result, now_ms), entry)
    }

    /// Judges a result kept by the host's cache at wall-clock `now_ms`, exactly as a fresh one.
    pub fn judge_cached(&self, value: &[u8], now_ms: f64) -> Result<Grant, Reply> {
        match introspection_cache::decode(value) {
            Some(result) => self.assess(&result, now_ms),
            // Not a value the core wrote: the store failed, which is the verifier failing.
            None => Err(self.refuse(Denial::Unavailable, Timing::Early)),
        }
    }

    /// The answer's time-independent reading: the result, or 503 when the verifier failed.
    fn introspected(&self, answer: HttpAnswer<'_>) -> Result<Introspected, Reply> {
        let unavailable = || self.refuse(Denial::Unavailable, Timing::Early);
        let text = match effect::judge(answer, INTROSPECTION_MAX_BYTES) {
            HttpVerdict::Text(t) => t,
            _ => return Err(unavailable()),
        };
        let doc = json::parse(text.as_bytes(), INTROSPECTION_DEPTH).map_err(|_| unavailable())?;
        let claims = match doc.root() {
            Value::Object(o) => o,
            _ => return Err(unavailable()),
        };
        match claims.get("active") {
            Some(Value::Bool(true)) => Ok(self.claims(claims).unwrap_or(Introspected::Inactive)),
            Some(Value::Bool(false)) => Ok(Introspected::Inactive),
            _ => Err(unavailable()),
        }
    }

    /// The claims of an active token that do not change with time, checked exactly; `None` when
    /// any does not hold.
    fn claims(&self, c: Object<'_>) -> Option<Introspected> {
        let iss = c.get("iss")?.as_string()?;
        if !iss.eq_str(&self.issuer) {
            return None;
        }
        let audience_ok = match c.get("aud")? {
            Value::String(s) => s.eq_str(&self.resource),
            Value::Array(a) => a
                .iter()
                .any(|v| matches!(v, Value::String(s) if s.eq_str(&self.resource))),
            _ => false,
        };
        let exp_s = numeric_date(c.get("exp")?)?;
        let sub = c.get("sub")?.as_string()?.as_str().into_owned();
        let scope = c.get("scope")?.as_string()?.as_str().into_owned();
        let nbf_s = match c.get("nbf") {
            None => None,
            Some(v) => Some(numeric_date(v)?),
        };
        let type_ok = match c.get("token_type") {
            None => true,
            Some(Value::String(s)) => s.as_str().eq_ignore_ascii_case("bearer"),
            Some(_) => false,
        };
        let ok = audience_ok
            && !sub.is_empty()
            && type_ok
            && !scope.starts_with(' ')
            && !scope.ends_with(' ')
            && !scope.contains("  ");
        ok.then_some(Introspected::Active {
            sub,
            scope,
            exp_s,
            nbf_s,
        })
    }

    /// The judgement of a result at wall-clock `now_ms`, fresh or kept: `exp` and `nbf` against
    /// now, then the baseline scopes.
    fn assess(&self, result: &Introspected, now_ms: f64) -> Result<Grant, Reply> {
        let invalid = || self.refuse(Denial::InvalidToken, Timing::Early);
        let (sub, scope, exp_s, nbf_s) = match result {
            Introspected::Active {
                sub,
                scope,
                exp_s,
                nbf_s,
            } => (sub, scope, *exp_s, *nbf_s),
            Introspected::Inactive => return Err(invalid()),
        };
        let expires_ms = exp_s as f64 * 1000.0;
        let started = match nbf_s {
            None => true,
            Some(n) => n as f64 * 1000.0 <= now_ms,
        };
        // NaN (no wall clock) fails closed.
        if !now_ms.is_finite() || expires_ms <= now_ms || !started {
            return Err(invalid());
        }
        let grant = Grant {
            scopes: scope
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            expires_ms,
            sub: sub.clone(),
        };
        if !grant.holds(&self.scopes) {
            return Err(self.insufficient(&self.scopes, Timing::Early));
        }
        Ok(grant)
    }

    /// Right before dispatch: the token must still be valid, and a `tools/call` must name an
    /// operation the policy maps and the grant covers.
    pub fn permit(
        &self,
        grant: &Grant,
        method: &str,
        params: Option<&Object<'_>>,
        now_ms: f64,
    ) -> Result<(), Reply> {
        // NaN (no wall clock) fails closed.
        if grant.expires_ms.partial_cmp(&now_ms) != Some(std::cmp::Ordering::Greater) {
            return Err(self.refuse(Denial::InvalidToken, Timing::AfterBody));
        }
        if method != "tools/call" {
            return Ok(());
        }
        let name = match params.and_then(|p| p.get("name")) {
            Some(Value::String(s)) => s.as_str(),
            // Malformed params are the method's own -32602; nothing runs either way.
            _ => return Ok(()),
        };
        match operation_index(&self.operations, &name).map(|i| &self.operations[i].1) {
            None => Err(self.refuse(Denial::Unpermitted, Timing::AfterBody)),
            Some(needed) if grant.holds(needed) => Ok(()),
            Some(needed) => Err(self.insufficient(needed, Timing::AfterBody)),
        }
    }

    /// The `tools/list` array for this grant: the permitted operations only, in list order.
    pub fn tools_array(&self, grant: &Grant) -> Vec<u8> {
        let mut out = b"[".to_vec();
        for (entry, op) in &self.entries {
            if matches!(op, Some(i) if grant.holds(&self.operations[*i].1)) {
                if out.len() > 1 {
                    out.push(b',');
                }
                out.extend_from_slice(entry);
            }
        }
        out.push(b']');
        out
    }

    /// 403 naming every scope the request needs, in one challenge.
    fn insufficient(&self, needed: &[String], timing: Timing) -> Reply {
        let scope = needed.join(" ");
        let challenge = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\", error_description=\"{}\"",
            scope, self.metadata_url, INSUFFICIENT
        );
        oauth_reply(
            403,
            Some("insufficient_scope"),
            INSUFFICIENT,
            Some(challenge),
            timing,
        )
    }

    /// The refusal `d`, before the body was read (`Early`) or after it.
    fn refuse(&self, d: Denial, timing: Timing) -> Reply {
        let baseline = self.scopes.join(" ");
        match d {
            Denial::Missing => {
                let challenge = format!(
                    "Bearer resource_metadata=\"{}\", scope=\"{}\"",
                    self.metadata_url, baseline
                );
                oauth_reply(401, None, MISSING, Some(challenge), timing)
            }
            Denial::InvalidToken => {
                let challenge = format!(
                    "Bearer error=\"invalid_token\", resource_metadata=\"{}\", scope=\"{}\", error_description=\"{}\"",
                    self.metadata_url, baseline, INVALID
                );
                oauth_reply(401, Some("invalid_token"), INVALID, Some(challenge), timing)
            }
            Denial::QueryToken => {
                let challenge = format!(
                    "Bearer error=\"invalid_request\", resource_metadata=\"{}\", error_description=\"{}\"",
                    self.metadata_url, QUERY
                );
                oauth_reply(400, Some("invalid_request"), QUERY, Some(challenge), timing)
            }
            Denial::Unavailable => oauth_reply(
                503,
                Some("temporarily_unavailable"),
                UNAVAILABLE,
                None,
                timing,
            ),
            Denial::Unpermitted => {
                oauth_reply(403, Some("access_denied"), UNPERMITTED, None, timing)
            }
        }
    }
}

const MISSING: &str = "A bearer token is required";
const INVALID: &str = "The access token is invalid or expired";
const QUERY: &str = "The access token must be sent in the Authorization header";
const UNAVAILABLE: &str = "The access token could not be verified; try again later";
const UNPERMITTED: &str = "This operation is not permitted";
const INSUFFICIENT: &str = "The access token lacks a required scope";

/// `{"error":…,"error_description":…}` (RFC 6750 §3 codes; no `error` when no credentials were
/// sent, §3.1), with its challenge.
fn oauth_reply(
    status: u16,
    error: Option<&str>,
    description: &str,
    challenge: Option<String>,
    timing: Timing,
) -> Reply {
    let mut r = Reply::json(status, timing);
    if let Some(c) = challenge {
        r.headers.push(("www-authenticate", Cow::Owned(c)));
    }
    r.body = match error {
        Some(e) => format!(
            "{{\"error\":\"{}\",\"error_description\":\"{}\"}}",
            e, description
        ),
        None => format!("{{\"error_description\":\"{}\"}}", description),
    }
    .into_bytes();
    r
}

/// RFC 7519 NumericDate as this profile takes it: whole seconds, a non-negative integer literal.
fn numeric_date(v: Value<'_>) -> Option<i64> {
    let n = v.as_number()?;
    n.as_safe_integer().filter(|_| !n.raw().starts_with('-'))
}

enum Bearer<'a> {
    /// No credentials for this scheme (RFC 6750 §3.1: the challenge then names no error).
    None,
    Malformed,
    Token(&'a [u8]),
}

fn bearer(value: &[u8]) -> Bearer<'_> {
    let (scheme, rest) = match value.iter().position(|&b| b == b' ') {
        Some(i) => (&value[..i], &value[i + 1..]),
        None => (value, &b""[..]),
    };
    if !scheme.eq_ignore_ascii_case(b"bearer") {
        return Bearer::None;
    }
    let token = match rest.iter().position(|&b| b != b' ') {
        Some(i) => &rest[i..],
        None => return Bearer::Malformed,
    };
    if token.len() > MAX_TOKEN_CHARS || !is_b64token(token) {
        return Bearer::Malformed;
    }
    Bearer::Token(token)
}

/// RFC 6750 §2.3: an `access_token` query parameter (percent-encoded spellings included).
fn query_has_token(q: &[u8]) -> bool {
    q.split(|&b| b == b'&').any(|pair| {
        let name = pair.split(|&b| b == b'=').next().unwrap_or(b"");
        percent_decoded(name).eq_ignore_ascii_case(b"access_token")
    })
}

fn percent_decoded(s: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match (
            s[i],
            s.get(i + 1).and_then(|&b| hex(b)),
            s.get(i + 2).and_then(|&b| hex(b)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push(h << 4 | l);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// `application/x-www-form-urlencoded` (the form RFC 6749 §2.3.1 also applies to Basic credentials).
fn form_encode(out: &mut Vec<u8>, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s {
        if b.is_ascii_alphanumeric() || b"*-._".contains(&b) {
            out.push(b);
        } else if b == b' ' {
            out.push(b'+');
        } else {
            out.extend_from_slice(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
        }
    }
}

/// `Basic base64(form(id):form(secret))`, client_secret_basic. The secret is never shown.
fn basic(client_id: &str, secret: &[u8]) -> Result<String, ConfigError> {
    if secret.is_empty() || secret.len() > MAX_SECRET_BYTES || std::str::from_utf8(secret).is_err()
    {
        return Err(format!(
            "authorization.clientSecret: must be 1-{} bytes of text",
            MAX_SECRET_BYTES
        ));
    }
    let mut pair = Vec::new();
    form_encode(&mut pair, client_id.as_bytes());
    pair.push(b':');
    form_encode(&mut pair, secret);
    Ok(format!("Basic {}", base64::encode(&pair)))
}

/// RFC 6749 §3.3 `scope-token`.
fn valid_scope(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_SCOPE_CHARS
        && s.bytes()
            .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
}

fn scope_list(v: Option<Value<'_>>, option: &str) -> Result<Vec<String>, ConfigError> {
    let rule = || {
        format!(
            "{}: must be an array of at most {} distinct scope tokens (RFC 6749 §3.3)",
            option, MAX_SCOPES
        )
    };
    let arr = match v {
        Some(Value::Array(a)) if a.len() <= MAX_SCOPES => a,
        _ => return Err(rule()),
    };
    let mut out: Vec<String> = Vec::with_capacity(arr.len());
    for (i, item) in arr.iter().enumerate() {
        match item {
            Value::String(s) if valid_scope(&s.as_str()) && !out.iter().any(|o| s.eq_str(o)) => {
                out.push(s.as_str().into_owned())
            }
            _ => {
                return Err(format!(
                    "{}[{}]: must be a scope token (RFC 6749 §3.3) not listed before",
                    option, i
                ))
            }
        }
    }
    Ok(out)
}

/// The operations map, each with every scope it needs: the baseline, then its own.
fn operations(
    v: Option<Value<'_>>,
    tools: Option<&Tools>,
    baseline: &[String],
) -> Result<Vec<(String, Vec<String>)>, ConfigError> {
    let o = match v {
        None => return Ok(Vec::new()),
        Some(Value::Object(o)) => o,
        Some(_) => return Err(
            "authorization.operations: must be an object mapping tool names to their extra scopes"
                .to_string(),
        ),
    };
    let mut out: Vec<(String, Vec<String>)> = Vec::with_capacity(o.len());
    for (name, scopes) in o.iter() {
        let name = name.as_str().into_owned();
        let option = match valid_name(&name) {
            true => format!("authorization.operations[\"{}\"]", name),
            false => "authorization.operations".to_string(),
        };
        if !matches!(tools, Some(t) if t.find(&name).is_some()) {
            return Err(format!("{}: names no configured tool", option));
        }
        let mut needed = baseline.to_vec();
        for s in scope_list(Some(scopes), &option)? {
            if !needed.contains(&s) {
                needed.push(s);
            }
        }
        out.push((name, needed));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn operation_index(operations: &[(String, Vec<String>)], name: &str) -> Option<usize> {
    operations
        .binary_search_by(|(n, _)| n.as_str().cmp(name))
        .ok()
}

/// Each tool entry of the prebuilt list, re-serialized, with its name.
fn list_entries(list: &[u8]) -> Vec<(String, Vec<u8>)> {
    let doc = match json::parse(list, crate::manifest::LIST_DEPTH) {
        Ok(d) => d,
        Err(_) => return Vec::new(),
    };
    let arr = match doc.root().as_array() {
        Some(a) => a,
        None => return Vec::new(),
    };
    arr.iter()
        .filter_map(|t| {
            let name = t
                .as_object()?
                .get("name")?
                .as_string()?
                .as_str()
                .into_owned();
            let mut entry = Vec::new();
            write::value(&mut entry, t);
            Some((name, entry))
        })
        .collect()
}

fn string_array(out: &mut Vec<u8>, items: &[String]) {
    out.push(b'[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write::string(out, s);
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;
    use crate::effect::HttpFailure;
    use crate::engine::{Action, Engine, Request};

    const NOW_S: i64 = 1_780_000_000;
    const SECRET: &str = "rs-s3cret+/=";
    const TOKEN: &str = "tok.EN-123_~+/=";

    fn options(extra: &str) -> String {
        format!(
            r#"{{"tools":{},"authorization":{{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/introspect","clientId":"rs client","clientSecret":"{}","scopes":["mcp:access"],"operations":{{"status":[],"remote":["notes:write"]}}{}}}}}"#,
            crate::tools::tests::manifest(),
            SECRET,
            extra
        )
    }

    fn engine() -> Engine {
        Engine::new(options("").as_bytes()).unwrap()
    }

    fn config_err(authorization: &str) -> String {
        let text = format!(
            r#"{{"tools":{},"authorization":{}}}"#,
            crate::tools::tests::manifest(),
            authorization
        );
        match Engine::new(text.as_bytes()) {
            Err(e) => e,
            Ok(_) => panic!("accepted: {}", authorization),
        }
    }

    fn headers<'a>(auth: Option<&'a str>, method: &'a str) -> Vec<(&'a str, &'a str)> {
        let mut h = vec![
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        if let Some(a) = auth {
            h.push(("authorization", a));
        }
        h
    }

    fn start(e: &Engine, target: &str, auth: Option<&str>) -> (Request, Action) {
        let mut r = e.request_at(0.0, NOW_S as f64 * 1000.0);
        let a = r.head(b"POST", target.as_bytes(), headers(auth, "tools/list"), 0.0);
        (r, a)
    }

    fn claims(extra: &str) -> String {
        format!(
            r#"{{"active":true,"iss":"https://id.example","aud":["x","https://mcp.example/mcp"],"exp":{},"sub":"u1","scope":"mcp:access notes:read"{}}}"#,
            NOW_S + 60,
            extra
        )
    }

    fn header<'a>(r: &'a Reply, name: &str) -> Option<&'a str> {
        r.headers.iter().find(|h| h.0 == name).map(|h| h.1.as_ref())
    }

    fn body(r: &Reply) -> &str {
        std::str::from_utf8(&r.body).unwrap()
    }

    const METADATA: &str = "https://mcp.example/.well-known/oauth-protected-resource/mcp";

    #[test]
    fn configuration_refusals_name_the_option() {
        let base = r#""resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"]"#;
        let rows: &[(&str, &str)] = &[
            (
                r#"{"resource":"http://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "authorization.resource: must be an https URL",
            ),
            (
                r#"{"resource":"http://127.0.0.1/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "allowInsecureLoopback: true",
            ),
            (
                r#"{"resource":"http://localhost.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"],"allowInsecureLoopback":true}"#,
                "authorization.resource: must be an https URL without credentials, query or fragment (or http to a literal loopback IP, 127.0.0.0/8 or [::1]: never a name such as localhost)",
            ),
            (
                r#"{"resource":"http://localhost:3000/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"],"allowInsecureLoopback":true}"#,
                "authorization.resource: must be an https URL without credentials, query or fragment (or http to a literal loopback IP, 127.0.0.0/8 or [::1]: never a name such as localhost)",
            ),
            (
                r#"{"resource":"https://mcp.example/other","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "authorization.resource: its path must be the handler path (/mcp)",
            ),
            (
                r#"{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://other.example/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "authorization.introspectionEndpoint: must have the issuer's origin",
            ),
            (
                r#"{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example:8443/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "authorization.introspectionEndpoint: must have the issuer's origin",
            ),
            (
                r#"{"resource":"https://mcp.example/mcp?x","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "authorization.resource: must be an https URL",
            ),
            (
                r#"{"resource":"https://u:p@mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":"s","scopes":["a"]}"#,
                "authorization.resource: must be an https URL",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#","scopes":["a"]"#, r#","scopes":[]"#)
                ),
                "authorization.scopes: must name at least one baseline scope",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#","scopes":["a"]"#, r#","scopes":["a b"]"#)
                ),
                "authorization.scopes[0]: must be a scope token",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#","scopes":["a"]"#, r#","scopes":["a","a"]"#)
                ),
                "authorization.scopes[1]: must be a scope token (RFC 6749 §3.3) not listed before",
            ),
            (
                &format!("{{{}}}", base.replace(r#","scopes":["a"]"#, "")),
                "authorization.scopes: must be an array",
            ),
            (
                &format!("{{{}}}", base.replace(r#""clientSecret":"s","#, "")),
                "authorization.clientSecret: must be",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""clientSecret":"s","#, r#""clientSecret":"","#)
                ),
                "authorization.clientSecret: must be 1-1024 bytes of text",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""clientId":"c","#, r#""clientId":"","#)
                ),
                "authorization.clientId: must be 1-256 characters",
            ),
            (
                &format!("{{{},\"operations\":{{\"nope\":[]}}}}", base),
                "authorization.operations[\"nope\"]: names no configured tool",
            ),
            (
                &format!("{{{},\"operations\":{{\"status\":\"a\"}}}}", base),
                "authorization.operations[\"status\"]: must be an array",
            ),
            (
                &format!("{{{},\"operations\":[]}}", base),
                "authorization.operations: must be an object",
            ),
            (
                &format!("{{{},\"allowInsecureLoopback\":1}}", base),
                "authorization.allowInsecureLoopback: must be a boolean",
            ),
            (
                &format!("{{{},\"backend\":\"a b\"}}", base),
                "authorization.backend: must be a Fastly backend name",
            ),
            (
                &format!("{{{},\"extra\":1}}", base),
                "authorization: unknown key \"extra\"",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""issuer":"https://id.example","#, "")
                ),
                "authorization.issuer: is required",
            ),
            ("[]", "authorization: must be an object"),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""clientId":"c","#, &format!(r#""clientId":"{}","#, "c".repeat(257)))
                ),
                "authorization.clientId: must be 1-256 characters without control characters",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""clientId":"c","#, r#""clientId":"c\u0001","#)
                ),
                "authorization.clientId: must be 1-256 characters without control characters",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""clientSecret":"s","#, &format!(r#""clientSecret":"{}","#, "s".repeat(1025)))
                ),
                "authorization.clientSecret: must be 1-1024 bytes of text",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""scopes":["a"]"#, &format!(r#""scopes":["{}"]"#, "a".repeat(129)))
                ),
                "authorization.scopes[0]: must be a scope token (RFC 6749 §3.3) not listed before",
            ),
            (
                &format!(
                    "{{{}}}",
                    base.replace(r#""scopes":["a"]"#, &format!(r#""scopes":[{}]"#, many_scopes(65)))
                ),
                "authorization.scopes: must be an array of at most 64 distinct scope tokens (RFC 6749 §3.3)",
            ),
        ];
        for (auth, expected) in rows {
            let e = config_err(auth);
            assert!(
                e.starts_with(expected) || e.contains(expected),
                "{} → {}",
                auth,
                e
            );
            assert!(!e.contains("id.example") && !e.contains("\"s\""), "{}", e);
        }
        let card = format!(
            r#"{{"tools":{},"serverCard":true,"authorization":{{{}}}}}"#,
            crate::tools::tests::manifest(),
            base
        );
        assert!(Engine::new(card.as_bytes())
            .err()
            .unwrap()
            .starts_with("serverCard:"));
        // Literal loopback IPs pass with the flag, v4 and v6 (a name is refused above).
        for host in ["127.0.0.1:8080", "127.3.2.1", "[::1]:9"] {
            let ok = format!(
                r#"{{"tools":{},"authorization":{{"resource":"http://{h}/mcp","issuer":"http://{h}","introspectionEndpoint":"http://{h}/i","clientId":"c","clientSecret":"s","scopes":["a"],"allowInsecureLoopback":true}}}}"#,
                crate::tools::tests::manifest(),
                h = host
            );
            assert!(Engine::new(ok.as_bytes()).is_ok(), "{}", host);
        }
        // Scope tokens (RFC 6749 §3.3): %x21 / %x23-5B / %x5D-7E, each range at both ends.
        for (scope, valid) in [
            (r#"!"#, true),
            (r#"#"#, true),
            (r#"["#, true),
            (r#"]"#, true),
            (r#"~"#, true),
            (r#"\""#, false),
            (r#"\\"#, false),
            (r#" "#, false),
            (r#"\u007f"#, false),
            (r#"\u001f"#, false),
            (r#"é"#, false),
        ] {
            let auth = format!(
                "{{{}}}",
                base.replace(r#""scopes":["a"]"#, &format!(r#""scopes":["a{}"]"#, scope))
            );
            let text = format!(
                r#"{{"tools":{},"authorization":{}}}"#,
                crate::tools::tests::manifest(),
                auth
            );
            match Engine::new(text.as_bytes()) {
                Ok(_) => assert!(valid, "{}", scope),
                Err(e) => {
                    assert!(!valid, "{}: {}", scope, e);
                    assert_eq!(e, "authorization.scopes[0]: must be a scope token (RFC 6749 §3.3) not listed before");
                }
            }
        }
        // Each length and count limit, exactly at it.
        for auth in [
            base.replace(
                r#""clientId":"c","#,
                &format!(r#""clientId":"{}","#, "c".repeat(256)),
            ),
            base.replace(
                r#""clientSecret":"s","#,
                &format!(r#""clientSecret":"{}","#, "s".repeat(1024)),
            ),
            base.replace(
                r#""scopes":["a"]"#,
                &format!(r#""scopes":["{}"]"#, "a".repeat(128)),
            ),
            base.replace(
                r#""scopes":["a"]"#,
                &format!(r#""scopes":[{}]"#, many_scopes(64)),
            ),
        ] {
            let text = format!(
                r#"{{"tools":{},"authorization":{{{}}}}}"#,
                crate::tools::tests::manifest(),
                auth
            );
            assert!(Engine::new(text.as_bytes()).is_ok(), "{}", auth);
        }
    }

    /// `n` distinct scope tokens, as JSON array members.
    fn many_scopes(n: usize) -> String {
        (0..n)
            .map(|i| format!(r#""s{}""#, i))
            .collect::<Vec<_>>()
            .join(",")
    }

    #[test]
    fn metadata_is_served_unauthenticated_with_the_exact_resource() {
        let e = engine();
        let mut r = e.request_at(0.0, 0.0);
        assert_eq!(
            r.head(
                b"GET",
                b"/.well-known/oauth-protected-resource/mcp",
                headers(None, "x"),
                0.0
            ),
            Action::Respond
        );
        let reply = r.reply().unwrap();
        assert_eq!(reply.status, 200);
        assert_eq!(
            body(reply),
            r#"{"resource":"https://mcp.example/mcp","authorization_servers":["https://id.example"],"scopes_supported":["mcp:access"],"bearer_methods_supported":["header"]}"#
        );
        assert_eq!(header(reply, "cache-control"), Some("no-store"));
        let mut r = e.request_at(0.0, 0.0);
        r.head(
            b"HEAD",
            b"/.well-known/oauth-protected-resource/mcp",
            headers(None, "x"),
            0.0,
        );
        assert_eq!(
            (r.reply().unwrap().status, r.reply().unwrap().body.len()),
            (200, 0)
        );
        let mut r = e.request_at(0.0, 0.0);
        r.head(
            b"POST",
            b"/.well-known/oauth-protected-resource/mcp",
            headers(None, "x"),
            0.0,
        );
        assert_eq!(r.reply().unwrap().status, 405);
        assert_eq!(header(r.reply().unwrap(), "allow"), Some("GET, HEAD"));
        assert!(!body(r.reply().unwrap()).contains(SECRET));
        // Every baseline scope is listed, in order.
        let two = options("").replace(
            r#""scopes":["mcp:access"]"#,
            r#""scopes":["mcp:access","notes:read"]"#,
        );
        let e = Engine::new(two.as_bytes()).unwrap();
        let mut r = e.request_at(0.0, 0.0);
        r.head(
            b"GET",
            b"/.well-known/oauth-protected-resource/mcp",
            headers(None, "x"),
            0.0,
        );
        assert_eq!(
            body(r.reply().unwrap()),
            r#"{"resource":"https://mcp.example/mcp","authorization_servers":["https://id.example"],"scopes_supported":["mcp:access","notes:read"],"bearer_methods_supported":["header"]}"#
        );
    }

    #[test]
    fn head_phase_refusals_come_before_any_introspection() {
        let e = engine();
        let rows: &[(&str, Option<&str>, u16, Option<&str>)] = &[
            (
                "/mcp",
                None,
                401,
                Some(&*format!(
                    r#"Bearer resource_metadata="{}", scope="mcp:access""#,
                    METADATA
                )),
            ),
            (
                "/mcp",
                Some("Basic YTpi"),
                401,
                Some(&*format!(
                    r#"Bearer resource_metadata="{}", scope="mcp:access""#,
                    METADATA
                )),
            ),
            ("/mcp", Some("Bearer"), 401, None),
            ("/mcp", Some("Bearer a b"), 401, None),
            ("/mcp", Some("Bearer a\"b"), 401, None),
            ("/mcp?access_token=abc", Some("Bearer abc"), 400, None),
            ("/mcp?x=1&access%5Ftoken=abc", None, 400, None),
        ];
        for (target, auth, status, challenge) in rows {
            let (r, a) = start(&e, target, *auth);
            assert_eq!(a, Action::Respond, "{} {:?}", target, auth);
            let reply = r.reply().unwrap();
            assert_eq!(reply.status, *status, "{} {:?}", target, auth);
            assert!(reply.close);
            let www = header(reply, "www-authenticate").unwrap();
            if let Some(c) = challenge {
                assert_eq!(www, *c);
            }
            match status {
                400 => assert!(www.starts_with("Bearer error=\"invalid_request\"")),
                _ if matches!(auth, Some(a) if a.starts_with("Bearer")) => {
                    assert!(www.starts_with("Bearer error=\"invalid_token\""))
                }
                _ => {}
            }
            assert!(r.effect().is_none());
        }
        let long = format!("Bearer {}", "a".repeat(MAX_TOKEN_CHARS + 1));
        let (r, _) = start(&e, "/mcp", Some(&long));
        assert_eq!(r.reply().unwrap().status, 401);
        let at = format!("Bearer {}", "a".repeat(MAX_TOKEN_CHARS));
        assert_eq!(start(&e, "/mcp", Some(&at)).1, Action::Perform);
        // The header checks run first: a wrong Accept is 406 whatever the token.
        let mut r = e.request_at(0.0, 0.0);
        let mut h = headers(None, "tools/list");
        h[0].1 = "application/json";
        assert_eq!(r.head(b"POST", b"/mcp", h, 0.0), Action::Respond);
        assert_eq!(r.reply().unwrap().status, 406);
    }

    #[test]
    fn introspection_is_one_form_post_with_client_secret_basic() {
        let e = engine();
        let (r, a) = start(&e, "/mcp", Some(&format!("bearer  {}", TOKEN)));
        assert_eq!(a, Action::Perform);
        let h = match r.effect() {
            Some(Effect::Http(h)) => h.clone(),
            _ => panic!("expected introspection"),
        };
        assert_eq!(
            (h.method, h.url.as_str(), h.backend.as_str()),
            (
                HttpMethod::Post,
                "https://id.example/introspect",
                DEFAULT_BACKEND
            )
        );
        assert_eq!(
            String::from_utf8(h.body.unwrap()).unwrap(),
            "token=tok.EN-123_%7E%2B%2F%3D&token_type_hint=access_token"
        );
        let basic = base64::encode(b"rs+client:rs-s3cret%2B%2F%3D");
        assert_eq!(
            h.headers,
            vec![
                (
                    "content-type",
                    "application/x-www-form-urlencoded".to_string()
                ),
                ("accept", "application/json".to_string()),
                ("authorization", format!("Basic {}", basic)),
            ]
        );
        assert_eq!(
            (h.max_bytes, h.timeout_ms),
            (INTROSPECTION_MAX_BYTES, INTROSPECTION_TIMEOUT_MS)
        );
        // `backend` names the Fastly backend that reaches the issuer.
        let e = Engine::new(options(r#","backend":"idp""#).as_bytes()).unwrap();
        let (r, _) = start(&e, "/mcp", Some("Bearer t"));
        assert!(matches!(r.effect(), Some(Effect::Http(h)) if h.backend == "idp"));
    }

    fn introspected(e: &Engine, answer: HttpAnswer<'_>) -> (Request, Action) {
        let (mut r, a) = start(e, "/mcp", Some("Bearer t"));
        assert_eq!(a, Action::Perform);
        let a = r.answer_http(answer, 5.0);
        (r, a)
    }

    /// The exact reply of a refusal after introspection: 401 invalid_token, 403 insufficient_scope
    /// (the baseline) or 503 temporarily_unavailable.
    fn expect_refusal(reply: &Reply, status: u16, context: &str) {
        let (challenge, error, text) = match status {
            401 => (
                Some(format!(
                    r#"Bearer error="invalid_token", resource_metadata="{}", scope="mcp:access", error_description="{}""#,
                    METADATA, INVALID
                )),
                "invalid_token",
                INVALID,
            ),
            403 => (
                Some(format!(
                    r#"Bearer error="insufficient_scope", scope="mcp:access", resource_metadata="{}", error_description="{}""#,
                    METADATA, INSUFFICIENT
                )),
                "insufficient_scope",
                INSUFFICIENT,
            ),
            503 => (None, "temporarily_unavailable", UNAVAILABLE),
            _ => panic!("no refusal has status {}", status),
        };
        assert_eq!(
            (
                reply.status,
                header(reply, "www-authenticate").map(str::to_string),
                body(reply)
            ),
            (
                status,
                challenge,
                &*format!(r#"{{"error":"{}","error_description":"{}"}}"#, error, text)
            ),
            "{}",
            context
        );
    }

    #[test]
    fn every_claim_is_checked_and_every_verifier_failure_is_503() {
        let e = engine();
        let ok = claims("");
        // `ok` with one member's text swapped (the member must be there).
        let swap = |from: &str, to: &str| {
            assert!(ok.contains(from), "{}", from);
            ok.replace(from, to)
        };
        // `ok` padded to exactly `len` bytes.
        let padded = |len: usize| {
            let pad = len - claims(r#","pad":"""#).len();
            claims(&format!(r#","pad":"{}""#, "x".repeat(pad)))
        };
        const ISS: &str = r#""iss":"https://id.example""#;
        const AUD: &str = r#""aud":["x","https://mcp.example/mcp"]"#;
        const SUB: &str = r#""sub":"u1""#;
        const SCOPE: &str = r#""scope":"mcp:access notes:read""#;
        const ACTIVE: &str = r#""active":true"#;
        // (introspection response, status: 0 granted, else the refusal)
        let mut rows: Vec<(String, u16)> = vec![
            (ok.clone(), 0),
            (claims(r#","nbf":1780000000,"token_type":"Bearer""#), 0),
            (r#"{"active":false}"#.to_string(), 401),
            (swap(ACTIVE, r#""active":false"#), 401),
            (swap(&format!(",{}", ISS), ""), 401),
            (swap(&format!("{},", AUD), ""), 401),
            (
                ok.replace(&(NOW_S + 60).to_string(), &format!("{}.5", NOW_S + 60)),
                401,
            ),
            (
                ok.replace(&(NOW_S + 60).to_string(), &format!("{}e0", NOW_S + 60)),
                401,
            ),
            (swap(&format!(",{}", SUB), ""), 401),
            (swap(&format!(",{}", SCOPE), ""), 401),
            (claims(r#","nbf":-0"#), 401),
            // The response cap (16 KiB), exactly at and one byte over.
            (padded(16_384), 0),
            (padded(16_385), 503),
            ("[]".to_string(), 503),
            ("not json".to_string(), 503),
            (
                format!(
                    r#"{{"active":true,"x":{}}}"#,
                    "[".repeat(8) + &"]".repeat(8)
                ),
                503,
            ),
            (swap(&format!("{},", ACTIVE), ""), 503),
        ];
        // `iss`: exactly the configured issuer, nothing near it.
        for (iss, status) in [
            (r#""https://id.example/""#, 401),
            (r#""https://id.exampl""#, 401),
            (r#""https://id.example.""#, 401),
            (r#""https://id.example/x""#, 401),
            (r#""xhttps://id.example""#, 401),
            (r#"" https://id.example""#, 401),
            (r#""https://id.example ""#, 401),
            (r#""HTTPS://ID.EXAMPLE""#, 401),
            (r#""https://ID.example""#, 401),
            (r#""http://id.example""#, 401),
            (r#""""#, 401),
            ("null", 401),
            ("1", 401),
            ("true", 401),
            (r#"["https://id.example"]"#, 401),
            (r#"{"iss":"https://id.example"}"#, 401),
        ] {
            rows.push((swap(ISS, &format!(r#""iss":{}"#, iss)), status));
        }
        // `aud`: the resource as the string or one string of the array, nothing near it.
        for (aud, status) in [
            (r#""https://mcp.example/mcp""#, 0),
            (r#"["https://mcp.example/mcp"]"#, 0),
            (r#"[1,null,{},"https://mcp.example/mcp"]"#, 0),
            (r#""https://mcp.example/mcp/""#, 401),
            (r#""https://mcp.example/mc""#, 401),
            (r#""https://mcp.example""#, 401),
            (r#""https://mcp.example/mcp?x""#, 401),
            (r#""https://MCP.example/mcp""#, 401),
            (r#""https://mcp.example/MCP""#, 401),
            (r#"" https://mcp.example/mcp""#, 401),
            (r#""""#, 401),
            ("null", 401),
            ("1", 401),
            ("true", 401),
            ("{}", 401),
            ("[]", 401),
            (
                r#"["https://mcp.example/mcp/","https://mcp.example/mc"]"#,
                401,
            ),
            (r#"[["https://mcp.example/mcp"]]"#, 401),
            (r#"[{"aud":"https://mcp.example/mcp"}]"#, 401),
        ] {
            rows.push((swap(AUD, &format!(r#""aud":{}"#, aud)), status));
        }
        // `sub`: a non-empty string.
        for (sub, status) in [
            (r#""""#, 401),
            ("null", 401),
            ("1", 401),
            (r#"["u1"]"#, 401),
        ] {
            rows.push((swap(SUB, &format!(r#""sub":{}"#, sub)), status));
        }
        // `scope`: space-separated tokens, compared exactly; a malformed list is an invalid token,
        // a well-formed one without the baseline lacks a scope.
        for (scope, status) in [
            (r#""mcp:access""#, 0),
            (r#""notes:read mcp:access""#, 0),
            (r#"" mcp:access notes:read""#, 401),
            (r#""mcp:access notes:read ""#, 401),
            (r#""mcp:access  notes:read""#, 401),
            (r#"" ""#, 401),
            ("null", 401),
            ("1", 401),
            (r#"["mcp:access"]"#, 401),
            (r#""""#, 403),
            (r#""notes:read""#, 403),
            (r#""mcp:acces""#, 403),
            (r#""mcp:accessx""#, 403),
            (r#""xmcp:access""#, 403),
            (r#""MCP:ACCESS""#, 403),
            (r#""mcp:Access""#, 403),
            (r#""mcp:access\tnotes:read""#, 403),
            (r#""mcp:access,notes:read""#, 403),
        ] {
            rows.push((swap(SCOPE, &format!(r#""scope":{}"#, scope)), status));
        }
        // `token_type`: absent or Bearer in any case, nothing else.
        for (token_type, status) in [
            (r#""bearer""#, 0),
            (r#""BEARER""#, 0),
            (r#""bEaReR""#, 0),
            (r#""DPoP""#, 401),
            (r#""Bearer ""#, 401),
            (r#"" Bearer""#, 401),
            (r#""Bearerx""#, 401),
            (r#""Beare""#, 401),
            (r#""N_A""#, 401),
            (r#""""#, 401),
            ("null", 401),
            ("1", 401),
            ("true", 401),
            (r#"["Bearer"]"#, 401),
        ] {
            rows.push((claims(&format!(r#","token_type":{}"#, token_type)), status));
        }
        // `active`: the boolean only; anything else is the verifier failing.
        for active in [r#""true""#, r#""false""#, "1", "0", "null", "[true]", "{}"] {
            rows.push((swap(ACTIVE, &format!(r#""active":{}"#, active)), 503));
        }
        for (text, status) in rows {
            let (r, a) = introspected(
                &e,
                HttpAnswer::Response {
                    status: 200,
                    body: text.as_bytes(),
                },
            );
            if status == 0 {
                assert_eq!(a, Action::Continue, "{}", text);
                continue;
            }
            assert_eq!(a, Action::Respond, "{}", text);
            let reply = r.reply().unwrap();
            expect_refusal(reply, status, &text);
            assert!(reply.close, "{}", text);
        }
        for answer in [
            HttpAnswer::Response {
                status: 302,
                body: b"",
            },
            HttpAnswer::Response {
                status: 500,
                body: ok.as_bytes(),
            },
            HttpAnswer::Failed(HttpFailure::Unreachable),
            HttpAnswer::Failed(HttpFailure::TimedOut),
        ] {
            let (r, _) = introspected(&e, answer);
            expect_refusal(r.reply().unwrap(), 503, &format!("{:?}", answer));
        }
        // The deadline passing during introspection is 408, not 503.
        let (mut r, _) = start(&e, "/mcp", Some("Bearer t"));
        assert_eq!(
            r.answer_http(
                HttpAnswer::Response {
                    status: 200,
                    body: ok.as_bytes()
                },
                10_000.0
            ),
            Action::Respond
        );
        assert_eq!(r.reply().unwrap().status, 408);
        let (mut r, _) = start(&e, "/mcp", Some("Bearer t"));
        assert_eq!(r.abort(1.0), Action::Respond);
        assert_eq!(r.reply().unwrap().status, 408);
    }

    /// `tools/list` with the introspection answered when the wall clock reads `wall_ms`.
    fn answered_at(e: &Engine, text: &str, wall_ms: f64) -> (Request, Action) {
        let mut r = e.request_at(0.0, wall_ms);
        let h = headers(Some("Bearer t"), "tools/list");
        assert_eq!(r.head(b"POST", b"/mcp", h, 0.0), Action::Perform);
        let answer = HttpAnswer::Response {
            status: 200,
            body: text.as_bytes(),
        };
        let a = r.answer_http(answer, 0.0);
        (r, a)
    }

    #[test]
    fn time_claims_hold_up_to_their_exact_boundary() {
        let now = NOW_S as f64 * 1000.0;
        let exp = |v: &str| claims("").replace(&(NOW_S + 60).to_string(), v);
        let s = |v: i64| v.to_string();
        // (introspection response, wall clock at the answer, status: 0 granted, else 401)
        let rows: Vec<(String, f64, u16)> = vec![
            // exp: valid before the instant it names, never at or after it.
            (exp(&s(NOW_S + 1)), now, 0),
            (exp(&s(NOW_S)), now, 401),
            (exp(&s(NOW_S - 1)), now, 401),
            (exp(&s(NOW_S)), now - 1.0, 0),
            (exp(&s(NOW_S)), now + 1.0, 401),
            (exp("0"), now, 401),
            (exp("-1"), now, 401),
            (exp("-0"), now, 401),
            (exp(&format!("{}.0", NOW_S + 60)), now, 401),
            (exp(&format!(r#""{}""#, NOW_S + 60)), now, 401),
            (exp("9007199254740992"), now, 401),
            (exp("null"), now, 401),
            (exp("true"), now, 401),
            // nbf: valid from the instant it names on.
            (claims(&format!(r#","nbf":{}"#, NOW_S + 1)), now, 401),
            (claims(&format!(r#","nbf":{}"#, NOW_S)), now, 0),
            (claims(&format!(r#","nbf":{}"#, NOW_S - 1)), now, 0),
            (claims(&format!(r#","nbf":{}"#, NOW_S)), now - 1.0, 401),
            (claims(r#","nbf":0"#), now, 0),
            (claims(r#","nbf":-1"#), now, 401),
            (claims(&format!(r#","nbf":{}.5"#, NOW_S)), now, 401),
            (claims(&format!(r#","nbf":"{}""#, NOW_S)), now, 401),
            (claims(r#","nbf":null"#), now, 401),
            // iat is informational (RFC 7662 §2.2): not judged, whatever it says.
            (claims(&format!(r#","iat":{}"#, NOW_S + 3600)), now, 0),
            (claims(r#","iat":"x""#), now, 0),
            // Without a usable wall clock nothing is valid.
            (claims(""), f64::NAN, 401),
            (claims(""), f64::INFINITY, 401),
            (claims(""), f64::NEG_INFINITY, 401),
        ];
        let e = engine();
        for (text, wall, status) in rows {
            let context = format!("{} at {}", text, wall);
            let (r, a) = answered_at(&e, &text, wall);
            if status == 0 {
                assert_eq!(a, Action::Continue, "{}", context);
                continue;
            }
            assert_eq!(a, Action::Respond, "{}", context);
            expect_refusal(r.reply().unwrap(), status, &context);
        }
    }

    /// One request through the whole flow; `inner` is the params members before `_meta`.
    fn call(e: &Engine, method: &str, inner: &str, scope: &str, exp: i64, at: f64) -> Reply {
        let mut r = e.request_at(0.0, NOW_S as f64 * 1000.0);
        let mut h = headers(Some("Bearer t"), method);
        if method == "tools/call" {
            h.push(("mcp-name", inner.split('"').nth(3).unwrap()));
        }
        assert_eq!(r.head(b"POST", b"/mcp", h, 0.0), Action::Perform);
        let c = claims("")
            .replace("mcp:access notes:read", scope)
            .replace(&(NOW_S + 60).to_string(), &exp.to_string());
        assert_eq!(
            r.answer_http(
                HttpAnswer::Response {
                    status: 200,
                    body: c.as_bytes()
                },
                1.0
            ),
            Action::Continue
        );
        let sep = if inner.is_empty() { "" } else { "," };
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"{}","params":{{{}{}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#,
            method, inner, sep
        );
        assert_eq!(r.body(body.as_bytes(), at), Action::Continue);
        r.end(at);
        // A finished request's event names the granted principal.
        let mut event = Vec::new();
        assert_eq!(r.event(&mut event), r.reply().is_some());
        if r.reply().is_some() {
            let event = String::from_utf8(event).unwrap();
            assert!(event.contains(r#","sub":"u1","#), "{}", event);
        }
        r.reply()
            .cloned()
            .unwrap_or_else(|| Reply::empty(0, Timing::Early))
    }

    /// The names a `tools/list` reply shows; the reply must be JSON.
    fn tool_names(list: &Reply) -> Vec<String> {
        let doc = match crate::json::parse(&list.body, 64) {
            Ok(d) => d,
            Err(_) => panic!("not JSON: {}", body(list)),
        };
        let result = doc.root().as_object().unwrap().get("result").unwrap();
        let tools = result.as_object().unwrap().get("tools").unwrap();
        tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let name = t.as_object().unwrap().get("name").unwrap();
                name.as_string().unwrap().as_str().into_owned()
            })
            .collect()
    }

    #[test]
    fn the_policy_is_applied_after_the_body_and_lists_show_what_it_permits() {
        let e = engine();
        let list = call(&e, "tools/list", "", "mcp:access", NOW_S + 60, 2.0);
        assert_eq!(list.status, 200);
        let names = tool_names(&list);
        assert_eq!(names, ["status"]);
        let list = call(
            &e,
            "tools/list",
            "",
            "mcp:access notes:write",
            NOW_S + 60,
            2.0,
        );
        let names = tool_names(&list);
        assert_eq!(names, ["status", "remote"]);

        let ok = call(
            &e,
            "tools/call",
            r#""name":"status","arguments":{}"#,
            "mcp:access",
            NOW_S + 60,
            2.0,
        );
        assert_eq!(ok.status, 200, "{}", body(&ok));
        let short = call(
            &e,
            "tools/call",
            r#""name":"remote","arguments":{"s":"a"}"#,
            "mcp:access",
            NOW_S + 60,
            2.0,
        );
        assert_eq!(short.status, 403);
        assert!(!short.close);
        assert_eq!(
            header(&short, "www-authenticate").unwrap(),
            format!(
                r#"Bearer error="insufficient_scope", scope="mcp:access notes:write", resource_metadata="{}", error_description="{}""#,
                METADATA, INSUFFICIENT
            )
        );
        // A mapped call with the scopes is performed (its effect is the backend call).
        let mut r = e.request_at(0.0, NOW_S as f64 * 1000.0);
        let mut h = headers(Some("Bearer t"), "tools/call");
        h.push(("mcp-name", "remote"));
        r.head(b"POST", b"/mcp", h, 0.0);
        let c = claims("").replace("notes:read", "notes:write");
        r.answer_http(
            HttpAnswer::Response {
                status: 200,
                body: c.as_bytes(),
            },
            1.0,
        );
        r.body(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"remote","arguments":{"s":"a"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#, 2.0);
        assert_eq!(r.end(2.0), Action::Perform);
        assert!(
            matches!(r.effect(), Some(Effect::Http(h)) if h.url == "https://api.example/v1/echo")
        );

        for name in ["echo", "unknown"] {
            let denied = call(
                &e,
                "tools/call",
                &format!(r#""name":"{}","arguments":{{}}"#, name),
                "mcp:access notes:write",
                NOW_S + 60,
                2.0,
            );
            assert_eq!(denied.status, 403, "{}", name);
            assert_eq!(
                body(&denied),
                format!(
                    r#"{{"error":"access_denied","error_description":"{}"}}"#,
                    UNPERMITTED
                )
            );
        }
        // Expiry is checked again before dispatch, against the wall clock when the body has
        // arrived (the answer came at 1 ms): (method, exp, body complete at ms, status).
        let status = r#""name":"status","arguments":{}"#;
        let rows: &[(&str, &str, i64, f64, u16)] = &[
            ("tools/call", status, NOW_S + 2, 1_000.0, 200),
            ("tools/call", status, NOW_S + 1, 999.0, 200),
            ("tools/call", status, NOW_S + 1, 1_000.0, 401),
            ("tools/call", status, NOW_S + 1, 1_001.0, 401),
            ("tools/call", status, NOW_S + 1, 2_000.0, 401),
            ("tools/list", "", NOW_S + 1, 999.0, 200),
            ("tools/list", "", NOW_S + 1, 1_000.0, 401),
        ];
        for &(method, inner, exp, at, status) in rows {
            let reply = call(&e, method, inner, "mcp:access", exp, at);
            let context = format!("{} exp {} at {}", method, exp, at);
            if status == 200 {
                assert_eq!(reply.status, 200, "{}: {}", context, body(&reply));
                continue;
            }
            expect_refusal(&reply, status, &context);
            assert!(!reply.close, "{}", context);
        }
    }

    #[test]
    fn a_secret_from_the_store_is_installed_before_any_token_is_checked() {
        let text = options("").replace(
            &format!(r#""clientSecret":"{}""#, SECRET),
            r#""clientSecret":{"secretStore":"s","key":"introspection"}"#,
        );
        let mut e = Engine::new(text.as_bytes()).unwrap();
        assert_eq!(
            e.secret(Secret::IntrospectionSecret)
                .map(|s| s.key.as_str()),
            Some("introspection")
        );
        let (r, _) = start(&e, "/mcp", Some("Bearer t"));
        assert_eq!(r.reply().unwrap().status, 500);
        assert!(r.effect().is_none());
        drop(r);
        let too_long = [b's'; MAX_SECRET_BYTES + 1];
        for secret in [&b""[..], b"\xff", &too_long] {
            assert_eq!(
                e.install_secret(Secret::IntrospectionSecret, secret),
                Err("authorization.clientSecret: must be 1-1024 bytes of text".to_string())
            );
        }
        e.install_secret(Secret::IntrospectionSecret, SECRET.as_bytes())
            .unwrap();
        assert!(e.secret(Secret::IntrospectionSecret).is_none());
        assert!(e
            .install_secret(Secret::IntrospectionSecret, SECRET.as_bytes())
            .is_err());
        let (r, a) = start(&e, "/mcp", Some("Bearer t"));
        assert_eq!(a, Action::Perform);
        assert!(
            matches!(r.effect(), Some(Effect::Http(h)) if h.headers[2].1.starts_with("Basic "))
        );
    }

    #[test]
    fn every_secret_is_named_read_and_installed_alike() {
        let manifest = r#"{"formatVersion":1,"routerId":"t","catalogHash":"h","deadlineMs":3000,"list":"[{\"name\":\"status\"}]","tools":[{"name":"status","input":null,"output":null,"handler":{"kind":"rpc","backend":"endpoint","url":"https://rpc.example/","maxBytes":100,"bearer":{"secretStore":"s","key":"backend"}}}],"corpora":{}}"#;
        let text = format!(
            r#"{{"tools":{},"requestStateKey":{{"secretStore":"s","key":"state"}},"authorization":{{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"rs","clientSecret":{{"secretStore":"s","key":"introspection"}},"scopes":["a"]}}}}"#,
            manifest
        );
        let mut e = Engine::new(text.as_bytes()).unwrap();
        let keys: Vec<&str> = Secret::ALL
            .iter()
            .map(|&w| e.secret(w).unwrap().key.as_str())
            .collect();
        assert_eq!(keys, ["state", "backend", "introspection"]);
        let shared = e.clone();
        for which in Secret::ALL {
            assert_eq!(
                e.install_secret(which, b"x").unwrap_err(),
                format!("{}: the engine is already shared", which.option())
            );
        }
        drop(shared);
        for which in Secret::ALL {
            e.install_secret(which, &[b'k'; 32]).unwrap();
            assert!(e.secret(which).is_none());
            assert!(
                e.install_secret(which, &[b'k'; 32]).is_err(),
                "installed once"
            );
        }
    }

    #[test]
    fn urls_and_tokens() {
        assert!(is_b64token(b"abc=="));
        assert!(!is_b64token(b"=="));
        assert!(!is_b64token(b"a=b"));
        // (query, names an access_token parameter)
        let rows: &[(&str, bool)] = &[
            ("access_token", true),
            ("access_token=x", true),
            ("a=1&access_token=x", true),
            ("ACCESS_TOKEN=x", true),
            ("access%5Ftoken=x", true),
            ("access%5ftoken=x", true),
            ("%61ccess_token=x", true),
            ("access_toke%6E", true),
            ("+=1&access_token=x", true),
            ("a+b=1&access_token=x", true),
            ("", false),
            ("a+b=1", false),
            ("access+token=x", false),
            ("my_access_token=x", false),
            ("access_tokens=x", false),
            ("access_toke=x", false),
            ("x=access_token", false),
            ("access_token%=x", false),
            ("access_token%5=x", false),
            ("access%5Gtoken=x", false),
            ("access%zztoken=x", false),
        ];
        for (q, named) in rows {
            assert_eq!(query_has_token(q.as_bytes()), *named, "{}", q);
        }
    }

    /// A host with a store and a clock the rows move: every request is a `tools/list` at `clock`
    /// (wall clock `NOW_S` + `clock`), and the issuer answers what the row says.
    struct CachingHost {
        clock: f64,
        issuer: (u16, String),
        body: Option<&'static [u8]>,
        store: std::collections::HashMap<String, (Vec<u8>, f64)>,
        introspections: u32,
    }

    impl crate::driver::HostIo for CachingHost {
        fn now(&mut self) -> f64 {
            self.clock
        }
        fn epoch_ms(&mut self) -> f64 {
            NOW_S as f64 * 1000.0 + self.clock
        }
        fn read_body(&mut self, buf: &mut [u8], _: f64) -> crate::driver::BodyRead {
            match self.body.take() {
                Some(b) => {
                    buf[..b.len()].copy_from_slice(b);
                    crate::driver::BodyRead::Data(b.len())
                }
                None => crate::driver::BodyRead::End,
            }
        }
        fn http(&mut self, _: &HttpEffect, _: f64, body: &mut Vec<u8>) -> crate::driver::HttpRead {
            self.introspections += 1;
            body.extend_from_slice(self.issuer.1.as_bytes());
            crate::driver::HttpRead::Response(self.issuer.0)
        }
        fn handler(&mut self, _: &crate::effect::HandlerEffect, _: f64, _: &mut Vec<u8>) -> bool {
            false
        }
        fn rate(&mut self, _: &crate::effect::RateEffect) -> crate::effect::RateAnswer {
            unreachable!("no rate limit is configured")
        }
        fn cache_lookup(&mut self, key: &str, value: &mut Vec<u8>) -> bool {
            match self.store.get(key) {
                Some((v, until)) if self.clock < *until => {
                    value.extend_from_slice(v);
                    true
                }
                _ => false,
            }
        }
        fn cache_store(&mut self, e: &CacheEntry) {
            assert!(!e.key.contains("tok") && !String::from_utf8_lossy(&e.value).contains("tok"));
            self.store.insert(
                e.key.clone(),
                (e.value.clone(), self.clock + e.ttl_ms as f64),
            );
        }
    }

    #[test]
    fn the_cache_keeps_results_and_judges_them_at_every_use() {
        let active = claims("");
        let inactive = r#"{"active":false}"#.to_string();
        let expiring = active.replace(&(NOW_S + 60).to_string(), &(NOW_S + 5).to_string());
        let later = claims(&format!(r#","nbf":{}"#, NOW_S + 2));
        // (at ms, token, the issuer's status and body, the reply's status, introspected)
        type Step<'a> = (f64, &'a str, (u16, &'a str), u16, bool);
        let rows: Vec<(&str, Vec<Step>)> = vec![
            (
                "a revoked token works until maxAgeMs has passed",
                vec![
                    (0.0, "tok-a", (200, &active), 200, true),
                    (9_999.0, "tok-a", (200, &inactive), 200, false),
                    (10_000.0, "tok-a", (200, &inactive), 401, true),
                ],
            ),
            (
                "a token that expires inside maxAgeMs is refused at its exp",
                vec![
                    (0.0, "tok-a", (200, &expiring), 200, true),
                    (4_999.0, "tok-a", (200, &expiring), 200, false),
                    (5_000.0, "tok-a", (200, &expiring), 401, true),
                ],
            ),
            (
                "a kept result's nbf is judged at every use",
                vec![
                    (0.0, "tok-a", (200, &later), 401, true),
                    (1_999.0, "tok-a", (200, &later), 401, false),
                    (2_000.0, "tok-a", (200, &later), 200, false),
                ],
            ),
            (
                "two tokens never share an entry",
                vec![
                    (0.0, "tok-a", (200, &active), 200, true),
                    (1.0, "tok-b", (200, &inactive), 401, true),
                    (2.0, "tok-a", (200, &inactive), 200, false),
                    (3.0, "tok-b", (200, &active), 401, false),
                ],
            ),
            (
                "a verifier failure is never kept",
                vec![
                    (0.0, "tok-a", (500, &active), 503, true),
                    (1.0, "tok-a", (200, "not json"), 503, true),
                    (2.0, "tok-a", (200, &active), 200, true),
                    (3.0, "tok-a", (500, &active), 200, false),
                ],
            ),
            (
                "an inactive result is kept briefly",
                vec![
                    (0.0, "tok-a", (200, &inactive), 401, true),
                    (4_999.0, "tok-a", (200, &active), 401, false),
                    (5_000.0, "tok-a", (200, &active), 200, true),
                ],
            ),
        ];
        let e = Engine::new(options(r#","cache":{"maxAgeMs":10000}"#).as_bytes()).unwrap();
        let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        for (name, steps) in rows {
            let mut host = CachingHost {
                clock: 0.0,
                issuer: (0, String::new()),
                body: None,
                store: Default::default(),
                introspections: 0,
            };
            for (i, (at, token, (status, text), expected, introspected)) in
                steps.into_iter().enumerate()
            {
                host.clock = at;
                host.issuer = (status, text.to_string());
                host.body = Some(list);
                let before = host.introspections;
                let auth = format!("Bearer {}", token);
                let reply = crate::driver::drive(
                    &e,
                    &mut host,
                    b"POST",
                    b"/mcp",
                    headers(Some(&auth), "tools/list"),
                );
                let got = (reply.status, host.introspections > before);
                assert_eq!(got, (expected, introspected), "{}: step {}", name, i);
            }
        }
        // Without the option nothing is kept: every request introspects.
        let plain = engine();
        let mut host = CachingHost {
            clock: 0.0,
            issuer: (200, active.clone()),
            body: None,
            store: Default::default(),
            introspections: 0,
        };
        for _ in 0..2 {
            host.body = Some(list);
            let reply = crate::driver::drive(
                &plain,
                &mut host,
                b"POST",
                b"/mcp",
                headers(Some("Bearer tok-a"), "tools/list"),
            );
            assert_eq!(reply.status, 200);
        }
        assert_eq!((host.introspections, host.store.len()), (2, 0));
    }

    #[test]
    fn a_cached_answer_is_misuse_unless_the_effect_named_a_key() {
        let (mut r, a) = start(&engine(), "/mcp", Some("Bearer t"));
        assert_eq!(a, Action::Perform);
        assert_eq!(r.answer_cached(br#"{"active":false}"#, 1.0), Action::Misuse);
        let e = Engine::new(options(r#","cache":{"maxAgeMs":10000}"#).as_bytes()).unwrap();
        let (mut r, _) = start(&e, "/mcp", Some("Bearer t"));
        assert!(
            matches!(r.effect(), Some(Effect::Http(h)) if h.cache_key.as_ref().map(String::len) == Some(64))
        );
        // A value the core did not write is the verifier failing: 503, and nothing is kept.
        assert_eq!(r.answer_cached(b"garbage", 1.0), Action::Respond);
        assert_eq!(r.reply().unwrap().status, 503);
        assert_eq!(r.take_cache_entry(), None);
    }
}
