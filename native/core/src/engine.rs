//! The engine (immutable, built once from the configuration) and the per-request state machine:
//! `head → body* → end`, then possibly `CALL → resume` rounds, with `abort`/`tick` at any point.
//! State per request is the kept MCP headers, the bounded body parser, or one pending tool call.
use std::rc::Rc;

use crate::admission::{self, Refusal};
use crate::calls;
use crate::config::{Config, ConfigError};
use crate::deadline::Deadline;
use crate::discover::Fragments;
use crate::envelope::{self, meta, Envelope, PROTOCOL_VERSION_KEY};
use crate::errors::{
    self, RpcError, HEADER_MISMATCH, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR,
};
use crate::head::{self, HeadError, Kept};
use crate::json::{JsonError, Parser, Value};
use crate::jsonrpc::{self, RpcCall, RpcStep};
use crate::legacy::{self, LegacyFragments};
use crate::limits::Limits;
use crate::modern;
use crate::response::{self, Timing};
use crate::tools::{Step, ToolCall, Tools};

struct Inner {
    config: Config,
    frags: Fragments,
    legacy: LegacyFragments,
}

/// An immutable engine; cloning shares it (requests keep it alive).
#[derive(Clone)]
pub struct Engine {
    inner: Rc<Inner>,
}

impl Engine {
    /// Builds an engine from the configuration JSON (docs/contracts.md §4).
    pub fn new(config_json: &[u8]) -> Result<Engine, ConfigError> {
        Engine::from_config(Config::parse(config_json)?)
    }

    pub fn from_config(config: Config) -> Result<Engine, ConfigError> {
        let frags = Fragments::build(&config).map_err(String::from)?;
        let legacy = LegacyFragments::build(&frags, config.tools.as_ref().map(|t| t.list_json()));
        Ok(Engine {
            inner: Rc::new(Inner {
                config,
                frags,
                legacy,
            }),
        })
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.config.limits
    }

    /// The compiled tool set, for `pulse_engine_check` (`ctx.call` validation); `None` without tools.
    pub fn tools(&self) -> Option<&Tools> {
        self.inner.config.tools.as_ref()
    }

    /// The reply to a fault the host's own HTTP layer detected before or instead of the core: the
    /// same bytes the core would choose, so every host answers it alike.
    pub fn fault(&self, fault: Fault) -> Vec<u8> {
        let budget = self.inner.config.limits.response_bytes;
        let mut out = Vec::new();
        match fault {
            Fault::BodyInterrupted => {
                let e = RpcError::new(408, INVALID_REQUEST, errors::BODY_INTERRUPTED);
                response::error(&mut out, budget, &e, None, Timing::Early);
            }
            Fault::MalformedFraming => {
                let e = RpcError::new(400, INVALID_REQUEST, errors::MALFORMED_FRAMING);
                response::error(&mut out, budget, &e, None, Timing::Early);
            }
            Fault::HeadTooLarge => response::empty(&mut out, 431, Timing::Early),
        }
        out
    }

    /// Starts one request; its deadline runs from `now`.
    pub fn request(&self, now: f64) -> Request {
        Request {
            engine: Rc::clone(&self.inner),
            deadline: Deadline::new(now, self.inner.config.limits.deadline_ms),
            state: State::Fresh,
            out: Vec::new(),
        }
    }
}

/// HTTP-level faults a host's own parser reports (the core never sees such a request).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The connection ended before the declared body did.
    BodyInterrupted,
    /// The request could not be framed (bad chunking, conflicting lengths, a bad request line).
    MalformedFraming,
    /// The request head exceeds the host's header limits.
    HeadTooLarge,
}

impl Fault {
    pub fn from_code(code: u32) -> Option<Fault> {
        match code {
            0 => Some(Fault::BodyInterrupted),
            1 => Some(Fault::MalformedFraming),
            2 => Some(Fault::HeadTooLarge),
            _ => None,
        }
    }
}

/// What the host does next. The byte slices stay valid until the next call on the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action<'r> {
    /// Feed more body (or, while a call is pending, keep waiting).
    Continue,
    /// Send this response record (docs/contracts.md §3.2); the request is finished.
    Respond(&'r [u8]),
    /// Perform this outbound instruction (§3.3) and answer with `resume`.
    Call(&'r [u8]),
    /// The host called out of order; it answers 500 on its own.
    Misuse,
}

impl Action<'_> {
    /// The ABI code of the action (docs/contracts.md §2).
    pub fn code(&self) -> u32 {
        match self {
            Action::Continue => 0,
            Action::Respond(_) => 1,
            Action::Call(_) => 2,
            Action::Misuse => 3,
        }
    }
}

