//! Declared prompts: `prompts/list` prebuilt at construction, `prompts/get` fills `{argument}`
//! placeholders of text messages with the request's argument values.
use crate::content;
use crate::decl::ConfigError;
use crate::entry::{self, Entry};
use crate::errors::{self, RpcError, INVALID_PARAMS};
use crate::json::{write, Object, Value};
use crate::mrtr::Inputs;
use crate::resources::substitute;

pub const MAX_PROMPTS: usize = 128;
pub const MAX_ARGUMENTS: usize = 32;
pub const MAX_MESSAGES: usize = 32;

const PROMPT_KEYS: [&str; 6] = [
    "name",
    "title",
    "description",
    "arguments",
    "messages",
    "inputs",
];
const ARGUMENT_KEYS: [&str; 5] = ["name", "title", "description", "required", "completions"];
const MESSAGE_KEYS: [&str; 2] = ["role", "content"];

struct Argument {
    name: String,
    required: bool,
    completions: Vec<String>,
}

enum Body {
    /// A text block, filled per request.
    Text(String),
    /// Any other block, canonical and fixed.
    Fixed(Vec<u8>),
}

struct Message {
    role: &'static str,
    body: Body,
}

pub struct Prompt {
    name: String,
    /// Input the client must provide before the messages are rendered.
    pub inputs: Option<Inputs>,
    description: Option<String>,
    arguments: Vec<Argument>,
    messages: Vec<Message>,
}

pub struct Prompts {
    list_json: Vec<u8>,
    /// Sorted by name.
    prompts: Vec<Prompt>,
}

fn parse_prompt(e: &Entry<'_>, list: &mut Vec<u8>) -> Result<Prompt, ConfigError> {
    let name = e.name()?;
    list.extend_from_slice(b"{\"name\":");
    write::string(list, &name);
    e.write_optional(list, &["title", "description"])?;
    let mut arguments = Vec::new();
    let args_at = format!("{}.arguments", e.at);
    if let Some(a) = entry::array(e.obj.get("arguments"), &args_at, MAX_ARGUMENTS)? {
        list.extend_from_slice(b",\"arguments\":[");
        for (i, v) in a.iter().enumerate() {
            let arg = Entry::at(&args_at, i, v, &ARGUMENT_KEYS)?;
            let arg_name = arg.name()?;
            if arguments.iter().any(|a: &Argument| a.name == arg_name) {
                return Err(arg.fail("name", "repeats an earlier argument"));
            }
            let required = match arg.obj.get("required") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => b,
                Some(_) => return Err(arg.fail("required", "must be a boolean")),
            };
            if i > 0 {
                list.push(b',');
            }
            list.extend_from_slice(b"{\"name\":");
            write::string(list, &arg_name);
            arg.write_optional(list, &["title", "description"])?;
            if required {
                list.extend_from_slice(b",\"required\":true");
            }
            list.push(b'}');
            arguments.push(Argument {
                name: arg_name,
                required,
                completions: arg.completions(arg.obj.get("completions"), "completions")?,
            });
        }
        list.push(b']');
    }
    list.push(b'}');

    let messages_at = format!("{}.messages", e.at);
    let declared = entry::array(e.obj.get("messages"), &messages_at, MAX_MESSAGES)?
        .filter(|a| !a.is_empty())
        .ok_or_else(|| {
            format!(
                "{}: must be a non-empty array of at most 32 messages",
                messages_at
            )
        })?;
    let mut messages = Vec::new();
    for (i, v) in declared.iter().enumerate() {
        let m = Entry::at(&messages_at, i, v, &MESSAGE_KEYS)?;
        let role = match &*m.string("role")? {
            "user" => "user",
            "assistant" => "assistant",
            _ => return Err(m.fail("role", "must be \"user\" or \"assistant\"")),
        };
        let block = m
            .obj
            .get("content")
            .ok_or_else(|| m.fail("content", "is required"))?;
        let mut fixed = Vec::new();
        content::block(&mut fixed, block).map_err(|why| m.fail("content", why))?;
        let body = match block {
            Value::Object(o) if matches!(o.get("type"), Some(Value::String(t)) if t.eq_str("text")) => {
                match o.get("text") {
                    Some(Value::String(t)) => Body::Text(t.as_str().into_owned()),
                    _ => unreachable!("checked by content::block"),
                }
            }
            _ => Body::Fixed(fixed),
        };
        messages.push(Message { role, body });
    }
    let inputs = match e.obj.get("inputs") {
        None | Some(Value::Null) => None,
        Some(v) => Some(Inputs::parse(v).map_err(|why| format!("{}.{}", e.at, why))?),
    };
    Ok(Prompt {
        name,
        inputs,
        description: e.optional_string("description")?,
        arguments,
        messages,
    })
}

