//! The tools pipeline seen from the engine (docs/contracts.md#the-tools-pipeline): names, codecs and handler kinds.
//! The engine owns all framing and budgets of the reply; this side decides what a call produces.
use crate::codec::{self, CodecError, Program};
use crate::content;
use crate::corpus::Corpus;
use crate::decl::{valid_bearer, SecretRef};
use crate::effect::{self, Answer, Effect, HandlerAnswer, HttpAnswer, HttpFailure, HttpVerdict};
use crate::header_params;
use crate::json::{self, Value};
use crate::limits::Limits;
use crate::manifest::{self, CorpusAction, Handler, Op};
use crate::mrtr::Inputs;
use crate::outbound;
use crate::rpc_client;

pub const UNKNOWN_TOOL: &str = "Unknown tool";
pub const OUTPUT_INVALID: &str = "Output validation failed";
pub const ENTRY_NOT_FOUND: &str = "Entry not found";
pub const BACKEND_FAILED: &str = "Backend request failed";
/// The engine's message for the same 408, so the answer never depends on which side of the
/// deadline instant the host's timer fell.
pub const DEADLINE: &str = crate::errors::CALL_INTERRUPTED;
pub const INTERNAL: &str = crate::errors::INTERNAL;
pub const UNKNOWN_OPERATION: &str = "Unknown operation";
pub const INVALID_JSON: &str = "Invalid JSON";
/// A catalog-backed call whose input the backend's own validation refused.
pub const INPUT_REFUSED: &str = "Input validation failed";
pub const INPUT_UNAVAILABLE: &str =
    "Tool execution failed: this tool needs client input, which this protocol profile cannot request";
const INTERNAL_ERROR: i32 = -32603;

/// The compiled tool set of one engine, built once from the manifest.
pub struct Tools {
    /// The secret the catalog-backed tools' bearer waits for; their calls fail closed until set.
    bearer_secret: Option<SecretRef>,
    list_json: Vec<u8>,
    ops: Vec<Op>,
    /// Op indexes sorted by name.
    by_name: Vec<usize>,
    corpora: Vec<Corpus>,
    deadline_ms: f64,
    limits: Limits,
}

/// A decoded call, before its declared inputs are gathered.
pub struct Prepared<'t> {
    op: usize,
    /// Canonical decoded input; `None` for a tool without input.
    pub input: Option<Vec<u8>>,
    pub inputs: Option<&'t Inputs>,
}

/// How close to the request's deadline a JavaScript handler's failure may be reported and still be
/// the deadline's 408 (when the deadline, not the router's `deadlineMs`, bounded the run). Hosts time
/// the run with whole-millisecond timers: the wait handed out is rounded down (up to 1 ms short), and
/// a runtime counting whole milliseconds may fire its timer up to 1 ms before the finer clock that
/// reports `now` reaches it. A handler's own timeout at the deadline lands in this window, never
/// after it; a throw this late is treated alike, as the request has no time left to answer it.
pub const HANDLER_DEADLINE_SLACK_MS: f64 = 2.0;

/// State of one in-flight `tools/call` between an outbound instruction and its answer.
pub struct ToolCall {
    op: usize,
    /// Whether the request's remaining deadline, not the declared timeout (backend calls) or the
    /// router's `deadlineMs` (JavaScript handlers), bounded the wait.
    deadline_bound: bool,
    max_bytes: usize,
}

/// What a tool call produced; the engine frames it (resultType, _meta, legacy form, budgets).
pub struct ToolResult {
    pub is_error: bool,
    /// The text content block (serialized structured output, `null`, or a fixed error message).
    pub text: String,
    /// Canonical JSON of `structuredContent`, when there is one.
    pub structured: Option<Vec<u8>>,
    /// Canonical content blocks of a content tool, sent instead of the text block.
    pub content: Option<Vec<u8>>,
}

pub enum Step {
    /// A JSON-RPC protocol error; the engine frames it with the request id.
    ProtocolError {
        status: u16,
        code: i32,
        message: &'static str,
    },
    Complete(ToolResult),
    /// An effect for the host to perform; continue with `Tools::resume`.
    Perform {
        effect: Effect,
        state: ToolCall,
    },
}

/// Which codec of an operation `Tools::check` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}

/// A finished call before MCP framing; the JSON-RPC profile frames the same outcomes differently.
pub(crate) enum Outcome {
    /// Canonical output, or `None` for a tool without output.
    Output(Option<Vec<u8>>),
    /// Canonical content blocks of a content tool.
    Content(Vec<u8>),
    InvalidInput(CodecError),
    /// The handler failed (fixed message).
    Failed(&'static str),
    InvalidOutput,
    Protocol {
        status: u16,
        code: i32,
        message: &'static str,
    },
}

pub(crate) enum Flow {
    Done(Outcome),
    Perform { effect: Effect, state: ToolCall },
}

fn protocol(status: u16, message: &'static str) -> Flow {
    Flow::Done(Outcome::Protocol {
        status,
        code: INTERNAL_ERROR,
        message,
    })
}

/// Whole milliseconds a host may wait: the smallest bound, rounded down; `None` when none is left.
fn wait_ms(bounds: &[f64]) -> Option<u64> {
    let ms = bounds.iter().cloned().fold(f64::INFINITY, f64::min);
    if ms.is_finite() && ms >= 1.0 {
        Some(ms.floor() as u64)
    } else {
        None
    }
}

impl Tools {
    pub fn from_manifest(manifest: Value<'_>, limits: &Limits) -> Result<Tools, String> {
        let m = manifest::parse(manifest, limits)?;
        let mut by_name: Vec<usize> = (0..m.ops.len()).collect();
        by_name.sort_by(|&a, &b| m.ops[a].name.cmp(&m.ops[b].name));
        Ok(Tools {
            bearer_secret: m.bearer_secret,
            list_json: m.list_json,
            ops: m.ops,
            by_name,
            corpora: m.corpora,
            deadline_ms: m.deadline_ms,
            limits: *limits,
        })
    }

