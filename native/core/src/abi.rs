//! The C ABI of `pulse-core` (docs/contracts.md#the-c-abi) for JavaScript hosts of the wasm32 build: the
//! only place where heads, replies and effects travel as bytes (their forms are in `record.rs`).
//!
//! Engines and requests live in two handle slabs owned by the module's single thread: on
//! wasm32-unknown-unknown there is exactly one thread, so a `thread_local!` is one static, and the
//! `RefCell` around it turns any re-entrant use into a panic instead of aliasing (no export calls
//! back into the host, so re-entry cannot happen). Handles are `slot + 1` with a 15-bit generation
//! in the high half, so a stale handle never reaches a newer request; `0` is never a valid handle.
//!
//! The only `unsafe` is turning host-provided `(ptr, len)` pairs into slices and the scratch
//! allocator; see each `SAFETY` comment.
use std::alloc::{self, Layout};
use std::cell::RefCell;

use crate::effect::{Answer, HandlerAnswer, HttpAnswer, HttpFailure, RateAnswer};
use crate::engine::{Action, Engine, Fault, Request};
use crate::event::Trail;
use crate::json::write;
use crate::tools::Direction;

use crate::progress::Reported;
use crate::record;
use crate::service_names::ServiceNames;

const MAX_SLOTS: usize = 0xffff;

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

struct Slab<T> {
    slots: Vec<Slot<T>>,
    free: Vec<usize>,
}

