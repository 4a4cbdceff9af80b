//! What a handler answers: data for the envelope, optionally with a
//! message of its own, or a raw response (file downloads).

use bytes::Bytes;
use envelope::Text;
use serde::Serialize;
use serde_json::Value;

pub enum Reply {
    Data(Value),
    DataWithMsg(Value, Text),
    Raw(http::Response<Bytes>),
    /// The handler's answer could not be encoded as JSON (a bug: e.g. a map
    /// with non-string keys). The dispatch logs it and answers 500, so a
    /// caller never mistakes it for a success with `data: null`.
    Unencodable(String),
}

impl Reply {
    /// Data serialised into the envelope's `data`.
    pub fn data<T: Serialize>(data: T) -> Reply {
        match serde_json::to_value(data) {
            Ok(v) => Reply::Data(v),
            Err(e) => Reply::Unencodable(e.to_string()),
        }
    }
    /// No data, just success.
    pub fn done() -> Reply {
        Reply::Data(Value::Null)
    }
    /// Data serialised into `data`, with a message for the user (e.g. "saved").
    pub fn data_with_msg<T: Serialize>(data: T, msg: Text) -> Reply {
        match serde_json::to_value(data) {
            Ok(v) => Reply::DataWithMsg(v, msg),
            Err(e) => Reply::Unencodable(e.to_string()),
        }
    }
    /// Success with a message for the user (e.g. "saved").
    pub fn message(msg: Text) -> Reply {
        Reply::DataWithMsg(Value::Null, msg)
    }
}

/// The answer of a save that the page sends again with its next edit
/// (optimistic locking): the record's version after the change.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct Versioned {
    pub version: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn an_answer_json_cannot_hold_is_not_a_success() {
        // JSON object keys must be strings: a map keyed by tuples fails.
        let bad: HashMap<(u8, u8), u8> = HashMap::from([((1, 2), 3)]);
        assert!(matches!(Reply::data(&bad), Reply::Unencodable(_)));
        assert!(matches!(Reply::data_with_msg(&bad, envelope::msg::common::saved()), Reply::Unencodable(_)));
        assert!(matches!(Reply::data(HashMap::from([("a", 1)])), Reply::Data(_)));
    }
}