enum State {
    Fresh,
    Body {
        kept: Kept,
        parser: Parser,
        received: usize,
    },
    Pending(Pending),
    Done,
}

pub struct Request {
    engine: Rc<Inner>,
    deadline: Deadline,
    state: State,
    out: Vec<u8>,
}

/// One call waiting for `resume`: the tools side's state and the id to echo (empty for a
/// JSON-RPC notification, which gets no reply).
struct Pending {
    call: Resumable,
    id: Vec<u8>,
}

enum Resumable {
    /// An MCP `tools/call`, framed in the modern or the legacy envelope.
    Tool {
        call: ToolCall,
        legacy: bool,
    },
    Rpc(RpcCall),
}

impl Request {
    /// The payload of the last `Respond`/`Call`.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    pub fn is_finished(&self) -> bool {
        matches!(self.state, State::Done)
    }

    /// How long the host may wait for its next event; `0` once expired or finished.
    pub fn timeout_ms(&self, now: f64) -> f64 {
        match self.state {
            State::Done => 0.0,
            _ => self.deadline.remaining(now),
        }
    }

    fn respond(&mut self) -> Action<'_> {
        self.state = State::Done;
        Action::Respond(&self.out)
    }

    /// 408 for whatever phase the request is in: before the body is complete `-32600` without id;
    /// during a pending call `-32603` with the id.
    fn interrupted(&mut self) -> Action<'_> {
        let budget = self.engine.config.limits.response_bytes;
        match std::mem::replace(&mut self.state, State::Done) {
            State::Pending(Pending { id, .. }) => {
                let e = RpcError::new(408, INTERNAL_ERROR, errors::CALL_INTERRUPTED);
                response::error(&mut self.out, budget, &e, Some(&id), Timing::AfterBody);
            }
            _ => {
                let e = RpcError::new(408, INVALID_REQUEST, errors::BODY_INTERRUPTED);
                response::error(&mut self.out, budget, &e, None, Timing::Early);
            }
        }
        self.respond()
    }

    pub fn head(&mut self, record: &[u8], now: f64) -> Action<'_> {
        match self.state {
            State::Fresh => {}
            State::Done => return Action::Respond(&self.out),
            _ => return Action::Misuse,
        }
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let config = &self.engine.config;
        let mut head = match head::parse(record) {
            Ok(h) => h,
            Err(HeadError::TooLarge) => {
                response::empty(&mut self.out, 431, Timing::Early);
                return self.respond();
            }
            Err(HeadError::Malformed) => return Action::Misuse,
        };
        match admission::check(config, &head) {
            Ok(()) => {}
            Err(Refusal::Empty(status)) => {
                response::empty(&mut self.out, status, Timing::Early);
                return self.respond();
            }
            Err(Refusal::TooLarge) => {
                too_large(&mut self.out, config.limits.response_bytes);
                return self.respond();
            }
        }
        let parser = Parser::with_capacity(
            config.limits.depth,
            admission::size_hint(&head, config.limits.request_bytes),
        );
        self.state = State::Body {
            kept: head.keep(),
            parser,
            received: 0,
        };
        Action::Continue
    }

    pub fn body(&mut self, chunk: &[u8], now: f64) -> Action<'_> {
        match self.state {
            State::Body { .. } => {}
            State::Done => return Action::Respond(&self.out),
            _ => return Action::Misuse,
        }
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let limits = self.engine.config.limits;
        if let State::Body {
            parser, received, ..
        } = &mut self.state
        {
            // The verdict follows byte positions, not chunking: the admitted prefix of a chunk that
            // crosses the limit is parsed first, so a parse error before the limit still wins.
            let room = limits.request_bytes - *received;
            let over = chunk.len() > room;
            let admitted = if over { &chunk[..room] } else { chunk };
            *received += admitted.len();
            if let Err(e) = parser.feed(admitted) {
                parse_error(&mut self.out, limits.response_bytes, &e, Timing::Early);
                return self.respond();
            }
            if over {
                too_large(&mut self.out, limits.response_bytes);
                return self.respond();
            }
        }
        Action::Continue
    }

    pub fn end(&mut self, now: f64) -> Action<'_> {
        match self.state {
            State::Body { .. } => {}
            State::Done => return Action::Respond(&self.out),
            _ => return Action::Misuse,
        }
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let (kept, parser) = match std::mem::replace(&mut self.state, State::Done) {
            State::Body { kept, parser, .. } => (kept, parser),
            _ => unreachable!("checked above"),
        };
        let engine = &*self.engine;
        let budget = engine.config.limits.response_bytes;
        let doc = match parser.finish() {
            Ok(d) => d,
            Err(e) => {
                parse_error(&mut self.out, budget, &e, Timing::AfterBody);
                return self.respond();
            }
        };
        let root = doc.root();
        let pending = dispatch(
            engine,
            &kept,
            &root,
            self.deadline.remaining(now),
            &mut self.out,
        );
        self.settle(pending)
    }

    pub fn resume(&mut self, payload: &[u8], now: f64) -> Action<'_> {
        match self.state {
            State::Pending(_) => {}
            State::Done => return Action::Respond(&self.out),
            _ => return Action::Misuse,
        }
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let Pending { call, id } = match std::mem::replace(&mut self.state, State::Done) {
            State::Pending(p) => p,
            _ => unreachable!("checked above"),
        };
        let engine = &*self.engine;
        let tools = match &engine.config.tools {
            Some(t) => t,
            None => unreachable!("a call is pending only when tools are configured"),
        };
        let remaining = self.deadline.remaining(now);
        let pending = match call {
            Resumable::Tool { call, legacy } => {
                let s = tools.resume(call, payload, remaining);
                step(engine, s, &id, legacy, &mut self.out)
            }
            Resumable::Rpc(call) => {
                let s = jsonrpc::resume(tools, call, payload, remaining);
                rpc_step(engine, s, id, &mut self.out)
            }
        };
        self.settle(pending)
    }

    /// The body read failed or the client went away.
    pub fn abort(&mut self, _now: f64) -> Action<'_> {
        match self.state {
            State::Done => Action::Respond(&self.out),
            _ => self.interrupted(),
        }
    }

    /// A host timer fired: answers 408 once the deadline has passed, else nothing changes.
    pub fn tick(&mut self, now: f64) -> Action<'_> {
        match self.state {
            State::Done => Action::Respond(&self.out),
            _ if self.deadline.expired(now) => self.interrupted(),
            _ => Action::Continue,
        }
    }

    fn settle(&mut self, pending: Option<Pending>) -> Action<'_> {
        match pending {
            None => self.respond(),
            Some(p) => {
                self.state = State::Pending(p);
                Action::Call(&self.out)
            }
        }
    }
}

