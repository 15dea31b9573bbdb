//! Reads the compiled manifest (engine config `tools`, format in `src/compiler/README.md`) into
//! owned structures and checks every construction rule itself, failing closed: the core is the
//! authority, the compiler's checks only report a bad router earlier. Whether the `tools/list` reply
//! fits the response budget is checked once, on the exact reply bytes (`discover.rs`).
use crate::codec::{self, Program, MAX_NODES};
use crate::content;
use crate::corpus::Corpus;
use crate::decl::{name_rule, secret_ref, valid_bearer, valid_name, SecretRef};
use crate::effect::HttpMethod;
use crate::header_params::{self, HeaderParam};
use crate::json::{self, Object, Value};
use crate::limits::Limits;
use crate::mrtr::Inputs;
use crate::url::{Url, Use};

pub const FORMAT_VERSION: i64 = 1;
pub const MAX_TOOLS: usize = 128;
const MAX_BYTES_CEILING: usize = 1 << 20;
const MAX_TOP_K: usize = 64;
/// The list text nests two JSON levels per schema level, plus the array, tool and schema members.
pub const LIST_DEPTH: u32 = 2 * codec::MAX_LEVELS + 8;
/// Nesting levels of a static result, counted as for a request body.
pub const STATIC_DEPTH: u32 = 32;
/// Bytes of a static result's JSON text.
pub const STATIC_BYTES: usize = 64 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusAction {
    Search,
    Read,
    List,
}

pub struct Backend {
    pub backend: String,
    pub method: HttpMethod,
    pub url: String,
    pub max_bytes: usize,
    pub timeout_ms: f64,
    /// The backend's own service credential (catalog-backed tools only), sent as a bearer token.
    pub bearer: Option<String>,
}

pub enum Handler {
    /// The canonical encoded result, or `None` for a tool without output.
    Static(Option<Vec<u8>>),
    Corpus {
        corpus: usize,
        action: CorpusAction,
        top_k: usize,
        max_bytes: usize,
    },
    Backend(Backend),
    /// A catalog-backed tool: one JSON-RPC request naming the operation to a fixed endpoint
    /// (`rpc_client.rs`). Its `timeout_ms` is the router deadline; its bearer may wait in a secret
    /// store until the host installs it (`Tools::set_bearer`).
    Rpc(Backend, Option<SecretRef>),
    JavaScript,
}

pub struct Op {
    pub name: String,
    pub input: Option<Program>,
    pub output: Option<Program>,
    /// The handler's output is an array of MCP content blocks (text, image, audio, resource,
    /// resource link), sent as the result's `content` with no `structuredContent`.
    pub content: bool,
    /// Input the client must provide (rounds of elicitation, sampling, roots) before the handler runs.
    pub inputs: Option<Inputs>,
    /// Input fields mirrored into `Mcp-Param-*` headers.
    pub header_params: Vec<HeaderParam>,
    pub handler: Handler,
}

pub struct Manifest {
    /// The secret every catalog-backed tool's bearer waits for, when they name one.
    pub bearer_secret: Option<SecretRef>,
    pub deadline_ms: f64,
    pub list_json: Vec<u8>,
    pub ops: Vec<Op>,
    pub corpora: Vec<Corpus>,
}

/// The static-result rule as messages state it (`STATIC_DEPTH`, `STATIC_BYTES`).
macro_rules! static_result_rule {
    () => {
        "plain JSON of at most 32 levels and 65536 bytes"
    };
}

/// The rule's text; `static_result` checks it, and the TypeScript side gets it generated
/// (`shared::json`).
pub const STATIC_RESULT_RULE: &str = static_result_rule!();
const STATIC_REFUSAL: &str = concat!("tools: static result must be ", static_result_rule!());

/// A static result's JSON text, bounded by `STATIC_RESULT_RULE`.
fn static_result(text: &str) -> Result<json::Document, &'static str> {
    if text.len() > STATIC_BYTES {
        return Err(STATIC_REFUSAL);
    }
    json::parse(text.as_bytes(), STATIC_DEPTH).map_err(|e| match e {
        json::JsonError::Depth => STATIC_REFUSAL,
        _ => "tools: static result is not JSON",
    })
}

