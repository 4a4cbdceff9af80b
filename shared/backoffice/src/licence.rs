//! The licence guard: the application (the SPA's files and the API)
//! answers only on the hosts it is licensed for (`BACKOFFICE_ALLOWED_HOSTS`),
//! or to a client that shows the licence key (`BACKOFFICE_LICENCE_KEY`).
//! Any other host gets a plain page saying the application is disabled
//! there (and the API a 403 saying so); the page takes the key, which the
//! server answers with a cookie valid for that host only (an HMAC of the
//! host under the key), so the key itself never sits in the browser.
//!
//! The host is the request's `Host` header (the name the browser used).
//! The charger link and the operations endpoints (health, metrics) are
//! not guarded: chargers and monitors reach the server by whatever name
//! or address they were given.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// The header a script shows the key in.
pub const KEY_HEADER: &str = "x-licence-key";
/// The cookie a browser shows after the key was typed on the disabled page.
pub const COOKIE: &str = "backoffice_licence";
/// Where the disabled page posts the key.
pub const UNLOCK_PATH: &str = "/licence";
/// The shortest key accepted.
pub const MIN_KEY: usize = 16;

/// The allowed hosts and the key (None: no key unlocks other hosts).
#[derive(Clone)]
pub struct LicenceGuard {
    hosts: Vec<String>,
    key: Option<String>,
}

impl std::fmt::Debug for LicenceGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LicenceGuard").field("hosts", &self.hosts).field("key", &self.key.as_ref().map(|_| "(set)")).finish()
    }
}

