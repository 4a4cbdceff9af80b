//! Message texts in the two product languages and the standard text of
//! each status code (200 to 504). This is the one place these live.

/// The language an answer's `msg` is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// Chinese, the product's default language.
    Zh,
    /// English; also what callers without an Accept-Language get.
    #[default]
    En,
}

impl Lang {
    /// Picks the language from an `Accept-Language` header value: the first
    /// tag decides; `zh*` gives Chinese, anything else English.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let first = header
            .and_then(|h| h.split(',').next())
            .map(|tag| tag.trim().to_ascii_lowercase())
            .unwrap_or_default();
        if first.starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

/// A message in English and Chinese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self { en: en.into(), zh: zh.into() }
    }
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// The standard text for a status code; unknown codes get a generic one.
pub fn standard_message(code: u16) -> Text {
    let (en, zh) = match code {
        200 => ("success", "成功"),
        201 => ("created", "新建或修改数据成功"),
        202 => ("accepted: the request entered the background queue", "一个请求已经进入后台排队（异步任务）"),
        204 => ("deleted", "删除数据成功"),
        400 => ("bad request: the request has an error", "发出信息有误"),
        401 => ("no permission: the token is invalid or the login has expired, please sign in again", "用户没有权限（令牌失效、用户名、密码错误、登录过期）"),
        402 => ("token expired", "令牌已过期"),
        403 => ("no access: your roles do not give the permission this needs", "没有访问权限：您的角色没有所需的权限"),
        404 => ("not found: the resource does not exist", "访问资源不存在"),
        405 => ("method not allowed", "请求方法不被允许"),
        406 => ("the requested format is not available", "请求格式不可得"),
        409 => ("conflict: the record was changed by someone else, reload and try again", "数据冲突：记录已被他人修改，请刷新后重试"),
        410 => ("the requested resource was permanently deleted", "请求的资源被永久删除，且不会被看到"),
        413 => ("the request body is too large", "请求体过大"),
        415 => ("unsupported content type, send JSON", "不支持的内容类型，请发送 JSON"),
        422 => ("the data failed validation", "数据校验失败"),
        429 => ("too many requests, try again later", "请求过于频繁，请稍后再试"),
        500 => ("server error, please try again later", "服务器发生错误"),
        502 => ("bad gateway", "网关错误"),
        503 => ("service unavailable, the server is overloaded or under maintenance", "服务不可用，服务器暂时过载或维护"),
        504 => ("gateway timeout", "网关超时"),
        _ => ("request failed", "请求失败"),
    };
    Text::new(en, zh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogued_code_has_both_texts() {
        for code in [200, 201, 202, 204, 400, 401, 402, 403, 404, 406, 410, 500, 502, 503, 504] {
            let t = standard_message(code);
            assert!(!t.en.is_empty() && !t.zh.is_empty(), "{code}");
            assert_ne!(t, standard_message(999), "{code} must not fall back to the generic text");
        }
    }

    #[test]
    fn accept_language_picks_by_first_tag() {
        assert_eq!(Lang::from_accept_language(Some("zh-CN,zh;q=0.9,en;q=0.8")), Lang::Zh);
        assert_eq!(Lang::from_accept_language(Some("en-US,zh;q=0.5")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("ZH")), Lang::Zh);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("")), Lang::En);
    }
}
