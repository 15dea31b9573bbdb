//! JSON-RPC error codes and the fixed messages the engine answers with. Messages are plain ASCII
//! without quotes or backslashes (written verbatim into JSON) and never contain request input.
use crate::json::JsonError;

pub const PARSE_ERROR: i32 = -32700;
pub const INVALID_REQUEST: i32 = -32600;
pub const METHOD_NOT_FOUND: i32 = -32601;
pub const INVALID_PARAMS: i32 = -32602;
pub const INTERNAL_ERROR: i32 = -32603;
pub const HEADER_MISMATCH: i32 = -32020;
pub const MISSING_CAPABILITY: i32 = -32021;
pub const UNSUPPORTED_VERSION: i32 = -32022;
/// A request over one of the opt-in rate limits (`rate_limit.rs`): the code the draft MCP proposal
/// SEP-3304 ("Standardizing Rate-Limiting Errors") takes from the reserved range. The draft is not
/// final; this is the one place that writes it.
pub const RATE_LIMITED_CODE: i32 = -32023;
/// The `jsonRpc(router)` wire's one code for handler and output-validation failures (`jsonrpc.rs`),
/// which the catalog-backed tools read back (`rpc_client.rs`).
pub const EXECUTION_FAILED: i32 = -32000;

/// One JSON-RPC error reply: HTTP status, code, fixed message and optional prebuilt `data` JSON.
#[derive(Debug, PartialEq, Eq)]
pub struct RpcError {
    pub status: u16,
    pub code: i32,
    pub message: &'static str,
    pub data: Option<Vec<u8>>,
}

impl RpcError {
    pub const fn new(status: u16, code: i32, message: &'static str) -> RpcError {
        RpcError {
            status,
            code,
            message,
            data: None,
        }
    }
}

pub const BODY_TOO_LARGE: &str = "Request body too large";
pub const BODY_INTERRUPTED: &str = "Request body interrupted";
pub const CALL_INTERRUPTED: &str = "Request interrupted";
pub const MALFORMED_FRAMING: &str = "Invalid Request: malformed HTTP framing";
pub const RESPONSE_TOO_LARGE: &str = "Response too large";
pub const INTERNAL: &str = "Internal error";
pub const RATE_LIMITED: &str = "Rate limited";
/// A rate limit counts per client address and the host reported none: its own misconfiguration.
pub const NO_CLIENT_ADDRESS: &str = "Internal error: the host reported no client address";
pub const TOOL_RESULT_TOO_LARGE: &str = "Tool result too large";

pub const BATCH: &str = "Invalid Request: batches are not supported";
pub const NOT_OBJECT: &str = "Invalid Request: the body must be a JSON-RPC object";
pub const CLIENT_RESPONSE: &str = "Invalid Request: responses are not accepted";
pub const BAD_JSONRPC: &str = "Invalid Request: jsonrpc must be 2.0";
pub const BAD_MEMBER: &str = "Invalid Request: unexpected member";
pub const BAD_ID: &str = "Invalid Request: id must be a string or a safe integer";
pub const BAD_METHOD: &str = "Invalid Request: method must be a string";
pub const PARAMS_NOT_OBJECT: &str = "Invalid Request: params must be an object";
pub const PARAMS_ARRAY: &str = "Invalid params: params must be an object";
pub const NO_VERSION_HEADER: &str = "Invalid Request: MCP-Protocol-Version header required";

pub const HEADERS_MISSING: &str =
    "Header mismatch: MCP-Protocol-Version and Mcp-Method are required";
pub const NAME_MISSING: &str = "Header mismatch: Mcp-Name is required";
pub const HEADERS_DISAGREE: &str = "Header mismatch: headers disagree with the body";
pub const NAME_MALFORMED: &str = "Header mismatch: Mcp-Name is malformed";
pub const NAME_DISAGREES: &str = "Header mismatch: Mcp-Name disagrees with the body";
pub const PARAM_HEADER_MISMATCH: &str =
    "Header mismatch: an Mcp-Param header disagrees with the body";

pub const META_MISSING: &str = "Invalid params: request metadata is missing or malformed";
pub const LIST_PARAMS: &str = "Invalid params: only _meta is accepted";
pub const URI_NOT_STRING: &str = "Invalid params: uri must be a string";
pub const RESOURCE_NOT_FOUND: &str = "Resource not found";
pub const UNKNOWN_PROMPT: &str = "Invalid params: unknown prompt";
pub const PROMPT_ARGUMENTS: &str = "Invalid params: prompt arguments must be an object of strings";
pub const PROMPT_ARGUMENT_MISSING: &str = "Invalid params: a required prompt argument is missing";
pub const COMPLETION_PARAMS: &str =
    "Invalid params: ref and argument (name and value strings) are required";
