//! The games' position JSON, shared: values on one line as the notations
//! print a position's fields (`[1, 2]`, `{"RED": 0, "BLU": 1}`), so every
//! game's canonical JSON spaces its items alike, and the readers' error.

use serde_json::Value;

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
    fn items_are_spaced_and_keys_keep_their_order() {
        let v: Value = serde_json::from_str(r#"{"b": [1,2,{"x":null}], "a": "q\""}"#).unwrap();
        assert_eq!(inline(&v), r#"{"b": [1, 2, {"x": null}], "a": "q\""}"#);
    }
}
