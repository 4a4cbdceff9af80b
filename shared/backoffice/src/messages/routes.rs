//! Each route's summary in words (the system log's type, the OpenAPI
//! document's summary): the catalogue's `route.{function}` (the function
//! name in camelCase). The English text is the route table's own summary,
//! which a test keeps equal.

use envelope::Text;

use crate::routes::Route;

/// The catalogue key of a route's summary: `route.` and its function in camelCase.
pub fn key(function: &str) -> String {
    let mut key = String::from("route.");
    let mut upper = false;
    for c in function.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                key.extend(c.to_uppercase());
                upper = false;
            }
            c => key.push(c),
        }
    }
    key
}

/// A route's summary in both languages.
pub fn summary(route: &Route) -> Text {
    Text::lookup(&key(route.function), vec![]).unwrap_or_else(|| Text::same(route.summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_route_has_its_summary_in_the_catalogue_and_every_summary_a_route() {
        let routes = crate::routes::routes();
        for r in routes {
            let t = Text::lookup(&key(r.function), vec![]).unwrap_or_else(|| panic!("{} has no {} in the catalogue", r.function, key(r.function)));
            assert_eq!(t.en, r.summary, "{}: the catalogue's English is the route table's summary", r.function);
            assert!(!t.zh.trim().is_empty() && t.zh != t.en, "{}: no Chinese summary", r.function);
        }
        let keys: HashSet<String> = routes.iter().map(|r| key(r.function)).collect();
        let stale: Vec<&str> = envelope::messages::keys().filter(|k| k.starts_with("route.") && !keys.contains(*k)).collect();
        assert!(stale.is_empty(), "summaries of routes that do not exist: {stale:?}");
        assert_eq!(key("user_management_reset_password"), "route.userManagementResetPassword");
    }
}
