//! Misuse is final, as the engine's lifecycle table says: a call out of order ends the request,
//! and every later call, however valid it looks, answers `Misuse` again with no reply and no effect
//! to read, so nothing but the host's own 500 can reach the wire.
use pulse_core::{record, Action, Engine, HandlerAnswer, HttpAnswer, HttpFailure, Request};

const HEAD: &str = "POST /mcp\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\nmcp-name: echo\r\nauthorization: Bearer tok\r\n";
const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}},"name":"echo","arguments":{"msg":"hi"}}}"#;

/// A JavaScript handler `echo`; `extra` adds top-level options.
fn config(extra: &str) -> String {
    let program = r#"[["string",0,null],["object",0,[["msg",0,0]]]]"#;
    let list = r#""[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]""#;
    format!(
        r#"{{{extra}"limits":{{"deadlineMs":1000}},"tools":{{"formatVersion":1,"routerId":"r","catalogHash":"sha256:x","deadlineMs":5000,"list":{list},"tools":[{{"name":"echo","input":{program},"output":{program},"handler":{{"kind":"javascript"}}}}],"corpora":{{}}}}}}"#
    )
}

const AUTHORIZATION: &str = r#""authorization":{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/introspect","clientId":"c","clientSecret":"s","scopes":["mcp:access"]},"#;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Fresh,
    Authorizing,
    Body,
    /// A handler effect is pending.
    Pending,
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Call {
    Head,
    Body,
    End,
    AnswerHttp,
    AnswerHandler,
    /// What the ABI makes of a call it cannot decode (a head record that is none, a status out of
    /// range).
    Undecodable,
    Tick,
    Abort,
}

const CALLS: [Call; 8] = [
    Call::Head,
    Call::Body,
    Call::End,
    Call::AnswerHttp,
    Call::AnswerHandler,
    Call::Undecodable,
    Call::Tick,
    Call::Abort,
];

fn call(req: &mut Request, c: Call, now: f64) -> Action {
    match c {
        Call::Head => match record::head(HEAD.as_bytes()) {
            Some((m, t, _, lines)) => req.head(m, t, lines, now),
            None => panic!("the test's head record"),
        },
        Call::Body => req.body(BODY.as_bytes(), now),
        Call::End => req.end(now),
        Call::AnswerHttp => req.answer_http(HttpAnswer::Failed(HttpFailure::Unreachable), now),
        Call::AnswerHandler => req.answer_handler(HandlerAnswer::Output(br#"{"msg":"hi"}"#), now),
        Call::Undecodable => req.misuse(),
        Call::Tick => req.tick(now),
        Call::Abort => req.abort(now),
    }
}

/// A request in `phase`, reached by calls in order.
fn at(phase: Phase) -> Request {
    let authorizing = phase == Phase::Authorizing;
    let engine = Engine::new(config(if authorizing { AUTHORIZATION } else { "" }).as_bytes())
        .expect("the test configuration");
    let mut req = engine.request(0.0);
    let path: &[(Call, Action)] = match phase {
        Phase::Fresh => &[],
        Phase::Authorizing => &[(Call::Head, Action::Perform)],
        Phase::Body => &[(Call::Head, Action::Continue)],
        Phase::Pending => &[
            (Call::Head, Action::Continue),
            (Call::Body, Action::Continue),
            (Call::End, Action::Perform),
        ],
        Phase::Done => &[
            (Call::Head, Action::Continue),
            (Call::Body, Action::Continue),
            (Call::End, Action::Perform),
            (Call::AnswerHandler, Action::Respond),
        ],
    };
    for &(c, expected) in path {
        assert_eq!(call(&mut req, c, 1.0), expected, "{phase:?}: {c:?}");
    }
    req
}

/// Every call out of order in each phase.
const OUT_OF_ORDER: [(Phase, &[Call]); 5] = [
    (
        Phase::Fresh,
        &[
            Call::Body,
            Call::End,
            Call::AnswerHttp,
            Call::AnswerHandler,
            Call::Undecodable,
        ],
    ),
    (
        Phase::Authorizing,
        &[
            Call::Head,
            Call::Body,
            Call::End,
            Call::AnswerHandler,
            Call::Undecodable,
        ],
    ),
    (
        Phase::Body,
        &[
            Call::Head,
            Call::AnswerHttp,
            Call::AnswerHandler,
            Call::Undecodable,
        ],
    ),
    (
        Phase::Pending,
        &[
            Call::Head,
            Call::Body,
            Call::End,
            Call::AnswerHttp,
            Call::Undecodable,
        ],
    ),
    // Once answered, calls in order repeat the reply; only an undecodable one is misuse.
    (Phase::Done, &[Call::Undecodable]),
];

#[test]
fn every_call_out_of_order_is_misuse_and_misuse_is_final() {
    for (phase, wrong) in OUT_OF_ORDER {
        for &first in wrong {
            let mut req = at(phase);
            assert_eq!(
                call(&mut req, first, 2.0),
                Action::Misuse,
                "{phase:?}: {first:?}"
            );
            // Every later call, the one the phase expected included and past the deadline too.
            for later in CALLS {
                for now in [3.0, 1e12] {
                    assert_eq!(
                        call(&mut req, later, now),
                        Action::Misuse,
                        "{phase:?}: {first:?} then {later:?} at {now}"
                    );
                    assert!(req.reply().is_none() && req.effect().is_none());
                    assert!(req.is_finished());
                    assert_eq!(req.timeout_ms(now), 0.0);
                }
            }
            let dropped = req.progress(1.0, None, None, 3.0);
            assert_eq!(dropped, pulse_core::progress::Reported::Dropped);
        }
    }
}

#[test]
fn calls_in_order_are_never_misuse() {
    // The complement of the table above: each phase's calls in order.
    let in_order: [(Phase, &[Call]); 5] = [
        (Phase::Fresh, &[Call::Head, Call::Tick, Call::Abort]),
        (
            Phase::Authorizing,
            &[Call::AnswerHttp, Call::Tick, Call::Abort],
        ),
        (
            Phase::Body,
            &[Call::Body, Call::End, Call::Tick, Call::Abort],
        ),
        (
            Phase::Pending,
            &[Call::AnswerHandler, Call::Tick, Call::Abort],
        ),
        (
            Phase::Done,
            &[
                Call::Head,
                Call::Body,
                Call::End,
                Call::AnswerHttp,
                Call::AnswerHandler,
                Call::Tick,
                Call::Abort,
            ],
        ),
    ];
    for (phase, calls) in in_order {
        for &c in calls {
            let mut req = at(phase);
            assert_ne!(call(&mut req, c, 2.0), Action::Misuse, "{phase:?}: {c:?}");
        }
        // Out of order plus in order is every call.
        let wrong = OUT_OF_ORDER
            .iter()
            .find(|(p, _)| *p == phase)
            .map(|(_, w)| *w);
        let mut all: Vec<Call> = calls.iter().chain(wrong.unwrap_or(&[])).copied().collect();
        all.sort_by_key(|c| CALLS.iter().position(|x| x == c));
        assert_eq!(all, CALLS.to_vec(), "{phase:?}");
    }
}