/// 400 -32700 without id: the body is not acceptable JSON (decided mid-body or at its end).
fn parse_error(out: &mut Vec<u8>, budget: usize, e: &JsonError, timing: Timing) {
    let e = RpcError::new(400, PARSE_ERROR, errors::parse_message(e));
    response::error(out, budget, &e, None, timing);
}

fn too_large(out: &mut Vec<u8>, budget: usize) {
    let e = RpcError::new(413, INVALID_REQUEST, errors::BODY_TOO_LARGE);
    response::error(out, budget, &e, None, Timing::Early);
}

fn reply(out: &mut Vec<u8>, e: &Inner, id: &[u8], fragment: &[u8]) {
    let start = response::begin(out, 200, Timing::AfterBody);
    response::result_prefix(out, id);
    out.extend_from_slice(fragment);
    response::finish(
        out,
        start,
        e.config.limits.response_bytes,
        Some(id),
        Timing::AfterBody,
    );
}

fn fail(out: &mut Vec<u8>, e: &Inner, err: &RpcError, id: Option<&[u8]>) {
    response::error(
        out,
        e.config.limits.response_bytes,
        err,
        id,
        Timing::AfterBody,
    );
}

/// Decides a complete body. Returns the pending call when a tool needs an outbound instruction
/// (then `out` holds the instruction), else `out` holds the response record.
fn dispatch(
    e: &Inner,
    kept: &Kept,
    root: &Value<'_>,
    remaining: f64,
    out: &mut Vec<u8>,
) -> Option<Pending> {
    let env = match envelope::classify(root) {
        Ok(env) => env,
        Err(invalid) => {
            fail(out, e, &invalid.error, invalid.id.as_deref());
            return None;
        }
    };
    let tools = e.config.tools.as_ref();
    if e.config.jsonrpc {
        let (tools, object) = match (tools, root) {
            (Some(t), Value::Object(o)) => (t, *o),
            _ => unreachable!(
                "config requires tools for the jsonrpc profile; classify admits objects only"
            ),
        };
        let s = jsonrpc::call(tools, object, remaining);
        return rpc_step(e, s, env.id.clone().unwrap_or_default(), out);
    }
    let id = match &env.id {
        Some(id) => id.as_slice(),
        None => {
            notification(out, e, kept, &env);
            return None;
        }
    };
    if !modern::is_modern(kept, &env) {
        if !e.config.legacy {
            fail(out, e, &legacy::refuse(kept, &env, &e.frags), Some(id));
            return None;
        }
        return match legacy::admit(kept, &env, &e.frags, tools.is_some()) {
            Err(err) => {
                fail(out, e, &err, Some(id));
                None
            }
            Ok(legacy::Method::Initialize) => {
                reply(out, e, id, &e.legacy.initialize);
                None
            }
            Ok(legacy::Method::Ping) => {
                reply(out, e, id, b"{}}");
                None
            }
            Ok(legacy::Method::ToolsList) => list(out, e, &env, id, &e.legacy.tools_list),
            Ok(legacy::Method::ToolsCall) => call(out, e, &env, id, true, remaining),
        };
    }
    match modern::admit(kept, &env, &e.frags, tools.is_some()) {
        Err(err) => {
            fail(out, e, &err, Some(id));
            None
        }
        Ok(modern::Method::Discover) => {
            reply(out, e, id, &e.frags.discover);
            None
        }
        Ok(modern::Method::ToolsList) => list(out, e, &env, id, &e.frags.tools_list),
        Ok(modern::Method::ToolsCall) => call(out, e, &env, id, false, remaining),
    }
}

