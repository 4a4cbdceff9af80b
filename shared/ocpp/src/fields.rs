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

/// Parses an OCPP dateTime: RFC 3339, also without an offset (read as UTC).
pub fn parse_time(s: &str) -> Option<i64> {
    let s = s.trim();
    OffsetDateTime::parse(s, &Rfc3339)
        .or_else(|_| OffsetDateTime::parse(&format!("{s}Z"), &Rfc3339))
        .ok()
        .map(|t| t.unix_timestamp())
}

/// A timestamp field: the text as sent and its time (None when unreadable).
pub fn opt_time(p: &Value, name: &str) -> Field<Option<(String, Option<i64>)>> {
    Ok(opt_text(p, name)?.map(|t| {
        let at = parse_time(&t);
        (t, at)
    }))
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
    fn times_with_and_without_offsets() {
        assert_eq!(parse_time("2025-03-10T08:00:00Z"), Some(1_741_593_600));
        assert_eq!(parse_time("2025-03-10T08:00:00.123Z"), Some(1_741_593_600));
        assert_eq!(parse_time("2025-03-10T16:00:00+08:00"), Some(1_741_593_600));
        assert_eq!(parse_time("2025-03-10T08:00:00"), Some(1_741_593_600));
        assert_eq!(parse_time("1970-01-01T00:00:10Z"), Some(10));
        assert_eq!(parse_time("yesterday"), None);
    }
}
