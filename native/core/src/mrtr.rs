//! Multi-round requests: a tool or prompt declares the input it needs from the client, in rounds
//! (elicitation, sampling, roots). Until every request of the current round has a valid response,
//! the core answers `input_required` with the requests and a `requestState`; the retry carries the
//! responses and that state back. The handler runs only once every round is answered, and sees all
//! the responses. Nothing runs on state the core cannot verify.
use crate::envelope::{meta, CLIENT_CAPABILITIES_KEY};
use crate::errors::{self, RpcError, INVALID_PARAMS, MISSING_CAPABILITY};
use crate::hmac::DIGEST_BYTES;
use crate::json::{write, Object, Value};
use crate::state::{Continuation, StateKey};

pub const MAX_ROUNDS: usize = 4;
pub const MAX_ASKS: usize = 8;
/// Canonical bytes of one request's declared `params`.
pub const MAX_ASK_PARAMS_BYTES: usize = 8192;
const MAX_KEY_CHARS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AskMethod {
    Elicitation,
    Sampling,
    Roots,
}

impl AskMethod {
    fn parse(s: &str) -> Option<AskMethod> {
        match s {
            "elicitation/create" => Some(AskMethod::Elicitation),
            "sampling/createMessage" => Some(AskMethod::Sampling),
            "roots/list" => Some(AskMethod::Roots),
            _ => None,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            AskMethod::Elicitation => "elicitation/create",
            AskMethod::Sampling => "sampling/createMessage",
            AskMethod::Roots => "roots/list",
        }
    }

    /// The client capability the request needs.
    fn capability(&self) -> &'static str {
        match self {
            AskMethod::Elicitation => "elicitation",
            AskMethod::Sampling => "sampling",
            AskMethod::Roots => "roots",
        }
    }

    /// Whether a response has the shape of this request's result.
    fn accepts(&self, v: &Value<'_>) -> bool {
        let o = match v {
            Value::Object(o) => o,
            _ => return false,
        };
        match self {
            AskMethod::Elicitation => {
                let action = matches!(o.get("action"), Some(Value::String(a))
                    if a.eq_str("accept") || a.eq_str("decline") || a.eq_str("cancel"));
                action && matches!(o.get("content"), None | Some(Value::Object(_)))
            }
            AskMethod::Sampling => {
                matches!(o.get("role"), Some(Value::String(_)))
                    && matches!(
                        o.get("content"),
                        Some(Value::Object(_)) | Some(Value::Array(_))
                    )
                    && matches!(o.get("model"), Some(Value::String(_)))
            }
            AskMethod::Roots => matches!(o.get("roots"), Some(Value::Array(_))),
        }
    }
}

struct Ask {
    key: String,
    method: AskMethod,
    /// Canonical JSON of the request's `params`.
    params: Vec<u8>,
    /// Skipped, rather than refused with `-32021`, when the client lacks the capability.
    optional: bool,
}

pub struct Inputs {
    rounds: Vec<Vec<Ask>>,
}

