//! Paging by number: a page of a list (`pageNo` / `pageSize` are parsed
//! by [`crate::params::PageQuery`]).

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
    /// This page of `items`.
    pub fn slice<'a, T>(&self, items: &'a [T]) -> &'a [T] {
        let start = (self.page_no - 1).saturating_mul(self.page_size).min(items.len());
        let end = start.saturating_add(self.page_size).min(items.len());
        &items[start..end]
    }

    /// The answer of a list paged by number: this page of `items` and how
    /// many there are in all.
    pub fn page<T: Clone>(&self, items: &[T]) -> Page<T> {
        Page { list: self.slice(items).to_vec(), total: items.len() }
    }
}

/// A page of a list paged by number, as the pages are sent it.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct Page<T> {
    pub list: Vec<T>,
    /// How many items match in all (every page).
    pub total: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn slices_past_the_end_are_empty() {
        let items: Vec<u32> = (0..50).collect();
        assert_eq!(Paging { page_no: 3, page_size: 20 }.slice(&items), &items[40..50]);
        assert!(Paging { page_no: 4, page_size: 20 }.slice(&items).is_empty());
    }
}
