//! The static result objects an engine builds once (`discover.rs`) and the results written around
//! them per request: the list results, `resources/read` and the `-32022` data.
use crate::json::write;

pub const MODERN_REVISION: &str = "2026-07-28";

/// The prebuilt objects; per request only the envelope and id are written around them.
pub struct Fragments {
    /// `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":…,"version":…}}`
    pub server_meta: Vec<u8>,
    /// The `server/discover` result object.
    pub discover: Vec<u8>,
    /// The legacy `initialize` result object.
    pub initialize: Vec<u8>,
    /// The modern `tools/list` result object (empty without tools).
    pub tools_list: Vec<u8>,
    /// The legacy `tools/list` result object, `{"tools":[…]}` (empty without tools).
    pub legacy_tools_list: Vec<u8>,
    /// `resources/list`, `resources/templates/list` and `prompts/list` result objects (empty when
    /// not declared).
    pub resources_list: Vec<u8>,
    pub templates_list: Vec<u8>,
    pub prompts_list: Vec<u8>,
    /// `"ttlMs":…,"cacheScope":"…"` of list results and resource reads.
    pub list_cache: Vec<u8>,
    /// `data` of `-32022`: `{"supported":[…],"requested":` (caller appends).
    pub unsupported_prefix: Vec<u8>,
    /// The server card's JSON; empty when it is not served.
    pub server_card: Vec<u8>,
}

/// The modern `tools/list` result of `array` (a subset of the tools: it fits when all of them do).
pub fn tools_list(array: &[u8], frags: &Fragments) -> Vec<u8> {
    list_result("tools", array, &frags.list_cache, &frags.server_meta)
}

/// The legacy `tools/list` result of `array`, `{"tools":[…]}`.
pub fn legacy_tools_list_of(array: &[u8]) -> Vec<u8> {
    let mut out = b"{\"tools\":".to_vec();
    out.extend_from_slice(array);
    out.push(b'}');
    out
}

/// A complete list result: `{"resultType":"complete","<member>":<array>,<cache>,<_meta>}`.
pub fn list_result(member: &str, array: &[u8], cache: &[u8], server_meta: &[u8]) -> Vec<u8> {
    let mut out = b"{\"resultType\":\"complete\",\"".to_vec();
    out.extend_from_slice(member.as_bytes());
    out.extend_from_slice(b"\":");
    out.extend_from_slice(array);
    out.push(b',');
    out.extend_from_slice(cache);
    out.push(b',');
    out.extend_from_slice(server_meta);
    out.push(b'}');
    out
}

/// The `resources/read` result around a `contents` array.
pub fn read_result(contents: &[u8], frags: &Fragments) -> Vec<u8> {
    list_result("contents", contents, &frags.list_cache, &frags.server_meta)
}

/// `-32022` data: `{"supported":[…],"requested":<requested>}`, or without `requested` when unknown.
pub fn unsupported_data(prefix: &[u8], requested: Option<&str>) -> Vec<u8> {
    let mut data = prefix.to_vec();
    match requested {
        Some(r) => {
            write::string(&mut data, r);
            data.push(b'}');
        }
        None => {
            // Drop the trailing `,"requested":`.
            data.truncate(data.len() - b",\"requested\":".len());
            data.push(b'}');
        }
    }
    data
}
