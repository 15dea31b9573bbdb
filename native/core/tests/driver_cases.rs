//! Every case of spec/driver-cases.json run through the Rust driver with a scripted host: body
//! events at given times on a clock that only the host's waits advance, effects answered after given
//! delays, and the host-visible events recorded. The TypeScript driver runs the same cases
//! (test/core/driver-cases.test.ts). Every case runs; the failures are reported together.
use pulse_core::driver::{self, BodyRead, HostIo, HttpRead};
use pulse_core::effect::{CacheEntry, RateAnswer, RateEffect, RateOp};
use pulse_core::json::{self, Object, Value};
use pulse_core::{Engine, HandlerEffect, HttpEffect, HttpFailure};
use std::collections::VecDeque;
use std::fmt::Write as _;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/driver-cases.json");
const DEPTH: u32 = 64;
const DRIVER: &str = "rust";

fn member<'a>(o: &Object<'a>, key: &str) -> Value<'a> {
    o.get(key)
        .unwrap_or_else(|| panic!("cases: member {key} missing"))
}

fn text(v: Value<'_>) -> String {
    v.as_string()
        .expect("cases: a string")
        .as_str()
        .into_owned()
}

fn number(v: Value<'_>) -> f64 {
    v.as_number().expect("cases: a number").as_f64()
}

enum BodyEvent {
    Data(Vec<u8>),
    End,
    Failed,
}

/// An effect's answer after `after` milliseconds; `None` for a failure.
struct Answer {
    after: f64,
    reply: Option<(u16, Vec<u8>)>,
}

/// The host of one case: the clock moves when the host waits, and where a body event says so
/// (`clockAfter`: the host was held up right after the driver's first look at the clock).
struct Script {
    clock: f64,
    jump: Option<f64>,
    body: VecDeque<(f64, BodyEvent, Option<f64>)>,
    body_over: bool,
    http: Option<Answer>,
    /// `None`: a host without JavaScript.
    handler: Option<Answer>,
    /// The introspection cache's fresh entry, under whichever key the effect names.
    cached: Option<Vec<u8>>,
    /// The client's address the host reports, and its rate store's answers in order.
    client: Option<String>,
    rate: VecDeque<RateAnswer>,
    events: Vec<String>,
}

