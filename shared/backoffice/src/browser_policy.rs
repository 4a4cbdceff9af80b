//! What the browser may do with the SPA: the Content-Security-Policy and the
//! other security headers. One source for the local gateway and the
//! CloudFront response headers policy of the AWS template.
//!
//! Scripts come only from the site itself (the build emits no inline
//! script); styles may be inline because Fluent UI and the index page's
//! first-paint rule write them; images from the site, `data:`/`blob:` (the
//! charts, crops and uploads) and any https host (avatars are URLs users
//! choose; notices are cleaned to on-site images by the server); frames
//! only the hosts of the iframe demo's allow-list
//! (`web/src/config/frame-hosts.json`, which the SPA reads too); nothing
//! may frame the SPA.

/// The hosts the iframe demo page may frame; the SPA refuses any other.
pub fn frame_hosts() -> Vec<String> {
    serde_json::from_str(include_str!("../../../web/src/config/frame-hosts.json")).expect("frame-hosts.json is a list of origins")
}

/// The `Content-Security-Policy` header value.
pub fn content_security_policy() -> String {
    [
        "default-src 'self'".to_string(),
        "script-src 'self'".into(),
        "style-src 'self' 'unsafe-inline'".into(),
        "img-src 'self' data: blob: https:".into(),
        "font-src 'self' data:".into(),
        "connect-src 'self'".into(),
        "media-src 'self' blob:".into(),
        "worker-src 'self'".into(),
        format!("frame-src 'self' {}", frame_hosts().join(" ")),
        "frame-ancestors 'none'".into(),
        "object-src 'none'".into(),
        "base-uri 'self'".into(),
        "form-action 'self'".into(),
    ]
    .join("; ")
}

/// HSTS: two years, subdomains included. Sent only over https (the
/// gateway's own TLS, and CloudFront).
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_only_from_the_site_and_framing_refused() {
        let csp = content_security_policy();
        assert!(csp.contains("script-src 'self';") && !csp.contains("unsafe-eval"), "{csp}");
        assert!(csp.contains("object-src 'none'") && csp.contains("frame-ancestors 'none'"), "{csp}");
        let hosts = frame_hosts();
        assert!(!hosts.is_empty() && hosts.iter().all(|h| h.starts_with("https://") && !h.ends_with('/')), "{hosts:?}");
        assert!(hosts.iter().all(|h| csp.contains(h.as_str())));
    }
}
