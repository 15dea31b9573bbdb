//! Immutable corpora compiled into the manifest: bounded BM25 search, read by id, list.
//!
//! `tokenize` is the one tokenizer: queries here, entries when `corpus_index.rs` builds the index
//! for the compiler. The idf of each term comes precomputed in the index as integer millionths, so
//! scoring here uses only IEEE-exact arithmetic and ranks identically on every target.
use crate::json::{write, Value};

pub const MAX_TOKEN: usize = 64;
pub const MAX_QUERY_TERMS: usize = 32;
const SNIPPET_CHARS: usize = 240;
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Byte range into `Corpus::text`.
#[derive(Clone, Copy)]
struct Span(u32, u32);

struct Entry {
    id: Span,
    title: Span,
    collection: Span,
    text: Span,
    /// Range into `Corpus::tags`.
    tags: (u32, u32),
}

/// One term of the index. Its text ends where the next term's begins (terms are the arena's last
/// strings) and its postings where the next term's begin: twelve bytes a term.
struct Term {
    /// Start in `Corpus::text`.
    text: u32,
    /// Integer millionths, as the compiler wrote it.
    idf_millionths: u32,
    /// Start in `Corpus::postings`.
    postings: u32,
}

/// One corpus, stored in a few flat buffers: each string is copied once into one arena instead of
/// allocated per entry, term and posting, and the edge module's snapshot (copied into every
/// request's instance) holds only these buffers.
pub struct Corpus {
    text: String,
    entries: Vec<Entry>,
    tags: Vec<Span>,
    lengths: Vec<u32>,
    avg_len: f64,
    /// Sorted by text (byte order).
    terms: Vec<Term>,
    /// (entry, frequency) pairs of every term in turn, each number LEB128: two bytes a pair for
    /// corpora under 128 entries, where fixed-width pairs would take eight.
    postings: Vec<u8>,
    /// Entry indexes sorted by id, for `read`.
    by_id: Vec<u32>,
}

/// Appends `n` as unsigned LEB128.
fn put_varint(out: &mut Vec<u8>, mut n: u32) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads one unsigned LEB128 number written by `put_varint` at `*at`, advancing past it.
fn take_varint(bytes: &[u8], at: &mut usize) -> u32 {
    let mut n = 0u32;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        n |= u32::from(b & 0x7f) << shift;
        if b < 0x80 {
            break;
        }
        shift += 7;
    }
    n
}

/// ASCII-lowercased alphanumeric runs of at most MAX_TOKEN bytes, in order: every byte outside
/// `[A-Za-z0-9]`, all non-ASCII text included, separates tokens; no stemming, no stop words.
pub fn tokenize(text: &str) -> Vec<String> {
    text.as_bytes()
        .split(|b| !b.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN)
        .map(|t| t.iter().map(|b| b.to_ascii_lowercase() as char).collect())
        .collect()
}

/// Space-separated words; the empty text has none.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(' ').filter(|w| !w.is_empty())
}

/// A decimal u32 (digits only).
fn number(w: &str) -> Result<u32, &'static str> {
    const ERR: &str = "tools: corpus index numbers must be non-negative integers";
    if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ERR);
    }
    w.parse::<u32>().map_err(|_| ERR)
}

fn numbers(text: &str) -> Result<Vec<u32>, &'static str> {
    words(text).map(number).collect()
}

