//! Declared resources: static resources (text or blob) and URI templates with RFC 6570 level-1
//! `{var}` expressions whose text is filled from the matched URI. Everything is prebuilt at
//! construction; a read is a lookup and, for a template, one substitution.
use std::borrow::Cow;

use crate::decl::ConfigError;
use crate::entry::{self, Entry};
use crate::json::{write, Value};

pub const MAX_RESOURCES: usize = 256;
pub const MAX_TEMPLATES: usize = 64;
/// Variables in one template; each is matched without backtracking, so a read stays linear.
pub const MAX_VARIABLES: usize = 8;
const MAX_VARIABLE_NAME: usize = 64;

const RESOURCE_KEYS: [&str; 7] = [
    "uri",
    "name",
    "title",
    "description",
    "mimeType",
    "text",
    "blob",
];
const TEMPLATE_KEYS: [&str; 7] = [
    "uriTemplate",
    "name",
    "title",
    "description",
    "mimeType",
    "text",
    "completions",
];

#[derive(Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

pub struct Template {
    pub uri_template: String,
    parts: Vec<Part>,
    mime_type: Option<String>,
    text: String,
    /// Declared completion values per variable.
    completions: Vec<(String, Vec<String>)>,
}

pub struct Resources {
    list_json: Vec<u8>,
    templates_json: Vec<u8>,
    /// (uri, canonical `contents` array text), sorted by uri.
    statics: Vec<(String, Vec<u8>)>,
    templates: Vec<Template>,
}

