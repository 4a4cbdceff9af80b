//! `pageNo` / `pageSize` query parameters (spec point 7: page 1 and 20 by
//! default), checked once for every list that pages by number.

use envelope::{ApiError, Text};

use crate::request::ApiRequest;

/// The largest page any list serves, whatever is asked.
pub const MAX_PAGE_SIZE: usize = 200;
/// The spec's default page size.
pub const DEFAULT_PAGE_SIZE: usize = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// 1-based.
    pub page_no: usize,
    pub page_size: usize,
}

impl Paging {
    /// Reads `pageNo` and `pageSize`; absent ones take the defaults, and
    /// anything else that is not a whole number in range is a 400.
    pub fn from_request(req: &ApiRequest, default_size: usize) -> Result<Paging, ApiError> {
        let page_no = number(req, "pageNo", 1, 1, 1_000_000)?;
        let page_size = number(req, "pageSize", default_size, 1, MAX_PAGE_SIZE)?;
        Ok(Paging { page_no, page_size })
    }

    /// This page of `items`.
    pub fn slice<'a, T>(&self, items: &'a [T]) -> &'a [T] {
        let start = (self.page_no - 1).saturating_mul(self.page_size).min(items.len());
        let end = start.saturating_add(self.page_size).min(items.len());
        &items[start..end]
    }
}

fn number(req: &ApiRequest, name: &str, default: usize, min: usize, max: usize) -> Result<usize, ApiError> {
    let Some(raw) = req.query_param(name) else { return Ok(default) };
    match raw.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(ApiError::bad_request(Text::new(
            format!("{name} must be a whole number from {min} to {max}, not '{raw}'"),
            format!("{name} 必须是 {min} 到 {max} 之间的整数，而不是“{raw}”"),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Method;

    fn req(query: &str) -> ApiRequest {
        ApiRequest::new(Method::GET, "/x").with_query_string(Some(query))
    }

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(Paging::from_request(&req(""), 20).unwrap(), Paging { page_no: 1, page_size: 20 });
        assert_eq!(Paging::from_request(&req("pageNo=3&pageSize=72"), 20).unwrap(), Paging { page_no: 3, page_size: 72 });
        for bad in ["pageNo=0", "pageNo=-1", "pageSize=0", "pageSize=1000", "pageNo=abc", "pageSize=2.5"] {
            let err = Paging::from_request(&req(bad), 20).unwrap_err();
            assert_eq!(err.code, 400, "{bad}");
            assert!(err.msg.en.contains("must be a whole number"), "{bad}: {}", err.msg.en);
        }
    }

    #[test]
    fn slices_past_the_end_are_empty() {
        let items: Vec<u32> = (0..50).collect();
        assert_eq!(Paging { page_no: 3, page_size: 20 }.slice(&items), &items[40..50]);
        assert!(Paging { page_no: 4, page_size: 20 }.slice(&items).is_empty());
    }
}
