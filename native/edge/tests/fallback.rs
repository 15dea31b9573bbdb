//! The configuration a clean clone embeds (no edge router compiled) restates none of the core's
//! defaults: its engine has exactly the core's limits.
use pulse_core::limits::Limits;
use pulse_core::Engine;

#[test]
fn the_fallback_configuration_has_the_core_limits() {
    let text = include_bytes!(concat!(env!("OUT_DIR"), "/fallback.json"));
    let engine = Engine::new(text).expect("the fallback configuration is valid");
    assert_eq!(*engine.limits(), Limits::DEFAULT);
}
