//! The codec program interpreter: decodes tool input and encodes handler output into canonical JSON
//! bytes, so every target agrees on what is valid. Program format: `src/compiler/README.md`.
//!
//! Canonical JSON: compact, object members in declared order (extras of open objects after them, in
//! source order), strings re-escaped minimally, numbers as JavaScript's `JSON.stringify` prints them.
use std::fmt::Write as _;

use crate::field_rules::{Broken, FieldRules, NO_ALTERNATIVE};
use crate::json::{write, Object, Str, Value};

/// Projection bounds shared with the compiler (MAX_PROJECTION_NODES / MAX_PROJECTION_LEVELS).
pub const MAX_NODES: usize = 4096;
pub const MAX_LEVELS: u32 = 24;
const MAX_JSON_DEPTH: u32 = 64;
const MAX_ENUM_VALUES: usize = 1024;
const MAX_FIELDS: usize = 1024;

/// A validation failure: a path of declared names and indexes plus a fixed message, never the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodecError {
    pub path: String,
    pub message: &'static str,
}

pub const EXPECTED_STRING: &str = "Expected a string";
pub const EXPECTED_BOOLEAN: &str = "Expected a boolean";
pub const EXPECTED_INTEGER: &str = "Expected an integer";
pub const EXPECTED_NUMBER: &str = "Expected a number";
pub const EXPECTED_OBJECT: &str = "Expected an object";
pub const EXPECTED_ARRAY: &str = "Expected an array";
pub const EXPECTED_EMPTY_OBJECT: &str = "Expected an empty object";
pub const EXPECTED_SCALAR: &str = "Expected a string, number or boolean";
pub const INTEGER_RANGE: &str = "Integer out of range";
pub const NUMBER_RANGE: &str = "Number out of range";
pub const STRING_SHORT: &str = "String too short";
pub const STRING_LONG: &str = "String too long";
pub const NOT_IN_ENUM: &str = "Value is not one of the allowed values";
pub const TOO_MANY_ITEMS: &str = "Too many items";
pub const REQUIRED: &str = "Required field missing";
pub const JSON_TOO_LARGE: &str = "JSON value too large";
pub const JSON_TOO_DEEP: &str = "JSON value nested too deeply";
pub const TOO_MANY_KEYS: &str = "Too many keys";
pub const UNKNOWN_FIELD: &str = "Unknown field";

#[derive(Debug)]
pub(crate) struct Field {
    name: String,
    /// `"name":` pre-escaped, written as is.
    key: Vec<u8>,
    /// `.name` or `["na me"]`, for error paths.
    segment: String,
    node: usize,
    optional: bool,
}

#[derive(Debug)]
pub(crate) enum Node {
    Str {
        min: u64,
        max: Option<u64>,
    },
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    Num {
        min: Option<f64>,
        max: Option<f64>,
    },
    Enum(Vec<String>),
    Array {
        item: usize,
        max_items: u64,
    },
    /// `fields` in declared order; `sorted` indexes them by name for one-pass member lookup.
    Object {
        extra: Extra,
        fields: Vec<Field>,
        sorted: Vec<usize>,
        rules: FieldRules,
    },
    Nullable(usize),
    Json {
        max_bytes: usize,
        max_depth: u32,
    },
    ScalarRecord {
        max_keys: usize,
        max_bytes: usize,
    },
}

/// What an object does with members it does not declare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extra {
    /// Closed: admitted and dropped.
    Drop,
    /// Open: kept after the declared members, in source order.
    Keep,
    /// Strict (`additionalProperties: false`): refused.
    Reject,
}

/// One compiled codec: nodes in post-order, the root last.
#[derive(Debug)]
pub struct Program {
    nodes: Vec<Node>,
    /// Subschema nodes of the JSON Schema projection (saturating).
    projection_nodes: usize,
    /// Nesting levels of the projection; the root is level 1.
    projection_levels: u32,
}

