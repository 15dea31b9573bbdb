//! Thin bindings to the Fastly Compute hostcalls this service uses, as declared by the witx files of
//! the compute-at-edge ABI (fastly's Viceroy repository, `wasm_abi/compute-at-edge-abi`). Lowering:
//! handles and enums are `u32`, a `(list u8)`/`string` is pointer + length, every `expected` result is
//! written through trailing out-pointers, and the return value is the `fastly_status`.
//!
//! The safe wrappers below are the only callers of the raw imports.

pub type Handle = u32;
pub const INVALID: Handle = u32::MAX;

/// `$fastly_status` values this service distinguishes.
pub const OK: u32 = 0;
pub const BUFLEN: u32 = 4;
pub const NONE: u32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status(pub u32);

fn check(status: u32) -> Result<(), Status> {
    if status == OK {
        Ok(())
    } else {
        Err(Status(status))
    }
}

mod raw {
    use super::Handle;

    #[link(wasm_import_module = "fastly_abi")]
    extern "C" {
        pub fn init(abi_version: u64) -> u32;
    }

    #[link(wasm_import_module = "fastly_http_req")]
    extern "C" {
        pub fn body_downstream_get(req_out: *mut Handle, body_out: *mut Handle) -> u32;
        #[link_name = "new"]
        pub fn req_new(req_out: *mut Handle) -> u32;
        pub fn method_get(
            req: Handle,
            buf: *mut u8,
            buf_len: usize,
            nwritten_out: *mut usize,
        ) -> u32;
        pub fn method_set(req: Handle, method: *const u8, method_len: usize) -> u32;
        pub fn uri_get(req: Handle, buf: *mut u8, buf_len: usize, nwritten_out: *mut usize) -> u32;
        pub fn uri_set(req: Handle, uri: *const u8, uri_len: usize) -> u32;
        pub fn header_names_get(
            req: Handle,
            buf: *mut u8,
            buf_len: usize,
            cursor: u32,
            ending_cursor_out: *mut i64,
            nwritten_out: *mut usize,
        ) -> u32;
        pub fn header_values_get(
            req: Handle,
            name: *const u8,
            name_len: usize,
            buf: *mut u8,
            buf_len: usize,
            cursor: u32,
            ending_cursor_out: *mut i64,
            nwritten_out: *mut usize,
        ) -> u32;
        pub fn header_append(
            req: Handle,
            name: *const u8,
            name_len: usize,
            value: *const u8,
            value_len: usize,
        ) -> u32;
        pub fn send_async(
            req: Handle,
            body: Handle,
            backend: *const u8,
            backend_len: usize,
            pending_out: *mut Handle,
        ) -> u32;
        pub fn pending_req_wait(
            pending: Handle,
            resp_out: *mut Handle,
            body_out: *mut Handle,
        ) -> u32;
    }

    #[link(wasm_import_module = "fastly_http_body")]
    extern "C" {
        #[link_name = "new"]
        pub fn body_new(body_out: *mut Handle) -> u32;
        pub fn read(body: Handle, buf: *mut u8, buf_len: usize, nread_out: *mut usize) -> u32;
        pub fn write(
            body: Handle,
            buf: *const u8,
            buf_len: usize,
            end: u32,
            nwritten_out: *mut usize,
        ) -> u32;
    }

    #[link(wasm_import_module = "fastly_http_resp")]
    extern "C" {
        #[link_name = "new"]
        pub fn resp_new(resp_out: *mut Handle) -> u32;
        pub fn status_set(resp: Handle, status: u32) -> u32;
        pub fn status_get(resp: Handle, status_out: *mut u16) -> u32;
        #[link_name = "header_append"]
        pub fn resp_header_append(
            resp: Handle,
            name: *const u8,
            name_len: usize,
            value: *const u8,
            value_len: usize,
        ) -> u32;
        pub fn send_downstream(resp: Handle, body: Handle, streaming: u32) -> u32;
    }

    #[link(wasm_import_module = "fastly_secret_store")]
    extern "C" {
        pub fn open(name: *const u8, name_len: usize, store_out: *mut Handle) -> u32;
        pub fn get(store: Handle, key: *const u8, key_len: usize, secret_out: *mut Handle) -> u32;
        pub fn plaintext(
            secret: Handle,
            buf: *mut u8,
            buf_len: usize,
            nwritten_out: *mut usize,
        ) -> u32;
    }

