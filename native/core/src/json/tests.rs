use std::borrow::Cow;

use super::*;
use JsonError::*;

const DEPTH: u32 = 32;

fn canonical(doc: &Document) -> String {
    let mut out = Vec::new();
    write::value(&mut out, doc.root());
    String::from_utf8(out).unwrap()
}

fn verdict(input: &[u8]) -> Result<String, JsonError> {
    parse(input, DEPTH).map(|d| canonical(&d))
}

/// Feeds `input` split at `cuts`; returns the verdict and the index of the chunk whose `feed`
/// failed (None when the error came from `finish` or there was none).
fn chunked(input: &[u8], cuts: &[usize]) -> (Result<String, JsonError>, Option<usize>) {
    let mut p = Parser::new(DEPTH);
    let mut start = 0;
    for (i, &end) in cuts.iter().chain(std::iter::once(&input.len())).enumerate() {
        if let Err(e) = p.feed(&input[start..end]) {
            // Sticky: later feeds and finish report the same error.
            assert_eq!(p.feed(b"]"), Err(e));
            assert_eq!(p.finish().map(|_| ()), Err(e));
            return (Err(e), Some(i));
        }
        start = end;
    }
    (p.finish().map(|d| canonical(&d)), None)
}

/// The byte whose arrival decides the error (from byte-by-byte feeding), None if only `finish` can.
fn deciding_byte(input: &[u8]) -> Option<usize> {
    let cuts: Vec<usize> = (1..input.len()).collect();
    chunked(input, &cuts).1
}

/// Same verdict for every split into two chunks and byte by byte, and a feed error always comes
/// from the chunk that holds the deciding byte.
fn assert_split_invariant(input: &[u8]) {
    let whole = verdict(input);
    let byte = deciding_byte(input);
    let cuts: Vec<usize> = (1..input.len()).collect();
    assert_eq!(
        chunked(input, &cuts).0,
        whole,
        "byte by byte: {:?}",
        String::from_utf8_lossy(input)
    );
    for cut in 0..=input.len() {
        let (v, at) = chunked(input, &[cut]);
        assert_eq!(
            v,
            whole,
            "split at {}: {:?}",
            cut,
            String::from_utf8_lossy(input)
        );
        let expected = byte.map(|b| if b < cut { 0 } else { 1 });
        assert_eq!(
            at,
            expected,
            "split at {}: {:?}",
            cut,
            String::from_utf8_lossy(input)
        );
    }
}

const VALID: &[(&str, &str)] = &[
    ("0", "0"),
    ("-0", "-0"),
    (" \t\r\n0 \t\r\n", "0"),
    ("123", "123"),
    ("-12.5e+10", "-12.5e+10"),
    ("0.0e0", "0.0e0"),
    ("1E-5", "1E-5"),
    ("1e308", "1e308"),
    ("1.7976931348623157e308", "1.7976931348623157e308"),
    ("1e-400", "1e-400"),
    ("0e99999999999999999999", "0e99999999999999999999"),
    (
        "1e0000000000000000000000000000001",
        "1e0000000000000000000000000000001",
    ),
    ("true", "true"),
    ("false", "false"),
    ("null", "null"),
    ("\"\"", "\"\""),
    ("\"abc\"", "\"abc\""),
    ("[]", "[]"),
    ("{}", "{}"),
    ("[ ]", "[]"),
    ("{ }", "{}"),
    (" [ 1 , 2 ,3 ] ", "[1,2,3]"),
    ("[[],[[]],{}]", "[[],[[]],{}]"),
    (
        "{\"a\" : {\"b\":[true,false,null]} , \"c\":\"d\"}",
        "{\"a\":{\"b\":[true,false,null]},\"c\":\"d\"}",
    ),
    (
        "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\"\\\"\\\\/\\b\\f\\n\\r\\t\"",
    ),
    ("\"\\u0041\\u00e9\\u20AC\"", "\"Aé€\""),
    ("\"\\ud83d\\ude00\"", "\"😀\""),
    ("\"\\uDBFF\\uDFFF\"", "\"\u{10FFFF}\""),
    ("\"\\u0000\\u001f\\u007f\"", "\"\\u0000\\u001f\u{7f}\""),
    ("\"é€😀\"", "\"é€😀\""),
    (
        "{\"a\":{\"a\":1},\"b\":{\"a\":2}}",
        "{\"a\":{\"a\":1},\"b\":{\"a\":2}}",
    ),
    ("{\"a\":1,\"A\":2,\"a \":3}", "{\"a\":1,\"A\":2,\"a \":3}"),
    (
        "[\"a\",1,[2,{\"x\":[]}],null]",
        "[\"a\",1,[2,{\"x\":[]}],null]",
    ),
];

