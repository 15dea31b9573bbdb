//! The request loop of the Native service: the downstream head and body go into the core chunk by
//! chunk, each wait bounded by the core's `timeout_ms`; backend instructions are performed with
//! `send_async` and abandoned at their deadline (select timeouts, never a blocking wait); the
//! core's response record goes out verbatim.
use std::time::Instant;

use pulse_core::{Action, Engine, Request};

use crate::fastly::{self, Handle};
use crate::record::{self, BackendCall, Instruction};

/// Body bytes read per hostcall; each chunk goes to the core as received.
const CHUNK: usize = 16 * 1024;
/// The longest single select; longer waits re-arm.
const MAX_WAIT_MS: f64 = 60_000.0;

enum Step {
    Continue,
    Respond(Vec<u8>),
    Call(Vec<u8>),
    Misuse,
}

fn own(a: Action<'_>) -> Step {
    match a {
        Action::Continue => Step::Continue,
        Action::Respond(b) => Step::Respond(b.to_vec()),
        Action::Call(b) => Step::Call(b.to_vec()),
        Action::Misuse => Step::Misuse,
    }
}

struct Clock(Instant);

impl Clock {
    fn now(&self) -> f64 {
        self.0.elapsed().as_secs_f64() * 1000.0
    }
}

fn wait_ms(ms: f64) -> u32 {
    ms.min(MAX_WAIT_MS).ceil().max(1.0) as u32
}

/// The engine built at pre-initialization (one instance serves one request: no sharing).
static mut PREBUILT: Option<Engine> = None;

pub fn prebuild(config: &[u8]) {
    if let Ok(e) = Engine::new(config) {
        // SAFETY: wasm32 here is single-threaded and nothing else holds a reference to PREBUILT.
        unsafe { PREBUILT = Some(e) };
    }
}

pub fn run(config: &[u8]) {
    fastly::init();
    let clock = Clock(Instant::now());
    let (req, body) = match fastly::downstream() {
        Ok(x) => x,
        Err(_) => return,
    };
    // SAFETY: as in `prebuild`; `take` moves the engine out once, before any other use.
    let prebuilt = unsafe { PREBUILT.take() };
    let engine = match prebuilt.map(Ok).unwrap_or_else(|| Engine::new(config)) {
        Ok(e) => e,
        Err(_) => return send_internal(),
    };
    let head = match read_head(req) {
        Ok(h) => h,
        Err(_) => return send_internal(),
    };
    let mut r = engine.request(clock.now());
    let first = own(r.head(&head, clock.now()));
    match drive(&mut r, first, body, &clock) {
        Some(rec) => send_record(&rec),
        None => send_internal(),
    }
}

fn read_head(req: Handle) -> Result<Vec<u8>, fastly::Status> {
    let method = fastly::method(req)?;
    let uri = fastly::uri(req)?;
    let target = record::request_target(&String::from_utf8_lossy(&uri));
    let mut head = record::head_start(&method, &target);
    for name in fastly::header_names(req)? {
        for value in fastly::header_values(req, &name)? {
            record::head_line(&mut head, &name, &value);
        }
    }
    Ok(head)
}

/// Runs the state machine to its response record; `None` when the core broke the contract.
fn drive(r: &mut Request, mut step: Step, body: Handle, clock: &Clock) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; CHUNK];
    let mut end_sent = false;
    loop {
        step = match step {
            Step::Respond(rec) => return Some(rec),
            Step::Misuse => return None,
            Step::Call(instr) => perform(r, &instr, clock),
            Step::Continue if end_sent => return None,
            Step::Continue => {
                let wait = r.timeout_ms(clock.now());
                let ready = wait > 0.0
                    && matches!(fastly::select(&[body], wait_ms(wait)), Ok(Some(_)) | Err(_));
                if !ready {
                    let s = own(r.tick(clock.now()));
                    // A tick that neither answers nor leaves time to wait would spin.
                    if matches!(s, Step::Continue) && r.timeout_ms(clock.now()) <= 0.0 {
                        return None;
                    }
                    s
                } else {
                    match fastly::body_read(body, &mut buf) {
                        Ok(0) => {
                            end_sent = true;
                            own(r.end(clock.now()))
                        }
                        Ok(n) => own(r.body(&buf[..n], clock.now())),
                        Err(_) => match own(r.abort(clock.now())) {
                            s @ Step::Respond(_) => s,
                            _ => return None,
                        },
                    }
                }
            }
        };
    }
}

