//! What the generated message types (`v16::messages`, `v201::messages`)
//! are read with: one pass over the frame's JSON that checks every schema
//! keyword on the way and builds the typed value, or stops at the first
//! violation with its path and the OCPP-J error code it earns.
//!
//! Two modes. [`Mode::Strict`] is the schema exactly: what a charger-side
//! client (the simulator, the tests) reads from this server, and what an
//! outbound payload is checked with before it is queued. [`Mode::Charger`]
//! is how a charger's own frames are read: the coercions of
//! [`crate::coerce`] are applied first (numbers sent as strings, ids sent
//! as numbers, timestamps without an offset, enumeration values the schema
//! does not list, null for an absent field), then the schema. Each
//! coercion is listed, with why, in `docs/charger-link.md`.
//!
//! Schema keywords and the error code a violation of each gets
//! ([`Keyword::error_code`]; `docs/charger-link.md` has the same table, a
//! test checks that they agree):
//!
//! | keyword | code |
//! |---|---|
//! | `type` | TypeConstraintViolation |
//! | `maxLength` | TypeConstraintViolation |
//! | `format` | TypeConstraintViolation |
//! | `required` | OccurenceConstraintViolation |
//! | `minItems` | OccurenceConstraintViolation |
//! | `maxItems` | OccurenceConstraintViolation |
//! | `additionalProperties` | FormationViolation |
//! | `enum` | PropertyConstraintViolation |
//! | `minimum` | PropertyConstraintViolation |
//! | `maximum` | PropertyConstraintViolation |
//! | `multipleOf` | PropertyConstraintViolation |

use std::fmt::{self, Write as _};

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::coerce;
use crate::frame::{CallError, ErrorCode};

/// How strictly a payload is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The schema exactly.
    Strict,
    /// A charger's frame: [`crate::coerce`]'s coercions, then the schema.
    Charger,
}

/// The JSON Schema keywords the OCPP schemas use that a payload can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keyword {
    Type,
    MaxLength,
    Format,
    Required,
    MinItems,
    MaxItems,
    AdditionalProperties,
    Enum,
    Minimum,
    Maximum,
    MultipleOf,
}

impl Keyword {
    pub const ALL: &'static [Keyword] = &[
        Keyword::Type,
        Keyword::MaxLength,
        Keyword::Format,
        Keyword::Required,
        Keyword::MinItems,
        Keyword::MaxItems,
        Keyword::AdditionalProperties,
        Keyword::Enum,
        Keyword::Minimum,
        Keyword::Maximum,
        Keyword::MultipleOf,
    ];

    /// The keyword as the schemas spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Type => "type",
            Keyword::MaxLength => "maxLength",
            Keyword::Format => "format",
            Keyword::Required => "required",
            Keyword::MinItems => "minItems",
            Keyword::MaxItems => "maxItems",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::Enum => "enum",
            Keyword::Minimum => "minimum",
            Keyword::Maximum => "maximum",
            Keyword::MultipleOf => "multipleOf",
        }
    }

    /// The OCPP-J error a violation of this keyword is answered with. A
    /// field's data type (integer, string, CiString of a length, dateTime)
    /// is a type constraint; how often a field or item occurs is an
    /// occurrence constraint; a field the message does not define breaks
    /// the message's structure (formation); a value outside what the field
    /// allows (its enumeration, its range) is a property constraint.
    pub fn error_code(self) -> ErrorCode {
        match self {
            Keyword::Type | Keyword::MaxLength | Keyword::Format => ErrorCode::TypeConstraintViolation,
            Keyword::Required | Keyword::MinItems | Keyword::MaxItems => ErrorCode::OccurenceConstraintViolation,
            Keyword::AdditionalProperties => ErrorCode::FormationViolation,
            Keyword::Enum | Keyword::Minimum | Keyword::Maximum | Keyword::MultipleOf => ErrorCode::PropertyConstraintViolation,
        }
    }
}

/// One step of a field's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Field(String),
    Item(usize),
}

/// Where a payload breaks its schema, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub keyword: Keyword,
    pub path: Vec<Step>,
    /// What is wrong, in words that follow the field's path.
    pub problem: String,
}

impl Violation {
    /// The field's path as `meterValue[0].sampledValue[1].value` (empty
    /// for the payload itself).
    pub fn field(&self) -> String {
        render(&self.path)
    }

    /// The first step's field name, if the path starts with one.
    pub fn top_field(&self) -> Option<&str> {
        match self.path.first() {
            Some(Step::Field(f)) => Some(f),
            _ => None,
        }
    }

    pub fn error_code(&self) -> ErrorCode {
        self.keyword.error_code()
    }

