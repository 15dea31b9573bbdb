//! The Fastly resources an engine configuration names: the backends its HTTP effects go to, the
//! secret stores its secrets are read from and the log endpoint its request events are written to.
//! The Native build checks each against the project's `fastly.toml` before it writes a binary, so a
//! name the service would only meet at run time (every call a 500) is refused at build time, with
//! the option that named it. The list comes from the parsed configuration, defaults included (an
//! `authorization` without `backend` still sends to [`crate::authorization::DEFAULT_BACKEND`]).
use crate::config::Secret;
use crate::engine::Engine;
use crate::json::write;

/// One named resource and the option that names it (`tools: operation "x"` for a backend handler,
/// `tools.backend` for catalog-backed calls, `authorization.backend`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub option: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceNames {
    pub backends: Vec<Named>,
    /// The store's name; `key` is the entry read from it.
    pub secret_stores: Vec<(Named, String)>,
    pub log_endpoints: Vec<Named>,
}

impl ServiceNames {
    /// What `engine`'s configuration names, in configuration order. Secrets already installed are no
    /// longer waiting in a store and are not listed: ask a fresh engine.
    pub fn of(engine: &Engine) -> ServiceNames {
        let mut names = ServiceNames::default();
        let config = engine.config();
        if let Some(tools) = &config.tools {
            for (op, backend, catalog_backed) in tools.backends() {
                let option = if catalog_backed {
                    "tools.backend".to_string()
                } else {
                    format!("tools: operation \"{}\"", op)
                };
                let named = Named {
                    name: backend.to_string(),
                    option,
                };
                // Every catalog-backed call goes to the one `tools.backend`: it is named once.
                if !names.backends.contains(&named) {
                    names.backends.push(named);
                }
            }
        }
        if let Some(a) = &config.authorization {
            names.backends.push(Named {
                name: a.backend().to_string(),
                option: "authorization.backend".to_string(),
            });
        }
        for which in Secret::ALL {
            if let Some(s) = engine.secret(which) {
                let store = Named {
                    name: s.store.clone(),
                    option: which.option().to_string(),
                };
                names.secret_stores.push((store, s.key.clone()));
            }
        }
        if let Some(endpoint) = engine.log_endpoint() {
            names.log_endpoints.push(Named {
                name: endpoint.to_string(),
                option: "fastlyLogEndpoint".to_string(),
            });
        }
        names
    }

    /// `{"backends":[{"name","option"}…],"secretStores":[{"name","key","option"}…],"logEndpoints":[…]}`.
    pub fn json(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let named = |out: &mut Vec<u8>, n: &Named, key: Option<&str>| {
            out.extend_from_slice(b"{\"name\":");
            write::string(out, &n.name);
            if let Some(k) = key {
                write::member(out, "key", k);
            }
            write::member(out, "option", &n.option);
            out.push(b'}');
        };
        out.extend_from_slice(b"{\"backends\":[");
        for (i, n) in self.backends.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            named(&mut out, n, None);
        }
        out.extend_from_slice(b"],\"secretStores\":[");
        for (i, (n, key)) in self.secret_stores.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            named(&mut out, n, Some(key));
        }
        out.extend_from_slice(b"],\"logEndpoints\":[");
        for (i, n) in self.log_endpoints.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            named(&mut out, n, None);
        }
        out.extend_from_slice(b"]}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RPC_MANIFEST: &str = r#"{"formatVersion":1,"routerId":"t","catalogHash":"h","deadlineMs":3000,"list":"[{\"name\":\"status\"},{\"name\":\"lookup\"},{\"name\":\"health\"}]","tools":[{"name":"status","input":null,"output":null,"handler":{"kind":"rpc","backend":"endpoint","url":"https://rpc.example/","maxBytes":100,"bearer":{"secretStore":"s","key":"backend"}}},{"name":"lookup","input":null,"output":null,"handler":{"kind":"backend","backend":"api","method":"POST","url":"https://api.example/x","maxBytes":100,"timeoutMs":100}},{"name":"health","input":null,"output":null,"handler":{"kind":"rpc","backend":"endpoint","url":"https://rpc.example/","maxBytes":100,"bearer":{"secretStore":"s","key":"backend"}}}],"corpora":{}}"#;

    fn names(extra: &str) -> String {
        let config = format!(r#"{{"tools":{}{}}}"#, RPC_MANIFEST, extra);
        let engine = Engine::new(config.as_bytes()).expect("valid configuration");
        String::from_utf8(ServiceNames::of(&engine).json()).unwrap()
    }

    #[test]
    fn lists_each_backend_once_with_the_option_that_names_it() {
        // Two catalog-backed calls share `tools.backend`; a backend handler names its operation.
        assert_eq!(
            names(""),
            r#"{"backends":[{"name":"endpoint","option":"tools.backend"},{"name":"api","option":"tools: operation \"lookup\""}],"secretStores":[{"name":"s","key":"backend","option":"tools.backendBearerToken"}],"logEndpoints":[]}"#
        );
    }

    #[test]
    fn authorization_names_its_backend_even_by_default_and_its_secret_store() {
        let auth = r#","authorization":{"resource":"https://mcp.example/mcp","issuer":"https://id.example","introspectionEndpoint":"https://id.example/i","clientId":"c","clientSecret":{"secretStore":"idp","key":"introspection"},"scopes":["a"],"operations":{"status":[],"lookup":[]}}"#;
        let text = names(auth);
        assert!(
            text.contains(r#"{"name":"issuer","option":"authorization.backend"}"#),
            "{}",
            text
        );
        assert!(
            text.contains(
                r#"{"name":"idp","key":"introspection","option":"authorization.clientSecret"}"#
            ),
            "{}",
            text
        );
        let named = names(&auth.replace(r#""scopes""#, r#""backend":"idp-backend","scopes""#));
        assert!(named.contains(r#"{"name":"idp-backend","option":"authorization.backend"}"#));
        assert!(!named.contains(r#""name":"issuer""#));
    }

    #[test]
    fn state_key_and_log_endpoint() {
        let text = names(
            r#","requestStateKey":{"secretStore":"st","key":"k"},"fastlyLogEndpoint":"events""#,
        );
        assert!(
            text.contains(r#"{"name":"st","key":"k","option":"requestStateKey"}"#),
            "{}",
            text
        );
        assert!(
            text.ends_with(r#""logEndpoints":[{"name":"events","option":"fastlyLogEndpoint"}]}"#),
            "{}",
            text
        );
    }

    #[test]
    fn an_installed_secret_is_no_longer_listed() {
        let config = format!(r#"{{"tools":{}}}"#, RPC_MANIFEST);
        let mut engine = Engine::new(config.as_bytes()).unwrap();
        engine
            .install_secret(Secret::BackendToken, b"token")
            .unwrap();
        assert!(String::from_utf8(ServiceNames::of(&engine).json())
            .unwrap()
            .contains(r#""secretStores":[]"#));
    }
}
