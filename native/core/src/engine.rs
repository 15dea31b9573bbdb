//! The engine (immutable, built once from the configuration) and the per-request state machine.
//!
//! A request is one [`State`]; each holds only what its phase needs (the kept MCP headers, the
//! pending effect, the grant, the body parser, the reply). Every host call is one event, and
//! `Request::transition` is the whole table: one `match (state, event)`.
//!
//! | state \ event | head              | body, end               | answer              | tick            | abort   | undecodable |
//! |---------------|-------------------|-------------------------|---------------------|-----------------|---------|-------------|
//! | `Fresh`       | `Body`, `Authorizing`, `Limiting` or `Done` | misuse | misuse    | `Fresh` / 408   | 408     | misuse      |
//! | `Limiting`    | misuse            | misuse                  | rate: `Limiting`, `Body`, `Authorizing`, `Pending` or `Done`; else misuse | `Limiting` / 408 | 408 | misuse |
//! | `Authorizing` | misuse            | misuse                  | HTTP, or cached when the effect named a `cache_key`: `Body` or `Done`; else misuse | `Authorizing` / 408 | 408 | misuse |
//! | `Body`        | misuse            | `Body` or `Done`; end: `Limiting`, `Pending` or `Done` | misuse | `Body` / 408 | 408 | misuse |
//! | `Pending`     | misuse            | misuse                  | same kind: `Pending` or `Done`; other or cached: misuse | `Pending` / 408 | 408 | misuse |
//! | `Done`        | `Done`            | `Done`                  | `Done`              | `Done`          | `Done`  | misuse      |
//! | `Misused`     | misuse            | misuse                  | misuse              | misuse          | misuse  | misuse      |
//!
//! "408" is `Done` with the 408 of the phase (`-32600` before the body is complete, `-32603` with
//! the id while an effect is pending); a call in order past the deadline ends so as well, and
//! `tick` before it changes nothing. `Done` repeats its reply to every call in order. "misuse" is
//! `Misused`, which is final: the host answers its own 500, and every later call answers `Misuse`
//! again, so no reply can reach the wire as a success after the host broke the order.
//! "undecodable" is a call the host's binding could not decode ([`Request::misuse`]). A progress
//! report is no transition: `Pending` only notes that its reply became an event stream.
use std::rc::Rc;

use crate::admission::{self, Refusal};
use crate::authorization::{Admission, Grant};
use crate::calls;
use crate::config::{state_key_from, Config, ConfigError, Secret, SecretRef};
use crate::cors;
use crate::deadline::Deadline;
use crate::discover;
use crate::effect::{Answer, CacheEntry, Effect, HandlerAnswer, HttpAnswer, RateAnswer};
use crate::envelope::{self, meta, Envelope, PROTOCOL_VERSION_KEY};
use crate::errors::{
    self, RpcError, HEADER_MISMATCH, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR,
};
use crate::event::{Fields, Trail};
use crate::fragments::Fragments;
use crate::head::{Head, HeadError, Kept};
use crate::json::{Document, JsonError, Parser, Value};
use crate::jsonrpc::{self, RpcCall, RpcStep};
use crate::legacy;
use crate::limits::Limits;
use crate::methods::{Dispatch, Served};
use crate::modern;
use crate::progress::{self, Progress, Reported};
use crate::rate_limit::{self, Budget, Scope};
use crate::reply::{Reply, Timing};
use crate::server_card;
use crate::tools::{Step, ToolCall, Tools};

struct Inner {
    config: Config,
    frags: Fragments,
    /// The rate limits' recent entries (a memo of digests; it changes no answer).
    entries: rate_limit::Entries,
}