impl<T> Slab<T> {
    const fn new() -> Slab<T> {
        Slab {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    fn insert(&mut self, value: T) -> u32 {
        let index = match self.free.pop() {
            Some(i) => i,
            None if self.slots.len() < MAX_SLOTS => {
                self.slots.push(Slot {
                    generation: 0,
                    value: None,
                });
                self.slots.len() - 1
            }
            None => return 0,
        };
        let slot = &mut self.slots[index];
        slot.value = Some(value);
        (slot.generation << 16) | (index as u32 + 1)
    }

    fn index(&self, handle: u32) -> Option<usize> {
        let index = (handle & 0xffff).checked_sub(1)? as usize;
        let slot = self.slots.get(index)?;
        if slot.generation == handle >> 16 && slot.value.is_some() {
            Some(index)
        } else {
            None
        }
    }

    fn get(&mut self, handle: u32) -> Option<&mut T> {
        let i = self.index(handle)?;
        self.slots[i].value.as_mut()
    }

    fn remove(&mut self, handle: u32) {
        if let Some(i) = self.index(handle) {
            let slot = &mut self.slots[i];
            slot.value = None;
            slot.generation = (slot.generation + 1) & 0x7fff;
            self.free.push(i);
        }
    }
}

/// A request and the bytes of its last `Respond` (a reply record) or `Perform` (effect JSON).
struct Open {
    request: Request,
    output: Vec<u8>,
}

struct Handles {
    engines: Slab<Engine>,
    requests: Slab<Open>,
    last_error: String,
    /// Output of the last `pulse_engine_check`, `pulse_engine_fault` or `pulse_corpus_index`; valid
    /// until the next such call.
    check_output: Vec<u8>,
    /// `pulse_defaults` text, built on first use.
    defaults: Vec<u8>,
}

thread_local! {
    static HANDLES: RefCell<Handles> = const {
        RefCell::new(Handles {
            engines: Slab::new(),
            requests: Slab::new(),
            last_error: String::new(),
            check_output: Vec::new(),
            defaults: Vec::new(),
        })
    };
}

fn with<R>(f: impl FnOnce(&mut Handles) -> R) -> R {
    HANDLES.with(|h| f(&mut h.borrow_mut()))
}

/// # Safety
/// `ptr` must be null only with `len == 0`; otherwise `ptr..ptr+len` must be initialized memory the
/// host owns (a `pulse_alloc` buffer) and does not change during the call.
unsafe fn bytes<'a>(ptr: *const u8, len: u32) -> &'a [u8] {
    if len == 0 || ptr.is_null() {
        return &[];
    }
    // SAFETY: guaranteed by this function's contract, which every export passes on to the host.
    unsafe { std::slice::from_raw_parts(ptr, len as usize) }
}

/// Runs one request step and encodes what the host must read; an unknown handle is misuse.
fn step(req: u32, f: impl FnOnce(&mut Request) -> Action) -> u32 {
    with(|h| match h.requests.get(req) {
        None => 3,
        Some(open) => {
            let action = f(&mut open.request);
            open.output.clear();
            match action {
                Action::Respond => {
                    if let Some(r) = open.request.reply() {
                        record::reply(&mut open.output, r);
                    }
                }
                Action::Perform => {
                    if let Some(e) = open.request.effect() {
                        record::effect(&mut open.output, e);
                    }
                }
                Action::Continue | Action::Misuse => {}
            }
            action.code()
        }
    })
}

/// Allocates a scratch buffer of `len` bytes for the host; null when memory is exhausted.
#[no_mangle]
pub extern "C" fn pulse_alloc(len: u32) -> *mut u8 {
    if len == 0 {
        return std::ptr::NonNull::<u8>::dangling().as_ptr();
    }
    match Layout::from_size_align(len as usize, 1) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) => unsafe { alloc::alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// # Safety
/// `ptr` must come from `pulse_alloc(len)` with the same `len`, and not be freed twice.
#[no_mangle]
pub unsafe extern "C" fn pulse_dealloc(ptr: *mut u8, len: u32) {
    if len == 0 || ptr.is_null() {
        return;
    }
    if let Ok(layout) = Layout::from_size_align(len as usize, 1) {
        // SAFETY: by the contract above, `ptr` was allocated with exactly this layout.
        unsafe { alloc::dealloc(ptr, layout) }
    }
}

/// # Safety
/// `cfg_ptr..cfg_ptr+cfg_len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_engine_new(cfg_ptr: *const u8, cfg_len: u32) -> u32 {
    // SAFETY: passed on from this function's contract.
    let cfg = unsafe { bytes(cfg_ptr, cfg_len) };
    let built = Engine::new(cfg);
    with(|h| match built {
        Ok(engine) => {
            h.last_error.clear();
            let handle = h.engines.insert(engine);
            if handle == 0 {
                h.last_error = "engine: too many engines".to_string();
            }
            handle
        }
        Err(message) => {
            h.last_error = message;
            0
        }
    })
}

#[no_mangle]
pub extern "C" fn pulse_engine_error_ptr() -> *const u8 {
    with(|h| h.last_error.as_ptr())
}

#[no_mangle]
pub extern "C" fn pulse_engine_error_len() -> u32 {
    with(|h| h.last_error.len() as u32)
}

/// Requests already started keep the engine alive until they are freed.
#[no_mangle]
pub extern "C" fn pulse_engine_free(engine: u32) {
    with(|h| h.engines.remove(engine))
}

/// Runs one operation's input (`direction` 0) or output (1) codec over JSON text, for `ctx.call`
/// in JavaScript hosts, so every target agrees on what is valid. `0`: valid, output = canonical
/// JSON (empty for a tool without input: no params); `1`: rejected, output =
/// `{"path":…,"message":…}` with the codec's fixed message; `2`: unknown engine, no tools, unknown
/// operation or direction (output empty). Empty JSON text means absent.
///
/// # Safety
/// `op_ptr..op_ptr+op_len` and `json_ptr..json_ptr+json_len` must be readable host memory (see
/// `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_engine_check(
    engine: u32,
    op_ptr: *const u8,
    op_len: u32,
    direction: u32,
    json_ptr: *const u8,
    json_len: u32,
) -> u32 {
    // SAFETY: passed on from this function's contract.
    let op = unsafe { bytes(op_ptr, op_len) };
    // SAFETY: passed on from this function's contract.
    let json = unsafe { bytes(json_ptr, json_len) };
    let direction = match direction {
        0 => Some(Direction::Input),
        1 => Some(Direction::Output),
        _ => None,
    };
    with(|h| {
        h.check_output.clear();
        let checked = {
            let tools = h.engines.get(engine).and_then(|e| e.tools());
            match (tools, std::str::from_utf8(op), direction) {
                // `Tools::check` reports an unknown operation as a codec error; the ABI keeps it apart.
                (Some(t), Ok(name), Some(d)) if t.find(name).is_some() => {
                    Some(t.check(name, d, json))
                }
                _ => None,
            }
        };
        match checked {
            None => 2,
            Some(Ok(canonical)) => {
                h.check_output = canonical;
                0
            }
            Some(Err(e)) => {
                let out = &mut h.check_output;
                out.extend_from_slice(b"{\"path\":");
                write::string(out, &e.path);
                out.extend_from_slice(b",\"message\":");
                write::string(out, e.message);
                out.push(b'}');
                1
            }
        }
    })
}

/// The reply record (docs/contracts.md#records) to an HTTP fault the host's own parser detected:
/// `fault` 0 body interrupted (408), 1 malformed framing (400), 2 head too large (431), 3 the
/// host's own 500 when the core cannot answer. Output as `pulse_check_output_*`. Returns 1, or 0
/// for an unknown engine or fault code.
#[no_mangle]
pub extern "C" fn pulse_engine_fault(engine: u32, fault: u32) -> u32 {
    with(|h| {
        h.check_output.clear();
        match (h.engines.get(engine), Fault::from_code(fault)) {
            (Some(e), Some(f)) => {
                let reply = e.fault(f);
                record::reply(&mut h.check_output, &reply);
                1
            }
            _ => 0,
        }
    })
}

/// The request event (`record::event`) of the reply `pulse_engine_fault` gives for `fault`: what a host
/// publishes for a request its own parser refused. Output as `pulse_check_output_*`. Returns 1, or
/// 0 for an unknown engine or fault code.
#[no_mangle]
pub extern "C" fn pulse_engine_fault_event(engine: u32, fault: u32) -> u32 {
    with(|h| {
        h.check_output.clear();
        match (h.engines.get(engine), Fault::from_code(fault)) {
            (Some(e), Some(f)) => {
                record::event(&mut h.check_output, &Trail::default().fields(&e.fault(f)));
                1
            }
            _ => 0,
        }
    })
}

/// The Fastly resources the engine's configuration names (`service_names::ServiceNames::json`), for
/// the Native build's check against `fastly.toml`. Output as `pulse_check_output_*`. Returns 1, or 0
/// for an unknown engine.
#[no_mangle]
pub extern "C" fn pulse_engine_service_names(engine: u32) -> u32 {
    with(|h| {
        h.check_output.clear();
        match h.engines.get(engine) {
            Some(e) => {
                h.check_output = ServiceNames::of(e).json();
                1
            }
            None => 0,
        }
    })
}

/// What hosts must not restate, as JSON (`shared::json`).
#[no_mangle]
pub extern "C" fn pulse_defaults_ptr() -> *const u8 {
    with(|h| {
        if h.defaults.is_empty() {
            h.defaults = crate::shared::json();
        }
        h.defaults.as_ptr()
    })
}

#[no_mangle]
pub extern "C" fn pulse_defaults_len() -> u32 {
    pulse_defaults_ptr();
    with(|h| h.defaults.len() as u32)
}

/// Builds a corpus index from a corpus definition's JSON (`corpus_index::build`), for the manifest
/// compiler. `1`: built, output = the index JSON; `0`: rejected, output = the message. Output as
/// `pulse_check_output_*`.
///
/// # Safety
/// `ptr..ptr+len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_corpus_index(ptr: *const u8, len: u32) -> u32 {
    // SAFETY: passed on from this function's contract.
    let definition = unsafe { bytes(ptr, len) };
    let built = crate::corpus_index::build(definition);
    with(|h| match built {
        Ok(index) => {
            h.check_output = index;
            1
        }
        Err(message) => {
            h.check_output = message.into_bytes();
            0
        }
    })
}

