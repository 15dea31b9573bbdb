//! The method table: one row per MCP method this core knows. A row drives modern and legacy
//! admission (which profile serves it, which params member `Mcp-Name` mirrors), the capabilities
//! advertised by `server/discover` and by the legacy `initialize`, and dispatch. Adding a method is
//! one row here and one serve function.
use std::borrow::Cow;

use crate::authorization::Grant;
use crate::calls;
use crate::completion;
use crate::config::Config;
use crate::errors::{self, RpcError, INTERNAL_ERROR, INVALID_PARAMS};
use crate::fragments::{self, read_result, Fragments};
use crate::hmac::DIGEST_BYTES;
use crate::json::{write, Object, Value};
use crate::mrtr::{self, Gate, Inputs};
use crate::state;
use crate::tools::Step;

/// A configured feature a method depends on; unconfigured, the method is not found (`-32601`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Always served (discovery and the legacy handshake).
    Core,
    Tools,
    Resources,
    Prompts,
    Completions,
}

/// Whether, and how, the opt-in 2025-06-18 profile serves a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legacy {
    No,
    /// Served to requests carrying `MCP-Protocol-Version: 2025-06-18`.
    Yes,
    /// The stateless `initialize`: admitted without the version header, which it negotiates.
    Handshake,
}

pub struct Method {
    pub name: &'static str,
    /// The params member an `Mcp-Name` header mirrors; the header is then required (modern).
    pub mirror: Option<&'static str>,
    pub capability: Capability,
    pub modern: bool,
    pub legacy: Legacy,
    /// `None`: known to the protocol (its header rules apply) but not served by this core.
    pub serve: Option<Serve>,
}

impl std::fmt::Debug for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Everything a serve function may read about the request and the engine.
pub struct Dispatch<'a> {
    pub config: &'a Config,
    pub frags: &'a Fragments,
    pub params: Option<&'a Object<'a>>,
    /// Framed for the 2025-06-18 profile.
    pub legacy: bool,
    pub remaining_ms: f64,
    /// Wall-clock milliseconds since the Unix epoch (NaN when the host gave none).
    pub epoch_ms: f64,
    /// `Mcp-Param-*` headers: (lowercase name after the prefix, value).
    pub param_headers: &'a [(Vec<u8>, Vec<u8>)],
    /// What authorization granted (with `authorization` only): lists show what it permits.
    pub grant: Option<&'a Grant>,
}

/// What a method produced; the engine frames it with the id and enforces the budgets.
pub enum Served<'a> {
    /// The text of the `result` object.
    Result(Cow<'a, [u8]>),
    Error(RpcError),
    /// A tool step: a result to frame, a protocol error, or an effect to perform first.
    Tool(Step),
}

pub type Serve = for<'a> fn(&Dispatch<'a>) -> Served<'a>;

const fn row(
    name: &'static str,
    mirror: Option<&'static str>,
    capability: Capability,
    modern: bool,
    legacy: Legacy,
    serve: Option<Serve>,
) -> Method {
    Method {
        name,
        mirror,
        capability,
        modern,
        legacy,
        serve,
    }
}