    /// The secret to read and pass to [`Tools::set_bearer`] before a catalog-backed call can run.
    pub fn bearer_secret(&self) -> Option<&SecretRef> {
        self.bearer_secret.as_ref()
    }

    /// Installs the catalog-backed tools' bearer token read from the secret store. The token never
    /// appears in a message.
    pub fn set_bearer(&mut self, token: &[u8]) -> Result<(), String> {
        if self.bearer_secret.is_none() {
            return Err("tools: no bearer secret is waiting to be installed".to_string());
        }
        let token = match std::str::from_utf8(token) {
            Ok(t) if valid_bearer(t) => t,
            _ => return Err("tools: the bearer secret is not a bearer token (RFC 6750 b64token, at most 4096 characters)".to_string()),
        };
        for op in &mut self.ops {
            if let Handler::Rpc(b, _) = &mut op.handler {
                b.bearer = Some(token.to_string());
            }
        }
        self.bearer_secret = None;
        Ok(())
    }

    /// Each operation that sends to a Fastly backend: its name, the backend's, and whether it is a
    /// catalog-backed call (whose backend is the configuration's `tools.backend`).
    pub fn backends(&self) -> impl Iterator<Item = (&str, &str, bool)> {
        self.ops.iter().filter_map(|op| match &op.handler {
            Handler::Backend(b) => Some((op.name.as_str(), b.backend.as_str(), false)),
            Handler::Rpc(b, _) => Some((op.name.as_str(), b.backend.as_str(), true)),
            _ => None,
        })
    }