#[no_mangle]
pub extern "C" fn pulse_check_output_ptr() -> *const u8 {
    with(|h| h.check_output.as_ptr())
}

#[no_mangle]
pub extern "C" fn pulse_check_output_len() -> u32 {
    with(|h| h.check_output.len() as u32)
}

/// `0` when the engine handle is unknown or too many requests are open. `now` is monotonic,
/// `epoch_ms` wall-clock milliseconds since the Unix epoch (see `Engine::request_at`).
#[no_mangle]
pub extern "C" fn pulse_request_new(engine: u32, now: f64, epoch_ms: f64) -> u32 {
    with(|h| match h.engines.get(engine) {
        Some(e) => {
            let request = e.request_at(now, epoch_ms);
            h.requests.insert(Open {
                request,
                output: Vec::new(),
            })
        }
        None => 0,
    })
}

/// The head record (docs/contracts.md#records); a record that is not one is host misuse.
///
/// # Safety
/// `ptr..ptr+len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_request_head(req: u32, ptr: *const u8, len: u32, now: f64) -> u32 {
    // SAFETY: passed on from this function's contract.
    let bytes = unsafe { bytes(ptr, len) };
    step(req, |r| match record::head(bytes) {
        Some((method, target, client, lines)) => {
            if let Some(address) = client.and_then(|c| std::str::from_utf8(c).ok()) {
                r.client(address);
            }
            r.head(method, target, lines, now)
        }
        None => r.misuse(),
    })
}