pub static METHODS: [Method; 12] = [
    row(
        "server/discover",
        None,
        Capability::Core,
        true,
        Legacy::No,
        Some(discover),
    ),
    row(
        "initialize",
        None,
        Capability::Core,
        false,
        Legacy::Handshake,
        Some(initialize),
    ),
    row(
        "ping",
        None,
        Capability::Core,
        false,
        Legacy::Yes,
        Some(ping),
    ),
    row(
        "tools/list",
        None,
        Capability::Tools,
        true,
        Legacy::Yes,
        Some(tools_list),
    ),
    row(
        "tools/call",
        Some("name"),
        Capability::Tools,
        true,
        Legacy::Yes,
        Some(tools_call),
    ),
    row(
        "resources/list",
        None,
        Capability::Resources,
        true,
        Legacy::No,
        Some(resources_list),
    ),
    row(
        "resources/templates/list",
        None,
        Capability::Resources,
        true,
        Legacy::No,
        Some(templates_list),
    ),
    row(
        "resources/read",
        Some("uri"),
        Capability::Resources,
        true,
        Legacy::No,
        Some(resources_read),
    ),
    row(
        "prompts/list",
        None,
        Capability::Prompts,
        true,
        Legacy::No,
        Some(prompts_list),
    ),
    row(
        "prompts/get",
        Some("name"),
        Capability::Prompts,
        true,
        Legacy::No,
        Some(prompts_get),
    ),
    row(
        "completion/complete",
        None,
        Capability::Completions,
        true,
        Legacy::No,
        Some(complete),
    ),
    // Known to the protocol, so its header rules apply, but never served: state lives with the
    // client in this stateless design.
    row(
        "subscriptions/listen",
        None,
        Capability::Core,
        true,
        Legacy::No,
        None,
    ),
];

pub fn find(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

impl Capability {
    pub fn configured(&self, config: &Config) -> bool {
        match self {
            Capability::Core => true,
            Capability::Tools => config.tools.is_some(),
            Capability::Resources => config.resources.is_some(),
            Capability::Prompts => config.prompts.is_some(),
            Capability::Completions => config.completions,
        }
    }

    /// The member advertised in `capabilities`, if this capability has one.
    fn advertised(&self) -> Option<&'static [u8]> {
        match self {
            Capability::Core => None,
            Capability::Tools => Some(b"\"tools\":{\"listChanged\":false}"),
            Capability::Resources => Some(b"\"resources\":{}"),
            Capability::Prompts => Some(b"\"prompts\":{}"),
            Capability::Completions => Some(b"\"completions\":{}"),
        }
    }
}

impl Method {
    /// Whether this core serves the method on the given profile with this configuration.
    pub fn served(&self, config: &Config, legacy: bool) -> bool {
        let profile = if legacy {
            self.legacy != Legacy::No
        } else {
            self.modern
        };
        profile && self.serve.is_some() && self.capability.configured(config)
    }
}

/// The `capabilities` object of one profile: every configured capability with a served method.
pub fn capabilities(config: &Config, legacy: bool) -> Vec<u8> {
    let mut out = b"{".to_vec();
    let mut seen: Vec<Capability> = Vec::new();
    for m in METHODS.iter().filter(|m| m.served(config, legacy)) {
        if let Some(member) = m.capability.advertised() {
            if !seen.contains(&m.capability) {
                if !seen.is_empty() {
                    out.push(b',');
                }
                seen.push(m.capability);
                out.extend_from_slice(member);
            }
        }
    }
    out.push(b'}');
    out
}

fn discover<'a>(d: &Dispatch<'a>) -> Served<'a> {
    Served::Result(Cow::Borrowed(&d.frags.discover))
}

fn initialize<'a>(d: &Dispatch<'a>) -> Served<'a> {
    Served::Result(Cow::Borrowed(&d.frags.initialize))
}

fn ping<'a>(_: &Dispatch<'a>) -> Served<'a> {
    Served::Result(Cow::Borrowed(b"{}"))
}

fn tools_list<'a>(d: &Dispatch<'a>) -> Served<'a> {
    if let Err(e) = calls::list_params(d.params) {
        return Served::Error(e);
    }
    if let (Some(a), Some(g)) = (&d.config.authorization, d.grant) {
        let array = a.tools_array(g);
        return Served::Result(Cow::Owned(match d.legacy {
            true => fragments::legacy_tools_list_of(&array),
            false => fragments::tools_list(&array, d.frags),
        }));
    }
    Served::Result(Cow::Borrowed(match d.legacy {
        true => &d.frags.legacy_tools_list,
        false => &d.frags.tools_list,
    }))
}