impl Prompts {
    pub fn parse(v: Option<Value<'_>>) -> Result<Option<Prompts>, ConfigError> {
        let declared = match entry::array(v, "prompts", MAX_PROMPTS)? {
            None => return Ok(None),
            Some(a) => a,
        };
        let mut list_json = b"[".to_vec();
        let mut prompts: Vec<Prompt> = Vec::new();
        for (i, v) in declared.iter().enumerate() {
            let e = Entry::at("prompts", i, v, &PROMPT_KEYS)?;
            if i > 0 {
                list_json.push(b',');
            }
            let p = parse_prompt(&e, &mut list_json)?;
            if prompts.iter().any(|o| o.name == p.name) {
                return Err(e.fail("name", "repeats an earlier prompt"));
            }
            prompts.push(p);
        }
        list_json.push(b']');
        prompts.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Some(Prompts { list_json, prompts }))
    }

    /// JSON array text of the `Prompt` objects, in declaration order.
    pub fn list_json(&self) -> &[u8] {
        &self.list_json
    }

    pub fn find(&self, name: &str) -> Option<&Prompt> {
        self.prompts
            .binary_search_by(|p| p.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.prompts[i])
    }

    pub fn declares_inputs(&self) -> bool {
        self.prompts.iter().any(|p| p.inputs.is_some())
    }

    pub fn has_completions(&self) -> bool {
        self.prompts
            .iter()
            .any(|p| p.arguments.iter().any(|a| !a.completions.is_empty()))
    }
}

impl Prompt {
    /// The declared completion values of an argument; `None` for an undeclared argument.
    pub fn completions(&self, argument: &str) -> Option<&[String]> {
        self.arguments
            .iter()
            .find(|a| a.name == argument)
            .map(|a| a.completions.as_slice())
    }

