//! The engine (immutable, built once from the configuration) and the per-request state machine:
//! `head → body* → end`, then possibly rounds of `Perform → answer`, with `abort`/`tick` at any
//! point. State per request is the kept MCP headers, the bounded body parser, or one pending effect.
use std::rc::Rc;

use crate::admission::{self, Refusal};
use crate::authorization::{Admission, Grant};
use crate::calls;
use crate::config::{state_key_from, Config, ConfigError, Secret, SecretRef};
use crate::deadline::Deadline;
use crate::discover;
use crate::effect::{Answer, Effect, HandlerAnswer, HttpAnswer};
use crate::envelope::{self, meta, Envelope, PROTOCOL_VERSION_KEY};
use crate::errors::{
    self, RpcError, HEADER_MISMATCH, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR,
};
use crate::fragments::Fragments;
use crate::head::{Head, HeadError, Kept};
use crate::json::{JsonError, Parser, Value};
use crate::jsonrpc::{self, RpcCall, RpcStep};
use crate::legacy;
use crate::limits::Limits;
use crate::methods::{Dispatch, Served};
use crate::modern;
use crate::progress::{self, Progress, Reported};
use crate::reply::{Reply, Timing};
use crate::server_card;
use crate::tools::{Step, ToolCall, Tools};

struct Inner {
    config: Config,
    frags: Fragments,
}

/// An immutable engine; cloning shares it (requests keep it alive).
#[derive(Clone)]
pub struct Engine {
    inner: Rc<Inner>,
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
    /// The core itself could not answer (a trap, or a broken contract): what the host sends then.
    Internal,
}

impl Fault {
    pub fn from_code(code: u32) -> Option<Fault> {
        match code {
            0 => Some(Fault::BodyInterrupted),
            1 => Some(Fault::MalformedFraming),
            2 => Some(Fault::HeadTooLarge),
            3 => Some(Fault::Internal),
            _ => None,
        }
    }
}

impl Engine {
    /// Builds an engine from the configuration JSON (docs/contracts.md#engine-configuration).
    pub fn new(config_json: &[u8]) -> Result<Engine, ConfigError> {
        Engine::from_config(Config::parse(config_json)?)
    }

    pub fn from_config(config: Config) -> Result<Engine, ConfigError> {
        let frags = discover::build(&config).map_err(String::from)?;
        Ok(Engine {
            inner: Rc::new(Inner { config, frags }),
        })
    }

    /// Where the host must read `which` before serving, while the configuration names it in a
    /// secret store (`{"secretStore", "key"}`) and it is not installed.
    pub fn secret(&self, which: Secret) -> Option<&SecretRef> {
        let c = &self.inner.config;
        match which {
            Secret::StateKey => c.state_key_secret.as_ref(),
            Secret::BackendToken => c.tools.as_ref().and_then(|t| t.bearer_secret()),
            Secret::IntrospectionSecret => c.authorization.as_ref().and_then(|a| a.secret()),
        }
    }

    /// Installs `which`, read from the secret store. Until then whatever needs it fails closed (a
    /// multi-round request, a catalog-backed call, every request under authorization: 500), so no
    /// state is sealed, no backend called and no token accepted without it. Only a fresh engine
    /// (not yet cloned) takes a secret, once.
    pub fn install_secret(&mut self, which: Secret, bytes: &[u8]) -> Result<(), ConfigError> {
        let inner = Rc::get_mut(&mut self.inner)
            .ok_or_else(|| format!("{}: the engine is already shared", which.option()))?;
        let waiting = || format!("{}: no secret is waiting to be installed", which.option());
        let c = &mut inner.config;
        match which {
            Secret::StateKey => {
                if c.state_key_secret.is_none() {
                    return Err(waiting());
                }
                c.state_key = Some(state_key_from(bytes)?);
                c.state_key_secret = None;
                Ok(())
            }
            Secret::BackendToken => c.tools.as_mut().ok_or_else(waiting)?.set_bearer(bytes),
            Secret::IntrospectionSecret => c
                .authorization
                .as_mut()
                .ok_or_else(waiting)?
                .set_secret(bytes),
        }
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
    pub fn fault(&self, fault: Fault) -> Reply {
        let budget = self.inner.config.limits.response_bytes;
        match fault {
            Fault::BodyInterrupted => interrupted_body(budget),
            Fault::MalformedFraming => {
                let e = RpcError::new(400, INVALID_REQUEST, errors::MALFORMED_FRAMING);
                Reply::error(&e, None, Timing::Early, budget)
            }
            Fault::HeadTooLarge => Reply::empty(431, Timing::Early),
            Fault::Internal => Reply::internal_error(),
        }
    }

    /// Starts one request; its deadline runs from `now`. Without a wall clock the request cannot
    /// issue or accept `requestState`: hosts call [`Engine::request_at`].
    pub fn request(&self, now: f64) -> Request {
        self.request_at(now, f64::NAN)
    }

    /// Starts one request at monotonic `now` and wall-clock `epoch_ms` (milliseconds since the Unix
    /// epoch), which dates the expiry of multi-round `requestState`.
    pub fn request_at(&self, now: f64, epoch_ms: f64) -> Request {
        Request {
            engine: Rc::clone(&self.inner),
            epoch_ms,
            started: now,
            grant: None,
            streaming: false,
            deadline: Deadline::new(now, self.inner.config.limits.deadline_ms),
            state: State::Fresh,
            reply: None,
            effect: None,
        }
    }
}

/// What the host does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Feed more body (or, while an effect is pending, keep waiting).
    Continue,
    /// Send [`Request::reply`]; the request is finished.
    Respond,
    /// Perform [`Request::effect`] and report it with [`Request::answer`].
    Perform,
    /// The host called out of order; it sends [`Reply::internal_error`] on its own.
    Misuse,
}

