//! A bare Fastly Compute service: reads the downstream body to its end and answers a fixed JSON-RPC
//! result. It is the bench's floor for one request on Viceroy; it shares the Native service's
//! hostcall bindings so both pay the same price per call.
#![forbid(unsafe_op_in_unsafe_fn)]

#[cfg(target_arch = "wasm32")]
#[allow(dead_code)]
#[path = "../../../../native/edge/src/fastly.rs"]
mod fastly;

#[cfg(target_arch = "wasm32")]
const REPLY: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"text\":\"hello\"}"}],"structuredContent":{"text":"hello"}}}"#;

/// `BARE_DATA_BYTES` at build time: a data segment of that many bytes, which every instantiation
/// copies, as it copies the Native service's snapshot. The bench sizes it to that snapshot's data
/// section to tell the copy's share of a request from the rest.
const DATA_BYTES: usize = parse(option_env!("BARE_DATA_BYTES"));

const fn parse(v: Option<&str>) -> usize {
    let b = match v {
        Some(v) => v.as_bytes(),
        None => return 0,
    };
    let (mut n, mut i) = (0, 0);
    while i < b.len() {
        n = n * 10 + (b[i] - b'0') as usize;
        i += 1;
    }
    n
}

/// Non-zero, so it is a data segment and not zeroed memory.
static DATA: [u8; DATA_BYTES] = [1; DATA_BYTES];

#[cfg(target_arch = "wasm32")]
fn main() {
    fastly::init();
    let answered = (|| {
        let (_req, body) = fastly::downstream()?;
        let mut buf = [0u8; 16384];
        let mut n = 0;
        loop {
            let read = fastly::body_read(body, &mut buf)?;
            if read == 0 {
                break;
            }
            n += read;
        }
        if DATA_BYTES > 0 {
            // SAFETY: an in-bounds read of a static; volatile so the segment is not optimised away.
            let touched = unsafe { std::ptr::read_volatile(&DATA[n % DATA_BYTES.max(1)]) };
            if touched != 1 {
                std::process::exit(1);
            }
        }
        let resp = fastly::response_new()?;
        fastly::response_status_set(resp, 200)?;
        fastly::response_header_append(resp, b"content-type", b"application/json")?;
        let out = fastly::body_new()?;
        fastly::body_write_all(out, REPLY)?;
        fastly::send_downstream(resp, out)
    })();
    if answered.is_err() {
        std::process::exit(1);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("bare-compute is a Fastly Compute service: build it with --target wasm32-wasi");
    std::process::exit(2);
}
