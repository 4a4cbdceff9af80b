//! Query parameters several routes share, declared once as types: the
//! routes list them in their `query = ..` declaration (see
//! [`crate::openapi::OpDoc`]), and handlers parse them with
//! [`crate::request::Call::query`], one step that answers a 400 naming the
//! parameter at fault.
//!
//! A field's parser that knows the whole message writes it with
//! [`field_error`]; one that does not know the field's name writes the
//! rest with [`named_error`] and the name comes from the path. Enum values
//! need nothing: an unknown one is answered with the values allowed.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use envelope::{msg, Text};

use crate::paging::{Paging, MAX_PAGE_SIZE};

/// The rest of a message after the field's name (the name comes from the
/// path), as a serde error: "is too long (at most 64 characters)".
pub(crate) fn named_error<E: serde::de::Error>(words: Text) -> E {
    E::custom(format!("{}{}", crate::request::NAMED_BY_PATH, words.carried()))
}

/// A field's own whole message, as a serde error.
pub(crate) fn field_error<E: serde::de::Error>(message: Text) -> E {
    E::custom(format!("{}{}", crate::request::WHOLE_MESSAGE, message.carried()))
}

/// A query value as text, whether the parser hands it over as a string or
/// (inside a flattened struct) as something else.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Number(i64),
    }
    Ok(match Raw::deserialize(d)? {
        Raw::Text(t) => t,
        Raw::Number(n) => n.to_string(),
    })
}

/// A whole number in `min..=max`, or a message that names the parameter.
fn whole<'de, D: Deserializer<'de>>(d: D, name: &str, min: u32, max: u32) -> Result<Option<u32>, D::Error> {
    let raw = text(d)?;
    match raw.trim().parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(field_error(msg::request::whole_number(max, min, name, raw))),
    }
}

fn page_no<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    whole(d, "pageNo", 1, 1_000_000)
}

pub(crate) fn page_size<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    whole(d, "pageSize", 1, MAX_PAGE_SIZE as u32)
}

fn version<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    whole(d, "version", 1, u32::MAX)
}

/// `pageNo` / `pageSize` of lists paged by number.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct PageQuery {
    /// The page, from 1 (default 1).
    #[serde(rename = "pageNo", default, deserialize_with = "page_no")]
    #[schemars(range(min = 1, max = 1_000_000))]
    pub page_no: Option<u32>,
    /// Items a page (default 20, at most 200).
    #[serde(rename = "pageSize", default, deserialize_with = "page_size")]
    #[schemars(range(min = 1, max = MAX_PAGE_SIZE))]
    pub page_size: Option<u32>,
}

impl PageQuery {
    /// The page asked for, `default_size` items a page unless one was asked.
    pub fn paging(&self, default_size: usize) -> Paging {
        Paging { page_no: self.page_no.map_or(1, |n| n as usize), page_size: self.page_size.map_or(default_size, |n| n as usize) }
    }
}


/// `from` / `to` days of a report (`YYYY-MM-DD`, China local days; default
/// the 30 days up to today), parsed to day numbers.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct DayRange {
    /// First day, `YYYY-MM-DD` (default 29 days before `to`).
    #[serde(default, deserialize_with = "from_day")]
    #[schemars(with = "Option<String>", extend("format" = "date"))]
    pub from: Option<i64>,
    /// Last day, `YYYY-MM-DD` (default today).
    #[serde(default, deserialize_with = "to_day")]
    #[schemars(with = "Option<String>", extend("format" = "date"))]
    pub to: Option<i64>,
}

impl DayRange {
    /// The first and last day, defaults applied: `to` today, `from` 29 days
    /// before `to`; at most `max_days` long and not backwards.
    pub fn days(&self, today: i64, max_days: i64) -> Result<(i64, i64), envelope::ApiError> {
        let to = self.to.unwrap_or(today);
        let from = self.from.unwrap_or(to - 29);
        if from > to {
            return Err(envelope::ApiError::bad_request(msg::request::from_after_to()));
        }
        if to - from + 1 > max_days {
            return Err(envelope::ApiError::bad_request(msg::request::range_too_long(max_days)));
        }
        Ok((from, to))
    }
}

/// A `YYYY-MM-DD` day parameter as a day number, or the message naming it.
pub(crate) fn parse_day_param(name: &str, raw: &str) -> Result<i64, Text> {
    crate::domain::orders::keys::parse_day(raw.trim()).ok_or_else(|| msg::request::not_a_day(name, format!("{raw:?}")))
}

fn day<'de, D: Deserializer<'de>>(d: D, name: &str) -> Result<Option<i64>, D::Error> {
    let raw = text(d)?;
    parse_day_param(name, &raw).map(Some).map_err(field_error)
}

pub(crate) fn from_day<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    day(d, "from")
}

