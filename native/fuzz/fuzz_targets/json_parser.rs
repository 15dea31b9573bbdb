//! The streaming JSON parser against serde_json: the same accept/reject verdict and the same value,
//! and the same verdict however the input is cut into chunks.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pulse_core::json::{parse, Parser};
use pulse_core_fuzz::{oracle, split, Json};

/// Deep enough to exercise the limit, below the oracle's own recursion limit of 128.
const DEPTH: u32 = 40;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the cut points: up to 7 cuts of the remaining input.
    let (cuts, body) = match data.split_first() {
        Some((&n, rest)) if rest.len() > (n % 8) as usize => rest.split_at((n % 8) as usize),
        _ => (&[][..], data),
    };
    let whole = parse(body, DEPTH);
    let expected = oracle(body);
    match (&whole, &expected) {
        (Ok(doc), Some(v)) => {
            assert!(v.depth() <= DEPTH, "accepted past the depth limit");
            assert_eq!(&Json::from_core(doc.root()), v, "values differ");
        }
        (Err(e), Some(v)) => assert!(
            v.depth() > DEPTH,
            "rejected ({:?}) what the oracle accepts",
            e
        ),
        (Ok(_), None) => panic!("accepted what the oracle rejects"),
        (Err(_), None) => {}
    }
    let mut p = Parser::new(DEPTH);
    let mut fed = Ok(());
    for chunk in split(body, cuts) {
        fed = p.feed(chunk);
        if fed.is_err() {
            break;
        }
    }
    let chunked = fed.and_then(|()| p.finish());
    match (&whole, &chunked) {
        (Ok(a), Ok(b)) => assert_eq!(a.bytes(), b.bytes()),
        (Err(a), Err(b)) => assert_eq!(a, b, "the verdict depends on the chunking"),
        _ => panic!("the verdict depends on the chunking"),
    }
});
