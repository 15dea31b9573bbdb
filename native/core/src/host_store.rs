//! The bounds of the Node and Fetch hosts' in-process stores (the introspection cache's entries, the
//! rate limits' counts): `maxEntries` and `maxBytes` of an option. The core checks them, so every
//! host refuses the same options, and publishes the defaults the hosts apply (`shared.rs`). The
//! Native service keeps neither store in process: Fastly's cache and Edge Rate Limiting do.
use crate::decl::ConfigError;
use crate::json::Object;

/// Entries a store keeps when `maxEntries` is absent.
pub const DEFAULT_MAX_ENTRIES: u64 = 10_000;
/// Bytes of keys and values a store keeps when `maxBytes` is absent: 8 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 8 * 1024 * 1024;
const MAX_ENTRIES_LIMIT: u64 = 1_000_000;
const MIN_BYTES: u64 = 64 * 1024;
const MAX_BYTES_LIMIT: u64 = 1024 * 1024 * 1024;
/// The members this module reads.
pub const KEYS: [&str; 2] = ["maxEntries", "maxBytes"];

/// Checks `maxEntries` and `maxBytes` of `option`'s object `o`, when present.
pub fn check(o: Object<'_>, option: &str) -> Result<(), ConfigError> {
    integer(o, option, "maxEntries", 1, MAX_ENTRIES_LIMIT)?;
    integer(o, option, "maxBytes", MIN_BYTES, MAX_BYTES_LIMIT)?;
    Ok(())
}

/// An integer member from `min` to `max`; `None` when absent.
pub fn integer(
    o: Object<'_>,
    option: &str,
    key: &str,
    min: u64,
    max: u64,
) -> Result<Option<u64>, ConfigError> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => match v.as_number().and_then(|n| n.as_safe_integer()) {
            Some(n) if n >= min as i64 && n <= max as i64 => Ok(Some(n as u64)),
            _ => Err(format!(
                "{}.{}: must be an integer from {} to {}",
                option, key, min, max
            )),
        },
    }
}
