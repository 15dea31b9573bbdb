//! Static result objects, built once per engine: `server/discover`, the legacy `initialize`, both
//! forms of `tools/list`, the other list results, and the serverInfo `_meta` and caching hints
//! modern results carry. Per request only the envelope and id are written around them. Each list,
//! and each static resource read, is checked once here to fit the response budget.
use crate::config::{Config, ConfigError};
use crate::fragments::{legacy_tools_list_of, list_result, Fragments};
use crate::json::write;
use crate::methods;
use crate::reply::RESULT_ENVELOPE_BYTES;
use crate::server_card;

/// A prebuilt reply (`method`, declared under `option`) would exceed `limits.responseBytes` by
/// `over` bytes.
#[derive(Debug, PartialEq, Eq)]
pub struct ListTooLarge {
    pub option: &'static str,
    pub method: &'static str,
    pub over: usize,
}

impl From<ListTooLarge> for ConfigError {
    fn from(e: ListTooLarge) -> ConfigError {
        format!(
            "{}: the {} reply exceeds limits.responseBytes by {} bytes (it must fit beside an id as long as limits.requestBytes)",
            e.option, e.method, e.over
        )
    }
}

/// The one check that a whole reply fits: the exact result bytes, the envelope, and the largest
/// id, which is bounded by the request budget.
fn fits(
    config: &Config,
    option: &'static str,
    method: &'static str,
    result: usize,
) -> Result<(), ListTooLarge> {
    let needed = RESULT_ENVELOPE_BYTES + config.limits.request_bytes + result;
    if needed > config.limits.response_bytes {
        return Err(ListTooLarge {
            option,
            method,
            over: needed - config.limits.response_bytes,
        });
    }
    Ok(())
}

