//! Limits and budgets: first-class values handed down from configuration, never constants in code.

/// Ceilings for one request. Configuration may only lower the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Body bytes admitted, counted as they stream (Content-Length is never trusted).
    pub request_bytes: usize,
    /// Bytes of any reply body the core frames.
    pub response_bytes: usize,
    /// JSON nesting levels admitted.
    pub depth: u32,
    /// End-to-end deadline, milliseconds from the request's start.
    pub deadline_ms: f64,
    /// Bytes of one whole tool result including its metadata.
    pub tool_result_bytes: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        request_bytes: 64 * 1024,
        response_bytes: 1024 * 1024,
        depth: 32,
        deadline_ms: 10_000.0,
        tool_result_bytes: 1024 * 1024,
    };
}
