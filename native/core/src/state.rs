//! `requestState` of multi-round requests: the core writes it, the client echoes it, and the core
//! trusts nothing in it that its own MAC does not cover. The payload carries the round reached, the
//! input responses gathered so far, an expiry and a digest binding it to one method, one name and
//! one set of arguments; the text is `base64url(payload) "." base64url(HMAC-SHA256(key, first part))`.
//! Without a key (`unsealedRequestState: true`, documented as untrusted) the MAC part is absent.
use crate::base64;
use crate::hmac::{sha256, Hmac, DIGEST_BYTES};
use crate::json::{self, write, Value};

/// How long an issued state stays acceptable (wall-clock milliseconds).
pub const STATE_TTL_MS: i64 = 600_000;
pub const MIN_KEY_BYTES: usize = 32;
pub const MAX_KEY_BYTES: usize = 1024;
/// Nesting admitted when reading a payload back (responses are client data).
const PAYLOAD_DEPTH: u32 = 64;
const VERSION: i64 = 1;

pub enum StateKey {
    Sealed(Box<Hmac>),
    /// State is only encoded; any client can forge it. For continuations that carry nothing a
    /// forger could gain from.
    Unsealed,
}

/// What a verified state says.
#[derive(Debug, PartialEq, Eq)]
pub struct Continuation {
    pub round: usize,
    /// JSON object text of the input responses gathered in earlier rounds.
    pub responses: Vec<u8>,
}

/// The digest a state is bound to: the method, the name and the canonical arguments.
pub fn binding(method: &str, name: &str, arguments: &[u8]) -> [u8; DIGEST_BYTES] {
    let mut m = Vec::with_capacity(method.len() + name.len() + arguments.len() + 2);
    m.extend_from_slice(method.as_bytes());
    m.push(0);
    m.extend_from_slice(name.as_bytes());
    m.push(0);
    m.extend_from_slice(arguments);
    sha256(&m)
}

impl StateKey {
    pub fn seal(&self, bind: &[u8; DIGEST_BYTES], c: &Continuation, epoch_ms: f64) -> String {
        let mut payload = b"{\"v\":1,\"exp\":".to_vec();
        write::integer(&mut payload, epoch_ms.floor() as i64 + STATE_TTL_MS);
        payload.extend_from_slice(b",\"bind\":");
        write::string(&mut payload, &base64::encode_url(bind));
        payload.extend_from_slice(b",\"round\":");
        write::integer(&mut payload, c.round as i64);
        payload.extend_from_slice(b",\"responses\":");
        payload.extend_from_slice(&c.responses);
        payload.push(b'}');
        let mut text = base64::encode_url(&payload);
        if let StateKey::Sealed(mac) = self {
            let tag = mac.mac(text.as_bytes());
            text.push('.');
            text.push_str(&base64::encode_url(&tag));
        }
        text
    }

    /// The continuation in `text`, if this key wrote it for the same binding and it has not
    /// expired. Every failure is the same `None`: the client learns nothing about why.
    pub fn open(
        &self,
        text: &[u8],
        bind: &[u8; DIGEST_BYTES],
        epoch_ms: f64,
    ) -> Option<Continuation> {
        let encoded = match self {
            StateKey::Sealed(mac) => {
                let dot = text.iter().position(|&b| b == b'.')?;
                let tag = base64::decode_url(&text[dot + 1..])?;
                if !mac.verify(&text[..dot], &tag) {
                    return None;
                }
                &text[..dot]
            }
            StateKey::Unsealed => text,
        };
        let payload = base64::decode_url(encoded)?;
        let doc = json::parse(&payload, PAYLOAD_DEPTH).ok()?;
        let o = doc.root().as_object()?;
        let int = |key: &str| o.get(key)?.as_number()?.as_safe_integer();
        if int("v")? != VERSION || (int("exp")? as f64) <= epoch_ms || !(epoch_ms.is_finite()) {
            return None;
        }
        match o.get("bind") {
            Some(Value::String(s)) if s.eq_str(&base64::encode_url(bind)) => {}
            _ => return None,
        }
        let round = int("round").filter(|r| *r >= 0)? as usize;
        let responses = match o.get("responses") {
            Some(v @ Value::Object(_)) => {
                let mut out = Vec::new();
                write::value(&mut out, v);
                out
            }
            _ => return None,
        };
        Some(Continuation { round, responses })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_780_000_000_000.0;

    fn key() -> StateKey {
        StateKey::Sealed(Box::new(Hmac::new(&[7u8; 32])))
    }

    fn continuation() -> Continuation {
        Continuation {
            round: 1,
            responses: br#"{"user_name":{"action":"accept","content":{"name":"a"}}}"#.to_vec(),
        }
    }

    #[test]
    fn round_trip_and_every_refusal() {
        let bind = binding("tools/call", "t", b"{}");
        let k = key();
        let text = k.seal(&bind, &continuation(), NOW);
        assert_eq!(
            k.open(text.as_bytes(), &bind, NOW + 1.0),
            Some(continuation())
        );
        // Tampered, truncated, foreign key, other binding, expired, clock unknown.
        let tampered = format!("{}-TAMPERED", text);
        assert_eq!(k.open(tampered.as_bytes(), &bind, NOW), None);
        assert_eq!(k.open(&text.as_bytes()[..text.len() - 1], &bind, NOW), None);
        let mut flipped = text.clone().into_bytes();
        flipped[3] = if flipped[3] == b'A' { b'B' } else { b'A' };
        assert_eq!(k.open(&flipped, &bind, NOW), None);
        let foreign = StateKey::Sealed(Box::new(Hmac::new(&[8u8; 32])));
        assert_eq!(foreign.open(text.as_bytes(), &bind, NOW), None);
        assert_eq!(
            k.open(
                text.as_bytes(),
                &binding("tools/call", "t", b"{\"a\":1}"),
                NOW
            ),
            None
        );
        assert_eq!(
            k.open(text.as_bytes(), &binding("prompts/get", "t", b"{}"), NOW),
            None
        );
        assert_eq!(
            k.open(text.as_bytes(), &bind, NOW + STATE_TTL_MS as f64),
            None
        );
        assert_eq!(k.open(text.as_bytes(), &bind, f64::NAN), None);
        // Unsealed state has no MAC part, and a sealed key refuses it.
        let plain = StateKey::Unsealed.seal(&bind, &continuation(), NOW);
        assert!(!plain.contains('.'));
        assert_eq!(
            StateKey::Unsealed.open(plain.as_bytes(), &bind, NOW),
            Some(continuation())
        );
        assert_eq!(k.open(plain.as_bytes(), &bind, NOW), None);
        assert_eq!(StateKey::Unsealed.open(b"-TAMPERED", &bind, NOW), None);
    }
}