/// The static result objects of `config`, each checked to fit the response budget.
pub fn build(config: &Config) -> Result<Fragments, ListTooLarge> {
    let mut server_info = b"{\"name\":".to_vec();
    write::string(&mut server_info, &config.server_name);
    server_info.extend_from_slice(b",\"version\":");
    write::string(&mut server_info, &config.server_version);
    server_info.push(b'}');

    let mut server_meta = b"\"_meta\":{\"io.modelcontextprotocol/serverInfo\":".to_vec();
    server_meta.extend_from_slice(&server_info);
    server_meta.push(b'}');

    let mut discover =
        b"{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":"
            .to_vec();
    discover.extend_from_slice(&methods::capabilities(config, false));
    discover.extend_from_slice(b",\"ttlMs\":0,\"cacheScope\":\"private\",");
    discover.extend_from_slice(&server_meta);
    discover.push(b'}');

    let mut initialize = b"{\"protocolVersion\":\"2025-06-18\",\"capabilities\":".to_vec();
    initialize.extend_from_slice(&methods::capabilities(config, true));
    initialize.extend_from_slice(b",\"serverInfo\":");
    initialize.extend_from_slice(&server_info);
    initialize.push(b'}');

    let mut list_cache = b"\"ttlMs\":".to_vec();
    write::integer(&mut list_cache, config.list_cache.ttl_ms as i64);
    list_cache.extend_from_slice(if config.list_cache.public {
        b",\"cacheScope\":\"public\"" as &[u8]
    } else {
        b",\"cacheScope\":\"private\""
    });

    let mut tools_list = Vec::new();
    let mut legacy_tools_list = Vec::new();
    if let Some(tools) = &config.tools {
        tools_list = list_result("tools", tools.list_json(), &list_cache, &server_meta);
        fits(config, "tools", "tools/list", tools_list.len())?;
        // Only a server that speaks the legacy revision answers it (a copy of the list).
        if config.legacy {
            legacy_tools_list = legacy_tools_list_of(tools.list_json());
        }
    }
    let mut resources_list = Vec::new();
    let mut templates_list = Vec::new();
    if let Some(r) = &config.resources {
        resources_list = list_result("resources", r.list_json(), &list_cache, &server_meta);
        fits(config, "resources", "resources/list", resources_list.len())?;
        templates_list = list_result(
            "resourceTemplates",
            r.templates_json(),
            &list_cache,
            &server_meta,
        );
        fits(
            config,
            "resourceTemplates",
            "resources/templates/list",
            templates_list.len(),
        )?;
        for contents in r.static_contents() {
            let read = list_result("contents", contents, &list_cache, &server_meta);
            fits(config, "resources", "resources/read", read.len())?;
        }
    }
    let mut prompts_list = Vec::new();
    if let Some(p) = &config.prompts {
        prompts_list = list_result("prompts", p.list_json(), &list_cache, &server_meta);
        fits(config, "prompts", "prompts/list", prompts_list.len())?;
    }

    let server_card = if config.server_card {
        server_card::build(config)
    } else {
        Vec::new()
    };
    if server_card.len() > config.limits.response_bytes {
        return Err(ListTooLarge {
            option: "serverCard",
            method: "server card",
            over: server_card.len() - config.limits.response_bytes,
        });
    }

    let mut unsupported_prefix = b"{\"supported\":[\"2026-07-28\"".to_vec();
    if config.legacy {
        unsupported_prefix.extend_from_slice(b",\"2025-06-18\"");
    }
    unsupported_prefix.extend_from_slice(b"],\"requested\":");

    Ok(Fragments {
        server_meta,
        discover,
        initialize,
        tools_list,
        legacy_tools_list,
        resources_list,
        templates_list,
        prompts_list,
        list_cache,
        unsupported_prefix,
        server_card,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fragments::unsupported_data;

    #[test]
    fn discover_without_tools() {
        let c = Config::parse(br#"{"serverInfo":{"name":"p\"x","version":"1"}}"#).unwrap();
        let f = build(&c).unwrap();
        assert_eq!(
            std::str::from_utf8(&f.discover).unwrap(),
            r#"{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"p\"x","version":"1"}}}"#
        );
        assert!(f.tools_list.is_empty());
        assert_eq!(
            std::str::from_utf8(&f.initialize).unwrap(),
            r#"{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"p\"x","version":"1"}}"#
        );
        assert_eq!(
            unsupported_data(&f.unsupported_prefix, Some("x")),
            br#"{"supported":["2026-07-28"],"requested":"x"}"#
        );
        assert_eq!(
            unsupported_data(&f.unsupported_prefix, None),
            br#"{"supported":["2026-07-28"]}"#
        );
    }

    #[test]
    fn legacy_profile_lists_both_revisions() {
        let c = Config::parse(br#"{"legacyProtocol":"2025-06-18"}"#).unwrap();
        let f = build(&c).unwrap();
        assert_eq!(
            unsupported_data(&f.unsupported_prefix, Some("1")),
            br#"{"supported":["2026-07-28","2025-06-18"],"requested":"1"}"#
        );
        assert!(f.discover.windows(14).any(|w| w == b"[\"2026-07-28\"]"));
    }

    /// A configuration text with four 128-character tools and the given limits.
    fn with_tools(limits: &str) -> String {
        let names: Vec<String> = (0..4)
            .map(|i| format!("{}{}", i, "x".repeat(127)))
            .collect();
        let list: Vec<String> = names
            .iter()
            .map(|n| format!(r#"{{\"name\":\"{}\"}}"#, n))
            .collect();
        let tools: Vec<String> = names
            .iter()
            .map(|n| format!(r#"{{"name":"{}","input":null,"output":null,"handler":{{"kind":"javascript"}}}}"#, n))
            .collect();
        format!(
            r#"{{"limits":{},"tools":{{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":"[{}]","tools":[{}],"corpora":{{}}}}}}"#,
            limits,
            list.join(","),
            tools.join(",")
        )
    }

    fn limits(request: usize, response: usize) -> String {
        format!(
            r#"{{"requestBytes":{},"responseBytes":{}}}"#,
            request, response
        )
    }

    #[test]
    fn the_tools_list_reply_must_fit_the_response_budget_exactly() {
        let parse = |text: String| Config::parse(text.as_bytes()).unwrap();
        let f = build(&parse(with_tools("{}"))).unwrap();
        let request = 1000;
        let exact = RESULT_ENVELOPE_BYTES + request + f.tools_list.len();
        assert!(exact >= request + crate::config::RESPONSE_HEADROOM);
        assert!(build(&parse(with_tools(&limits(request, exact)))).is_ok());
        for over in [1, 37] {
            let text = with_tools(&limits(request, exact - over));
            let message = format!("tools: the tools/list reply exceeds limits.responseBytes by {} bytes (it must fit beside an id as long as limits.requestBytes)", over);
            assert_eq!(
                build(&parse(text.clone())).err(),
                Some(ListTooLarge {
                    option: "tools",
                    method: "tools/list",
                    over
                })
            );
            // Hosts see the same message from the engine they construct.
            assert_eq!(crate::Engine::new(text.as_bytes()).err(), Some(message));
        }
    }
}