/// An immutable engine (but for the memo of rate-limit entries, which changes no answer); cloning
/// shares it (requests keep it alive).
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
            inner: Rc::new(Inner {
                config,
                frags,
                entries: rate_limit::Entries::default(),
            }),
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

    /// The Fastly log endpoint the Native service writes request events to (`fastlyLogEndpoint`).
    pub fn log_endpoint(&self) -> Option<&str> {
        self.inner.config.log_endpoint.as_deref()
    }

    /// Whether a rate limit counts per client address: the host then reports it
    /// ([`Request::client`]); otherwise it need not look it up.
    pub fn needs_client_address(&self) -> bool {
        needs_client_address(&self.inner.config)
    }

    pub(crate) fn config(&self) -> &Config {
        &self.inner.config
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
            cors: None,
            deadline: Deadline::new(now, self.inner.config.limits.deadline_ms),
            state: State::Fresh,
            cache_entry: None,
            trail: Trail::default(),
            client: None,
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
    /// The host called out of order; it sends [`Reply::internal_error`] on its own. Final: every
    /// later call on the request answers `Misuse` again.
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

/// Where a request is; everything only one phase needs lives in its variant.
enum State {
    Fresh,
    /// A rate limit is counting (`rate_limit.rs`).
    Limiting(Box<Limiting>),
    /// The token is being introspected (`effect`); the body is not read yet.
    Authorizing {
        kept: Kept,
        size_hint: usize,
        effect: Effect,
    },
    Body {
        kept: Kept,
        parser: Parser,
        received: usize,
        /// What introspection granted (with `authorization` only).
        grant: Option<Grant>,
    },
    Pending(Pending),
    /// The reply, repeated to every later call but misuse.
    Done(Reply),
    /// The host broke the call order (or a contract inside the core broke): nothing may reach the
    /// wire as this request's reply but the host's own 500.
    Misused,
}

/// What the host calls, as the table sees it.
enum Event<'a> {
    /// Boxed: a head is read once per request, and the other events stay small.
    Head(Result<Box<Head>, HeadError>),
    Body(&'a [u8]),
    End,
    Answer(Answer<'a>),
    Abort,
    Tick,
    /// A call the host's binding could not even decode (not a head record, a status out of range).
    Misuse,
}

pub struct Request {
    engine: Rc<Inner>,
    epoch_ms: f64,
    /// Monotonic time of `epoch_ms`: wall-clock now is `epoch_ms + (now - started)`.
    started: f64,
    /// The listed origin every reply names (`cors: true`); known once the head is read, `None`
    /// before, so a reply of any state reads it.
    cors: Option<String>,
    deadline: Deadline,
    state: State,
    /// What the host keeps of this request's introspection (`authorization.cache`), until taken.
    cache_entry: Option<CacheEntry>,
    /// What the request said, for its event.
    trail: Trail,
    /// The client address's key for the rate limits (`rate_limit::address_key`), when the host
    /// reported one.
    client: Option<String>,
}

/// One effect waiting for its answer: how to continue, and the id to echo (empty for a JSON-RPC
/// notification, which gets no reply).
struct Pending {
    effect: Effect,
    resume: Resumable,
    id: Vec<u8>,
    /// A progress event was sent: the reply is an event stream, its head already written.
    streaming: bool,
}

/// A rate check in progress: its effect, the budget it counts against, and what follows when the
/// request may go on.
struct Limiting {
    effect: Effect,
    budget: Budget,
    /// The count went over and the entry is being put in the penalty box: the request is refused
    /// whatever the answer.
    penalizing: bool,
    gate: Gate,
}

enum Gate {
    /// The client address, before authorization: the head's admission decided what comes next.
    Head {
        kept: Kept,
        size_hint: usize,
        next: Next,
    },
    /// The caller, before a `tools/call` runs (`id` is `None` for a notification).
    Call {
        kept: Kept,
        doc: Document,
        grant: Option<Grant>,
        id: Option<Vec<u8>>,
    },
}

/// What the head's admission decided, for after the address's count.
enum Next {
    Refuse(Reply),
    Introspect(Effect),
    Body,
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

/// How a complete body (or an effect's answer) was decided.
enum Decided {
    Respond(Reply),
    Perform(Effect, Resumable, Vec<u8>),
    /// The configuration contradicts a decision taken before (a call pending without tools, a
    /// method admitted but not served): the request ends as misuse, which the host answers 500.
    Broken,
}

impl Request {
    /// The reply, once the last action was `Respond`.
    pub fn reply(&self) -> Option<&Reply> {
        match &self.state {
            State::Done(reply) => Some(reply),
            _ => None,
        }
    }

    /// The effect to perform, while the last action was `Perform`.
    pub fn effect(&self) -> Option<&Effect> {
        match &self.state {
            State::Authorizing { effect, .. } | State::Pending(Pending { effect, .. }) => {
                Some(effect)
            }
            State::Limiting(l) => Some(&l.effect),
            _ => None,
        }
    }

    /// The request event (`event.rs`) once the request is finished: the reply's outcome, or the
    /// host's own 500 after misuse.
    pub fn event_fields(&self) -> Option<Fields<'_>> {
        match &self.state {
            State::Done(reply) => Some(self.trail.fields(reply)),
            State::Misused => Some(self.trail.fields(&Reply::internal_error())),
            _ => None,
        }
    }

    /// [`Request::event_fields`] as one JSON object in `out`; `false` before the request is finished.
    pub fn event(&self, out: &mut Vec<u8>) -> bool {
        self.event_fields().map(|f| f.write(out)).is_some()
    }

    /// The entry the host keeps after the introspection it performed, once: the driver asks right
    /// after answering an HTTP effect that carried a `cache_key`.
    pub fn take_cache_entry(&mut self) -> Option<CacheEntry> {
        self.cache_entry.take()
    }

    /// Answered, or ended by misuse: no call changes the request any more.
    pub fn is_finished(&self) -> bool {
        matches!(self.state, State::Done(_) | State::Misused)
    }

    /// How long the host may wait for its next event; `0` once expired or finished.
    pub fn timeout_ms(&self, now: f64) -> f64 {
        if self.is_finished() {
            0.0
        } else {
            self.deadline.remaining(now)
        }
    }

    /// The head of an event-stream reply ([`progress::stream_head`] with the cross-origin headers).
    pub fn stream_head(&self) -> Reply {
        let mut head = progress::stream_head();
        if let Some(origin) = &self.cors {
            cors::decorate(&mut head, origin);
        }
        head
    }

    /// A progress report of the running handler. `First` means: write [`Request::stream_head`],
    /// then the bytes; the reply that follows is then the stream's last event (write its body only).
    /// Not a transition: the request stays `Pending`, and a report at any other time (a late one
    /// included) is dropped, never misuse.
    pub fn progress(
        &mut self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
        now: f64,
    ) -> Reported {
        if self.deadline.expired(now) {
            return Reported::Dropped;
        }
        let budget = self.engine.config.limits.response_bytes;
        match &mut self.state {
            State::Pending(Pending {
                effect: Effect::Handler(_),
                resume:
                    Resumable::Tool {
                        progress: Some(p), ..
                    },
                streaming,
                ..
            }) => {
                let reported = p.report(progress, total, message, budget);
                if reported != Reported::Dropped {
                    *streaming = true;
                }
                reported
            }
            _ => Reported::Dropped,
        }
    }

    /// The client's address as the host knows it (the TCP peer, or what a trusted proxy vouches
    /// for), before the head: the key of the rate limits that count per address. Text that is no
    /// IP address is ignored, and so is every address when no limit counts per address.
    pub fn client(&mut self, address: &str) {
        if needs_client_address(&self.engine.config) {
            self.client = rate_limit::address_key(address);
        }
    }

    /// The request head: method, raw target (path and query) and every header line in arrival
    /// order. Rust hosts call this directly; the C ABI decodes its head record into the same call.
    pub fn head<I, N, V>(&mut self, method: &[u8], target: &[u8], lines: I, now: f64) -> Action
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        self.step(
            Event::Head(Head::read(method, target, lines).map(Box::new)),
            now,
        )
    }

    pub fn body(&mut self, chunk: &[u8], now: f64) -> Action {
        self.step(Event::Body(chunk), now)
    }

    pub fn end(&mut self, now: f64) -> Action {
        self.step(Event::End, now)
    }

    /// Reports the pending effect. An answer of the other effect's kind is host misuse.
    pub fn answer(&mut self, answer: Answer<'_>, now: f64) -> Action {
        self.step(Event::Answer(answer), now)
    }

    pub fn answer_http(&mut self, answer: HttpAnswer<'_>, now: f64) -> Action {
        self.answer(Answer::Http(answer), now)
    }

    pub fn answer_handler(&mut self, answer: HandlerAnswer<'_>, now: f64) -> Action {
        self.answer(Answer::Handler(answer), now)
    }

    /// Answers the pending introspection from the host's fresh entry under its `cache_key`.
    pub fn answer_cached(&mut self, value: &[u8], now: f64) -> Action {
        self.answer(Answer::Cached(value), now)
    }

    /// The body read failed or the client went away.
    pub fn abort(&mut self, now: f64) -> Action {
        self.step(Event::Abort, now)
    }

    /// A host timer fired: answers 408 once the deadline has passed, else nothing changes.
    pub fn tick(&mut self, now: f64) -> Action {
        self.step(Event::Tick, now)
    }

    /// A call the host's binding could not decode into one of the calls above (a record that is
    /// not one, a status or a failure reason out of range): the request ends as misuse.
    pub fn misuse(&mut self) -> Action {
        self.step(Event::Misuse, f64::NAN)
    }

    /// The one place the state changes: the table at the top of this file. While a transition runs
    /// the request is `Misused`, so it stays so should the transition not return.
    fn step(&mut self, event: Event<'_>, now: f64) -> Action {
        if let Event::Body(chunk) = &event {
            self.trail.received(chunk.len());
        }
        let state = std::mem::replace(&mut self.state, State::Misused);
        let (next, action) = self.transition(state, event, now);
        self.state = next;
        action
    }

    fn transition(&mut self, state: State, event: Event<'_>, now: f64) -> (State, Action) {
        let expired = self.deadline.expired(now);
        match (state, event) {
            (State::Misused, _) | (_, Event::Misuse) => misused(),
            (State::Done(reply), _) => (State::Done(reply), Action::Respond),
            // Past the deadline every call in order ends the request with 408.
            (State::Fresh, Event::Head(_) | Event::Tick)
            | (
                State::Authorizing { .. },
                Event::Answer(Answer::Http(_) | Answer::Cached(_)) | Event::Tick,
            )
            | (State::Body { .. }, Event::Body(_) | Event::End | Event::Tick)
                if expired =>
            {
                self.done(interrupted_body(self.budget()), false)
            }
            (State::Fresh | State::Authorizing { .. } | State::Body { .. }, Event::Abort) => {
                self.done(interrupted_body(self.budget()), false)
            }
            (State::Limiting(l), Event::Answer(Answer::Rate(_)) | Event::Tick) if expired => {
                self.gate_interrupted(l.gate)
            }
            (State::Limiting(l), Event::Abort) => self.gate_interrupted(l.gate),
            (State::Limiting(l), Event::Answer(Answer::Rate(a))) => self.counted(*l, a, now),
            (State::Pending(p), Event::Answer(a)) if !same_kind(&p.effect, &a) => misused(),
            (State::Pending(p), Event::Answer(_) | Event::Tick) if expired => self.interrupted(p),
            (State::Pending(p), Event::Abort) => self.interrupted(p),
            (state, Event::Tick) => (state, Action::Continue),
            (State::Fresh, Event::Head(head)) => self.read_head(head),
            (
                State::Authorizing {
                    kept,
                    size_hint,
                    effect,
                },
                Event::Answer(answer),
            ) => self.authorized(kept, size_hint, &effect, answer, now),
            (
                State::Body {
                    kept,
                    mut parser,
                    mut received,
                    grant,
                },
                Event::Body(chunk),
            ) => match self.feed(&mut parser, &mut received, chunk) {
                Some(reply) => self.done(reply, false),
                None => (
                    State::Body {
                        kept,
                        parser,
                        received,
                        grant,
                    },
                    Action::Continue,
                ),
            },
            (
                State::Body {
                    kept,
                    parser,
                    grant,
                    ..
                },
                Event::End,
            ) => self.ended(kept, parser, grant, now),
            (State::Pending(p), Event::Answer(a)) => self.resumed(p, a, now),
            // Anything else is out of order.
            (_, Event::Head(_) | Event::Body(_) | Event::End | Event::Answer(_)) => misused(),
        }
    }

    fn budget(&self) -> usize {
        self.engine.config.limits.response_bytes
    }

    /// The final reply: it names the listed origin, and after a progress event it is the stream's
    /// last event.
    fn done(&self, mut reply: Reply, streaming: bool) -> (State, Action) {
        if let Some(origin) = &self.cors {
            cors::decorate(&mut reply, origin);
        }
        let reply = if streaming {
            progress::last_event(reply)
        } else {
            reply
        };
        (State::Done(reply), Action::Respond)
    }

    /// 408 `-32603` with the id: the request ended while its effect was pending.
    fn interrupted(&self, p: Pending) -> (State, Action) {
        let e = RpcError::new(408, INTERNAL_ERROR, errors::CALL_INTERRUPTED);
        let reply = Reply::error(&e, Some(&p.id), Timing::AfterBody, self.budget());
        self.done(reply, p.streaming)
    }

    fn read_head(&mut self, head: Result<Box<Head>, HeadError>) -> (State, Action) {
        let mut head = match head {
            Ok(h) => *h,
            Err(HeadError::TooLarge) => return self.done(Reply::empty(431, Timing::Early), false),
            Err(HeadError::Malformed) => return misused(),
        };
        self.cors = admission::cors_origin(&self.engine.config, &head);
        let card = &self.engine.frags.server_card;
        if !card.is_empty() && head.path == server_card::PATH {
            return self.done(server_card::reply(card, &head.method), false);
        }
        let config = &self.engine.config;
        if let Some(a) = &config.authorization {
            if a.is_metadata_path(&head.path) {
                return self.done(a.metadata_reply(&head.method), false);
            }
        }
        match admission::check(config, &head) {
            Ok(()) => {}
            Err(Refusal::Empty(status)) => {
                return self.done(Reply::empty(status, Timing::Early), false)
            }
            Err(Refusal::TooLarge) => {
                return self.done(too_large(config.limits.response_bytes), false)
            }
            Err(Refusal::Preflight(reply)) => return self.done(reply, false),
        }
        let size_hint = admission::size_hint(&head, config.limits.request_bytes);
        let next = match &config.authorization {
            Some(a) => match a.admit(&head) {
                Admission::Refuse(reply) => Next::Refuse(reply),
                Admission::Introspect(effect) => Next::Introspect(effect),
            },
            None => Next::Body,
        };
        let kept = head.keep();
        // The address's count comes before authorization: an unknown token costs no introspection.
        if let Some((r, budget)) = config
            .rate_limit
            .as_ref()
            .and_then(|r| r.requests.map(|b| (r, b)))
        {
            let key = match &self.client {
                Some(k) => k,
                None => return self.done(no_client_address(config.limits.response_bytes), false),
            };
            let entry = self.engine.entries.get(Scope::Requests, key);
            let effect = Effect::Rate(r.count(entry, &budget, true));
            let gate = Gate::Head {
                kept,
                size_hint,
                next,
            };
            return limiting(effect, budget, false, gate);
        }
        self.admitted(kept, size_hint, next)
    }

    /// The head was admitted (and its address counted): refused, introspected, or read.
    fn admitted(&self, kept: Kept, size_hint: usize, next: Next) -> (State, Action) {
        match next {
            Next::Refuse(reply) => self.done(reply, false),
            Next::Introspect(effect) => (
                State::Authorizing {
                    kept,
                    size_hint,
                    effect,
                },
                Action::Perform,
            ),
            Next::Body => (
                State::Body {
                    kept,
                    parser: Parser::with_capacity(self.engine.config.limits.depth, size_hint),
                    received: 0,
                    grant: None,
                },
                Action::Continue,
            ),
        }
    }

    /// A rate effect's answer: the request goes on, or is refused 429 (a charge over the limit
    /// first puts its entry in the penalty box). A store that cannot answer admits the request:
    /// the limit protects the service, it must not take the service down.
    fn counted(&mut self, l: Limiting, answer: RateAnswer, now: f64) -> (State, Action) {
        let Limiting {
            effect,
            budget,
            penalizing,
            gate,
        } = l;
        let over = match (penalizing, answer) {
            (true, RateAnswer::Penalized | RateAnswer::Failed) => true,
            (false, RateAnswer::Counted { boxed: true, .. }) => true,
            (false, RateAnswer::Counted { count, .. }) if count > budget.limit => {
                let (entry, r) = match (effect, &self.engine.config.rate_limit) {
                    (Effect::Rate(e), Some(r)) => (e.entry, r),
                    // A rate effect is pending only with rate limits.
                    _ => return misused(),
                };
                let effect = Effect::Rate(r.penalize(entry, &budget));
                return limiting(effect, budget, true, gate);
            }
            (false, RateAnswer::Counted { .. } | RateAnswer::Failed) => false,
            // Penalized for a count, or a count for a penalty.
            _ => return misused(),
        };
        if over {
            let limit = self.budget();
            let reply = match &gate {
                Gate::Head { .. } => {
                    rate_limit::limited(&budget, None, false, Timing::Early, limit)
                }
                Gate::Call { id, .. } => rate_limit::limited(
                    &budget,
                    id.as_deref(),
                    id.is_none(),
                    Timing::AfterBody,
                    limit,
                ),
            };
            return self.done(reply, false);
        }
        match gate {
            Gate::Head {
                kept,
                size_hint,
                next,
            } => self.admitted(kept, size_hint, next),
            Gate::Call {
                kept, doc, grant, ..
            } => self.dispatched(&kept, &doc, grant.as_ref(), now),
        }
    }

    /// The request ended while its rate effect was pending: 408 of its phase.
    fn gate_interrupted(&self, gate: Gate) -> (State, Action) {
        match gate {
            Gate::Head { .. } => self.done(interrupted_body(self.budget()), false),
            Gate::Call { id, .. } => {
                let e = RpcError::new(408, INTERNAL_ERROR, errors::CALL_INTERRUPTED);
                let reply = Reply::error(&e, id.as_deref(), Timing::AfterBody, self.budget());
                self.done(reply, false)
            }
        }
    }

    /// Wall-clock milliseconds at monotonic `now` (NaN without a wall clock).
    fn wall_ms(&self, now: f64) -> f64 {
        self.epoch_ms + (now - self.started)
    }

    /// The introspection answer, performed or from the host's cache: on a grant the body phase
    /// begins, else the refusal is the reply. A performed one may leave an entry for the host.
    fn authorized(
        &mut self,
        kept: Kept,
        size_hint: usize,
        effect: &Effect,
        answer: Answer<'_>,
        now: f64,
    ) -> (State, Action) {
        let engine = Rc::clone(&self.engine);
        let config = &engine.config;
        // An introspection is pending only with authorization.
        let a = match &config.authorization {
            Some(a) => a,
            None => return misused(),
        };
        let key = match effect {
            Effect::Http(h) => h.cache_key.as_deref(),
            Effect::Handler(_) | Effect::Rate(_) => None,
        };
        let now_ms = self.wall_ms(now);
        let verdict = match answer {
            Answer::Http(h) => {
                let (verdict, entry) = a.judge(h, key, now_ms);
                self.cache_entry = entry;
                verdict
            }
            // Only an effect that named a key may be answered from a store.
            Answer::Cached(value) if key.is_some() => a.judge_cached(value, now_ms),
            Answer::Cached(_) | Answer::Handler(_) | Answer::Rate(_) => return misused(),
        };
        match verdict {
            Err(reply) => self.done(reply, false),
            Ok(grant) => (
                State::Body {
                    kept,
                    parser: Parser::with_capacity(config.limits.depth, size_hint),
                    received: 0,
                    grant: Some(grant),
                },
                Action::Continue,
            ),
        }
    }

    /// Feeds one chunk; the reply when it ends the request.
    fn feed(&self, parser: &mut Parser, received: &mut usize, chunk: &[u8]) -> Option<Reply> {
        let limits = self.engine.config.limits;
        // The verdict follows byte positions, not chunking: the admitted prefix of a chunk that
        // crosses the limit is parsed first, so a parse error before the limit wins.
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

    fn ended(
        &mut self,
        kept: Kept,
        parser: Parser,
        grant: Option<Grant>,
        now: f64,
    ) -> (State, Action) {
        let doc = match parser.finish() {
            Ok(d) => d,
            Err(e) => {
                let reply = parse_error(&e, Timing::AfterBody, self.budget());
                return self.settle(Decided::Respond(reply), false);
            }
        };
        self.trail.body(&doc.root(), &kept, grant.as_ref());
        let engine = Rc::clone(&self.engine);
        if let Some(r) = &engine.config.rate_limit {
            let now_ms = self.wall_ms(now);
            match call_check(
                &engine,
                r,
                &doc.root(),
                grant.as_ref(),
                self.client.as_deref(),
                now_ms,
            ) {
                CallCheck::Free => {}
                CallCheck::NoKey => return self.done(no_client_address(self.budget()), false),
                CallCheck::Count { effect, budget, id } => {
                    let gate = Gate::Call {
                        kept,
                        doc,
                        grant,
                        id,
                    };
                    return limiting(effect, budget, false, gate);
                }
            }
        }
        self.dispatched(&kept, &doc, grant.as_ref(), now)
    }

    /// Decides the complete body (`dispatch`).
    fn dispatched(
        &self,
        kept: &Kept,
        doc: &Document,
        grant: Option<&Grant>,
        now: f64,
    ) -> (State, Action) {
        let decided = dispatch(
            &self.engine,
            kept,
            &doc.root(),
            self.deadline.remaining(now),
            self.epoch_ms,
            grant.map(|g| (g, self.wall_ms(now))),
        );
        self.settle(decided, false)
    }

    /// The pending effect's answer, of the effect's kind.
    fn resumed(&self, p: Pending, answer: Answer<'_>, now: f64) -> (State, Action) {
        let engine = &*self.engine;
        let tools = match &engine.config.tools {
            Some(t) => t,
            // An effect is pending only when tools are configured.
            None => return misused(),
        };
        let remaining = self.deadline.remaining(now);
        let decided = match p.resume {
            Resumable::Tool {
                call,
                legacy,
                progress,
            } => tool_step(
                engine,
                tools.resume(call, answer, remaining),
                p.id,
                legacy,
                progress,
            ),
            Resumable::Rpc(call) => rpc_step(
                engine,
                jsonrpc::resume(tools, call, answer, remaining),
                p.id,
            ),
        };
        self.settle(decided, p.streaming)
    }

    fn settle(&self, decided: Decided, streaming: bool) -> (State, Action) {
        match decided {
            Decided::Respond(reply) => self.done(reply, streaming),
            Decided::Perform(effect, resume, id) => (
                State::Pending(Pending {
                    effect,
                    resume,
                    id,
                    streaming,
                }),
                Action::Perform,
            ),
            Decided::Broken => misused(),
        }
    }
}

fn misused() -> (State, Action) {
    (State::Misused, Action::Misuse)
}

fn needs_client_address(config: &Config) -> bool {
    matches!(&config.rate_limit, Some(r) if r.counts_addresses(config.authorization.is_some()))
}

fn limiting(effect: Effect, budget: Budget, penalizing: bool, gate: Gate) -> (State, Action) {
    let l = Limiting {
        effect,
        budget,
        penalizing,
        gate,
    };
    (State::Limiting(Box::new(l)), Action::Perform)
}

/// 500 for a host that reported no client address where a rate limit counts per address.
fn no_client_address(budget: usize) -> Reply {
    Reply::internal(errors::NO_CLIENT_ADDRESS, None, Timing::Early, budget)
}

/// Whether a complete body is a `tools/call` the caller budget counts.
enum CallCheck {
    Free,
    /// Counted per client address, and the host reported none.
    NoKey,
    Count {
        effect: Effect,
        budget: Budget,
        id: Option<Vec<u8>>,
    },
}

/// A `tools/call` naming a declared tool the caller may call is charged, valid input or not; a
/// notification is only looked up in the penalty box. Anything else is left to `dispatch`, which
/// refuses it or answers it uncharged. The caller is the authorized `sub`, else the client address.
fn call_check(
    e: &Inner,
    r: &rate_limit::RateLimit,
    root: &Value<'_>,
    grant: Option<&Grant>,
    client: Option<&str>,
    now_ms: f64,
) -> CallCheck {
    let env = match envelope::classify(root) {
        Ok(env) => env,
        Err(_) => return CallCheck::Free,
    };
    if env.method.as_str() != "tools/call" {
        return CallCheck::Free;
    }
    let name = match env.params.as_ref().and_then(|p| p.get("name")) {
        Some(Value::String(s)) => s.as_str(),
        _ => return CallCheck::Free,
    };
    if !matches!(&e.config.tools, Some(t) if t.find(&name).is_some()) {
        return CallCheck::Free;
    }
    if let (Some(a), Some(g)) = (&e.config.authorization, grant) {
        if a.permit(g, "tools/call", env.params.as_ref(), now_ms)
            .is_err()
        {
            return CallCheck::Free;
        }
    }
    let (budget, scope) = match r.call_budget(&name) {
        Some(b) => b,
        None => return CallCheck::Free,
    };
    let key = match (grant, client) {
        (Some(g), _) => g.sub(),
        (None, Some(c)) => c,
        (None, None) => return CallCheck::NoKey,
    };
    let charge = env.id.is_some();
    CallCheck::Count {
        effect: Effect::Rate(r.count(e.entries.get(scope, key), &budget, charge)),
        budget,
        id: env.id,
    }
}

/// Whether `answer` reports an effect of `effect`'s kind.
fn same_kind(effect: &Effect, answer: &Answer<'_>) -> bool {
    matches!(
        (effect, answer),
        (Effect::Http(_), Answer::Http(_)) | (Effect::Handler(_), Answer::Handler(_))
    )
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
            // The configuration requires tools for the profile, and `classify` admits objects only.
            _ => return Decided::Broken,
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
        // Admission selects served methods only.
        None => return Decided::Broken,
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
            let resume = Resumable::Tool {
                call: state,
                legacy,
                progress,
            };
            Decided::Perform(effect, resume, id)
        }
    }
}

/// Frames one JSON-RPC profile step; `id` is empty for a notification, which never gets a body.
fn rpc_step(e: &Inner, s: RpcStep, id: Vec<u8>) -> Decided {
    match s {
        RpcStep::Perform { effect, state } => Decided::Perform(effect, Resumable::Rpc(state), id),
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