/// Splits `{name}` expressions out of a template; operators (`{+x}`, `{?x}`, …) are level 2+.
fn parse_template(t: &str) -> Result<Vec<Part>, &'static str> {
    let mut parts = Vec::new();
    let mut rest = t;
    while !rest.is_empty() {
        match rest.find('{') {
            Some(0) => {
                let close = rest.find('}').ok_or("has an unclosed {")?;
                let name = &rest[1..close];
                let valid = !name.is_empty()
                    && name.len() <= MAX_VARIABLE_NAME
                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
                if !valid {
                    return Err(
                        "only simple {name} expressions (letters, digits, _) are supported",
                    );
                }
                if matches!(parts.last(), Some(Part::Variable(_))) {
                    return Err("has two expressions with no literal text between them");
                }
                if parts.iter().any(|p| p == &Part::Variable(name.to_string())) {
                    return Err("repeats a variable");
                }
                parts.push(Part::Variable(name.to_string()));
                rest = &rest[close + 1..];
            }
            found => {
                let end = found.unwrap_or(rest.len());
                if rest[..end].contains('}') {
                    return Err("has a } outside an expression");
                }
                parts.push(Part::Literal(rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
    }
    let variables = parts
        .iter()
        .filter(|p| matches!(p, Part::Variable(_)))
        .count();
    if variables == 0 {
        return Err("has no {name} expression (declare a static resource instead)");
    }
    if variables > MAX_VARIABLES {
        return Err("has more than 8 expressions");
    }
    Ok(parts)
}

/// A level-1 expansion value: unreserved characters and percent-escapes only.
fn value_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~%".contains(&b)
}

impl Template {
    /// The variable values when `uri` is an expansion of this template. Each variable takes the
    /// shortest non-empty value followed by the next literal (no backtracking).
    fn matches<'u>(&self, uri: &'u str) -> Option<Vec<(&str, &'u str)>> {
        let mut pos = 0;
        let mut values = Vec::new();
        for (i, part) in self.parts.iter().enumerate() {
            match part {
                Part::Literal(l) => {
                    if !uri[pos..].starts_with(l.as_str()) {
                        return None;
                    }
                    pos += l.len();
                }
                Part::Variable(name) => {
                    let rest = &uri[pos..];
                    let run = rest.bytes().take_while(|&b| value_byte(b)).count();
                    let len = match self.parts.get(i + 1) {
                        None => run,
                        Some(Part::Literal(next)) => {
                            (1..=run).find(|&n| rest[n..].starts_with(next.as_str()))?
                        }
                        Some(Part::Variable(_)) => unreachable!("refused at construction"),
                    };
                    if len == 0 {
                        return None;
                    }
                    values.push((name.as_str(), &rest[..len]));
                    pos += len;
                }
            }
        }
        if pos == uri.len() {
            Some(values)
        } else {
            None
        }
    }

    pub fn completions(&self, variable: &str) -> Option<&[String]> {
        if !self
            .parts
            .iter()
            .any(|p| matches!(p, Part::Variable(v) if v == variable))
        {
            return None;
        }
        Some(
            self.completions
                .iter()
                .find(|(v, _)| v == variable)
                .map_or(&[][..], |(_, values)| values.as_slice()),
        )
    }
}

/// Replaces each `{name}` whose name `lookup` knows; any other text, braces included, stays.
pub fn substitute<'v>(text: &str, lookup: impl Fn(&str) -> Option<&'v str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after
            .find('}')
            .and_then(|close| lookup(&after[..close]).map(|v| (close, v)))
        {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `contents` array of one read; `body` is `("text", …)` or `("blob", …)`.
fn contents(uri: &str, mime_type: Option<&str>, body: (&str, &str)) -> Vec<u8> {
    let mut out = b"[{\"uri\":".to_vec();
    write::string(&mut out, uri);
    if let Some(m) = mime_type {
        write::member(&mut out, "mimeType", m);
    }
    write::member(&mut out, body.0, body.1);
    out.extend_from_slice(b"}]");
    out
}

/// One entry of a list: `{"<key>":<id>,"name":…,` optional title, description, mimeType `}`.
fn list_entry(
    out: &mut Vec<u8>,
    key: &str,
    id: &str,
    name: &str,
    e: &Entry<'_>,
) -> Result<(), ConfigError> {
    if out.len() > 1 {
        out.push(b',');
    }
    out.push(b'{');
    write::string(out, key);
    out.push(b':');
    write::string(out, id);
    write::member(out, "name", name);
    e.write_optional(out, &["title", "description", "mimeType"])?;
    out.push(b'}');
    Ok(())
}

impl Resources {
    pub fn parse(
        resources: Option<Value<'_>>,
        templates: Option<Value<'_>>,
    ) -> Result<Option<Resources>, ConfigError> {
        let statics_in = entry::array(resources, "resources", MAX_RESOURCES)?;
        let templates_in = entry::array(templates, "resourceTemplates", MAX_TEMPLATES)?;
        if statics_in.is_none() && templates_in.is_none() {
            return Ok(None);
        }
        let mut list_json = b"[".to_vec();
        let mut statics: Vec<(String, Vec<u8>)> = Vec::new();
        for (i, v) in statics_in.iter().flat_map(|a| a.iter()).enumerate() {
            let e = Entry::at("resources", i, v, &RESOURCE_KEYS)?;
            let uri = e.uri("uri")?;
            let name = e.string("name")?;
            if statics.iter().any(|(u, _)| *u == uri) {
                return Err(e.fail("uri", "repeats an earlier resource"));
            }
            let mime_type = e.optional_string("mimeType")?;
            let body = match (e.optional_string("text")?, e.optional_string("blob")?) {
                (Some(t), None) => ("text", t),
                (None, Some(b)) if crate::base64::is_padded(b.as_bytes()) => ("blob", b),
                (None, Some(_)) => return Err(e.fail("blob", "must be padded base64")),
                _ => return Err(format!("{}: needs exactly one of text and blob", e.at)),
            };
            list_entry(&mut list_json, "uri", &uri, &name, &e)?;
            let c = contents(&uri, mime_type.as_deref(), (body.0, &body.1));
            statics.push((uri, c));
        }
        list_json.push(b']');
        statics.sort_by(|a, b| a.0.cmp(&b.0));

        let mut templates_json = b"[".to_vec();
        let mut templates: Vec<Template> = Vec::new();
        for (i, v) in templates_in.iter().flat_map(|a| a.iter()).enumerate() {
            let e = Entry::at("resourceTemplates", i, v, &TEMPLATE_KEYS)?;
            let uri_template = e.uri("uriTemplate")?;
            let parts = parse_template(&uri_template).map_err(|why| e.fail("uriTemplate", why))?;
            if templates.iter().any(|t| t.uri_template == uri_template) {
                return Err(e.fail("uriTemplate", "repeats an earlier template"));
            }
            let name = e.string("name")?;
            let text = e.string("text")?;
            let mut completions = Vec::new();
            match e.obj.get("completions") {
                None | Some(Value::Null) => {}
                Some(Value::Object(o)) => {
                    for (var, values) in o.iter() {
                        let var = var.as_str().into_owned();
                        if !parts.contains(&Part::Variable(var.clone())) {
                            return Err(e.fail(
                                "completions",
                                "names a variable the template does not have",
                            ));
                        }
                        completions.push((var, e.completions(Some(values), "completions")?));
                    }
                }
                Some(_) => {
                    return Err(e.fail(
                        "completions",
                        "must be an object of variable names to string arrays",
                    ))
                }
            }
            list_entry(&mut templates_json, "uriTemplate", &uri_template, &name, &e)?;
            templates.push(Template {
                uri_template,
                parts,
                mime_type: e.optional_string("mimeType")?,
                text,
                completions,
            });
        }
        templates_json.push(b']');
        Ok(Some(Resources {
            list_json,
            templates_json,
            statics,
            templates,
        }))
    }

    /// JSON array text of the `Resource` objects, in declaration order.
    pub fn list_json(&self) -> &[u8] {
        &self.list_json
    }

    /// JSON array text of the `ResourceTemplate` objects, in declaration order.
    pub fn templates_json(&self) -> &[u8] {
        &self.templates_json
    }

    /// Each static resource's `contents` array text, for the construction-time budget check.
    pub fn static_contents(&self) -> impl Iterator<Item = &[u8]> {
        self.statics.iter().map(|(_, c)| c.as_slice())
    }

    /// The `contents` array of a read: a static resource (prebuilt), else the first template
    /// that matches.
    pub fn read(&self, uri: &str) -> Option<Cow<'_, [u8]>> {
        if let Ok(i) = self.statics.binary_search_by(|(u, _)| u.as_str().cmp(uri)) {
            return Some(Cow::Borrowed(&self.statics[i].1));
        }
        self.templates.iter().find_map(|t| {
            let values = t.matches(uri)?;
            let text = substitute(&t.text, |name| {
                values.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
            });
            Some(Cow::Owned(contents(
                uri,
                t.mime_type.as_deref(),
                ("text", &text),
            )))
        })
    }

    pub fn template(&self, uri_template: &str) -> Option<&Template> {
        self.templates
            .iter()
            .find(|t| t.uri_template == uri_template)
    }

    pub fn has_completions(&self) -> bool {
        self.templates.iter().any(|t| !t.completions.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn parse(resources: &str, templates: &str) -> Result<Option<Resources>, ConfigError> {
        let r = json::parse(resources.as_bytes(), 16).unwrap();
        let t = json::parse(templates.as_bytes(), 16).unwrap();
        Resources::parse(Some(r.root()), Some(t.root()))
    }

    #[test]
    fn static_and_template_reads() {
        let r = parse(
            r#"[{"uri":"test://static-text","name":"t","mimeType":"text/plain","text":"hello"},
                {"uri":"test://static-binary","name":"b","mimeType":"image/png","blob":"iVBORw0KGgo="}]"#,
            r#"[{"uriTemplate":"test://template/{id}/data","name":"tpl","mimeType":"application/json","text":"{\"id\":\"{id}\"}","completions":{"id":["123","124","200"]}}]"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            String::from_utf8(r.read("test://static-text").unwrap().to_vec()).unwrap(),
            r#"[{"uri":"test://static-text","mimeType":"text/plain","text":"hello"}]"#
        );
        assert_eq!(
            String::from_utf8(r.read("test://static-binary").unwrap().to_vec()).unwrap(),
            r#"[{"uri":"test://static-binary","mimeType":"image/png","blob":"iVBORw0KGgo="}]"#
        );
        assert_eq!(
            String::from_utf8(r.read("test://template/123/data").unwrap().to_vec()).unwrap(),
            r#"[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\"}"}]"#
        );
        for miss in [
            "test://template//data",
            "test://template/1/2/data",
            "test://template/1/datax",
            "test://nope",
            "test://template/a b/data",
        ] {
            assert!(r.read(miss).is_none(), "{}", miss);
        }
        assert_eq!(
            String::from_utf8(r.list_json().to_vec()).unwrap(),
            r#"[{"uri":"test://static-text","name":"t","mimeType":"text/plain"},{"uri":"test://static-binary","name":"b","mimeType":"image/png"}]"#
        );
        let t = r.template("test://template/{id}/data").unwrap();
        assert_eq!(t.completions("id").unwrap().len(), 3);
        assert!(t.completions("other").is_none());
    }

    #[test]
    fn shortest_match_then_literal() {
        let r = parse(
            "[]",
            r#"[{"uriTemplate":"x://{a}-{b}","name":"n","text":"{a}|{b}|{c}"}]"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            String::from_utf8(r.read("x://1-2-3").unwrap().to_vec()).unwrap(),
            r#"[{"uri":"x://1-2-3","text":"1|2-3|{c}"}]"#
        );
    }

    #[test]
    fn refusals_name_the_entry() {
        for (res, tpl, msg) in [
            (r#"[{"uri":"nope","name":"n","text":""}]"#, "[]", "resources[0].uri: must be an absolute URI of at most 2048 visible ASCII characters"),
            (r#"[{"uri":"a:b","name":"n"}]"#, "[]", "resources[0]: needs exactly one of text and blob"),
            (r#"[{"uri":"a:b","name":"n","blob":"!"}]"#, "[]", "resources[0].blob: must be padded base64"),
            (r#"[{"uri":"a:b","name":"n","text":""},{"uri":"a:b","name":"m","text":""}]"#, "[]", "resources[1].uri: repeats an earlier resource"),
            (r#"[{"uri":"a:b","name":"n","text":"","x":1}]"#, "[]", "resources[0]: unknown key \"x\""),
            ("[]", r#"[{"uriTemplate":"a:{+b}","name":"n","text":""}]"#, "resourceTemplates[0].uriTemplate: only simple {name} expressions (letters, digits, _) are supported"),
            ("[]", r#"[{"uriTemplate":"a:{b}{c}","name":"n","text":""}]"#, "resourceTemplates[0].uriTemplate: has two expressions with no literal text between them"),
            ("[]", r#"[{"uriTemplate":"a:b","name":"n","text":""}]"#, "resourceTemplates[0].uriTemplate: has no {name} expression (declare a static resource instead)"),
            ("[]", r#"[{"uriTemplate":"a:{b}","name":"n","text":"","completions":{"c":[]}}]"#, "resourceTemplates[0].completions: names a variable the template does not have"),
        ] {
            assert_eq!(parse(res, tpl).err().as_deref(), Some(msg));
        }
    }
}
