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
}

impl Reply {
    /// Data serialised into the envelope's `data`.
    pub fn data<T: Serialize>(data: T) -> Reply {
        Reply::Data(serde_json::to_value(data).unwrap_or(Value::Null))
    }
    /// No data, just success.
    pub fn done() -> Reply {
        Reply::Data(Value::Null)
    }
    /// Data serialised into `data`, with a message for the user (e.g. "saved").
    pub fn data_with_msg<T: Serialize>(data: T, msg: Text) -> Reply {
        Reply::DataWithMsg(serde_json::to_value(data).unwrap_or(Value::Null), msg)
    }
    /// Success with a message for the user (e.g. "saved").
    pub fn message(msg: Text) -> Reply {
        Reply::DataWithMsg(Value::Null, msg)
    }
}
