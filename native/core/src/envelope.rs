//! The JSON-RPC envelope of one POST body: a single request or notification. Batches, client
//! responses, foreign members, null/fractional/unsafe ids and non-object params are refused.
//!
//! The id is read first so that every later refusal can echo it; an unreadable id is omitted.
use crate::errors::{self, RpcError, INVALID_PARAMS, INVALID_REQUEST};
use crate::json::{self, Object, Str, Value};

pub struct Envelope<'r> {
    /// The pre-encoded id (`"a"`, `7`), or `None` for a notification.
    pub id: Option<Vec<u8>>,
    pub method: Str<'r>,
    pub params: Option<Object<'r>>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Invalid {
    pub id: Option<Vec<u8>>,
    pub error: RpcError,
}

enum IdState {
    Absent,
    Readable(Vec<u8>),
    Unreadable,
}

fn read_id(v: Option<Value<'_>>) -> IdState {
    match v {
        None => IdState::Absent,
        Some(Value::String(s)) => {
            let mut out = Vec::new();
            json::write::string(&mut out, &s.as_str());
            IdState::Readable(out)
        }
        Some(Value::Number(n)) => match n.as_safe_integer() {
            Some(i) => {
                let mut out = Vec::new();
                json::write::integer(&mut out, i);
                IdState::Readable(out)
            }
            None => IdState::Unreadable,
        },
        Some(_) => IdState::Unreadable,
    }
}

fn bad(id: &IdState, code: i32, message: &'static str) -> Invalid {
    let id = match id {
        IdState::Readable(v) => Some(v.clone()),
        _ => None,
    };
    Invalid {
        id,
        error: RpcError::new(400, code, message),
    }
}

pub fn classify<'r>(root: &'r Value<'_>) -> Result<Envelope<'r>, Invalid> {
    let obj = match root {
        Value::Object(o) => o,
        Value::Array(_) => return Err(bad(&IdState::Absent, INVALID_REQUEST, errors::BATCH)),
        _ => return Err(bad(&IdState::Absent, INVALID_REQUEST, errors::NOT_OBJECT)),
    };
    let id = read_id(obj.get("id"));
    let method = obj.get("method");
    if method.is_none() && (obj.get("result").is_some() || obj.get("error").is_some()) {
        return Err(bad(&id, INVALID_REQUEST, errors::CLIENT_RESPONSE));
    }
    match obj.get("jsonrpc") {
        Some(Value::String(s)) if s.eq_str("2.0") => {}
        _ => return Err(bad(&id, INVALID_REQUEST, errors::BAD_JSONRPC)),
    }
    if obj.iter().any(|(k, _)| {
        !(k.eq_str("jsonrpc") || k.eq_str("id") || k.eq_str("method") || k.eq_str("params"))
    }) {
        return Err(bad(&id, INVALID_REQUEST, errors::BAD_MEMBER));
    }
    if let IdState::Unreadable = id {
        return Err(bad(&id, INVALID_REQUEST, errors::BAD_ID));
    }
    let method = match method {
        Some(Value::String(s)) => s,
        _ => return Err(bad(&id, INVALID_REQUEST, errors::BAD_METHOD)),
    };
    let params = match obj.get("params") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(Value::Array(_)) => return Err(bad(&id, INVALID_PARAMS, errors::PARAMS_ARRAY)),
        Some(_) => return Err(bad(&id, INVALID_REQUEST, errors::PARAMS_NOT_OBJECT)),
    };
    let id = match id {
        IdState::Readable(v) => Some(v),
        _ => None,
    };
    Ok(Envelope { id, method, params })
}

/// `params._meta`, when it is an object.
pub fn meta<'p>(params: &'p Object<'_>) -> Option<Object<'p>> {
    match params.get("_meta") {
        Some(Value::Object(m)) => Some(m),
        _ => None,
    }
}

pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

#[cfg(test)]
mod tests {
    use super::*;

    type Accepted = (Option<String>, String, bool);
    type Refused = (Option<String>, i32, &'static str);

    fn run(text: &str) -> Result<Accepted, Refused> {
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        let root = doc.root();
        match classify(&root) {
            Ok(e) => Ok((
                e.id.map(|v| String::from_utf8(v).unwrap()),
                e.method.as_str().into_owned(),
                e.params.is_some(),
            )),
            Err(i) => Err((
                i.id.map(|v| String::from_utf8(v).unwrap()),
                i.error.code,
                i.error.message,
            )),
        }
    }

    #[test]
    fn requests_and_notifications() {
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{}}"#),
            Ok((Some("1".into()), "m".into(), true))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":"a\"b","method":"m"}"#),
            Ok((Some("\"a\\\"b\"".into()), "m".into(), false))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"n"}"#),
            Ok((None, "n".into(), false))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":-9007199254740991,"method":"m"}"#)
                .unwrap()
                .0
                .unwrap(),
            "-9007199254740991"
        );
    }

    #[test]
    fn refusals_and_id_echo() {
        assert_eq!(run("[]"), Err((None, -32600, errors::BATCH)));
        assert_eq!(run("1"), Err((None, -32600, errors::NOT_OBJECT)));
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            Err((Some("3".into()), -32600, errors::CLIENT_RESPONSE))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"error":{}}"#),
            Err((Some("3".into()), -32600, errors::CLIENT_RESPONSE))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"1.0","id":3,"method":"m"}"#),
            Err((Some("3".into()), -32600, errors::BAD_JSONRPC))
        );
        assert_eq!(
            run(r#"{"id":3,"method":"m"}"#),
            Err((Some("3".into()), -32600, errors::BAD_JSONRPC))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"method":"m","x":1}"#),
            Err((Some("3".into()), -32600, errors::BAD_MEMBER))
        );
        for id in ["null", "1.5", "1e3", "9007199254740992", "{}", "true"] {
            assert_eq!(
                run(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#)),
                Err((None, -32600, errors::BAD_ID)),
                "{id}"
            );
        }
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"method":1}"#),
            Err((Some("3".into()), -32600, errors::BAD_METHOD))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3}"#),
            Err((Some("3".into()), -32600, errors::BAD_METHOD))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"method":"m","params":[]}"#),
            Err((Some("3".into()), -32602, errors::PARAMS_ARRAY))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"method":"m","params":"x"}"#),
            Err((Some("3".into()), -32600, errors::PARAMS_NOT_OBJECT))
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"m","params":null}"#),
            Err((None, -32600, errors::PARAMS_NOT_OBJECT))
        );
    }
}