/// # Safety
/// `ptr..ptr+len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_request_body(req: u32, ptr: *const u8, len: u32, now: f64) -> u32 {
    // SAFETY: passed on from this function's contract.
    let chunk = unsafe { bytes(ptr, len) };
    step(req, |r| r.body(chunk, now))
}

#[no_mangle]
pub extern "C" fn pulse_request_end(req: u32, now: f64) -> u32 {
    step(req, |r| r.end(now))
}

#[no_mangle]
pub extern "C" fn pulse_request_abort(req: u32, now: f64) -> u32 {
    step(req, |r| r.abort(now))
}

#[no_mangle]
pub extern "C" fn pulse_request_tick(req: u32, now: f64) -> u32 {
    step(req, |r| r.tick(now))
}

/// The pending HTTP effect's response: its status and the body bytes read (the host stops
/// reading once more than the effect's `maxBytes` arrived).
///
/// # Safety
/// `ptr..ptr+len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_request_http_response(
    req: u32,
    status: u32,
    ptr: *const u8,
    len: u32,
    now: f64,
) -> u32 {
    // SAFETY: passed on from this function's contract.
    let body = unsafe { bytes(ptr, len) };
    step(req, |r| match u16::try_from(status) {
        Ok(status) if (100..=599).contains(&status) => {
            r.answer_http(HttpAnswer::Response { status, body }, now)
        }
        _ => r.misuse(),
    })
}

/// The pending HTTP effect produced no response: `reason` 0 unreachable, 1 its own time budget
/// ran out.
#[no_mangle]
pub extern "C" fn pulse_request_http_failure(req: u32, reason: u32, now: f64) -> u32 {
    step(req, |r| match reason {
        0 => r.answer_http(HttpAnswer::Failed(HttpFailure::Unreachable), now),
        1 => r.answer_http(HttpAnswer::Failed(HttpFailure::TimedOut), now),
        _ => r.misuse(),
    })
}

/// The pending handler effect's output, as JSON text.
///
/// # Safety
/// `ptr..ptr+len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_request_handler_output(
    req: u32,
    ptr: *const u8,
    len: u32,
    now: f64,
) -> u32 {
    // SAFETY: passed on from this function's contract.
    let output = unsafe { bytes(ptr, len) };
    step(req, |r| {
        r.answer_handler(HandlerAnswer::Output(output), now)
    })
}

/// The pending handler effect failed (thrown, rejected, timed out, or no handler here).
#[no_mangle]
pub extern "C" fn pulse_request_handler_failure(req: u32, now: f64) -> u32 {
    step(req, |r| r.answer_handler(HandlerAnswer::Failed, now))
}

/// The pending rate effect's answer: `kind` 0 counted (`count` over the window), 1 in the penalty
/// box, 2 put in the penalty box, 3 the store could not answer.
#[no_mangle]
pub extern "C" fn pulse_request_rate(req: u32, kind: u32, count: u32, now: f64) -> u32 {
    step(req, |r| {
        let answer = match kind {
            0 => RateAnswer::Counted {
                boxed: false,
                count,
            },
            1 => RateAnswer::Counted {
                boxed: true,
                count: 0,
            },
            2 => RateAnswer::Penalized,
            3 => RateAnswer::Failed,
            _ => return r.misuse(),
        };
        r.answer(Answer::Rate(answer), now)
    })
}

/// A progress report of the pending handler: `total` NaN when absent, `msg_len` `u32::MAX` when
/// there is no message. Returns `0` dropped, `1` the first event (output = a reply record: the
/// stream head with the event as body; the final reply is then the stream's last event, of which the
/// host writes the body only), `2` a later event (output = its bytes).
///
/// # Safety
/// Unless `msg_len` is `u32::MAX`, `msg_ptr..msg_ptr+msg_len` must be readable host memory.
#[no_mangle]
pub unsafe extern "C" fn pulse_request_progress(
    req: u32,
    progress: f64,
    total: f64,
    msg_ptr: *const u8,
    msg_len: u32,
    now: f64,
) -> u32 {
    let message = if msg_len == u32::MAX {
        None
    } else {
        // SAFETY: passed on from this function's contract.
        match std::str::from_utf8(unsafe { bytes(msg_ptr, msg_len) }) {
            Ok(m) => Some(m),
            Err(_) => return 0,
        }
    };
    let total = if total.is_nan() { None } else { Some(total) };
    with(|h| match h.requests.get(req) {
        None => 0,
        Some(open) => match open.request.progress(progress, total, message, now) {
            Reported::Dropped => 0,
            Reported::First(event) => {
                open.output.clear();
                let mut head = open.request.stream_head();
                head.body = event;
                record::reply(&mut open.output, &head);
                1
            }
            Reported::Next(event) => {
                open.output.clear();
                open.output.extend_from_slice(&event);
                2
            }
        },
    })
}