impl Action {
    /// The ABI code of the action (docs/contracts.md#the-c-abi).
    pub fn code(&self) -> u32 {
        match self {
            Action::Continue => 0,
            Action::Respond => 1,
            Action::Perform => 2,
            Action::Misuse => 3,
        }
    }
}

enum State {
    Fresh,
    /// The token is being introspected; the body is not read yet.
    Authorizing {
        kept: Kept,
        size_hint: usize,
    },
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
    epoch_ms: f64,
    /// Monotonic time of `epoch_ms`: wall-clock now is `epoch_ms + (now - started)`.
    started: f64,
    /// What introspection granted this request (with `authorization` only).
    grant: Option<Grant>,
    /// A progress event was sent: the reply is an event stream, its head already written.
    streaming: bool,
    deadline: Deadline,
    state: State,
    reply: Option<Reply>,
    effect: Option<Effect>,
}

/// One effect waiting for its answer: how to continue, and the id to echo (empty for a JSON-RPC
/// notification, which gets no reply).
struct Pending {
    resume: Resumable,
    id: Vec<u8>,
}

enum Resumable {
    /// An MCP `tools/call`, framed in the modern or the legacy envelope; `progress` when the
    /// configuration has `progress: true`, the client asked for progress and a JavaScript handler
    /// runs.
    Tool {
        call: ToolCall,
        legacy: bool,
        progress: Option<Progress>,
    },
    Rpc(RpcCall),
}

/// How a complete body was decided.
enum Decided {
    Respond(Reply),
    Perform(Effect, Pending),
}

impl Request {
    /// The reply, once the last action was `Respond`.
    pub fn reply(&self) -> Option<&Reply> {
        self.reply.as_ref()
    }

