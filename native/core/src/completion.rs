//! `completion/complete`: declared values of a prompt argument or a template variable, filtered by
//! the typed prefix. Nothing is computed from the request beyond the prefix comparison.
use crate::errors::{self, RpcError, INVALID_PARAMS};
use crate::json::{write, Object, Value};
use crate::prompts::Prompts;
use crate::resources::Resources;

/// The protocol's cap on `values` in one completion result.
pub const MAX_VALUES: usize = 100;

fn string<'a>(o: &Object<'a>, key: &str) -> Option<crate::json::Str<'a>> {
    match o.get(key) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

/// The `completion` object for the request's params.
pub fn complete(
    params: Option<&Object<'_>>,
    prompts: Option<&Prompts>,
    resources: Option<&Resources>,
) -> Result<Vec<u8>, RpcError> {
    let bad = || RpcError::new(400, INVALID_PARAMS, errors::COMPLETION_PARAMS);
    let unknown = || RpcError::new(400, INVALID_PARAMS, errors::COMPLETION_REF);
    let p = params.ok_or_else(bad)?;
    let (reference, argument) = match (p.get("ref"), p.get("argument")) {
        (Some(Value::Object(r)), Some(Value::Object(a))) => (r, a),
        _ => return Err(bad()),
    };
    let (name, prefix) = match (string(&argument, "name"), string(&argument, "value")) {
        (Some(n), Some(v)) => (n.as_str(), v.as_str()),
        _ => return Err(bad()),
    };
    let kind = string(&reference, "type").ok_or_else(bad)?;
    let declared = if kind.eq_str("ref/prompt") {
        let prompt = string(&reference, "name").ok_or_else(bad)?;
        prompts
            .and_then(|p| p.find(&prompt.as_str()))
            .and_then(|p| p.completions(&name))
    } else if kind.eq_str("ref/resource") {
        let uri = string(&reference, "uri").ok_or_else(bad)?;
        resources
            .and_then(|r| r.template(&uri.as_str()))
            .and_then(|t| t.completions(&name))
    } else {
        return Err(bad());
    };
    let declared = declared.ok_or_else(unknown)?;
    let matching: Vec<&String> = declared
        .iter()
        .filter(|v| v.starts_with(&*prefix))
        .collect();
    let mut out = b"{\"values\":[".to_vec();
    for (i, v) in matching.iter().take(MAX_VALUES).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write::string(&mut out, v);
    }
    out.extend_from_slice(b"],\"total\":");
    write::integer(&mut out, matching.len() as i64);
    out.extend_from_slice(if matching.len() > MAX_VALUES {
        b",\"hasMore\":true}" as &[u8]
    } else {
        b",\"hasMore\":false}"
    });
    Ok(out)
}
