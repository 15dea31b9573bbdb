//! Strict streaming JSON (RFC 8259 + I-JSON). PLACEHOLDER: the JSON owner replaces this module
//! with the interface of docs/contracts.md §5.
#[derive(Clone, Copy)]
pub enum Value<'a> {
    Null,
    Placeholder(&'a ()),
}
