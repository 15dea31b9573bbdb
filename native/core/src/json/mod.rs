//! Strict streaming JSON (RFC 8259 + I-JSON). Placeholder: the JSON owner replaces this file.
