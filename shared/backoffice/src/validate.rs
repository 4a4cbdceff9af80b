//! The form helper validators (password, phone, e-mail, ID card, ...), for server-side checks. The SPA
//! has the same rules for instant feedback; the server is the authority.

/// At least 6 characters.
pub fn is_password(s: &str) -> bool {
    s.chars().count() >= 6
}

/// Digits only (non-empty).
pub fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

/// Chinese characters, letters or digits (non-empty).
pub fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || is_cjk(c))
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fa5}').contains(&c)
}

/// A dotted IPv4 address.
pub fn is_ipv4(s: &str) -> bool {
    s.parse::<std::net::Ipv4Addr>().is_ok() && s.split('.').all(|p| p == "0" || !p.starts_with('0'))
}

/// An http, https or ftp URL with a host.
pub fn is_url(s: &str) -> bool {
    url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "http" | "https" | "ftp") && u.host().is_some())
}

pub fn is_lower_case(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase())
}

pub fn is_upper_case(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_uppercase())
}

pub fn is_letters(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic())
}

/// A port number 0-65535.
pub fn is_port(s: &str) -> bool {
    is_digits(s) && s.len() <= 5 && s.parse::<u32>().is_ok_and(|n| n <= 65535)
}

/// A mainland mobile number: 11 digits starting with 1.
pub fn is_phone(s: &str) -> bool {
    s.len() == 11 && s.starts_with('1') && is_digits(s)
}

/// A Chinese resident ID number (18 characters with a valid check digit).
pub fn is_id_card(s: &str) -> bool {
    const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const CHECK: [char; 11] = ['1', '0', 'X', '9', '8', '7', '6', '5', '4', '3', '2'];
    let chars: Vec<char> = s.to_ascii_uppercase().chars().collect();
    if chars.len() != 18 || !chars[..17].iter().all(char::is_ascii_digit) {
        return false;
    }
    let sum: u32 = chars[..17].iter().zip(WEIGHTS).map(|(c, w)| c.to_digit(10).unwrap_or(0) * w).sum();
    chars[17] == CHECK[(sum % 11) as usize]
}

/// An e-mail address (one @, a dotted domain, no spaces).
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else { return false };
    !local.is_empty()
        && s.len() <= 254
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !s.chars().any(|c| c.is_whitespace() || c == '<' || c == '>')
        && !domain.contains('@')
}

/// A Chinese name of 2-4 Chinese characters.
pub fn is_chinese_name(s: &str) -> bool {
    (2..=4).contains(&s.chars().count()) && s.chars().all(is_cjk)
}

/// Null, empty, whitespace or the text 'null'.
pub fn is_blank(s: Option<&str>) -> bool {
    match s {
        None => true,
        Some(s) => s.trim().is_empty() || s.trim() == "null",
    }
}

/// A landline (area code + number, optional extension) or a 400/800 number.
pub fn is_landline(s: &str) -> bool {
    let digits_dash = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '-');
    if !digits_dash(s) {
        return false;
    }
    let plain: String = s.chars().filter(char::is_ascii_digit).collect();
    let service = (s.starts_with("400") || s.starts_with("800")) && plain.len() == 10;
    let parts: Vec<&str> = s.split('-').collect();
    let landline = parts.len() >= 2
        && parts.len() <= 3
        && parts[0].starts_with('0')
        && (3..=4).contains(&parts[0].len())
        && (7..=8).contains(&parts[1].len())
        && parts.get(2).is_none_or(|ext| (1..=6).contains(&ext.len()));
    service || landline
}

/// A number with at most two decimals.
pub fn is_money(s: &str) -> bool {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let int = int.strip_prefix('-').unwrap_or(int);
    is_digits(int) && (!s.contains('.') || (1..=2).contains(&frac.len()) && is_digits(frac))
}

/// A JSON text whose value is an object.
pub fn is_json_object(s: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(s).is_ok_and(|v| v.is_object())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validators_accept_and_reject_as_the_spec_says() {
        assert!(is_password("abcdef") && !is_password("abcde"));
        assert!(is_digits("0123") && !is_digits("12a") && !is_digits(""));
        assert!(is_name("充电站A1") && !is_name("a b"));
        assert!(is_ipv4("192.168.1.1") && !is_ipv4("256.1.1.1") && !is_ipv4("01.1.1.1"));
        assert!(is_url("https://ev.example/x") && is_url("ftp://f.example") && !is_url("javascript:alert(1)"));
        assert!(is_lower_case("abc") && !is_lower_case("aBc"));
        assert!(is_upper_case("ABC") && !is_upper_case("AbC"));
        assert!(is_letters("AbC") && !is_letters("Ab1"));
        assert!(is_port("0") && is_port("65535") && !is_port("65536") && !is_port("-1"));
        assert!(is_phone("13800138000") && !is_phone("23800138000") && !is_phone("1380013800"));
        assert!(is_id_card("11010519491231002X") && !is_id_card("110105194912310021"));
        assert!(is_email("ops@ev.example") && !is_email("ops@") && !is_email("a b@c.d"));
        assert!(is_chinese_name("张三") && !is_chinese_name("张") && !is_chinese_name("张三李四王"));
        assert!(is_blank(None) && is_blank(Some(" ")) && is_blank(Some("null")) && !is_blank(Some("x")));
        assert!(is_landline("010-12345678") && is_landline("0755-1234567-123") && is_landline("4001234567"));
        assert!(!is_landline("12345678"));
        assert!(is_money("12") && is_money("12.5") && is_money("-0.25") && !is_money("1.234") && !is_money("1."));
        assert!(is_json_object(r#"{"a":1}"#) && !is_json_object("[1]") && !is_json_object("{"));
    }
}
