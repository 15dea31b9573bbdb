//! Pulse MCP as a Fastly Compute Native service: one instance per request, the core linked in,
//! the engine configuration (manifest included) embedded at compile time by `build.rs`.
#![forbid(unsafe_op_in_unsafe_fn)]

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod uri;

#[cfg(target_arch = "wasm32")]
mod allocator;
#[cfg(target_arch = "wasm32")]
mod fastly;
#[cfg(target_arch = "wasm32")]
mod service;

#[cfg(target_arch = "wasm32")]
mod snapshot;

include!(concat!(env!("OUT_DIR"), "/config_len.rs"));

/// The configuration text, mutable so that pre-initialization can wipe it once the engine is built:
/// the snapshot then carries the parsed engine only, not its source beside it.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
static mut CONFIG: [u8; CONFIG_LEN] = *include_bytes!(concat!(env!("OUT_DIR"), "/config.json"));

#[cfg(target_arch = "wasm32")]
fn main() {
    // SAFETY: one thread; the text is only wiped by `wizer_initialize`, which never runs in the
    // same instance as a request that still needs it (a snapshot serves from its prebuilt engine).
    let config = unsafe { &*std::ptr::addr_of!(CONFIG) };
    service::run(config);
}

/// Run once at build time by Wizer (`npm run edge:build`): the engine is built from the embedded
/// configuration and snapshotted into the binary, so a request parses nothing static. Without the
/// snapshot `main` builds it itself.
#[cfg(target_arch = "wasm32")]
#[export_name = "wizer.initialize"]
pub extern "C" fn wizer_initialize() {
    snapshot::begin();
    // SAFETY: one thread, and nothing else holds a reference to CONFIG during initialization.
    let config = unsafe { &mut *std::ptr::addr_of_mut!(CONFIG) };
    service::prebuild(config);
    config.fill(0);
    snapshot::end();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("pulse-edge is a Fastly Compute service: build it with --target wasm32-wasi");
    std::process::exit(2);
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_config_builds_an_engine() {
        // SAFETY: tests only read the text.
        let config = unsafe { &*std::ptr::addr_of!(super::CONFIG) };
        assert!(pulse_core::Engine::new(config).is_ok());
    }
}
