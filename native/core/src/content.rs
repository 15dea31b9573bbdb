//! MCP content blocks (text, image, audio, embedded resource, resource link): one validator and one
//! canonical writer, for declared prompt messages and resources and for tool results that carry
//! content. Only the members the schema defines are written, in a fixed order; anything else is
//! dropped, so a declaration cannot smuggle members onto the wire.
use crate::base64;
use crate::json::{write, Object, Value};

/// Most blocks one tool result may carry.
pub const MAX_BLOCKS: usize = 64;

/// Why a value is not a content block; the caller prefixes where it was found.
pub type ContentError = &'static str;

fn string<'a>(o: &Object<'a>, key: &str) -> Option<crate::json::Str<'a>> {
    match o.get(key) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

/// Writes `"key":"value"` (with a leading comma) when `key` is a string member of `o`.
fn optional(out: &mut Vec<u8>, o: &Object<'_>, key: &str) -> Result<(), ContentError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(s)) => {
            write::member(out, key, &s.as_str());
            Ok(())
        }
        Some(_) => Err(match key {
            "mimeType" => "mimeType must be a string",
            "title" => "title must be a string",
            "description" => "description must be a string",
            _ => "a metadata member must be a string",
        }),
    }
}

fn required(
    out: &mut Vec<u8>,
    o: &Object<'_>,
    key: &str,
    missing: ContentError,
) -> Result<(), ContentError> {
    let s = string(o, key).ok_or(missing)?;
    write::member(out, key, &s.as_str());
    Ok(())
}

fn base64_member(
    out: &mut Vec<u8>,
    o: &Object<'_>,
    key: &str,
    bad: ContentError,
) -> Result<(), ContentError> {
    let s = string(o, key).ok_or(bad)?;
    if !base64::is_padded(s.as_str().as_bytes()) {
        return Err(bad);
    }
    write::member(out, key, &s.as_str());
    Ok(())
}

/// The contents of an embedded or read resource: `{uri, mimeType?, text | blob}`.
pub fn resource_contents(out: &mut Vec<u8>, v: Value<'_>) -> Result<(), ContentError> {
    let o = match v {
        Value::Object(o) => o,
        _ => return Err("resource must be an object"),
    };
    let uri = string(&o, "uri").ok_or("resource.uri must be a string")?;
    out.extend_from_slice(b"{\"uri\":");
    write::string(out, &uri.as_str());
    optional(out, &o, "mimeType")?;
    match (o.get("text"), o.get("blob")) {
        (Some(Value::String(t)), None) => write::member(out, "text", &t.as_str()),
        (None, Some(_)) => base64_member(out, &o, "blob", "resource.blob must be padded base64")?,
        _ => return Err("resource needs exactly one of text (a string) and blob"),
    }
    out.push(b'}');
    Ok(())
}

/// One content block, written canonically.
pub fn block(out: &mut Vec<u8>, v: Value<'_>) -> Result<(), ContentError> {
    let o = match v {
        Value::Object(o) => o,
        _ => return Err("a content block must be an object"),
    };
    let kind = string(&o, "type").ok_or("a content block needs a type")?;
    out.extend_from_slice(b"{\"type\":");
    write::string(out, &kind.as_str());
    match &*kind.as_str() {
        "text" => required(out, &o, "text", "text content needs a string text")?,
        "image" | "audio" => {
            base64_member(
                out,
                &o,
                "data",
                "image and audio content need padded base64 data",
            )?;
            required(
                out,
                &o,
                "mimeType",
                "image and audio content need a string mimeType",
            )?;
        }
        "resource" => {
            out.extend_from_slice(b",\"resource\":");
            resource_contents(
                out,
                o.get("resource")
                    .ok_or("resource content needs a resource")?,
            )?;
        }
        "resource_link" => {
            required(out, &o, "uri", "a resource link needs a string uri")?;
            required(out, &o, "name", "a resource link needs a string name")?;
            optional(out, &o, "title")?;
            optional(out, &o, "description")?;
            optional(out, &o, "mimeType")?;
        }
        _ => return Err("type must be text, image, audio, resource or resource_link"),
    }
    out.push(b'}');
    Ok(())
}

/// A non-empty array of content blocks, written canonically.
pub fn blocks(out: &mut Vec<u8>, v: Value<'_>, max: usize) -> Result<(), ContentError> {
    let a = match v {
        Value::Array(a) if !a.is_empty() => a,
        _ => return Err("content must be a non-empty array"),
    };
    if a.len() > max {
        return Err("content holds too many blocks");
    }
    out.push(b'[');
    for (i, b) in a.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        block(out, b)?;
    }
    out.push(b']');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn written(text: &str) -> Result<String, ContentError> {
        let doc = json::parse(text.as_bytes(), 16).unwrap();
        let mut out = Vec::new();
        block(&mut out, doc.root())?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn canonical_blocks() {
        assert_eq!(
            written(r#"{"text":"hi","type":"text","extra":1}"#).unwrap(),
            r#"{"type":"text","text":"hi"}"#
        );
        assert_eq!(
            written(r#"{"type":"image","mimeType":"image/png","data":"iVBORw=="}"#).unwrap(),
            r#"{"type":"image","data":"iVBORw==","mimeType":"image/png"}"#
        );
        assert_eq!(
            written(r#"{"type":"resource","resource":{"uri":"test://x","text":"t","mimeType":"text/plain"}}"#)
                .unwrap(),
            r#"{"type":"resource","resource":{"uri":"test://x","mimeType":"text/plain","text":"t"}}"#
        );
        assert_eq!(
            written(r#"{"type":"resource_link","uri":"test://x","name":"x"}"#).unwrap(),
            r#"{"type":"resource_link","uri":"test://x","name":"x"}"#
        );
    }

    #[test]
    fn refusals() {
        for (text, why) in [
            (r#"{"type":"text"}"#, "text content needs a string text"),
            (
                r#"{"type":"image","data":"not base64!","mimeType":"x"}"#,
                "image and audio content need padded base64 data",
            ),
            (
                r#"{"type":"audio","data":"AAAA"}"#,
                "image and audio content need a string mimeType",
            ),
            (
                r#"{"type":"resource","resource":{"uri":"u","text":"t","blob":"AAAA"}}"#,
                "resource needs exactly one of text (a string) and blob",
            ),
            (
                r#"{"type":"video"}"#,
                "type must be text, image, audio, resource or resource_link",
            ),
            (r#"[]"#, "a content block must be an object"),
        ] {
            assert_eq!(written(text), Err(why), "{}", text);
        }
    }
}