impl Inputs {
    /// `inputs`: an array of rounds; each round an object from a key to
    /// `{method, params?, optional?}`.
    pub fn parse(v: Value<'_>) -> Result<Inputs, &'static str> {
        const SHAPE: &str = "inputs must be an array of 1 to 4 rounds, each an object of 1 to 8 requests {method, params?, optional?}";
        let rounds_in = match v {
            Value::Array(a) if !a.is_empty() && a.len() <= MAX_ROUNDS => a,
            _ => return Err(SHAPE),
        };
        let mut rounds: Vec<Vec<Ask>> = Vec::new();
        for round in rounds_in.iter() {
            let o = match round {
                Value::Object(o) if !o.is_empty() && o.len() <= MAX_ASKS => o,
                _ => return Err(SHAPE),
            };
            let mut asks = Vec::new();
            for (key, ask) in o.iter() {
                let key = key.as_str().into_owned();
                let key_ok = !key.is_empty()
                    && key.chars().count() <= MAX_KEY_CHARS
                    && key
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
                if !key_ok {
                    return Err("inputs: request keys must be 1 to 64 characters of A-Za-z0-9_.-");
                }
                if rounds.iter().flatten().any(|a: &Ask| a.key == key) {
                    return Err("inputs: a request key repeats in a later round");
                }
                let a = match ask {
                    Value::Object(a) => a,
                    _ => return Err(SHAPE),
                };
                if a.iter().any(|(k, _)| {
                    !(k.eq_str("method") || k.eq_str("params") || k.eq_str("optional"))
                }) {
                    return Err(SHAPE);
                }
                let method = match a.get("method") {
                    Some(Value::String(m)) => AskMethod::parse(&m.as_str()),
                    _ => None,
                }
                .ok_or("inputs: method must be elicitation/create, sampling/createMessage or roots/list")?;
                let mut params = Vec::new();
                match a.get("params") {
                    None | Some(Value::Null) => params.extend_from_slice(b"{}"),
                    Some(p @ Value::Object(_)) => write::value(&mut params, p),
                    Some(_) => return Err("inputs: params must be an object"),
                }
                if params.len() > MAX_ASK_PARAMS_BYTES {
                    return Err("inputs: params of one request exceed 8192 bytes");
                }
                let optional = match a.get("optional") {
                    None | Some(Value::Bool(false)) => false,
                    Some(Value::Bool(true)) => true,
                    Some(_) => return Err("inputs: optional must be a boolean"),
                };
                asks.push(Ask {
                    key,
                    method,
                    params,
                    optional,
                });
            }
            rounds.push(asks);
        }
        Ok(Inputs { rounds })
    }
}

/// Everything the gate reads about one request.
pub struct Retry<'a, 'p> {
    pub params: &'a Object<'p>,
    pub bind: [u8; DIGEST_BYTES],
    pub key: &'a StateKey,
    pub epoch_ms: f64,
    /// `"_meta":{…serverInfo…}` for the `input_required` result.
    pub server_meta: &'a [u8],
}

pub enum Gate {
    /// Every round is answered: run the handler with these responses (JSON object text).
    Proceed(Vec<u8>),
    /// The `input_required` result object text.
    InputRequired(Vec<u8>),
    Refused(RpcError),
}

fn invalid(message: &'static str) -> Gate {
    Gate::Refused(RpcError::new(400, INVALID_PARAMS, message))
}

/// Decides one round of a request whose tool or prompt declares `inputs`.
pub fn gate(inputs: &Inputs, r: &Retry<'_, '_>) -> Gate {
    let params = r.params;
    let continued = match params.get("requestState") {
        None => Continuation {
            round: 0,
            responses: b"{}".to_vec(),
        },
        Some(Value::String(s)) => {
            let opened = r.key.open(s.as_str().as_bytes(), &r.bind, r.epoch_ms);
            match opened.filter(|c| c.round < inputs.rounds.len()) {
                Some(c) => c,
                None => return invalid(errors::STATE_INVALID),
            }
        }
        Some(_) => return invalid(errors::STATE_INVALID),
    };
    let answers = match params.get("inputResponses") {
        None => None,
        Some(Value::Object(o)) => Some(o),
        Some(_) => return invalid(errors::INPUT_RESPONSES),
    };
    let capabilities = meta(params).and_then(|m| match m.get(CLIENT_CAPABILITIES_KEY) {
        Some(Value::Object(o)) => Some(o),
        _ => None,
    });
    let has = |cap: &str| matches!(&capabilities, Some(c) if c.get(cap).is_some());

    let mut round = continued.round;
    let mut responses = continued.responses;
    while round < inputs.rounds.len() {
        let asks = &inputs.rounds[round];
        let missing: Vec<&str> = asks
            .iter()
            .filter(|a| !a.optional && !has(a.method.capability()))
            .map(|a| a.method.capability())
            .collect();
        if !missing.is_empty() {
            let mut data = b"{\"requiredCapabilities\":{".to_vec();
            let mut written: Vec<&str> = Vec::new();
            for cap in missing {
                if !written.contains(&cap) {
                    if !written.is_empty() {
                        data.push(b',');
                    }
                    write::string(&mut data, cap);
                    data.extend_from_slice(b":{}");
                    written.push(cap);
                }
            }
            data.extend_from_slice(b"}}");
            let mut e = RpcError::new(400, MISSING_CAPABILITY, errors::CAPABILITY_MISSING);
            e.data = Some(data);
            return Gate::Refused(e);
        }
        let asked: Vec<&Ask> = asks.iter().filter(|a| has(a.method.capability())).collect();
        let mut answered = Vec::new();
        for a in &asked {
            match answers.as_ref().and_then(|o| o.get(&a.key)) {
                None => break,
                Some(v) if a.method.accepts(&v) => answered.push((a, v)),
                Some(_) => return invalid(errors::INPUT_RESPONSES),
            }
        }
        if answered.len() < asked.len() {
            let mut out = b"{\"resultType\":\"input_required\",\"inputRequests\":{".to_vec();
            for (i, a) in asked.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write::string(&mut out, &a.key);
                out.extend_from_slice(b":{\"method\":\"");
                out.extend_from_slice(a.method.name().as_bytes());
                out.extend_from_slice(b"\",\"params\":");
                out.extend_from_slice(&a.params);
                out.push(b'}');
            }
            out.extend_from_slice(b"},\"requestState\":");
            let state = r
                .key
                .seal(&r.bind, &Continuation { round, responses }, r.epoch_ms);
            write::string(&mut out, &state);
            out.push(b',');
            out.extend_from_slice(r.server_meta);
            out.push(b'}');
            return Gate::InputRequired(out);
        }
        // Append this round's answers to the responses object.
        responses.pop();
        for (a, v) in answered {
            if responses.len() > 1 {
                responses.push(b',');
            }
            write::string(&mut responses, &a.key);
            responses.push(b':');
            write::value(&mut responses, v);
        }
        responses.push(b'}');
        round += 1;
    }
    Gate::Proceed(responses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    const SHAPE: &str = "inputs must be an array of 1 to 4 rounds, each an object of 1 to 8 requests {method, params?, optional?}";
    const KEY: &str = "inputs: request keys must be 1 to 64 characters of A-Za-z0-9_.-";
    const METHOD: &str =
        "inputs: method must be elicitation/create, sampling/createMessage or roots/list";

    /// Each round as `key method params optional`, or the refusal.
    fn parse(text: &str) -> Result<Vec<Vec<String>>, &'static str> {
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        let inputs = Inputs::parse(doc.root())?;
        Ok(inputs
            .rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|a| {
                        format!(
                            "{} {} {} {}",
                            a.key,
                            a.method.name(),
                            String::from_utf8(a.params.clone()).unwrap(),
                            a.optional
                        )
                    })
                    .collect()
            })
            .collect())
    }

    fn rounds(n: usize) -> String {
        let round = |i: usize| format!(r#"{{"k{}":{{"method":"roots/list"}}}}"#, i);
        format!("[{}]", (0..n).map(round).collect::<Vec<_>>().join(","))
    }

    fn asks(n: usize) -> String {
        let ask = |i: usize| format!(r#""k{}":{{"method":"roots/list"}}"#, i);
        format!("[{{{}}}]", (0..n).map(ask).collect::<Vec<_>>().join(","))
    }

    #[test]
    fn inputs_read_every_declared_request() {
        assert_eq!(
            parse(
                r#"[{"e":{"method":"elicitation/create","params":{"b":1,"a":[true]}},"s":{"method":"sampling/createMessage","optional":true}},
                    {"r":{"method":"roots/list","params":null,"optional":false}}]"#
            ),
            Ok(vec![
                vec![
                    r#"e elicitation/create {"b":1,"a":[true]} false"#.to_string(),
                    "s sampling/createMessage {} true".to_string(),
                ],
                vec!["r roots/list {} false".to_string()],
            ])
        );
        let key = "aZ09_.-".repeat(9) + "x";
        assert_eq!(
            parse(&format!(r#"[{{"{}":{{"method":"roots/list"}}}}]"#, key)),
            Ok(vec![vec![format!("{} roots/list {{}} false", key)]])
        );
        assert_eq!(parse(&rounds(MAX_ROUNDS)).map(|r| r.len()), Ok(MAX_ROUNDS));
        assert_eq!(parse(&asks(MAX_ASKS)).map(|r| r[0].len()), Ok(MAX_ASKS));
        // Params of exactly the limit: `{"a":"…"}` is 8 bytes around the string.
        let fits = format!(
            r#"[{{"k":{{"method":"roots/list","params":{{"a":"{}"}}}}}}]"#,
            "x".repeat(MAX_ASK_PARAMS_BYTES - 8)
        );
        assert!(parse(&fits).is_ok());
    }

    #[test]
    fn inputs_refusals() {
        let over = format!(
            r#"[{{"k":{{"method":"roots/list","params":{{"a":"{}"}}}}}}]"#,
            "x".repeat(MAX_ASK_PARAMS_BYTES - 7)
        );
        let long_key = format!(r#"[{{"{}":{{"method":"roots/list"}}}}]"#, "k".repeat(65));
        let cases: Vec<(String, &str)> = vec![
            ("[]".into(), SHAPE),
            ("{}".into(), SHAPE),
            (rounds(MAX_ROUNDS + 1), SHAPE),
            (asks(MAX_ASKS + 1), SHAPE),
            ("[{}]".into(), SHAPE),
            ("[[]]".into(), SHAPE),
            (r#"[{"k":"roots/list"}]"#.into(), SHAPE),
            (r#"[{"k":{"method":"roots/list","x":1}}]"#.into(), SHAPE),
            (r#"[{"":{"method":"roots/list"}}]"#.into(), KEY),
            (long_key, KEY),
            (r#"[{"a b":{"method":"roots/list"}}]"#.into(), KEY),
            (r#"[{"a/b":{"method":"roots/list"}}]"#.into(), KEY),
            (r#"[{"é":{"method":"roots/list"}}]"#.into(), KEY),
            (
                r#"[{"k":{"method":"roots/list"}},{"k":{"method":"roots/list"}}]"#.into(),
                "inputs: a request key repeats in a later round",
            ),
            (r#"[{"k":{}}]"#.into(), METHOD),
            (r#"[{"k":{"method":1}}]"#.into(), METHOD),
            (r#"[{"k":{"method":"tools/call"}}]"#.into(), METHOD),
            (
                r#"[{"k":{"method":"roots/list","params":[]}}]"#.into(),
                "inputs: params must be an object",
            ),
            (over, "inputs: params of one request exceed 8192 bytes"),
            (
                r#"[{"k":{"method":"roots/list","optional":"yes"}}]"#.into(),
                "inputs: optional must be a boolean",
            ),
        ];
        for (text, why) in cases {
            assert_eq!(parse(&text).err(), Some(why), "{}", text);
        }
    }

    #[test]
    fn responses_must_have_the_shape_of_the_request_result() {
        use AskMethod::{Elicitation, Roots, Sampling};
        let cases: &[(AskMethod, &str, bool)] = &[
            (
                Elicitation,
                r#"{"action":"accept","content":{"a":1}}"#,
                true,
            ),
            (Elicitation, r#"{"action":"decline"}"#, true),
            (Elicitation, r#"{"action":"cancel"}"#, true),
            (Elicitation, r#"{"action":"maybe"}"#, false),
            (Elicitation, r#"{"action":1}"#, false),
            (Elicitation, r#"{"content":{}}"#, false),
            (Elicitation, r#"{"action":"accept","content":"x"}"#, false),
            (Elicitation, "[]", false),
            (
                Sampling,
                r#"{"role":"assistant","content":{"type":"text"},"model":"m"}"#,
                true,
            ),
            (
                Sampling,
                r#"{"role":"assistant","content":[],"model":"m"}"#,
                true,
            ),
            (Sampling, r#"{"role":1,"content":[],"model":"m"}"#, false),
            (
                Sampling,
                r#"{"role":"assistant","content":"x","model":"m"}"#,
                false,
            ),
            (Sampling, r#"{"role":"assistant","content":[]}"#, false),
            (Sampling, r#"{"content":[],"model":"m"}"#, false),
            (Roots, r#"{"roots":[]}"#, true),
            (Roots, r#"{"roots":{}}"#, false),
            (Roots, "{}", false),
        ];
        for (method, text, accepted) in cases {
            let doc = json::parse(text.as_bytes(), 32).unwrap();
            assert_eq!(
                method.accepts(&doc.root()),
                *accepted,
                "{:?} {}",
                method,
                text
            );
        }
        for m in [Elicitation, Sampling, Roots] {
            assert_eq!(AskMethod::parse(m.name()), Some(m));
            assert_eq!(m.name().split('/').next(), Some(m.capability()));
        }
    }

    const ELICIT: &str = r#"{"action":"accept","content":{"n":1}}"#;
    const ROOTS: &str = r#"{"roots":[]}"#;

    /// What `gate` answers for `params` (request members as JSON object text), as text:
    /// `proceed <responses>`, `ask <result>` with the state replaced by `STATE`, or
    /// `refuse <code> <message> <data>`. `state` is a continuation sealed for the request.
    fn run(inputs: &str, params: &str, state: Option<(usize, &str)>) -> String {
        let inputs = {
            let doc = json::parse(inputs.as_bytes(), 32).unwrap();
            Inputs::parse(doc.root()).unwrap()
        };
        let key = StateKey::Sealed(Box::new(crate::hmac::Hmac::new(b"k")));
        let bind = [7u8; DIGEST_BYTES];
        let epoch_ms = 1_000.0;
        let sealed = state.map(|(round, responses)| {
            let c = Continuation {
                round,
                responses: responses.as_bytes().to_vec(),
            };
            key.seal(&bind, &c, epoch_ms)
        });
        let text = match &sealed {
            Some(s) => format!(r#"{{"requestState":"{}",{}"#, s, &params[1..]),
            None => params.to_string(),
        };
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        let root = doc.root();
        let retry = Retry {
            params: &root.as_object().unwrap(),
            bind,
            key: &key,
            epoch_ms,
            server_meta: br#""_meta":{}"#,
        };
        let utf8 = |b: Vec<u8>| String::from_utf8(b).unwrap();
        match gate(&inputs, &retry) {
            Gate::Proceed(r) => format!("proceed {}", utf8(r)),
            Gate::InputRequired(r) => {
                let r = utf8(r);
                let start = r.find(r#""requestState":""#).unwrap() + 16;
                let end = start + r[start..].find('"').unwrap();
                format!("ask {}STATE{}", &r[..start], &r[end..])
            }
            Gate::Refused(e) => format!(
                "refuse {} {} {}",
                e.code,
                e.message,
                e.data.map(utf8).unwrap_or_default()
            ),
        }
    }

    fn caps(list: &str) -> String {
        format!(
            r#""_meta":{{"io.modelcontextprotocol/clientCapabilities":{}}}"#,
            list
        )
    }

    #[test]
    fn gate_asks_round_by_round_and_gathers_every_response() {
        let two = r#"[{"a":{"method":"elicitation/create"},"b":{"method":"roots/list","params":{"x":1}}},{"c":{"method":"roots/list"}}]"#;
        let all = caps(r#"{"elicitation":{},"roots":{}}"#);
        let ask = r#"ask {"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{}},"b":{"method":"roots/list","params":{"x":1}}},"requestState":"STATE","_meta":{}}"#;
        assert_eq!(run(two, &format!("{{{}}}", all), None), ask);
        // One of two answers is not enough: both are asked again.
        assert_eq!(
            run(
                two,
                &format!(r#"{{"inputResponses":{{"a":{}}},{}}}"#, ELICIT, all),
                None
            ),
            ask
        );
        assert_eq!(
            run(
                two,
                &format!(
                    r#"{{"inputResponses":{{"b":{},"a":{}}},{}}}"#,
                    ROOTS, ELICIT, all
                ),
                None
            ),
            r#"ask {"resultType":"input_required","inputRequests":{"c":{"method":"roots/list","params":{}}},"requestState":"STATE","_meta":{}}"#
        );
        // The second round adds to what the state carries from the first.
        assert_eq!(
            run(
                two,
                &format!(r#"{{"inputResponses":{{"c":{}}},{}}}"#, ROOTS, all),
                Some((1, r#"{"a":1,"b":2}"#))
            ),
            r#"proceed {"a":1,"b":2,"c":{"roots":[]}}"#
        );
        assert_eq!(
            run(
                two,
                &format!(
                    r#"{{"inputResponses":{{"a":{},"b":{},"c":{}}},{}}}"#,
                    ELICIT, ROOTS, ROOTS, all
                ),
                None
            ),
            format!(r#"proceed {{"a":{},"b":{},"c":{}}}"#, ELICIT, ROOTS, ROOTS)
        );
    }

    #[test]
    fn gate_refusals() {
        let one = r#"[{"a":{"method":"elicitation/create"}}]"#;
        let invalid_state = "refuse -32602 Invalid params: requestState is invalid or expired ";
        let mismatch =
            "refuse -32602 Invalid params: inputResponses do not match the input requests ";
        let all = caps(r#"{"elicitation":{}}"#);
        // A state for a round past the last one, or not a string.
        assert_eq!(
            run(one, &format!("{{{}}}", all), Some((1, "{}"))),
            invalid_state
        );
        assert_eq!(
            run(one, &format!(r#"{{"requestState":1,{}}}"#, all), None),
            invalid_state
        );
        assert_eq!(
            run(one, &format!(r#"{{"inputResponses":[],{}}}"#, all), None),
            mismatch
        );
        assert_eq!(
            run(
                one,
                &format!(r#"{{"inputResponses":{{"a":{}}},{}}}"#, ROOTS, all),
                None
            ),
            mismatch
        );
        // Every missing capability once, in the order first needed.
        let needs = r#"[{"a":{"method":"sampling/createMessage"},"b":{"method":"elicitation/create"},"c":{"method":"sampling/createMessage"},"d":{"method":"roots/list"}}]"#;
        assert_eq!(
            run(needs, &format!("{{{}}}", caps(r#"{"roots":{}}"#)), None),
            r#"refuse -32021 Missing required client capability {"requiredCapabilities":{"sampling":{},"elicitation":{}}}"#
        );
        assert_eq!(
            run(needs, "{}", None),
            r#"refuse -32021 Missing required client capability {"requiredCapabilities":{"sampling":{},"elicitation":{},"roots":{}}}"#
        );
        // Capabilities that are not an object are no capabilities.
        assert_eq!(
            run(
                one,
                r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":[]}}"#,
                None
            ),
            r#"refuse -32021 Missing required client capability {"requiredCapabilities":{"elicitation":{}}}"#
        );
        // An optional request the client cannot answer is skipped.
        assert_eq!(
            run(
                r#"[{"a":{"method":"elicitation/create","optional":true}}]"#,
                "{}",
                None
            ),
            "proceed {}"
        );
    }
}
