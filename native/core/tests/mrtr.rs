//! Multi-round requests: `input_required` rounds, sealed `requestState`, `-32021`, and every way a
//! retry can be refused, through the public Rust API as a host drives it.
use pulse_core::config::Secret;
use pulse_core::json::{self, Value};
use pulse_core::{Action, Effect, Engine, HandlerAnswer};

const KEY: &str = "0123456789abcdef0123456789abcdef";
const NOW: f64 = 1_780_000_000_000.0;
const ALL: &str = r#"{"sampling":{},"elicitation":{},"roots":{"listChanged":true}}"#;

fn elicit(key: &str) -> String {
    format!(
        r#"{{"{}":{{"method":"elicitation/create","params":{{"mode":"form","message":"Name?","requestedSchema":{{"type":"object","properties":{{"name":{{"type":"string"}}}}}}}}}}}}"#,
        key
    )
}

fn tool(name: &str, inputs: &str, handler: &str) -> String {
    format!(
        r#"{{"name":"{}","input":null,"output":null,"content":true,"inputs":{},"handler":{}}}"#,
        name, inputs, handler
    )
}

fn config(extra: &str) -> String {
    let done = r#"{"kind":"static","result":"[{\"type\":\"text\",\"text\":\"done\"}]"}"#;
    let tools = [
        tool("elicit", &format!("[{}]", elicit("user_name")), done),
        tool(
            "rounds",
            &format!(
                "[{},{}]",
                elicit("first"),
                r#"{"second":{"method":"roots/list"}}"#
            ),
            done,
        ),
        tool(
            "needs_sampling",
            r#"[{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}}]"#,
            done,
        ),
        tool(
            "either",
            r#"[{"e":{"method":"elicitation/create","optional":true},"s":{"method":"sampling/createMessage","optional":true}}]"#,
            done,
        ),
        tool(
            "js",
            &format!("[{}]", elicit("user_name")),
            r#"{"kind":"javascript"}"#,
        ),
    ];
    let names = ["elicit", "rounds", "needs_sampling", "either", "js"];
    let list: Vec<String> = names
        .iter()
        .map(|n| {
            format!(
                r#"{{\"name\":\"{}\",\"inputSchema\":{{\"type\":\"object\"}}}}"#,
                n
            )
        })
        .collect();
    format!(
        r#"{{{}"contentBlocks":true,"tools":{{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"[{}]","tools":[{}],"corpora":{{}}}},
           "prompts":[{{"name":"ask_prompt","inputs":[{}],"messages":[{{"role":"user","content":{{"type":"text","text":"hi"}}}}]}}]}}"#,
        extra,
        list.join(","),
        tools.join(","),
        elicit("user_name")
    )
}