/// `0` for an unknown handle.
#[no_mangle]
pub extern "C" fn pulse_request_timeout_ms(req: u32, now: f64) -> f64 {
    with(|h| {
        h.requests
            .get(req)
            .map_or(0.0, |o| o.request.timeout_ms(now))
    })
}

/// Puts the finished request's event (`record::event`) in its output; `1` written, `0` when the
/// handle is unknown or the request is not finished.
#[no_mangle]
pub extern "C" fn pulse_request_event(req: u32) -> u32 {
    with(|h| match h.requests.get(req) {
        None => 0,
        Some(open) => {
            open.output.clear();
            match open.request.event_fields() {
                Some(f) => {
                    record::event(&mut open.output, &f);
                    1
                }
                None => 0,
            }
        }
    })
}

/// The pending introspection answered from the host's fresh cache entry under the effect's
/// `cacheKey`: the entry's value bytes.
///
/// # Safety
/// `ptr..ptr+len` must be readable host memory (see `bytes`).
#[no_mangle]
pub unsafe extern "C" fn pulse_request_cached(req: u32, ptr: *const u8, len: u32, now: f64) -> u32 {
    // SAFETY: passed on from this function's contract.
    let value = unsafe { bytes(ptr, len) };
    step(req, |r| r.answer_cached(value, now))
}

/// Puts the introspection cache entry the host keeps (a record, `record::cache_entry`) in the
/// request's output, once; `1` written, `0` when there is none. Asked right after answering an
/// HTTP effect that carried a `cacheKey`.
#[no_mangle]
pub extern "C" fn pulse_request_cache_entry(req: u32) -> u32 {
    with(|h| match h.requests.get(req) {
        None => 0,
        Some(open) => {
            open.output.clear();
            match open.request.take_cache_entry() {
                Some(e) => {
                    record::cache_entry(&mut open.output, &e);
                    1
                }
                None => 0,
            }
        }
    })
}

/// Valid until the next call on `req` (the buffer belongs to the request).
#[no_mangle]
pub extern "C" fn pulse_output_ptr(req: u32) -> *const u8 {
    with(|h| {
        h.requests
            .get(req)
            .map_or(std::ptr::null(), |o| o.output.as_ptr())
    })
}

#[no_mangle]
pub extern "C" fn pulse_output_len(req: u32) -> u32 {
    with(|h| h.requests.get(req).map_or(0, |o| o.output.len() as u32))
}