    /// The effect to perform, while the last action was `Perform`.
    pub fn effect(&self) -> Option<&Effect> {
        self.effect.as_ref()
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

    fn respond(&mut self, reply: Reply) -> Action {
        self.state = State::Done;
        self.effect = None;
        self.reply = Some(if self.streaming {
            progress::last_event(reply)
        } else {
            reply
        });
        Action::Respond
    }

    /// A progress report of the running handler. `First` means: write [`progress::stream_head`],
    /// then the bytes; the reply that follows is then the stream's last event (write its body only).
    pub fn progress(
        &mut self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
        now: f64,
    ) -> Reported {
        if self.deadline.expired(now) || !matches!(self.effect, Some(Effect::Handler(_))) {
            return Reported::Dropped;
        }
        let budget = self.engine.config.limits.response_bytes;
        let reported = match &mut self.state {
            State::Pending(Pending {
                resume:
                    Resumable::Tool {
                        progress: Some(p), ..
                    },
                ..
            }) => p.report(progress, total, message, budget),
            _ => Reported::Dropped,
        };
        if reported != Reported::Dropped {
            self.streaming = true;
        }
        reported
    }

    /// 408 for whatever phase the request is in: before the body is complete `-32600` without id;
    /// during a pending effect `-32603` with the id.
    fn interrupted(&mut self) -> Action {
        let budget = self.engine.config.limits.response_bytes;
        let reply = match std::mem::replace(&mut self.state, State::Done) {
            State::Pending(Pending { id, .. }) => {
                let e = RpcError::new(408, INTERNAL_ERROR, errors::CALL_INTERRUPTED);
                Reply::error(&e, Some(&id), Timing::AfterBody, budget)
            }
            _ => interrupted_body(budget),
        };
        self.respond(reply)
    }

    /// The request head: method, raw target (path and query) and every header line in arrival
    /// order. Rust hosts call this directly; the C ABI decodes its head record into the same call.
    pub fn head<I, N, V>(&mut self, method: &[u8], target: &[u8], lines: I, now: f64) -> Action
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        match self.state {
            State::Fresh => {}
            State::Done => return Action::Respond,
            _ => return Action::Misuse,
        }
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let mut head = match Head::read(method, target, lines) {
            Ok(h) => h,
            Err(HeadError::TooLarge) => return self.respond(Reply::empty(431, Timing::Early)),
            Err(HeadError::Malformed) => return Action::Misuse,
        };
        let card = &self.engine.frags.server_card;
        if !card.is_empty() && head.path == server_card::PATH {
            let reply = server_card::reply(card, &head.method);
            return self.respond(reply);
        }
        let config = &self.engine.config;
        if let Some(a) = &config.authorization {
            if a.is_metadata_path(&head.path) {
                let reply = a.metadata_reply(&head.method);
                return self.respond(reply);
            }
        }
        match admission::check(config, &head) {
            Ok(()) => {}
            Err(Refusal::Empty(status)) => {
                return self.respond(Reply::empty(status, Timing::Early))
            }
            Err(Refusal::TooLarge) => {
                let reply = too_large(config.limits.response_bytes);
                return self.respond(reply);
            }
        }
        let size_hint = admission::size_hint(&head, config.limits.request_bytes);
        if let Some(a) = &config.authorization {
            return match a.admit(&head) {
                Admission::Refuse(reply) => self.respond(reply),
                Admission::Introspect(effect) => {
                    self.state = State::Authorizing {
                        kept: head.keep(),
                        size_hint,
                    };
                    self.effect = Some(effect);
                    Action::Perform
                }
            };
        }
        self.state = State::Body {
            kept: head.keep(),
            parser: Parser::with_capacity(config.limits.depth, size_hint),
            received: 0,
        };
        Action::Continue
    }

    /// Wall-clock milliseconds at monotonic `now` (NaN without a wall clock).
    fn wall_ms(&self, now: f64) -> f64 {
        self.epoch_ms + (now - self.started)
    }

    /// The introspection answer: on a grant the body phase begins, else the refusal is the reply.
    fn authorized(&mut self, answer: Answer<'_>, now: f64) -> Action {
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let (kept, size_hint) = match std::mem::replace(&mut self.state, State::Done) {
            State::Authorizing { kept, size_hint } => (kept, size_hint),
            _ => unreachable!("checked by the caller"),
        };
        self.effect = None;
        let config = &self.engine.config;
        let verdict = match (&config.authorization, answer) {
            (Some(a), Answer::Http(h)) => a.judge(h, self.wall_ms(now)),
            _ => unreachable!("an introspection is pending only with authorization"),
        };
        match verdict {
            Err(reply) => self.respond(reply),
            Ok(grant) => {
                self.grant = Some(grant);
                self.state = State::Body {
                    kept,
                    parser: Parser::with_capacity(config.limits.depth, size_hint),
                    received: 0,
                };
                Action::Continue
            }
        }
    }

    /// What a body call answers before looking at bytes: the repeated reply once done, misuse
    /// outside the body phase, 408 past the deadline; `None` to go on.
    fn body_gate(&mut self, now: f64) -> Option<Action> {
        match self.state {
            State::Body { .. } => {}
            State::Done => return Some(Action::Respond),
            _ => return Some(Action::Misuse),
        }
        if self.deadline.expired(now) {
            return Some(self.interrupted());
        }
        None
    }

    pub fn body(&mut self, chunk: &[u8], now: f64) -> Action {
        if let Some(settled) = self.body_gate(now) {
            return settled;
        }
        let limits = self.engine.config.limits;
        let verdict = match &mut self.state {
            State::Body {
                parser, received, ..
            } => {
                // The verdict follows byte positions, not chunking: the admitted prefix of a chunk
                // that crosses the limit is parsed first, so a parse error before the limit wins.
                let room = limits.request_bytes - *received;
                let over = chunk.len() > room;
                let admitted = if over { &chunk[..room] } else { chunk };
                *received += admitted.len();
                match parser.feed(admitted) {
                    Err(e) => Some(parse_error(&e, Timing::Early, limits.response_bytes)),
                    Ok(()) if over => Some(too_large(limits.response_bytes)),
                    Ok(()) => None,
                }
            }
            _ => unreachable!("checked above"),
        };
        match verdict {
            Some(reply) => self.respond(reply),
            None => Action::Continue,
        }
    }

