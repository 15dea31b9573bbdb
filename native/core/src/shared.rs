//! What hosts must not restate, as one JSON text (the `pulse_defaults_*` export): the default
//! limits, the configuration rule between the request and response budgets, the driver's guard, the
//! name rule, the static-result rule, the backend URL rule and the default bounds of the hosts'
//! in-process stores.
//! The TypeScript sources get it generated at build time (scripts/core-glue.mjs).
use crate::config::RESPONSE_HEADROOM;
use crate::decl::{name_pattern, NAME_RULE};
use crate::driver::MAX_ZERO_WAITS;
use crate::host_store;
use crate::json::write;
use crate::limits::Limits;
use crate::manifest::{STATIC_BYTES, STATIC_DEPTH, STATIC_RESULT_RULE};
use crate::url::{backend_pattern, MAX_URL_BYTES};

/// `{"limits":{…},"responseHeadroomBytes":…,"maxZeroWaits":…,"name":{"pattern":…,"rule":…},
/// "staticResult":{"depth":…,"bytes":…,"rule":…},"backendUrl":{"pattern":…,"maxBytes":…},
/// "hostStore":{"maxEntries":…,"maxBytes":…}}`, with the public names.
pub fn json() -> Vec<u8> {
    let l = Limits::DEFAULT;
    let mut out = format!(
        "{{\"limits\":{{\"requestBytes\":{},\"responseBytes\":{},\"depth\":{},\"deadlineMs\":{},\"toolResultBytes\":{}}},\"responseHeadroomBytes\":{},\"maxZeroWaits\":{},\"name\":{{\"pattern\":",
        l.request_bytes,
        l.response_bytes,
        l.depth,
        l.deadline_ms as u64,
        l.tool_result_bytes,
        RESPONSE_HEADROOM,
        MAX_ZERO_WAITS
    )
    .into_bytes();
    write::string(&mut out, &name_pattern());
    out.extend_from_slice(b",\"rule\":");
    write::string(&mut out, NAME_RULE);
    out.extend_from_slice(
        format!(
            "}},\"staticResult\":{{\"depth\":{},\"bytes\":{},\"rule\":",
            STATIC_DEPTH, STATIC_BYTES
        )
        .as_bytes(),
    );
    write::string(&mut out, STATIC_RESULT_RULE);
    out.extend_from_slice(b"},\"backendUrl\":{\"pattern\":");
    write::string(&mut out, &backend_pattern());
    out.extend_from_slice(
        format!(
            ",\"maxBytes\":{}}},\"hostStore\":{{\"maxEntries\":{},\"maxBytes\":{}}}}}",
            MAX_URL_BYTES,
            host_store::DEFAULT_MAX_ENTRIES,
            host_store::DEFAULT_MAX_BYTES
        )
        .as_bytes(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_each_value_from_its_home() {
        let text = json();
        let doc = crate::json::parse(&text, 4).unwrap();
        let o = doc.root().as_object().unwrap();
        let n = |v: Option<crate::json::Value<'_>>| {
            v.and_then(|v| v.as_number())
                .and_then(|n| n.as_safe_integer())
                .unwrap()
        };
        let limits = o.get("limits").unwrap().as_object().unwrap();
        assert_eq!(
            n(limits.get("requestBytes")),
            Limits::DEFAULT.request_bytes as i64
        );
        assert_eq!(n(limits.get("depth")), i64::from(Limits::DEFAULT.depth));
        assert_eq!(n(o.get("responseHeadroomBytes")), RESPONSE_HEADROOM as i64);
        assert_eq!(n(o.get("maxZeroWaits")), i64::from(MAX_ZERO_WAITS));
        let name = o.get("name").unwrap().as_object().unwrap();
        let s = |v: Option<crate::json::Value<'_>>| {
            v.unwrap().as_string().unwrap().as_str().into_owned()
        };
        assert_eq!(s(name.get("pattern")), "^[A-Za-z0-9_.-]{1,128}$");
        assert_eq!(s(name.get("rule")), "1-128 characters of A-Za-z0-9_.-");
        let stat = o.get("staticResult").unwrap().as_object().unwrap();
        assert_eq!(n(stat.get("depth")), 32);
        assert_eq!(n(stat.get("bytes")), 65536);
        assert_eq!(
            s(stat.get("rule")),
            "plain JSON of at most 32 levels and 65536 bytes"
        );
        let url = o.get("backendUrl").unwrap().as_object().unwrap();
        assert_eq!(s(url.get("pattern")), backend_pattern());
        assert_eq!(n(url.get("maxBytes")), MAX_URL_BYTES as i64);
        let store = o.get("hostStore").unwrap().as_object().unwrap();
        assert_eq!(
            n(store.get("maxEntries")),
            host_store::DEFAULT_MAX_ENTRIES as i64
        );
        assert_eq!(
            n(store.get("maxBytes")),
            host_store::DEFAULT_MAX_BYTES as i64
        );
    }

    #[test]
    fn the_name_rule_states_what_valid_name_checks() {
        use crate::decl::{valid_name, MAX_NAME, NAME_PUNCTUATION};
        let allowed = |b: u8| b.is_ascii_alphanumeric() || NAME_PUNCTUATION.contains(&b);
        let punctuation = std::str::from_utf8(NAME_PUNCTUATION).unwrap();
        assert_eq!(
            NAME_RULE,
            format!("1-{} characters of A-Za-z0-9{}", MAX_NAME, punctuation)
        );
        for b in 0..=255u8 {
            let one = [b];
            let text = String::from_utf8_lossy(&one);
            assert_eq!(valid_name(&text), allowed(b) && text.len() == 1, "{:?}", b);
        }
        assert!(
            valid_name(&"a".repeat(MAX_NAME))
                && !valid_name(&"a".repeat(MAX_NAME + 1))
                && !valid_name("")
        );
    }
}