/// `tools/list` in either envelope: the prebuilt `fragment`, once its params are checked.
fn list(
    out: &mut Vec<u8>,
    e: &Inner,
    env: &Envelope<'_>,
    id: &[u8],
    fragment: &[u8],
) -> Option<Pending> {
    match calls::list_params(env.params.as_ref()) {
        Err(err) => fail(out, e, &err, Some(id)),
        Ok(()) => reply(out, e, id, fragment),
    }
    None
}

fn call(
    out: &mut Vec<u8>,
    e: &Inner,
    env: &Envelope<'_>,
    id: &[u8],
    legacy: bool,
    remaining: f64,
) -> Option<Pending> {
    let tools = match &e.config.tools {
        Some(t) => t,
        None => unreachable!("tools/call is admitted only when tools are configured"),
    };
    match calls::call_params(env.params.as_ref()) {
        Err(err) => {
            fail(out, e, &err, Some(id));
            None
        }
        Ok((name, arguments)) => {
            let s = tools.call(&name.as_str(), arguments, remaining);
            step(e, s, id, legacy, out)
        }
    }
}

fn step(e: &Inner, s: Step, id: &[u8], legacy: bool, out: &mut Vec<u8>) -> Option<Pending> {
    match s {
        Step::ProtocolError {
            status,
            code,
            message,
        } => {
            fail(out, e, &RpcError::new(status, code, message), Some(id));
            None
        }
        Step::Complete(r) => {
            calls::frame(out, &r, id, legacy, &e.frags, &e.config.limits);
            None
        }
        Step::Call { instruction, state } => {
            out.clear();
            out.extend_from_slice(&instruction);
            Some(Pending {
                call: Resumable::Tool {
                    call: state,
                    legacy,
                },
                id: id.to_vec(),
            })
        }
    }
}

/// Frames one JSON-RPC profile step; `id` is empty for a notification, which never gets a body.
fn rpc_step(e: &Inner, s: RpcStep, id: Vec<u8>, out: &mut Vec<u8>) -> Option<Pending> {
    match s {
        RpcStep::Call { instruction, state } => {
            out.clear();
            out.extend_from_slice(&instruction);
            Some(Pending {
                call: Resumable::Rpc(state),
                id,
            })
        }
        RpcStep::NoReply => {
            response::empty(out, 204, Timing::AfterBody);
            None
        }
        // A notification is never answered, not even with an error.
        _ if id.is_empty() => {
            response::empty(out, 204, Timing::AfterBody);
            None
        }
        RpcStep::Result(mut text) => {
            text.push(b'}');
            reply(out, e, &id, &text);
            None
        }
        RpcStep::Error {
            status,
            code,
            message,
            data,
        } => {
            let err = RpcError {
                status,
                code,
                message,
                data,
            };
            fail(out, e, &err, Some(&id));
            None
        }
    }
}

/// Valid notifications are accepted and discarded (202), unless a present `Mcp-Method` or
/// `MCP-Protocol-Version` header contradicts the body.
fn notification(out: &mut Vec<u8>, e: &Inner, kept: &Kept, env: &Envelope<'_>) {
    let method_disagrees =
        matches!(&kept.method, Some(m) if env.method.as_str().as_bytes() != &**m);
    let version_disagrees = match (&kept.version, env.params.as_ref().and_then(|p| meta(p))) {
        (Some(v), Some(m)) => match m.get(PROTOCOL_VERSION_KEY) {
            Some(Value::String(s)) => s.as_str().as_bytes() != &**v,
            _ => false,
        },
        _ => false,
    };
    if method_disagrees || version_disagrees {
        fail(
            out,
            e,
            &RpcError::new(400, HEADER_MISMATCH, errors::HEADERS_DISAGREE),
            None,
        );
    } else {
        response::empty(out, 202, Timing::AfterBody);
    }
}