fn tools_call<'a>(d: &Dispatch<'a>) -> Served<'a> {
    let tools = match &d.config.tools {
        Some(t) => t,
        None => unreachable!("tools/call is served only when tools are configured"),
    };
    let (name, arguments) = match calls::call_params(d.params) {
        Err(e) => return Served::Error(e),
        Ok(p) => p,
    };
    let name = name.as_str();
    if d.legacy {
        return Served::Tool(tools.call(&name, arguments, d.remaining_ms));
    }
    if let Err(e) = tools.check_header_params(&name, arguments.as_ref(), d.param_headers) {
        return Served::Error(e);
    }
    let prepared = match tools.prepare(&name, arguments) {
        Err(step) => return Served::Tool(*step),
        Ok(p) => p,
    };
    let responses = match (prepared.inputs, d.params) {
        (Some(inputs), Some(params)) => {
            let input = prepared.input.as_deref().unwrap_or(b"");
            match gate(
                d,
                inputs,
                params,
                state::binding("tools/call", &name, input),
            ) {
                Gate::Proceed(responses) => Some(responses),
                ended => return round_ended(ended),
            }
        }
        _ => None,
    };
    Served::Tool(tools.run(prepared, responses, d.remaining_ms))
}

/// Runs the multi-round gate of one request.
fn gate(d: &Dispatch<'_>, inputs: &Inputs, params: &Object<'_>, bind: [u8; DIGEST_BYTES]) -> Gate {
    // Without a key (its secret not read by the host) nothing is sealed or opened: fail closed.
    let key = match &d.config.state_key {
        Some(k) => k,
        None => return Gate::Refused(RpcError::new(500, INTERNAL_ERROR, errors::INTERNAL)),
    };
    let retry = mrtr::Retry {
        params,
        bind,
        key,
        epoch_ms: d.epoch_ms,
        server_meta: &d.frags.server_meta,
    };
    mrtr::gate(inputs, &retry)
}

/// The reply of a round that did not reach the handler.
fn round_ended<'a>(g: Gate) -> Served<'a> {
    match g {
        Gate::InputRequired(result) => Served::Result(Cow::Owned(result)),
        Gate::Refused(e) => Served::Error(e),
        Gate::Proceed(_) => unreachable!("callers handle Proceed"),
    }
}

/// A list result prebuilt at construction; the method is served only when it was declared.
fn prebuilt<'a>(d: &Dispatch<'a>, result: &'a [u8]) -> Served<'a> {
    match calls::list_params(d.params) {
        Err(e) => Served::Error(e),
        Ok(()) => Served::Result(Cow::Borrowed(result)),
    }
}

fn resources_list<'a>(d: &Dispatch<'a>) -> Served<'a> {
    prebuilt(d, &d.frags.resources_list)
}

fn templates_list<'a>(d: &Dispatch<'a>) -> Served<'a> {
    prebuilt(d, &d.frags.templates_list)
}

fn prompts_list<'a>(d: &Dispatch<'a>) -> Served<'a> {
    prebuilt(d, &d.frags.prompts_list)
}

fn resources_read<'a>(d: &Dispatch<'a>) -> Served<'a> {
    let uri = match d.params.and_then(|p| p.get("uri")) {
        Some(Value::String(s)) => s.as_str(),
        _ => return Served::Error(RpcError::new(400, INVALID_PARAMS, errors::URI_NOT_STRING)),
    };
    let contents = d.config.resources.as_ref().and_then(|r| r.read(&uri));
    match contents {
        Some(c) => Served::Result(Cow::Owned(read_result(&c, d.frags))),
        None => {
            // The specification asks for the unknown URI in `data`; it is the client's own string,
            // escaped, and bounded by the request budget.
            let mut data = b"{\"uri\":".to_vec();
            write::string(&mut data, &uri);
            data.push(b'}');
            let mut e = RpcError::new(400, INVALID_PARAMS, errors::RESOURCE_NOT_FOUND);
            e.data = Some(data);
            Served::Error(e)
        }
    }
}

