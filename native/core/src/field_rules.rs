//! Presence rules of an object codec, enforced beside its fields and projected as JSON Schema:
//! alternative field groups (`allOf: [{anyOf: [{required}…]}]`) and one conditional requirement
//! (`if`/`then`/`else` on a field's value). Program form: `src/compiler/README.md`.
use crate::json::Value;

/// At most this many rules on one object, and this many groups in one rule.
const MAX_RULES: usize = 8;
const MAX_GROUPS: usize = 16;

pub const NO_ALTERNATIVE: &str = "None of the alternative field groups is complete";

/// The value a conditional compares a field against: JSON Schema `const` on a scalar.
#[derive(Debug)]
enum Scalar {
    Str(String),
    Num(f64),
    Bool(bool),
}

#[derive(Debug)]
struct When {
    field: usize,
    equals: Scalar,
    then: Vec<usize>,
    otherwise: Vec<usize>,
}

/// The rules of one object; field indexes refer to its declared fields.
#[derive(Debug, Default)]
pub(crate) struct FieldRules {
    any_of: Vec<Vec<Vec<usize>>>,
    when: Option<When>,
}

/// What a rule check found wrong: no group complete, or a required field (by index) missing.
pub(crate) enum Broken {
    NoAlternative,
    Missing(usize),
}

const NOT_DECLARED: &str = "tools: codec program rule names a field that is not declared";

/// A field index of an object with `fields` fields.
fn index(v: Value<'_>, fields: usize) -> Option<usize> {
    match v.as_number()?.as_safe_integer()? {
        i if i >= 0 && (i as usize) < fields => Some(i as usize),
        _ => None,
    }
}

fn indexes(v: Option<Value<'_>>, fields: usize) -> Result<Vec<usize>, &'static str> {
    let arr = v
        .and_then(|v| v.as_array())
        .ok_or("tools: codec program rule needs a list of field indexes")?;
    if arr.len() > fields {
        return Err("tools: codec program rule lists too many fields");
    }
    let mut out = Vec::with_capacity(arr.len());
    for x in arr.iter() {
        match index(x, fields) {
            Some(i) if !out.contains(&i) => out.push(i),
            _ => return Err(NOT_DECLARED),
        }
    }
    Ok(out)
}

impl FieldRules {
    /// Reads `[["anyOf", [[i…]…]] | ["if", i, const, [i…], [i…]] …]` for an object of `fields`
    /// fields. Returns the rules with the subschema nodes and nesting levels their projection adds
    /// below the object (the object itself is level 1).
    pub(crate) fn from_value(
        v: Value<'_>,
        fields: usize,
    ) -> Result<(FieldRules, usize, u32), &'static str> {
        let arr = v
            .as_array()
            .ok_or("tools: codec program object rules must be an array")?;
        if arr.is_empty() || arr.len() > MAX_RULES {
            return Err("tools: codec program object needs 1 to 8 rules");
        }
        let mut rules = FieldRules::default();
        let (mut nodes, mut levels) = (0usize, 1u32);
        for r in arr.iter() {
            let r = r
                .as_array()
                .ok_or("tools: codec program rule must be an array")?;
            match r.get(0).and_then(|v| v.as_string()) {
                Some(op) if op.eq_str("anyOf") && r.len() == 2 => {
                    let groups = r
                        .get(1)
                        .and_then(|v| v.as_array())
                        .filter(|g| !g.is_empty() && g.len() <= MAX_GROUPS)
                        .ok_or("tools: codec program anyOf rule needs 1 to 16 groups")?;
                    let mut out = Vec::with_capacity(groups.len());
                    for g in groups.iter() {
                        let g = indexes(Some(g), fields)?;
                        if g.is_empty() {
                            return Err("tools: codec program anyOf group is empty");
                        }
                        out.push(g);
                    }
                    // `{anyOf: […]}` inside `allOf`, then one `{required}` per group.
                    nodes += 1 + out.len();
                    levels = levels.max(3);
                    rules.any_of.push(out);
                }
                Some(op) if op.eq_str("if") && r.len() == 5 => {
                    if rules.when.is_some() {
                        return Err("tools: codec program object has more than one if rule");
                    }
                    let field = r
                        .get(1)
                        .and_then(|v| index(v, fields))
                        .ok_or(NOT_DECLARED)?;
                    let equals = match r.get(2) {
                        Some(Value::String(s)) => Scalar::Str(s.as_str().into_owned()),
                        Some(Value::Number(n)) if n.as_f64().is_finite() => Scalar::Num(n.as_f64()),
                        Some(Value::Bool(b)) => Scalar::Bool(b),
                        _ => return Err("tools: codec program if rule compares with a string, number or boolean"),
                    };
                    let then = indexes(r.get(3), fields)?;
                    let otherwise = indexes(r.get(4), fields)?;
                    if then.is_empty() && otherwise.is_empty() {
                        return Err("tools: codec program if rule requires nothing");
                    }
                    // `if` with its `const` property, then `then` and `else` when they require anything.
                    nodes += 2 + usize::from(!then.is_empty()) + usize::from(!otherwise.is_empty());
                    levels = levels.max(3);
                    rules.when = Some(When {
                        field,
                        equals,
                        then,
                        otherwise,
                    });
                }
                _ => return Err("tools: codec program rule is not anyOf or if"),
            }
        }
        Ok((rules, nodes, levels))
    }

    /// Checks the rules against the decoded members (`present[i]` is field i's value, if any).
    pub(crate) fn check(&self, present: &[Option<Value<'_>>]) -> Result<(), Broken> {
        for groups in &self.any_of {
            if !groups
                .iter()
                .any(|g| g.iter().all(|&i| present[i].is_some()))
            {
                return Err(Broken::NoAlternative);
            }
        }
        if let Some(w) = &self.when {
            let holds = match (&w.equals, present[w.field]) {
                (Scalar::Str(s), Some(Value::String(v))) => v.eq_str(s),
                (Scalar::Num(x), Some(Value::Number(n))) => n.as_f64() == *x,
                (Scalar::Bool(b), Some(Value::Bool(v))) => v == *b,
                _ => false,
            };
            let required = if holds { &w.then } else { &w.otherwise };
            if let Some(&i) = required.iter().find(|&&i| present[i].is_none()) {
                return Err(Broken::Missing(i));
            }
        }
        Ok(())
    }
}
