//! What the fuzz targets share: the independent JSON oracle and input splitting.
use std::collections::BTreeMap;
use std::fmt;

use pulse_core::json::Value as CoreValue;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value as the oracle sees it: numbers as f64, objects sorted (order is not compared).
#[derive(Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    /// Containers nested: a scalar is 0, `[]` is 1.
    pub fn depth(&self) -> u32 {
        match self {
            Json::Arr(a) => 1 + a.iter().map(Json::depth).max().unwrap_or(0),
            Json::Obj(o) => 1 + o.values().map(Json::depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    pub fn from_core(v: CoreValue<'_>) -> Json {
        match v {
            CoreValue::Null => Json::Null,
            CoreValue::Bool(b) => Json::Bool(b),
            CoreValue::Number(n) => Json::Num(n.as_f64()),
            CoreValue::String(s) => Json::Str(s.as_str().into_owned()),
            CoreValue::Array(a) => Json::Arr(a.iter().map(Json::from_core).collect()),
            CoreValue::Object(o) => Json::Obj(
                o.iter()
                    .map(|(k, v)| (k.as_str().into_owned(), Json::from_core(v)))
                    .collect(),
            ),
        }
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Num(n as f64))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Num(n as f64))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(Json::Num(n))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::Str(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Json::Arr(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut out = BTreeMap::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            // I-JSON: a repeated member name is an error, not "last one wins".
            if out.insert(k, v).is_some() {
                return Err(de::Error::custom("duplicate key"));
            }
        }
        Ok(Json::Obj(out))
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// The oracle's verdict: serde_json (strict UTF-8, no lone surrogates, finite numbers, nothing
/// after the value) plus the duplicate-key rule. Its own recursion limit is 128.
pub fn oracle(bytes: &[u8]) -> Option<Json> {
    serde_json::from_slice::<Json>(bytes).ok()
}

/// Cuts `data` at the offsets named by `cuts` (each byte a fraction of the length), in order.
pub fn split<'a>(data: &'a [u8], cuts: &[u8]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| data.len() * c as usize / 256)
        .collect();
    at.sort_unstable();
    at.dedup();
    let mut out = Vec::new();
    let mut prev = 0;
    for a in at {
        out.push(&data[prev..a]);
        prev = a;
    }
    out.push(&data[prev..]);
    out
}
