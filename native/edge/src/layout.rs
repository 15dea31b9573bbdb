//! Where the service's static data falls in linear memory. Every request touches `.data` and `.bss`
//! (under a kilobyte: the allocator's state, the prebuilt engine's handle, the runtime's and libc's
//! own) before anything else; on one host page that is one copy-on-write fault, across two it is
//! two. The linker lays out the stack, `.rodata`, `.data`, `.bss` in that order, so a padding in
//! `.rodata`, sized by the build (scripts/build-core.mjs measures the first link), starts `.data`
//! on a page.

/// The padding's bytes: `PULSE_EDGE_RODATA_PAD` at compile time, else none.
const PAD: usize = decimal(option_env!("PULSE_EDGE_RODATA_PAD"));

static RODATA_PAD: [u8; PAD] = [0; PAD];

const fn decimal(text: Option<&str>) -> usize {
    let bytes = match text {
        Some(t) => t.as_bytes(),
        None => return 0,
    };
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        assert!(
            bytes[i].is_ascii_digit() && i < 4,
            "PULSE_EDGE_RODATA_PAD is a number of bytes below 10000"
        );
        n = n * 10 + (bytes[i] - b'0') as usize;
        i += 1;
    }
    n
}

/// Refers to the padding, which the linker would otherwise drop as data nothing uses.
pub fn keep() {
    let padding: *const [u8; PAD] = &RODATA_PAD;
    // SAFETY: a read of this local, volatile so that the address stays in the code.
    unsafe { std::ptr::read_volatile(&padding) };
}
