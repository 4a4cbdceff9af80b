//! Notices shown in the header popover. Their HTML is sanitised when it is
//! written and again when it is read, so a record written before a
//! sanitiser change (or by another tool) still cannot carry script.

use envelope::{ApiError, Text};
use serde::{Deserialize, Serialize};
use store::{Condition, Query};

use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

/// How many notices the popover lists.
pub const LIST_LIMIT: u32 = 50;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    pub id: String,
    /// `notice` or `email` (the popover's two tabs).
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub image: String,
    /// Sanitised HTML.
    pub notice: String,
    pub created_at: i64,
}

/// Keeps only harmless formatting and links; links open safely.
pub fn sanitize_html(html: &str) -> String {
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer nofollow"))
        .url_schemes(["http", "https", "mailto"].into_iter().collect())
        // Images only from this site: a notice must not make every reader's
        // browser call another host (tracking, and the CSP refuses it too).
        .attribute_filter(|element, attribute, value| match (element, attribute) {
            ("img", "src") => same_site_path(value).map(Into::into),
            _ => Some(value.into()),
        })
        .clean(html)
        .to_string()
}

/// `value` when it is a path on this site (`/…` or `./…`, not `//host`).
fn same_site_path(value: &str) -> Option<&str> {
    let v = value.trim();
    let on_site = (v.starts_with('/') && !v.starts_with("//") && !v.starts_with("/\\")) || v.starts_with("./");
    on_site.then_some(v)
}

/// A notice's sender image: a path on this site, or nothing.
fn sanitize_url(url: &str) -> String {
    same_site_path(url).unwrap_or_default().to_string()
}

/// Validates and stores a new notice.
pub async fn publish(ctx: &AppCtx, kind: &str, html: &str, email: &str, image: &str) -> Result<Notice, ApiError> {
    if kind != "notice" && kind != "email" {
        return Err(ApiError::bad_request(Text::new(
            "type must be 'notice' or 'email'",
            "类型必须是 notice 或 email",
        )));
    }
    let clean = sanitize_html(html);
    if clean.trim().is_empty() {
        return Err(ApiError::bad_request(Text::new("the notice text cannot be empty", "通知内容不能为空")));
    }
    if clean.len() > 4000 {
        return Err(ApiError::bad_request(Text::new(
            "the notice text is too long (at most 4000 characters)",
            "通知内容过长（最多 4000 个字符）",
        )));
    }
    let now = ctx.now();
    let notice = Notice {
        id: uuid::Uuid::new_v4().simple().to_string(),
        kind: kind.to_string(),
        email: email.trim().chars().take(200).collect(),
        image: sanitize_url(image),
        notice: clean,
        created_at: now,
    };
    let sk = format!("{}#{}", keys::time_sort(now), notice.id);
    ctx.store
        .put(
            to_item(&notice, &[(store::PK, keys::NOTICE_PK.to_string()), (store::SK, sk)]),
            Some(Condition::item_absent()),
        )
        .await
        .api()?;
    Ok(notice)
}

/// The newest notices, sanitised again on the way out.
pub async fn newest(ctx: &AppCtx) -> Result<Vec<Notice>, ApiError> {
    let page = ctx.store.query(Query::partition(keys::NOTICE_PK).backward().limit(LIST_LIMIT)).await.api()?;
    page.items
        .into_iter()
        .map(|item| {
            let mut n: Notice = from_item(item)?;
            n.notice = sanitize_html(&n.notice);
            n.image = sanitize_url(&n.image);
            Ok(n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_and_handlers_are_removed_links_kept() {
        let dirty = r#"<a href="https://ev.example/x" onclick="steal()">read</a><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>"#;
        let clean = sanitize_html(dirty);
        assert!(!clean.contains("script") && !clean.contains("onclick") && !clean.contains("onerror"), "{clean}");
        assert!(!clean.contains("javascript:"), "{clean}");
        assert!(clean.contains(r#"href="https://ev.example/x""#), "{clean}");
        assert!(clean.contains("noopener"), "{clean}");
    }

    #[test]
    fn only_images_of_this_site_are_kept() {
        assert_eq!(sanitize_url("javascript:alert(1)"), "");
        assert_eq!(sanitize_url(" https://img.example/a.png "), "", "another host");
        assert_eq!(sanitize_url("//img.example/a.png"), "", "another host, scheme-relative");
        assert_eq!(sanitize_url("./avatar.svg"), "./avatar.svg");
        assert_eq!(sanitize_url("/static/a.png"), "/static/a.png");
        let html = sanitize_html(r#"<p>hi<img src="https://tracker.example/p.gif"><img src="/static/ok.png"></p>"#);
        assert!(!html.contains("tracker.example") && html.contains(r#"src="/static/ok.png""#), "{html}");
    }
}
