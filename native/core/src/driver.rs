//! The one request loop for Rust hosts, over a small I/O trait (in the spirit of rustls's
//! `complete_io`): the host says how to read the body, perform an effect and tell the time; the
//! loop feeds the engine, bounds every wait by the engine's `timeout_ms`, and returns the reply.
//! `src/core/driver.ts` is its TypeScript mirror: the same loop, the same guard against a core
//! that keeps answering `Continue` with no time left.
use crate::effect::{
    Answer, CacheEntry, Effect, HandlerAnswer, HandlerEffect, HttpAnswer, HttpEffect, HttpFailure,
    RateAnswer, RateEffect,
};
use crate::engine::{Action, Engine, Request};
use crate::event::{Timings, Trail};
use crate::reply::Reply;

/// Body bytes read per call.
pub const CHUNK: usize = 16 * 1024;
/// `Continue` answers in a row, with no time left, before the loop gives up on the core (the
/// TypeScript driver's is generated from it: `shared::json`).
pub const MAX_ZERO_WAITS: u32 = 2;

/// One wait for request body bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyRead {
    /// This many bytes were copied into the buffer.
    Data(usize),
    End,
    /// The read failed or the client went away.
    Failed,
    /// Nothing arrived within the wait.
    Waiting,
}

/// How one HTTP exchange ended (the bytes read are in the caller's buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpRead {
    Response(u16),
    Failed(HttpFailure),
}

/// What a host does for the core. Every wait is bounded by the `wait_ms` it is given.
pub trait HostIo {
    /// Monotonic milliseconds; the origin is the host's choice.
    fn now(&mut self) -> f64;
    /// Wall-clock milliseconds since the Unix epoch, read once per request: it dates the expiry of
    /// multi-round `requestState`. NaN when the host has no clock (such state is then refused).
    fn epoch_ms(&mut self) -> f64;
    /// Waits at most `wait_ms` for request body bytes.
    fn read_body(&mut self, buf: &mut [u8], wait_ms: f64) -> BodyRead;
    /// Performs `effect` within `wait_ms`: sends exactly what it says, follows no redirect, and
    /// stops reading once more than `effect.max_bytes` bytes were put in `body`.
    fn http(&mut self, effect: &HttpEffect, wait_ms: f64, body: &mut Vec<u8>) -> HttpRead;
    /// Runs a JavaScript handler within `wait_ms`, writing its output JSON to `output`; `false`
    /// when it failed (a host without JavaScript always answers `false`).
    fn handler(&mut self, effect: &HandlerEffect, wait_ms: f64, output: &mut Vec<u8>) -> bool;
    /// The introspection cache's fresh entry under `key`, its value copied into `value`; `false`
    /// when there is none. A host without a store keeps the default.
    fn cache_lookup(&mut self, _key: &str, _value: &mut Vec<u8>) -> bool {
        false
    }
    /// Keeps `entry.value` under `entry.key` for at most `entry.ttl_ms` (a host may forget it
    /// sooner).
    fn cache_store(&mut self, _entry: &CacheEntry) {}
    /// The client's address (the TCP peer, or what a trusted proxy vouches for), asked only when a
    /// rate limit counts per address; `None` when the host knows none.
    fn client_address(&mut self) -> Option<String> {
        None
    }
    /// Performs a rate effect on the host's rate counter and penalty box, at once. Required: a
    /// host that did not count would silently lift every limit.
    fn rate(&mut self, effect: &RateEffect) -> RateAnswer;
    /// Whether the host publishes request events; asked once per request, before it starts.
    fn observing(&mut self) -> bool {
        false
    }
    /// The finished request's event: the core's JSON (`event.rs`) and the timings the driver
    /// measured; [`Timings::complete`] writes them together with the host's target.
    fn event(&mut self, _core: &[u8], _timings: &Timings) {}
}

/// Runs one request to its reply, which the host sends verbatim. A core that breaks its contract
/// yields [`Reply::internal_error`].
pub fn drive<H, I, N, V>(
    engine: &Engine,
    io: &mut H,
    method: &[u8],
    target: &[u8],
    lines: I,
) -> Reply
where
    H: HostIo,
    I: IntoIterator<Item = (N, V)>,
    N: AsRef<[u8]>,
    V: AsRef<[u8]>,
{
    let observing = io.observing();
    let mut req = engine.request_at(io.now(), io.epoch_ms());
    if engine.needs_client_address() {
        if let Some(address) = io.client_address() {
            req.client(&address);
        }
    }
    let now = io.now();
    let first = req.head(method, target, lines, now);
    let mut timings = Timings::default();
    let reply = run(&mut req, io, first, observing.then_some(&mut timings))
        .unwrap_or_else(Reply::internal_error);
    if observing {
        timings.total_ms = io.now() - now;
        let mut core = Vec::new();
        if !req.event(&mut core) {
            // The loop gave up on the core: the event of the host's own 500.
            Trail::default().write(&reply, &mut core);
        }
        io.event(&core, &timings);
    }
    reply
}

