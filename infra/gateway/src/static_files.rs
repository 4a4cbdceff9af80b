//! The built SPA, compressed ahead of time: hashed assets cached for a year (their names change
//! when their content does), everything else revalidated on each use
//! (`index.html` names the current assets, `sw.js` must update), with
//! Last-Modified and an ETag so a revalidation is a 304 without a body.

use std::path::Path;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use http::header::{CACHE_CONTROL, CONTENT_LENGTH, ETAG, IF_NONE_MATCH, LAST_MODIFIED};
use http::{HeaderValue, StatusCode};
use tower_http::services::{ServeDir, ServeFile};

/// Where vite puts content-hashed files (`assetsDir` in web/vite.config.ts).
pub const HASHED_ASSETS: &str = "/static";

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const REVALIDATE: &str = "no-cache";

/// The SPA as a router: `/static/*` from the hashed assets (a missing one
/// is a real 404, never index.html, which would then be cached for a
/// year), any other path a file of the build or else `index.html` (hash
/// routes and deep links).
pub fn router<S: Clone + Send + Sync + 'static>(web_dist: &Path) -> Router<S> {
    // The build writes .br and .gz copies beside each file (web/scripts/
    // precompress.mjs); they are served as they are, with no work per request.
    let assets = ServeDir::new(web_dist.join(HASHED_ASSETS.trim_start_matches('/'))).precompressed_br().precompressed_gzip();
    let index = ServeFile::new(web_dist.join("index.html")).precompressed_br().precompressed_gzip();
    let pages = ServeDir::new(web_dist).precompressed_br().precompressed_gzip().fallback(index);
    Router::new()
        .nest_service(HASHED_ASSETS, assets)
        .fallback_service(pages)
        .layer(axum::middleware::from_fn(cache_headers))
}

async fn cache_headers(req: Request, next: Next) -> Response {
    let hashed = req.uri().path().starts_with(&format!("{HASHED_ASSETS}/"));
    let if_none_match = req.headers().get(IF_NONE_MATCH).cloned();
    let mut resp = next.run(req).await;
    if !resp.status().is_success() && resp.status() != StatusCode::NOT_MODIFIED {
        // Never let an error be cached as if it were the file.
        resp.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return resp;
    }
    let policy = if hashed { IMMUTABLE } else { REVALIDATE };
    resp.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    let Some(tag) = entity_tag(&resp) else { return resp };
    if if_none_match.as_ref().is_some_and(|given| matches(given, &tag)) {
        let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
        let h = not_modified.headers_mut();
        h.insert(ETAG, tag);
        h.insert(CACHE_CONTROL, HeaderValue::from_static(policy));
        if let Some(lm) = resp.headers().get(LAST_MODIFIED) {
            h.insert(LAST_MODIFIED, lm.clone());
        }
        return not_modified;
    }
    resp.headers_mut().insert(ETAG, tag);
    resp
}

/// A weak validator from what the file server already knows: modification
/// time and length (a rebuilt file changes at least one of them).
fn entity_tag(resp: &Response) -> Option<HeaderValue> {
    let modified = resp.headers().get(LAST_MODIFIED)?.to_str().ok()?;
    let length = resp.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).unwrap_or("0");
    let digest = modified.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    HeaderValue::from_str(&format!("W/\"{length}-{digest:x}\"")).ok()
}

/// `If-None-Match`: `*` or a list of tags, compared weakly (RFC 9110 13.1.2).
fn matches(given: &HeaderValue, tag: &HeaderValue) -> bool {
    let Ok(given) = given.to_str() else { return false };
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let ours = bare(tag.to_str().unwrap_or_default());
    given.trim() == "*" || given.split(',').any(|t| bare(t) == ours)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_comparison_ignores_the_weak_prefix_and_reads_lists() {
        let tag = HeaderValue::from_static("W/\"10-abc\"");
        assert!(matches(&HeaderValue::from_static("W/\"10-abc\""), &tag));
        assert!(matches(&HeaderValue::from_static("\"x\", \"10-abc\""), &tag));
        assert!(matches(&HeaderValue::from_static("*"), &tag));
        assert!(!matches(&HeaderValue::from_static("W/\"11-abc\""), &tag));
    }
}
