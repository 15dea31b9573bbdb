//! The request state machine over fuzzed heads, bodies and chunkings: it never panics, answers
//! once and keeps answering the same reply, refuses out-of-order calls, and the reply does not
//! depend on how the body was cut.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pulse_core::effect::{Answer, RateAnswer, RateOp};
use pulse_core::{record, Action, Effect, Engine, HandlerAnswer, HttpAnswer, HttpFailure, Request};
use pulse_core_fuzz::split;

/// One static tool and a JavaScript tool, so tools/call reaches the handler effect, each call counted
/// by a rate limit first (the rate effect).
const CONFIG: &str = r#"{"tools":{"formatVersion":1,"routerId":"fz","catalogHash":"h","deadlineMs":5000,
  "list":"[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"js\",\"inputSchema\":{\"type\":\"object\"}}]",
  "tools":[{"name":"echo","input":[["string",0,8],["object",0,[["q",0,0]]]],"output":null,"handler":{"kind":"static"}},
           {"name":"js","input":null,"output":null,"handler":{"kind":"javascript"}}],"corpora":{}},
  "rateLimit":{"toolCalls":{"limit":2}}}"#;

const HEADS: [&str; 3] = [
    "POST /mcp 203.0.113.9\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\nmcp-name: js\r\n",
    "POST /mcp\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: server/discover\r\n",
    "POST /mcp\r\ncontent-type: application/json\r\naccept: application/json\r\n",
];

thread_local! {
    static ENGINE: Engine = Engine::new(CONFIG.as_bytes()).expect("the fuzz configuration");
}

/// Drives one request; returns the reply record, or None when the core asked for misuse handling.
fn drive(engine: &Engine, head: &[u8], chunks: &[&[u8]], answer: u8) -> Option<Vec<u8>> {
    let mut req = engine.request(0.0);
    // A head the core cannot take (not a head record, a bad method or target) is the host's
    // misuse: nothing else may happen on that request.
    let mut action = match record::head(head) {
        Some((m, t, client, lines)) => {
            if let Some(c) = client.and_then(|c| std::str::from_utf8(c).ok()) {
                req.client(c);
            }
            req.head(m, t, lines, 1.0)
        }
        None => return None,
    };
    if action == Action::Misuse {
        assert_eq!(req.body(b"{}", 2.0), Action::Misuse);
        return None;
    }
    let mut rest = chunks.iter();
    let mut ended = false;
    // Bounded: each step feeds a chunk, ends the body, or answers the one effect.
    for step in 0..(chunks.len() + 8) {
        action = match action {
            Action::Respond => break,
            Action::Misuse => panic!("misuse from in-order calls"),
            Action::Continue => match rest.next() {
                Some(c) => req.body(c, 2.0),
                None if !ended => {
                    ended = true;
                    req.end(3.0)
                }
                None => panic!("continue after end without an effect"),
            },
            Action::Perform => {
                if step > chunks.len() + 6 {
                    panic!("effects without end");
                }
                // A rate effect gets an answer fit for its operation, chosen by `answer`.
                let rate = match req.effect() {
                    Some(Effect::Rate(r)) => Some(match (r.op, answer % 4) {
                        (RateOp::Penalize { .. }, 0 | 1) => RateAnswer::Penalized,
                        (RateOp::Penalize { .. }, _) | (RateOp::Count { .. }, 3) => {
                            RateAnswer::Failed
                        }
                        (RateOp::Count { .. }, 2) => RateAnswer::Counted {
                            boxed: true,
                            count: 0,
                        },
                        (RateOp::Count { .. }, n) => RateAnswer::Counted {
                            boxed: false,
                            count: u32::from(answer / 4) + u32::from(n),
                        },
                    }),
                    _ => None,
                };
                if let Some(a) = rate {
                    action = req.answer(Answer::Rate(a), 4.0);
                    continue;
                }
                let http = matches!(req.effect(), Some(Effect::Http(_)));
                match (http, answer % 2) {
                    (true, _) => req.answer_http(HttpAnswer::Failed(HttpFailure::TimedOut), 4.0),
                    (false, 0) => req.answer_handler(HandlerAnswer::Failed, 4.0),
                    (false, _) => req.answer_handler(HandlerAnswer::Output(b"{\"ok\":true}"), 4.0),
                }
            }
        };
    }
    assert_eq!(action, Action::Respond, "no reply");
    let mut first = Vec::new();
    record::reply(&mut first, req.reply().expect("a reply"));
    // Finished: every later call repeats the same reply.
    assert_eq!(req.body(b"x", 5.0), Action::Respond);
    assert_eq!(req.end(6.0), Action::Respond);
    assert_eq!(req.tick(1e12), Action::Respond);
    let mut again = Vec::new();
    record::reply(&mut again, req.reply().expect("a reply"));
    assert_eq!(first, again);
    Some(first)
}

/// The reply without its `connection` line: an early reply closes, a late one need not.
fn comparable(rec: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(rec);
    text.split("\r\n")
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .collect::<Vec<_>>()
        .join("\r\n")
        .into_bytes()
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (pick, answer, ncuts) = (data[0], data[1], (data[2] % 8) as usize);
    let rest = &data[3..];
    if rest.len() < ncuts {
        return;
    }
    let (cuts, rest) = rest.split_at(ncuts);
    // The head is one of the fixed heads, or fuzzed bytes up to the first NUL.
    let (head, body): (Vec<u8>, &[u8]) = match pick % 4 {
        3 => match rest.iter().position(|&b| b == 0) {
            Some(i) => (rest[..i].to_vec(), &rest[i + 1..]),
            None => (rest.to_vec(), &[][..]),
        },
        n => (HEADS[n as usize].as_bytes().to_vec(), rest),
    };
    ENGINE.with(|engine| {
        let whole = drive(engine, &head, &[body], answer);
        let cut = drive(engine, &head, &split(body, cuts), answer);
        match (whole, cut) {
            (Some(a), Some(b)) => assert_eq!(
                comparable(&a),
                comparable(&b),
                "the reply depends on the chunking"
            ),
            (None, None) => {}
            _ => panic!("the head verdict depends on the chunking"),
        }
        let mut req: Request = engine.request(0.0);
        assert_eq!(req.body(b"{}", 1.0), Action::Misuse, "body before head");
    });
});
