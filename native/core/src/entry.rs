//! Reading one declared entry of the configuration (a resource, a template, a prompt, an argument):
//! every message names the entry's place (`prompts[2].arguments[0].name`), never its value.
use crate::decl::{known_key, valid_name, ConfigError};
use crate::json::{Array, Object, Value};

/// Longest URI or URI template a declaration may hold, in bytes.
pub const MAX_URI_BYTES: usize = 2048;

pub struct Entry<'a> {
    pub at: String,
    pub obj: Object<'a>,
}

/// The array under an option (`None` when absent or null), at most `max` entries.
pub fn array<'a>(
    v: Option<Value<'a>>,
    option: &str,
    max: usize,
) -> Result<Option<Array<'a>>, ConfigError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) if a.len() <= max => Ok(Some(a)),
        Some(_) => Err(format!(
            "{}: must be an array of at most {} entries",
            option, max
        )),
    }
}

impl<'a> Entry<'a> {
    /// Entry `i` of `option`, which must be an object holding only `keys`.
    pub fn at(
        option: &str,
        i: usize,
        v: Value<'a>,
        keys: &[&str],
    ) -> Result<Entry<'a>, ConfigError> {
        let at = format!("{}[{}]", option, i);
        let obj = match v {
            Value::Object(o) => o,
            _ => return Err(format!("{}: must be an object", at)),
        };
        for (key, _) in obj.iter() {
            known_key(&at, key, keys)?;
        }
        Ok(Entry { at, obj })
    }

    pub fn fail(&self, key: &str, rule: &str) -> ConfigError {
        format!("{}.{}: {}", self.at, key, rule)
    }

    pub fn string(&self, key: &str) -> Result<String, ConfigError> {
        match self.obj.get(key) {
            Some(Value::String(s)) => Ok(s.as_str().into_owned()),
            _ => Err(self.fail(key, "must be a string")),
        }
    }

    pub fn optional_string(&self, key: &str) -> Result<Option<String>, ConfigError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str().into_owned())),
            Some(_) => Err(self.fail(key, "must be a string")),
        }
    }

    /// A name clients send back (`prompts/get`, `completion/complete`): the tool-name rule.
    pub fn name(&self) -> Result<String, ConfigError> {
        let n = self.string("name")?;
        if valid_name(&n) {
            Ok(n)
        } else {
            Err(self.fail("name", "must be 1 to 128 characters of A-Za-z0-9_.-"))
        }
    }

    /// A URI (or template) of visible ASCII with a scheme, at most 2048 bytes.
    pub fn uri(&self, key: &str) -> Result<String, ConfigError> {
        let u = self.string(key)?;
        let scheme = matches!(u.find(':'), Some(i) if i > 0
            && u.as_bytes()[0].is_ascii_alphabetic()
            && u[..i].bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)));
        if scheme && u.len() <= MAX_URI_BYTES && u.bytes().all(|b| (0x21..0x7f).contains(&b)) {
            Ok(u)
        } else {
            Err(self.fail(
                key,
                "must be an absolute URI of at most 2048 visible ASCII characters",
            ))
        }
    }

    /// Writes `,"key":"value"` for each present optional string member, in the given order.
    pub fn write_optional(&self, out: &mut Vec<u8>, keys: &[&str]) -> Result<(), ConfigError> {
        for key in keys {
            if let Some(v) = self.optional_string(key)? {
                crate::json::write::member(out, key, &v);
            }
        }
        Ok(())
    }

    /// `completions`: up to 1024 declared strings offered by `completion/complete`.
    pub fn completions(&self, v: Option<Value<'_>>, key: &str) -> Result<Vec<String>, ConfigError> {
        let a = match v {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(a)) if a.len() <= 1024 => a,
            Some(_) => return Err(self.fail(key, "must be an array of at most 1024 strings")),
        };
        a.iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.as_str().into_owned()),
                _ => Err(self.fail(key, "must be an array of at most 1024 strings")),
            })
            .collect()
    }
}