fn known_keys(o: &Object<'_>, keys: &[&str], err: &'static str) -> Result<(), &'static str> {
    if o.iter().all(|(k, _)| keys.iter().any(|x| k.eq_str(x))) {
        Ok(())
    } else {
        Err(err)
    }
}

fn get_str(o: &Object<'_>, key: &str, err: &'static str) -> Result<String, &'static str> {
    match o.get(key) {
        Some(Value::String(s)) => Ok(s.as_str().into_owned()),
        _ => Err(err),
    }
}

fn get_int(
    o: &Object<'_>,
    key: &str,
    lo: i64,
    hi: i64,
    err: &'static str,
) -> Result<i64, &'static str> {
    match o
        .get(key)
        .and_then(|v| v.as_number())
        .and_then(|n| n.as_safe_integer())
    {
        Some(i) if i >= lo && i <= hi => Ok(i),
        _ => Err(err),
    }
}

fn program(v: Option<Value<'_>>) -> Result<Option<Program>, &'static str> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let p = Program::from_value(v)?;
            if p.has_scalar_record() {
                return Err(
                    "tools: scalarRecord has no JSON Schema projection; tools cannot use it",
                );
            }
            Ok(Some(p))
        }
    }
}

fn corpus_field(
    p: Option<&Program>,
    name: &str,
    kinds: &[&str],
    required: bool,
) -> Result<(), &'static str> {
    match p.and_then(|p| p.root_field(name)) {
        None if required => Err("tools: corpus operation lacks its required input field"),
        None => Ok(()),
        Some((kind, optional)) => {
            if kinds.contains(&kind) && !(required && optional) {
                Ok(())
            } else {
                Err("tools: corpus operation input field has the wrong codec")
            }
        }
    }
}

