//! The server card: a static description of this server for discovery before connecting, served
//! at `/.well-known/mcp/server-card.json` when the `serverCard` option is `true`. Built once from
//! the configuration; public and cacheable for five minutes, unlike every MCP reply.
//!
//! MCP 2026-07-28 defines no server card. The path is the de-facto `.well-known` convention and
//! the fields (capabilities, tools) those of the SEP-2127 draft; the later experimental extension
//! drops the tool list and prefers `<endpoint>/server-card`.
use std::borrow::Cow;

use crate::config::Config;
use crate::json::write;
use crate::methods;
use crate::reply::{Reply, Timing};

pub const PATH: &[u8] = b"/.well-known/mcp/server-card.json";
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
const CACHE: &str = "public, max-age=300";

/// The card's JSON: schema, name and version, protocol version, serverInfo, the transport with its
/// endpoint, the advertised capabilities and the tool entries of `tools/list`.
pub fn build(config: &Config) -> Vec<u8> {
    let mut out = b"{\"$schema\":".to_vec();
    write::string(&mut out, SCHEMA);
    write::member(&mut out, "name", &config.server_name);
    write::member(&mut out, "version", &config.server_version);
    out.extend_from_slice(b",\"protocolVersion\":\"2026-07-28\",\"serverInfo\":{\"name\":");
    write::string(&mut out, &config.server_name);
    out.extend_from_slice(b",\"version\":");
    write::string(&mut out, &config.server_version);
    out.extend_from_slice(b"},\"transport\":{\"type\":\"streamable-http\",\"endpoint\":");
    write::string(&mut out, &config.path);
    out.extend_from_slice(b"},\"capabilities\":");
    out.extend_from_slice(&methods::capabilities(config, false));
    out.extend_from_slice(b",\"tools\":");
    match &config.tools {
        Some(t) => out.extend_from_slice(t.list_json()),
        None => out.extend_from_slice(b"[]"),
    }
    out.push(b'}');
    out
}

/// GET of the card; any other method is 405 with `Allow: GET`.
pub fn reply(card: &[u8], method: &[u8]) -> Reply {
    if method != b"GET" {
        return Reply::method_not_allowed("GET");
    }
    let mut r = Reply::json(200, Timing::Early);
    for h in r.headers.iter_mut() {
        if h.0 == "cache-control" {
            h.1 = Cow::Borrowed(CACHE);
        }
    }
    r.body = card.to_vec();
    r
}
