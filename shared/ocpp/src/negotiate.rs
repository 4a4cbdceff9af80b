//! The WebSocket handshake rules: which subprotocol, which charger, which
//! credentials. Pure functions; the transports (local gateway, API
//! Gateway `$connect`) call them.

use base64::Engine;

use crate::Version;

/// The OCPP versions this server speaks. Each charger is registered with
/// one of them (`Link::version`), and its handshake must offer that one.
pub const SUPPORTED: &[Version] = &[Version::V16, Version::V201];

/// Whether a `Sec-WebSocket-Protocol` offer such as `ocpp2.0.1, ocpp1.6`
/// (commas, spaces, any letter case) holds the charger's version; `None`
/// when the header is missing, empty, or does not offer it.
pub fn pick_subprotocol(offer: Option<&str>, wanted: Version) -> Option<Version> {
    let offered = offer?.split(',').map(|p| p.trim().to_ascii_lowercase()).any(|p| p == wanted.subprotocol());
    (offered && SUPPORTED.contains(&wanted)).then_some(wanted)
}

/// What a refused handshake is told to offer.
pub fn offer_hint(wanted: Version) -> String {
    format!("this charger is registered for OCPP {}: offer the subprotocol {} in Sec-WebSocket-Protocol", wanted.label(), wanted.subprotocol())
}

/// OCPP's chargeBoxIdentity is at most 48 characters.
pub const MAX_ID_LEN: usize = 48;

/// The charge point id from the last path segment (`/ocpp/{id}`),
/// percent-decoded; `None` when empty, too long or not printable.
pub fn charge_point_id(segment: &str) -> Option<String> {
    let decoded = url::form_urlencoded::parse(format!("x={}", segment.replace('+', "%2B")).as_bytes()).next()?.1.into_owned();
    let id = decoded.trim();
    (!id.is_empty() && id.chars().count() <= MAX_ID_LEN && id.chars().all(|c| c.is_ascii_graphic())).then(|| id.to_string())
}

/// `Authorization: Basic base64(user:password)` -> (user, password).
pub fn basic_credentials(header: Option<&str>) -> Option<(String, String)> {
    let header = header?.trim();
    let (scheme, encoded) = header.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subprotocol_offers() {
        let v16 = Version::V16;
        assert_eq!(pick_subprotocol(Some("ocpp1.6"), v16), Some(v16));
        assert_eq!(pick_subprotocol(Some("ocpp2.0.1, ocpp1.6"), v16), Some(v16));
        assert_eq!(pick_subprotocol(Some(" OCPP1.6 ,"), v16), Some(v16));
        assert_eq!(offer_hint(v16), "this charger is registered for OCPP 1.6: offer the subprotocol ocpp1.6 in Sec-WebSocket-Protocol");
        assert_eq!(pick_subprotocol(Some("ocpp2.0.1"), v16), None);
        assert_eq!(pick_subprotocol(Some(""), v16), None);
        assert_eq!(pick_subprotocol(None, v16), None);
        let v201 = Version::V201;
        assert_eq!(pick_subprotocol(Some("ocpp2.0.1, ocpp1.6"), v201), Some(v201));
        assert_eq!(pick_subprotocol(Some("ocpp1.6"), v201), None);
    }

    #[test]
    fn charge_point_ids_are_decoded() {
        assert_eq!(charge_point_id("CP%2D01").as_deref(), Some("CP-01"));
        assert_eq!(charge_point_id("cp-01").as_deref(), Some("cp-01"));
        assert_eq!(charge_point_id("a+b").as_deref(), Some("a+b"));
        assert_eq!(charge_point_id(""), None);
        assert_eq!(charge_point_id("a%20b"), None);
        assert_eq!(charge_point_id(&"x".repeat(49)), None);
    }

    #[test]
    fn basic_auth() {
        let h = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("CP01:secret:with:colons"));
        assert_eq!(basic_credentials(Some(&h)), Some(("CP01".into(), "secret:with:colons".into())));
        assert_eq!(basic_credentials(Some("Bearer x")), None);
        assert_eq!(basic_credentials(Some("Basic !!!")), None);
        assert_eq!(basic_credentials(None), None);
    }
}