    #[link(wasm_import_module = "fastly_log")]
    extern "C" {
        pub fn endpoint_get(name: *const u8, name_len: usize, endpoint_out: *mut Handle) -> u32;
        #[link_name = "write"]
        pub fn log_write(
            endpoint: Handle,
            msg: *const u8,
            msg_len: usize,
            nwritten_out: *mut usize,
        ) -> u32;
    }

    #[link(wasm_import_module = "fastly_async_io")]
    extern "C" {
        pub fn select(
            handles: *const Handle,
            handles_len: usize,
            timeout_ms: u32,
            ready_idx_out: *mut u32,
        ) -> u32;
        pub fn is_ready(handle: Handle, is_done_out: *mut u32) -> u32;
    }
}

/// Declares the ABI version (Viceroy's `ABI_VERSION` is 1).
pub fn init() {
    // SAFETY: plain value argument; the hostcall touches no guest memory.
    let _ = unsafe { raw::init(1) };
}

pub fn downstream() -> Result<(Handle, Handle), Status> {
    let (mut req, mut body) = (INVALID, INVALID);
    // SAFETY: both out-pointers are valid, aligned locals for the duration of the call.
    check(unsafe { raw::body_downstream_get(&mut req, &mut body) })?;
    Ok((req, body))
}

/// Reads a value through a `(buf, buf_len, nwritten_out)` getter, growing the buffer when the host
/// reports `buflen` with the size it needs, up to `max` bytes.
fn grow_get(
    max: usize,
    mut f: impl FnMut(*mut u8, usize, *mut usize) -> u32,
) -> Result<Vec<u8>, Status> {
    let mut cap = 256;
    loop {
        let mut buf = vec![0u8; cap];
        let mut n = 0usize;
        match f(buf.as_mut_ptr(), buf.len(), &mut n) {
            OK => {
                buf.truncate(n.min(cap));
                return Ok(buf);
            }
            BUFLEN if n > cap && n <= max => cap = n,
            BUFLEN if cap < max => cap = (cap * 4).min(max),
            s => return Err(Status(s)),
        }
    }
}

/// The plaintext of `key` in the secret store `store` (at most `max` bytes); `NONE` when the store
/// or the key does not exist.
pub fn secret(store: &str, key: &str, max: usize) -> Result<Vec<u8>, Status> {
    let (mut sh, mut h) = (INVALID, INVALID);
    // SAFETY: the name is a live slice for the call; the out-pointer is a valid local.
    check(unsafe { raw::open(store.as_ptr(), store.len(), &mut sh) })?;
    // SAFETY: as above.
    check(unsafe { raw::get(sh, key.as_ptr(), key.len(), &mut h) })?;
    // SAFETY: `grow_get` passes a live buffer of `len` bytes and a valid `usize` out-pointer.
    grow_get(max, |p, len, n| unsafe { raw::plaintext(h, p, len, n) })
}

pub fn method(req: Handle) -> Result<Vec<u8>, Status> {
    // SAFETY: `grow_get` passes a live buffer of `len` bytes and a valid `usize` out-pointer.
    grow_get(1024, |p, len, n| unsafe { raw::method_get(req, p, len, n) })
}

pub fn uri(req: Handle) -> Result<Vec<u8>, Status> {
    // SAFETY: as for `method`.
    grow_get(16 * 1024, |p, len, n| unsafe {
        raw::uri_get(req, p, len, n)
    })
}

