//! Pulse MCP as a Fastly Compute Native service: one instance per request, the core linked in. The
//! binary is built once, without a configuration, and shipped in the package; `pulse-mcp build
//! --wasm` configures it by running `wizer.initialize` under Wizer with the engine configuration on
//! standard input, and snapshots the engine built from it.
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
mod layout;
#[cfg(target_arch = "wasm32")]
mod snapshot;

#[cfg(target_arch = "wasm32")]
fn main() {
    service::run();
}

/// Run once at build time by Wizer: the engine is built from the configuration read from standard
/// input and snapshotted into the binary, so a request parses nothing static. A configuration the
/// core refuses ends initialization with its reason and exit status 1, so Wizer writes no binary.
#[cfg(target_arch = "wasm32")]
#[export_name = "wizer.initialize"]
pub extern "C" fn wizer_initialize() {
    use std::io::Read;
    layout::keep();
    snapshot::begin();
    let mut config = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut config) {
        eprintln!(
            "pulse-edge: the configuration cannot be read from standard input: {}",
            e
        );
        std::process::exit(1);
    }
    if let Err(why) = service::prebuild(&config) {
        eprintln!("pulse-edge: the core refused the configuration: {}", why);
        std::process::exit(1);
    }
    drop(config);
    snapshot::end();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("pulse-edge is a Fastly Compute service: build it with --target wasm32-wasi");
    std::process::exit(2);
}
