//! Embeds the engine configuration (docs/contracts.md#engine-configuration) compiled by the TypeScript build from the
//! edge router module. `PULSE_EDGE_CONFIG` names the file; without it `generated/config.json` is used
//! when present, else a configuration without tools, so a clean clone still builds and tests.
use std::path::PathBuf;
use std::{env, fs};

/// `limits` is null: the core's own defaults (`Limits::DEFAULT`) apply, never a copy of them.
const DEFAULT: &str = r#"{"path":"/mcp","allowedOrigins":[],"serverInfo":{"name":"pulse-edge","version":"0.1.0"},"limits":null,"legacyProtocol":null,"tools":null}"#;

fn main() {
    println!("cargo:rerun-if-env-changed=PULSE_EDGE_CONFIG");
    let manifest_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let source = match env::var("PULSE_EDGE_CONFIG") {
        Ok(p) => Some(PathBuf::from(p)),
        Err(_) => {
            let p = manifest_dir.join("generated").join("config.json");
            println!("cargo:rerun-if-changed={}", p.display());
            if p.exists() {
                Some(p)
            } else {
                None
            }
        }
    };
    let text = match source {
        Some(p) => {
            println!("cargo:rerun-if-changed={}", p.display());
            fs::read_to_string(&p).expect("the edge configuration file is readable UTF-8")
        }
        None => DEFAULT.to_string(),
    };
    let dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // The length is a constant of its own: the text lives in a sized mutable static (main.rs).
    let len = format!("pub const CONFIG_LEN: usize = {};\n", text.len());
    fs::write(dir.join("config_len.rs"), len).expect("OUT_DIR is writable");
    fs::write(dir.join("config.json"), text).expect("OUT_DIR is writable");
    // For the test that holds the fallback to the core's defaults whichever text is embedded.
    fs::write(dir.join("fallback.json"), DEFAULT).expect("OUT_DIR is writable");
}