/// Appends a string member to the arena.
fn push(arena: &mut String, v: Option<Value<'_>>) -> Result<Span, &'static str> {
    match v {
        Some(Value::String(s)) => {
            let start = arena.len();
            arena.push_str(&s.as_str());
            if arena.len() > u32::MAX as usize {
                return Err("tools: corpus is too large");
            }
            Ok(Span(start as u32, arena.len() as u32))
        }
        _ => Err("tools: corpus entry fields must be strings"),
    }
}

impl Corpus {
    fn s(&self, span: Span) -> &str {
        &self.text[span.0 as usize..span.1 as usize]
    }

    /// Term `i`'s text: up to the next term's start, the last one up to the arena's end.
    fn term_text(&self, i: usize) -> &str {
        let end = self
            .terms
            .get(i + 1)
            .map_or(self.text.len(), |t| t.text as usize);
        &self.text[self.terms[i].text as usize..end]
    }

    /// Term `i`'s bytes in `postings`.
    fn postings_of(&self, i: usize) -> std::ops::Range<usize> {
        let end = self
            .terms
            .get(i + 1)
            .map_or(self.postings.len(), |t| t.postings as usize);
        self.terms[i].postings as usize..end
    }

    /// The index of `token` among the sorted terms.
    fn find_term(&self, token: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.terms.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.term_text(mid).cmp(token) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    pub fn from_value(v: Value<'_>) -> Result<Corpus, &'static str> {
        let o = v.as_object().ok_or("tools: corpus must be an object")?;
        let ev = o
            .get("entries")
            .and_then(|v| v.as_array())
            .ok_or("tools: corpus needs entries")?;
        let mut text = String::new();
        let mut tags = Vec::new();
        let mut entries = Vec::with_capacity(ev.len());
        for e in ev.iter() {
            let e = e
                .as_array()
                .filter(|a| a.len() == 5)
                .ok_or("tools: corpus entry must be [id, title, collection, text, tags]")?;
            let mut it = e.iter();
            let id = push(&mut text, it.next())?;
            let title = push(&mut text, it.next())?;
            let collection = push(&mut text, it.next())?;
            let body = push(&mut text, it.next())?;
            let tv = it
                .next()
                .and_then(|t| t.as_array())
                .ok_or("tools: corpus entry tags must be an array")?;
            let first = tags.len() as u32;
            for t in tv.iter() {
                tags.push(push(&mut text, Some(t))?);
            }
            entries.push(Entry {
                id,
                title,
                collection,
                text: body,
                tags: (first, tags.len() as u32),
            });
        }
        if entries.len() > u32::MAX as usize {
            return Err("tools: corpus has too many entries");
        }
        let packed = |key: &str| match o.get(key) {
            Some(Value::String(s)) if !s.has_escapes() => Ok(s.as_str()),
            _ => Err("tools: corpus index members must be plain text"),
        };
        let lengths = numbers(&packed("lengths")?)?;
        if lengths.len() != entries.len() {
            return Err("tools: corpus lengths must match its entries");
        }
        let total: f64 = lengths.iter().map(|&l| l as f64).sum();
        let avg_len = if entries.is_empty() {
            0.0
        } else {
            total / entries.len() as f64
        };
        let term_text = packed("terms")?;
        let idf = numbers(&packed("idf")?)?;
        let posting_text = packed("postings")?;
        let mut idf_iter = idf.iter();
        let mut group_iter = words(&posting_text);
        let mut terms: Vec<Term> = Vec::with_capacity(idf.len());
        let mut postings = Vec::new();
        let mut prev: Option<&str> = None;
        for t in words(&term_text) {
            if t.len() > MAX_TOKEN
                || !t
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
            {
                return Err("tools: corpus terms must be lowercase ASCII tokens");
            }
            if matches!(prev, Some(p) if p >= t) {
                return Err("tools: corpus terms must be sorted and unique");
            }
            prev = Some(t);
            let (idf, group) = match (idf_iter.next(), group_iter.next()) {
                (Some(&i), Some(g)) => (i, g),
                _ => return Err("tools: corpus idf and postings must match its terms"),
            };
            if postings.len() > u32::MAX as usize {
                return Err("tools: corpus is too large");
            }
            let first = postings.len() as u32;
            for pair in group.split(',') {
                let (e, f) = pair
                    .split_once(':')
                    .ok_or("tools: corpus postings must be entry:frequency pairs")?;
                let (e, f) = (number(e)?, number(f)?);
                if e as usize >= entries.len() || f == 0 {
                    return Err("tools: corpus posting is out of range");
                }
                put_varint(&mut postings, e);
                put_varint(&mut postings, f);
            }
            let start = text.len() as u32;
            text.push_str(t);
            if text.len() > u32::MAX as usize {
                return Err("tools: corpus is too large");
            }
            terms.push(Term {
                text: start,
                idf_millionths: idf,
                postings: first,
            });
        }
        if idf_iter.next().is_some() || group_iter.next().is_some() {
            return Err("tools: corpus idf and postings must match its terms");
        }
        let mut c = Corpus {
            text,
            entries,
            tags,
            lengths,
            avg_len,
            terms,
            postings,
            by_id: Vec::new(),
        };
        let mut by_id: Vec<u32> = (0..c.entries.len() as u32).collect();
        by_id.sort_by(|&a, &b| {
            c.s(c.entries[a as usize].id)
                .cmp(c.s(c.entries[b as usize].id))
        });
        if by_id
            .windows(2)
            .any(|w| c.s(c.entries[w[0] as usize].id) == c.s(c.entries[w[1] as usize].id))
        {
            return Err("tools: corpus entry ids must be unique");
        }
        c.by_id = by_id;
        Ok(c)
    }

    /// Entry indexes with a positive score, best first; ties by entry order.
    fn rank(&self, query: &str) -> Vec<u32> {
        let mut seen: Vec<String> = Vec::new();
        for t in tokenize(query) {
            if seen.len() == MAX_QUERY_TERMS {
                break;
            }
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
        let mut scores = vec![0f64; self.entries.len()];
        // Terms are summed in query order, so the float sums are the same everywhere.
        for t in &seen {
            if let Some(i) = self.find_term(t) {
                let idf = f64::from(self.terms[i].idf_millionths) / 1e6;
                let pairs = &self.postings[self.postings_of(i)];
                let mut at = 0;
                while at < pairs.len() {
                    let e = take_varint(pairs, &mut at);
                    let tf = f64::from(take_varint(pairs, &mut at));
                    let dl = self.lengths[e as usize] as f64;
                    let norm = if self.avg_len > 0.0 {
                        dl / self.avg_len
                    } else {
                        1.0
                    };
                    scores[e as usize] +=
                        idf * (tf * (K1 + 1.0)) / (tf + K1 * (1.0 - B + B * norm));
                }
            }
        }
        let mut hits: Vec<u32> = (0..scores.len() as u32)
            .filter(|&i| scores[i as usize] > 0.0)
            .collect();
        hits.sort_by(|&a, &b| {
            scores[b as usize]
                .partial_cmp(&scores[a as usize])
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        hits
    }

    /// `{"results":[{"id","title","collection","tags","snippet"}…]}`: at most `limit` hits, and
    /// hits stop before the result would exceed `max_bytes`.
    pub fn search(&self, query: &str, limit: usize, max_bytes: usize) -> Vec<u8> {
        let mut out = b"{\"results\":[".to_vec();
        for (n, e) in self.rank(query).into_iter().take(limit).enumerate() {
            let entry = &self.entries[e as usize];
            let mut item = Vec::new();
            if n > 0 {
                item.push(b',');
            }
            self.head(&mut item, entry);
            item.extend_from_slice(b",\"snippet\":");
            let body = self.s(entry.text);
            let cut = body
                .char_indices()
                .nth(SNIPPET_CHARS)
                .map_or(body.len(), |(i, _)| i);
            write::string(&mut item, &body[..cut]);
            item.push(b'}');
            if out.len() + item.len() + 2 > max_bytes {
                break;
            }
            out.extend_from_slice(&item);
        }
        out.extend_from_slice(b"]}");
        out
    }

    /// `{"id","title","collection","tags","text","truncated"}`, the text cut at a character
    /// boundary to fit `max_bytes`; `None` for an unknown id.
    pub fn read(&self, id: &str, max_bytes: usize) -> Option<Vec<u8>> {
        let pos = self
            .by_id
            .binary_search_by(|&i| self.s(self.entries[i as usize].id).cmp(id))
            .ok()?;
        let entry = &self.entries[self.by_id[pos] as usize];
        let body = self.s(entry.text);
        let mut out = Vec::new();
        self.head(&mut out, entry);
        out.extend_from_slice(b",\"text\":");
        let fixed = out.len() + b"\"\",\"truncated\":false}".len();
        let mut text = Vec::with_capacity(body.len() + 2);
        write::string(&mut text, body);
        if fixed + text.len() - 2 <= max_bytes {
            out.extend_from_slice(&text);
            out.extend_from_slice(b",\"truncated\":false}");
        } else {
            // Budget for the escaped text with `true` (one byte shorter than `false`).
            let budget = max_bytes.saturating_sub(fixed - 1);
            let mut used = 0;
            let mut cut = 0;
            for (i, c) in body.char_indices() {
                let w = escaped_len(c);
                if used + w > budget {
                    break;
                }
                used += w;
                cut = i + c.len_utf8();
            }
            write::string(&mut out, &body[..cut]);
            out.extend_from_slice(b",\"truncated\":true}");
        }
        Some(out)
    }

    /// `{"entries":[{"id","title","collection","tags"}…],"truncated":bool}` in entry order.
    pub fn list(&self, collection: Option<&str>, limit: usize, max_bytes: usize) -> Vec<u8> {
        let mut out = b"{\"entries\":[".to_vec();
        let tail = b"],\"truncated\":false}".len();
        let mut truncated = false;
        let matching = self.entries.iter().filter(|e| match collection {
            Some(c) => self.s(e.collection) == c,
            None => true,
        });
        for (n, entry) in matching.enumerate() {
            let mut item = Vec::new();
            if n > 0 {
                item.push(b',');
            }
            self.head(&mut item, entry);
            item.push(b'}');
            if n == limit || out.len() + item.len() + tail > max_bytes {
                truncated = true;
                break;
            }
            out.extend_from_slice(&item);
        }
        out.extend_from_slice(if truncated {
            b"],\"truncated\":true}" as &[u8]
        } else {
            b"],\"truncated\":false}"
        });
        out
    }

    /// `{"id":…,"title":…,"collection":…,"tags":[…]` (open: the caller closes it).
    fn head(&self, out: &mut Vec<u8>, e: &Entry) {
        out.extend_from_slice(b"{\"id\":");
        write::string(out, self.s(e.id));
        out.extend_from_slice(b",\"title\":");
        write::string(out, self.s(e.title));
        out.extend_from_slice(b",\"collection\":");
        write::string(out, self.s(e.collection));
        out.extend_from_slice(b",\"tags\":[");
        for (i, t) in self.tags[e.tags.0 as usize..e.tags.1 as usize]
            .iter()
            .enumerate()
        {
            if i > 0 {
                out.push(b',');
            }
            write::string(out, self.s(*t));
        }
        out.push(b']');
    }
}

/// Bytes `c` takes inside a JSON string written by `write::string`.
fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    /// A hand-written index of three entries (idf = round(ln(1+(N-df+.5)/(df+.5))*1e6)).
    fn corpus() -> Corpus {
        let idf = |df: f64| ((1.0 + (3.0 - df + 0.5) / (df + 0.5)).ln() * 1e6).round() as u64;
        let text = format!(
            r#"{{"version":"1","entries":[["a","Alpha","docs","alpha beta beta",[]],["b","Beta","docs","gamma \"q\"",["t1"]],["c","Gamma","examples","alpha gamma",[]]],
            "lengths":"4 4 3","terms":"alpha beta gamma q t1","idf":"{} {} {} {} {}","postings":"0:2,2:1 0:3,1:1 1:1,2:2 1:1 1:1"}}"#,
            idf(2.0),
            idf(2.0),
            idf(2.0),
            idf(1.0),
            idf(1.0)
        );
        let doc = parse(text.as_bytes(), 16).unwrap();
        Corpus::from_value(doc.root()).unwrap()
    }

    fn s(b: Vec<u8>) -> String {
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn tokenization_is_ascii_only() {
        assert_eq!(
            tokenize("Hello, WORLD-42 café x_y"),
            ["hello", "world", "42", "caf", "x", "y"]
        );
        assert_eq!(tokenize(&"a".repeat(65)), Vec::<String>::new());
        assert_eq!(tokenize(&"a".repeat(64)).len(), 1);
    }

    #[test]
    fn search_ranks_with_bm25_and_breaks_ties_by_order() {
        let c = corpus();
        assert_eq!(c.rank("beta"), [0, 1]);
        assert_eq!(c.rank("BETA beta q"), [1, 0]);
        assert_eq!(c.rank("nothing here"), Vec::<u32>::new());
        let r = s(c.search("alpha", 10, 4096));
        assert!(r.starts_with(r#"{"results":[{"id":"a","title":"Alpha","collection":"docs","tags":[],"snippet":"alpha beta beta"},{"id":"c""#), "{}", r);
        assert_eq!(s(c.search("alpha", 1, 4096)).matches("\"id\"").count(), 1);
        // The byte cap drops hits rather than cutting JSON.
        let r = s(c.search("alpha", 10, 120));
        assert_eq!(r.matches("\"id\"").count(), 1);
        assert!(r.len() <= 120 && r.ends_with("]}"));
        assert_eq!(s(c.search("alpha", 10, 10)), r#"{"results":[]}"#);
    }

    #[test]
    fn postings_past_one_byte_numbers_rank_the_same() {
        for n in [0, 1, 127, 128, 300, 16_383, 16_384, 2_097_152, u32::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            put_varint(&mut out, 7);
            let mut at = 0;
            assert_eq!(
                (take_varint(&out, &mut at), take_varint(&out, &mut at)),
                (n, 7)
            );
            assert_eq!(at, out.len());
        }
        // 300 entries: entry numbers and a frequency over 127 take two bytes each.
        let n = 300;
        let entries: Vec<String> = (0..n)
            .map(|i| format!(r#"["e{i}","T","c","x",[]]"#))
            .collect();
        let lengths = vec!["500"; n].join(" ");
        let text = format!(
            r#"{{"entries":[{}],"lengths":"{lengths}","terms":"a b zz","idf":"1000000 2000000 3000000","postings":"299:200,5:1 130:1 0:1,129:3"}}"#,
            entries.join(",")
        );
        let doc = parse(text.as_bytes(), 16).unwrap();
        let c = Corpus::from_value(doc.root()).unwrap();
        assert_eq!(c.rank("a"), [299, 5]);
        assert_eq!(c.rank("b"), [130]);
        assert_eq!(c.rank("zz"), [129, 0]);
        assert_eq!(c.rank("zz b"), [129, 0, 130]);
        assert_eq!(c.rank("c"), Vec::<u32>::new());
    }

    #[test]
    fn read_and_list() {
        let c = corpus();
        assert_eq!(
            s(c.read("b", 4096).unwrap()),
            r#"{"id":"b","title":"Beta","collection":"docs","tags":["t1"],"text":"gamma \"q\"","truncated":false}"#
        );
        assert!(c.read("zz", 4096).is_none());
        let cut = s(c.read("b", 92).unwrap());
        assert_eq!(cut.len(), 92);
        assert!(
            cut.ends_with(r#""text":"gamma ","truncated":true}"#),
            "{}",
            cut
        );
        // An escape is never split.
        assert!(s(c.read("b", 93).unwrap()).ends_with(r#""text":"gamma ","truncated":true}"#));
        assert!(s(c.read("b", 94).unwrap()).ends_with(r#""text":"gamma \"","truncated":true}"#));
        assert_eq!(
            s(c.list(Some("examples"), 10, 4096)),
            r#"{"entries":[{"id":"c","title":"Gamma","collection":"examples","tags":[]}],"truncated":false}"#
        );
        assert_eq!(s(c.list(None, 1, 4096)).matches("\"id\"").count(), 1);
        assert!(s(c.list(None, 1, 4096)).ends_with("\"truncated\":true}"));
    }

    #[test]
    fn indexes_are_validated() {
        let one = r#""entries":[["a","t","c","x",[]]],"lengths":"1""#;
        let bad = [
            r#"{"entries":[],"lengths":"1","terms":"","idf":"","postings":""}"#.to_string(),
            format!(r#"{{{},"terms":"b a","idf":"1 1","postings":"0:1 0:1"}}"#, one),
            format!(r#"{{{},"terms":"a","idf":"1","postings":"1:1"}}"#, one),
            format!(r#"{{{},"terms":"a","idf":"1","postings":"0:0"}}"#, one),
            format!(r#"{{{},"terms":"a b","idf":"1","postings":"0:1 0:1"}}"#, one),
            format!(r#"{{{},"terms":"a","idf":"1","postings":"0:1 0:1"}}"#, one),
            format!(r#"{{{},"terms":"A","idf":"1","postings":"0:1"}}"#, one),
            format!(r#"{{{},"terms":"a","idf":"-1","postings":"0:1"}}"#, one),
            format!(r#"{{{},"terms":"a","idf":"1","postings":"0-1"}}"#, one),
            r#"{"entries":[["a","t","c","x",[]],["a","t","c","x",[]]],"lengths":"1 1","terms":"","idf":"","postings":""}"#.to_string(),
        ];
        let doc = parse(
            format!(r#"{{{},"terms":"a","idf":"1","postings":"0:1"}}"#, one).as_bytes(),
            16,
        )
        .unwrap();
        assert!(Corpus::from_value(doc.root()).is_ok());
        for b in &bad {
            let doc = parse(b.as_bytes(), 16).unwrap();
            assert!(Corpus::from_value(doc.root()).is_err(), "{}", b);
        }
    }
}
