//! The header search (`GET /search/getList`).

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::search::{self, Hit};
use crate::reply::Reply;
use crate::request::Call;

/// The query of the header search.
#[derive(Deserialize, Serialize, JsonSchema)]
pub(crate) struct SearchQuery {
    /// A page title (Chinese or English) or path, an order number, a
    /// station name or code, a pile code or a card number (at most 100
    /// characters).
    #[schemars(length(max = 100))]
    pub keyword: Option<String>,
}

/// The `data` of the header search.
#[derive(Serialize, JsonSchema)]
pub struct Suggestions {
    /// Records first, then pages; one web-search entry (no `url`) when
    /// nothing matched.
    pub list: Vec<Hit>,
}

/// GET /search/getList?keyword=: what the caller may open that matches.
pub async fn search_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let query: SearchQuery = call.query()?;
    let keyword = query.keyword.unwrap_or_default();
    if keyword.chars().count() > 100 {
        return Err(ApiError::bad_request(msg::search::keyword_too_long()));
    }
    let list = search::suggest(ctx, &caller.principal, &keyword, call.req.lang()).await?;
    Ok(Reply::data(Suggestions { list }))
}
