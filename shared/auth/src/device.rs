//! Device tokens, after OWASP's "device cookie" defence against online
//! guessing (Slow Down Online Guessing Attacks with Device Cookies): a
//! successful sign-in gives the browser a token naming the account and a
//! random nonce, signed with a key only the server holds. A later sign-in
//! that brings a valid token for the same account comes from a known
//! device: its tries are counted per device, never refused by the
//! throttle that slows guesses from unknown places, so an attacker
//! guessing from elsewhere cannot keep the owner out.
//!
//! The token is stateless: `{account}.{nonce}.{issued}.{mac}` with the
//! account in base64url, the nonce 16 random bytes (base64url), the issue
//! time in Unix seconds and the HMAC-SHA-256 of the three under
//! [`DeviceKey`]. The nonce names the device's own failure counter.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// How long a device stays known after its last successful sign-in.
pub const DEVICE_TOKEN_MAX_AGE_SECS: i64 = 180 * 86_400;

/// The key that signs device tokens, derived from the server's secret (a
/// separate key: a device token can never pass for an access token, nor the
/// other way round).
#[derive(Clone)]
pub struct DeviceKey(HmacSha256);

impl std::fmt::Debug for DeviceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeviceKey { .. }")
    }
}

/// A valid device token's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownDevice {
    /// The device's id (the token's nonce): the key of its own counter.
    pub id: String,
    pub issued_at: i64,
}

impl DeviceKey {
    /// The device-token key of a server secret.
    pub fn derive(secret: &[u8]) -> DeviceKey {
        let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes a key of any length");
        mac.update(b"backoffice device token key v1");
        let key = mac.finalize().into_bytes();
        DeviceKey(HmacSha256::new_from_slice(&key).expect("HMAC takes a key of any length"))
    }

    fn mac(&self, account: &str, nonce: &str, issued_at: i64) -> HmacSha256 {
        let mut mac = self.0.clone();
        mac.update(account.as_bytes());
        mac.update(b"\n");
        mac.update(nonce.as_bytes());
        mac.update(b"\n");
        mac.update(issued_at.to_string().as_bytes());
        mac
    }

    /// A new token for `account` (compared without regard to letter case).
    pub fn issue(&self, account: &str, now: i64) -> String {
        let account = account.to_lowercase();
        let mut raw = [0u8; 16];
        rand::thread_rng().fill_bytes(&mut raw);
        let nonce = URL_SAFE_NO_PAD.encode(raw);
        let tag = URL_SAFE_NO_PAD.encode(self.mac(&account, &nonce, now).finalize().into_bytes());
        format!("{}.{nonce}.{now}.{tag}", URL_SAFE_NO_PAD.encode(account.as_bytes()))
    }

    /// The device a token names, when the token is ours, for `account`, and
    /// younger than [`DEVICE_TOKEN_MAX_AGE_SECS`]; None otherwise (the
    /// sign-in then counts as coming from an unknown place).
    pub fn verify(&self, token: &str, account: &str, now: i64) -> Option<KnownDevice> {
        let mut parts = token.trim().split('.');
        let (who, nonce, issued, tag) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || nonce.len() != 22 || !nonce.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return None;
        }
        let named = String::from_utf8(URL_SAFE_NO_PAD.decode(who).ok()?).ok()?;
        let issued_at: i64 = issued.parse().ok()?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        // Constant-time comparison of the signature.
        self.mac(&named, nonce, issued_at).verify_slice(&tag).ok()?;
        let fresh = issued_at <= now + 60 && now - issued_at <= DEVICE_TOKEN_MAX_AGE_SECS;
        (named == account.to_lowercase() && fresh).then(|| KnownDevice { id: nonce.to_string(), issued_at })
    }
}

/// The cookie that carries an account's device token. One per account, so
/// several staff sharing a browser each keep theirs: the name holds a hash
/// of the account, not the account itself.
pub fn cookie_name(account: &str) -> String {
    use sha2::Digest;
    let digest = Sha256::digest(account.to_lowercase().as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("bo_device_{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000;

    #[test]
    fn a_token_is_valid_for_its_account_only_and_while_fresh() {
        let key = DeviceKey::derive(b"a-server-secret-of-at-least-32-bytes!!");
        let token = key.issue("Editor", NOW);
        let device = key.verify(&token, "editor", NOW + 10).expect("valid");
        assert_eq!(device.issued_at, NOW);
        assert_eq!(key.verify(&token, "EDITOR", NOW).map(|d| d.id), Some(device.id.clone()));
        assert_eq!(key.verify(&token, "admin", NOW), None, "bound to the account");
        assert_eq!(key.verify(&token, "editor", NOW + DEVICE_TOKEN_MAX_AGE_SECS + 1), None, "expired");
        assert!(key.verify(&token, "editor", NOW + DEVICE_TOKEN_MAX_AGE_SECS).is_some());
        assert_ne!(key.issue("editor", NOW), token, "a fresh nonce every time");
    }

    #[test]
    fn forged_or_foreign_tokens_are_refused() {
        let key = DeviceKey::derive(b"a-server-secret-of-at-least-32-bytes!!");
        let other = DeviceKey::derive(b"another-server-secret-of-32-bytes!!!!");
        let token = key.issue("editor", NOW);
        assert_eq!(other.verify(&token, "editor", NOW), None, "another server's key");
        let parts: Vec<&str> = token.split('.').collect();
        let admin = URL_SAFE_NO_PAD.encode("admin");
        let swapped = format!("{admin}.{}.{}.{}", parts[1], parts[2], parts[3]);
        assert_eq!(key.verify(&swapped, "admin", NOW), None, "the account is signed");
        let younger = format!("{}.{}.{}.{}", parts[0], parts[1], NOW + 1000, parts[3]);
        assert_eq!(key.verify(&younger, "editor", NOW + 1000), None, "the issue time is signed");
        for bad in ["", "a.b.c.d", "....", &format!("{token}.x"), &token[..token.len() - 2]] {
            assert_eq!(key.verify(bad, "editor", NOW), None, "{bad:?}");
        }
    }

    #[test]
    fn cookie_names_differ_per_account_and_ignore_case() {
        assert_eq!(cookie_name("Editor"), cookie_name("editor"));
        assert_ne!(cookie_name("editor"), cookie_name("admin"));
        assert!(cookie_name("editor").starts_with("bo_device_") && cookie_name("editor").len() == 26);
    }
}
