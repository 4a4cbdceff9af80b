//! OCPP-J framing: `[2, id, action, payload]` (CALL), `[3, id, payload]`
//! (CALLRESULT), `[4, id, code, description, details]` (CALLERROR).
//! Parsing says exactly what is wrong, so a bad frame gets the CALLERROR
//! the specification names instead of a dropped connection.

use serde::Serialize;
use serde_json::{json, Value};

use crate::Version;

/// The error codes of OCPP-J. 1.6 and 2.0.1 spell two of them apart
/// ([`ErrorCode::spelled`]); 2.0.1 adds two more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    NotImplemented,
    NotSupported,
    InternalError,
    ProtocolError,
    SecurityError,
    /// 2.0.1: FormatViolation.
    FormationViolation,
    PropertyConstraintViolation,
    /// 1.6 spells it "Occurence", 2.0.1 "Occurrence".
    OccurenceConstraintViolation,
    TypeConstraintViolation,
    GenericError,
    /// 2.0.1 only: a message type number it does not know (1.6 has
    /// FormationViolation for it).
    MessageTypeNotSupported,
    /// 2.0.1 only: the frame is not a JSON array of the RPC framework (1.6
    /// has FormationViolation for it).
    RpcFrameworkError,
}

impl ErrorCode {
    /// The code as OCPP 1.6 spells it.
    pub fn as_str(self) -> &'static str {
        self.spelled(Version::V16)
    }

    /// The code as `version` spells it.
    pub fn spelled(self, version: Version) -> &'static str {
        let v201 = version == Version::V201;
        match self {
            ErrorCode::NotImplemented => "NotImplemented",
            ErrorCode::NotSupported => "NotSupported",
            ErrorCode::InternalError => "InternalError",
            ErrorCode::ProtocolError => "ProtocolError",
            ErrorCode::SecurityError => "SecurityError",
            ErrorCode::FormationViolation if v201 => "FormatViolation",
            ErrorCode::FormationViolation => "FormationViolation",
            ErrorCode::PropertyConstraintViolation => "PropertyConstraintViolation",
            ErrorCode::OccurenceConstraintViolation if v201 => "OccurrenceConstraintViolation",
            ErrorCode::OccurenceConstraintViolation => "OccurenceConstraintViolation",
            ErrorCode::TypeConstraintViolation => "TypeConstraintViolation",
            ErrorCode::GenericError => "GenericError",
            ErrorCode::MessageTypeNotSupported if v201 => "MessageTypeNotSupported",
            ErrorCode::RpcFrameworkError if v201 => "RpcFrameworkError",
            ErrorCode::MessageTypeNotSupported | ErrorCode::RpcFrameworkError => "FormationViolation",
        }
    }
}

/// A CALLERROR to send: the code and a description for the charger's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    pub code: ErrorCode,
    pub description: String,
}

impl CallError {
    pub fn new(code: ErrorCode, description: impl Into<String>) -> Self {
        CallError { code, description: description.into() }
    }

    /// The server could not handle the message now (its store failed):
    /// the charger may send it again later.
    pub fn internal() -> Self {
        CallError::new(ErrorCode::InternalError, "the server could not handle the message now; send it again later")
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    Call { id: String, action: String, payload: Value },
    Result { id: String, payload: Value },
    Error { id: String, code: String, description: String, details: Value },
}

/// A frame that could not be read: the message id when it could be found
/// (the CALLERROR must carry it) and what was wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    pub id: Option<String>,
    pub error: CallError,
}

/// The longest message id OCPP-J allows.
pub const MAX_ID_LEN: usize = 36;

pub fn parse(text: &str) -> Result<Frame, Unreadable> {
    let bad = |id: Option<String>, code, what: &str| Unreadable { id, error: CallError::new(code, what) };
    let value: Value = serde_json::from_str(text).map_err(|e| bad(None, ErrorCode::FormationViolation, &format!("not JSON: {e}")))?;
    let Value::Array(parts) = value else {
        return Err(bad(None, ErrorCode::FormationViolation, "a frame is a JSON array"));
    };
    let id = match parts.get(1) {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= MAX_ID_LEN => Some(s.clone()),
        _ => None,
    };
    let Some(kind) = parts.first().and_then(Value::as_i64) else {
        return Err(bad(id, ErrorCode::FormationViolation, "the first element must be the message type 2, 3 or 4"));
    };
    let Some(id) = id else {
        return Err(bad(None, ErrorCode::FormationViolation, "the second element must be the message id (a string of 1-36 characters)"));
    };
    let mut parts = parts.into_iter().skip(2);
    match kind {
        2 => {
            let action = match parts.next() {
                Some(Value::String(a)) if !a.is_empty() => a,
                _ => return Err(bad(Some(id), ErrorCode::FormationViolation, "a CALL's third element is the action name")),
            };
            match (parts.next(), parts.next()) {
                (Some(payload @ Value::Object(_)), None) => Ok(Frame::Call { id, action, payload }),
                (None, _) => Err(bad(Some(id), ErrorCode::ProtocolError, "a CALL needs a payload object")),
                _ => Err(bad(Some(id), ErrorCode::FormationViolation, "a CALL is [2, id, action, {payload}]")),
            }
        }
        3 => match (parts.next(), parts.next()) {
            (Some(payload), None) => Ok(Frame::Result { id, payload }),
            _ => Err(bad(Some(id), ErrorCode::FormationViolation, "a CALLRESULT is [3, id, {payload}]")),
        },
        4 => {
            let code = parts.next().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
            let description = parts.next().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
            let details = parts.next().unwrap_or(json!({}));
            Ok(Frame::Error { id, code, description, details })
        }
        _ => Err(bad(Some(id), ErrorCode::FormationViolation, "the message type must be 2, 3 or 4")),
    }
}

