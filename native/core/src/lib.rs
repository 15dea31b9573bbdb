//! Pulse MCP protocol engine, sans I/O.
//!
//! Hosts feed the request head, body chunks and the current monotonic time; the engine answers with
//! decisions and the exact bytes to send. It never reads a socket, a clock or a global. See
//! `docs/contracts.md` for the C ABI and the records exchanged with hosts.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod json;
pub mod limits;
pub mod tools;