    pub fn end(&mut self, now: f64) -> Action {
        if let Some(settled) = self.body_gate(now) {
            return settled;
        }
        let (kept, parser) = match std::mem::replace(&mut self.state, State::Done) {
            State::Body { kept, parser, .. } => (kept, parser),
            _ => unreachable!("checked above"),
        };
        let engine = &*self.engine;
        let decided = match parser.finish() {
            Ok(doc) => dispatch(
                engine,
                &kept,
                &doc.root(),
                self.deadline.remaining(now),
                self.epoch_ms,
                self.grant.as_ref().map(|g| (g, self.wall_ms(now))),
            ),
            Err(e) => Decided::Respond(parse_error(
                &e,
                Timing::AfterBody,
                engine.config.limits.response_bytes,
            )),
        };
        self.settle(decided)
    }

    /// Reports the pending effect. An answer of the other effect's kind is host misuse.
    pub fn answer(&mut self, answer: Answer<'_>, now: f64) -> Action {
        match (&self.state, &self.effect, answer) {
            (State::Done, _, _) => return Action::Respond,
            (State::Authorizing { .. }, Some(Effect::Http(_)), Answer::Http(_)) => {
                return self.authorized(answer, now)
            }
            (State::Pending(_), Some(Effect::Http(_)), Answer::Http(_)) => {}
            (State::Pending(_), Some(Effect::Handler(_)), Answer::Handler(_)) => {}
            _ => return Action::Misuse,
        }
        if self.deadline.expired(now) {
            return self.interrupted();
        }
        let Pending { resume, id } = match std::mem::replace(&mut self.state, State::Done) {
            State::Pending(p) => p,
            _ => unreachable!("checked above"),
        };
        self.effect = None;
        let engine = &*self.engine;
        let tools = match &engine.config.tools {
            Some(t) => t,
            None => unreachable!("an effect is pending only when tools are configured"),
        };
        let remaining = self.deadline.remaining(now);
        let decided = match resume {
            Resumable::Tool {
                call,
                legacy,
                progress,
            } => tool_step(
                engine,
                tools.resume(call, answer, remaining),
                id,
                legacy,
                progress,
            ),
            Resumable::Rpc(call) => {
                rpc_step(engine, jsonrpc::resume(tools, call, answer, remaining), id)
            }
        };
        self.settle(decided)
    }

    pub fn answer_http(&mut self, answer: HttpAnswer<'_>, now: f64) -> Action {
        self.answer(Answer::Http(answer), now)
    }

    pub fn answer_handler(&mut self, answer: HandlerAnswer<'_>, now: f64) -> Action {
        self.answer(Answer::Handler(answer), now)
    }

    /// The body read failed or the client went away.
    pub fn abort(&mut self, _now: f64) -> Action {
        match self.state {
            State::Done => Action::Respond,
            _ => self.interrupted(),
        }
    }

    /// A host timer fired: answers 408 once the deadline has passed, else nothing changes.
    pub fn tick(&mut self, now: f64) -> Action {
        match self.state {
            State::Done => Action::Respond,
            _ if self.deadline.expired(now) => self.interrupted(),
            _ => Action::Continue,
        }
    }

    fn settle(&mut self, decided: Decided) -> Action {
        match decided {
            Decided::Respond(reply) => self.respond(reply),
            Decided::Perform(effect, pending) => {
                self.state = State::Pending(pending);
                self.effect = Some(effect);
                Action::Perform
            }
        }
    }
}

fn interrupted_body(budget: usize) -> Reply {
    let e = RpcError::new(408, INVALID_REQUEST, errors::BODY_INTERRUPTED);
    Reply::error(&e, None, Timing::Early, budget)
}

/// 400 -32700 without id: the body is not acceptable JSON (decided mid-body or at its end).
fn parse_error(e: &JsonError, timing: Timing, budget: usize) -> Reply {
    let e = RpcError::new(400, PARSE_ERROR, errors::parse_message(e));
    Reply::error(&e, None, timing, budget)
}

fn too_large(budget: usize) -> Reply {
    let e = RpcError::new(413, INVALID_REQUEST, errors::BODY_TOO_LARGE);
    Reply::error(&e, None, Timing::Early, budget)
}

fn fail(e: &Inner, err: &RpcError, id: Option<&[u8]>) -> Decided {
    Decided::Respond(Reply::error(
        err,
        id,
        Timing::AfterBody,
        e.config.limits.response_bytes,
    ))
}

