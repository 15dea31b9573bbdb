//! The codec program: any program text the core accepts decodes any input without panicking, and
//! what it decodes is canonical: decoding its own output gives the same bytes again.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pulse_core::codec::{decode_input, encode_output, Program};
use pulse_core::json::parse;

fuzz_target!(|data: &[u8]| {
    // Program text and input text, separated by the first NUL.
    let (program, input) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => return,
    };
    let doc = match parse(program, 32) {
        Ok(d) => d,
        Err(_) => return,
    };
    let p = match Program::from_value(doc.root()) {
        Ok(p) => p,
        Err(_) => return,
    };
    let value = match parse(input, 64) {
        Ok(v) => v,
        Err(_) => return,
    };
    for out in [decode_input(&p, Some(value.root())), encode_output(&p, value.root())] {
        if let Ok(bytes) = out {
            let again = parse(&bytes, 64).expect("canonical output is JSON");
            let twice = decode_input(&p, Some(again.root())).expect("canonical output decodes");
            assert_eq!(bytes, twice, "decoding is not idempotent");
        }
    }
});