fn prompts_get<'a>(d: &Dispatch<'a>) -> Served<'a> {
    let prompts = match &d.config.prompts {
        Some(p) => p,
        None => unreachable!("prompts/get is served only when prompts are declared"),
    };
    let p = match d.params {
        Some(p) => p,
        None => return Served::Error(RpcError::new(400, INVALID_PARAMS, errors::NAME_NOT_STRING)),
    };
    let name = match p.get("name") {
        Some(Value::String(s)) => s.as_str(),
        _ => return Served::Error(RpcError::new(400, INVALID_PARAMS, errors::NAME_NOT_STRING)),
    };
    let arguments = match p.get("arguments") {
        None | Some(Value::Null) => None,
        Some(Value::Object(o)) => Some(o),
        Some(_) => {
            return Served::Error(RpcError::new(400, INVALID_PARAMS, errors::PROMPT_ARGUMENTS))
        }
    };
    let prompt = match prompts.find(&name) {
        Some(p) => p,
        None => return Served::Error(RpcError::new(400, INVALID_PARAMS, errors::UNKNOWN_PROMPT)),
    };
    if let (Some(inputs), Some(params)) = (&prompt.inputs, d.params) {
        let mut canonical = Vec::new();
        match &arguments {
            Some(o) => write::value(&mut canonical, Value::Object(*o)),
            None => canonical.extend_from_slice(b"null"),
        }
        let bind = state::binding("prompts/get", &name, &canonical);
        match gate(d, inputs, params, bind) {
            Gate::Proceed(_) => {}
            ended => return round_ended(ended),
        }
    }
    let mut out = b"{\"resultType\":\"complete\"".to_vec();
    if let Err(e) = prompt.render(arguments.as_ref(), &mut out) {
        return Served::Error(e);
    }
    out.push(b',');
    out.extend_from_slice(&d.frags.server_meta);
    out.push(b'}');
    Served::Result(Cow::Owned(out))
}

fn complete<'a>(d: &Dispatch<'a>) -> Served<'a> {
    match completion::complete(
        d.params,
        d.config.prompts.as_ref(),
        d.config.resources.as_ref(),
    ) {
        Err(e) => Served::Error(e),
        Ok(completion) => {
            let mut out = b"{\"resultType\":\"complete\",\"completion\":".to_vec();
            out.extend_from_slice(&completion);
            out.push(b',');
            out.extend_from_slice(&d.frags.server_meta);
            out.push(b'}');
            Served::Result(Cow::Owned(out))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        Config::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn names_are_unique_and_mirrors_are_named_members() {
        for (i, m) in METHODS.iter().enumerate() {
            assert!(METHODS[..i].iter().all(|o| o.name != m.name), "{}", m.name);
            assert!(
                m.modern || m.legacy != Legacy::No,
                "{} is served nowhere",
                m.name
            );
        }
        assert_eq!(find("tools/call").unwrap().mirror, Some("name"));
        assert_eq!(find("resources/read").unwrap().mirror, Some("uri"));
        assert!(find("logging/setLevel").is_none());
    }

    #[test]
    fn capabilities_follow_the_served_rows() {
        let bare = config("{}");
        assert_eq!(capabilities(&bare, false), b"{}");
        assert_eq!(capabilities(&bare, true), b"{}");
        assert!(find("server/discover").unwrap().served(&bare, false));
        assert!(!find("server/discover").unwrap().served(&bare, true));
        assert!(!find("tools/list").unwrap().served(&bare, false));
        assert!(find("initialize").unwrap().served(&bare, true));
        assert!(!find("prompts/get").unwrap().served(&bare, false));
        assert!(!find("subscriptions/listen").unwrap().served(&bare, false));
        let text = format!(r#"{{"tools":{}}}"#, crate::tools::tests::manifest());
        let tools = config(&text);
        assert_eq!(
            capabilities(&tools, false),
            br#"{"tools":{"listChanged":false}}"#
        );
        assert_eq!(
            capabilities(&tools, true),
            br#"{"tools":{"listChanged":false}}"#
        );
        assert!(find("tools/call").unwrap().served(&tools, true));
    }
}
