//! What every part of the configuration shares: the error type, the unknown-key refusal, the name
//! rule, secret references and the bearer-token rule. It imports no feature, so each feature's
//! declaration reader and the configuration that assembles them can both use it.
use crate::json::{write, Object, Str, Value};

/// A message naming the option (and the entry, e.g. `allowedOrigins[2]`); never the value.
pub type ConfigError = String;

/// An unknown key is quoted in a message only when it is this short and printable ASCII.
const MAX_NAMED_KEY: usize = 64;

/// Refuses a key outside `known`, quoting it only when it is short printable ASCII (a key is the
/// user's spelling of an option, not a value; anything longer or stranger stays unnamed).
pub(crate) fn known_key(option: &str, key: Str<'_>, known: &[&str]) -> Result<(), ConfigError> {
    if known.iter().any(|k| key.eq_str(k)) {
        return Ok(());
    }
    let k = key.as_str();
    if !k.is_empty() && k.len() <= MAX_NAMED_KEY && k.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        let mut quoted = Vec::with_capacity(k.len() + 4);
        write::string(&mut quoted, &k);
        Err(format!(
            "{}: unknown key {}",
            option,
            String::from_utf8_lossy(&quoted)
        ))
    } else {
        Err(format!(
            "{}: an unknown key (not shown: longer than 64 characters or not printable ASCII)",
            option
        ))
    }
}

/// Characters in a tool, router or backend name.
pub const MAX_NAME: usize = 128;

/// The name rule as messages state it: a literal, so every message is one `concat!` of it.
macro_rules! name_rule {
    () => {
        "1-128 characters of A-Za-z0-9_.-"
    };
}
pub(crate) use name_rule;

/// The rule's text; `valid_name` checks it, and the TypeScript side gets both generated
/// (`shared::json`).
pub const NAME_RULE: &str = name_rule!();
/// The characters of a name besides ASCII letters and digits.
pub const NAME_PUNCTUATION: &[u8] = b"_.-";

/// Router, tool, backend, corpus, collection and secret names: `NAME_RULE`.
pub fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_NAME
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || NAME_PUNCTUATION.contains(&b))
}

/// `valid_name` as a regular expression, for hosts that check names early.
pub fn name_pattern() -> String {
    format!(
        "^[A-Za-z0-9{}]{{1,{}}}$",
        std::str::from_utf8(NAME_PUNCTUATION).unwrap_or_default(),
        MAX_NAME
    )
}

/// Where a host finds a secret (the `requestState` key, a backend token): a secret store and the
/// key's name in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretRef {
    pub store: String,
    pub key: String,
}

/// `{"secretStore", "key"}`, each a name; `option` names the option in the refusal.
pub fn secret_ref(o: Object<'_>, option: &str) -> Result<SecretRef, ConfigError> {
    let rule = || {
        format!(
            concat!(
                "{}: a secret reference is {{\"secretStore\", \"key\"}}, each ",
                name_rule!()
            ),
            option
        )
    };
    if o.len() != 2 {
        return Err(rule());
    }
    let name = |k: &str| match o.get(k) {
        Some(Value::String(s)) if valid_name(&s.as_str()) => Ok(s.as_str().into_owned()),
        _ => Err(rule()),
    };
    Ok(SecretRef {
        store: name("secretStore")?,
        key: name("key")?,
    })
}

/// RFC 6750 `b64token`: the only characters a bearer token may have, so it can never break the
/// header or the form it travels in.
pub fn is_b64token(t: &[u8]) -> bool {
    let end = t.iter().rposition(|&b| b != b'=').map_or(0, |i| i + 1);
    end > 0
        && t[..end]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// Characters in a backend bearer token.
pub const MAX_BEARER: usize = 4096;

/// A backend bearer token: an RFC 6750 `b64token` of at most [`MAX_BEARER`] characters.
pub fn valid_bearer(t: &str) -> bool {
    t.len() <= MAX_BEARER && is_b64token(t.as_bytes())
}
