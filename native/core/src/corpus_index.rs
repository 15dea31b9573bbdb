//! Builds the index `corpus.rs` scores against from a corpus definition. The manifest compiler asks
//! for it through the C ABI (`pulse_corpus_index`), so entries are indexed by the same tokenizer
//! (`corpus::tokenize`) that reads queries.
//!
//! The idf of each term is computed here, once, at build time, and written as integer millionths:
//! requests never run a transcendental function, whose last bit could differ between targets.
use std::collections::BTreeMap;

use crate::corpus::tokenize;
use crate::json::{parse, write, Value};

/// Nesting of a definition: object, entries, entry, tags.
const DEPTH: u32 = 4;

/// BM25 idf as integer millionths: `round(ln(1 + (n - df + 0.5) / (df + 0.5)) * 1e6)`.
fn idf_millionths(n: usize, df: usize) -> u64 {
    let (n, df) = (n as f64, df as f64);
    ((1.0 + (n - df + 0.5) / (df + 0.5)).ln() * 1e6).round() as u64
}

fn text<'a>(v: Option<Value<'a>>) -> Result<std::borrow::Cow<'a, str>, &'static str> {
    match v {
        Some(Value::String(s)) => Ok(s.as_str()),
        _ => Err("corpus entry id, title, collection and text must be strings"),
    }
}

/// Appends `n` in decimal, after a space unless `out` is empty.
fn push_number(out: &mut String, n: u64) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(&n.to_string());
}

/// The index JSON of a definition given as JSON text,
/// `{"version"?, "entries": [{"id", "title", "collection", "text", "tags"?}…]}`:
/// `{"version"?, "entries": [[id, title, collection, text, [tag…]]…], "lengths", "terms", "idf",
/// "postings"}`. An entry is indexed by its title, tags and text, in that order.
pub fn build(definition: &[u8]) -> Result<Vec<u8>, String> {
    let doc = parse(definition, DEPTH)
        .map_err(|e| format!("corpus definition is not JSON: {}", e.message()))?;
    build_value(doc.root()).map_err(str::to_string)
}