impl HostIo for Script {
    fn now(&mut self) -> f64 {
        let now = self.clock;
        if let Some(to) = self.jump.take() {
            self.clock = to;
        }
        now
    }
    fn epoch_ms(&mut self) -> f64 {
        1_780_000_000_000.0 + self.clock
    }
    fn read_body(&mut self, buf: &mut [u8], wait_ms: f64) -> BodyRead {
        match self.body.front() {
            Some((at, _, _)) if *at <= self.clock + wait_ms => {
                self.clock = self.clock.max(*at);
                let (_, event, jump) = self.body.pop_front().expect("a body event");
                self.jump = jump;
                match event {
                    BodyEvent::Data(bytes) => {
                        buf[..bytes.len()].copy_from_slice(&bytes);
                        BodyRead::Data(bytes.len())
                    }
                    BodyEvent::End => {
                        self.body_over = true;
                        BodyRead::End
                    }
                    BodyEvent::Failed => {
                        self.body_over = true;
                        BodyRead::Failed
                    }
                }
            }
            _ => {
                self.clock += wait_ms;
                BodyRead::Waiting
            }
        }
    }
    fn http(&mut self, effect: &HttpEffect, wait_ms: f64, body: &mut Vec<u8>) -> HttpRead {
        self.events.push(format!(
            "http {} {} at {}",
            effect.method.as_str(),
            effect.url,
            self.clock
        ));
        match self.http.take() {
            Some(a) if a.after <= wait_ms => {
                self.clock += a.after;
                match a.reply {
                    Some((status, bytes)) => {
                        body.extend_from_slice(&bytes);
                        HttpRead::Response(status)
                    }
                    None => HttpRead::Failed(HttpFailure::Unreachable),
                }
            }
            _ => {
                self.clock += wait_ms;
                HttpRead::Failed(HttpFailure::TimedOut)
            }
        }
    }
    fn handler(&mut self, effect: &HandlerEffect, wait_ms: f64, output: &mut Vec<u8>) -> bool {
        let answer = match self.handler.take() {
            Some(a) => a,
            None => return false,
        };
        self.events
            .push(format!("handler {} at {}", effect.op, self.clock));
        if answer.after > wait_ms {
            self.clock += wait_ms;
            return false;
        }
        self.clock += answer.after;
        match answer.reply {
            Some((_, bytes)) => {
                output.extend_from_slice(&bytes);
                true
            }
            None => false,
        }
    }
    fn client_address(&mut self) -> Option<String> {
        self.client.clone()
    }
    fn rate(&mut self, effect: &RateEffect) -> RateAnswer {
        let op = match effect.op {
            RateOp::Count { window_s, charge } => {
                format!(
                    "count {window_s} {}",
                    if charge { "charge" } else { "peek" }
                )
            }
            RateOp::Penalize { ttl_s } => format!("penalize {ttl_s}"),
        };
        self.events.push(format!(
            "rate {} {} {} {op} at {}",
            effect.rate_counter, effect.penalty_box, effect.entry, self.clock
        ));
        self.rate
            .pop_front()
            .expect("cases: a rate answer for every rate effect")
    }
    fn cache_lookup(&mut self, _: &str, value: &mut Vec<u8>) -> bool {
        match &self.cached {
            Some(v) => {
                self.events.push(format!("cache hit at {}", self.clock));
                value.extend_from_slice(v);
                true
            }
            None => false,
        }
    }
    fn cache_store(&mut self, entry: &CacheEntry) {
        self.events.push(format!(
            "cache store {} for {} ms",
            String::from_utf8_lossy(&entry.value),
            entry.ttl_ms
        ));
    }
}

fn answer(v: Option<Value<'_>>, with_status: bool) -> Option<Answer> {
    let o = v?.as_object().expect("cases: an answer is an object");
    let failed = o.get("unreachable").or_else(|| o.get("failed")).is_some();
    let reply = if failed {
        None
    } else if with_status {
        Some((
            number(member(&o, "status")) as u16,
            text(member(&o, "body")).into_bytes(),
        ))
    } else {
        Some((0, text(member(&o, "output")).into_bytes()))
    };
    Some(Answer {
        after: number(member(&o, "after")),
        reply,
    })
}

/// `{"counted": n}`, `{"boxed": true}`, `{"penalized": true}` or `{"failed": true}`.
fn rate_answer(v: Value<'_>) -> RateAnswer {
    let o = v.as_object().expect("cases: a rate answer is an object");
    if let Some(n) = o.get("counted") {
        RateAnswer::Counted {
            boxed: false,
            count: number(n) as u32,
        }
    } else if o.get("boxed").is_some() {
        RateAnswer::Counted {
            boxed: true,
            count: 0,
        }
    } else if o.get("penalized").is_some() {
        RateAnswer::Penalized
    } else {
        RateAnswer::Failed
    }
}

fn script(case: &Object<'_>) -> Script {
    let body = member(case, "body")
        .as_array()
        .expect("cases: body is an array")
        .iter()
        .map(|e| {
            let e = e.as_object().expect("cases: a body event is an object");
            let event = if let Some(t) = e.get("text") {
                BodyEvent::Data(text(t).into_bytes())
            } else if e.get("end").is_some() {
                BodyEvent::End
            } else {
                BodyEvent::Failed
            };
            (
                number(member(&e, "at")),
                event,
                e.get("clockAfter").map(number),
            )
        })
        .collect();
    Script {
        clock: 0.0,
        jump: None,
        body,
        body_over: false,
        http: answer(case.get("http"), true),
        handler: answer(case.get("handler"), false),
        cached: case.get("cached").map(|v| text(v).into_bytes()),
        client: case.get("client").map(text),
        rate: case
            .get("rate")
            .map(|r| r.as_array().expect("cases: rate is an array"))
            .into_iter()
            .flat_map(|r| r.iter())
            .map(rate_answer)
            .collect(),
        events: Vec::new(),
    }
}

