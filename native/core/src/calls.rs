//! `tools/list` and `tools/call` params, and the framing of a tool result under its two budgets:
//! the whole result object against `toolResultBytes`, the whole body against `responseBytes`.
use crate::errors::{self, RpcError, INVALID_PARAMS};
use crate::fragments::Fragments;
use crate::json::{write, Object, Str, Value};
use crate::limits::Limits;
use crate::reply::{result_prefix, Note, Reply, Timing};
use crate::tools::ToolResult;

/// `tools/list` takes nothing but `_meta` (no pagination, so a cursor is refused).
pub fn list_params(params: Option<&Object<'_>>) -> Result<(), RpcError> {
    match params {
        Some(p) if p.iter().any(|(k, _)| !k.eq_str("_meta")) => {
            Err(RpcError::new(400, INVALID_PARAMS, errors::LIST_PARAMS))
        }
        _ => Ok(()),
    }
}

/// `params.name` (a string) and `params.arguments` (an object, when present).
pub fn call_params<'p>(
    params: Option<&'p Object<'_>>,
) -> Result<(Str<'p>, Option<Value<'p>>), RpcError> {
    let p = params.ok_or_else(|| RpcError::new(400, INVALID_PARAMS, errors::NAME_NOT_STRING))?;
    let name = match p.get("name") {
        Some(Value::String(s)) => s,
        _ => return Err(RpcError::new(400, INVALID_PARAMS, errors::NAME_NOT_STRING)),
    };
    let arguments = match p.get("arguments") {
        None => None,
        Some(v @ Value::Object(_)) => Some(v),
        Some(_) => {
            return Err(RpcError::new(
                400,
                INVALID_PARAMS,
                errors::ARGUMENTS_NOT_OBJECT,
            ))
        }
    };
    Ok((name, arguments))
}