fn build_value(def: Value<'_>) -> Result<Vec<u8>, &'static str> {
    let o = def
        .as_object()
        .ok_or("corpus definition must be an object")?;
    let entries = o
        .get("entries")
        .and_then(|v| v.as_array())
        .ok_or("corpus definition needs an entries list")?;
    let mut out = b"{".to_vec();
    match o.get("version") {
        None => {}
        Some(Value::String(v)) => {
            out.extend_from_slice(b"\"version\":");
            write::string(&mut out, &v.as_str());
            out.push(b',');
        }
        Some(_) => return Err("corpus version must be a string"),
    }
    out.extend_from_slice(b"\"entries\":[");
    let mut lengths = String::new();
    // Sorted by byte order, as `corpus.rs` requires; each term's pairs in entry order.
    let mut postings: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    for (idx, e) in entries.iter().enumerate() {
        let e = e.as_object().ok_or("corpus entries must be objects")?;
        let tags = match e.get("tags") {
            None | Some(Value::Null) => None,
            Some(Value::Array(a)) => Some(a),
            Some(_) => return Err("corpus entry tags must be a list of strings"),
        };
        let mut parts = Vec::new();
        for key in ["id", "title", "collection", "text"] {
            parts.push(text(e.get(key))?);
        }
        if idx > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for p in &parts {
            write::string(&mut out, p);
            out.push(b',');
        }
        out.push(b'[');
        let mut tokens = tokenize(&parts[1]);
        for (i, t) in tags.iter().flat_map(|a| a.iter()).enumerate() {
            let t = match t {
                Value::String(s) => s.as_str(),
                _ => return Err("corpus entry tags must be a list of strings"),
            };
            if i > 0 {
                out.push(b',');
            }
            write::string(&mut out, &t);
            tokens.extend(tokenize(&t));
        }
        out.extend_from_slice(b"]]");
        tokens.extend(tokenize(&parts[3]));
        push_number(&mut lengths, tokens.len() as u64);
        let mut tf: BTreeMap<String, u32> = BTreeMap::new();
        for t in tokens {
            *tf.entry(t).or_insert(0) += 1;
        }
        let idx = u32::try_from(idx).map_err(|_| "corpus has too many entries")?;
        for (t, n) in tf {
            postings.entry(t).or_default().push((idx, n));
        }
    }
    let n = entries.len();
    let (mut terms, mut idf, mut packed) = (String::new(), String::new(), String::new());
    for (t, pairs) in &postings {
        if !terms.is_empty() {
            terms.push(' ');
            packed.push(' ');
        }
        terms.push_str(t);
        push_number(&mut idf, idf_millionths(n, pairs.len()));
        for (i, (e, f)) in pairs.iter().enumerate() {
            if i > 0 {
                packed.push(',');
            }
            packed.push_str(&format!("{e}:{f}"));
        }
    }
    out.extend_from_slice(b"],\"lengths\":");
    write::string(&mut out, &lengths);
    out.extend_from_slice(b",\"terms\":");
    write::string(&mut out, &terms);
    out.extend_from_slice(b",\"idf\":");
    write::string(&mut out, &idf);
    out.extend_from_slice(b",\"postings\":");
    write::string(&mut out, &packed);
    out.push(b'}');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;

    fn index(def: &str) -> String {
        String::from_utf8(build(def.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn builds_the_packed_index() {
        let def = r#"{"version":"1","entries":[
            {"id":"a","title":"Alpha","collection":"docs","text":"alpha beta beta"},
            {"id":"b","title":"Beta","collection":"docs","text":"gamma \"q\"","tags":["t1"]},
            {"id":"c","title":"Gamma","collection":"examples","text":"alpha gamma","tags":null}]}"#;
        let idf = |df| idf_millionths(3, df);
        assert_eq!(
            index(def),
            format!(
                r#"{{"version":"1","entries":[["a","Alpha","docs","alpha beta beta",[]],["b","Beta","docs","gamma \"q\"",["t1"]],["c","Gamma","examples","alpha gamma",[]]],"lengths":"4 4 3","terms":"alpha beta gamma q t1","idf":"{} {} {} {} {}","postings":"0:2,2:1 0:2,1:1 1:1,2:2 1:1 1:1"}}"#,
                idf(2),
                idf(2),
                idf(2),
                idf(1),
                idf(1)
            )
        );
        assert_eq!((idf(2), idf(1)), (470004, 980829));
        assert_eq!(
            index(r#"{"entries":[]}"#),
            r#"{"entries":[],"lengths":"","terms":"","idf":"","postings":""}"#
        );
    }

    #[test]
    fn indexes_what_queries_find() {
        let long = "x".repeat(65);
        let def = format!(
            r#"{{"entries":[{{"id":"a","title":"Café ☕ 東京","collection":"c","text":"MiXed {} {}","tags":["Tag-One"]}}]}}"#,
            "y".repeat(64),
            long
        );
        let built = index(&def);
        // The 65-byte token is dropped from the index, as from queries.
        assert!(
            built.ends_with(&format!(
                r#""lengths":"5","terms":"caf mixed one tag {}","idf":"287682 287682 287682 287682 287682","postings":"0:1 0:1 0:1 0:1 0:1"}}"#,
                "y".repeat(64)
            )),
            "{}",
            built
        );
        let doc = parse(built.as_bytes(), 16).unwrap();
        let c = Corpus::from_value(doc.root()).unwrap();
        for q in ["CAFÉ", "mixed", "TAG", "one", &"Y".repeat(64)] {
            assert!(c.search(q, 1, 4096).len() > 20, "{}", q);
        }
        assert_eq!(c.search(&long, 1, 4096), b"{\"results\":[]}");
    }

    #[test]
    fn definitions_are_checked() {
        for (def, message) in [
            ("[]", "corpus definition must be an object"),
            ("{}", "corpus definition needs an entries list"),
            (
                r#"{"version":1,"entries":[]}"#,
                "corpus version must be a string",
            ),
            (r#"{"entries":[1]}"#, "corpus entries must be objects"),
            (
                r#"{"entries":[{"id":"a","title":"t","collection":"c"}]}"#,
                "corpus entry id, title, collection and text must be strings",
            ),
            (
                r#"{"entries":[{"id":"a","title":"t","collection":"c","text":"x","tags":[1]}]}"#,
                "corpus entry tags must be a list of strings",
            ),
            (
                r#"{"entries":[{"id":"\ud800"}]}"#,
                "corpus definition is not JSON: Lone surrogate escape in JSON string",
            ),
        ] {
            assert_eq!(build(def.as_bytes()).unwrap_err(), message, "{}", def);
        }
    }
}
