//! Every case of spec/url-cases.json judged by the core's one URL reader under the case's use; the
//! TypeScript entry points run the same cases (test/core/url-cases.test.ts). A backend case's
//! `base`, the WHATWG-normalised text a TypeScript declaration keeps, must itself be accepted.
use pulse_core::json::{self, Object, Value};
use pulse_core::url::{Url, Use};

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/url-cases.json");

fn text(o: &Object<'_>, key: &str) -> String {
    match o.get(key) {
        Some(Value::String(s)) => s.as_str().into_owned(),
        _ => panic!("cases: {key} must be a string"),
    }
}

fn use_of(name: &str) -> Use {
    match name {
        "origin" => Use::Origin,
        "backend" => Use::Backend,
        "authorization" => Use::AuthorizationServer {
            insecure_loopback: false,
        },
        "authorization-loopback" => Use::AuthorizationServer {
            insecure_loopback: true,
        },
        other => panic!("cases: unknown use {other}"),
    }
}

#[test]
fn every_url_case() {
    let bytes = std::fs::read(CASES).expect("spec/url-cases.json");
    let doc = json::parse(&bytes, 4).expect("spec/url-cases.json is JSON");
    let root = doc.root().as_object().expect("cases: an object");
    let cases = root.get("cases").and_then(|c| c.as_array()).expect("cases");
    let mut failures = Vec::new();
    for case in cases.iter() {
        let case = case.as_object().expect("cases: a case is an object");
        let mut url = text(&case, "url");
        if let Some(n) = case.get("length") {
            let n = n.as_number().and_then(|n| n.as_safe_integer()).unwrap() as usize;
            url.push_str(&"a".repeat(n - url.len()));
        }
        let use_ = use_of(&text(&case, "use"));
        let accepted = matches!(case.get("accepted"), Some(Value::Bool(true)));
        let got = Url::parse(&url, use_);
        if got.is_some() != accepted {
            failures.push(format!("{url} as {use_:?}: accepted {}", got.is_some()));
        }
        if let Some(u) = got {
            assert_eq!(u.text, url, "the accepted text is kept as written");
        }
        if let Some(Value::String(base)) = case.get("base") {
            let base = base.as_str();
            if Url::parse(&base, use_).is_none() {
                failures.push(format!("{url}: its normalised form {base} is refused"));
            }
        }
    }
    assert!(cases.len() >= 100);
    assert!(
        failures.is_empty(),
        "URL cases failed:\n{}",
        failures.join("\n")
    );
}