    /// JSON array text of the `Tool` objects, prebuilt at construction.
    pub fn list_json(&self) -> &[u8] {
        &self.list_json
    }

    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|&i| self.ops[i].name.as_str().cmp(name))
            .ok()
            .map(|p| self.by_name[p])
    }

    pub fn call(&self, name: &str, arguments: Option<Value<'_>>, remaining_ms: f64) -> Step {
        match self.find(name) {
            None => Step::ProtocolError {
                status: 400,
                code: -32602,
                message: UNKNOWN_TOOL,
            },
            Some(op) => step(self.start(op, arguments, remaining_ms)),
        }
    }

    pub fn resume(&self, state: ToolCall, answer: Answer<'_>, remaining_ms: f64) -> Step {
        step(self.proceed(state, answer, remaining_ms))
    }

    /// Runs one operation's codec over JSON text, for `ctx.call` from JavaScript handlers. Empty
    /// `bytes` means absent. A tool without input admits absent/`{}` and yields empty bytes (no
    /// params); a tool without output yields `null`.
    pub fn check(
        &self,
        op: &str,
        direction: Direction,
        bytes: &[u8],
    ) -> Result<Vec<u8>, CodecError> {
        let fail = |message| CodecError {
            path: "$".to_string(),
            message,
        };
        let op = &self.ops[self.find(op).ok_or_else(|| fail(UNKNOWN_OPERATION))?];
        let doc = if bytes.is_empty() {
            None
        } else {
            Some(json::parse(bytes, self.limits.depth).map_err(|_| fail(INVALID_JSON))?)
        };
        let value = doc.as_ref().map(|d| d.root());
        match (direction, &op.input, &op.output) {
            (Direction::Input, Some(p), _) => codec::decode_input(p, value),
            (Direction::Input, None, _) => codec::decode_no_input(value).map(|_| Vec::new()),
            (Direction::Output, _, Some(p)) => {
                codec::encode_output(p, value.unwrap_or(Value::Null))
            }
            (Direction::Output, _, None) => Ok(b"null".to_vec()),
        }
    }

    /// Decodes the arguments of a named tool: its index, canonical input (`None` without input)
    /// and declared inputs, or the finished step (unknown tool, invalid input).
    pub fn prepare(
        &self,
        name: &str,
        arguments: Option<Value<'_>>,
    ) -> Result<Prepared<'_>, Box<Step>> {
        let idx = self.find(name).ok_or(Step::ProtocolError {
            status: 400,
            code: -32602,
            message: UNKNOWN_TOOL,
        })?;
        let input = self
            .decode(idx, arguments)
            .map_err(|o| Box::new(step(Flow::Done(o))))?;
        Ok(Prepared {
            op: idx,
            input,
            inputs: self.ops[idx].inputs.as_ref(),
        })
    }

    /// Runs a prepared call; `responses` is the JSON object of gathered input responses.
    pub fn run(&self, p: Prepared<'_>, responses: Option<Vec<u8>>, remaining_ms: f64) -> Step {
        step(self.dispatch(p.op, p.input, responses, remaining_ms))
    }

    /// Holds the `Mcp-Param-*` headers of a call to agreement with its arguments (an unknown tool
    /// has none; it is refused later).
    pub fn check_header_params(
        &self,
        name: &str,
        arguments: Option<&Value<'_>>,
        headers: &[(Vec<u8>, Vec<u8>)],
    ) -> Result<(), crate::errors::RpcError> {
        match self.find(name) {
            Some(idx) => header_params::check(&self.ops[idx].header_params, arguments, headers),
            None => Ok(()),
        }
    }

    /// Every declared `Mcp-Param-*` header name (lowercase, after the prefix), in manifest order.
    pub fn header_param_names(&self) -> impl Iterator<Item = &[u8]> {
        self.ops
            .iter()
            .flat_map(|op| op.header_params.iter().map(|p| p.name()))
    }

    /// The first tool (in manifest order) that returns content blocks, if any.
    pub fn content_tool(&self) -> Option<&str> {
        self.ops
            .iter()
            .find(|op| op.content)
            .map(|op| op.name.as_str())
    }

    pub fn declares_inputs(&self) -> bool {
        self.ops.iter().any(|op| op.inputs.is_some())
    }

    fn decode(&self, idx: usize, arguments: Option<Value<'_>>) -> Result<Option<Vec<u8>>, Outcome> {
        match &self.ops[idx].input {
            Some(p) => codec::decode_input(p, arguments)
                .map(Some)
                .map_err(Outcome::InvalidInput),
            None => codec::decode_no_input(arguments)
                .map(|()| None)
                .map_err(Outcome::InvalidInput),
        }
    }

    /// A call on a path that cannot ask the client for input (the 2025-06-18 profile, the JSON-RPC
    /// profile): a tool that declares inputs fails with a fixed message instead of running blind.
    pub(crate) fn start(
        &self,
        idx: usize,
        arguments: Option<Value<'_>>,
        remaining_ms: f64,
    ) -> Flow {
        let input = match self.decode(idx, arguments) {
            Ok(i) => i,
            Err(o) => return Flow::Done(o),
        };
        if self.ops[idx].inputs.is_some() {
            return Flow::Done(Outcome::Failed(INPUT_UNAVAILABLE));
        }
        self.dispatch(idx, input, None, remaining_ms)
    }

    fn dispatch(
        &self,
        idx: usize,
        input: Option<Vec<u8>>,
        responses: Option<Vec<u8>>,
        remaining_ms: f64,
    ) -> Flow {
        let op = &self.ops[idx];
        match &op.handler {
            Handler::Static(Some(blocks)) if op.content => {
                Flow::Done(Outcome::Content(blocks.clone()))
            }
            Handler::Static(result) => Flow::Done(Outcome::Output(result.clone())),
            Handler::Corpus {
                corpus,
                action,
                top_k,
                max_bytes,
            } => self.corpus(
                op,
                &self.corpora[*corpus],
                *action,
                *top_k,
                *max_bytes,
                input.as_deref(),
            ),
            Handler::Backend(b) => {
                let timeout = match wait_ms(&[b.timeout_ms, self.deadline_ms, remaining_ms]) {
                    Some(t) => t,
                    None => return protocol(408, DEADLINE),
                };
                let deadline_bound = remaining_ms < b.timeout_ms.min(self.deadline_ms);
                let effect = outbound::backend(b, input, b.max_bytes, timeout);
                Flow::Perform {
                    effect,
                    state: ToolCall {
                        op: idx,
                        deadline_bound,
                        max_bytes: b.max_bytes,
                    },
                }
            }
            // Without its credential the backend is never called: fail closed.
            Handler::Rpc(..) if self.bearer_secret.is_some() => protocol(500, INTERNAL),
            Handler::Rpc(b, _) => {
                let timeout = match wait_ms(&[self.deadline_ms, remaining_ms]) {
                    Some(t) => t,
                    None => return protocol(408, DEADLINE),
                };
                Flow::Perform {
                    effect: rpc_client::request(b, &op.name, input, timeout),
                    state: ToolCall {
                        op: idx,
                        deadline_bound: true,
                        max_bytes: b.max_bytes,
                    },
                }
            }
            Handler::JavaScript => {
                let timeout = match wait_ms(&[self.deadline_ms, remaining_ms]) {
                    Some(t) => t,
                    None => return protocol(408, DEADLINE),
                };
                let effect = outbound::handler(&op.name, input, responses, timeout);
                Flow::Perform {
                    effect,
                    state: ToolCall {
                        op: idx,
                        // Equal bounds end together: the request's deadline is what ran out.
                        deadline_bound: remaining_ms <= self.deadline_ms,
                        max_bytes: self.limits.tool_result_bytes,
                    },
                }
            }
        }
    }

    pub(crate) fn proceed(&self, state: ToolCall, answer: Answer<'_>, remaining_ms: f64) -> Flow {
        let op = &self.ops[state.op];
        match (&op.handler, answer) {
            (Handler::Backend(_), Answer::Http(a)) => match effect::judge(a, state.max_bytes) {
                HttpVerdict::TimedOut if state.deadline_bound || remaining_ms <= 0.0 => {
                    protocol(408, DEADLINE)
                }
                HttpVerdict::Text(body) if op.content => {
                    match json::parse(body.as_bytes(), self.limits.depth) {
                        Ok(doc) => Flow::Done(content_outcome(doc.root())),
                        Err(_) => protocol(502, BACKEND_FAILED),
                    }
                }
                HttpVerdict::Text(body) => match &op.output {
                    // Without an output codec the body is not read: success is the status.
                    None => Flow::Done(Outcome::Output(None)),
                    Some(p) => match json::parse(body.as_bytes(), self.limits.depth) {
                        Ok(doc) => Flow::Done(encode(p, doc.root())),
                        Err(_) => protocol(502, BACKEND_FAILED),
                    },
                },
                _ => protocol(502, BACKEND_FAILED),
            },
            (Handler::Rpc(..), Answer::Http(a)) => self.rpc_reply(op, &state, a),
            // The router's `deadlineMs` is the handler's own budget: running past it is a tool
            // error. The request's deadline is not the handler's to spend: a failure when that
            // deadline bounded the run and is (all but) reached is the request's 408, as for every
            // other effect, whichever of the host's timers fired first.
            (Handler::JavaScript, Answer::Handler(HandlerAnswer::Failed))
                if state.deadline_bound && remaining_ms < HANDLER_DEADLINE_SLACK_MS =>
            {
                protocol(408, DEADLINE)
            }
            (Handler::JavaScript, Answer::Handler(HandlerAnswer::Failed)) => {
                Flow::Done(Outcome::Failed(outbound::HANDLER_FAILED))
            }
            (Handler::JavaScript, Answer::Handler(HandlerAnswer::Output(bytes))) => {
                // The host hands back whatever the handler returned; this bounds what is parsed.
                if bytes.len() > state.max_bytes {
                    return protocol(500, INTERNAL);
                }
                match (&op.output, json::parse(bytes, self.limits.depth)) {
                    (_, Err(_)) => Flow::Done(Outcome::InvalidOutput),
                    (None, Ok(doc)) if op.content => Flow::Done(content_outcome(doc.root())),
                    (None, Ok(_)) => Flow::Done(Outcome::Output(None)),
                    (Some(p), Ok(doc)) => Flow::Done(encode(p, doc.root())),
                }
            }
            // The engine only forwards an answer of the pending effect's kind.
            _ => protocol(500, INTERNAL),
        }
    }

    /// The backend's reply to a catalog-backed call: its framing decides between a result, one of
    /// the two governed failures, and 502; its output is checked against the catalog's codec.
    fn rpc_reply(&self, op: &Op, state: &ToolCall, a: HttpAnswer<'_>) -> Flow {
        // JSON-RPC errors travel with a 400 as well, so its body is read like a 200's. The wait's
        // only bound is the deadline: a timeout is the request's 408.
        let (status, body) = match a {
            HttpAnswer::Response { status, body } if rpc_client::reads_body(status) => {
                (status, body)
            }
            HttpAnswer::Failed(HttpFailure::TimedOut) => return protocol(408, DEADLINE),
            _ => return protocol(502, BACKEND_FAILED),
        };
        let body = match effect::body_text(body, state.max_bytes) {
            HttpVerdict::Text(body) => body,
            _ => return protocol(502, BACKEND_FAILED),
        };
        let doc = match json::parse(body.as_bytes(), self.limits.depth) {
            Ok(doc) => doc,
            Err(_) => return protocol(502, BACKEND_FAILED),
        };
        match rpc_client::reply(status, doc.root()) {
            Some(rpc_client::Reply::Result(v)) => match &op.output {
                Some(p) => Flow::Done(encode(p, v)),
                None if v.is_null() => Flow::Done(Outcome::Output(None)),
                None => Flow::Done(Outcome::InvalidOutput),
            },
            Some(rpc_client::Reply::InvalidParams) => Flow::Done(Outcome::Failed(INPUT_REFUSED)),
            Some(rpc_client::Reply::ExecutionFailed) => {
                Flow::Done(Outcome::Failed(outbound::HANDLER_FAILED))
            }
            None => protocol(502, BACKEND_FAILED),
        }
    }

    fn corpus(
        &self,
        op: &Op,
        c: &Corpus,
        action: CorpusAction,
        top_k: usize,
        max_bytes: usize,
        input: Option<&[u8]>,
    ) -> Flow {
        let doc = match input.map(|i| json::parse(i, codec::MAX_LEVELS + 1)) {
            Some(Ok(d)) => Some(d),
            Some(Err(_)) => return protocol(500, INTERNAL),
            None => None,
        };
        let obj = doc.as_ref().and_then(|d| d.root().as_object());
        let field = |name: &str| obj.and_then(|o| o.get(name));
        let text = |name: &str| {
            field(name)
                .and_then(|v| v.as_string())
                .map(|s| s.as_str().into_owned())
        };
        let limit = match field("limit")
            .and_then(|v| v.as_number())
            .and_then(|n| n.as_safe_integer())
        {
            Some(l) => (l.max(0) as usize).min(top_k),
            None => top_k,
        };
        let raw = match action {
            CorpusAction::Search => c.search(&text("query").unwrap_or_default(), limit, max_bytes),
            CorpusAction::List => c.list(text("collection").as_deref(), limit, max_bytes),
            CorpusAction::Read => match c.read(&text("id").unwrap_or_default(), max_bytes) {
                Some(r) => r,
                None => return Flow::Done(Outcome::Failed(ENTRY_NOT_FOUND)),
            },
        };
        match &op.output {
            None => Flow::Done(Outcome::Output(None)),
            Some(p) => match json::parse(&raw, codec::MAX_LEVELS + 1) {
                Ok(d) => Flow::Done(encode(p, d.root())),
                Err(_) => protocol(500, INTERNAL),
            },
        }
    }
}