    /// The `prompts/get` result members after `resultType`: `description` and `messages`.
    /// `arguments` is the request's object (absent = no arguments); every value must be a string.
    pub fn render(
        &self,
        arguments: Option<&Object<'_>>,
        out: &mut Vec<u8>,
    ) -> Result<(), RpcError> {
        let mut values: Vec<(&str, String)> = Vec::new();
        for a in &self.arguments {
            match arguments.and_then(|o| o.get(&a.name)) {
                Some(Value::String(s)) => values.push((&a.name, s.as_str().into_owned())),
                None | Some(Value::Null) if !a.required => values.push((&a.name, String::new())),
                None | Some(Value::Null) => {
                    return Err(RpcError::new(
                        400,
                        INVALID_PARAMS,
                        errors::PROMPT_ARGUMENT_MISSING,
                    ))
                }
                Some(_) => {
                    return Err(RpcError::new(400, INVALID_PARAMS, errors::PROMPT_ARGUMENTS))
                }
            }
        }
        if let Some(d) = &self.description {
            out.extend_from_slice(b",\"description\":");
            write::string(out, d);
        }
        out.extend_from_slice(b",\"messages\":[");
        for (i, m) in self.messages.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"role\":\"");
            out.extend_from_slice(m.role.as_bytes());
            out.extend_from_slice(b"\",\"content\":");
            match &m.body {
                Body::Fixed(block) => out.extend_from_slice(block),
                Body::Text(t) => {
                    let text = substitute(t, |name| {
                        values
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|(_, v)| v.as_str())
                    });
                    out.extend_from_slice(b"{\"type\":\"text\",\"text\":");
                    write::string(out, &text);
                    out.push(b'}');
                }
            }
            out.push(b'}');
        }
        out.push(b']');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn prompts(text: &str) -> Result<Option<Prompts>, ConfigError> {
        let doc = json::parse(text.as_bytes(), 16).unwrap();
        Prompts::parse(Some(doc.root()))
    }

    fn render(p: &Prompts, name: &str, args: &str) -> Result<String, RpcError> {
        let doc = json::parse(args.as_bytes(), 16).unwrap();
        let o = match doc.root() {
            Value::Object(o) => Some(o),
            _ => None,
        };
        let mut out = Vec::new();
        p.find(name).unwrap().render(o.as_ref(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    const DECLARED: &str = r#"[
        {"name":"simple","description":"A simple prompt","messages":[{"role":"user","content":{"type":"text","text":"Hello {x}"}}]},
        {"name":"args","arguments":[{"name":"arg1","required":true,"completions":["test","tested","other"]},{"name":"arg2"}],
         "messages":[{"role":"user","content":{"type":"text","text":"{arg1} and {arg2}"}},
                     {"role":"assistant","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}]}]"#;

    #[test]
    fn list_and_render() {
        let p = prompts(DECLARED).unwrap().unwrap();
        assert_eq!(
            String::from_utf8(p.list_json().to_vec()).unwrap(),
            r#"[{"name":"simple","description":"A simple prompt"},{"name":"args","arguments":[{"name":"arg1","required":true},{"name":"arg2"}]}]"#
        );
        assert_eq!(
            render(&p, "simple", "null").unwrap(),
            r#","description":"A simple prompt","messages":[{"role":"user","content":{"type":"text","text":"Hello {x}"}}]"#
        );
        assert_eq!(
            render(
                &p,
                "args",
                r#"{"arg1":"testValue1","arg2":"testValue2","extra":"x"}"#
            )
            .unwrap(),
            r#","messages":[{"role":"user","content":{"type":"text","text":"testValue1 and testValue2"}},{"role":"assistant","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}]"#
        );
        assert_eq!(
            render(&p, "args", r#"{"arg1":"a"}"#).unwrap(),
            r#","messages":[{"role":"user","content":{"type":"text","text":"a and "}},{"role":"assistant","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}]"#
        );
        assert_eq!(
            render(&p, "args", "{}").unwrap_err().message,
            errors::PROMPT_ARGUMENT_MISSING
        );
        assert_eq!(
            render(&p, "args", r#"{"arg1":1}"#).unwrap_err().message,
            errors::PROMPT_ARGUMENTS
        );
        assert_eq!(
            p.find("args").unwrap().completions("arg1").unwrap().len(),
            3
        );
        assert!(p.has_completions());
    }

    #[test]
    fn refusals_name_the_entry() {
        for (text, msg) in [
            (
                r#"[{"name":"a b","messages":[]}]"#,
                "prompts[0].name: must be 1 to 128 characters of A-Za-z0-9_.-",
            ),
            (
                r#"[{"name":"a","messages":[]}]"#,
                "prompts[0].messages: must be a non-empty array of at most 32 messages",
            ),
            (
                r#"[{"name":"a","messages":[{"role":"system","content":{"type":"text","text":""}}]}]"#,
                "prompts[0].messages[0].role: must be \"user\" or \"assistant\"",
            ),
            (
                r#"[{"name":"a","messages":[{"role":"user","content":{"type":"text"}}]}]"#,
                "prompts[0].messages[0].content: text content needs a string text",
            ),
            (
                r#"[{"name":"a","arguments":[{"name":"x"},{"name":"x"}],"messages":[{"role":"user","content":{"type":"text","text":""}}]}]"#,
                "prompts[0].arguments[1].name: repeats an earlier argument",
            ),
            (
                r#"[{"name":"a","arguments":[{"name":"x","required":"yes"}],"messages":[{"role":"user","content":{"type":"text","text":""}}]}]"#,
                "prompts[0].arguments[0].required: must be a boolean",
            ),
        ] {
            assert_eq!(prompts(text).err().as_deref(), Some(msg), "{}", text);
        }
    }
}