fn run<H: HostIo>(
    req: &mut Request,
    io: &mut H,
    mut action: Action,
    mut timings: Option<&mut Timings>,
) -> Option<Reply> {
    let mut buf = vec![0u8; CHUNK];
    let mut scratch = Vec::new();
    let mut ended = false;
    let mut zero_waits = 0;
    // Each iteration consumes one event; the engine's deadline bounds how many can occur.
    loop {
        action = match action {
            Action::Respond => return req.reply().cloned(),
            Action::Misuse => return None,
            Action::Perform => {
                let started = if timings.is_some() { io.now() } else { 0.0 };
                let a = perform(req, io, &mut scratch)?;
                if let Some(t) = timings.as_deref_mut() {
                    t.effects_ms += io.now() - started;
                }
                a
            }
            // `Continue` after the body ended breaks the contract.
            Action::Continue if ended => return None,
            Action::Continue => {
                let asked = io.now();
                let wait = req.timeout_ms(asked);
                let event = if wait > 0.0 {
                    io.read_body(&mut buf, wait)
                } else {
                    BodyRead::Waiting
                };
                let now = io.now();
                if let Some(t) = timings.as_deref_mut() {
                    t.body_ms += now - asked;
                }
                match event {
                    BodyRead::Data(n) => req.body(&buf[..n.min(buf.len())], now),
                    BodyRead::End => {
                        ended = true;
                        req.end(now)
                    }
                    BodyRead::Failed => final_of(req.abort(now))?,
                    BodyRead::Waiting => {
                        let a = req.tick(now);
                        zero_waits = if wait > 0.0 { 0 } else { zero_waits + 1 };
                        if a == Action::Continue && zero_waits > MAX_ZERO_WAITS {
                            return None;
                        }
                        a
                    }
                }
            }
        };
    }
}

/// After `abort` the engine must answer; anything else is a broken contract.
fn final_of(a: Action) -> Option<Action> {
    match a {
        Action::Respond => Some(a),
        _ => None,
    }
}

enum Performed {
    Http(HttpRead),
    Handler(bool),
    Cached,
    Rate(RateAnswer),
}