fn step(flow: Flow) -> Step {
    match flow {
        Flow::Perform { effect, state } => Step::Perform { effect, state },
        Flow::Done(outcome) => match outcome {
            Outcome::Protocol {
                status,
                code,
                message,
            } => Step::ProtocolError {
                status,
                code,
                message,
            },
            Outcome::Output(Some(bytes)) => Step::Complete(ToolResult {
                is_error: false,
                text: String::from_utf8_lossy(&bytes).into_owned(),
                structured: Some(bytes),
                content: None,
            }),
            Outcome::Output(None) => Step::Complete(ToolResult {
                is_error: false,
                text: "null".to_string(),
                structured: None,
                content: None,
            }),
            Outcome::Content(blocks) => Step::Complete(ToolResult {
                is_error: false,
                text: String::new(),
                structured: None,
                content: Some(blocks),
            }),
            Outcome::InvalidInput(e) => Step::Complete(error_result(format!(
                "Input validation failed at {}: {}",
                e.path, e.message
            ))),
            Outcome::Failed(message) => Step::Complete(error_result(message.to_string())),
            Outcome::InvalidOutput => Step::Complete(error_result(OUTPUT_INVALID.to_string())),
        },
    }
}

fn encode(p: &Program, v: Value<'_>) -> Outcome {
    match codec::encode_output(p, v) {
        Ok(bytes) => Outcome::Output(Some(bytes)),
        Err(_) => Outcome::InvalidOutput,
    }
}

/// A content tool's output: valid blocks, canonical; anything else fails output validation.
fn content_outcome(v: Value<'_>) -> Outcome {
    let mut blocks = Vec::new();
    match content::blocks(&mut blocks, v, content::MAX_BLOCKS) {
        Ok(()) => Outcome::Content(blocks),
        Err(_) => Outcome::InvalidOutput,
    }
}