const INVALID: &[(&[u8], JsonError)] = &[
    (b"", Incomplete),
    (b"  \r\n\t", Incomplete),
    (b"[", Incomplete),
    (b"[1,", Incomplete),
    (b"{", Incomplete),
    (b"{\"a\"", Incomplete),
    (b"{\"a\":", Incomplete),
    (b"{\"a\":1", Incomplete),
    (b"\"abc", Incomplete),
    (b"\"\\", Incomplete),
    (b"\"\\u12", Incomplete),
    (b"\"\\ud800", Incomplete),
    (b"\"\\ud800\\", Incomplete),
    (b"\"\\ud800\\u", Incomplete),
    (b"\"\xC3", Incomplete),
    (b"\"\xF0\x9F\x98", Incomplete),
    (b"tru", Incomplete),
    (b"-", Incomplete),
    (b"1.", Incomplete),
    (b"1e", Incomplete),
    (b"1e+", Incomplete),
    (b"[1", Incomplete),
    (b"01", Trailing),
    (b"1 2", Trailing),
    (b"1x", Trailing),
    (b"{}x", Trailing),
    (b"[]]", Trailing),
    (b"nullx", Trailing),
    (b"\"a\"\"b\"", Trailing),
    (b"1e5.0", Trailing),
    (b"0 \x00", Trailing),
    (b"[01]", Syntax),
    (b"[-01]", Syntax),
    (b"-a", Syntax),
    (b"--1", Syntax),
    (b"-.5", Syntax),
    (b".5", Syntax),
    (b"1.e5", Syntax),
    (b"[1.]", Syntax),
    (b"1.5e", Incomplete),
    (b"[1e]", Syntax),
    (b"[1e+]", Syntax),
    (b"+1", Syntax),
    (b"[1,]", Syntax),
    (b"[,1]", Syntax),
    (b"[1 2]", Syntax),
    (b"[1}", Syntax),
    (b"{\"a\":1]", Syntax),
    (b"]", Syntax),
    (b"}", Syntax),
    (b"{,}", Syntax),
    (b"{\"a\" 1}", Syntax),
    (b"{\"a\":1,}", Syntax),
    (b"{\"a\"::1}", Syntax),
    (b"{1:2}", Syntax),
    (b"{'a':2}", Syntax),
    (b"'a'", Syntax),
    (b"\"\\x\"", Syntax),
    (b"\"\\U0041\"", Syntax),
    (b"\"\\u12G4\"", Syntax),
    (b"\"\\u12\"", Syntax),
    (b"\"a\x01\"", Syntax),
    (b"\"a\tb\"", Syntax),
    (b"\"a\nb\"", Syntax),
    (b"\"\x00\"", Syntax),
    (b"nul", Incomplete),
    (b"nulx", Syntax),
    (b"True", Syntax),
    (b"NaN", Syntax),
    (b"Infinity", Syntax),
    (b"-Infinity", Syntax),
    (b"/*c*/1", Syntax),
    (b"1//c", Trailing),
    (b"\xEF\xBB\xBF1", Syntax),
    (b"\x0c1", Syntax),
    (b"\xA01", Syntax),
    (b"[\"a\"\xC3\xA9]", Syntax),
    (b"\"\x80\"", Utf8),
    (b"\"\xBF\"", Utf8),
    (b"\"\xC0\x80\"", Utf8),
    (b"\"\xC1\xBF\"", Utf8),
    (b"\"\xE0\x80\x80\"", Utf8),
    (b"\"\xE0\x9F\xBF\"", Utf8),
    (b"\"\xED\xA0\x80\"", Utf8),
    (b"\"\xED\xBF\xBF\"", Utf8),
    (b"\"\xF0\x80\x80\x80\"", Utf8),
    (b"\"\xF0\x8F\xBF\xBF\"", Utf8),
    (b"\"\xF4\x90\x80\x80\"", Utf8),
    (b"\"\xF5\x80\x80\x80\"", Utf8),
    (b"\"\xFF\"", Utf8),
    (b"\"\xFE\"", Utf8),
    (b"\"\xC3\"", Utf8),
    (b"\"\xC3a\"", Utf8),
    (b"\"\xE2\x82\"", Utf8),
    (b"\"\xF0\x9F\x98\"", Utf8),
    (b"\"\xE2\x82\xAC\xAC\"", Utf8),
    (b"{\"a\":1,\"a\":2}", DuplicateKey),
    (b"{\"a\":1,\"\\u0061\":2}", DuplicateKey),
    (b"{\"\\u0061\":1,\"a\":2}", DuplicateKey),
    (b"{\"\\u0061\":1,\"\\u0061\":2}", DuplicateKey),
    (b"{\"a/b\":1,\"a\\/b\":2}", DuplicateKey),
    (b"{\"\\u00e9\":1,\"\xC3\xA9\":2}", DuplicateKey),
    (
        b"{\"\\ud83d\\ude00\":1,\"\xF0\x9F\x98\x80\":2}",
        DuplicateKey,
    ),
    (b"{\"\":1,\"\":2}", DuplicateKey),
    (b"{\"a\":1,\"b\":{\"a\":2},\"a\":3}", DuplicateKey),
    (b"{\"a\":1,\"a\":", DuplicateKey),
    (b"[{\"a\":1,\"a\":2}]", DuplicateKey),
    (b"[[{\"a\":1,\"a\":2}]]", DuplicateKey),
    (b"{\"x\":[{\"a\":1,\"\\u0061\":2}]}", DuplicateKey),
    (b"[1,{\"x\":[{}]},{\"a\":{},\"a\":[]}]", DuplicateKey),
    (b"\"\\ud800\"", LoneSurrogate),
    (b"\"\\udc00\"", LoneSurrogate),
    (b"\"\\udfff\"", LoneSurrogate),
    (b"\"\\ud800\\u0041\"", LoneSurrogate),
    (b"\"\\ud800\\ud800\"", LoneSurrogate),
    (b"\"\\ud800x\"", LoneSurrogate),
    (b"\"\\ud800\\n\"", LoneSurrogate),
    (b"\"\\ud800\\x\"", LoneSurrogate),
    (b"\"\\udc00\\ud800\"", LoneSurrogate),
    (b"{\"\\ud800\":1}", LoneSurrogate),
    (b"1e309", NumberRange),
    (b"-1e309", NumberRange),
    (b"1e400", NumberRange),
    (b"[1e400]", NumberRange),
    (b"1.7976931348623159e308", NumberRange),
    (b"1e00000000000000000000000000309", NumberRange),
    (b"{\"a\":-1E999,\"b\"", NumberRange),
    (b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", Depth),
    (b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{}", Depth),
    (b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", Incomplete),
];

#[test]
fn grammar_positives() {
    for (input, want) in VALID {
        assert_eq!(verdict(input.as_bytes()).as_deref(), Ok(*want), "{}", input);
    }
}

#[test]
fn grammar_negatives() {
    for (input, want) in INVALID {
        assert_eq!(
            verdict(input),
            Err(*want),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn every_error_kind_is_covered() {
    for kind in [
        Syntax,
        Utf8,
        Depth,
        DuplicateKey,
        LoneSurrogate,
        NumberRange,
        Trailing,
        Incomplete,
    ] {
        assert!(INVALID.iter().any(|(_, e)| *e == kind), "{:?}", kind);
        assert!(kind.code().starts_with("json_"));
        assert!(!kind.message().is_empty());
    }
}

#[test]
fn chunk_split_invariance() {
    for (input, _) in VALID {
        assert_split_invariant(input.as_bytes());
    }
    for (input, _) in INVALID {
        assert_split_invariant(input);
    }
    assert_split_invariant(&nested(32, b"1"));
    assert_split_invariant(&nested(33, b"1"));
    assert_split_invariant(b"{\"a\":[1,{\"b\":\"\\ud83d\\ude00\xC3\xA9\"}],\"c\":-0.5e-3}");
}

#[test]
fn random_multi_splits_agree() {
    let inputs: Vec<Vec<u8>> = vec![
        big_object(300, "k", false),
        b"[{\"\xE2\x82\xAC\\u20ac\":[1e5,-0.0,true]},\"\\ud83d\\ude00\",{\"a\":1,\"a\":2}]"
            .to_vec(),
        nested(40, b"null"),
    ];
    let mut seed = 0x2545_f491u32;
    for input in &inputs {
        let whole = verdict(input);
        for _ in 0..50 {
            let mut cuts = Vec::new();
            let mut at = 0;
            loop {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                at += 1 + (seed as usize % 17);
                if at >= input.len() {
                    break;
                }
                cuts.push(at);
            }
            assert_eq!(chunked(input, &cuts).0, whole);
        }
    }
}

#[test]
fn errors_are_reported_by_the_deciding_feed() {
    let cases: &[(&[u8], JsonError, usize)] = &[
        (b"{\"a\":1,\"a\"", DuplicateKey, 9),
        (b"[1,2,x", Syntax, 5),
        (b"\"\xC0", Utf8, 1),
        (b"\"\xE0\x80", Utf8, 2),
        (b"\"\\ud800\"", LoneSurrogate, 7),
        (b"\"\\udc00", LoneSurrogate, 6),
        (b"[1e400,", NumberRange, 6),
        (b"{} x", Trailing, 3),
        (b"[[[", Depth, 2),
    ];
    for (input, err, at) in cases {
        let mut p = Parser::new(if *err == Depth { 2 } else { DEPTH });
        assert_eq!(
            p.feed(&input[..*at]),
            Ok(()),
            "{:?}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(
            p.feed(&input[*at..*at + 1]),
            Err(*err),
            "{:?}",
            String::from_utf8_lossy(input)
        );
        if *err != Depth {
            assert_eq!(deciding_byte(input), Some(*at));
        }
    }
}

fn nested(levels: usize, inner: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    for i in 0..levels {
        v.extend_from_slice(if i % 2 == 0 { b"[" } else { b"{\"k\":" });
    }
    v.extend_from_slice(inner);
    for i in (0..levels).rev() {
        v.push(if i % 2 == 0 { b']' } else { b'}' });
    }
    v
}

#[test]
fn depth_boundary() {
    assert!(parse(&nested(32, b"1"), 32).is_ok());
    assert!(parse(&nested(32, b"[]"), 32).is_err());
    assert_eq!(parse(&nested(33, b"1"), 32).map(|_| ()), Err(Depth));
    assert_eq!(parse(&nested(32, b"{}"), 32).map(|_| ()), Err(Depth));
    assert!(parse(&nested(31, b"{}"), 32).is_ok());
    // The 33rd opening bracket is rejected by the feed that carries it, before any closing.
    let deep = nested(33, b"1");
    let open33 = deep
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'[' || b == b'{')
        .nth(32)
        .unwrap()
        .0;
    let mut p = Parser::new(32);
    assert_eq!(p.feed(&deep[..open33]), Ok(()));
    assert_eq!(p.feed(&deep[open33..open33 + 1]), Err(Depth));
    // Scalars add no depth; depth 0 admits only scalars.
    assert!(parse(b"1", 0).is_ok());
    assert_eq!(parse(b"[]", 0).map(|_| ()), Err(Depth));
    assert!(parse(b"[]", 1).is_ok());
    assert_eq!(parse(b"[[]]", 1).map(|_| ()), Err(Depth));
    // Depth is about nesting, not the number of containers.
    let wide = format!("[{}]", vec!["[[]]"; 1000].join(","));
    assert!(parse(wide.as_bytes(), 3).is_ok());
}

fn big_object(keys: usize, prefix: &str, escape: bool) -> Vec<u8> {
    let mut s = String::from("{");
    for i in 0..keys {
        if i > 0 {
            s.push(',');
        }
        if escape {
            // The first letter of the prefix as \u00XX: same decoded name, different source.
            let mut chars = prefix.chars();
            let first = chars.next().unwrap();
            s.push_str(&format!(
                "\"\\u{:04x}{}{}\":{}",
                first as u32,
                chars.as_str(),
                i,
                i
            ));
        } else {
            s.push_str(&format!("\"{}{}\":{}", prefix, i, i));
        }
    }
    s.push('}');
    s.into_bytes()
}

#[test]
fn duplicate_keys_in_big_objects() {
    let ok = big_object(10_000, "key", false);
    let doc = parse(&ok, DEPTH).unwrap();
    let obj = doc.root().as_object().unwrap();
    assert_eq!(obj.len(), 10_000);
    assert_eq!(
        obj.get("key9999")
            .and_then(|v| v.as_number())
            .map(|n| n.raw()),
        Some("9999")
    );
    assert!(obj.get("key10000").is_none());

    // Escaped sources of the same names are distinct from each other too.
    assert!(parse(&big_object(10_000, "key", true), DEPTH).is_ok());

    for at in [0usize, 7, 8, 9, 500, 9_998] {
        for escape in [false, true] {
            let mut dup = big_object(10_000, "key", false);
            dup.pop();
            let name = if escape {
                format!("\\u006bey{}", at)
            } else {
                format!("key{}", at)
            };
            dup.extend_from_slice(format!(",\"{}\":0}}", name).as_bytes());
            assert_eq!(
                parse(&dup, DEPTH).map(|_| ()),
                Err(DuplicateKey),
                "{} {}",
                at,
                escape
            );
        }
    }

    // Every object size around the linear/hash switch, at the root and nested below arrays
    // and objects.
    let wrappers = [
        ("", ""),
        ("[[", "]]"),
        ("{\"x\":[", "]}"),
        ("[{\"x\":{},\"y\":", "}]"),
    ];
    for size in 1..20 {
        for (open, close) in wrappers {
            let mut dup = open.as_bytes().to_vec();
            dup.extend_from_slice(&big_object(size, "k", false));
            dup.pop();
            dup.extend_from_slice(format!(",\"k{}\":0}}{}", size - 1, close).as_bytes());
            let shown = String::from_utf8_lossy(&dup).into_owned();
            assert_eq!(
                parse(&dup, DEPTH).map(|_| ()),
                Err(DuplicateKey),
                "{}",
                shown
            );
            let mut ok = open.as_bytes().to_vec();
            ok.extend_from_slice(&big_object(size, "k", false));
            ok.extend_from_slice(close.as_bytes());
            assert!(
                parse(&ok, DEPTH).is_ok(),
                "{}",
                String::from_utf8_lossy(&ok)
            );
        }
    }
}

#[test]
fn string_specials_at_every_offset() {
    // The word-at-a-time scan must stop exactly at the first special byte wherever it falls.
    for len in 0..24 {
        for at in 0..=len {
            let with = |insert: &[u8]| {
                let mut v = b"\"".to_vec();
                v.extend_from_slice("a".repeat(at).as_bytes());
                v.extend_from_slice(insert);
                v.extend_from_slice("b".repeat(len - at).as_bytes());
                v.push(b'"');
                v
            };
            let text = |mid: &str| format!("{}{}{}", "a".repeat(at), mid, "b".repeat(len - at));
            let decoded = |input: &[u8]| {
                parse(input, DEPTH).map(|d| d.root().as_string().unwrap().as_str().into_owned())
            };
            assert_eq!(decoded(&with(b"")), Ok(text("")));
            assert_eq!(decoded(&with(b"\\n")), Ok(text("\n")));
            assert_eq!(decoded(&with(b"\\\"")), Ok(text("\"")));
            assert_eq!(decoded(&with("\u{e9}".as_bytes())), Ok(text("\u{e9}")));
            assert_eq!(
                decoded(&with("\u{1F600}".as_bytes())),
                Ok(text("\u{1F600}"))
            );
            assert_eq!(decoded(&with(b"\x7f")), Ok(text("\u{7f}")));
            assert_eq!(decoded(&with(b"\x01")), Err(Syntax));
            assert_eq!(decoded(&with(b"\x1f")), Err(Syntax));
            assert_eq!(decoded(&with(b"\x80")), Err(Utf8));
            assert_eq!(decoded(&with(b"\xff")), Err(Utf8));
            assert_eq!(decoded(&with(b"\"")), Err(Trailing));
        }
    }
}

#[test]
fn utf8_boundaries() {
    let ok: &[&[u8]] = &[
        b"\xC2\x80",
        b"\xDF\xBF",
        b"\xE0\xA0\x80",
        b"\xE1\x80\x80",
        b"\xEC\xBF\xBF",
        b"\xED\x80\x80",
        b"\xED\x9F\xBF",
        b"\xEE\x80\x80",
        b"\xEF\xBF\xBF",
        b"\xF0\x90\x80\x80",
        b"\xF1\x80\x80\x80",
        b"\xF3\xBF\xBF\xBF",
        b"\xF4\x80\x80\x80",
        b"\xF4\x8F\xBF\xBF",
    ];
    for seq in ok {
        let mut doc = b"\"".to_vec();
        doc.extend_from_slice(seq);
        doc.push(b'"');
        let parsed = parse(&doc, DEPTH).unwrap();
        let s = parsed.root().as_string().unwrap();
        assert_eq!(s.as_str().as_bytes(), *seq);
        assert!(matches!(s.as_str(), Cow::Borrowed(_)));
        assert_split_invariant(&doc);
    }
}

#[test]
fn numbers() {
    let num = |s: &str| {
        let doc = parse(s.as_bytes(), DEPTH).unwrap();
        let n = doc.root().as_number().unwrap();
        (n.raw().to_string(), n.as_f64(), n.as_safe_integer())
    };
    assert_eq!(
        num("9007199254740991"),
        (
            "9007199254740991".into(),
            9007199254740991.0,
            Some(9007199254740991)
        )
    );
    assert_eq!(num("-9007199254740991").2, Some(-9007199254740991));
    assert_eq!(num("9007199254740992").2, None);
    assert_eq!(num("-9007199254740992").2, None);
    assert_eq!(num("12345678901234567890").2, None);
    assert_eq!(num("0").2, Some(0));
    assert_eq!(num("-0").2, Some(0));
    assert_eq!(num("42").2, Some(42));
    assert_eq!(num("1.0").2, None);
    assert_eq!(num("1e2").2, None);
    assert_eq!(num("1e2").1, 100.0);
    assert_eq!(num("-0.5").1, -0.5);
    assert_eq!(num("1e-400").1, 0.0);
    assert!(num("-0").1.is_sign_negative());
    assert_eq!(num("1e308").1, 1e308);
    let long = format!("1{}", "0".repeat(308));
    assert_eq!(num(&long).1, 1e308);
    assert_eq!(
        verdict(format!("1{}", "0".repeat(309)).as_bytes()),
        Err(NumberRange)
    );
    let long_frac = format!("0.{}1", "0".repeat(500));
    assert_eq!(num(&long_frac).1, 0.0);
}

#[test]
fn strings_borrow_and_decode() {
    let doc = parse(
        b"[\"plain\",\"a\\nb\",\"\\u00e9t\\u00e9\",\"\\ud83d\\ude00!\"]",
        DEPTH,
    )
    .unwrap();
    let items: Vec<Str<'_>> = doc
        .root()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_string().unwrap())
        .collect();
    assert!(matches!(items[0].as_str(), Cow::Borrowed("plain")));
    assert!(!items[0].has_escapes());
    assert_eq!(items[1].as_str(), "a\nb");
    assert_eq!(items[1].raw(), b"a\\nb");
    assert_eq!(items[2].as_str(), "été");
    assert_eq!(items[3].as_str(), "😀!");
    assert!(items[0].eq_str("plain"));
    assert!(!items[0].eq_str("plai"));
    assert!(items[1].eq_str("a\nb"));
    assert!(!items[1].eq_str("a\\nb"));
    assert!(!items[1].eq_str("a\nbc"));
    assert!(items[2].eq_str("été"));
    assert!(items[3].eq_str("😀!"));
    assert!(!items[3].eq_str("😀"));
}

#[test]
fn containers_navigate() {
    let doc = parse(
        b"{\"a\":[1,[2,3],{\"x\":{}}],\"b\":{\"c\":[]},\"\\u0064\":\"e\",\"f\":null}",
        DEPTH,
    )
    .unwrap();
    let root = doc.root().as_object().unwrap();
    assert_eq!(root.len(), 4);
    let keys: Vec<String> = root.iter().map(|(k, _)| k.as_str().into_owned()).collect();
    assert_eq!(keys, ["a", "b", "d", "f"]);
    let a = root.get("a").unwrap().as_array().unwrap();
    assert_eq!(a.len(), 3);
    assert_eq!(a.get(1).unwrap().as_array().unwrap().len(), 2);
    assert!(a.get(3).is_none());
    assert_eq!(format!("{:?}", a.get(2).unwrap()), "{\"x\":{}}");
    assert_eq!(
        format!("{:?}", root.get("d").unwrap().as_string().unwrap()),
        "\"e\""
    );
    assert!(root
        .get("b")
        .unwrap()
        .as_object()
        .unwrap()
        .get("c")
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    assert!(root.get("d").unwrap().as_string().unwrap().eq_str("e"));
    assert!(root.get("f").unwrap().is_null());
    assert!(root.get("c").is_none());
    assert_eq!(a.iter().count(), 3);
}

#[test]
fn writer_strings() {
    let w = |s: &str| {
        let mut out = Vec::new();
        write::string(&mut out, s);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(w(""), "\"\"");
    assert_eq!(w("a\"b\\c"), "\"a\\\"b\\\\c\"");
    assert_eq!(w("\n\r\t\u{8}\u{c}"), "\"\\n\\r\\t\\b\\f\"");
    assert_eq!(w("\u{0}\u{1}\u{1f}"), "\"\\u0000\\u0001\\u001f\"");
    assert_eq!(w("é😀\u{7f}\u{2028}/"), "\"é😀\u{7f}\u{2028}/\"");
    // Every string the writer produces parses back to itself.
    let all: String = (0u32..0x300)
        .filter_map(char::from_u32)
        .chain("😀\u{10FFFF}".chars())
        .collect();
    let text = w(&all);
    let doc = parse(text.as_bytes(), DEPTH).unwrap();
    assert_eq!(doc.root().as_string().unwrap().as_str(), all);
}

#[test]
fn writer_round_trips() {
    let inputs: &[&str] = &[
        " { \"b\" : [ 1 , -2.5E+3 , true ] , \"a\" : { } , \"\\u0063\\n\" : \"\\u0001\\/\" } ",
        "[\"\\ud83d\\ude00\",\"\\\"\",0,-0,1e-7,null,false,[[[]]]]",
        "\"\\u00e9\\u2028\\t\"",
    ];
    let expected: &[&str] = &[
        "{\"b\":[1,-2.5E+3,true],\"a\":{},\"c\\n\":\"\\u0001/\"}",
        "[\"😀\",\"\\\"\",0,-0,1e-7,null,false,[[[]]]]",
        "\"é\u{2028}\\t\"",
    ];
    for (input, want) in inputs.iter().zip(expected) {
        let once = verdict(input.as_bytes()).unwrap();
        assert_eq!(once, *want);
        assert_eq!(verdict(once.as_bytes()).unwrap(), once);
    }
}

#[test]
fn feed_after_error_and_empty_chunks() {
    let mut p = Parser::new(DEPTH);
    assert_eq!(p.feed(b""), Ok(()));
    assert_eq!(p.feed(b"[1"), Ok(()));
    assert_eq!(p.feed(b""), Ok(()));
    assert_eq!(p.feed(b"]"), Ok(()));
    assert_eq!(p.feed(b"  "), Ok(()));
    assert_eq!(p.finish().map(|d| canonical(&d)), Ok("[1]".to_string()));
    assert_eq!(Parser::new(DEPTH).finish().map(|_| ()), Err(Incomplete));
}

#[test]
fn document_keeps_body() {
    let doc = parse(b" [\"x\"] ", DEPTH).unwrap();
    assert_eq!(doc.bytes(), b" [\"x\"] ");
}

#[test]
fn mutated_documents_agree_however_split() {
    // Random byte edits of valid documents hit every state with every kind of byte; the verdict
    // and the deciding byte must not depend on how the body is split.
    let seeds: &[&[u8]] = &[
        b"{\"a\":[1,-2.5e+3,true,false,null],\"b\\u00e9\":{\"c\":\"x\\ny\"}}",
        b"[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\",\"\\ud83d\\ude00\",0.5,{\"k\":{}}]",
        b"  {\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9}  ",
    ];
    let alphabet: &[u8] = b"{}[]:,\"\\ u0123456789abcdefABCDEF.eE+-tfnlrsx\t\n\r\x00\x1f\x7f\x80\xbf\xc2\xe0\xed\xf0\xf4\xff";
    let mut seed = 0x9e37_79b9u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as usize
    };
    let mut kinds = std::collections::HashSet::new();
    for round in 0..1500 {
        let mut doc = seeds[round % seeds.len()].to_vec();
        for _ in 0..1 + next() % 3 {
            let at = next() % (doc.len() + 1);
            let b = alphabet[next() % alphabet.len()];
            match next() % 3 {
                0 if at < doc.len() => doc[at] = b,
                1 if at < doc.len() => {
                    doc.remove(at);
                }
                _ => doc.insert(at, b),
            }
        }
        let whole = verdict(&doc);
        kinds.insert(format!("{:?}", whole.as_ref().map(|_| ())));
        let byte = deciding_byte(&doc);
        let mut cuts = Vec::new();
        let mut at = 0;
        loop {
            at += 1 + next() % 7;
            if at >= doc.len() {
                break;
            }
            cuts.push(at);
        }
        let (v, chunk) = chunked(&doc, &cuts);
        assert_eq!(v, whole, "{:?}", String::from_utf8_lossy(&doc));
        // The failing chunk is the one holding the deciding byte.
        let expected = byte.map(|b| cuts.iter().filter(|&&c| c <= b).count());
        assert_eq!(chunk, expected, "{:?}", String::from_utf8_lossy(&doc));
    }
    // The edits reached most verdicts, so the test exercises more than one path.
    assert!(kinds.len() >= 6, "{:?}", kinds);
}