/// Where an outbound handler sends, and how much of the reply it reads: a backend name, its fixed
/// URL and the read cap. One rule for the backend and rpc kinds.
fn destination(o: &Object<'_>) -> Result<(String, String, usize), &'static str> {
    let backend = get_str(
        o,
        "backend",
        "tools: an outbound handler needs a backend name",
    )?;
    if !valid_name(&backend) {
        return Err("tools: backend name is invalid");
    }
    let url = get_str(o, "url", "tools: an outbound handler needs a url")?;
    if Url::parse(&url, Use::Backend).is_none() {
        return Err("tools: backend url must be https or loopback http without credentials, query or fragment");
    }
    let max_bytes = get_int(
        o,
        "maxBytes",
        1,
        MAX_BYTES_CEILING as i64,
        "tools: maxBytes must be 1 to 1048576",
    )? as usize;
    Ok((backend, url, max_bytes))
}

fn handler(
    v: Option<Value<'_>>,
    op: &Op,
    deadline_ms: i64,
    corpus_names: &[String],
    limits: &Limits,
) -> Result<Handler, &'static str> {
    let o = v
        .and_then(|v| v.as_object())
        .ok_or("tools: handler must be an object")?;
    let kind = get_str(&o, "kind", "tools: handler needs a kind")?;
    match kind.as_str() {
        "static" => {
            known_keys(
                &o,
                &["kind", "result"],
                "tools: static handler has unknown members",
            )?;
            match (&op.output, o.get("result")) {
                (None, Some(Value::String(text))) if op.content => {
                    let doc = static_result(&text.as_str())?;
                    let mut blocks = Vec::new();
                    content::blocks(&mut blocks, doc.root(), content::MAX_BLOCKS).map_err(|_| "tools: static content is not an array of valid content blocks")?;
                    Ok(Handler::Static(Some(blocks)))
                }
                (None, None) if !op.content => Ok(Handler::Static(None)),
                (Some(p), Some(Value::String(text))) => {
                    let doc = static_result(&text.as_str())?;
                    let encoded = codec::encode_output(p, doc.root()).map_err(|_| "tools: static result does not match the output codec")?;
                    Ok(Handler::Static(Some(encoded)))
                }
                _ => Err("tools: static handler result must be JSON text exactly when the tool has output"),
            }
        }
        "corpus" => {
            known_keys(
                &o,
                &["kind", "corpus", "action", "topK", "maxBytes"],
                "tools: corpus handler has unknown members",
            )?;
            let name = get_str(&o, "corpus", "tools: corpus handler needs a corpus")?;
            let corpus = corpus_names
                .iter()
                .position(|c| *c == name)
                .ok_or("tools: corpus handler names an unknown corpus")?;
            let action =
                match get_str(&o, "action", "tools: corpus handler needs an action")?.as_str() {
                    "search" => CorpusAction::Search,
                    "read" => CorpusAction::Read,
                    "list" => CorpusAction::List,
                    _ => return Err("tools: corpus action must be search, read or list"),
                };
            let input = op.input.as_ref();
            match action {
                CorpusAction::Search => {
                    corpus_field(input, "query", &["string"], true)?;
                    corpus_field(input, "limit", &["integer"], false)?;
                }
                CorpusAction::Read => corpus_field(input, "id", &["string", "enum"], true)?,
                CorpusAction::List => {
                    corpus_field(input, "collection", &["string", "enum"], false)?;
                    corpus_field(input, "limit", &["integer"], false)?;
                }
            }
            let top_k = get_int(
                &o,
                "topK",
                1,
                MAX_TOP_K as i64,
                "tools: corpus topK must be 1 to 64",
            )? as usize;
            let max_bytes = get_int(
                &o,
                "maxBytes",
                1,
                MAX_BYTES_CEILING as i64,
                "tools: corpus maxBytes must be 1 to 1048576",
            )? as usize;
            Ok(Handler::Corpus {
                corpus,
                action,
                top_k,
                max_bytes: max_bytes.min(limits.tool_result_bytes),
            })
        }
        "backend" => {
            known_keys(
                &o,
                &["kind", "backend", "method", "url", "maxBytes", "timeoutMs"],
                "tools: backend handler has unknown members",
            )?;
            let (backend, url, max_bytes) = destination(&o)?;
            let method = HttpMethod::parse(&get_str(
                &o,
                "method",
                "tools: backend handler needs a method",
            )?)
            .ok_or("tools: backend method is not allowed")?;
            if method == HttpMethod::Get && op.input.is_some() {
                return Err("tools: a GET backend operation must take no input");
            }
            let timeout_ms = get_int(
                &o,
                "timeoutMs",
                1,
                deadline_ms,
                "tools: backend timeoutMs must be 1 to the router deadline",
            )? as f64;
            Ok(Handler::Backend(Backend {
                backend,
                method,
                url,
                max_bytes: max_bytes.min(limits.tool_result_bytes),
                timeout_ms,
                bearer: None,
            }))
        }
        "rpc" => {
            known_keys(
                &o,
                &["kind", "backend", "url", "maxBytes", "bearer"],
                "tools: rpc handler has unknown members",
            )?;
            // The reply carries the result in an envelope: it is bounded by the response budget,
            // and the result itself by the tool-result budget when the engine frames it.
            let (backend, url, max_bytes) = destination(&o)?;
            // A secret-store reference leaves the token to be installed by the host, per request.
            let (bearer, secret) = match o.get("bearer") {
                None | Some(Value::Null) => (None, None),
                Some(Value::String(s)) if valid_bearer(&s.as_str()) => {
                    (Some(s.as_str().into_owned()), None)
                }
                Some(Value::Object(r)) => (
                    None,
                    Some(
                        secret_ref(r, "tools")
                            .map_err(|_| concat!("tools: rpc bearer secret reference is {\"secretStore\", \"key\"}, each ", name_rule!()))?,
                    ),
                ),
                Some(_) => return Err("tools: rpc bearer must be a bearer token (RFC 6750 b64token, at most 4096 characters)"),
            };
            Ok(Handler::Rpc(
                Backend {
                    backend,
                    method: HttpMethod::Post,
                    url,
                    max_bytes: max_bytes.min(limits.response_bytes),
                    timeout_ms: deadline_ms as f64,
                    bearer,
                },
                secret,
            ))
        }
        "javascript" => {
            known_keys(
                &o,
                &["kind"],
                "tools: javascript handler has unknown members",
            )?;
            Ok(Handler::JavaScript)
        }
        _ => Err("tools: unknown handler kind"),
    }
}