fn error_result(text: String) -> ToolResult {
    ToolResult {
        is_error: true,
        text,
        structured: None,
        content: None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::effect::{HandlerEffect, HttpAnswer, HttpFailure};

    /// A manifest with one tool of each handler kind, as the compiler emits it.
    pub(crate) fn manifest() -> String {
        let search_in =
            r#"[["string",1,200],["u32",0,64],["object",0,[["query",0,0],["limit",1,1]]]]"#;
        let search_out = r#"[["string",0,null],["object",0,[["id",0,0],["title",0,0]]],["array",1,64],["object",0,[["results",2,0]]]]"#;
        let read_in = r#"[["string",1,64],["object",0,[["id",0,0]]]]"#;
        let read_out = r#"[["string",0,null],["boolean"],["object",0,[["id",0,0],["text",0,0],["truncated",1,0]]]]"#;
        let echo = r#"[["string",0,8],["i32",-10,10],["object",0,[["s",0,0],["n",1,1]]]]"#;
        let tools = [
            format!(r#"{{"name":"search","input":{},"output":{},"handler":{{"kind":"corpus","corpus":"docs","action":"search","topK":2,"maxBytes":4096}}}}"#, search_in, search_out),
            format!(r#"{{"name":"read","input":{},"output":{},"handler":{{"kind":"corpus","corpus":"docs","action":"read","topK":1,"maxBytes":4096}}}}"#, read_in, read_out),
            r#"{"name":"status","input":null,"output":[["string",0,null],["object",0,[["ok",0,0]]]],"handler":{"kind":"static","result":"{\"x\":1,\"ok\":\"yes\"}"}}"#.to_string(),
            r#"{"name":"ping","input":null,"output":null,"handler":{"kind":"static"}}"#.to_string(),
            format!(r#"{{"name":"echo","input":{},"output":{},"handler":{{"kind":"javascript"}}}}"#, echo, echo),
            format!(r#"{{"name":"remote","input":{},"output":{},"handler":{{"kind":"backend","backend":"api","method":"POST","url":"https://api.example/v1/echo","maxBytes":1000,"timeoutMs":2000}}}}"#, echo, echo),
            r#"{"name":"fire","input":null,"output":null,"handler":{"kind":"backend","backend":"api","method":"GET","url":"http://127.0.0.1:9/x","maxBytes":100,"timeoutMs":2000}}"#.to_string(),
        ];
        let names = ["search", "read", "status", "ping", "echo", "remote", "fire"];
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
            r#"{{"formatVersion":1,"routerId":"t","catalogHash":"sha256:0","deadlineMs":3000,"list":"[{}]","tools":[{}],"corpora":{{"docs":{{"version":"1","entries":[["a","Alpha","docs","alpha text",[]],["b","Beta","docs","beta alpha",[]]],"lengths":"3 3","terms":"alpha beta text","idf":"182322 510826 510826","postings":"0:2,1:1 1:2 0:1"}}}}}}"#,
            list.join(","),
            tools.join(",")
        )
    }

    pub(crate) fn tools() -> Tools {
        let text = manifest();
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        Tools::from_manifest(doc.root(), &Limits::DEFAULT).unwrap()
    }

    fn call(t: &Tools, name: &str, args: Option<&str>, remaining: f64) -> Step {
        let doc = args.map(|a| json::parse(a.as_bytes(), 32).unwrap());
        t.call(name, doc.as_ref().map(|d| d.root()), remaining)
    }

    fn complete(s: Step) -> (bool, String, Option<String>) {
        match s {
            Step::Complete(r) => (
                r.is_error,
                r.text,
                r.structured.map(|s| String::from_utf8(s).unwrap()),
            ),
            Step::ProtocolError { status, code, .. } => {
                panic!("protocol error {} {}", status, code)
            }
            Step::Perform { .. } => panic!("unexpected effect"),
        }
    }

    fn suspended(s: Step) -> (Effect, ToolCall) {
        match s {
            Step::Perform { effect, state } => (effect, state),
            _ => panic!("expected an effect"),
        }
    }

    fn http(status: u16, body: &[u8]) -> Answer<'_> {
        Answer::Http(HttpAnswer::Response { status, body })
    }

    fn output(json: &[u8]) -> Answer<'_> {
        Answer::Handler(HandlerAnswer::Output(json))
    }

    fn protocol_error(s: Step) -> (u16, i32, &'static str) {
        match s {
            Step::ProtocolError {
                status,
                code,
                message,
            } => (status, code, message),
            _ => panic!("expected a protocol error"),
        }
    }

    #[test]
    fn list_is_the_prebuilt_text() {
        assert!(tools().list_json().starts_with(br#"[{"name":"search""#));
    }

    #[test]
    fn unknown_tools_are_protocol_errors() {
        assert_eq!(
            protocol_error(call(&tools(), "nope", None, 1000.0)),
            (400, -32602, UNKNOWN_TOOL)
        );
    }

    #[test]
    fn static_results_and_no_output_tools() {
        let t = tools();
        assert_eq!(
            complete(call(&t, "status", None, 1000.0)),
            (
                false,
                r#"{"ok":"yes"}"#.into(),
                Some(r#"{"ok":"yes"}"#.into())
            )
        );
        assert_eq!(
            complete(call(&t, "ping", Some("{}"), 1000.0)),
            (false, "null".into(), None)
        );
        assert_eq!(
            complete(call(&t, "ping", Some(r#"{"a":1}"#), 1000.0)),
            (
                true,
                "Input validation failed at $: Expected an empty object".into(),
                None
            )
        );
    }

    #[test]
    fn corpus_search_and_read() {
        let t = tools();
        let (e, text, s) = complete(call(
            &t,
            "search",
            Some(r#"{"query":"alpha","limit":1}"#),
            1000.0,
        ));
        assert!(!e);
        assert_eq!(s.unwrap(), r#"{"results":[{"id":"a","title":"Alpha"}]}"#);
        assert_eq!(text, r#"{"results":[{"id":"a","title":"Alpha"}]}"#);
        assert!(complete(call(&t, "search", Some(r#"{"query":""}"#), 1000.0)).0);
        assert_eq!(
            complete(call(&t, "read", Some(r#"{"id":"b"}"#), 1000.0))
                .2
                .unwrap(),
            r#"{"id":"b","text":"beta alpha","truncated":false}"#
        );
        assert_eq!(
            complete(call(&t, "read", Some(r#"{"id":"zz"}"#), 1000.0)),
            (true, ENTRY_NOT_FOUND.into(), None)
        );
        assert_eq!(
            complete(call(&t, "read", None, 1000.0)).1,
            "Input validation failed at $.id: Required field missing"
        );
    }

    #[test]
    fn javascript_handlers_suspend_and_resume() {
        let t = tools();
        let (e, state) = suspended(call(
            &t,
            "echo",
            Some(r#"{"n":3,"s":"hi","x":true}"#),
            1234.9,
        ));
        assert_eq!(
            e,
            Effect::Handler(HandlerEffect {
                op: "echo".into(),
                input: Some(br#"{"s":"hi","n":3}"#.to_vec()),
                input_responses: None,
                progress: false,
                timeout_ms: 1234
            })
        );
        assert_eq!(
            complete(t.resume(state, output(br#"{"s":"ok","extra":1}"#), 10.0))
                .2
                .unwrap(),
            r#"{"s":"ok"}"#
        );
        let echo = || suspended(call(&t, "echo", Some(r#"{"s":""}"#), 1000.0)).1;
        assert_eq!(
            complete(t.resume(echo(), output(br#"{"s":"far too long"}"#), 10.0)),
            (true, OUTPUT_INVALID.into(), None)
        );
        assert_eq!(
            complete(t.resume(echo(), Answer::Handler(HandlerAnswer::Failed), 10.0)),
            (true, "Tool execution failed".into(), None)
        );
        // Output that is not strict JSON (a lone surrogate a handler produced) fails validation.
        assert_eq!(
            complete(t.resume(echo(), output(br#"{"s":"\ud800"}"#), 10.0)),
            (true, OUTPUT_INVALID.into(), None)
        );
        // More than a whole tool result can hold is not even parsed.
        let huge = vec![b' '; Limits::DEFAULT.tool_result_bytes + 1];
        assert_eq!(protocol_error(t.resume(echo(), output(&huge), 10.0)).0, 500);
        // An answer of the wrong kind never reaches a handler's codec.
        assert_eq!(
            protocol_error(t.resume(echo(), http(200, b"{}"), 10.0)).0,
            500
        );
        // Router deadlineMs caps the handler's time.
        assert_eq!(
            suspended(call(&t, "echo", Some(r#"{"s":""}"#), 99999.0))
                .0
                .timeout_ms(),
            3000
        );
        assert_eq!(
            protocol_error(call(&t, "echo", Some(r#"{"s":""}"#), 0.5)),
            (408, -32603, DEADLINE)
        );
    }

    #[test]
    fn a_javascript_handler_failing_at_the_request_deadline_is_its_408() {
        let t = tools();
        let failed = || Answer::Handler(HandlerAnswer::Failed);
        let start = |remaining| suspended(call(&t, "echo", Some(r#"{"s":""}"#), remaining)).1;
        let tool_error = (true, outbound::HANDLER_FAILED.to_string(), None);
        // The request's deadline (1000 ms left, below the router's 3000) bounds the run: its
        // timeout, reported by whichever host timer fired first, is the request's.
        assert_eq!(
            protocol_error(t.resume(start(1000.0), failed(), 1.9)),
            (408, -32603, DEADLINE)
        );
        assert_eq!(
            protocol_error(t.resume(start(1000.0), failed(), 0.01)),
            (408, -32603, DEADLINE)
        );
        assert_eq!(
            protocol_error(t.resume(start(3000.0), failed(), 1.0)),
            (408, -32603, DEADLINE),
            "equal bounds: the request's deadline ran out"
        );
        // Earlier than the timers' precision, a failure is the handler's own.
        assert_eq!(
            complete(t.resume(start(1000.0), failed(), HANDLER_DEADLINE_SLACK_MS)),
            tool_error
        );
        // The router's deadlineMs bounds the run: its timeout is a tool error, however late.
        assert_eq!(complete(t.resume(start(3000.5), failed(), 0.5)), tool_error);
        // Output that arrives in time is output.
        assert_eq!(
            complete(t.resume(start(1000.0), output(br#"{"s":"ok"}"#), 0.5))
                .2
                .unwrap(),
            r#"{"s":"ok"}"#
        );
    }

    /// A call started with 700 ms left waits at most that long, and its timeout is the request's 408.
    fn times_out_at_the_deadline(t: &Tools, (effect, state): (Effect, ToolCall)) {
        assert_eq!(effect.timeout_ms(), 700);
        assert_eq!(
            protocol_error(t.resume(
                state,
                Answer::Http(HttpAnswer::Failed(HttpFailure::TimedOut)),
                0.0
            )),
            (408, -32603, DEADLINE)
        );
    }

    /// Catalog-backed tools as the host adapter lowers them: one with input and output, one with
    /// neither.
    fn rpc_tools() -> Tools {
        let echo = r#"[["string",0,8],["i32",-10,10],["object",0,[["s",0,0],["n",1,1]]]]"#;
        let rpc = r#"{"kind":"rpc","backend":"endpoint","url":"http://127.0.0.1:4000/rpc","maxBytes":200,"bearer":"svc.token"}"#;
        let text = format!(
            r#"{{"formatVersion":1,"routerId":"t","catalogHash":"sha256:0","deadlineMs":3000,"list":"[{{\"name\":\"notes.echo\"}},{{\"name\":\"status\"}}]","tools":[{{"name":"notes.echo","input":{e},"output":{e},"handler":{r}}},{{"name":"status","input":null,"output":null,"handler":{r}}}],"corpora":{{}}}}"#,
            e = echo,
            r = rpc
        );
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        Tools::from_manifest(doc.root(), &Limits::DEFAULT).unwrap()
    }

    #[test]
    fn a_bearer_in_a_secret_store_fails_closed_until_installed() {
        let text = r#"{"formatVersion":1,"routerId":"t","catalogHash":"h","deadlineMs":3000,"list":"[{\"name\":\"status\"}]","tools":[{"name":"status","input":null,"output":null,"handler":{"kind":"rpc","backend":"endpoint","url":"https://rpc.example/","maxBytes":100,"bearer":{"secretStore":"s","key":"backend"}}}],"corpora":{}}"#;
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        let mut t = Tools::from_manifest(doc.root(), &Limits::DEFAULT).unwrap();
        assert_eq!(
            t.bearer_secret(),
            Some(&SecretRef {
                store: "s".into(),
                key: "backend".into()
            })
        );
        // No backend request without the credential: 500, nothing performed.
        assert_eq!(
            protocol_error(call(&t, "status", None, 5000.0)),
            (500, -32603, INTERNAL)
        );
        for bad in [&b"two words"[..], b"", b"\xff", b"tok\r\nx: y"] {
            assert!(t
                .set_bearer(bad)
                .unwrap_err()
                .starts_with("tools: the bearer secret is not a bearer token"));
            assert!(t.bearer_secret().is_some());
        }
        t.set_bearer(b"from-the-store").unwrap();
        assert_eq!(t.bearer_secret(), None);
        match suspended(call(&t, "status", None, 5000.0)).0 {
            Effect::Http(h) => assert!(h
                .headers
                .contains(&("authorization", "Bearer from-the-store".to_string()))),
            _ => panic!("expected an HTTP effect"),
        }
        assert!(t.set_bearer(b"again").is_err(), "installed once");
        // Tools whose bearer is text, or that have none, wait for nothing.
        assert_eq!(rpc_tools().bearer_secret(), None);
    }

    #[test]
    fn catalog_calls_follow_the_outcome_table() {
        let t = rpc_tools();
        let start = |remaining| {
            suspended(call(
                &t,
                "notes.echo",
                Some(r#"{"s":"a","z":0}"#),
                remaining,
            ))
        };
        let (e, _) = start(5000.0);
        match e {
            Effect::Http(h) => {
                // Structure first: the unknown member is dropped before the backend sees the input.
                assert_eq!(
                    String::from_utf8(h.body.unwrap()).unwrap(),
                    r#"{"jsonrpc":"2.0","id":1,"method":"notes.echo","params":{"s":"a"}}"#
                );
                assert_eq!(
                    (h.url.as_str(), h.max_bytes, h.timeout_ms),
                    ("http://127.0.0.1:4000/rpc", 200, 3000)
                );
                assert!(h
                    .headers
                    .contains(&("authorization", "Bearer svc.token".to_string())));
            }
            _ => panic!("expected an HTTP effect"),
        }
        let ok = |body: &[u8]| {
            let (_, state) = start(5000.0);
            complete(t.resume(state, http(200, body), 10.0))
        };
        // Typed completion: structuredContent and its text; extras of a closed output dropped.
        assert_eq!(
            ok(br#"{"jsonrpc":"2.0","id":1,"result":{"s":"x","n":2,"extra":1}}"#),
            (
                false,
                r#"{"s":"x","n":2}"#.into(),
                Some(r#"{"s":"x","n":2}"#.into())
            )
        );
        assert_eq!(
            ok(br#"{"jsonrpc":"2.0","id":1,"result":{"n":1}}"#),
            (true, OUTPUT_INVALID.into(), None)
        );
        assert_eq!(
            ok(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"secret backend detail"}}"#),
            (true, outbound::HANDLER_FAILED.into(), None)
        );
        let (_, state) = start(5000.0);
        assert_eq!(
            complete(t.resume(
                state,
                http(400, br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"path":"$.s","reason":"secret"}}}"#),
                10.0
            )),
            (true, INPUT_REFUSED.into(), None)
        );
        let over = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"s":"{}"}}}}"#,
            "x".repeat(200)
        );
        for (name, answer) in [
            ("wrong id", http(200, br#"{"jsonrpc":"2.0","id":7,"result":{"s":"x"}}"#)),
            ("not an envelope", http(200, br#"{"s":"x"}"#)),
            ("unknown method: the catalog and the backend disagree", http(404, br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#)),
            ("backend transport failure", http(502, br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}"#)),
            ("redirect", http(307, b"")),
            ("not JSON", http(200, b"<html>")),
            ("oversized", http(200, over.as_bytes())),
            ("unreachable", Answer::Http(HttpAnswer::Failed(HttpFailure::Unreachable))),
        ] {
            let (_, state) = start(5000.0);
            assert_eq!(
                protocol_error(t.resume(state, answer, 10.0)),
                (502, -32603, BACKEND_FAILED),
                "{}",
                name
            );
        }
        // The only bound is the deadline: a timeout is the request's 408.
        times_out_at_the_deadline(&t, start(700.0));
        // Invalid structure never reaches the backend.
        assert_eq!(
            complete(call(&t, "notes.echo", Some(r#"{"s":1}"#), 5000.0)).1,
            "Input validation failed at $.s: Expected a string"
        );
        // No input: no params; no output: the result must be null and completes as text null.
        let (e, state) = suspended(call(&t, "status", Some("{}"), 5000.0));
        match e {
            Effect::Http(h) => assert_eq!(
                String::from_utf8(h.body.unwrap()).unwrap(),
                r#"{"jsonrpc":"2.0","id":1,"method":"status"}"#
            ),
            _ => panic!("expected an HTTP effect"),
        }
        assert_eq!(
            complete(t.resume(
                state,
                http(200, br#"{"jsonrpc":"2.0","id":1,"result":null}"#),
                10.0
            )),
            (false, "null".into(), None)
        );
        let (_, state) = suspended(call(&t, "status", None, 5000.0));
        assert_eq!(
            complete(t.resume(
                state,
                http(200, br#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#),
                10.0
            )),
            (true, OUTPUT_INVALID.into(), None)
        );
        assert!(complete(call(&t, "status", Some(r#"{"a":1}"#), 5000.0)).0);
    }

    #[test]
    fn backend_calls_follow_the_outcome_table() {
        let t = tools();
        let start =
            |remaining| suspended(call(&t, "remote", Some(r#"{"s":"a\"b","z":0}"#), remaining));
        let (e, state) = start(5000.0);
        assert_eq!(
            e,
            Effect::Http(crate::effect::HttpEffect {
                backend: "api".into(),
                method: crate::effect::HttpMethod::Post,
                url: "https://api.example/v1/echo".into(),
                headers: vec![
                    ("content-type", "application/json".into()),
                    ("accept", "application/json".into())
                ],
                body: Some(br#"{"s":"a\"b"}"#.to_vec()),
                max_bytes: 1000,
                timeout_ms: 2000,
                cache_key: None
            })
        );
        assert_eq!(
            complete(t.resume(state, http(200, br#"{"s":"x","n":-1}"#), 10.0))
                .2
                .unwrap(),
            r#"{"s":"x","n":-1}"#
        );
        let (_, state) = start(5000.0);
        assert_eq!(
            complete(t.resume(state, http(201, br#"{"n":1}"#), 10.0)),
            (true, OUTPUT_INVALID.into(), None)
        );
        let at_cap = format!(r#"{{"s":"{}"}}"#, "x".repeat(1000 - 8));
        let (_, state) = start(5000.0);
        assert_eq!(at_cap.len(), 1000);
        assert_eq!(
            complete(t.resume(state, http(200, at_cap.as_bytes()), 10.0)),
            (true, OUTPUT_INVALID.into(), None),
            "a body exactly at the cap is read and judged by the output codec"
        );
        let over_cap = format!("{} ", at_cap);
        for (name, answer) in [
            ("server error", http(500, b"{}")),
            ("redirect", http(302, b"")),
            ("not JSON", http(200, b"not json")),
            ("not UTF-8", http(200, b"{\"s\":\"\xff\"}")),
            ("one byte over the cap", http(200, over_cap.as_bytes())),
            (
                "unreachable",
                Answer::Http(HttpAnswer::Failed(HttpFailure::Unreachable)),
            ),
            (
                "own timeout",
                Answer::Http(HttpAnswer::Failed(HttpFailure::TimedOut)),
            ),
            ("wrong answer kind", output(b"{}")),
        ] {
            let (_, state) = start(5000.0);
            let expected = if name == "wrong answer kind" {
                500
            } else {
                502
            };
            assert_eq!(
                protocol_error(t.resume(state, answer, 10.0)).0,
                expected,
                "{}",
                name
            );
        }
        // A BOM is dropped before the body is parsed.
        let (_, state) = start(5000.0);
        assert_eq!(
            complete(t.resume(state, http(200, b"\xEF\xBB\xBF{\"s\":\"b\"}"), 10.0))
                .2
                .unwrap(),
            r#"{"s":"b"}"#
        );
        // The deadline bounded the wait: a timeout is the request's deadline.
        times_out_at_the_deadline(&t, start(700.0));
        assert_eq!(
            complete(call(&t, "remote", Some(r#"{"s":1}"#), 5000.0)).1,
            "Input validation failed at $.s: Expected a string"
        );
        let (e, state) = suspended(call(&t, "fire", None, 5000.0));
        match e {
            Effect::Http(h) => {
                assert_eq!(h.method, crate::effect::HttpMethod::Get);
                assert_eq!(h.url, "http://127.0.0.1:9/x");
                assert_eq!(h.body, None);
                assert_eq!(h.headers, vec![("accept", "application/json".to_string())]);
            }
            _ => panic!("expected an HTTP effect"),
        }
        assert_eq!(
            complete(t.resume(state, http(204, b""), 10.0)),
            (false, "null".into(), None)
        );
    }

    #[test]
    fn check_runs_one_codec() {
        let t = tools();
        assert_eq!(
            t.check("echo", Direction::Input, br#"{"s":"a","q":1}"#)
                .unwrap(),
            br#"{"s":"a"}"#
        );
        assert_eq!(
            t.check("echo", Direction::Output, br#"{"s":1}"#)
                .unwrap_err(),
            CodecError {
                path: "$.s".into(),
                message: codec::EXPECTED_STRING
            }
        );
        assert_eq!(t.check("ping", Direction::Input, b"").unwrap(), b"");
        assert_eq!(t.check("ping", Direction::Input, b"{}").unwrap(), b"");
        assert!(t.check("ping", Direction::Input, b"[]").is_err());
        assert_eq!(t.check("ping", Direction::Output, b"5").unwrap(), b"null");
        assert_eq!(
            t.check("nope", Direction::Input, b"{}")
                .unwrap_err()
                .message,
            UNKNOWN_OPERATION
        );
        assert_eq!(
            t.check("echo", Direction::Input, b"{").unwrap_err().message,
            INVALID_JSON
        );
    }
}
