//! The `jsonRpc(router)` adapter profile: the router as a plain JSON-RPC 2.0 endpoint.
//!
//! The engine has already framed the request (-32700 parse, -32600 envelope) and hands over the
//! parsed root object. `method` is the operation name; params are named only (an object, or
//! absent); a request without `id` is a notification: executed, never answered. Codes:
//! -32601 unknown method, -32602 invalid params (data `{"path","reason"}`), and one code,
//! [`EXECUTION_FAILED`] (-32000, JSON-RPC 2.0's implementation-defined server-error range), for
//! both handler and output-validation failures: a caller cannot tell them apart, by design. Backend
//! transport and deadline failures keep the tools' status with -32603.
use crate::effect::{Answer, Effect};
use crate::json::{write, Object, Value};
use crate::tools::{Flow, Outcome, ToolCall, Tools};

pub use crate::errors::{EXECUTION_FAILED, INVALID_PARAMS, METHOD_NOT_FOUND};

/// What the engine sends for one JSON-RPC message. Statuses are suggestions for the HTTP hop.
pub enum RpcStep {
    /// `result` member text (canonical output, or `null` for an operation without output).
    Result(Vec<u8>),
    Error {
        status: u16,
        code: i32,
        message: &'static str,
        data: Option<Vec<u8>>,
    },
    /// A notification ran (or was dropped): no response body.
    NoReply,
    /// An effect for the host to perform; continue with [`resume`].
    Perform { effect: Effect, state: RpcCall },
}

pub struct RpcCall {
    call: ToolCall,
    notification: bool,
}

fn error(status: u16, code: i32, message: &'static str) -> RpcStep {
    RpcStep::Error {
        status,
        code,
        message,
        data: None,
    }
}

/// Serves one request or notification object.
pub fn call(tools: &Tools, root: Object<'_>, remaining_ms: f64) -> RpcStep {
    let notification = root.get("id").is_none();
    let step = (|| {
        let method = match root.get("method") {
            Some(Value::String(s)) => s.as_str(),
            _ => return error(400, -32600, "Invalid Request"),
        };
        let op = match tools.find(&method) {
            Some(op) => op,
            None => return error(404, METHOD_NOT_FOUND, "Method not found"),
        };
        let params = match root.get("params") {
            None => None,
            Some(v @ Value::Object(_)) => Some(v),
            Some(_) => return error(400, INVALID_PARAMS, "Invalid params"),
        };
        frame(tools.start(op, params, remaining_ms), notification)
    })();
    finish(step, notification)
}

pub fn resume(tools: &Tools, state: RpcCall, answer: Answer<'_>, remaining_ms: f64) -> RpcStep {
    let notification = state.notification;
    finish(
        frame(
            tools.proceed(state.call, answer, remaining_ms),
            notification,
        ),
        notification,
    )
}

fn finish(step: RpcStep, notification: bool) -> RpcStep {
    match step {
        s @ RpcStep::Perform { .. } => s,
        _ if notification => RpcStep::NoReply,
        other => other,
    }
}

fn frame(flow: Flow, notification: bool) -> RpcStep {
    match flow {
        Flow::Perform { effect, state } => RpcStep::Perform {
            effect,
            state: RpcCall {
                call: state,
                notification,
            },
        },
        Flow::Done(Outcome::Output(out)) => {
            RpcStep::Result(out.unwrap_or_else(|| b"null".to_vec()))
        }
        Flow::Done(Outcome::Content(blocks)) => RpcStep::Result(blocks),
        Flow::Done(Outcome::InvalidInput(e)) => {
            let mut data = b"{\"path\":".to_vec();
            write::string(&mut data, &e.path);
            data.extend_from_slice(b",\"reason\":");
            write::string(&mut data, e.message);
            data.push(b'}');
            RpcStep::Error {
                status: 400,
                code: INVALID_PARAMS,
                message: "Invalid params",
                data: Some(data),
            }
        }
        Flow::Done(Outcome::Failed(_)) | Flow::Done(Outcome::InvalidOutput) => {
            error(200, EXECUTION_FAILED, "Execution failed")
        }
        Flow::Done(Outcome::Protocol {
            status,
            code,
            message,
        }) => error(status, code, message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::HandlerAnswer;
    use crate::json::parse;
    use crate::tools::tests::tools;

    fn rpc(t: &Tools, body: &str) -> RpcStep {
        let doc = parse(body.as_bytes(), 32).unwrap();
        call(t, doc.root().as_object().unwrap(), 1000.0)
    }

    fn code(s: RpcStep) -> i32 {
        match s {
            RpcStep::Error { code, .. } => code,
            _ => panic!("expected an error"),
        }
    }

    #[test]
    fn selects_operations_by_method() {
        let t = tools();
        match rpc(&t, r#"{"jsonrpc":"2.0","id":1,"method":"status"}"#) {
            RpcStep::Result(r) => assert_eq!(r, br#"{"ok":"yes"}"#),
            _ => panic!("expected a result"),
        }
        match rpc(
            &t,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#,
        ) {
            RpcStep::Result(r) => assert_eq!(r, b"null"),
            _ => panic!("expected a result"),
        }
        assert_eq!(
            code(rpc(&t, r#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#)),
            METHOD_NOT_FOUND
        );
        assert_eq!(
            code(rpc(
                &t,
                r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}"#
            )),
            INVALID_PARAMS
        );
    }

    #[test]
    fn input_failures_carry_their_path() {
        match rpc(
            &tools(),
            r#"{"jsonrpc":"2.0","id":"x","method":"read","params":{"id":5}}"#,
        ) {
            RpcStep::Error {
                status, code, data, ..
            } => {
                assert_eq!((status, code), (400, INVALID_PARAMS));
                assert_eq!(
                    data.unwrap(),
                    br#"{"path":"$.id","reason":"Expected a string"}"#
                );
            }
            _ => panic!("expected an error"),
        }
    }

    #[test]
    fn execution_and_output_failures_share_one_code() {
        let t = tools();
        assert_eq!(
            code(rpc(
                &t,
                r#"{"jsonrpc":"2.0","id":1,"method":"read","params":{"id":"zz"}}"#
            )),
            EXECUTION_FAILED
        );
        for answer in [
            Answer::Handler(HandlerAnswer::Failed),
            Answer::Handler(HandlerAnswer::Output(br#"{"s":7}"#)),
        ] {
            match rpc(
                &t,
                r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"s":"a"}}"#,
            ) {
                RpcStep::Perform { state, .. } => {
                    assert_eq!(code(resume(&t, state, answer, 100.0)), EXECUTION_FAILED)
                }
                _ => panic!("expected a call"),
            }
        }
    }

    #[test]
    fn notifications_run_without_reply() {
        let t = tools();
        assert!(matches!(
            rpc(&t, r#"{"jsonrpc":"2.0","method":"status"}"#),
            RpcStep::NoReply
        ));
        assert!(matches!(
            rpc(&t, r#"{"jsonrpc":"2.0","method":"nope"}"#),
            RpcStep::NoReply
        ));
        match rpc(
            &t,
            r#"{"jsonrpc":"2.0","method":"echo","params":{"s":"a"}}"#,
        ) {
            RpcStep::Perform { state, .. } => {
                assert!(matches!(
                    resume(
                        &t,
                        state,
                        Answer::Handler(HandlerAnswer::Output(br#"{"s":"b"}"#)),
                        100.0
                    ),
                    RpcStep::NoReply
                ))
            }
            _ => panic!("a notification still executes"),
        }
    }
}
