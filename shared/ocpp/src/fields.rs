//! Reading payload fields the way real chargers send them: numbers as
//! strings, idTags as numbers, timestamps with or without an offset and
//! with fractional seconds. What cannot be read at all is a CALLERROR
//! naming the field.

use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::frame::{CallError, ErrorCode};

pub type Field<T> = Result<T, CallError>;

fn missing(name: &str) -> CallError {
    CallError::new(ErrorCode::OccurenceConstraintViolation, format!("{name} is required"))
}

fn wrong(name: &str, want: &str) -> CallError {
    CallError::new(ErrorCode::TypeConstraintViolation, format!("{name} must be {want}"))
}

/// An integer, also when sent as a string ("1") or a whole float (1.0).
pub fn opt_int(p: &Value, name: &str) -> Field<Option<i64>> {
    match p.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)).map(Some).ok_or_else(|| wrong(name, "an integer")),
        Some(Value::String(s)) => s.trim().parse::<i64>().map(Some).map_err(|_| wrong(name, "an integer")),
        Some(_) => Err(wrong(name, "an integer")),
    }
}

pub fn int(p: &Value, name: &str) -> Field<i64> {
    opt_int(p, name)?.ok_or_else(|| missing(name))
}

/// A text, also when sent as a number (idTag 12345).
pub fn opt_text(p: &Value, name: &str) -> Field<Option<String>> {
    match p.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(wrong(name, "a string")),
    }
}

pub fn text(p: &Value, name: &str) -> Field<String> {
    opt_text(p, name)?.ok_or_else(|| missing(name))
}

/// A text of at most `max` characters (OCPP 1.6's CiString20Type,
/// CiString25Type, ...): a longer one violates the field's data type, and
/// is refused naming the field rather than cut (nothing is stored past the
/// schema's limits).
pub fn opt_text_max(p: &Value, name: &str, max: usize) -> Field<Option<String>> {
    match opt_text(p, name)? {
        Some(s) if s.chars().count() > max => Err(CallError::new(
            ErrorCode::TypeConstraintViolation,
            format!("{name} is at most {max} characters (CiString{max}Type); got {}", s.chars().count()),
        )),
        other => Ok(other),
    }
}

pub fn text_max(p: &Value, name: &str, max: usize) -> Field<String> {
    opt_text_max(p, name, max)?.ok_or_else(|| missing(name))
}

/// The longest value an enumeration field may have: values 1.6 does not
/// define are accepted as sent (chargers send newer ones), up to this.
pub const MAX_ENUM_LEN: usize = 50;

/// A value of an OCPP enumeration (status, error code, reason, ...): read
/// as sent, unknown values too, but a text longer than any value could be
/// is refused naming the field.
pub fn opt_enum(p: &Value, name: &str) -> Field<Option<String>> {
    match opt_text(p, name)? {
        Some(s) if s.chars().count() > MAX_ENUM_LEN => Err(CallError::new(ErrorCode::PropertyConstraintViolation, format!("{name} is not a value of its enumeration ({} characters)", s.chars().count()))),
        other => Ok(other),
    }
}

pub fn enumerated(p: &Value, name: &str) -> Field<String> {
    opt_enum(p, name)?.ok_or_else(|| missing(name))
}

/// The longest dateTime text (RFC 3339 with a fraction and an offset).
const MAX_TIME_LEN: usize = 40;

/// Parses an OCPP dateTime: RFC 3339, also without an offset (read as UTC).
pub fn parse_time(s: &str) -> Option<i64> {
    let s = s.trim();
    OffsetDateTime::parse(s, &Rfc3339)
        .or_else(|_| OffsetDateTime::parse(&format!("{s}Z"), &Rfc3339))
        .ok()
        .map(|t| t.unix_timestamp())
}

/// A timestamp field: the text as sent and its time (None when unreadable;
/// a text longer than any dateTime is refused).
pub fn opt_time(p: &Value, name: &str) -> Field<Option<(String, Option<i64>)>> {
    match opt_text(p, name)? {
        Some(t) if t.chars().count() > MAX_TIME_LEN => Err(wrong(name, "a dateTime (RFC 3339)")),
        other => Ok(other.map(|t| {
            let at = parse_time(&t);
            (t, at)
        })),
    }
}

/// A decimal reading ("12.5", 12.5).
pub fn decimal(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lenient_numbers_and_texts() {
        let p = json!({"a": "3", "b": 4, "c": 5.0, "d": "x", "e": 12345, "f": [1]});
        assert_eq!(opt_int(&p, "a").unwrap(), Some(3));
        assert_eq!(int(&p, "b").unwrap(), 4);
        assert_eq!(int(&p, "c").unwrap(), 5);
        assert_eq!(int(&p, "d").unwrap_err().code, ErrorCode::TypeConstraintViolation);
        assert_eq!(int(&p, "zz").unwrap_err().code, ErrorCode::OccurenceConstraintViolation);
        assert_eq!(text(&p, "e").unwrap(), "12345");
        assert_eq!(text(&p, "f").unwrap_err().code, ErrorCode::TypeConstraintViolation);
    }

    #[test]
    fn texts_are_held_to_their_schema_lengths() {
        let p = json!({"v": "a".repeat(20), "w": "a".repeat(21), "s": "SomethingNew", "e": "x".repeat(51), "t": format!("2025-03-10T08:00:00Z{}", " ".repeat(30))});
        assert_eq!(text_max(&p, "v", 20).unwrap().len(), 20);
        let e = text_max(&p, "w", 20).unwrap_err();
        assert_eq!(e.code, ErrorCode::TypeConstraintViolation);
        assert!(e.description.starts_with("w is at most 20 characters"), "{}", e.description);
        assert_eq!(enumerated(&p, "s").unwrap(), "SomethingNew", "an unknown value is read as sent");
        assert_eq!(enumerated(&p, "e").unwrap_err().code, ErrorCode::PropertyConstraintViolation);
        assert_eq!(opt_time(&p, "t").unwrap_err().code, ErrorCode::TypeConstraintViolation);
        assert_eq!(opt_text_max(&p, "missing", 20).unwrap(), None);
    }

    #[test]
    fn times_with_and_without_offsets() {
        assert_eq!(parse_time("2025-03-10T08:00:00Z"), Some(1_741_593_600));
        assert_eq!(parse_time("2025-03-10T08:00:00.123Z"), Some(1_741_593_600));
        assert_eq!(parse_time("2025-03-10T16:00:00+08:00"), Some(1_741_593_600));
        assert_eq!(parse_time("2025-03-10T08:00:00"), Some(1_741_593_600));
        assert_eq!(parse_time("1970-01-01T00:00:10Z"), Some(10));
        assert_eq!(parse_time("yesterday"), None);
    }
}