/// A CALL: `[2, id, action, payload]`.
pub fn call(id: &str, action: &str, payload: &impl Serialize) -> String {
    serde_json::to_string(&(2, id, action, payload)).unwrap_or_default()
}

/// A CALLRESULT: `[3, id, payload]`.
pub fn call_result(id: &str, payload: &impl Serialize) -> String {
    serde_json::to_string(&(3, id, payload)).unwrap_or_default()
}

/// A CALLERROR in the spelling of OCPP 1.6: `[4, id, code, description, {}]`.
pub fn call_error(id: &str, error: &CallError) -> String {
    call_error_in(Version::V16, id, error)
}

/// A CALLERROR in the spelling of `version`.
pub fn call_error_in(version: Version, id: &str, error: &CallError) -> String {
    serde_json::to_string(&(4, id, error.code.spelled(version), &error.description, json!({}))).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_kinds() {
        assert_eq!(
            parse(r#"[2,"a1","Heartbeat",{}]"#).unwrap(),
            Frame::Call { id: "a1".into(), action: "Heartbeat".into(), payload: json!({}) }
        );
        assert_eq!(parse(r#"[3,"a1",{"x":1}]"#).unwrap(), Frame::Result { id: "a1".into(), payload: json!({"x":1}) });
        assert!(matches!(parse(r#"[4,"a1","NotSupported","no",{}]"#).unwrap(), Frame::Error { code, .. } if code == "NotSupported"));
    }

    #[test]
    fn bad_frames_say_what_is_wrong_and_keep_the_id_when_readable() {
        for (text, id, code) in [
            ("", None, ErrorCode::FormationViolation),
            ("{}", None, ErrorCode::FormationViolation),
            ("[2,", None, ErrorCode::FormationViolation),
            (r#"[9,"x","A",{}]"#, Some("x"), ErrorCode::FormationViolation),
            (r#"[2,"x","A"]"#, Some("x"), ErrorCode::ProtocolError),
            (r#"[2,"x","A",[]]"#, Some("x"), ErrorCode::FormationViolation),
            (r#"[2,"x",5,{}]"#, Some("x"), ErrorCode::FormationViolation),
            (r#"[2,17,"A",{}]"#, None, ErrorCode::FormationViolation),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!((e.id.as_deref(), e.error.code), (id, code), "{text}");
        }
    }

    #[test]
    fn writes_frames() {
        assert_eq!(call_result("7", &json!({})), r#"[3,"7",{}]"#);
        assert_eq!(call_error("7", &CallError::new(ErrorCode::NotImplemented, "no")), r#"[4,"7","NotImplemented","no",{}]"#);
        assert_eq!(call("7", "Reset", &json!({"type":"Soft"})), r#"[2,"7","Reset",{"type":"Soft"}]"#);
        assert_eq!(call_result("a\"b", &json!({"x": 1})), r#"[3,"a\"b",{"x":1}]"#, "the id is JSON-escaped");
    }

    #[test]
    fn codes_in_each_versions_spelling() {
        assert_eq!(ErrorCode::OccurenceConstraintViolation.spelled(Version::V16), "OccurenceConstraintViolation");
        assert_eq!(ErrorCode::OccurenceConstraintViolation.spelled(Version::V201), "OccurrenceConstraintViolation");
        assert_eq!(ErrorCode::FormationViolation.spelled(Version::V201), "FormatViolation");
        assert_eq!(ErrorCode::RpcFrameworkError.spelled(Version::V16), "FormationViolation");
        let e = CallError::new(ErrorCode::OccurenceConstraintViolation, "idTag is required");
        assert_eq!(call_error_in(Version::V201, "9", &e), r#"[4,"9","OccurrenceConstraintViolation","idTag is required",{}]"#);
    }
}
