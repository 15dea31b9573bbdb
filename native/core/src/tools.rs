//! The tools pipeline seen from the engine. PLACEHOLDER with the agreed interface
//! (docs/contracts.md §7); the tools owner replaces the bodies.
use crate::json::Value;
use crate::limits::Limits;

/// The compiled tool set of one engine, built once from the manifest.
pub struct Tools {
    list_json: Vec<u8>,
}

/// State of one in-flight `tools/call` between an outbound instruction and its answer.
pub struct ToolCall {
    _private: (),
}

/// What a tool call produced; the engine frames it (resultType, _meta, legacy form, budgets).
pub struct ToolResult {
    pub is_error: bool,
    /// The text content block (serialized structured output, `null`, or a fixed error message).
    pub text: String,
    /// Canonical JSON of `structuredContent`, when there is one.
    pub structured: Option<Vec<u8>>,
}

pub enum Step {
    /// A JSON-RPC protocol error; the engine frames it with the request id.
    ProtocolError { status: u16, code: i32, message: &'static str },
    Complete(ToolResult),
    /// An outbound instruction (docs/contracts.md §3.3); continue with `Tools::resume`.
    Call { instruction: Vec<u8>, state: ToolCall },
}

impl Tools {
    pub fn from_manifest(_manifest: Value<'_>, _limits: &Limits) -> Result<Tools, &'static str> {
        Err("tools: manifest support is not built yet")
    }

    /// JSON array text of the `Tool` objects, prebuilt at construction.
    pub fn list_json(&self) -> &[u8] {
        &self.list_json
    }

    pub fn call(&self, _name: &str, _arguments: Option<Value<'_>>, _remaining_ms: f64) -> Step {
        Step::ProtocolError { status: 400, code: -32602, message: "Unknown tool" }
    }

    pub fn resume(&self, _state: ToolCall, _payload: &[u8], _remaining_ms: f64) -> Step {
        Step::ProtocolError { status: 500, code: -32603, message: "Internal error" }
    }
}