/// Runs the multi-value cursor protocol: NUL-terminated items, ending cursor `-1` when done. `buf`
/// is the caller's, reused from one call to the next: a request's header reads share one buffer, so
/// they write to one place in memory.
fn multi(
    buf: &mut Vec<u8>,
    mut f: impl FnMut(*mut u8, usize, u32, *mut i64, *mut usize) -> u32,
) -> Result<Vec<Vec<u8>>, Status> {
    let mut items = Vec::new();
    let mut cursor = 0u32;
    if buf.len() < 4096 {
        buf.resize(4096, 0);
    }
    loop {
        let cap = buf.len();
        let mut ending = -1i64;
        let mut n = 0usize;
        match f(buf.as_mut_ptr(), cap, cursor, &mut ending, &mut n) {
            OK => {}
            BUFLEN if n > cap && n <= 1 << 20 => {
                buf.resize(n, 0);
                continue;
            }
            s => return Err(Status(s)),
        }
        for item in buf[..n.min(cap)].split(|&b| b == 0) {
            items.push(item.to_vec());
        }
        // `split` yields one empty piece after the final terminator.
        if n > 0 {
            items.pop();
        }
        if ending < 0 {
            return Ok(items);
        }
        let next = ending as u32;
        if next <= cursor {
            return Err(Status(BUFLEN));
        }
        cursor = next;
    }
}

