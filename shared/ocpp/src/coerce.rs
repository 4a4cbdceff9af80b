//! The coercions a charger's frame gets before its schema is checked
//! ([`crate::schema::Mode::Charger`]): what real chargers get wrong in
//! ways that carry no doubt about what they meant. Each is one function
//! here, tested below and listed in `docs/charger-link.md`. Everything
//! else in a charger's frame is held to the schema.
//!
//! Beside these, StopTransaction is always confirmed: what is wrong in one
//! is replaced as [`crate::v16::salvage_stop`] documents, never refused.

use serde_json::Number;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The longest text an enumeration field may carry when its value is not
/// one the schema lists (no OCPP enumeration value is longer).
pub const MAX_UNLISTED_LEN: usize = 50;

/// An integer field sent as a whole float (`1.0`) is that integer.
pub fn whole_number(n: &Number) -> Option<i64> {
    n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15).map(|f| f as i64)
}

/// An integer field sent as a string of digits (`"1"`, `" 2 "`) is that
/// integer.
pub fn integer_text(s: &str) -> Option<i64> {
    s.trim().parse().ok()
}

/// A decimal field sent as a string (`"12.5"`) is that number.
pub fn decimal_text(s: &str) -> Option<f64> {
    s.trim().parse().ok()
}

/// A text field sent as a number (an idTag `12345`) is the number's text.
pub fn number_as_text(n: &Number) -> String {
    n.to_string()
}

/// A dateTime without an offset (`2025-03-10T08:00:00`) is UTC; with
/// fractions of a second it is the second it falls in. Anything else that
/// is not RFC 3339 is refused. Returns unix seconds.
pub fn date_time(s: &str) -> Option<i64> {
    // Longer than any dateTime could be: not one, whatever it ends with.
    if s.chars().count() > 40 {
        return None;
    }
    let s = s.trim();
    OffsetDateTime::parse(s, &Rfc3339).or_else(|_| OffsetDateTime::parse(&format!("{s}Z"), &Rfc3339)).ok().map(|t| t.unix_timestamp())
}

/// An enumeration value the schema does not list: in another letter case
/// it is the listed value (`kwh` is `kWh`); otherwise it is kept as sent
/// (chargers send values of later OCPP versions and vendors' own) up to
/// [`MAX_UNLISTED_LEN`] characters, and a longer one is refused (None).
pub fn unlisted(s: &str, values: &[&str]) -> Option<Result<usize, String>> {
    if let Some(i) = values.iter().position(|v| v.eq_ignore_ascii_case(s)) {
        return Some(Ok(i));
    }
    (s.chars().count() <= MAX_UNLISTED_LEN).then(|| Err(s.to_string()))
}

/// `null` for a field is read as the field left out (the schemas have no
/// nullable field; chargers written against other libraries send nulls).
pub fn null_is_absent() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{parse, Cursor, FromJson, Keyword, Mode, Violation};
    use serde_json::{json, Value};

    #[test]
    fn numbers_and_texts() {
        assert_eq!(whole_number(&Number::from_f64(5.0).unwrap()), Some(5));
        assert_eq!(whole_number(&Number::from_f64(5.5).unwrap()), None);
        assert_eq!(integer_text(" 3 "), Some(3));
        assert_eq!(integer_text("x"), None);
        assert_eq!(decimal_text("12.5"), Some(12.5));
        assert_eq!(number_as_text(&Number::from(12345)), "12345");
    }

    #[test]
    fn times_with_and_without_offsets() {
        assert_eq!(date_time("2025-03-10T08:00:00Z"), Some(1_741_593_600));
        assert_eq!(date_time("2025-03-10T08:00:00.123Z"), Some(1_741_593_600));
        assert_eq!(date_time("2025-11-24T10:00:00.123456Z"), Some(1_763_978_400));
        assert_eq!(date_time("2025-03-10T16:00:00+08:00"), Some(1_741_593_600));
        assert_eq!(date_time("2025-03-10T08:00:00"), Some(1_741_593_600));
        assert_eq!(date_time("1970-01-01T00:00:10Z"), Some(10));
        assert_eq!(date_time("yesterday"), None);
        assert_eq!(date_time(&format!("2025-03-10T08:00:00Z{}", " ".repeat(40))), None);
    }

    #[test]
    fn unlisted_enumeration_values() {
        let values = &["Wh", "kWh"];
        assert_eq!(unlisted("kwh", values), Some(Ok(1)));
        assert_eq!(unlisted("SomethingNew", values), Some(Err("SomethingNew".into())));
        assert_eq!(unlisted(&"x".repeat(51), values), None);
    }

    struct Probe(Option<i64>, Option<String>);

    impl FromJson for Probe {
        fn from_json(v: &Value, c: &mut Cursor) -> Result<Self, Violation> {
            let o = c.object(v)?;
            Ok(Probe(c.optional(o, "n", |v, c| c.integer(v, None, None))?, c.optional(o, "s", |v, c| c.string(v, Some(20)))?))
        }
    }

    #[test]
    fn a_charger_frame_gets_the_coercions_and_a_strict_read_does_not() {
        let v = json!({"n": "7", "s": 12345});
        let lenient: Probe = parse(&v, Mode::Charger).unwrap();
        assert_eq!((lenient.0, lenient.1.as_deref()), (Some(7), Some("12345")));
        assert_eq!(parse::<Probe>(&v, Mode::Strict).err().map(|e| (e.keyword, e.field())), Some((Keyword::Type, "n".into())));
        let nulls: Probe = parse(&json!({"n": null, "s": null}), Mode::Charger).unwrap();
        assert_eq!((nulls.0, nulls.1), (None, None), "null is absent");
        assert_eq!(parse::<Probe>(&json!({"n": null}), Mode::Strict).err().map(|e| e.keyword), Some(Keyword::Type));
    }
}