    /// The CALLERROR for this violation: its code and the field's path.
    pub fn to_call_error(&self) -> CallError {
        CallError::new(self.error_code(), self.to_string())
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field() {
            path if path.is_empty() => write!(f, "the payload {}", self.problem),
            path => write!(f, "{path} {}", self.problem),
        }
    }
}

fn render(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Step::Item(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

#[derive(Debug, Clone, Copy)]
enum Seg {
    Field(&'static str),
    Item(usize),
}

/// The reading position: the mode and the path to the value being read
/// (kept as borrowed steps; copied out only when a violation is made).
pub struct Cursor {
    mode: Mode,
    path: Vec<Seg>,
}

/// A type read from an OCPP payload (every generated message type).
pub trait FromJson: Sized {
    fn from_json(v: &Value, c: &mut Cursor) -> Result<Self, Violation>;
}

/// Reads `v` as `T`.
pub fn parse<T: FromJson>(v: &Value, mode: Mode) -> Result<T, Violation> {
    T::from_json(v, &mut Cursor { mode, path: Vec::with_capacity(8) })
}

/// The JSON type of a value, in a violation's words.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Cursor {
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// A violation at the current path.
    pub fn violation(&self, keyword: Keyword, problem: impl Into<String>) -> Violation {
        let path = self
            .path
            .iter()
            .map(|s| match s {
                Seg::Field(f) => Step::Field((*f).to_string()),
                Seg::Item(i) => Step::Item(*i),
            })
            .collect();
        Violation { keyword, path, problem: problem.into() }
    }

    fn wrong_type(&self, want: &str, got: &Value) -> Violation {
        self.violation(Keyword::Type, format!("must be {want} (got {})", kind(got)))
    }

    /// The value as an object (`type: object`).
    pub fn object<'v>(&self, v: &'v Value) -> Result<&'v Map<String, Value>, Violation> {
        v.as_object().ok_or_else(|| self.wrong_type("an object", v))
    }

    /// Refuses a field the object's schema does not define
    /// (`additionalProperties: false`).
    pub fn only(&self, o: &Map<String, Value>, known: &[&str]) -> Result<(), Violation> {
        match o.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => {
                let mut v = self.violation(Keyword::AdditionalProperties, "is not a field of this message");
                v.path.push(Step::Field(k.clone()));
                Err(v)
            }
        }
    }

    /// The fields an open object (no `additionalProperties: false`) has
    /// beyond its schema's, kept as sent.
    pub fn rest(&self, o: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
        o.iter().filter(|(k, _)| !known.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    fn absent(&self, v: Option<&Value>) -> bool {
        match v {
            None => true,
            Some(Value::Null) => self.mode == Mode::Charger && coerce::null_is_absent(),
            Some(_) => false,
        }
    }

    /// A field the schema requires.
    pub fn required<T>(&mut self, o: &Map<String, Value>, name: &'static str, read: impl FnOnce(&Value, &mut Cursor) -> Result<T, Violation>) -> Result<T, Violation> {
        self.path.push(Seg::Field(name));
        let got = o.get(name);
        let out = if self.absent(got) {
            Err(self.violation(Keyword::Required, "is required"))
        } else {
            read(got.unwrap_or(&Value::Null), self)
        };
        self.path.pop();
        out
    }

    /// A field the schema does not require.
    pub fn optional<T>(&mut self, o: &Map<String, Value>, name: &'static str, read: impl FnOnce(&Value, &mut Cursor) -> Result<T, Violation>) -> Result<Option<T>, Violation> {
        let got = o.get(name);
        if self.absent(got) {
            return Ok(None);
        }
        self.path.push(Seg::Field(name));
        let out = read(got.unwrap_or(&Value::Null), self).map(Some);
        self.path.pop();
        out
    }

    /// `type: string`, at most `max` characters (`maxLength`: OCPP's
    /// CiStringNType and the 2.0.1 string lengths).
    pub fn string(&self, v: &Value, max: Option<usize>) -> Result<String, Violation> {
        let s = match (v, self.mode) {
            (Value::String(s), _) => s.clone(),
            (Value::Number(n), Mode::Charger) => coerce::number_as_text(n),
            _ => return Err(self.wrong_type("a string", v)),
        };
        if let Some(max) = max {
            let n = s.chars().count();
            if n > max {
                return Err(self.violation(Keyword::MaxLength, format!("is at most {max} characters (CiString{max}Type); got {n}")));
            }
        }
        Ok(s)
    }

    /// `type: integer`, with its `minimum` and `maximum`.
    pub fn integer(&self, v: &Value, min: Option<i64>, max: Option<i64>) -> Result<i64, Violation> {
        let n = match (v, self.mode) {
            (Value::Number(n), _) if n.is_i64() => n.as_i64(),
            (Value::Number(n), Mode::Charger) => coerce::whole_number(n),
            (Value::String(s), Mode::Charger) => coerce::integer_text(s),
            _ => None,
        };
        let n = n.ok_or_else(|| self.wrong_type("an integer", v))?;
        self.range(n as f64, min.map(|m| m as f64), max.map(|m| m as f64))?;
        Ok(n)
    }

    /// `type: number`, with its `minimum`, `maximum` and `multipleOf`.
    pub fn number(&self, v: &Value, min: Option<f64>, max: Option<f64>, multiple_of: Option<f64>) -> Result<f64, Violation> {
        let n = match (v, self.mode) {
            (Value::Number(n), _) => n.as_f64(),
            (Value::String(s), Mode::Charger) => coerce::decimal_text(s),
            _ => None,
        };
        let n = n.filter(|n| n.is_finite()).ok_or_else(|| self.wrong_type("a number", v))?;
        self.range(n, min, max)?;
        if let Some(step) = multiple_of {
            let steps = n / step;
            if (steps - steps.round()).abs() > 1e-6 {
                return Err(self.violation(Keyword::MultipleOf, format!("must be a multiple of {step} (got {n})")));
            }
        }
        Ok(n)
    }

    fn range(&self, n: f64, min: Option<f64>, max: Option<f64>) -> Result<(), Violation> {
        if let Some(min) = min.filter(|m| n < *m) {
            return Err(self.violation(Keyword::Minimum, format!("must be at least {min} (got {n})")));
        }
        if let Some(max) = max.filter(|m| n > *m) {
            return Err(self.violation(Keyword::Maximum, format!("must be at most {max} (got {n})")));
        }
        Ok(())
    }

    /// `type: boolean`.
    pub fn boolean(&self, v: &Value) -> Result<bool, Violation> {
        v.as_bool().ok_or_else(|| self.wrong_type("a boolean", v))
    }

    /// `format: date-time` (RFC 3339).
    pub fn date_time(&self, v: &Value) -> Result<DateTime, Violation> {
        let text = self.string(v, None)?;
        let unix = match self.mode {
            Mode::Strict => OffsetDateTime::parse(&text, &Rfc3339).ok().map(|t| t.unix_timestamp()),
            Mode::Charger => coerce::date_time(&text),
        };
        match unix {
            Some(unix) => Ok(DateTime { text, unix }),
            None => Err(self.violation(Keyword::Format, format!("must be a dateTime (RFC 3339, e.g. 2025-03-10T08:00:00Z); got {:?}", shorten(&text)))),
        }
    }

    /// `format: uri`.
    pub fn uri(&self, v: &Value, max: Option<usize>) -> Result<String, Violation> {
        let text = self.string(v, max)?;
        match url::Url::parse(&text) {
            Ok(_) => Ok(text),
            Err(_) => Err(self.violation(Keyword::Format, format!("must be a URI; got {:?}", shorten(&text)))),
        }
    }

    /// An enumeration (`enum`): the index of the value in `values`, or in
    /// [`Mode::Charger`] a value the schema does not list, as sent
    /// ([`coerce::unlisted`]).
    pub fn enumeration(&self, v: &Value, values: &'static [&'static str]) -> Result<Result<usize, String>, Violation> {
        let s = match v {
            Value::String(s) => s,
            _ => return Err(self.wrong_type("a string", v)),
        };
        if let Some(i) = values.iter().position(|x| x == s) {
            return Ok(Ok(i));
        }
        if self.mode == Mode::Charger {
            if let Some(found) = coerce::unlisted(s, values) {
                return Ok(found);
            }
        }
        let shown = if values.len() <= 12 { format!(": one of {}", values.join(", ")) } else { String::new() };
        Err(self.violation(Keyword::Enum, format!("is not a value of its enumeration{shown} (got {:?})", shorten(s))))
    }

    /// `type: array` with `items`, `minItems` and `maxItems`.
    pub fn array<T>(&mut self, v: &Value, min: Option<usize>, max: Option<usize>, mut item: impl FnMut(&Value, &mut Cursor) -> Result<T, Violation>) -> Result<Vec<T>, Violation> {
        let items = v.as_array().ok_or_else(|| self.wrong_type("an array", v))?;
        if let Some(min) = min.filter(|m| items.len() < *m) {
            return Err(self.violation(Keyword::MinItems, format!("needs at least {min} items (got {})", items.len())));
        }
        if let Some(max) = max.filter(|m| items.len() > *m) {
            return Err(self.violation(Keyword::MaxItems, format!("has at most {max} items (got {})", items.len())));
        }
        let mut out = Vec::with_capacity(items.len());
        for (i, x) in items.iter().enumerate() {
            self.path.push(Seg::Item(i));
            let read = item(x, self);
            self.path.pop();
            out.push(read?);
        }
        Ok(out)
    }

    /// Any JSON (a field whose schema does not constrain it).
    pub fn any(&self, v: &Value) -> Result<Value, Violation> {
        Ok(v.clone())
    }
}