fn perform<H: HostIo>(req: &mut Request, io: &mut H, scratch: &mut Vec<u8>) -> Option<Action> {
    let now = io.now();
    let left = req.timeout_ms(now);
    if left <= 0.0 {
        // The end-to-end deadline passed: the engine answers 408 itself.
        return final_of(req.tick(now));
    }
    scratch.clear();
    let performed = match req.effect()? {
        Effect::Http(h) if matches!(&h.cache_key, Some(k) if io.cache_lookup(k, scratch)) => {
            Performed::Cached
        }
        Effect::Http(h) => Performed::Http(io.http(h, left.min(h.timeout_ms as f64), scratch)),
        Effect::Handler(h) => {
            Performed::Handler(io.handler(h, left.min(h.timeout_ms as f64), scratch))
        }
        Effect::Rate(r) => Performed::Rate(io.rate(r)),
    };
    let now = io.now();
    let action = match performed {
        Performed::Http(HttpRead::Response(status)) => req.answer_http(
            HttpAnswer::Response {
                status,
                body: scratch,
            },
            now,
        ),
        Performed::Http(HttpRead::Failed(f)) => req.answer_http(HttpAnswer::Failed(f), now),
        Performed::Handler(true) => req.answer_handler(HandlerAnswer::Output(scratch), now),
        Performed::Handler(false) => req.answer_handler(HandlerAnswer::Failed, now),
        Performed::Cached => req.answer_cached(scratch, now),
        Performed::Rate(a) => req.answer(Answer::Rate(a), now),
    };
    if let Some(entry) = req.take_cache_entry() {
        io.cache_store(&entry);
    }
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A scripted host: body events in order, a clock advanced by every wait, recorded effects.
    struct Script {
        clock: f64,
        body: VecDeque<(f64, BodyRead, &'static [u8])>,
        http: Option<(f64, HttpRead, &'static [u8])>,
        effects: Vec<String>,
    }

    impl HostIo for Script {
        fn now(&mut self) -> f64 {
            self.clock
        }
        fn epoch_ms(&mut self) -> f64 {
            1_780_000_000_000.0 + self.clock
        }
        fn read_body(&mut self, buf: &mut [u8], wait_ms: f64) -> BodyRead {
            match self.body.pop_front() {
                Some((after, _, _)) if after > wait_ms => {
                    self.clock += wait_ms;
                    BodyRead::Waiting
                }
                Some((after, event, bytes)) => {
                    self.clock += after;
                    buf[..bytes.len()].copy_from_slice(bytes);
                    event
                }
                None => {
                    self.clock += wait_ms;
                    BodyRead::Waiting
                }
            }
        }
        fn http(&mut self, effect: &HttpEffect, wait_ms: f64, body: &mut Vec<u8>) -> HttpRead {
            self.effects.push(format!(
                "{} {} {}",
                effect.method.as_str(),
                effect.url,
                wait_ms
            ));
            match self.http.take() {
                Some((after, _, _)) if after > wait_ms => {
                    self.clock += wait_ms;
                    HttpRead::Failed(HttpFailure::TimedOut)
                }
                Some((after, read, bytes)) => {
                    self.clock += after;
                    body.extend_from_slice(bytes);
                    read
                }
                None => HttpRead::Failed(HttpFailure::Unreachable),
            }
        }
        fn handler(&mut self, effect: &HandlerEffect, _: f64, _: &mut Vec<u8>) -> bool {
            self.effects.push(format!("handler {}", effect.op));
            false
        }
        fn rate(&mut self, _: &RateEffect) -> RateAnswer {
            unreachable!("no rate limit is configured")
        }
    }

    fn headers(name: &'static str) -> [(&'static str, &'static str); 5] {
        [
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", name),
        ]
    }

    fn call(name: &str) -> Vec<u8> {
        format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{}","arguments":{{"s":"a"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#, name).into_bytes()
    }

    fn engine() -> Engine {
        let cfg = format!(r#"{{"tools":{}}}"#, crate::tools::tests::manifest());
        Engine::new(cfg.as_bytes()).unwrap()
    }

    fn script(body: Vec<(f64, BodyRead, &'static [u8])>) -> Script {
        Script {
            clock: 0.0,
            body: body.into(),
            http: None,
            effects: Vec::new(),
        }
    }

    fn leak(v: Vec<u8>) -> &'static [u8] {
        Box::leak(v.into_boxed_slice())
    }

    #[test]
    fn a_backend_call_is_performed_once_and_answered() {
        let e = engine();
        let body = leak(call("remote"));
        let mut io = script(vec![
            (1.0, BodyRead::Data(body.len()), body),
            (1.0, BodyRead::End, b""),
        ]);
        io.http = Some((5.0, HttpRead::Response(200), br#"{"s":"b"}"#));
        let r = drive(&e, &mut io, b"POST", b"/mcp", headers("remote"));
        assert_eq!(r.status, 200);
        assert!(std::str::from_utf8(&r.body)
            .unwrap()
            .contains(r#""structuredContent":{"s":"b"}"#));
        // The wait is the smaller of the effect's budget (2000) and what is left of 10 s.
        assert_eq!(io.effects, ["POST https://api.example/v1/echo 2000"]);
    }

    #[test]
    fn the_deadline_ends_a_stalled_body_and_a_slow_effect() {
        let e = engine();
        let mut io = script(vec![]);
        let r = drive(&e, &mut io, b"POST", b"/mcp", headers("remote"));
        assert_eq!((r.status, r.close), (408, true));
        assert_eq!(io.clock, 10_000.0);

        let body = leak(call("remote"));
        let mut io = script(vec![
            (9_000.0, BodyRead::Data(body.len()), body),
            (0.0, BodyRead::End, b""),
        ]);
        io.http = Some((5_000.0, HttpRead::Response(200), b"{}"));
        let r = drive(&e, &mut io, b"POST", b"/mcp", headers("remote"));
        assert_eq!(r.status, 408);
        assert_eq!(io.effects, ["POST https://api.example/v1/echo 1000"]);
        assert!(std::str::from_utf8(&r.body).unwrap().contains(r#""id":7"#));
    }

    #[test]
    fn a_failed_read_and_a_host_without_javascript() {
        let e = engine();
        let mut io = script(vec![(1.0, BodyRead::Failed, b"")]);
        assert_eq!(
            drive(&e, &mut io, b"POST", b"/mcp", headers("remote")).status,
            408
        );
        let body = leak(call("echo"));
        let mut io = script(vec![
            (1.0, BodyRead::Data(body.len()), body),
            (1.0, BodyRead::End, b""),
        ]);
        let r = drive(&e, &mut io, b"POST", b"/mcp", headers("echo"));
        assert_eq!(r.status, 200);
        assert!(std::str::from_utf8(&r.body)
            .unwrap()
            .contains(r#""isError":true"#));
        assert_eq!(io.effects, ["handler echo"]);
    }

    #[test]
    fn a_broken_head_is_the_hosts_internal_error() {
        let e = engine();
        let mut io = script(vec![]);
        let r = drive(&e, &mut io, b"", b"/mcp", headers("remote"));
        assert_eq!(r, Reply::internal_error());
    }
}