/// A host pattern as configured: a name or an address, or `*.example.com`
/// for every name under it; problems say what to fix.
pub fn parse_hosts(list: &str) -> Result<Vec<String>, String> {
    let hosts: Vec<String> = list.split(',').map(|h| h.trim().to_ascii_lowercase()).filter(|h| !h.is_empty()).collect();
    if hosts.is_empty() {
        return Err("BACKOFFICE_ALLOWED_HOSTS is empty: name the host names the site is served at, comma-separated".into());
    }
    for h in &hosts {
        let name = h.strip_prefix("*.").unwrap_or(h);
        let ipv6 = name.starts_with('[') && name.ends_with(']');
        let ok = !name.is_empty() && (ipv6 || (name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')));
        if !ok || (ipv6 && h.starts_with("*.")) {
            return Err(format!("BACKOFFICE_ALLOWED_HOSTS: '{h}' is not a host name (no scheme, port or path: e.g. backoffice.example.com, *.example.com, 10.0.0.5)"));
        }
    }
    Ok(hosts)
}

/// The host a request was sent to, lower-case and without its port.
pub fn host_of(headers: &http::HeaderMap) -> Option<String> {
    let raw = headers.get(http::header::HOST)?.to_str().ok()?.trim().to_ascii_lowercase();
    let host = if raw.starts_with('[') {
        raw.split_inclusive(']').next().unwrap_or_default().to_string()
    } else {
        raw.split(':').next().unwrap_or_default().to_string()
    };
    (!host.is_empty()).then_some(host)
}

impl LicenceGuard {
    pub fn new(hosts: Vec<String>, key: Option<String>) -> LicenceGuard {
        LicenceGuard { hosts, key }
    }

    /// Whether the application answers on `host` without a key.
    pub fn host_allowed(&self, host: &str) -> bool {
        self.hosts.iter().any(|allowed| match allowed.strip_prefix("*.") {
            Some(domain) => host.len() > domain.len() + 1 && host.ends_with(domain) && host.as_bytes()[host.len() - domain.len() - 1] == b'.',
            None => allowed == host,
        })
    }

    /// Whether a key unlocks other hosts at all.
    pub fn has_key(&self) -> bool {
        self.key.is_some()
    }

    /// Whether `typed` is the licence key (compared in constant time).
    pub fn key_matches(&self, typed: &str) -> bool {
        self.key.as_deref().is_some_and(|k| k.as_bytes().ct_eq(typed.trim().as_bytes()).into())
    }

    /// The cookie value that unlocks `host`: an HMAC of the host under the key.
    pub fn cookie_value(&self, host: &str) -> Option<String> {
        let key = self.key.as_deref()?;
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()).ok()?;
        mac.update(b"backoffice-licence\0");
        mac.update(host.as_bytes());
        Some(mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Whether a request may reach the application: an allowed host, or
    /// the key in its header, or the cookie the key earned for this host.
    pub fn admits(&self, headers: &http::HeaderMap) -> bool {
        let Some(host) = host_of(headers) else { return false };
        if self.host_allowed(&host) {
            return true;
        }
        if headers.get(KEY_HEADER).and_then(|v| v.to_str().ok()).is_some_and(|k| self.key_matches(k)) {
            return true;
        }
        let Some(wanted) = self.cookie_value(&host) else { return false };
        headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().strip_prefix(&format!("{COOKIE}=")))
            .any(|value| value.as_bytes().ct_eq(wanted.as_bytes()).into())
    }
}

/// The API's answer on a host the application is disabled on.
pub fn api_refusal(lang: envelope::Lang) -> http::Response<bytes::Bytes> {
    envelope::ApiError::new(
        403,
        envelope::msg::licence::refused(),
    )
    .with_data(serde_json::json!({ "licence": "host not allowed" }))
    .to_response(lang)
}

/// The plain page shown instead of the SPA on a host the application is
/// disabled on (no script: it works in any browser), in Chinese and
/// English; with a key configured, a form to enter it. `wrong_key` says
/// the last key typed did not match.
pub fn disabled_page(host: &str, has_key: bool, wrong_key: bool) -> String {
    // Both languages on one page: the Chinese first, as the product's default.
    let both = |t: envelope::Text| format!("{} / {}", t.zh, t.en);
    let body = envelope::msg::licence::page::body(html_escape(host));
    let form = if has_key {
        let wrong = envelope::msg::licence::page::wrong_key();
        format!(
            r#"<form method="post" action="{UNLOCK_PATH}">
<p><label for="key">{label}</label><br>
<input id="key" name="key" type="password" autocomplete="off" required minlength="{MIN_KEY}" data-testid="licence-key">
<button type="submit" data-testid="licence-unlock">{unlock}</button></p>
{wrong}</form>"#,
            label = both(envelope::msg::licence::page::key_label()),
            unlock = both(envelope::msg::licence::page::unlock()),
            wrong = if wrong_key { format!(r#"<p class="wrong" data-testid="licence-wrong">{}/ {}</p>"#, wrong.zh, wrong.en) } else { String::new() }
        )
    } else {
        String::new()
    };
    let heading = envelope::msg::licence::page::heading();
    format!(
        r#"<!doctype html>
<html lang="zh-CN">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:40rem;margin:10vh auto;padding:0 1rem;line-height:1.6;color:#242424}}h1{{font-size:1.4rem}}.wrong{{color:#b10e1c}}</style></head>
<body data-testid="licence-disabled">
<h1>{heading_zh}</h1>
<p>{body_zh}</p>
<h1 lang="en">{heading_en}</h1>
<p lang="en">{body_en}</p>
{form}
</body>
</html>
"#,
        title = both(envelope::msg::licence::page::title()),
        heading_zh = heading.zh,
        heading_en = heading.en,
        body_zh = body.zh,
        body_en = body.en,
    )
}

fn html_escape(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '<' => "&lt;".into(),
            '>' => "&gt;".into(),
            '&' => "&amp;".into(),
            '"' => "&quot;".into(),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page as it was written before its words moved to the catalogue.
    #[test]
    fn the_page_says_what_it_said() {
        let expected = r#"<!doctype html>
<html lang="zh-CN">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>系统未授权 / Not licensed</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:10vh auto;padding:0 1rem;line-height:1.6;color:#242424}h1{font-size:1.4rem}.wrong{color:#b10e1c}</style></head>
<body data-testid="licence-disabled">
<h1>本系统未授权在此域名下使用</h1>
<p>新能源管理系统不能在 <strong>a&lt;b.example</strong> 上使用。请使用管理员提供的地址访问；如果您是管理员，请在部署配置的 BACKOFFICE_ALLOWED_HOSTS 中加入此域名，或输入授权密钥。</p>
<h1 lang="en">This application is not licensed for this host</h1>
<p lang="en">The new-energy management system is disabled on <strong>a&lt;b.example</strong>. Use the address your administrator gave you; administrators add the host name to BACKOFFICE_ALLOWED_HOSTS in the deployment settings, or enter the licence key.</p>
<form method="post" action="/licence">
<p><label for="key">授权密钥 / Licence key</label><br>
<input id="key" name="key" type="password" autocomplete="off" required minlength="16" data-testid="licence-key">
<button type="submit" data-testid="licence-unlock">启用 / Enable</button></p>
<p class="wrong" data-testid="licence-wrong">密钥不正确。/ That key is not right.</p></form>
</body>
</html>
"#;
        assert_eq!(disabled_page("a<b.example", true, true), expected);
    }

    fn headers(pairs: &[(&str, &str)]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for (k, v) in pairs {
            h.append(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
        }
        h
    }

    #[test]
    fn hosts_are_names_addresses_or_whole_domains() {
        let g = LicenceGuard::new(parse_hosts("Backoffice.Example.com, *.corp.example, 10.0.0.5, [::1]").unwrap(), None);
        for ok in ["backoffice.example.com", "a.corp.example", "x.y.corp.example", "10.0.0.5", "[::1]"] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        for no in ["example.com", "corp.example", "evilcorp.example", "backoffice.example.com.evil", "127.0.0.1"] {
            assert!(!g.host_allowed(no), "{no}");
        }
        assert_eq!(host_of(&headers(&[("host", "Backoffice.Example.com:9999")])).as_deref(), Some("backoffice.example.com"));
        assert_eq!(host_of(&headers(&[("host", "[::1]:9999")])).as_deref(), Some("[::1]"));
        for bad in ["", " , ", "https://x.example", "x.example:443", "x.example/a", "*.[::1]"] {
            assert!(parse_hosts(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_key_unlocks_by_header_or_by_the_cookie_of_its_host() {
        let g = LicenceGuard::new(parse_hosts("localhost").unwrap(), Some("k".repeat(20)));
        assert!(g.admits(&headers(&[("host", "localhost:80")])));
        assert!(!g.admits(&headers(&[("host", "127.0.0.1:80")])));
        assert!(!g.admits(&headers(&[])), "no host: refused");
        assert!(g.admits(&headers(&[("host", "127.0.0.1"), (KEY_HEADER, &"k".repeat(20))])));
        assert!(!g.admits(&headers(&[("host", "127.0.0.1"), (KEY_HEADER, "wrong-key-wrong-key")])));
        let cookie = format!("a=b; {COOKIE}={}", g.cookie_value("127.0.0.1").unwrap());
        assert!(g.admits(&headers(&[("host", "127.0.0.1:9"), ("cookie", &cookie)])));
        assert!(!g.admits(&headers(&[("host", "10.1.1.1"), ("cookie", &cookie)])), "a cookie is for its host only");
        let keyless = LicenceGuard::new(parse_hosts("localhost").unwrap(), None);
        assert!(keyless.cookie_value("127.0.0.1").is_none() && !keyless.key_matches(""));
        assert!(disabled_page("<x>", false, false).contains("&lt;x&gt;") && !disabled_page("h", false, false).contains("<form"));
    }
}