/// The prebuilt list must be a JSON array naming exactly the manifest's tools, in order.
fn check_list(text: &str, ops: &[Op]) -> Result<(), &'static str> {
    let doc = json::parse(text.as_bytes(), LIST_DEPTH).map_err(|_| "tools: list is not JSON")?;
    let arr = doc
        .root()
        .as_array()
        .ok_or("tools: list must be an array")?;
    if arr.len() != ops.len() {
        return Err("tools: list does not match the tools");
    }
    for (t, op) in arr.iter().zip(ops) {
        match t.as_object().and_then(|o| o.get("name")) {
            Some(Value::String(s)) if s.eq_str(&op.name) => {}
            _ => return Err("tools: list does not match the tools"),
        }
    }
    Ok(())
}

/// One tool of the manifest; errors carry the tool's name once it is known to be valid.
fn tool(
    t: Value<'_>,
    earlier: &[Op],
    deadline_ms: i64,
    corpus_names: &[String],
    limits: &Limits,
) -> Result<Op, (Option<String>, &'static str)> {
    let o = t
        .as_object()
        .ok_or((None, "tools: tool must be an object"))?;
    let name = get_str(&o, "name", "tools: tool needs a name").map_err(|e| (None, e))?;
    if !valid_name(&name) {
        return Err((None, concat!("tools: tool names must be ", name_rule!())));
    }
    let named = |e: &'static str| (Some(name.clone()), e);
    known_keys(
        &o,
        &[
            "name", "input", "output", "content", "inputs", "headers", "handler",
        ],
        "tools: tool has unknown members",
    )
    .map_err(named)?;
    if earlier.iter().any(|op| op.name == name) {
        return Err(named("tools: duplicate tool name"));
    }
    let input = program(o.get("input")).map_err(named)?;
    let output = program(o.get("output")).map_err(named)?;
    if matches!(&input, Some(p) if !p.root_is_object()) {
        return Err(named("tools: input codec must be an object"));
    }
    let nodes = input
        .as_ref()
        .map_or(1, |p| p.projection_nodes())
        .saturating_add(output.as_ref().map_or(0, |p| p.projection_nodes()));
    if nodes > MAX_NODES {
        return Err(named("tools: schema projection exceeds 4096 nodes"));
    }
    let content = match o.get("content") {
        None | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(_) => return Err(named("tools: content must be a boolean")),
    };
    if content && output.is_some() {
        return Err(named("tools: a content tool has no output codec"));
    }
    let inputs = match o.get("inputs") {
        None | Some(Value::Null) => None,
        Some(v) => Some(Inputs::parse(v).map_err(named)?),
    };
    let header_params = match o.get("headers") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => header_params::parse(v, input.as_ref()).map_err(named)?,
    };
    let mut op = Op {
        name: name.clone(),
        input,
        output,
        content,
        inputs,
        header_params,
        handler: Handler::JavaScript,
    };
    op.handler =
        handler(o.get("handler"), &op, deadline_ms, corpus_names, limits).map_err(named)?;
    let runs_in_core_or_js = matches!(op.handler, Handler::Static(_) | Handler::JavaScript);
    if op.inputs.is_some() && !runs_in_core_or_js {
        return Err(named(
            "tools: only static and javascript tools may declare inputs",
        ));
    }
    if op.content && matches!(op.handler, Handler::Corpus { .. }) {
        return Err(named("tools: a corpus tool cannot be a content tool"));
    }
    if op.content && matches!(op.handler, Handler::Rpc(..)) {
        return Err(named(
            "tools: a catalog-backed tool cannot be a content tool",
        ));
    }
    Ok(op)
}

