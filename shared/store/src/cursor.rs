//! The opaque page cursor. Both adapters encode the key attributes of the
//! last item a page returned (the table's `PK`/`SK`, plus the index's key
//! attributes for an index query), the same thing DynamoDB calls
//! `LastEvaluatedKey`. Callers treat the text as opaque.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{Map, Value};

use crate::{Index, Query, StoreError, PK, SK};

/// The key attributes of a cursor, by attribute name (all strings).
pub type CursorKey = Map<String, Value>;

/// The attributes a cursor of this query carries.
pub fn key_attrs(index: Option<Index>) -> Vec<&'static str> {
    let mut attrs = vec![PK, SK];
    if let Some(index) = index {
        attrs.push(index.pk_attr());
        attrs.push(index.sk_attr());
    }
    attrs
}

/// The cursor that resumes after `item`.
pub fn encode(index: Option<Index>, item: &Map<String, Value>) -> String {
    let key: CursorKey = key_attrs(index)
        .into_iter()
        .filter_map(|attr| item.get(attr).map(|v| (attr.to_string(), v.clone())))
        .collect();
    URL_SAFE_NO_PAD.encode(Value::Object(key).to_string())
}

/// Reads a cursor back, checking it was made for this query's partition,
/// so a cursor from another list cannot be used to read past its own.
pub fn decode(query: &Query, cursor: &str) -> Result<CursorKey, StoreError> {
    let bad = || StoreError::Invalid("the page cursor is not valid for this list; start from the first page".into());
    let bytes = URL_SAFE_NO_PAD.decode(cursor.trim()).map_err(|_| bad())?;
    let Ok(Value::Object(key)) = serde_json::from_slice::<Value>(&bytes) else {
        return Err(bad());
    };
    let attrs = key_attrs(query.index);
    if key.len() != attrs.len() || !attrs.iter().all(|a| key.get(*a).is_some_and(Value::is_string)) {
        return Err(bad());
    }
    let partition_attr = query.index.map_or(PK, Index::pk_attr);
    if key.get(partition_attr).and_then(Value::as_str) != Some(query.pk.as_str()) {
        return Err(bad());
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn round_trips_a_table_cursor() {
        let item = obj(json!({"PK": "A", "SK": "2", "other": 1}));
        let q = Query::partition("A");
        let key = decode(&q, &encode(None, &item)).unwrap();
        assert_eq!(Value::Object(key), json!({"PK": "A", "SK": "2"}));
    }

    #[test]
    fn round_trips_an_index_cursor() {
        let item = obj(json!({"PK": "A", "SK": "2", "GSI1PK": "L", "GSI1SK": "9"}));
        let q = Query::index(Index::Gsi1, "L");
        let key = decode(&q, &encode(Some(Index::Gsi1), &item)).unwrap();
        assert_eq!(key.len(), 4);
    }

    #[test]
    fn refuses_garbage_and_cursors_of_another_partition() {
        let q = Query::partition("A");
        assert!(decode(&q, "%%%").is_err());
        assert!(decode(&q, &URL_SAFE_NO_PAD.encode("[1]")).is_err());
        let other = encode(None, &obj(json!({"PK": "B", "SK": "1"})));
        assert!(decode(&q, &other).is_err());
        let index_cursor = encode(Some(Index::Gsi1), &obj(json!({"PK": "A", "SK": "1", "GSI1PK": "A", "GSI1SK": "1"})));
        assert!(decode(&q, &index_cursor).is_err(), "an index cursor is not a table cursor");
    }
}