/// A value as a violation quotes it: the start of a long one.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s.to_string(),
    }
}

/// An OCPP dateTime: the text as the charger sent it (kept: it is part of
/// a StartTransaction's repeat key) and the instant it names, in unix
/// seconds (fractions dropped).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DateTime {
    text: String,
    unix: i64,
}

impl DateTime {
    /// The instant as RFC 3339 in UTC, to the second (`2025-03-10T08:00:00Z`).
    pub fn from_unix(unix: i64) -> DateTime {
        DateTime { text: iso(unix), unix }
    }

    pub fn unix(&self) -> i64 {
        self.unix
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl Serialize for DateTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for DateTime {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OcppDateTime".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "date-time" })
    }
}

/// Unix seconds as RFC 3339 in UTC (`2025-03-10T08:00:00Z`).
pub fn iso(ts: i64) -> String {
    OffsetDateTime::from_unix_timestamp(ts).ok().and_then(|t| t.format(&Rfc3339).ok()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_read_as_the_field_is_written() {
        let v = Violation { keyword: Keyword::Required, path: vec![Step::Field("meterValue".into()), Step::Item(0), Step::Field("sampledValue".into()), Step::Item(2), Step::Field("value".into())], problem: "is required".into() };
        assert_eq!(v.to_string(), "meterValue[0].sampledValue[2].value is required");
        assert_eq!(v.to_call_error().code, ErrorCode::OccurenceConstraintViolation);
        let root = Violation { keyword: Keyword::Type, path: vec![], problem: "must be an object".into() };
        assert_eq!(root.to_string(), "the payload must be an object");
    }

    /// The contract's table of keywords and codes is this one.
    #[test]
    fn the_contract_lists_each_keyword_with_its_code() {
        let doc = include_str!("../../../docs/charger-link.md");
        let rows: Vec<&str> = doc.lines().filter(|l| l.starts_with("| `") && l.ends_with("Violation |")).collect();
        let ours: Vec<String> = Keyword::ALL.iter().map(|k| format!("| `{}` | {} |", k.as_str(), k.error_code().as_str())).collect();
        assert_eq!(rows, ours, "docs/charger-link.md's table of schema keywords");
    }

    #[test]
    fn numbers_keep_their_ranges_and_steps() {
        let c = Cursor { mode: Mode::Strict, path: vec![] };
        assert_eq!(c.number(&json!(21.4), None, None, Some(0.1)), Ok(21.4));
        assert_eq!(c.number(&json!(4.11), None, None, Some(0.1)).unwrap_err().keyword, Keyword::MultipleOf);
        assert_eq!(c.integer(&json!(-1), Some(0), None).unwrap_err().keyword, Keyword::Minimum);
        assert_eq!(c.integer(&json!(11), None, Some(10)).unwrap_err().keyword, Keyword::Maximum);
        assert_eq!(c.integer(&json!("1"), None, None).unwrap_err().keyword, Keyword::Type, "strict: no coercion");
        assert_eq!(c.integer(&json!(1.5), None, None).unwrap_err().keyword, Keyword::Type);
    }

    #[test]
    fn date_times_are_rfc3339() {
        let strict = Cursor { mode: Mode::Strict, path: vec![] };
        assert_eq!(strict.date_time(&json!("2025-03-10T08:00:00Z")).map(|d| d.unix()), Ok(1_741_593_600));
        assert_eq!(strict.date_time(&json!("2025-03-10T08:00:00")).unwrap_err().keyword, Keyword::Format, "strict: the offset is required");
        let lenient = Cursor { mode: Mode::Charger, path: vec![] };
        let t = lenient.date_time(&json!("2025-03-10T08:00:00")).unwrap();
        assert_eq!((t.unix(), t.as_str()), (1_741_593_600, "2025-03-10T08:00:00"), "kept as sent, read as UTC");
        assert_eq!(serde_json::to_value(DateTime::from_unix(10)).unwrap(), json!("1970-01-01T00:00:10Z"));
    }
}