pub fn parse(v: Value<'_>, limits: &Limits) -> Result<Manifest, String> {
    let root = v.as_object().ok_or("tools: manifest must be an object")?;
    known_keys(
        &root,
        &[
            "formatVersion",
            "routerId",
            "catalogHash",
            "deadlineMs",
            "list",
            "tools",
            "corpora",
        ],
        "tools: manifest has unknown members",
    )?;
    get_int(
        &root,
        "formatVersion",
        FORMAT_VERSION,
        FORMAT_VERSION,
        "tools: unsupported manifest formatVersion",
    )?;
    if !valid_name(&get_str(
        &root,
        "routerId",
        "tools: manifest needs a routerId",
    )?) {
        return Err("tools: routerId is invalid".into());
    }
    get_str(&root, "catalogHash", "tools: manifest needs a catalogHash")?;
    let deadline_ms = get_int(
        &root,
        "deadlineMs",
        1,
        i32::MAX as i64,
        "tools: deadlineMs must be a positive integer",
    )?;

    let mut corpus_names = Vec::new();
    let mut corpora = Vec::new();
    match root.get("corpora") {
        Some(Value::Object(c)) => {
            for (k, v) in c.iter() {
                corpus_names.push(k.as_str().into_owned());
                corpora.push(Corpus::from_value(v)?);
            }
        }
        _ => return Err("tools: manifest needs corpora".into()),
    }

    let tv = root
        .get("tools")
        .and_then(|v| v.as_array())
        .ok_or("tools: manifest needs tools")?;
    if tv.len() > MAX_TOOLS {
        return Err("tools: at most 128 tools".into());
    }
    let mut ops: Vec<Op> = Vec::with_capacity(tv.len());
    for (i, t) in tv.iter().enumerate() {
        let op = tool(t, &ops, deadline_ms, &corpus_names, limits).map_err(|(name, e)| {
            // A valid name is plain ASCII of the name alphabet, safe to show beside the index.
            let detail = e.strip_prefix("tools: ").unwrap_or(e);
            match name {
                Some(n) => format!("tools[{}] ({}): {}", i, n, detail),
                None => format!("tools[{}]: {}", i, detail),
            }
        })?;
        ops.push(op);
    }

    let list = match root.get("list") {
        Some(Value::String(s)) => s.as_str().into_owned(),
        _ => return Err("tools: manifest needs the prebuilt list text".into()),
    };
    check_list(&list, &ops)?;
    // One endpoint, one credential: every catalog-backed tool names the same secret, or none does.
    let mut secrets = ops.iter().filter_map(|op| match &op.handler {
        Handler::Rpc(b, s) => Some((b.bearer.is_some(), s.clone())),
        _ => None,
    });
    let bearer_secret = match secrets.next() {
        None => None,
        Some((_, first)) => {
            if secrets.any(|(_, s)| s != first) {
                return Err(
                    "tools: catalog-backed tools must all name the same bearer secret".into(),
                );
            }
            first
        }
    };
    Ok(Manifest {
        bearer_secret,
        deadline_ms: deadline_ms as f64,
        list_json: list.into_bytes(),
        ops,
        corpora,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_err(tools: &str, list: &str) -> String {
        let text = format!(
            r#"{{"formatVersion":1,"routerId":"r","catalogHash":"sha256:x","deadlineMs":5000,"list":{},"tools":{},"corpora":{{}}}}"#,
            list, tools
        );
        let doc = json::parse(text.as_bytes(), 32).unwrap();
        match parse(doc.root(), &Limits::DEFAULT) {
            Ok(_) => "ok".to_string(),
            Err(e) => e,
        }
    }

    /// The rule broken, without the `tools[i] (name)` location (asserted on its own below).
    fn err(tools: &str, list: &str) -> String {
        let e = full_err(tools, list);
        match (e.strip_prefix("tools["), e.find(": ")) {
            (Some(_), Some(at)) => format!("tools: {}", &e[at + 2..]),
            _ => e,
        }
    }

    #[test]
    fn tool_errors_name_the_index_and_a_valid_name() {
        let program = r#"[["string",0,null]]"#;
        let bad_input = format!(
            r#"[{{"name":"ok_tool","input":null,"output":null,"handler":{{"kind":"static"}}}},{{"name":"scalar_in","input":{},"output":null,"handler":{{"kind":"static"}}}}]"#,
            program
        );
        assert_eq!(
            full_err(&bad_input, &list_of(&["ok_tool", "scalar_in"])),
            "tools[1] (scalar_in): input codec must be an object"
        );
        assert_eq!(
            full_err(
                r#"[{"name":"bad name","input":null,"output":null,"handler":{"kind":"static"}}]"#,
                "\"[]\""
            ),
            concat!("tools[0]: tool names must be ", name_rule!()),
            "an invalid name is never shown"
        );
    }

    fn list_of(names: &[&str]) -> String {
        let inner: Vec<String> = names
            .iter()
            .map(|n| format!(r#"{{\"name\":\"{}\"}}"#, n))
            .collect();
        format!("\"[{}]\"", inner.join(","))
    }

    const JS: &str = r#"{"kind":"javascript"}"#;

    #[test]
    fn accepts_a_minimal_manifest() {
        assert_eq!(
            err(
                &format!(
                    r#"[{{"name":"a","input":null,"output":null,"handler":{}}}]"#,
                    JS
                ),
                &list_of(&["a"])
            ),
            "ok"
        );
    }

    #[test]
    fn rejects_bad_names_duplicates_and_counts() {
        let tool = |n: &str| {
            format!(
                r#"{{"name":"{}","input":null,"output":null,"handler":{}}}"#,
                n, JS
            )
        };
        assert_eq!(
            err(&format!("[{}]", tool("a b")), &list_of(&["a b"])),
            concat!("tools: tool names must be ", name_rule!())
        );
        assert_eq!(
            err(
                &format!("[{},{}]", tool("a"), tool("a")),
                &list_of(&["a", "a"])
            ),
            "tools: duplicate tool name"
        );
        let many: Vec<String> = (0..129).map(|i| tool(&format!("t{}", i))).collect();
        assert_eq!(
            err(&format!("[{}]", many.join(",")), "\"[]\""),
            "tools: at most 128 tools"
        );
        assert_eq!(
            err(&format!("[{}]", tool("a")), &list_of(&["b"])),
            "tools: list does not match the tools"
        );
    }

    #[test]
    fn static_results_are_at_most_32_levels_and_65536_bytes() {
        // A json output codec wider than the rule, so only the rule can refuse.
        let tool = |result: &str| {
            let mut handler = br#"{"kind":"static","result":"#.to_vec();
            json::write::string(&mut handler, result);
            format!(
                r#"[{{"name":"a","input":null,"output":[["json",131072,64]],"handler":{}}}]"#,
                String::from_utf8(handler).unwrap() + "}"
            )
        };
        let nested = |levels: usize| "[".repeat(levels) + &"]".repeat(levels);
        let text = |bytes: usize| format!("\"{}\"", "x".repeat(bytes - 2));
        let refusal = concat!("tools: static result must be ", static_result_rule!());
        let l = list_of(&["a"]);
        for (result, want) in [
            (nested(32), "ok"),
            (nested(33), refusal),
            (text(65536), "ok"),
            (text(65537), refusal),
        ] {
            assert_eq!(err(&tool(&result), &l), want, "{} bytes", result.len());
        }
        assert_eq!(
            STATIC_RESULT_RULE,
            format!(
                "plain JSON of at most {} levels and {} bytes",
                STATIC_DEPTH, STATIC_BYTES
            )
        );
    }

    #[test]
    fn rejects_scalar_records_non_object_inputs_and_bad_handlers() {
        let t = |input: &str, output: &str, handler: &str| {
            format!(
                r#"[{{"name":"a","input":{},"output":{},"handler":{}}}]"#,
                input, output, handler
            )
        };
        let l = list_of(&["a"]);
        assert_eq!(
            err(&t("null", r#"[["scalarRecord",1,1]]"#, JS), &l),
            "tools: scalarRecord has no JSON Schema projection; tools cannot use it"
        );
        assert_eq!(
            err(&t(r#"[["boolean"]]"#, "null", JS), &l),
            "tools: input codec must be an object"
        );
        assert_eq!(
            err(
                &t(
                    "null",
                    r#"[["boolean"]]"#,
                    r#"{"kind":"static","result":"1"}"#
                ),
                &l
            ),
            "tools: static result does not match the output codec"
        );
        assert_eq!(
            err(
                &t(
                    "null",
                    r#"[["boolean"]]"#,
                    r#"{"kind":"static","result":"true"}"#
                ),
                &l
            ),
            "ok"
        );
        let backend = |url: &str, method: &str| {
            format!(
                r#"{{"kind":"backend","backend":"api","method":"{}","url":"{}","maxBytes":100,"timeoutMs":100}}"#,
                method, url
            )
        };
        assert_eq!(
            err(
                &t("null", "null", &backend("https://api.example/x", "POST")),
                &l
            ),
            "ok"
        );
        assert_eq!(
            err(
                &t("null", "null", &backend("http://127.0.0.1:8080/x", "GET")),
                &l
            ),
            "ok"
        );
        for bad in [
            "http://api.example/x",
            "https://u@api.example/",
            "https://api.example/?q",
            "ftp://x/",
        ] {
            assert!(
                err(&t("null", "null", &backend(bad, "POST")), &l)
                    .starts_with("tools: backend url"),
                "{}",
                bad
            );
        }
        assert_eq!(
            err(
                &t(
                    r#"[["object",0,[]]]"#,
                    "null",
                    &backend("https://a.example/", "GET")
                ),
                &l
            ),
            "tools: a GET backend operation must take no input"
        );
        assert_eq!(
            err(
                &t(
                    "null",
                    "null",
                    r#"{"kind":"corpus","corpus":"none","action":"search","topK":5,"maxBytes":1000}"#
                ),
                &l
            ),
            "tools: corpus handler names an unknown corpus"
        );
        assert_eq!(
            err(&t("null", "null", r#"{"kind":"eval"}"#), &l),
            "tools: unknown handler kind"
        );
        // Catalog-backed tools: a fixed endpoint, a bounded reply and at most a bearer token.
        let rpc = |url: &str, extra: &str| {
            format!(
                r#"{{"kind":"rpc","backend":"endpoint","url":"{}","maxBytes":1000{}}}"#,
                url, extra
            )
        };
        for (handler, want) in [
            (rpc("https://rpc.example/", ""), "ok"),
            (rpc("http://127.0.0.1:4000/", r##","bearer":"t0k.en==""##), "ok"),
            (rpc("http://rpc.example/", ""), "tools: backend url must be https or loopback http without credentials, query or fragment"),
            (rpc("https://rpc.example/", r##","bearer":"a b""##), "tools: rpc bearer must be a bearer token (RFC 6750 b64token, at most 4096 characters)"),
            (rpc("https://rpc.example/", r#","bearer":7"#), "tools: rpc bearer must be a bearer token (RFC 6750 b64token, at most 4096 characters)"),
            (rpc("https://rpc.example/", r##","method":"GET""##), "tools: rpc handler has unknown members"),
            (r#"{"kind":"rpc","backend":"endpoint","url":"https://rpc.example/","maxBytes":0}"#.to_string(), "tools: maxBytes must be 1 to 1048576"),
        ] {
            assert_eq!(err(&t("null", "null", &handler), &l), want, "{}", handler);
        }
        assert_eq!(
            err(
                &t(
                    "null",
                    "null",
                    &rpc("https://rpc.example/", r##","bearer":{"secretStore":"s"}"##)
                ),
                &l
            ),
            concat!(
                "tools: rpc bearer secret reference is {\"secretStore\", \"key\"}, each ",
                name_rule!()
            )
        );
        let secret = |store: &str| {
            rpc(
                "https://rpc.example/",
                &format!(r#","bearer":{{"secretStore":"{}","key":"k"}}"#, store),
            )
        };
        assert_eq!(
            full_err(
                &format!(
                    r#"[{{"name":"a","input":null,"output":null,"handler":{}}},{{"name":"b","input":null,"output":null,"handler":{}}}]"#,
                    secret("one"),
                    secret("two")
                ),
                &list_of(&["a", "b"])
            ),
            "tools: catalog-backed tools must all name the same bearer secret"
        );
        assert_eq!(
            err(
                &format!(
                    r#"[{{"name":"a","input":null,"output":null,"content":true,"handler":{}}}]"#,
                    rpc("https://rpc.example/", "")
                ),
                &l
            ),
            "tools: a catalog-backed tool cannot be a content tool"
        );
    }

    #[test]
    fn names_are_1_to_128_characters_of_the_name_alphabet() {
        let tool = |n: &str| {
            format!(
                r#"[{{"name":"{}","input":null,"output":null,"handler":{}}}]"#,
                n, JS
            )
        };
        let longest = "A-z_0.9".to_string() + &"x".repeat(121);
        assert_eq!(longest.len(), 128);
        assert_eq!(err(&tool(&longest), &list_of(&[&longest])), "ok");
        let over = longest.clone() + "x";
        for bad in [
            over.as_str(),
            "",
            "a b",
            "slash/name",
            "\\u00fcnicode",
            "semi;colon",
        ] {
            assert_eq!(
                err(&tool(bad), &list_of(&[bad])),
                concat!("tools: tool names must be ", name_rule!()),
                "{}",
                bad
            );
        }
        assert!(valid_name(&longest) && !valid_name(&over) && !valid_name("\u{e9}"));
    }

    #[test]
    fn corpus_and_backend_max_bytes_are_1_to_1048576() {
        let corpus =
            r#"{"version":"1","entries":[],"lengths":"","terms":"","idf":"","postings":""}"#;
        let tool = |handler: &str| {
            format!(
                r#"{{"formatVersion":1,"routerId":"r","catalogHash":"h","deadlineMs":5000,"list":{},"tools":[{{"name":"a","input":null,"output":null,"handler":{}}}],"corpora":{{"docs":{}}}}}"#,
                list_of(&["a"]),
                handler,
                corpus
            )
        };
        let run = |handler: &str| {
            let text = tool(handler);
            let doc = json::parse(text.as_bytes(), 32).unwrap();
            parse(doc.root(), &Limits::DEFAULT).err()
        };
        let corpus_handler = |n: i64| {
            format!(
                r#"{{"kind":"corpus","corpus":"docs","action":"list","topK":5,"maxBytes":{}}}"#,
                n
            )
        };
        let backend_handler = |n: i64| {
            format!(
                r#"{{"kind":"backend","backend":"api","method":"POST","url":"https://api.example/x","maxBytes":{},"timeoutMs":100}}"#,
                n
            )
        };
        for n in [1, 255, 256, 1 << 20] {
            assert_eq!(run(&corpus_handler(n)), None, "{}", n);
            assert_eq!(run(&backend_handler(n)), None, "{}", n);
        }
        for n in [0, (1 << 20) + 1] {
            assert_eq!(
                run(&corpus_handler(n)),
                Some("tools[0] (a): corpus maxBytes must be 1 to 1048576".to_string())
            );
            assert_eq!(
                run(&backend_handler(n)),
                Some("tools[0] (a): maxBytes must be 1 to 1048576".to_string())
            );
        }
    }
}
