//! The parsed document: an arena of nodes in document order whose scalars are spans of the body.
use std::borrow::Cow;
use std::fmt;

use super::text::{decode_into, validated, DecodedBytes};

pub(crate) const T_NULL: u8 = 0;
pub(crate) const T_TRUE: u8 = 1;
pub(crate) const T_FALSE: u8 = 2;
pub(crate) const T_NUMBER: u8 = 3;
pub(crate) const T_STRING: u8 = 4;
/// A string span holding at least one escape.
pub(crate) const T_STRING_ESC: u8 = 5;
pub(crate) const T_ARRAY: u8 = 6;
pub(crate) const T_OBJECT: u8 = 7;

/// One value. Scalars: `a..b` is the span (string spans exclude the quotes). Containers: `a` is
/// the number of elements (members for objects, whose children alternate key, value) and `b` the
/// index just past the subtree, so siblings are found without walking children.
#[derive(Clone, Copy)]
pub(crate) struct Node {
    pub(crate) tag: u8,
    pub(crate) a: usize,
    pub(crate) b: usize,
}

/// Index of the node after the subtree rooted at `idx`.
#[inline]
pub(crate) fn next_sibling(nodes: &[Node], idx: usize) -> usize {
    let n = nodes[idx];
    if n.tag >= T_ARRAY {
        n.b
    } else {
        idx + 1
    }
}

/// A successfully parsed JSON text. The body is kept and values borrow it.
pub struct Document {
    body: Vec<u8>,
    nodes: Vec<Node>,
}

impl Document {
    pub(crate) fn new(body: Vec<u8>, nodes: Vec<Node>) -> Document {
        Document { body, nodes }
    }

    pub fn root(&self) -> Value<'_> {
        self.value(0)
    }

    /// The whole body as received (valid UTF-8).
    pub fn bytes(&self) -> &[u8] {
        &self.body
    }

    fn value(&self, idx: usize) -> Value<'_> {
        let n = self.nodes[idx];
        match n.tag {
            T_NULL => Value::Null,
            T_TRUE => Value::Bool(true),
            T_FALSE => Value::Bool(false),
            T_NUMBER => Value::Number(Number {
                raw: validated(&self.body[n.a..n.b]),
            }),
            T_STRING | T_STRING_ESC => Value::String(Str {
                raw: &self.body[n.a..n.b],
                escaped: n.tag == T_STRING_ESC,
            }),
            T_ARRAY => Value::Array(Array { doc: self, idx }),
            _ => Value::Object(Object { doc: self, idx }),
        }
    }

    fn str_at(&self, idx: usize) -> Str<'_> {
        let n = self.nodes[idx];
        Str {
            raw: &self.body[n.a..n.b],
            escaped: n.tag == T_STRING_ESC,
        }
    }
}

#[derive(Clone, Copy)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number<'a>),
    String(Str<'a>),
    Array(Array<'a>),
    Object(Object<'a>),
}

impl<'a> Value<'a> {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<Number<'a>> {
        match *self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_string(&self) -> Option<Str<'a>> {
        match *self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<Array<'a>> {
        match *self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<Object<'a>> {
        match *self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
}

/// Shows the canonical compact JSON of the value.
impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::new();
        super::write::value(&mut out, *self);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

/// A number, kept as its (validated, finite) source text.
#[derive(Clone, Copy, Debug)]
pub struct Number<'a> {
    raw: &'a str,
}

impl<'a> Number<'a> {
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    pub fn as_f64(&self) -> f64 {
        // The parser accepted only RFC 8259 numbers, all of which Rust parses; NaN cannot occur.
        self.raw.parse::<f64>().unwrap_or(f64::NAN)
    }

    /// `Some` only for `-?(0|[1-9][0-9]*)` with magnitude at most 2^53 - 1; `-0` is `Some(0)`.
    pub fn as_safe_integer(&self) -> Option<i64> {
        const MAX: u64 = (1 << 53) - 1;
        let (neg, digits) = match self.raw.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, self.raw),
        };
        // The grammar already excludes leading zeros and empty digit runs.
        if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v = digits
            .bytes()
            .fold(0u64, |acc, b| acc * 10 + (b - b'0') as u64);
        if v > MAX {
            return None;
        }
        Some(if neg { -(v as i64) } else { v as i64 })
    }
}

/// A string, kept as its source span between the quotes (validated UTF-8).
#[derive(Clone, Copy)]
pub struct Str<'a> {
    raw: &'a [u8],
    escaped: bool,
}

impl<'a> Str<'a> {
    /// The decoded text; borrowed from the body unless the string holds escapes.
    pub fn as_str(&self) -> Cow<'a, str> {
        if !self.escaped {
            return Cow::Borrowed(validated(self.raw));
        }
        let mut out = String::with_capacity(self.raw.len());
        decode_into(self.raw, &mut out);
        Cow::Owned(out)
    }

    /// The source bytes between the quotes, escapes undecoded.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the source holds escapes (when not, `raw` is the decoded text).
    pub fn has_escapes(&self) -> bool {
        self.escaped
    }

    /// Compares the decoded text with `s` without allocating.
    pub fn eq_str(&self, s: &str) -> bool {
        if !self.escaped {
            return self.raw == s.as_bytes();
        }
        // Decoding never lengthens a span: every escape is longer than the UTF-8 it stands for.
        if s.len() > self.raw.len() {
            return false;
        }
        DecodedBytes::new(self.raw).eq(s.bytes())
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Value::String(*self).fmt(f)
    }
}

#[derive(Clone, Copy)]
pub struct Array<'a> {
    doc: &'a Document,
    idx: usize,
}

impl<'a> Array<'a> {
    pub fn len(&self) -> usize {
        self.doc.nodes[self.idx].a
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = Value<'a>> {
        ArrayIter {
            doc: self.doc,
            next: self.idx + 1,
            left: self.len(),
        }
    }

    pub fn get(&self, i: usize) -> Option<Value<'a>> {
        self.iter().nth(i)
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Value::Array(*self).fmt(f)
    }
}

struct ArrayIter<'a> {
    doc: &'a Document,
    next: usize,
    left: usize,
}

impl<'a> Iterator for ArrayIter<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let idx = self.next;
        self.next = next_sibling(&self.doc.nodes, idx);
        Some(self.doc.value(idx))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

#[derive(Clone, Copy)]
pub struct Object<'a> {
    doc: &'a Document,
    idx: usize,
}

impl<'a> Object<'a> {
    pub fn len(&self) -> usize {
        self.doc.nodes[self.idx].a
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Linear scan over the names; member names are unique, so the first match is the only one.
    /// Only the matching member's value is built (a number's is UTF-8-checked when built).
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let mut k = self.idx + 1;
        for _ in 0..self.len() {
            if self.doc.str_at(k).eq_str(key) {
                return Some(self.doc.value(k + 1));
            }
            k = next_sibling(&self.doc.nodes, k + 1);
        }
        None
    }

    pub fn iter(&self) -> impl Iterator<Item = (Str<'a>, Value<'a>)> {
        ObjectIter {
            doc: self.doc,
            next: self.idx + 1,
            left: self.len(),
        }
    }
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Value::Object(*self).fmt(f)
    }
}

struct ObjectIter<'a> {
    doc: &'a Document,
    next: usize,
    left: usize,
}

impl<'a> Iterator for ObjectIter<'a> {
    type Item = (Str<'a>, Value<'a>);

    fn next(&mut self) -> Option<(Str<'a>, Value<'a>)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let k = self.next;
        self.next = next_sibling(&self.doc.nodes, k + 1);
        Some((self.doc.str_at(k), self.doc.value(k + 1)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}
