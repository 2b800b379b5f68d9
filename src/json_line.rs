//! The games' position JSON, shared: values on one line as the notations
//! print a position's fields (`[1, 2]`, `{"RED": 0, "BLU": 1}`), so every
//! game's canonical JSON spaces its items alike, the readers' error,
//! and the one way every JSON reader of the project parses: [`parse`]
//! and [`from_str`], which refuse an object with a key twice
//! (serde_json's `Value` silently keeps the last one, so `"turn"` twice
//! would be read without a word).

use std::fmt;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON text as a [`Value`], refusing a key twice in any object (and
/// anything after the value but whitespace). serde_json's recursion
/// limit still bounds the depth.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Strict::deserialize(&mut de)?.0;
    de.end()?;
    Ok(v)
}

/// As [`parse`], for bytes (a request's body).
pub fn parse_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let v = Strict::deserialize(&mut de)?.0;
    de.end()?;
    Ok(v)
}

/// A typed value from JSON text, refusing a key twice in any object
/// (checked first with [`parse`]; the type's own errors come after).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    parse(text)?;
    serde_json::from_str(text)
}

/// As [`from_str`], for bytes.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    parse_slice(bytes)?;
    serde_json::from_slice(bytes)
}

/// A [`Value`] whose objects were read without a duplicate key.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Strict, E> {
        Ok(Strict(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Strict, E> {
        Ok(Strict(Value::Number(v.into())))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Strict, E> {
        Ok(Strict(Value::Number(v.into())))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Strict, E> {
        Ok(Strict(
            Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, v: &str) -> Result<Strict, E> {
        Ok(Strict(Value::String(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<Strict, E> {
        Ok(Strict(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Strict, E> {
        Ok(Strict(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Strict, D::Error> {
        Strict::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Strict(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                let shown: String = key.chars().take(40).collect();
                return Err(de::Error::custom(format!(
                    "duplicate key {}: it appears twice in one object",
                    Value::String(shown)
                )));
            }
            let Strict(v) = map.next_value()?;
            fields.insert(key, v);
        }
        Ok(Strict(Value::Object(fields)))
    }
}

/// A malformed position: the field (a JSON path such as `balls[3].at`)
/// and what is wrong with it, with the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct JsonError {
    pub field: String,
    pub problem: String,
}

/// Refuses with `field: problem`.
pub fn err<T>(field: impl Into<String>, problem: impl Into<String>) -> Result<T, JsonError> {
    Err(JsonError {
        field: field.into(),
        problem: problem.into(),
    })
}

/// A value on one line, with `, ` and `: ` between items.
pub fn inline(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), inline(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_twice_is_refused_at_any_depth() {
        let e = parse(r#"{"turn": 1, "turn": 2}"#).unwrap_err().to_string();
        assert!(e.contains("duplicate key \"turn\""), "{e}");
        assert!(parse(r#"[{"a": {"b": 1, "b": 1}}]"#).is_err());
        assert!(from_str::<std::collections::HashMap<String, u8>>(r#"{"x": 1, "x": 2}"#).is_err());
        assert!(parse_slice(br#"{"a": 1} x"#).is_err());
        // Same keys in different objects are fine, and values read as serde_json reads them.
        let text =
            r#"{"a": {"k": 1}, "b": {"k": [1.5, -2, 18446744073709551615, null, true, "s"]}}"#;
        assert_eq!(
            parse(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        // Depth stays bounded by serde_json's recursion limit.
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn items_are_spaced_and_keys_keep_their_order() {
        let v: Value = serde_json::from_str(r#"{"b": [1,2,{"x":null}], "a": "q\""}"#).unwrap();
        assert_eq!(inline(&v), r#"{"b": [1, 2, {"x": null}], "a": "q\""}"#);
    }
}
