//! Strict streaming JSON: RFC 8259 grammar, strict UTF-8 and I-JSON (RFC 7493).
//!
//! [`Parser`] is a push parser: the body arrives in chunks of any size and every error is reported
//! by the `feed` holding the byte that decides it, with the same verdict however the input is split.
//! A successful parse yields a [`Document`]: an arena of nodes whose strings and numbers are spans of
//! the body (escapes are decoded lazily). [`write`] produces canonical compact JSON.
//!
//! Decisions beyond the RFCs, fixed so that every host sees the same behaviour:
//! - any byte outside a string that the grammar does not allow is `Syntax`, including a BOM and
//!   non-ASCII bytes (`Utf8` is only about bytes inside strings);
//! - after a complete root value every non-whitespace byte is `Trailing`, so the root text `01` is
//!   `Trailing` (the value `0` followed by `1`) while `[01]` is `Syntax`;
//! - an escape that breaks a surrogate pair is `LoneSurrogate` even if it would also be `Syntax`
//!   (`"\uD800\x"`);
//! - `Number::as_safe_integer` accepts `-0` as `0`.

mod document;
mod parser;
mod text;
pub mod write;

#[cfg(test)]
mod tests;

pub use document::{Array, Document, Number, Object, Str, Value};
pub use parser::{parse, Parser};

/// Why a body is not acceptable JSON. The order of the variants has no meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonError {
    /// The bytes do not follow the RFC 8259 grammar.
    Syntax,
    /// A string holds bytes that are not strict UTF-8.
    Utf8,
    /// Arrays and objects are nested deeper than the configured limit.
    Depth,
    /// An object repeats a member name (compared after unescaping).
    DuplicateKey,
    /// A `\u` escape names half of a surrogate pair without its other half.
    LoneSurrogate,
    /// A number is not finite as an IEEE 754 double.
    NumberRange,
    /// Something other than whitespace follows the root value.
    Trailing,
    /// The body ended before the root value was complete (or was empty).
    Incomplete,
}

impl JsonError {
    /// Stable machine-readable code.
    pub fn code(self) -> &'static str {
        match self {
            JsonError::Syntax => "json_syntax",
            JsonError::Utf8 => "json_utf8",
            JsonError::Depth => "json_depth",
            JsonError::DuplicateKey => "json_duplicate_key",
            JsonError::LoneSurrogate => "json_lone_surrogate",
            JsonError::NumberRange => "json_number_range",
            JsonError::Trailing => "json_trailing",
            JsonError::Incomplete => "json_incomplete",
        }
    }

    /// Fixed human-readable message; never echoes input.
    pub fn message(self) -> &'static str {
        match self {
            JsonError::Syntax => "Invalid JSON syntax",
            JsonError::Utf8 => "Invalid UTF-8 in JSON string",
            JsonError::Depth => "JSON nesting too deep",
            JsonError::DuplicateKey => "Duplicate member name in JSON object",
            JsonError::LoneSurrogate => "Lone surrogate escape in JSON string",
            JsonError::NumberRange => "JSON number out of range",
            JsonError::Trailing => "Unexpected data after JSON value",
            JsonError::Incomplete => "Incomplete JSON body",
        }
    }
}

impl core::fmt::Display for JsonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message())
    }
}