fn uint(v: Option<Value<'_>>, max: u64) -> Result<u64, &'static str> {
    match v {
        Some(Value::Number(n)) => match n.as_safe_integer() {
            Some(i) if i >= 0 && (i as u64) <= max => Ok(i as u64),
            _ => Err("tools: codec program bound out of range"),
        },
        _ => Err("tools: codec program bound must be an integer"),
    }
}

fn opt_f64(v: Option<Value<'_>>) -> Result<Option<f64>, &'static str> {
    match v {
        Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.as_f64().is_finite() => Ok(Some(n.as_f64())),
        _ => Err("tools: codec program number bound is invalid"),
    }
}

fn int_bound(v: Option<Value<'_>>) -> Result<i64, &'static str> {
    v.and_then(|v| v.as_number())
        .and_then(|n| n.as_safe_integer())
        .ok_or("tools: codec program integer bound is invalid")
}

fn child(v: Option<Value<'_>>, own: usize) -> Result<usize, &'static str> {
    let c = uint(v, u64::MAX).map_err(|_| "tools: codec program reference is invalid")? as usize;
    // Children precede parents: no cycles, and a bottom-up pass sees every child first.
    if c >= own {
        return Err("tools: codec program reference must point backwards");
    }
    Ok(c)
}

fn path_segment(name: &str) -> String {
    let mut chars = name.chars();
    let ident = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        format!(".{}", name)
    } else {
        let mut out = b"[".to_vec();
        write::string(&mut out, name);
        out.push(b']');
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl Program {
    /// Reads and validates a program (array of nodes). Bounds: 4096 nodes, 24 levels.
    pub fn from_value(v: Value<'_>) -> Result<Program, &'static str> {
        let arr = v
            .as_array()
            .ok_or("tools: codec program must be an array")?;
        if arr.is_empty() || arr.len() > MAX_NODES {
            return Err("tools: codec program must have 1 to 4096 nodes");
        }
        let mut nodes = Vec::with_capacity(arr.len());
        // Per node: projection subschema count and nesting levels, computed bottom-up.
        let mut counts: Vec<usize> = Vec::with_capacity(arr.len());
        let mut levels: Vec<u32> = Vec::with_capacity(arr.len());
        for (i, nv) in arr.iter().enumerate() {
            let n = nv
                .as_array()
                .ok_or("tools: codec program node must be an array")?;
            let op = match n.get(0) {
                Some(Value::String(s)) => s,
                _ => return Err("tools: codec program node needs an opcode"),
            };
            let op = op.as_str();
            // Members per opcode; an object may carry its presence rules as a fourth.
            let arity = match &*op {
                "boolean" => 1..=1,
                "enum" | "nullable" => 2..=2,
                "object" => 3..=4,
                _ => 3..=3,
            };
            if !arity.contains(&n.len()) {
                return Err("tools: codec program node has the wrong number of members");
            }
            let (node, count, level) = match &*op {
                "string" => {
                    let min = uint(n.get(1), u32::MAX as u64)?;
                    let max = match n.get(2) {
                        Some(Value::Null) => None,
                        other => Some(uint(other, u32::MAX as u64)?),
                    };
                    if matches!(max, Some(m) if m < min) {
                        return Err("tools: codec program string bounds are inverted");
                    }
                    (Node::Str { min, max }, 1, 1)
                }
                "boolean" => (Node::Bool, 1, 1),
                "i32" | "u32" => {
                    let (lo, hi) = if &*op == "i32" {
                        (i32::MIN as i64, i32::MAX as i64)
                    } else {
                        (0, u32::MAX as i64)
                    };
                    let min = int_bound(n.get(1))?;
                    let max = int_bound(n.get(2))?;
                    if min < lo || max > hi || min > max {
                        return Err("tools: codec program integer bounds are invalid");
                    }
                    (Node::Int { min, max }, 1, 1)
                }
                "number" => {
                    let min = opt_f64(n.get(1))?;
                    let max = opt_f64(n.get(2))?;
                    if let (Some(a), Some(b)) = (min, max) {
                        if a > b {
                            return Err("tools: codec program number bounds are inverted");
                        }
                    }
                    (Node::Num { min, max }, 1, 1)
                }
                "enum" => {
                    let vals = n
                        .get(1)
                        .and_then(|v| v.as_array())
                        .ok_or("tools: codec program enum needs values")?;
                    if vals.is_empty() || vals.len() > MAX_ENUM_VALUES {
                        return Err("tools: codec program enum needs 1 to 1024 values");
                    }
                    let mut out = Vec::with_capacity(vals.len());
                    for v in vals.iter() {
                        out.push(
                            v.as_string()
                                .ok_or("tools: codec program enum values must be strings")?
                                .as_str()
                                .into_owned(),
                        );
                    }
                    (Node::Enum(out), 1, 1)
                }
                "array" => {
                    let item = child(n.get(1), i)?;
                    let max_items = uint(n.get(2), u32::MAX as u64)?;
                    (
                        Node::Array { item, max_items },
                        counts[item].saturating_add(1),
                        levels[item] + 1,
                    )
                }
                "object" => {
                    let extra = match uint(n.get(1), 2)? {
                        0 => Extra::Drop,
                        1 => Extra::Keep,
                        _ => Extra::Reject,
                    };
                    let fs = n
                        .get(2)
                        .and_then(|v| v.as_array())
                        .ok_or("tools: codec program object needs fields")?;
                    if fs.len() > MAX_FIELDS {
                        return Err("tools: codec program object has too many fields");
                    }
                    let mut fields = Vec::with_capacity(fs.len());
                    let (mut count, mut level) = (1usize, 1u32);
                    for f in fs.iter() {
                        let f = f
                            .as_array()
                            .filter(|f| f.len() == 3)
                            .ok_or("tools: codec program field must be [name, node, optional]")?;
                        let name = f
                            .get(0)
                            .and_then(|v| v.as_string())
                            .ok_or("tools: codec program field name must be a string")?;
                        let name = name.as_str().into_owned();
                        let node = child(f.get(1), i)?;
                        let optional = uint(f.get(2), 1)? == 1;
                        count = count.saturating_add(counts[node]);
                        level = level.max(levels[node] + 1);
                        let mut key = Vec::with_capacity(name.len() + 3);
                        write::string(&mut key, &name);
                        key.push(b':');
                        fields.push(Field {
                            segment: path_segment(&name),
                            key,
                            name,
                            node,
                            optional,
                        });
                    }
                    let mut sorted: Vec<usize> = (0..fields.len()).collect();
                    sorted.sort_by(|&a, &b| fields[a].name.cmp(&fields[b].name));
                    if sorted
                        .windows(2)
                        .any(|w| fields[w[0]].name == fields[w[1]].name)
                    {
                        return Err("tools: codec program object repeats a field name");
                    }
                    let rules = match n.get(3) {
                        Some(r) => {
                            let (rules, c, l) = FieldRules::from_value(r, fields.len())?;
                            count = count.saturating_add(c);
                            level = level.max(l);
                            rules
                        }
                        None => FieldRules::default(),
                    };
                    (
                        Node::Object {
                            extra,
                            fields,
                            sorted,
                            rules,
                        },
                        count,
                        level,
                    )
                }
                "nullable" => {
                    let inner = child(n.get(1), i)?;
                    // anyOf wrapper plus the {"type":"null"} branch.
                    (
                        Node::Nullable(inner),
                        counts[inner].saturating_add(2),
                        levels[inner] + 1,
                    )
                }
                "json" => {
                    let max_bytes = uint(n.get(1), u32::MAX as u64)? as usize;
                    let max_depth = uint(n.get(2), MAX_JSON_DEPTH as u64)? as u32;
                    (
                        Node::Json {
                            max_bytes,
                            max_depth,
                        },
                        1,
                        1,
                    )
                }
                "scalarRecord" => {
                    let max_keys = uint(n.get(1), u32::MAX as u64)? as usize;
                    let max_bytes = uint(n.get(2), u32::MAX as u64)? as usize;
                    (
                        Node::ScalarRecord {
                            max_keys,
                            max_bytes,
                        },
                        1,
                        1,
                    )
                }
                _ => return Err("tools: codec program has an unknown opcode"),
            };
            if level > MAX_LEVELS {
                return Err("tools: schema projection exceeds 24 levels");
            }
            nodes.push(node);
            counts.push(count);
            levels.push(level);
        }
        let root = nodes.len() - 1;
        Ok(Program {
            nodes,
            projection_nodes: counts[root],
            projection_levels: levels[root],
        })
    }

    pub fn projection_nodes(&self) -> usize {
        self.projection_nodes
    }

    pub fn projection_levels(&self) -> u32 {
        self.projection_levels
    }

    pub fn root_is_object(&self) -> bool {
        matches!(self.nodes.last(), Some(Node::Object { .. }))
    }

    pub fn has_scalar_record(&self) -> bool {
        self.nodes
            .iter()
            .any(|n| matches!(n, Node::ScalarRecord { .. }))
    }

    /// The codec kind of a root object field (`"string"`, `"enum"`, `"integer"`, …), when declared.
    pub(crate) fn root_field(&self, name: &str) -> Option<(&'static str, bool)> {
        match self.nodes.last()? {
            Node::Object { fields, .. } => fields.iter().find(|f| f.name == name).map(|f| {
                let kind = match self.nodes[f.node] {
                    Node::Str { .. } => "string",
                    Node::Enum(_) => "enum",
                    Node::Int { .. } => "integer",
                    Node::Bool => "boolean",
                    _ => "other",
                };
                (kind, f.optional)
            }),
            _ => None,
        }
    }

    fn run(&self, idx: usize, v: Value<'_>, out: &mut Vec<u8>) -> Result<(), Fail> {
        match &self.nodes[idx] {
            Node::Str { min, max } => {
                let s = v.as_string().ok_or(Fail::new(EXPECTED_STRING))?;
                let len = scalar_count(s);
                if len < *min {
                    return Err(Fail::new(STRING_SHORT));
                }
                if matches!(max, Some(m) if len > *m) {
                    return Err(Fail::new(STRING_LONG));
                }
                write::value(out, v);
            }
            Node::Bool => {
                let b = v.as_bool().ok_or(Fail::new(EXPECTED_BOOLEAN))?;
                out.extend_from_slice(if b { b"true" } else { b"false" });
            }
            Node::Int { min, max } => {
                let n = v.as_number().ok_or(Fail::new(EXPECTED_INTEGER))?;
                let i = n.as_safe_integer().ok_or(Fail::new(EXPECTED_INTEGER))?;
                if i < *min || i > *max {
                    return Err(Fail::new(INTEGER_RANGE));
                }
                let _ = write!(Bytes(out), "{}", i);
            }
            Node::Num { min, max } => {
                let f = v
                    .as_number()
                    .map(|n| n.as_f64())
                    .filter(|f| f.is_finite())
                    .ok_or(Fail::new(EXPECTED_NUMBER))?;
                if matches!(min, Some(m) if f < *m) || matches!(max, Some(m) if f > *m) {
                    return Err(Fail::new(NUMBER_RANGE));
                }
                number(out, f);
            }
            Node::Enum(values) => {
                let s = v.as_string().ok_or(Fail::new(EXPECTED_STRING))?;
                if !values.iter().any(|x| s.eq_str(x)) {
                    return Err(Fail::new(NOT_IN_ENUM));
                }
                write::value(out, v);
            }
            Node::Array { item, max_items } => {
                let a = v.as_array().ok_or(Fail::new(EXPECTED_ARRAY))?;
                if a.len() as u64 > *max_items {
                    return Err(Fail::new(TOO_MANY_ITEMS));
                }
                out.push(b'[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.run(*item, x, out)
                        .map_err(|f| f.under(format!("[{}]", i)))?;
                }
                out.push(b']');
            }
            Node::Object {
                extra,
                fields,
                sorted,
                rules,
            } => {
                let o = v.as_object().ok_or(Fail::new(EXPECTED_OBJECT))?;
                self.object(o, *extra, fields, sorted, rules, out)?;
            }
            Node::Nullable(inner) => {
                if v.is_null() {
                    out.extend_from_slice(b"null");
                } else {
                    self.run(*inner, v, out)?;
                }
            }
            Node::Json {
                max_bytes,
                max_depth,
            } => {
                let start = out.len();
                let depth = canonical(out, v);
                if depth > *max_depth {
                    return Err(Fail::new(JSON_TOO_DEEP));
                }
                if out.len() - start > *max_bytes {
                    return Err(Fail::new(JSON_TOO_LARGE));
                }
            }
            Node::ScalarRecord {
                max_keys,
                max_bytes,
            } => {
                let o = v.as_object().ok_or(Fail::new(EXPECTED_OBJECT))?;
                if o.len() > *max_keys {
                    return Err(Fail::new(TOO_MANY_KEYS));
                }
                let start = out.len();
                out.push(b'{');
                for (i, (k, x)) in o.iter().enumerate() {
                    if !matches!(x, Value::String(_) | Value::Number(_) | Value::Bool(_)) {
                        // The record's own path: its keys are client data, never put in a path.
                        return Err(Fail::new(EXPECTED_SCALAR));
                    }
                    if i > 0 {
                        out.push(b',');
                    }
                    write::value(out, Value::String(k));
                    out.push(b':');
                    canonical(out, x);
                }
                out.push(b'}');
                if out.len() - start > *max_bytes {
                    return Err(Fail::new(JSON_TOO_LARGE));
                }
            }
        }
        Ok(())
    }

    fn object(
        &self,
        o: Object<'_>,
        extra: Extra,
        fields: &[Field],
        sorted: &[usize],
        rules: &FieldRules,
        out: &mut Vec<u8>,
    ) -> Result<(), Fail> {
        // One pass over the members: each is matched to its field by binary search (no quadratic
        // scan however many members a client sends); unmatched members are extras.
        let mut slots: Vec<Option<Value<'_>>> = vec![None; fields.len()];
        let mut extras: Vec<(Str<'_>, Value<'_>)> = Vec::new();
        for (k, x) in o.iter() {
            let name = k.as_str();
            match sorted.binary_search_by(|&f| fields[f].name.as_str().cmp(name.as_ref())) {
                Ok(pos) => slots[sorted[pos]] = Some(x),
                // The object's own path: an unknown member's name is client data.
                Err(_) if extra == Extra::Reject => return Err(Fail::new(UNKNOWN_FIELD)),
                Err(_) if extra == Extra::Keep => extras.push((k, x)),
                Err(_) => {}
            }
        }
        out.push(b'{');
        let mut first = true;
        for (f, slot) in fields.iter().zip(slots.iter().copied()) {
            match slot {
                Some(x) => {
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    out.extend_from_slice(&f.key);
                    self.run(f.node, x, out)
                        .map_err(|e| e.under(f.segment.clone()))?;
                }
                None if f.optional => {}
                None => return Err(Fail::new(REQUIRED).under(f.segment.clone())),
            }
        }
        // Presence rules after the fields, so a field's own failure is reported first.
        match rules.check(&slots) {
            Ok(()) => {}
            Err(Broken::NoAlternative) => return Err(Fail::new(NO_ALTERNATIVE)),
            Err(Broken::Missing(i)) => {
                return Err(Fail::new(REQUIRED).under(fields[i].segment.clone()))
            }
        }
        for (k, x) in extras {
            if !first {
                out.push(b',');
            }
            first = false;
            write::value(out, Value::String(k));
            out.push(b':');
            canonical(out, x);
        }
        out.push(b'}');
        Ok(())
    }

    fn top(&self, v: Value<'_>) -> Result<Vec<u8>, CodecError> {
        // Most values are small: one allocation instead of growing from 8 bytes.
        let mut out = Vec::with_capacity(128);
        match self.run(self.nodes.len() - 1, v, &mut out) {
            Ok(()) => Ok(out),
            Err(f) => Err(f.into_error()),
        }
    }
}

/// Decodes tool arguments. Absent arguments decode as `{}` (so required fields still fail).
pub fn decode_input(p: &Program, v: Option<Value<'_>>) -> Result<Vec<u8>, CodecError> {
    match v {
        Some(v) => p.top(v),
        None => {
            let empty = crate::json::parse(b"{}", 1)
                .map_err(|_| Fail::new(EXPECTED_OBJECT).into_error())?;
            p.top(empty.root())
        }
    }
}

/// The input check of a tool without input: absent or `{}` only.
pub fn decode_no_input(v: Option<Value<'_>>) -> Result<(), CodecError> {
    match v {
        None => Ok(()),
        Some(Value::Object(o)) if o.is_empty() => Ok(()),
        Some(_) => Err(Fail::new(EXPECTED_EMPTY_OBJECT).into_error()),
    }
}

/// Encodes handler output: closed objects keep declared fields only, open ones keep extras.
pub fn encode_output(p: &Program, v: Value<'_>) -> Result<Vec<u8>, CodecError> {
    p.top(v)
}

/// A failure on its way up: path segments collected innermost first.
struct Fail {
    segments: Vec<String>,
    message: &'static str,
}

impl Fail {
    fn new(message: &'static str) -> Fail {
        Fail {
            segments: Vec::new(),
            message,
        }
    }

    fn under(mut self, segment: String) -> Fail {
        self.segments.push(segment);
        self
    }

    fn into_error(self) -> CodecError {
        let mut path = String::from("$");
        for s in self.segments.iter().rev() {
            path.push_str(s);
        }
        CodecError {
            path,
            message: self.message,
        }
    }
}

/// Length in Unicode scalar values (what JSON Schema's minLength/maxLength count).
fn scalar_count(s: Str<'_>) -> u64 {
    if s.has_escapes() {
        s.as_str().chars().count() as u64
    } else {
        // Count UTF-8 lead bytes: no allocation for the common case.
        s.raw().iter().filter(|&&b| (b & 0xc0) != 0x80).count() as u64
    }
}

/// Writes any value canonically and returns its container depth (a scalar is 0, `[]` is 1).
/// Recursion is bounded by the depth limit of the parse that produced `v`.
pub fn canonical(out: &mut Vec<u8>, v: Value<'_>) -> u32 {
    match v {
        Value::Number(n) => {
            number(out, n.as_f64());
            0
        }
        Value::Array(a) => {
            let mut d = 0;
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                d = d.max(canonical(out, x));
            }
            out.push(b']');
            d + 1
        }
        Value::Object(o) => {
            let mut d = 0;
            out.push(b'{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write::value(out, Value::String(k));
                out.push(b':');
                d = d.max(canonical(out, x));
            }
            out.push(b'}');
            d + 1
        }
        other => {
            write::value(out, other);
            0
        }
    }
}

/// Writes a finite double exactly as ECMAScript's Number::toString (hence JSON.stringify) does:
/// the shortest round-trip digits, fixed notation for 1e-7 <= |x| < 1e21, exponent form otherwise.
pub fn number(out: &mut Vec<u8>, x: f64) {
    if x == 0.0 || !x.is_finite() {
        // -0 prints as 0; non-finite values never reach here (the parser refuses them).
        out.push(b'0');
        return;
    }
    let (digits, exp) = shortest(x.abs());
    let k = digits.len() as i32;
    let n = exp + 1;
    if x < 0.0 {
        out.push(b'-');
    }
    if k <= n && n <= 21 {
        out.extend_from_slice(&digits);
        out.resize(out.len() + (n - k) as usize, b'0');
    } else if 0 < n && n <= 21 {
        out.extend_from_slice(&digits[..n as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-n) as usize, b'0');
        out.extend_from_slice(&digits);
    } else {
        out.push(digits[0]);
        if k > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        let e = n - 1;
        let _ = write!(Bytes(out), "e{}{}", if e >= 0 { '+' } else { '-' }, e.abs());
    }
}

/// `d[.ddd]e<exp>` (Rust's `{:e}` forms) → (significant digits, exponent of the first digit).
fn sci(s: &str) -> (Vec<u8>, i32) {
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let digits = mantissa.bytes().filter(|b| b.is_ascii_digit()).collect();
    (digits, exp.parse().unwrap_or(0))
}

/// The shortest round-trip digits of a positive finite `x`, chosen as ECMAScript's
/// Number::toString chooses them. Rust's `{:e}` already gives the shortest and closest digits; it
/// differs only when `x` lies exactly halfway between two shortest candidates, where ECMAScript
/// takes the even one (1312544971234221.25 prints as …221.2, Rust's `{:e}` gives …221.3).
fn shortest(x: f64) -> (Vec<u8>, i32) {
    let (digits, exp) = sci(&format!("{:e}", x));
    let k = digits.len();
    if digits[k - 1] % 2 == 0 {
        return (digits, exp);
    }
    // A tie means the exact expansion is the k digits, then 5, then zeros. A cheap probe first;
    // the exact expansion (a double has at most 767 significant digits) only for candidates.
    let (probe, _) = sci(&format!("{:.*e}", k + 2, x));
    if probe.get(k..k + 3) != Some(&b"500"[..]) {
        return (digits, exp);
    }
    let (exact, xe) = sci(&format!("{:.*e}", 800, x));
    if exact[k] != b'5' || exact[k + 1..].iter().any(|&b| b != b'0') {
        return (digits, exp);
    }
    // Candidates: the truncation and its successor; take the even one if it round-trips.
    let mut even = exact[..k].to_vec();
    let mut even_exp = xe;
    if even[k - 1] % 2 == 1 {
        let mut i = k;
        loop {
            if i == 0 {
                even.insert(0, b'1');
                even.pop();
                even_exp += 1;
                break;
            }
            i -= 1;
            if even[i] == b'9' {
                even[i] = b'0';
            } else {
                even[i] += 1;
                break;
            }
        }
    }
    while even.len() > 1 && even.last() == Some(&b'0') {
        even.pop();
    }
    let text = format!(
        "{}e{}",
        String::from_utf8_lossy(&even),
        even_exp - (even.len() as i32 - 1)
    );
    if text.parse::<f64>().ok() == Some(x) {
        (even, even_exp)
    } else {
        (digits, exp)
    }
}

/// `fmt::Write` into a byte buffer.
struct Bytes<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Bytes<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn program(text: &str) -> Program {
        let doc = parse(text.as_bytes(), 16).unwrap();
        Program::from_value(doc.root()).unwrap()
    }

    fn program_err(text: &str) -> &'static str {
        let doc = parse(text.as_bytes(), 16).unwrap();
        Program::from_value(doc.root()).unwrap_err()
    }

    fn dec(p: &Program, input: &str) -> Result<String, (String, &'static str)> {
        let doc = parse(input.as_bytes(), 32).unwrap();
        decode_input(p, Some(doc.root()))
            .map(|b| String::from_utf8(b).unwrap())
            .map_err(|e| (e.path, e.message))
    }

    fn num(x: f64) -> String {
        let mut out = Vec::new();
        number(&mut out, x);
        String::from_utf8(out).unwrap()
    }

    const ITEMS: &str = r#"[["string",1,3],["u32",0,10],["object",0,[["name",0,0],["n",1,1]]],["array",2,2],["boolean"],["object",0,[["items",3,0],["on",4,1]]]]"#;

    #[test]
    fn numbers_print_like_javascript() {
        for (x, s) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (100.0, "100"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.30000000000000004, "0.30000000000000004"),
            (9007199254740993.0, "9007199254740992"),
            // Exact ties (…221.25 and …221.75, written as quarters so the literal is exact).
            (-5250179884936885.0 / 4.0, "-1312544971234221.2"),
            (5250179884936887.0 / 4.0, "1312544971234221.8"),
            // Ties whose upper neighbour is the even one (…38.375 and …21.875, as eighths).
            (720703996173907.0 / 8.0, "90087999521738.38"),
            (723557985475375.0 / 8.0, "90444748184421.88"),
            // Just above a tie: the closest digits, though the even neighbour also round-trips.
            (f64::from_bits(0x40df_3969_4938_2410), "31973.645093951433"),
            (
                f64::from_bits(0x3f4d_9b68_52d0_23c1),
                "0.0009035357849153035",
            ),
            (0.5, "0.5"),
            (2.5, "2.5"),
        ] {
            assert_eq!(num(x), s, "{}", x);
        }
    }

    #[test]
    fn objects_drop_unknown_fields_and_keep_declared_order() {
        let p = program(ITEMS);
        assert_eq!(
            dec(
                &p,
                r#"{"x":1,"on":true,"items":[{"n":2,"name":"ab","zz":null}]}"#
            )
            .unwrap(),
            r#"{"items":[{"name":"ab","n":2}],"on":true}"#
        );
        assert_eq!(dec(&p, r#"{"items":[]}"#).unwrap(), r#"{"items":[]}"#);
    }

    /// The contact form of the JSON Schema 2020-12 fixture: a strict object, phone or email
    /// required, and the one named by `contactMethod` required when it is given.
    const CONTACT: &str = r#"[["string",0,null],["object",0,[["street",0,1],["city",0,1]]],["enum",["phone","email"]],["object",2,[["name",0,1],["address",1,1],["contactMethod",2,1],["phone",0,1],["email",0,1]],[["anyOf",[[3],[4]]],["if",2,"phone",[3],[4]]]]]"#;

    #[test]
    fn strict_objects_refuse_unknown_members_without_naming_them() {
        let p = program(CONTACT);
        assert_eq!(
            dec(&p, r#"{"email":"a@b","secret-name":1}"#).unwrap_err(),
            ("$".to_string(), UNKNOWN_FIELD)
        );
        // Nested closed objects still drop what they do not declare.
        assert_eq!(
            dec(&p, r#"{"address":{"zip":1,"city":"x"},"email":"e"}"#).unwrap(),
            r#"{"address":{"city":"x"},"email":"e"}"#
        );
    }

    #[test]
    fn alternative_groups_and_the_conditional_requirement() {
        let p = program(CONTACT);
        type Case<'a> = (&'a str, Result<&'a str, (&'a str, &'a str)>);
        let cases: &[Case] = &[
            (r#"{"email":"e"}"#, Ok(r#"{"email":"e"}"#)),
            (r#"{}"#, Err(("$", NO_ALTERNATIVE))),
            (r#"{"name":"n"}"#, Err(("$", NO_ALTERNATIVE))),
            // No contactMethod: the else branch requires email.
            (r#"{"phone":"p"}"#, Err(("$.email", REQUIRED))),
            (
                r#"{"contactMethod":"phone","phone":"p"}"#,
                Ok(r#"{"contactMethod":"phone","phone":"p"}"#),
            ),
            (
                r#"{"contactMethod":"phone","email":"e"}"#,
                Err(("$.phone", REQUIRED)),
            ),
            (
                r#"{"contactMethod":"email","phone":"p"}"#,
                Err(("$.email", REQUIRED)),
            ),
            // A field's own failure comes before the rules.
            (
                r#"{"contactMethod":"fax"}"#,
                Err(("$.contactMethod", NOT_IN_ENUM)),
            ),
        ];
        for (input, want) in cases {
            let got = dec(&p, input);
            match want {
                Ok(out) => assert_eq!(got.as_deref(), Ok(*out), "{}", input),
                Err((path, msg)) => {
                    assert_eq!(got, Err((path.to_string(), *msg)), "{}", input)
                }
            }
        }
        // object 1 + 5 properties + address's 2 + anyOf 1+2 + if 2, then 1, else 1.
        assert_eq!((p.projection_nodes(), p.projection_levels()), (15, 3));
    }

    #[test]
    fn conditionals_compare_numbers_and_booleans() {
        let p = program(
            r#"[["boolean"],["number",null,null],["string",0,null],["object",0,[["b",0,1],["n",1,1],["s",2,1]],[["if",0,true,[2],[]]]],["object",0,[["n",1,1],["s",2,1]],[["if",0,2.5,[],[1]]]]]"#,
        );
        assert_eq!(dec(&p, r#"{"n":2.5}"#).unwrap(), r#"{"n":2.5}"#);
        assert_eq!(
            dec(&p, r#"{"n":25e-1}"#).unwrap(),
            r#"{"n":2.5}"#,
            "compared as numbers, not as text"
        );
        assert_eq!(
            dec(&p, r#"{"n":3}"#).unwrap_err(),
            ("$.s".to_string(), REQUIRED)
        );
        let p = program(
            r#"[["boolean"],["string",0,null],["object",0,[["b",0,1],["s",1,1]],[["if",0,true,[1],[]]]]]"#,
        );
        assert_eq!(
            dec(&p, r#"{"b":true}"#).unwrap_err(),
            ("$.s".to_string(), REQUIRED)
        );
        assert_eq!(dec(&p, r#"{"b":false}"#).unwrap(), r#"{"b":false}"#);
    }

    #[test]
    fn rule_programs_are_validated() {
        let base = r#"[["boolean"],["object",0,[["a",0,1],["b",0,1]],RULES]]"#;
        let cases = [
            ("[]", "tools: codec program object needs 1 to 8 rules"),
            (
                r#"[["anyOf",[]]]"#,
                "tools: codec program anyOf rule needs 1 to 16 groups",
            ),
            (
                r#"[["anyOf",[[]]]]"#,
                "tools: codec program anyOf group is empty",
            ),
            (
                r#"[["anyOf",[[2]]]]"#,
                "tools: codec program rule names a field that is not declared",
            ),
            (
                r#"[["anyOf",[[0,0]]]]"#,
                "tools: codec program rule names a field that is not declared",
            ),
            (
                r#"[["oneOf",[[0]]]]"#,
                "tools: codec program rule is not anyOf or if",
            ),
            (
                r#"[["if",0,null,[1],[]]]"#,
                "tools: codec program if rule compares with a string, number or boolean",
            ),
            (
                r#"[["if",0,true,[],[]]]"#,
                "tools: codec program if rule requires nothing",
            ),
            (
                r#"[["if",0,true,[1],[]],["if",1,true,[0],[]]]"#,
                "tools: codec program object has more than one if rule",
            ),
            (
                r#"[["if",-1,true,[1],[]]]"#,
                "tools: codec program rule names a field that is not declared",
            ),
            (
                r#"[["if",2,true,[1],[]]]"#,
                "tools: codec program rule names a field that is not declared",
            ),
            (
                r#"[["if",0.5,true,[1],[]]]"#,
                "tools: codec program rule names a field that is not declared",
            ),
            (
                r#"[["if","0",true,[1],[]]]"#,
                "tools: codec program rule names a field that is not declared",
            ),
            (
                r#"[["if",0,true,[1],"x"]]"#,
                "tools: codec program rule needs a list of field indexes",
            ),
            (
                r#"[["if",0,true,[0,1,0],[]]]"#,
                "tools: codec program rule lists too many fields",
            ),
            (
                r#"[["if",0,true,[1]]]"#,
                "tools: codec program rule is not anyOf or if",
            ),
            (
                r#"[["anyOf",[[0]],[[1]]]]"#,
                "tools: codec program rule is not anyOf or if",
            ),
            (
                r#"[["anyOf",[0]]]"#,
                "tools: codec program rule needs a list of field indexes",
            ),
            (
                r#"[["anyOf",{}]]"#,
                "tools: codec program anyOf rule needs 1 to 16 groups",
            ),
            (
                "[[1,[[0]]]]",
                "tools: codec program rule is not anyOf or if",
            ),
            ("[1]", "tools: codec program rule must be an array"),
            ("{}", "tools: codec program object rules must be an array"),
            (
                &format!("[{}]", [r#"["anyOf",[[0]]]"#; 9].join(",")),
                "tools: codec program object needs 1 to 8 rules",
            ),
            (
                &format!(r#"[["anyOf",[{}]]]"#, vec!["[0]"; 17].join(",")),
                "tools: codec program anyOf rule needs 1 to 16 groups",
            ),
        ];
        for (rules, want) in cases {
            assert_eq!(
                program_err(&base.replace("RULES", rules)),
                want,
                "{}",
                rules
            );
        }
        assert_eq!(
            program_err(r#"[["boolean"],["object",3,[["a",0,1]]]]"#),
            "tools: codec program bound out of range"
        );
        // The most rules and groups there may be, and what each adds to the projection: the
        // object and its 2 properties, then per anyOf 1 + its groups, per if 2 + then + else.
        let accepted = [
            ([r#"["anyOf",[[0],[1]]]"#; 8].join(","), 3 + 8 * 3),
            (
                format!(r#"["anyOf",[{}]]"#, vec!["[0,1]"; 16].join(",")),
                3 + 1 + 16,
            ),
            (r#"["if",0,true,[1],[]]"#.to_string(), 3 + 2 + 1),
            (r#"["if",0,true,[],[1]]"#.to_string(), 3 + 2 + 1),
            (r#"["if",0,"x",[1],[0]]"#.to_string(), 3 + 2 + 2),
        ];
        for (rules, nodes) in accepted {
            let p = program(&base.replace("RULES", &format!("[{}]", rules)));
            assert_eq!(
                (p.projection_nodes(), p.projection_levels()),
                (nodes, 3),
                "{}",
                rules
            );
        }
    }

    #[test]
    fn failures_carry_paths_and_fixed_messages() {
        let p = program(ITEMS);
        assert_eq!(
            dec(&p, r#"{}"#).unwrap_err(),
            ("$.items".to_string(), REQUIRED)
        );
        assert_eq!(
            dec(
                &p,
                r#"{"items":[{"name":"a"},{"name":"secret-value-1234"}]}"#
            )
            .unwrap_err(),
            ("$.items[1].name".to_string(), STRING_LONG)
        );
        assert_eq!(
            dec(&p, r#"{"items":[{"name":""}]}"#).unwrap_err(),
            ("$.items[0].name".to_string(), STRING_SHORT)
        );
        assert_eq!(
            dec(&p, r#"{"items":[{"name":"a","n":1.5}]}"#).unwrap_err(),
            ("$.items[0].n".to_string(), EXPECTED_INTEGER)
        );
        assert_eq!(
            dec(&p, r#"{"items":[{"name":"a","n":11}]}"#).unwrap_err().1,
            INTEGER_RANGE
        );
        assert_eq!(
            dec(&p, r#"{"items":[{"name":"a","n":null}]}"#)
                .unwrap_err()
                .1,
            EXPECTED_INTEGER
        );
        assert_eq!(
            dec(&p, r#"{"items":[{"name":"a"},{"name":"b"},{"name":"c"}]}"#).unwrap_err(),
            ("$.items".to_string(), TOO_MANY_ITEMS)
        );
        assert_eq!(
            dec(&p, r#"[]"#).unwrap_err(),
            ("$".to_string(), EXPECTED_OBJECT)
        );
        assert_eq!(
            dec(&p, r#"{"items":[],"on":"yes"}"#).unwrap_err(),
            ("$.on".to_string(), EXPECTED_BOOLEAN)
        );
        let odd = program(r#"[["boolean"],["object",0,[["a b",0,0]]]]"#);
        assert_eq!(dec(&odd, r#"{}"#).unwrap_err().0, r#"$["a b"]"#);
    }

    #[test]
    fn integers_require_the_integer_lexical_form() {
        let p = program(r#"[["i32",-5,5],["object",0,[["v",0,0]]]]"#);
        assert_eq!(dec(&p, r#"{"v":-0}"#).unwrap(), r#"{"v":0}"#);
        for bad in ["1.0", "1e0", "9007199254740993", "\"1\"", "true"] {
            assert_eq!(
                dec(&p, &format!(r#"{{"v":{}}}"#, bad)).unwrap_err().1,
                EXPECTED_INTEGER,
                "{}",
                bad
            );
        }
        assert_eq!(dec(&p, r#"{"v":-6}"#).unwrap_err().1, INTEGER_RANGE);
    }

    #[test]
    fn strings_count_scalar_values_and_enums_match_exactly() {
        let p = program(
            r#"[["string",2,2],["enum",["a","\u00e9"]],["object",0,[["s",0,1],["e",1,1]]]]"#,
        );
        assert_eq!(
            dec(&p, r#"{"s":"\ud834\udd1e\u00e9"}"#).unwrap(),
            "{\"s\":\"\u{1d11e}\u{e9}\"}"
        );
        assert_eq!(dec(&p, r#"{"s":"abc"}"#).unwrap_err().1, STRING_LONG);
        assert_eq!(dec(&p, r#"{"e":"\u00e9"}"#).unwrap(), "{\"e\":\"\u{e9}\"}");
        assert_eq!(dec(&p, r#"{"e":"A"}"#).unwrap_err().1, NOT_IN_ENUM);
    }

    #[test]
    fn numbers_nullable_json_and_open_objects() {
        let p = program(
            r#"[["number",-1,1],["nullable",0],["json",12,2],["object",1,[["x",1,0],["j",2,1]]]]"#,
        );
        assert_eq!(
            dec(&p, r#"{"x":null,"extra":[1.50,{"k":1E2}]}"#).unwrap(),
            r#"{"x":null,"extra":[1.5,{"k":100}]}"#
        );
        assert_eq!(dec(&p, r#"{"x":0.5e0}"#).unwrap(), r#"{"x":0.5}"#);
        assert_eq!(dec(&p, r#"{"x":2}"#).unwrap_err().1, NUMBER_RANGE);
        assert_eq!(
            dec(&p, r#"{"x":1,"j":[[1]]}"#).unwrap(),
            r#"{"x":1,"j":[[1]]}"#
        );
        assert_eq!(
            dec(&p, r#"{"x":1,"j":[[[1]]]}"#).unwrap_err(),
            ("$.j".to_string(), JSON_TOO_DEEP)
        );
        assert_eq!(
            dec(&p, r#"{"x":1,"j":"0123456789ab"}"#).unwrap_err().1,
            JSON_TOO_LARGE
        );
    }

    #[test]
    fn scalar_records() {
        let p = program(r#"[["scalarRecord",2,20]]"#);
        assert_eq!(dec(&p, r#"{"a":1,"b":"x"}"#).unwrap(), r#"{"a":1,"b":"x"}"#);
        assert_eq!(
            dec(&p, r#"{"a":1,"b":2,"c":3}"#).unwrap_err().1,
            TOO_MANY_KEYS
        );
        assert_eq!(
            dec(&p, r#"{"a":null}"#).unwrap_err(),
            ("$".to_string(), EXPECTED_SCALAR)
        );
        assert_eq!(
            dec(&p, r#"{"a":"0123456789abcdefghij"}"#).unwrap_err().1,
            JSON_TOO_LARGE
        );
    }

    #[test]
    fn absent_and_empty_input() {
        let p = program(r#"[["string",0,null],["object",0,[["q",0,1]]]]"#);
        assert_eq!(decode_input(&p, None).unwrap(), b"{}");
        assert!(decode_no_input(None).is_ok());
        let doc = parse(b"{}", 4).unwrap();
        assert!(decode_no_input(Some(doc.root())).is_ok());
        let doc = parse(br#"{"a":1}"#, 4).unwrap();
        assert_eq!(
            decode_no_input(Some(doc.root())).unwrap_err().message,
            EXPECTED_EMPTY_OBJECT
        );
    }

    /// Program bounds at, and one past, each limit: (program, projection nodes and levels or the
    /// message).
    #[test]
    fn program_bounds_at_their_limits() {
        let repeat = |item: &str, n: usize| vec![item; n].join(",");
        let fields = |n: usize| {
            let f: Vec<String> = (0..n).map(|i| format!(r#"["f{}",0,1]"#, i)).collect();
            format!(r#"[["boolean"],["object",0,[{}]]]"#, f.join(","))
        };
        let enum_of = |n: usize| {
            let v: Vec<String> = (0..n).map(|i| format!(r#""v{}""#, i)).collect();
            format!(r#"[["enum",[{}]]]"#, v.join(","))
        };
        const INTEGER: &str = "tools: codec program integer bounds are invalid";
        type Row = (String, Result<(usize, u32), &'static str>);
        let rows: Vec<Row> = vec![
            (format!("[{}]", repeat(r#"["boolean"]"#, 4096)), Ok((1, 1))),
            (
                format!("[{}]", repeat(r#"["boolean"]"#, 4097)),
                Err("tools: codec program must have 1 to 4096 nodes"),
            ),
            (r#"[["i32",-2147483648,2147483647]]"#.into(), Ok((1, 1))),
            (r#"[["i32",-2147483649,0]]"#.into(), Err(INTEGER)),
            (r#"[["i32",0,2147483648]]"#.into(), Err(INTEGER)),
            (r#"[["u32",0,4294967295]]"#.into(), Ok((1, 1))),
            (r#"[["u32",-1,5]]"#.into(), Err(INTEGER)),
            (r#"[["i32",3,3]]"#.into(), Ok((1, 1))),
            (r#"[["i32",5,3]]"#.into(), Err(INTEGER)),
            (r#"[["u32",5,3]]"#.into(), Err(INTEGER)),
            (
                r#"[["i32",0.5,3]]"#.into(),
                Err("tools: codec program integer bound is invalid"),
            ),
            (r#"[["number",1,1]]"#.into(), Ok((1, 1))),
            (
                r#"[["number",2,1]]"#.into(),
                Err("tools: codec program number bounds are inverted"),
            ),
            (
                r#"[["number","1",null]]"#.into(),
                Err("tools: codec program number bound is invalid"),
            ),
            (r#"[["string",2,2]]"#.into(), Ok((1, 1))),
            (r#"[["string",0,4294967295]]"#.into(), Ok((1, 1))),
            (
                r#"[["string",3,2]]"#.into(),
                Err("tools: codec program string bounds are inverted"),
            ),
            (
                r#"[["string",0,4294967296]]"#.into(),
                Err("tools: codec program bound out of range"),
            ),
            (
                r#"[["string",-1,null]]"#.into(),
                Err("tools: codec program bound out of range"),
            ),
            (
                r#"[["string","0",null]]"#.into(),
                Err("tools: codec program bound must be an integer"),
            ),
            (enum_of(1024), Ok((1, 1))),
            (
                enum_of(1025),
                Err("tools: codec program enum needs 1 to 1024 values"),
            ),
            (
                r#"[["enum",[]]]"#.into(),
                Err("tools: codec program enum needs 1 to 1024 values"),
            ),
            (
                r#"[["enum",[1]]]"#.into(),
                Err("tools: codec program enum values must be strings"),
            ),
            (
                r#"[["enum","a"]]"#.into(),
                Err("tools: codec program enum needs values"),
            ),
            (fields(1024), Ok((1025, 2))),
            (
                fields(1025),
                Err("tools: codec program object has too many fields"),
            ),
            (
                r#"[["object",0,{}]]"#.into(),
                Err("tools: codec program object needs fields"),
            ),
            (
                r#"[["boolean"],["object",0,[["a",0]]]]"#.into(),
                Err("tools: codec program field must be [name, node, optional]"),
            ),
            (
                r#"[["boolean"],["object",0,[[1,0,0]]]]"#.into(),
                Err("tools: codec program field name must be a string"),
            ),
            (
                r#"[["boolean"],["object",0,[["a",0,2]]]]"#.into(),
                Err("tools: codec program bound out of range"),
            ),
            (
                r#"[["boolean"],["object",0,[["a",1,0]]]]"#.into(),
                Err("tools: codec program reference must point backwards"),
            ),
            (
                r#"[["boolean"],["array",-1,1]]"#.into(),
                Err("tools: codec program reference is invalid"),
            ),
            (r#"[["json",0,64]]"#.into(), Ok((1, 1))),
            (
                r#"[["json",0,65]]"#.into(),
                Err("tools: codec program bound out of range"),
            ),
            (r#"[["scalarRecord",0,0]]"#.into(), Ok((1, 1))),
            (r#"[["boolean"],["nullable",0]]"#.into(), Ok((3, 2))),
            (r#"{}"#.into(), Err("tools: codec program must be an array")),
            (
                r#"[1]"#.into(),
                Err("tools: codec program node must be an array"),
            ),
            (
                r#"[[1]]"#.into(),
                Err("tools: codec program node needs an opcode"),
            ),
            (
                r#"[["bogus",0,0]]"#.into(),
                Err("tools: codec program has an unknown opcode"),
            ),
            (
                r#"[["string",0]]"#.into(),
                Err("tools: codec program node has the wrong number of members"),
            ),
            (
                r#"[["boolean",0]]"#.into(),
                Err("tools: codec program node has the wrong number of members"),
            ),
            (
                r#"[["boolean"],["nullable",0,0]]"#.into(),
                Err("tools: codec program node has the wrong number of members"),
            ),
        ];
        for (text, want) in rows {
            let doc = parse(text.as_bytes(), 16).unwrap();
            let got = Program::from_value(doc.root())
                .map(|p| (p.projection_nodes(), p.projection_levels()));
            assert_eq!(got, want, "{}", &text[..text.len().min(80)]);
        }
    }

    /// An error path names a field as `.name` when it is an identifier, else as a JSON string.
    #[test]
    fn error_paths_quote_names_that_are_not_identifiers() {
        for (name, path) in [
            ("a", "$.a"),
            ("_x", "$._x"),
            ("a_1", "$.a_1"),
            ("A9", "$.A9"),
            ("__", "$.__"),
            ("1a", r#"$["1a"]"#),
            ("a-b", r#"$["a-b"]"#),
            ("a b", r#"$["a b"]"#),
            ("\u{e9}", "$[\"\u{e9}\"]"),
            ("", r#"$[""]"#),
            (r#"a\"b"#, r#"$["a\"b"]"#),
        ] {
            let p = program(&format!(r#"[["boolean"],["object",0,[["{}",0,0]]]]"#, name));
            assert_eq!(
                dec(&p, "{}").unwrap_err(),
                (path.to_string(), REQUIRED),
                "{}",
                name
            );
        }
    }

    /// Values at, and one past, each bound a node declares.
    #[test]
    fn values_at_their_bounds() {
        type Row<'a> = (&'a str, &'a str, Result<&'a str, (&'a str, &'a str)>);
        const INT: &str = r#"[["i32",-5,5],["object",0,[["v",0,0]]]]"#;
        const NUM: &str = r#"[["number",-1,1],["object",0,[["v",0,0]]]]"#;
        const STR: &str = r#"[["string",2,2],["object",0,[["v",0,0]]]]"#;
        const ARR: &str = r#"[["boolean"],["array",0,2],["object",0,[["v",1,0]]]]"#;
        const JSON: &str = r#"[["json",12,2],["object",0,[["v",0,0]]]]"#;
        const DEEP: &str = r#"[["json",100,2],["object",0,[["v",0,0]]]]"#;
        const RECORD: &str = r#"[["scalarRecord",2,20]]"#;
        const INNER_RECORD: &str = r#"[["scalarRecord",2,20],["object",0,[["r",0,0]]]]"#;
        let rows: &[Row] = &[
            (INT, r#"{"v":-5}"#, Ok(r#"{"v":-5}"#)),
            (INT, r#"{"v":5}"#, Ok(r#"{"v":5}"#)),
            (INT, r#"{"v":6}"#, Err(("$.v", INTEGER_RANGE))),
            (INT, r#"{"v":-6}"#, Err(("$.v", INTEGER_RANGE))),
            (NUM, r#"{"v":-1}"#, Ok(r#"{"v":-1}"#)),
            (NUM, r#"{"v":1.0}"#, Ok(r#"{"v":1}"#)),
            (NUM, r#"{"v":1.0000001}"#, Err(("$.v", NUMBER_RANGE))),
            (NUM, r#"{"v":-1.0000001}"#, Err(("$.v", NUMBER_RANGE))),
            (NUM, r#"{"v":"1"}"#, Err(("$.v", EXPECTED_NUMBER))),
            // Unescaped text counts its scalar values, not its UTF-8 bytes.
            (
                STR,
                "{\"v\":\"\u{e9}\u{1F600}\"}",
                Ok("{\"v\":\"\u{e9}\u{1F600}\"}"),
            ),
            (STR, "{\"v\":\"\u{e9}\"}", Err(("$.v", STRING_SHORT))),
            (STR, "{\"v\":\"ab\u{e9}\"}", Err(("$.v", STRING_LONG))),
            (STR, r#"{"v":1}"#, Err(("$.v", EXPECTED_STRING))),
            (ARR, r#"{"v":[true,false]}"#, Ok(r#"{"v":[true,false]}"#)),
            (
                ARR,
                r#"{"v":[true,false,true]}"#,
                Err(("$.v", TOO_MANY_ITEMS)),
            ),
            (ARR, r#"{"v":[true,1]}"#, Err(("$.v[1]", EXPECTED_BOOLEAN))),
            (ARR, r#"{"v":{}}"#, Err(("$.v", EXPECTED_ARRAY))),
            // 12 bytes once canonical, and 13.
            (JSON, r#"{"v":"0123456789"}"#, Ok(r#"{"v":"0123456789"}"#)),
            (JSON, r#"{"v":"0123456789a"}"#, Err(("$.v", JSON_TOO_LARGE))),
            (DEEP, r#"{"v":[1.50, 2]}"#, Ok(r#"{"v":[1.5,2]}"#)),
            (DEEP, r#"{"v":{"a":{"b":1}}}"#, Ok(r#"{"v":{"a":{"b":1}}}"#)),
            (DEEP, r#"{"v":{"a":{"b":{}}}}"#, Err(("$.v", JSON_TOO_DEEP))),
            (DEEP, r#"{"v":[{"b":[]}]}"#, Err(("$.v", JSON_TOO_DEEP))),
            (
                DEEP,
                r#"{"v":{"a":[],"b":{}}}"#,
                Ok(r#"{"v":{"a":[],"b":{}}}"#),
            ),
            // 20 bytes once canonical, and 21.
            (
                RECORD,
                r#"{"a":"0123456789ab"}"#,
                Ok(r#"{"a":"0123456789ab"}"#),
            ),
            (
                RECORD,
                r#"{"a":"0123456789abc"}"#,
                Err(("$", JSON_TOO_LARGE)),
            ),
            (RECORD, r#"{"a":true,"b":1E1}"#, Ok(r#"{"a":true,"b":10}"#)),
            (RECORD, r#"{"a":[]}"#, Err(("$", EXPECTED_SCALAR))),
            (RECORD, r#"[]"#, Err(("$", EXPECTED_OBJECT))),
            // Inside an object the record's own bytes count, not what precedes it.
            (
                INNER_RECORD,
                r#"{"r":{"a":"0123456789ab"}}"#,
                Ok(r#"{"r":{"a":"0123456789ab"}}"#),
            ),
            (
                INNER_RECORD,
                r#"{"r":{"a":"0123456789abc"}}"#,
                Err(("$.r", JSON_TOO_LARGE)),
            ),
        ];
        for (prog, input, want) in rows {
            let got = dec(&program(prog), input);
            match want {
                Ok(out) => assert_eq!(got.as_deref(), Ok(*out), "{}", input),
                Err((path, msg)) => assert_eq!(got, Err((path.to_string(), *msg)), "{}", input),
            }
        }
    }

    #[test]
    fn root_fields_report_their_kind_and_presence() {
        let p = program(
            r#"[["string",0,null],["enum",["a"]],["i32",0,1],["boolean"],["number",null,null],["object",0,[["s",0,0],["e",1,1],["i",2,0],["b",3,1],["x",4,0]]]]"#,
        );
        let kinds: Vec<Option<(&str, bool)>> = ["s", "e", "i", "b", "x", "z"]
            .iter()
            .map(|f| p.root_field(f))
            .collect();
        assert_eq!(
            kinds,
            [
                Some(("string", false)),
                Some(("enum", true)),
                Some(("integer", false)),
                Some(("boolean", true)),
                Some(("other", false)),
                None,
            ]
        );
        assert!(p.root_is_object() && !p.has_scalar_record());
        let record = program(r#"[["scalarRecord",2,20]]"#);
        assert_eq!(record.root_field("s"), None);
        assert!(!record.root_is_object() && record.has_scalar_record());
        let nested = program(r#"[["scalarRecord",2,20],["object",0,[["r",0,0]]]]"#);
        assert!(nested.root_is_object() && nested.has_scalar_record());
    }

    #[test]
    fn programs_are_validated() {
        assert_eq!(
            program_err(r#"[["array",0,3]]"#),
            "tools: codec program reference must point backwards"
        );
        assert_eq!(
            program_err(r#"[["bogus"]]"#),
            "tools: codec program node has the wrong number of members"
        );
        assert_eq!(
            program_err(r#"[["i32",0,4294967295]]"#),
            "tools: codec program integer bounds are invalid"
        );
        assert_eq!(
            program_err(r#"[]"#),
            "tools: codec program must have 1 to 4096 nodes"
        );
        assert_eq!(
            program_err(r#"[["boolean"],["object",0,[["a",0,0],["a",0,1]]]]"#),
            "tools: codec program object repeats a field name"
        );
        // 25 nested arrays exceed the 24 levels of the projection.
        let mut nodes = vec![r#"["boolean"]"#.to_string()];
        for i in 0..24 {
            nodes.push(format!(r#"["array",{},1]"#, i));
        }
        assert_eq!(
            program_err(&format!("[{}]", nodes.join(","))),
            "tools: schema projection exceeds 24 levels"
        );
        nodes.pop();
        let p = program(&format!("[{}]", nodes.join(",")));
        assert_eq!((p.projection_nodes(), p.projection_levels()), (24, 24));
        let p = program(r#"[["boolean"],["nullable",0],["object",0,[["a",1,0],["b",0,0]]]]"#);
        assert_eq!((p.projection_nodes(), p.projection_levels()), (5, 3));
    }
}
