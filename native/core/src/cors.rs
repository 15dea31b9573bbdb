//! Cross-origin access for browser clients (`cors: true`), granted only to the exact origins of
//! `allowedOrigins`: a preflight of the endpoint is answered, and every reply to a listed origin
//! names that origin alone. Which origin is listed is admission's decision; this module only writes
//! the headers.
use std::borrow::Cow;

use crate::reply::{Reply, Timing};
use crate::tools::Tools;

/// The request headers an MCP client sends; the declared `Mcp-Param-*` headers follow them.
const REQUEST_HEADERS: &str =
    "content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name";
/// Response headers a script may read beyond the CORS-safelisted ones: the 401/403 challenge. The
/// server sends no other header a client reads (it is stateless: no session id).
pub const EXPOSE_HEADERS: &str = "www-authenticate";
/// Seconds a browser may reuse a preflight: 7200 is the most Chromium honours. The grant is safe to
/// cache this long because every reply is checked again: an origin dropped from the list is refused
/// 403 at once, preflight cached or not.
pub const MAX_AGE: &str = "7200";

#[derive(Debug)]
pub struct Cors {
    /// `Access-Control-Allow-Headers`, written once at construction.
    allow_headers: String,
}

impl Cors {
    pub fn new(tools: Option<&Tools>) -> Cors {
        let mut allow_headers = REQUEST_HEADERS.to_string();
        let mut seen: Vec<&[u8]> = Vec::new();
        for name in tools.into_iter().flat_map(Tools::header_param_names) {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            allow_headers.push_str(", mcp-param-");
            // A declared name is an RFC 9110 token: ASCII.
            allow_headers.push_str(&String::from_utf8_lossy(name));
        }
        Cors { allow_headers }
    }

    /// 204 to a listed origin's preflight; [`decorate`] adds the origin when it is sent.
    pub fn preflight(&self) -> Reply {
        let mut r = Reply::empty(204, Timing::Early);
        r.headers.extend([
            ("access-control-allow-methods", Cow::Borrowed("POST")),
            (
                "access-control-allow-headers",
                Cow::Owned(self.allow_headers.clone()),
            ),
            ("access-control-max-age", Cow::Borrowed(MAX_AGE)),
        ]);
        r
    }
}

/// What every reply to a listed origin carries, whatever its status.
pub fn decorate(reply: &mut Reply, origin: &str) {
    reply.headers.extend([
        (
            "access-control-allow-origin",
            Cow::Owned(origin.to_string()),
        ),
        (
            "access-control-expose-headers",
            Cow::Borrowed(EXPOSE_HEADERS),
        ),
        ("vary", Cow::Borrowed("Origin")),
    ]);
}