/// Every header line of `req`: each name with each of its values, in the platform's order.
pub fn header_lines(req: Handle) -> Result<Vec<(Vec<u8>, Vec<u8>)>, Status> {
    let mut buf = Vec::new();
    // SAFETY: `multi` passes a live buffer of `len` bytes and valid, aligned out-pointers.
    let names = multi(&mut buf, |p, len, cur, end, n| unsafe {
        raw::header_names_get(req, p, len, cur, end, n)
    })?;
    let mut lines = Vec::with_capacity(names.len());
    for name in names {
        // SAFETY: `name` is a live slice; the rest as for the names.
        let values = multi(&mut buf, |p, len, cur, end, n| unsafe {
            raw::header_values_get(req, name.as_ptr(), name.len(), p, len, cur, end, n)
        });
        match values {
            Ok(values) => lines.extend(values.into_iter().map(|v| (name.clone(), v))),
            // A name with no value left (removed meanwhile) has no line.
            Err(Status(NONE)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(lines)
}

pub fn request_new() -> Result<Handle, Status> {
    let mut h = INVALID;
    // SAFETY: valid out-pointer.
    check(unsafe { raw::req_new(&mut h) })?;
    Ok(h)
}

pub fn request_method_set(req: Handle, method: &str) -> Result<(), Status> {
    // SAFETY: pointer and length come from one live `&str`.
    check(unsafe { raw::method_set(req, method.as_ptr(), method.len()) })
}

pub fn request_uri_set(req: Handle, uri: &str) -> Result<(), Status> {
    // SAFETY: pointer and length come from one live `&str`.
    check(unsafe { raw::uri_set(req, uri.as_ptr(), uri.len()) })
}

pub fn request_header_append(req: Handle, name: &str, value: &str) -> Result<(), Status> {
    // SAFETY: both pointer/length pairs come from live `&str`s.
    check(unsafe {
        raw::header_append(req, name.as_ptr(), name.len(), value.as_ptr(), value.len())
    })
}

pub fn send_async(req: Handle, body: Handle, backend: &str) -> Result<Handle, Status> {
    let mut pending = INVALID;
    // SAFETY: `backend` is a live `&str`; valid out-pointer.
    check(unsafe { raw::send_async(req, body, backend.as_ptr(), backend.len(), &mut pending) })?;
    Ok(pending)
}

pub fn pending_wait(pending: Handle) -> Result<(Handle, Handle), Status> {
    let (mut resp, mut body) = (INVALID, INVALID);
    // SAFETY: valid out-pointers.
    check(unsafe { raw::pending_req_wait(pending, &mut resp, &mut body) })?;
    Ok((resp, body))
}

pub fn body_new() -> Result<Handle, Status> {
    let mut h = INVALID;
    // SAFETY: valid out-pointer.
    check(unsafe { raw::body_new(&mut h) })?;
    Ok(h)
}

/// Reads up to `buf.len()` bytes; `Ok(0)` is the end of the body.
pub fn body_read(body: Handle, buf: &mut [u8]) -> Result<usize, Status> {
    let mut n = 0usize;
    // SAFETY: `buf` is a live, writable slice of `buf.len()` bytes; valid out-pointer.
    check(unsafe { raw::read(body, buf.as_mut_ptr(), buf.len(), &mut n) })?;
    Ok(n.min(buf.len()))
}

/// Appends all of `data` to the back of the body.
pub fn body_write_all(body: Handle, mut data: &[u8]) -> Result<(), Status> {
    while !data.is_empty() {
        let mut n = 0usize;
        // SAFETY: `data` is a live slice; valid out-pointer; `end = 0` is `$back`.
        check(unsafe { raw::write(body, data.as_ptr(), data.len(), 0, &mut n) })?;
        if n == 0 {
            return Err(Status(1));
        }
        data = &data[n.min(data.len())..];
    }
    Ok(())
}

pub fn response_new() -> Result<Handle, Status> {
    let mut h = INVALID;
    // SAFETY: valid out-pointer.
    check(unsafe { raw::resp_new(&mut h) })?;
    Ok(h)
}

pub fn response_status_set(resp: Handle, status: u16) -> Result<(), Status> {
    // SAFETY: plain value arguments.
    check(unsafe { raw::status_set(resp, u32::from(status)) })
}

pub fn response_status(resp: Handle) -> Result<u16, Status> {
    let mut s = 0u16;
    // SAFETY: valid, aligned `u16` out-pointer.
    check(unsafe { raw::status_get(resp, &mut s) })?;
    Ok(s)
}

pub fn response_header_append(resp: Handle, name: &[u8], value: &[u8]) -> Result<(), Status> {
    // SAFETY: both pointer/length pairs come from live slices.
    check(unsafe {
        raw::resp_header_append(resp, name.as_ptr(), name.len(), value.as_ptr(), value.len())
    })
}

pub fn send_downstream(resp: Handle, body: Handle) -> Result<(), Status> {
    // SAFETY: plain value arguments; `streaming = 0` sends the complete body.
    check(unsafe { raw::send_downstream(resp, body, 0) })
}

/// Waits until one of `handles` is ready or `timeout_ms` passes (`None`). `timeout_ms` must be ≥ 1:
/// the ABI reads 0 as "no timeout".
pub fn select(handles: &[Handle], timeout_ms: u32) -> Result<Option<usize>, Status> {
    let mut idx = u32::MAX;
    // SAFETY: `handles` is a live slice of `u32`s; valid out-pointer.
    check(unsafe { raw::select(handles.as_ptr(), handles.len(), timeout_ms.max(1), &mut idx) })?;
    Ok(if idx == u32::MAX {
        None
    } else {
        Some(idx as usize)
    })
}

/// Whether `handle` is ready now, without waiting: one poll, where `select` also arms a timer.
pub fn is_ready(handle: Handle) -> Result<bool, Status> {
    let mut done = 0u32;
    // SAFETY: plain value argument; valid out-pointer.
    check(unsafe { raw::is_ready(handle, &mut done) })?;
    Ok(done != 0)
}

/// The log endpoint named `name` (Viceroy opens any name; Fastly, the service's configured ones).
pub fn log_endpoint(name: &str) -> Result<Handle, Status> {
    let mut h = INVALID;
    // SAFETY: the name is a live `&str` for the call; valid out-pointer.
    check(unsafe { raw::endpoint_get(name.as_ptr(), name.len(), &mut h) })?;
    Ok(h)
}

/// Writes one log entry: each call is one line at the endpoint, its framing the platform's.
pub fn log_write(endpoint: Handle, msg: &[u8]) -> Result<(), Status> {
    let mut n = 0usize;
    // SAFETY: `msg` is a live slice for the call; valid out-pointer.
    check(unsafe { raw::log_write(endpoint, msg.as_ptr(), msg.len(), &mut n) })
}

/// The core cache (`fastly_cache`, non-transactional `lookup` and `insert`), for the introspection
/// cache: small objects under short keys, kept for their ttl.
mod raw_cache {
    use super::Handle;

    /// `$cache_write_options` (only the fields its mask names are read).
    #[repr(C)]
    pub struct WriteOptions {
        pub max_age_ns: u64,
        pub request_headers: Handle,
        pub vary_rule_ptr: *const u8,
        pub vary_rule_len: usize,
        pub initial_age_ns: u64,
        pub stale_while_revalidate_ns: u64,
        pub surrogate_keys_ptr: *const u8,
        pub surrogate_keys_len: usize,
        pub length: u64,
        pub user_metadata_ptr: *const u8,
        pub user_metadata_len: usize,
        pub edge_max_age_ns: u64,
        pub service_ptr: *const u8,
        pub service_len: u32,
    }

    /// `$cache_write_options_mask`: `length` and `sensitive_data`.
    pub const WRITE_LENGTH: u32 = 1 << 6;
    pub const WRITE_SENSITIVE: u32 = 1 << 8;
    /// `$cache_lookup_state`.
    pub const USABLE: u32 = 1 << 1;
    pub const STALE: u32 = 1 << 2;

    #[link(wasm_import_module = "fastly_cache")]
    extern "C" {
        /// `options` is not read with an empty mask.
        pub fn lookup(
            key: *const u8,
            key_len: usize,
            options_mask: u32,
            options: *const u32,
            handle_out: *mut Handle,
        ) -> u32;
        pub fn insert(
            key: *const u8,
            key_len: usize,
            options_mask: u32,
            options: *const WriteOptions,
            body_out: *mut Handle,
        ) -> u32;
        pub fn get_state(handle: Handle, state_out: *mut u32) -> u32;
        /// `options` (`{from, to}`) is not read with an empty mask.
        pub fn get_body(
            handle: Handle,
            options_mask: u32,
            options: *const u64,
            body_out: *mut Handle,
        ) -> u32;
        pub fn close(handle: Handle) -> u32;
    }

    #[link(wasm_import_module = "fastly_http_body")]
    extern "C" {
        /// Ends a body: for a cache insert's body, the object is complete.
        #[link_name = "close"]
        pub fn body_close(body: Handle) -> u32;
    }
}

/// The fresh object under `key`, read whole when it is at most `max` bytes; `None` for none
/// (absent, stale, larger, or any failure: the caller then asks the issuer).
pub fn cache_get(key: &[u8], max: usize) -> Option<Vec<u8>> {
    let mut h = INVALID;
    let none = [0u64; 2];
    // SAFETY: `key` is a live slice; with an empty mask the options are not read; valid out-pointer.
    check(unsafe { raw_cache::lookup(key.as_ptr(), key.len(), 0, none.as_ptr().cast(), &mut h) })
        .ok()?;
    let value = (|| {
        let mut state = 0u32;
        // SAFETY: plain value argument; valid out-pointer.
        check(unsafe { raw_cache::get_state(h, &mut state) }).ok()?;
        if state & raw_cache::USABLE == 0 || state & raw_cache::STALE != 0 {
            return None;
        }
        let mut body = INVALID;
        // SAFETY: as for `lookup`.
        check(unsafe { raw_cache::get_body(h, 0, none.as_ptr(), &mut body) }).ok()?;
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match body_read(body, &mut buf).ok()? {
                0 => break,
                n => out.extend_from_slice(&buf[..n]),
            }
            if out.len() > max {
                return None;
            }
        }
        // SAFETY: plain value argument.
        unsafe { raw_cache::body_close(body) };
        Some(out)
    })();
    // SAFETY: plain value argument.
    unsafe { raw_cache::close(h) };
    value
}

/// Keeps `value` under `key` for `ttl_ms`, marked sensitive (never written beyond memory where
/// Fastly honours it).
pub fn cache_insert(key: &[u8], value: &[u8], ttl_ms: u64) -> Result<(), Status> {
    let options = raw_cache::WriteOptions {
        max_age_ns: ttl_ms.saturating_mul(1_000_000),
        request_headers: INVALID,
        vary_rule_ptr: std::ptr::null(),
        vary_rule_len: 0,
        initial_age_ns: 0,
        stale_while_revalidate_ns: 0,
        surrogate_keys_ptr: std::ptr::null(),
        surrogate_keys_len: 0,
        length: value.len() as u64,
        user_metadata_ptr: std::ptr::null(),
        user_metadata_len: 0,
        edge_max_age_ns: 0,
        service_ptr: std::ptr::null(),
        service_len: 0,
    };
    let mask = raw_cache::WRITE_LENGTH | raw_cache::WRITE_SENSITIVE;
    let mut body = INVALID;
    // SAFETY: `key` is a live slice; `options` lives across the call; valid out-pointer.
    check(unsafe { raw_cache::insert(key.as_ptr(), key.len(), mask, &options, &mut body) })?;
    let written = body_write_all(body, value);
    // SAFETY: plain value argument.
    let closed = check(unsafe { raw_cache::body_close(body) });
    written.and(closed)
}

/// Edge Rate Limiting (`fastly_erl`) and the downstream client's address, for the rate limits. Rate
/// counters and penalty boxes are opened by name on first use: nothing declares them.
mod raw_erl {
    use super::Handle;

    #[link(wasm_import_module = "fastly_erl")]
    extern "C" {
        pub fn ratecounter_increment(
            rc: *const u8,
            rc_len: usize,
            entry: *const u8,
            entry_len: usize,
            delta: u32,
        ) -> u32;
        pub fn ratecounter_lookup_count(
            rc: *const u8,
            rc_len: usize,
            entry: *const u8,
            entry_len: usize,
            duration_s: u32,
            count_out: *mut u32,
        ) -> u32;
        pub fn penaltybox_add(
            pb: *const u8,
            pb_len: usize,
            entry: *const u8,
            entry_len: usize,
            ttl_s: u32,
        ) -> u32;
        pub fn penaltybox_has(
            pb: *const u8,
            pb_len: usize,
            entry: *const u8,
            entry_len: usize,
            has_out: *mut u32,
        ) -> u32;
    }

    #[link(wasm_import_module = "fastly_http_downstream")]
    extern "C" {
        /// Writes 4 (IPv4) or 16 (IPv6) octets into a 16-byte buffer.
        pub fn downstream_client_ip_addr(
            req: Handle,
            octets_out: *mut u8,
            nwritten_out: *mut usize,
        ) -> u32;
    }
}

/// Adds one to `entry` in the rate counter `rc`.
pub fn ratecounter_increment(rc: &str, entry: &str) -> Result<(), Status> {
    // SAFETY: both names are live `&str`s for the call.
    check(unsafe {
        raw_erl::ratecounter_increment(rc.as_ptr(), rc.len(), entry.as_ptr(), entry.len(), 1)
    })
}

/// `entry`'s count in the rate counter `rc` over the last `duration_s` seconds (10 to 60, by 10).
pub fn ratecounter_count(rc: &str, entry: &str, duration_s: u32) -> Result<u32, Status> {
    let mut count = 0u32;
    // SAFETY: live `&str`s for the call; valid out-pointer.
    check(unsafe {
        raw_erl::ratecounter_lookup_count(
            rc.as_ptr(),
            rc.len(),
            entry.as_ptr(),
            entry.len(),
            duration_s,
            &mut count,
        )
    })?;
    Ok(count)
}

/// Puts `entry` in the penalty box `pb` for `ttl_s` seconds (Fastly keeps whole minutes, 1 to 60).
pub fn penaltybox_add(pb: &str, entry: &str, ttl_s: u32) -> Result<(), Status> {
    // SAFETY: live `&str`s for the call.
    check(unsafe {
        raw_erl::penaltybox_add(pb.as_ptr(), pb.len(), entry.as_ptr(), entry.len(), ttl_s)
    })
}

/// Whether `entry` is in the penalty box `pb`.
pub fn penaltybox_has(pb: &str, entry: &str) -> Result<bool, Status> {
    let mut has = 0u32;
    // SAFETY: live `&str`s for the call; valid out-pointer.
    check(unsafe {
        raw_erl::penaltybox_has(pb.as_ptr(), pb.len(), entry.as_ptr(), entry.len(), &mut has)
    })?;
    Ok(has != 0)
}

/// The downstream client's IP address.
pub fn client_address(req: Handle) -> Result<std::net::IpAddr, Status> {
    let mut octets = [0u8; 16];
    let mut n = 0usize;
    // SAFETY: a 16-byte buffer, as the hostcall requires; valid out-pointer.
    check(unsafe { raw_erl::downstream_client_ip_addr(req, octets.as_mut_ptr(), &mut n) })?;
    match n {
        4 => Ok(std::net::IpAddr::from([
            octets[0], octets[1], octets[2], octets[3],
        ])),
        16 => Ok(std::net::IpAddr::from(octets)),
        _ => Err(Status(1)),
    }
}