#[no_mangle]
pub extern "C" fn pulse_request_free(req: u32) {
    with(|h| h.requests.remove(req))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(req: u32) -> Vec<u8> {
        let (p, n) = (pulse_output_ptr(req), pulse_output_len(req));
        // SAFETY: the request is alive and nothing was called on it since the action.
        unsafe { bytes(p, n) }.to_vec()
    }

    #[test]
    fn corpus_index_through_the_abi() {
        let run = |def: &[u8]| {
            // SAFETY: a live Rust slice; the output is read before any further call.
            unsafe {
                let status = pulse_corpus_index(def.as_ptr(), def.len() as u32);
                let out = bytes(pulse_check_output_ptr(), pulse_check_output_len()).to_vec();
                (status, String::from_utf8(out).unwrap())
            }
        };
        let def = br#"{"entries":[{"id":"a","title":"T","collection":"c","text":"x"}]}"#;
        assert_eq!(
            run(def),
            (
                1,
                crate::corpus_index::build(def)
                    .map(String::from_utf8)
                    .unwrap()
                    .unwrap()
            )
        );
        assert_eq!(
            run(b"{}"),
            (0, "corpus definition needs an entries list".to_string())
        );
    }

    #[test]
    fn engine_rejection_reports_the_message() {
        let cfg = br#"{"limits":{"depth":99}}"#;
        // SAFETY: a live Rust slice.
        let e = unsafe { pulse_engine_new(cfg.as_ptr(), cfg.len() as u32) };
        assert_eq!(e, 0);
        // SAFETY: the message is a static string.
        let msg = unsafe { bytes(pulse_engine_error_ptr(), pulse_engine_error_len()) };
        assert_eq!(msg, b"limits.depth: must be an integer between 1 and 32");
    }

    #[test]
    fn discover_through_the_abi_and_stale_handles() {
        let cfg = b"{}";
        // SAFETY: live Rust slices throughout.
        unsafe {
            let e = pulse_engine_new(cfg.as_ptr(), cfg.len() as u32);
            assert_ne!(e, 0);
            let r = pulse_request_new(e, 0.0, 0.0);
            pulse_engine_free(e);
            assert_eq!(pulse_request_new(e, 0.0, 0.0), 0, "freed engine");
            let head = b"POST /mcp\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: server/discover\r\n";
            assert_eq!(
                pulse_request_head(r, head.as_ptr(), head.len() as u32, 1.0),
                0
            );
            let body = br#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
            assert_eq!(
                pulse_request_body(r, body.as_ptr(), body.len() as u32, 2.0),
                0
            );
            assert_eq!(pulse_request_timeout_ms(r, 2.0), 9998.0);
            assert_eq!(pulse_request_end(r, 3.0), 1);
            assert!(output(r).starts_with(b"200\r\n"));
            assert_eq!(pulse_request_tick(r, 4.0), 1, "RESPOND again after RESPOND");
            assert_eq!(pulse_request_handler_failure(r, 4.0), 1);
            pulse_request_free(r);
            assert_eq!(pulse_request_end(r, 5.0), 3, "freed request is misuse");
            assert_eq!(pulse_output_len(r), 0);
            assert_eq!(pulse_request_timeout_ms(r, 5.0), 0.0);
            assert_eq!(pulse_request_head(0, std::ptr::null(), 0, 0.0), 3);
        }
    }

    fn check(engine: u32, op: &str, direction: u32, json: &str) -> (u32, String) {
        // SAFETY: live Rust slices; the check output is read before any further check.
        unsafe {
            let status = pulse_engine_check(
                engine,
                op.as_ptr(),
                op.len() as u32,
                direction,
                json.as_ptr(),
                json.len() as u32,
            );
            let out = bytes(pulse_check_output_ptr(), pulse_check_output_len()).to_vec();
            (status, String::from_utf8(out).unwrap())
        }
    }

    #[test]
    fn check_runs_the_codec_through_the_abi() {
        let cfg = format!(r#"{{"tools":{}}}"#, crate::tools::tests::manifest());
        let bare = b"{}";
        // SAFETY: live Rust slices.
        let (e, plain) = unsafe {
            (
                pulse_engine_new(cfg.as_ptr(), cfg.len() as u32),
                pulse_engine_new(bare.as_ptr(), bare.len() as u32),
            )
        };
        assert_ne!(e, 0);
        assert_eq!(
            check(e, "echo", 0, r#"{"s":"a","q":1}"#),
            (0, r#"{"s":"a"}"#.into())
        );
        assert_eq!(
            check(e, "echo", 1, r#"{"s":1}"#),
            (1, r#"{"path":"$.s","message":"Expected a string"}"#.into())
        );
        assert_eq!(
            check(e, "ping", 0, ""),
            (0, String::new()),
            "no input: no params"
        );
        assert_eq!(check(e, "ping", 1, "5"), (0, "null".into()));
        assert_eq!(check(e, "echo", 0, "{").0, 1, "invalid JSON is a rejection");
        assert_eq!(check(e, "nope", 0, "{}"), (2, String::new()), "unknown op");
        assert_eq!(
            check(e, "echo", 2, "{}"),
            (2, String::new()),
            "unknown direction"
        );
        assert_eq!(
            check(plain, "echo", 0, "{}"),
            (2, String::new()),
            "no tools"
        );
        pulse_engine_free(e);
        pulse_engine_free(plain);
        assert_eq!(
            check(e, "echo", 0, "{}"),
            (2, String::new()),
            "freed engine"
        );
    }

    #[test]
    fn scratch_buffers() {
        let p = pulse_alloc(16);
        assert!(!p.is_null());
        // SAFETY: 16 writable bytes just allocated, freed once with the same length.
        unsafe {
            std::ptr::write_bytes(p, 7, 16);
            pulse_dealloc(p, 16);
            pulse_dealloc(pulse_alloc(0), 0);
        }
    }

    #[test]
    fn slab_generations() {
        let mut s: Slab<u8> = Slab::new();
        let a = s.insert(1);
        s.remove(a);
        let b = s.insert(2);
        assert_ne!(a, b);
        assert!(s.get(a).is_none());
        assert_eq!(s.get(b).copied(), Some(2));
    }
}
