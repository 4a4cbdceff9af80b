//! Query parameters several routes share, declared once as types: the
//! routes list them in their `query = ..` declaration (see
//! [`crate::openapi::OpDoc`]), so the document and the dispatch use them.
//!
//! Fields are the raw text (`Option<String>`): each handler keeps checking
//! values itself and answers a 400 that names the parameter; the schemars
//! attributes say which values it accepts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::paging::MAX_PAGE_SIZE;

/// `pageNo` / `pageSize` of lists paged by number.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct PageQuery {
    /// The page, from 1 (default 1).
    #[serde(rename = "pageNo")]
    #[schemars(with = "Option<u32>", range(min = 1, max = 1_000_000))]
    pub page_no: Option<String>,
    /// Items a page (default 20, at most 200).
    #[serde(rename = "pageSize")]
    #[schemars(with = "Option<u32>", range(min = 1, max = MAX_PAGE_SIZE))]
    pub page_size: Option<String>,
}

/// `?id=` of a detail read.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct IdQuery {
    /// The record's id.
    #[schemars(with = "String", length(min = 1))]
    pub id: Option<String>,
}

/// `from` / `to` days of a report (`YYYY-MM-DD`, China local days; default
/// the 30 days up to today).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct DayRange {
    /// First day, `YYYY-MM-DD` (default 29 days before `to`).
    #[schemars(with = "Option<String>", extend("format" = "date"))]
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD` (default today).
    #[schemars(with = "Option<String>", extend("format" = "date"))]
    pub to: Option<String>,
}
