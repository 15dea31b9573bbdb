//! The `requestState` verifier: fuzzed text never opens under a sealing key (a forgery), sealed
//! state opens to what was sealed, and only for its binding, before its expiry and untampered.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pulse_core::hmac::Hmac;
use pulse_core::json::{parse, write};
use pulse_core::state::{binding, Continuation, StateKey, STATE_TTL_MS};

const NOW: f64 = 1_780_000_000_000.0;

fuzz_target!(|data: &[u8]| {
    let key = StateKey::Sealed(Box::new(Hmac::new(&[0x5a; 32])));
    let (mode, rest) = match data.split_first() {
        Some(x) => x,
        None => return,
    };
    let bind = binding("tools/call", "t", rest);
    if mode % 2 == 0 {
        assert!(key.open(rest, &bind, NOW).is_none(), "fuzzed text opened");
        // Unsealed state is only decoded: it may open, but must not panic.
        let _ = StateKey::Unsealed.open(rest, &bind, NOW);
        return;
    }
    // Sealed state round-trips: responses are a canonical JSON object, as the core writes them.
    let responses = match parse(rest, 16) {
        Ok(doc) if doc.root().as_object().is_some() => {
            let mut out = Vec::new();
            write::value(&mut out, doc.root());
            out
        }
        _ => b"{}".to_vec(),
    };
    let c = Continuation { round: (*mode as usize) >> 1, responses };
    let sealed = key.seal(&bind, &c, NOW);
    assert_eq!(key.open(sealed.as_bytes(), &bind, NOW + 1.0), Some(c));
    let other = binding("tools/call", "u", rest);
    assert!(key.open(sealed.as_bytes(), &other, NOW).is_none(), "opened for another binding");
    assert!(
        key.open(sealed.as_bytes(), &bind, NOW + STATE_TTL_MS as f64).is_none(),
        "opened after its expiry"
    );
    let mut tampered = sealed.into_bytes();
    let at = rest.len() % tampered.len();
    tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
    assert!(key.open(&tampered, &bind, NOW).is_none(), "tampered state opened");
});