/// Decides a complete body: a reply, or an effect to perform first. `grant` is what authorization
/// granted, with the wall-clock time right now.
fn dispatch(
    e: &Inner,
    kept: &Kept,
    root: &Value<'_>,
    remaining: f64,
    epoch_ms: f64,
    grant: Option<(&Grant, f64)>,
) -> Decided {
    let env = match envelope::classify(root) {
        Ok(env) => env,
        Err(invalid) => return fail(e, &invalid.error, invalid.id.as_deref()),
    };
    if let (Some(a), Some((g, now_ms))) = (&e.config.authorization, grant) {
        if let Err(reply) = a.permit(g, env.method.as_str().as_ref(), env.params.as_ref(), now_ms) {
            return Decided::Respond(reply);
        }
    }
    if e.config.jsonrpc {
        let (tools, object) = match (&e.config.tools, root) {
            (Some(t), Value::Object(o)) => (t, *o),
            _ => unreachable!(
                "config requires tools for the jsonrpc profile; classify admits objects only"
            ),
        };
        let s = jsonrpc::call(tools, object, remaining);
        return rpc_step(e, s, env.id.clone().unwrap_or_default());
    }
    let id = match &env.id {
        Some(id) => id.as_slice(),
        None => return notification(e, kept, &env),
    };
    let legacy = !modern::is_modern(kept, &env);
    let admitted = match (legacy, e.config.legacy) {
        (false, _) => modern::admit(kept, &env, &e.frags, &e.config),
        (true, true) => legacy::admit(kept, &env, &e.frags, &e.config),
        (true, false) => Err(legacy::refuse(kept, &env, &e.frags)),
    };
    let method = match admitted {
        Ok(m) => m,
        Err(err) => return fail(e, &err, Some(id)),
    };
    let serve = match method.serve {
        Some(s) => s,
        None => unreachable!("admission selects served methods only"),
    };
    let d = Dispatch {
        config: &e.config,
        frags: &e.frags,
        params: env.params.as_ref(),
        legacy,
        remaining_ms: remaining,
        epoch_ms,
        param_headers: &kept.params,
        grant: grant.map(|(g, _)| g),
    };
    match serve(&d) {
        Served::Result(result) => {
            Decided::Respond(Reply::result(id, &result, e.config.limits.response_bytes))
        }
        Served::Error(err) => fail(e, &err, Some(id)),
        Served::Tool(step) => {
            // Only on the modern profile, and only where the configuration opted in.
            let progress = if legacy || !e.config.progress {
                None
            } else {
                Progress::requested(env.params.as_ref())
            };
            tool_step(e, step, id.to_vec(), legacy, progress)
        }
    }
}

fn tool_step(e: &Inner, s: Step, id: Vec<u8>, legacy: bool, progress: Option<Progress>) -> Decided {
    match s {
        Step::ProtocolError {
            status,
            code,
            message,
        } => fail(e, &RpcError::new(status, code, message), Some(&id)),
        Step::Complete(r) => {
            Decided::Respond(calls::frame(&r, &id, legacy, &e.frags, &e.config.limits))
        }
        Step::Perform { mut effect, state } => {
            // Only a JavaScript handler can report progress.
            let progress = match &mut effect {
                Effect::Handler(h) if progress.is_some() => {
                    h.progress = true;
                    progress
                }
                _ => None,
            };
            Decided::Perform(
                effect,
                Pending {
                    resume: Resumable::Tool {
                        call: state,
                        legacy,
                        progress,
                    },
                    id,
                },
            )
        }
    }
}

/// Frames one JSON-RPC profile step; `id` is empty for a notification, which never gets a body.
fn rpc_step(e: &Inner, s: RpcStep, id: Vec<u8>) -> Decided {
    match s {
        RpcStep::Perform { effect, state } => Decided::Perform(
            effect,
            Pending {
                resume: Resumable::Rpc(state),
                id,
            },
        ),
        RpcStep::NoReply => Decided::Respond(Reply::empty(204, Timing::AfterBody)),
        // A notification is never answered, not even with an error.
        _ if id.is_empty() => Decided::Respond(Reply::empty(204, Timing::AfterBody)),
        RpcStep::Result(text) => {
            Decided::Respond(Reply::result(&id, &text, e.config.limits.response_bytes))
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
            fail(e, &err, Some(&id))
        }
    }
}

/// Valid notifications are accepted and discarded (202), unless a present `Mcp-Method` or
/// `MCP-Protocol-Version` header contradicts the body.
fn notification(e: &Inner, kept: &Kept, env: &Envelope<'_>) -> Decided {
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
            e,
            &RpcError::new(400, HEADER_MISMATCH, errors::HEADERS_DISAGREE),
            None,
        )
    } else {
        Decided::Respond(Reply::empty(202, Timing::AfterBody))
    }
}