/// The expectation for this driver: the case's own, or its `rust` member where the drivers differ.
fn expected<'a>(case: &Object<'a>) -> Object<'a> {
    let e = member(case, "expect").as_object().expect("cases: expect");
    match e.get(DRIVER) {
        Some(own) => own.as_object().expect("cases: expect.rust"),
        None => e,
    }
}

fn run(case: &Object<'_>, engine: &Engine) -> Result<(), String> {
    let head = member(case, "head").as_object().expect("cases: head");
    let lines: Vec<(String, String)> = member(&head, "headers")
        .as_array()
        .expect("cases: headers")
        .iter()
        .map(|h| {
            let h = h.as_array().expect("cases: a header is a pair");
            (
                text(h.get(0).expect("name")),
                text(h.get(1).expect("value")),
            )
        })
        .collect();
    let mut io = script(case);
    let method = text(member(&head, "method"));
    let target = text(member(&head, "target"));
    let reply = driver::drive(engine, &mut io, method.as_bytes(), target.as_bytes(), lines);
    // The host stops reading a body the reply came before (it cancels it or closes the connection).
    if !io.body_over {
        io.events.push("body cancelled".into());
    }
    let want = expected(case);
    let mut diff = String::new();
    let status = number(member(&want, "status")) as u16;
    if reply.status != status {
        let _ = writeln!(diff, "  status: got {}, want {}", reply.status, status);
    }
    let close = member(&want, "close").as_bool().expect("cases: close");
    if reply.close != close {
        let _ = writeln!(diff, "  close: got {}, want {}", reply.close, close);
    }
    let body = text(member(&want, "body"));
    if reply.body != body.as_bytes() {
        let got = String::from_utf8_lossy(&reply.body);
        let _ = writeln!(diff, "  body: got {got}\n        want {body}");
    }
    let events: Vec<String> = member(&want, "events")
        .as_array()
        .expect("cases: events")
        .iter()
        .map(text)
        .collect();
    if io.events != events {
        let _ = writeln!(diff, "  events: got {:?}, want {:?}", io.events, events);
    }
    if diff.is_empty() {
        Ok(())
    } else {
        Err(diff)
    }
}

#[test]
fn every_driver_case() {
    let bytes = std::fs::read(CASES).expect("spec/driver-cases.json");
    let doc = json::parse(&bytes, DEPTH).expect("spec/driver-cases.json is JSON");
    let root = doc.root().as_object().expect("cases: an object");
    // Cases marked `authorized` run with the configuration's `authorization` added, those marked
    // `rateLimited` with its `rateLimit`.
    let engines: Vec<Engine> = [(false, false), (true, false), (false, true), (true, true)]
        .iter()
        .map(|&(authorized, limited)| {
            let mut config = Vec::new();
            json::write::value(&mut config, member(&root, "config"));
            for (on, key) in [(authorized, "authorization"), (limited, "rateLimit")] {
                if on {
                    config.pop();
                    config.extend_from_slice(format!(",\"{key}\":").as_bytes());
                    json::write::value(&mut config, member(&root, key));
                    config.push(b'}');
                }
            }
            Engine::new(&config).expect("cases: a configuration")
        })
        .collect();
    let cases = member(&root, "cases").as_array().expect("cases: cases");
    assert!(!cases.is_empty());
    let mut failures = String::new();
    for case in cases.iter() {
        let case = case.as_object().expect("cases: a case is an object");
        let flag = |key: &str| matches!(case.get(key), Some(Value::Bool(true)));
        let engine =
            &engines[usize::from(flag("authorized")) + 2 * usize::from(flag("rateLimited"))];
        if let Err(diff) = run(&case, engine) {
            let _ = write!(failures, "{}:\n{diff}", text(member(&case, "name")));
        }
    }
    assert!(failures.is_empty(), "driver cases failed:\n{failures}");
}