fn engine() -> Engine {
    Engine::new(config(&format!(r#""requestStateKey":"{}","#, KEY)).as_bytes()).unwrap()
}

struct Reply {
    status: u16,
    body: String,
}

impl Reply {
    fn root<T>(&self, f: impl FnOnce(Value<'_>) -> T) -> T {
        let doc = json::parse(self.body.as_bytes(), 64).unwrap();
        f(doc.root())
    }
    fn code(&self) -> Option<i64> {
        self.root(|v| {
            v.as_object()?
                .get("error")?
                .as_object()?
                .get("code")?
                .as_number()?
                .as_safe_integer()
        })
    }
    fn state(&self) -> String {
        self.root(|v| {
            v.as_object()?
                .get("result")?
                .as_object()?
                .get("requestState")?
                .as_string()
                .map(|s| s.as_str().into_owned())
        })
        .expect("a requestState")
    }
    fn is_input_required(&self) -> bool {
        self.status == 200
            && self
                .body
                .contains(r#""result":{"resultType":"input_required","inputRequests":{"#)
    }
    fn is_complete(&self) -> bool {
        self.status == 200 && self.body.contains(r#""result":{"resultType":"complete""#)
    }
}

fn send(
    engine: &Engine,
    method: &str,
    name: &str,
    extra: &str,
    caps: &str,
    epoch: f64,
) -> (Reply, pulse_core::Request) {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"{}","params":{{"name":"{}"{}{},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}}}}"#,
        method,
        name,
        if extra.is_empty() { "" } else { "," },
        extra,
        caps
    );
    let lines = vec![
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
        ("mcp-name", name),
    ];
    let mut req = engine.request_at(0.0, epoch);
    assert_eq!(req.head(b"POST", b"/mcp", lines, 0.0), Action::Continue);
    assert_eq!(req.body(body.as_bytes(), 0.0), Action::Continue);
    let reply = match req.end(0.0) {
        Action::Respond => {
            let r = req.reply().unwrap();
            Reply {
                status: r.status,
                body: String::from_utf8(r.body.clone()).unwrap(),
            }
        }
        _ => Reply {
            status: 0,
            body: String::new(),
        },
    };
    (reply, req)
}

fn call(engine: &Engine, name: &str, extra: &str) -> Reply {
    send(engine, "tools/call", name, extra, ALL, NOW).0
}

const ACCEPT: &str = r#"{"action":"accept","content":{"name":"octocat"}}"#;

#[test]
fn one_round_then_complete() {
    let e = engine();
    let first = call(&e, "elicit", "");
    assert!(first.is_input_required(), "{}", first.body);
    assert!(first.body.contains(
        r#""user_name":{"method":"elicitation/create","params":{"mode":"form","message":"Name?""#
    ));
    assert!(first
        .body
        .contains(r#""_meta":{"io.modelcontextprotocol/serverInfo""#));
    let state = first.state();
    let done = call(
        &e,
        "elicit",
        &format!(
            r#""inputResponses":{{"user_name":{}}},"requestState":"{}""#,
            ACCEPT, state
        ),
    );
    assert!(done.is_complete(), "{}", done.body);
    assert!(done
        .body
        .contains(r#""content":[{"type":"text","text":"done"}]"#));
}

#[test]
fn valid_responses_without_state_complete_and_extra_keys_are_ignored() {
    let e = engine();
    let done = call(
        &e,
        "elicit",
        &format!(
            r#""inputResponses":{{"user_name":{},"other":{{"x":1}}}}"#,
            ACCEPT
        ),
    );
    assert!(done.is_complete(), "{}", done.body);
}

#[test]
fn a_missing_response_is_asked_again() {
    let e = engine();
    let again = call(
        &e,
        "elicit",
        &format!(r#""inputResponses":{{"wrong_key":{}}}"#, ACCEPT),
    );
    assert!(again.is_input_required(), "{}", again.body);
}

#[test]
fn refused_retries() {
    let e = engine();
    let state = call(&e, "elicit", "").state();
    let rows: Vec<(String, &str)> = vec![
        (
            r#""inputResponses":{"user_name":12345}"#.to_string(),
            "inputResponses do not match",
        ),
        (
            r#""inputResponses":{"user_name":{"action":"maybe"}}"#.to_string(),
            "inputResponses do not match",
        ),
        (
            r#""inputResponses":null"#.to_string(),
            "inputResponses do not match",
        ),
        (
            r#""inputResponses":[]"#.to_string(),
            "inputResponses do not match",
        ),
        (
            format!(r#""requestState":"{}-TAMPERED""#, state),
            "requestState is invalid or expired",
        ),
        (
            r#""requestState":"""#.to_string(),
            "requestState is invalid or expired",
        ),
        (
            r#""requestState":7"#.to_string(),
            "requestState is invalid or expired",
        ),
    ];
    for (extra, message) in rows {
        let r = call(&e, "elicit", &extra);
        assert_eq!(
            (r.status, r.code()),
            (400, Some(-32602)),
            "{} → {}",
            extra,
            r.body
        );
        assert!(r.body.contains(message), "{} → {}", extra, r.body);
    }
}

#[test]
fn state_is_bound_to_key_name_method_and_time() {
    let e = engine();
    let state = call(&e, "elicit", "").state();
    let retry = format!(
        r#""inputResponses":{{"user_name":{}}},"requestState":"{}""#,
        ACCEPT, state
    );
    // Another tool, another key, later than the expiry, or with no clock: refused.
    assert_eq!(call(&e, "js", &retry).code(), Some(-32602));
    let other =
        Engine::new(config(r#""requestStateKey":"ffffffffffffffffffffffffffffffff","#).as_bytes())
            .unwrap();
    assert_eq!(call(&other, "elicit", &retry).code(), Some(-32602));
    let (late, _) = send(&e, "tools/call", "elicit", &retry, ALL, NOW + 600_001.0);
    assert_eq!(late.code(), Some(-32602));
    let (clockless, _) = send(&e, "tools/call", "elicit", &retry, ALL, f64::NAN);
    assert_eq!(clockless.code(), Some(-32602));
    let (ok, _) = send(&e, "tools/call", "elicit", &retry, ALL, NOW + 599_000.0);
    assert!(ok.is_complete(), "{}", ok.body);
}

#[test]
fn multi_round_issues_a_new_state_each_round() {
    let e = engine();
    let r1 = call(&e, "rounds", "");
    assert!(
        r1.is_input_required()
            && r1.body.contains(r#""first":"#)
            && !r1.body.contains(r#""second":"#)
    );
    let s1 = r1.state();
    let r2 = call(
        &e,
        "rounds",
        &format!(
            r#""inputResponses":{{"first":{}}},"requestState":"{}""#,
            ACCEPT, s1
        ),
    );
    assert!(
        r2.is_input_required()
            && r2
                .body
                .contains(r#""second":{"method":"roots/list","params":{}}"#),
        "{}",
        r2.body
    );
    let s2 = r2.state();
    assert_ne!(s1, s2);
    let r3 = call(
        &e,
        "rounds",
        &format!(
            r#""inputResponses":{{"second":{{"roots":[]}}}},"requestState":"{}""#,
            s2
        ),
    );
    assert!(r3.is_complete(), "{}", r3.body);
    // The first round's state cannot skip the first round.
    let skip = call(
        &e,
        "rounds",
        &format!(
            r#""inputResponses":{{"second":{{"roots":[]}}}},"requestState":"{}""#,
            s1
        ),
    );
    assert!(skip.is_input_required(), "{}", skip.body);
}

#[test]
fn capabilities_decide_what_is_asked() {
    let e = engine();
    let (missing, _) = send(&e, "tools/call", "needs_sampling", "", "{}", NOW);
    assert_eq!((missing.status, missing.code()), (400, Some(-32021)));
    assert!(
        missing
            .body
            .contains(r#""data":{"requiredCapabilities":{"sampling":{}}}"#),
        "{}",
        missing.body
    );
    let (only_sampling, _) = send(&e, "tools/call", "either", "", r#"{"sampling":{}}"#, NOW);
    assert!(only_sampling.is_input_required(), "{}", only_sampling.body);
    assert!(only_sampling
        .body
        .contains(r#""s":{"method":"sampling/createMessage""#));
    assert!(!only_sampling.body.contains("elicitation/create"));
    let (nothing_to_ask, _) = send(&e, "tools/call", "either", "", "{}", NOW);
    assert!(nothing_to_ask.is_complete(), "{}", nothing_to_ask.body);
}

#[test]
fn handlers_receive_the_gathered_responses() {
    let e = engine();
    let (_, mut req) = send(
        &e,
        "tools/call",
        "js",
        &format!(r#""inputResponses":{{"user_name":{}}}"#, ACCEPT),
        ALL,
        NOW,
    );
    let effect = match req.effect() {
        Some(Effect::Handler(h)) => h.clone(),
        other => panic!("expected a handler effect, got {:?}", other),
    };
    assert_eq!(
        effect.input_responses.as_deref(),
        Some(format!(r#"{{"user_name":{}}}"#, ACCEPT).as_bytes())
    );
    let out = br#"[{"type":"text","text":"hello octocat"}]"#;
    assert_eq!(
        req.answer_handler(HandlerAnswer::Output(out), 0.0),
        Action::Respond
    );
}

#[test]
fn prompts_ask_too() {
    let e = engine();
    let (first, _) = send(&e, "prompts/get", "ask_prompt", "", ALL, NOW);
    assert!(first.is_input_required(), "{}", first.body);
    let retry = format!(
        r#""inputResponses":{{"user_name":{}}},"requestState":"{}""#,
        ACCEPT,
        first.state()
    );
    let (done, _) = send(&e, "prompts/get", "ask_prompt", &retry, ALL, NOW);
    assert!(
        done.is_complete() && done.body.contains(r#""messages":[{"role":"user""#),
        "{}",
        done.body
    );
}

#[test]
fn unsealed_state_is_opt_in_and_still_checked() {
    let e = Engine::new(config(r#""unsealedRequestState":true,"#).as_bytes()).unwrap();
    let first = call(&e, "elicit", "");
    let state = first.state();
    assert!(!state.contains('.'));
    let tampered = call(
        &e,
        "elicit",
        &format!(r#""requestState":"{}-TAMPERED""#, state),
    );
    assert_eq!(tampered.code(), Some(-32602));
}

#[test]
fn configuration_requires_a_key_for_inputs() {
    for (extra, message) in [
        ("", "requestStateKey: required (at least 32 bytes) when a tool or prompt declares inputs; or set unsealedRequestState: true to accept unsigned, untrusted state"),
        (r#""requestStateKey":"short","#, "requestStateKey: must be a string of 32 to 1024 bytes (for example 64 hex digits)"),
        (r#""requestStateKey":"0123456789abcdef0123456789abcdef","unsealedRequestState":true,"#, "unsealedRequestState: cannot be combined with requestStateKey"),
    ] {
        let err = Engine::new(config(extra).as_bytes()).err().unwrap();
        assert_eq!(err, message);
        assert!(!err.contains("0123456789abcdef"), "the key never appears in a message");
    }
}

#[test]
fn a_key_from_a_secret_store_is_installed_by_the_host_before_serving() {
    let secret = r#""requestStateKey":{"secretStore":"pulse","key":"request-state"},"#;
    let mut e = Engine::new(config(secret).as_bytes()).unwrap();
    let named = e.secret(Secret::StateKey).expect("the secret to read");
    assert_eq!(
        (named.store.as_str(), named.key.as_str()),
        ("pulse", "request-state")
    );
    // Not read yet: nothing is sealed, the request fails closed.
    let before = call(&e, "elicit", "");
    assert_eq!((before.status, before.code()), (500, Some(-32603)));
    let short = e.install_secret(Secret::StateKey, b"short").unwrap_err();
    assert_eq!(
        short,
        "requestStateKey: must be a string of 32 to 1024 bytes (for example 64 hex digits)"
    );
    e.install_secret(Secret::StateKey, KEY.as_bytes()).unwrap();
    assert!(e.secret(Secret::StateKey).is_none());
    // The same key seals alike: state from an engine given the key directly opens here.
    let first = call(&engine(), "elicit", "");
    let answer = r#""inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}"#;
    let done = call(
        &e,
        "elicit",
        &format!(r#"{},"requestState":"{}""#, answer, first.state()),
    );
    assert!(done.is_complete(), "{}", done.body);
    // A key is installed once; an engine with a literal key waits for none; a shared engine
    // takes none.
    let no_secret = "requestStateKey: no secret is waiting to be installed";
    assert_eq!(
        e.install_secret(Secret::StateKey, KEY.as_bytes())
            .unwrap_err(),
        no_secret
    );
    assert_eq!(
        engine()
            .install_secret(Secret::StateKey, KEY.as_bytes())
            .unwrap_err(),
        no_secret
    );
    let mut waiting = Engine::new(config(secret).as_bytes()).unwrap();
    let shared = waiting.clone();
    assert_eq!(
        waiting
            .install_secret(Secret::StateKey, KEY.as_bytes())
            .unwrap_err(),
        "requestStateKey: the engine is already shared"
    );
    drop(shared);
    assert!(waiting
        .install_secret(Secret::StateKey, KEY.as_bytes())
        .is_ok());
    for bad in [
        r#"{"secretStore":"pulse"}"#,
        r#"{"secretStore":"pulse","key":""}"#,
        r#"{"secretStore":"a b","key":"k"}"#,
        r#"{"secretStore":"s","key":"k","extra":1}"#,
    ] {
        let err = Engine::new(config(&format!(r#""requestStateKey":{},"#, bad)).as_bytes())
            .err()
            .unwrap();
        assert_eq!(err, "requestStateKey: a secret reference is {\"secretStore\", \"key\"}, each 1-128 characters of A-Za-z0-9_.-", "{}", bad);
    }
}