/// A complete tool result as a 200 reply: the modern envelope (resultType, serverInfo `_meta`,
/// structuredContent of any JSON type) or the 2025-06-18 one (no resultType, structuredContent
/// only when it is an object).
pub fn frame(r: &ToolResult, id: &[u8], legacy: bool, frags: &Fragments, limits: &Limits) -> Reply {
    let mut reply = Reply::json(200, Timing::AfterBody);
    let out = &mut reply.body;
    // One allocation for the whole result in the common case (text escapes rarely add much).
    let content = r
        .content
        .as_ref()
        .map_or(r.text.len() + r.text.len() / 8 + 32, Vec::len);
    let structured = r.structured.as_ref().map_or(0, Vec::len);
    out.reserve(96 + id.len() + content + structured + frags.server_meta.len());
    result_prefix(out, id);
    let result_start = out.len();
    out.extend_from_slice(if legacy {
        b"{\"content\":" as &[u8]
    } else {
        b"{\"resultType\":\"complete\",\"content\":"
    });
    match &r.content {
        Some(blocks) => out.extend_from_slice(blocks),
        None => {
            out.extend_from_slice(b"[{\"type\":\"text\",\"text\":");
            write::string(out, &r.text);
            out.extend_from_slice(b"}]");
        }
    }
    if let Some(s) = &r.structured {
        if !legacy || s.first() == Some(&b'{') {
            out.extend_from_slice(b",\"structuredContent\":");
            out.extend_from_slice(s);
        }
    }
    out.extend_from_slice(if r.is_error {
        b",\"isError\":true" as &[u8]
    } else {
        b",\"isError\":false"
    });
    if !legacy {
        out.push(b',');
        out.extend_from_slice(&frags.server_meta);
    }
    out.push(b'}');
    if out.len() - result_start > limits.tool_result_bytes {
        return Reply::internal(
            errors::TOOL_RESULT_TOO_LARGE,
            Some(id),
            Timing::AfterBody,
            limits.response_bytes,
        );
    }
    out.push(b'}');
    reply.note = Note::Result {
        is_error: Some(r.is_error),
    };
    reply.within(limits.response_bytes, Some(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::json;

    fn frags() -> Fragments {
        crate::discover::build(
            &Config::parse(br#"{"serverInfo":{"name":"s","version":"1"}}"#).unwrap(),
        )
        .unwrap()
    }

    fn body(r: &Reply) -> (u16, &str) {
        (r.status, std::str::from_utf8(&r.body).unwrap())
    }

    fn result(text: &str, structured: Option<&str>, is_error: bool) -> ToolResult {
        ToolResult {
            content: None,
            is_error,
            text: text.to_string(),
            structured: structured.map(|s| s.as_bytes().to_vec()),
        }
    }

    #[test]
    fn modern_and_legacy_envelopes() {
        let (f, limits) = (frags(), Limits::DEFAULT);
        let mut out = frame(
            &result("{\"t\":1}", Some("{\"t\":1}"), false),
            b"3",
            false,
            &f,
            &limits,
        );
        assert_eq!(
            body(&out),
            (
                200,
                r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"t\":1}"}],"structuredContent":{"t":1},"isError":false,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}"#
            )
        );
        out = frame(
            &result("{\"t\":1}", Some("{\"t\":1}"), false),
            b"3",
            true,
            &f,
            &limits,
        );
        assert_eq!(
            body(&out).1,
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"t\":1}"}],"structuredContent":{"t":1},"isError":false}}"#
        );
        // 2025-06-18 structuredContent must be an object: other values travel as text only.
        out = frame(&result("[1]", Some("[1]"), false), b"3", true, &f, &limits);
        assert_eq!(
            body(&out).1,
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"[1]"}],"isError":false}}"#
        );
        out = frame(&result("[1]", Some("[1]"), false), b"3", false, &f, &limits);
        assert!(body(&out).1.contains(r#""structuredContent":[1],"#));
        out = frame(&result("failed", None, true), b"\"x\"", false, &f, &limits);
        assert!(body(&out)
            .1
            .contains(r#""content":[{"type":"text","text":"failed"}],"isError":true,"_meta""#));
    }

    #[test]
    fn tool_result_budget_counts_the_whole_result_object() {
        let f = frags();
        let mut out;
        let r = result("abc", None, false);
        out = frame(&r, b"1", true, &f, &Limits::DEFAULT);
        let exact = body(&out).1.len() - r#"{"jsonrpc":"2.0","id":1,"result":}"#.len();
        let limits = Limits {
            tool_result_bytes: exact,
            ..Limits::DEFAULT
        };
        out = frame(&r, b"1", true, &f, &limits);
        assert_eq!(out.status, 200, "exactly at the budget");
        let limits = Limits {
            tool_result_bytes: exact - 1,
            ..Limits::DEFAULT
        };
        out = frame(&r, b"1", true, &f, &limits);
        assert_eq!(
            body(&out),
            (
                500,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Tool result too large"}}"#
            )
        );
    }

    #[test]
    fn response_budget_applies_after_the_tool_budget() {
        let f = frags();
        let limits = Limits {
            request_bytes: 100,
            response_bytes: 612,
            ..Limits::DEFAULT
        };
        let out = frame(
            &result(&"x".repeat(700), None, false),
            b"1",
            false,
            &f,
            &limits,
        );
        assert_eq!(
            body(&out).1,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Response too large"}}"#
        );
    }

    fn params(text: &str) -> json::Document {
        json::parse(text.as_bytes(), 8).unwrap()
    }

    #[test]
    fn params_shapes() {
        let doc = params(r#"{"_meta":{},"cursor":"x"}"#);
        let root = doc.root();
        let p = root.as_object().unwrap();
        assert_eq!(list_params(Some(&p)).unwrap_err().code, INVALID_PARAMS);
        let doc = params(r#"{"_meta":{"progressToken":0}}"#);
        assert!(list_params(Some(&doc.root().as_object().unwrap())).is_ok());
        assert!(list_params(None).is_ok());

        let doc = params(r#"{"name":"echo","arguments":{"a":1},"_meta":{}}"#);
        let p = doc.root().as_object().unwrap();
        let (name, args) = call_params(Some(&p)).unwrap();
        assert!(name.eq_str("echo"));
        assert!(matches!(args, Some(Value::Object(_))));
        let doc = params(r#"{"name":"echo"}"#);
        assert!(call_params(Some(&doc.root().as_object().unwrap()))
            .unwrap()
            .1
            .is_none());
        let doc = params(r#"{"name":"echo","arguments":[1]}"#);
        assert_eq!(
            call_params(Some(&doc.root().as_object().unwrap()))
                .unwrap_err()
                .message,
            errors::ARGUMENTS_NOT_OBJECT
        );
        let doc = params(r#"{"name":null}"#);
        assert_eq!(
            call_params(Some(&doc.root().as_object().unwrap()))
                .unwrap_err()
                .message,
            errors::NAME_NOT_STRING
        );
        assert_eq!(call_params(None).unwrap_err().code, INVALID_PARAMS);
    }
}