pub const STATE_INVALID: &str = "Invalid params: requestState is invalid or expired";
pub const INPUT_RESPONSES: &str = "Invalid params: inputResponses do not match the input requests";
pub const CAPABILITY_MISSING: &str = "Missing required client capability";
pub const COMPLETION_REF: &str = "Invalid params: unknown completion reference";
pub const ARGUMENTS_NOT_OBJECT: &str = "Invalid params: arguments must be an object";
pub const NAME_NOT_STRING: &str = "Invalid params: name must be a string";
pub const INIT_PARAMS: &str = "Invalid params: protocolVersion must be a string";

pub const UNSUPPORTED: &str = "Unsupported protocol version";
pub const NOT_FOUND: &str = "Method not found";

/// The fixed `-32700` message for each strict-JSON failure.
pub fn parse_message(e: &JsonError) -> &'static str {
    match e {
        JsonError::Syntax => "Parse error: invalid JSON",
        JsonError::Utf8 => "Parse error: invalid UTF-8",
        JsonError::Depth => "Parse error: nesting too deep",
        JsonError::DuplicateKey => "Parse error: duplicate member name",
        JsonError::LoneSurrogate => "Parse error: lone surrogate escape",
        JsonError::NumberRange => "Parse error: number out of range",
        JsonError::Trailing => "Parse error: trailing data",
        JsonError::Incomplete => "Parse error: incomplete JSON",
    }
}

/// Every fixed message above with the name of its constant: the request event reports a refusal
/// by that name, lowercased.
macro_rules! named {
    ($($name:ident),* $(,)?) => {
        pub const MESSAGES: &[(&str, &str)] = &[$(($name, stringify!($name))),*];
    };
}

named![
    BODY_TOO_LARGE,
    BODY_INTERRUPTED,
    CALL_INTERRUPTED,
    MALFORMED_FRAMING,
    RESPONSE_TOO_LARGE,
    INTERNAL,
    RATE_LIMITED,
    NO_CLIENT_ADDRESS,
    TOOL_RESULT_TOO_LARGE,
    BATCH,
    NOT_OBJECT,
    CLIENT_RESPONSE,
    BAD_JSONRPC,
    BAD_MEMBER,
    BAD_ID,
    BAD_METHOD,
    PARAMS_NOT_OBJECT,
    PARAMS_ARRAY,
    NO_VERSION_HEADER,
    HEADERS_MISSING,
    NAME_MISSING,
    HEADERS_DISAGREE,
    NAME_MALFORMED,
    NAME_DISAGREES,
    PARAM_HEADER_MISMATCH,
    META_MISSING,
    LIST_PARAMS,
    URI_NOT_STRING,
    RESOURCE_NOT_FOUND,
    UNKNOWN_PROMPT,
    PROMPT_ARGUMENTS,
    PROMPT_ARGUMENT_MISSING,
    COMPLETION_PARAMS,
    STATE_INVALID,
    INPUT_RESPONSES,
    CAPABILITY_MISSING,
    COMPLETION_REF,
    ARGUMENTS_NOT_OBJECT,
    NAME_NOT_STRING,
    INIT_PARAMS,
    UNSUPPORTED,
    NOT_FOUND,
];

#[cfg(test)]
mod tests {
    use super::*;

    const PARSE_MESSAGES: [&str; 4] = [
        "Parse error: invalid JSON",
        "Parse error: nesting too deep",
        "Parse error: trailing data",
        "Parse error: incomplete JSON",
    ];

    #[test]
    fn messages_are_safe_to_write_verbatim() {
        for m in MESSAGES.iter().map(|(m, _)| *m).chain(PARSE_MESSAGES) {
            assert!(!m.is_empty());
            assert!(
                m.bytes()
                    .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'),
                "{m}"
            );
        }
    }

    #[test]
    fn every_json_error_has_a_distinct_message() {
        let kinds = [
            JsonError::Syntax,
            JsonError::Utf8,
            JsonError::Depth,
            JsonError::DuplicateKey,
            JsonError::LoneSurrogate,
            JsonError::NumberRange,
            JsonError::Trailing,
            JsonError::Incomplete,
        ];
        let msgs: Vec<&str> = kinds.iter().map(parse_message).collect();
        for (i, a) in msgs.iter().enumerate() {
            assert!(a.starts_with("Parse error: "));
            assert!(msgs[i + 1..].iter().all(|b| a != b));
        }
    }
}