pub(crate) fn to_day<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    day(d, "to")
}

/// `pageSize` of the lists that page with the store's cursor (at most 500).
pub(crate) fn cursor_page_size<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    whole(d, "pageSize", 1, 500)
}

/// `?id=` of a detail read (required, not blank).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct IdQuery {
    /// The record's id.
    #[serde(deserialize_with = "not_blank")]
    #[schemars(length(min = 1))]
    pub id: String,
}

/// `?id=&version=`: a record, current or one saved version.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct IdVersionQuery {
    #[serde(deserialize_with = "not_blank")]
    #[schemars(length(min = 1))]
    pub id: String,
    /// A saved version (default: the current one).
    #[serde(default, deserialize_with = "version")]
    #[schemars(range(min = 1))]
    pub version: Option<u32>,
}

/// Which end of a list comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    Oldest,
    Newest,
}

/// A province, city or district code (6 digits) that exists.
pub(crate) fn region_code<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let raw = text(d)?;
    let code = raw.trim();
    match charging::region::lookup(code) {
        Some(_) => Ok(Some(code.to_string())),
        None => Err(named_error(msg::request::unknown_region(code))),
    }
}

/// The longest text a list filter takes (an id, an order number, a plate).
pub const FILTER_TEXT_MAX: usize = 64;

/// Optional filter text, trimmed (blank is absent), at most
/// [`FILTER_TEXT_MAX`] characters.
pub(crate) fn filter_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let raw = text(d)?;
    let t = raw.trim();
    if t.chars().count() > FILTER_TEXT_MAX {
        return Err(named_error(msg::request::too_long(FILTER_TEXT_MAX)));
    }
    Ok((!t.is_empty()).then(|| t.to_string()))
}

/// A filter that names names (accounts, cards): [`filter_text`] in the
/// names' canonical form (`names::canonical`), so it finds what the
/// records hold however it was spelled.
pub(crate) fn filter_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let Some(t) = filter_text(d)? else { return Ok(None) };
    let name = names::canonical(&t).map_err(|r| named_error(crate::messages::names::refusal(&r)))?;
    Ok((!name.is_empty()).then_some(name))
}

/// Filter text that must be there: [`filter_text`], and not blank.
pub(crate) fn required_filter_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    filter_text(d)?.ok_or_else(|| named_error(msg::request::not_empty()))
}

/// Trimmed text that must not be empty.
pub(crate) fn not_blank<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let raw = text(d)?;
    let t = raw.trim();
    if t.is_empty() {
        return Err(named_error(msg::request::not_empty()));
    }
    Ok(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::parse_query;
    use std::collections::HashMap;

    fn q(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[derive(Deserialize)]
    struct Flattened {
        #[serde(flatten)]
        page: PageQuery,
        #[allow(dead_code)]
        title: Option<String>,
    }

    #[test]
    fn numbers_parse_inside_a_flattened_struct() {
        let f: Flattened = parse_query(&q(&[("pageNo", "3"), ("pageSize", "72"), ("title", "x")])).unwrap();
        assert_eq!(f.page.paging(20), Paging { page_no: 3, page_size: 72 });
        let f: Flattened = parse_query(&q(&[])).unwrap();
        assert_eq!(f.page.paging(20), Paging { page_no: 1, page_size: 20 });
    }

    #[test]
    fn a_bad_value_is_a_400_that_names_the_parameter_in_both_languages() {
        for (pairs, en) in [
            (vec![("pageSize", "0")], "pageSize must be a whole number from 1 to 200, not '0'"),
            (vec![("pageSize", "1000")], "pageSize must be a whole number from 1 to 200"),
            (vec![("pageNo", "abc")], "pageNo must be a whole number"),
            (vec![("pageNo", "2.5")], "pageNo must be a whole number"),
        ] {
            let e = parse_query::<Flattened>(&q(&pairs)).err().unwrap();
            assert_eq!(e.code, 400);
            assert!(e.msg.en.starts_with(en), "{pairs:?}: {}", e.msg.en);
            assert_eq!(e.msg.key, Some("request.wholeNumber"));
        }
        let e = parse_query::<IdVersionQuery>(&q(&[("id", "T1"), ("version", "0")])).err().unwrap();
        assert!(e.msg.en.starts_with("version must be a whole number from 1"), "{}", e.msg.en);
        let e = parse_query::<IdVersionQuery>(&q(&[("version", "2")])).err().unwrap();
        assert!(e.msg.en.contains("id is required"), "{}", e.msg.en);
        let ok = parse_query::<IdVersionQuery>(&q(&[("id", " T1 "), ("version", "2")])).unwrap();
        assert_eq!((ok.id.as_str(), ok.version), ("T1", Some(2)));
    }
}
