//! Pulse MCP protocol engine, sans I/O.
//!
//! Hosts feed the request head, body chunks and the current monotonic time; the engine answers with
//! typed decisions: a [`Reply`] to send verbatim, or an [`Effect`] to perform and report back. It
//! never reads a socket, a clock or a global. See `docs/contracts.md` for the host contract and
//! `README.md` beside this crate for the outcome table.
//!
//! Rust hosts (the Fastly Native binary) use [`driver::drive`] over their own [`driver::HostIo`];
//! JavaScript hosts use the C ABI of `abi.rs` (wasm32-unknown-unknown only), the one place where
//! heads, replies and effects are encoded as bytes.
#![deny(unsafe_op_in_unsafe_fn)]

pub mod admission;
pub mod authorization;
pub mod base64;
pub mod calls;
pub mod codec;
pub mod completion;
pub mod config;
pub mod content;
pub mod corpus;
pub mod corpus_index;
pub mod cors;
pub mod deadline;
pub mod decl;
pub mod discover;
pub mod driver;
pub mod effect;
pub mod engine;
pub mod entry;
pub mod envelope;
pub mod errors;
pub mod event;
pub mod field_rules;
pub mod fragments;
pub mod head;
pub mod header_params;
pub mod hmac;
pub mod host_store;
pub mod introspection_cache;
pub mod json;
pub mod jsonrpc;
pub mod legacy;
pub mod limits;
pub mod manifest;
pub mod methods;
pub mod modern;
pub mod mrtr;
pub mod outbound;
pub mod progress;
pub mod prompts;
pub mod rate_limit;
pub mod record;
pub mod reply;
pub mod resources;
pub mod rpc_client;
pub mod server_card;
pub mod service_names;
pub mod shared;
pub mod state;
pub mod tools;
pub mod url;

#[cfg(any(all(target_arch = "wasm32", target_os = "unknown"), test))]
pub mod abi;

pub use config::Config;
pub use decl::ConfigError;
pub use effect::{
    Answer, Effect, HandlerAnswer, HandlerEffect, HttpAnswer, HttpEffect, HttpFailure, HttpMethod,
};
pub use engine::{Action, Engine, Fault, Request};
pub use limits::Limits;
pub use reply::Reply;
