//! JSON values on one line, as the games' notations print the fields of
//! a position (`[1, 2]`, `{"RED": 0, "BLU": 1}`): one writer, so every
//! game's canonical JSON spaces its items alike.

use serde_json::Value;

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