fn perform(r: &mut Request, instr: &[u8], clock: &Clock) -> Step {
    let payload = match record::parse_instruction(instr) {
        Instruction::Backend(call) => {
            let limit = call.timeout_ms.min(r.timeout_ms(clock.now()));
            backend(&call, clock.now() + limit, clock)
        }
        Instruction::Unavailable {
            backend_shaped: true,
        } => record::REFUSED.to_vec(),
        Instruction::Unavailable {
            backend_shaped: false,
        } => record::HANDLER_UNAVAILABLE.to_vec(),
    };
    own(r.resume(&payload, clock.now()))
}

/// Waits for `h` until `deadline`; false once the deadline passed first.
fn ready_by(h: Handle, deadline: f64, clock: &Clock) -> bool {
    loop {
        let left = deadline - clock.now();
        if left <= 0.0 {
            return false;
        }
        match fastly::select(&[h], wait_ms(left)) {
            Ok(Some(_)) | Err(_) => return true,
            Ok(None) => continue,
        }
    }
}

fn authority(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(&['/', '?', '#'][..]).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// One governed backend call: no retry, the reply read within `max_bytes`, abandoned at `deadline`.
fn backend(call: &BackendCall, deadline: f64, clock: &Clock) -> Vec<u8> {
    if deadline <= clock.now() {
        return record::TIMEOUT.to_vec();
    }
    let sent = (|| {
        let req = fastly::request_new()?;
        fastly::request_method_set(req, &call.method)?;
        fastly::request_uri_set(req, &call.url)?;
        if !call
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("host"))
        {
            if let Some(a) = authority(&call.url) {
                fastly::request_header_append(req, "host", a)?;
            }
        }
        for (n, v) in &call.headers {
            fastly::request_header_append(req, n, v)?;
        }
        let body = fastly::body_new()?;
        if let Some(text) = &call.body {
            fastly::body_write_all(body, text.as_bytes())?;
        }
        fastly::send_async(req, body, &call.backend)
    })();
    let pending = match sent {
        Ok(p) => p,
        Err(_) => return record::REFUSED.to_vec(),
    };
    // The pending request is simply dropped at the deadline; the platform closes it with the instance.
    if !ready_by(pending, deadline, clock) {
        return record::TIMEOUT.to_vec();
    }
    let (resp, rbody) = match fastly::pending_wait(pending) {
        Ok(x) => x,
        Err(_) => return record::REFUSED.to_vec(),
    };
    let status = match fastly::response_status(resp) {
        Ok(s) => s,
        Err(_) => return record::REFUSED.to_vec(),
    };
    let mut data = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    loop {
        if !ready_by(rbody, deadline, clock) {
            return record::TIMEOUT.to_vec();
        }
        match fastly::body_read(rbody, &mut buf) {
            Ok(0) => break,
            Ok(n) => {
                data.extend_from_slice(&buf[..n]);
                if data.len() > call.max_bytes {
                    return record::OVERSIZED.to_vec();
                }
            }
            Err(_) => return record::REFUSED.to_vec(),
        }
    }
    record::backend_ok(status, &data)
}

fn send(status: u16, headers: &[(&[u8], &[u8])], body: &[u8]) -> Result<(), fastly::Status> {
    let resp = fastly::response_new()?;
    fastly::response_status_set(resp, status)?;
    for (n, v) in headers {
        // Framing is the platform's; `connection: close` only says the body was left unread.
        if n.eq_ignore_ascii_case(b"connection") {
            continue;
        }
        fastly::response_header_append(resp, n, v)?;
    }
    let b = fastly::body_new()?;
    fastly::body_write_all(b, body)?;
    fastly::send_downstream(resp, b)
}

fn send_record(rec: &[u8]) {
    match record::parse_response(rec) {
        Some(r) => {
            if send(r.status, &r.headers, r.body).is_err() {
                send_internal();
            }
        }
        None => send_internal(),
    }
}

fn send_internal() {
    let headers: Vec<(&[u8], &[u8])> = record::INTERNAL_HEADERS
        .iter()
        .map(|(n, v)| (n.as_bytes(), v.as_bytes()))
        .collect();
    let _ = send(record::INTERNAL_STATUS, &headers, record::INTERNAL_BODY);
}
