//! Pulse MCP as a Fastly Compute Native service: one instance per request, the core linked in,
//! the engine configuration (manifest included) embedded at compile time by `build.rs`.
#![forbid(unsafe_op_in_unsafe_fn)]

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod uri;

#[cfg(target_arch = "wasm32")]
mod fastly;
#[cfg(target_arch = "wasm32")]
mod service;

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
static CONFIG: &str = include_str!(concat!(env!("OUT_DIR"), "/config.json"));

#[cfg(target_arch = "wasm32")]
fn main() {
    service::run(CONFIG.as_bytes());
}

/// Run once at build time by Wizer (`npm run edge:build`): the engine is built from the embedded
/// configuration and snapshotted into the binary, so a request parses nothing static. Without the
/// snapshot `main` builds it itself.
#[cfg(target_arch = "wasm32")]
#[export_name = "wizer.initialize"]
pub extern "C" fn wizer_initialize() {
    service::prebuild(CONFIG.as_bytes());
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
        assert!(pulse_core::Engine::new(super::CONFIG.as_bytes()).is_ok());
    }
}
