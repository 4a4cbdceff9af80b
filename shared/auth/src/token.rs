//! HS256 JWT access tokens with an explicit clock.

use std::fmt;

use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::AuthError;

/// Minimum HS256 secret length in bytes (the hash output size).
pub const MIN_SECRET_BYTES: usize = 32;

/// Access-token claims. Times are Unix seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Username.
    pub sub: String,
    /// Session id (for revocation / logout).
    pub sid: String,
    /// Issued at.
    pub iat: i64,
    /// Expires at; the token is expired when `now >= exp`.
    pub exp: i64,
    /// When the session started (sign-in).
    pub auth_time: i64,
}

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Signature and claims are valid but `exp` has passed. Carries the
    /// claims so that a refresh can use them (API code 402).
    #[error("token expired")]
    Expired(Claims),
    /// Anything else: malformed, bad signature, wrong algorithm, missing or
    /// mistyped claims (API code 401).
    #[error("token invalid")]
    Invalid,
}

/// HS256 signing and verification keys built from one secret.
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl fmt::Debug for TokenKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenKeys { .. }")
    }
}

/// jsonwebtoken's cryptography for the one algorithm the product signs and
/// accepts, HS256 (RustCrypto's hmac and sha2). jsonwebtoken is built
/// without a back end of its own: either would link far more into every
/// Lambda function (RSA and elliptic curves, or aws-lc). Any other algorithm
/// is refused, never a panic. Installed by [`TokenKeys::new`]; idempotent.
pub fn install_jwt_crypto() {
    let _ = HS256_ONLY.install_default();
}

static HS256_ONLY: jsonwebtoken::crypto::CryptoProvider = jsonwebtoken::crypto::CryptoProvider {
    signer_factory: hs256::signer,
    verifier_factory: hs256::verifier,
    jwk_utils: jsonwebtoken::crypto::JwkUtils::new_unimplemented(),
};

mod hs256 {
    use hmac::{Hmac, Mac};
    use jsonwebtoken::crypto::{JwtSigner, JwtVerifier};
    use jsonwebtoken::errors::{ErrorKind, Result};
    use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey};
    use sha2::Sha256;

    type HmacSha256 = Hmac<Sha256>;

    struct Hs256(HmacSha256);

    fn keyed(secret: &[u8]) -> Result<Hs256> {
        Ok(Hs256(HmacSha256::new_from_slice(secret).map_err(|_| ErrorKind::InvalidKeyFormat)?))
    }

    pub fn signer(alg: &Algorithm, key: &EncodingKey) -> Result<Box<dyn JwtSigner>> {
        if *alg != Algorithm::HS256 {
            return Err(ErrorKind::InvalidAlgorithm.into());
        }
        Ok(Box::new(keyed(key.try_get_hmac_secret()?)?))
    }

    pub fn verifier(alg: &Algorithm, key: &DecodingKey) -> Result<Box<dyn JwtVerifier>> {
        if *alg != Algorithm::HS256 {
            return Err(ErrorKind::InvalidAlgorithm.into());
        }
        Ok(Box::new(keyed(key.try_get_hmac_secret()?)?))
    }

    impl signature::Signer<Vec<u8>> for Hs256 {
        fn try_sign(&self, msg: &[u8]) -> std::result::Result<Vec<u8>, signature::Error> {
            let mut mac = self.0.clone();
            mac.update(msg);
            Ok(mac.finalize().into_bytes().to_vec())
        }
    }

    impl signature::Verifier<Vec<u8>> for Hs256 {
        fn verify(&self, msg: &[u8], signature: &Vec<u8>) -> std::result::Result<(), signature::Error> {
            let mut mac = self.0.clone();
            mac.update(msg);
            // Constant-time comparison.
            mac.verify_slice(signature).map_err(|_| signature::Error::new())
        }
    }

    impl JwtSigner for Hs256 {
        fn algorithm(&self) -> Algorithm {
            Algorithm::HS256
        }
    }

    impl JwtVerifier for Hs256 {
        fn algorithm(&self) -> Algorithm {
            Algorithm::HS256
        }
    }
}

impl TokenKeys {
    /// Builds the keys; refuses secrets shorter than [`MIN_SECRET_BYTES`].
    pub fn new(secret: &[u8]) -> Result<Self, AuthError> {
        install_jwt_crypto();
        if secret.len() < MIN_SECRET_BYTES {
            return Err(AuthError::SecretTooShort {
                len: secret.len(),
                min: MIN_SECRET_BYTES,
            });
        }
        let mut validation = Validation::new(Algorithm::HS256);
        // Expiry is checked by `verify` against the caller's `now`, with no
        // leeway, so that `Expired` can carry the claims.
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.validate_aud = false;
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Ok(Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        })
    }

    /// Issues a token for `sub` / session `sid`: `iat = now`,
    /// `exp = now + ttl_secs` (`ttl_secs` must be positive).
    pub fn issue(
        &self,
        sub: &str,
        sid: &str,
        auth_time: i64,
        now: i64,
        ttl_secs: i64,
    ) -> Result<String, AuthError> {
        if ttl_secs <= 0 {
            return Err(AuthError::Issue(format!(
                "ttl must be positive, got {ttl_secs}"
            )));
        }
        let exp = now
            .checked_add(ttl_secs)
            .ok_or_else(|| AuthError::Issue("expiry overflows".to_owned()))?;
        let claims = Claims {
            sub: sub.to_owned(),
            sid: sid.to_owned(),
            iat: now,
            exp,
            auth_time,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AuthError::Issue(e.to_string()))
    }

    /// Verifies signature (HS256 only) and claims, then expiry against
    /// `now` with no leeway: `Expired(claims)` when `now >= exp`,
    /// `Invalid` for everything else that is wrong.
    pub fn verify(&self, token: &str, now: i64) -> Result<Claims, TokenError> {
        let claims = decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| TokenError::Invalid)?
            .claims;
        if now >= claims.exp {
            Err(TokenError::Expired(claims))
        } else {
            Ok(claims)
        }
    }
}

/// The token from an `Authorization` header value: strips an optional
/// `Bearer ` prefix (scheme matched case-insensitively) and surrounding
/// whitespace. `None` when absent, empty, or not a single token.
pub fn bearer_token(header: Option<&str>) -> Option<&str> {
    let value = header?.trim();
    if value.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = match value.get(..7) {
        Some(prefix) if prefix.eq_ignore_ascii_case("bearer ") => value[7..].trim_start(),
        _ => value,
    };
    if token.is_empty() || token.contains(char::is_whitespace) {
        None
    } else {
        Some(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    use serde_json::json;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";
    const OTHER_SECRET: &[u8] = b"fedcba9876543210fedcba9876543210";
    const NOW: i64 = 1_700_000_000;

    fn keys() -> TokenKeys {
        TokenKeys::new(SECRET).unwrap()
    }

    fn b64(v: &serde_json::Value) -> String {
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(v).unwrap())
    }

    fn claims_json() -> serde_json::Value {
        json!({"sub": "admin", "sid": "s1", "iat": NOW, "exp": NOW + 900, "auth_time": NOW})
    }

    /// Signs `header.payload` with HMAC-SHA256 via jsonwebtoken itself.
    fn sign_raw(header: &serde_json::Value, payload: &serde_json::Value, secret: &[u8]) -> String {
        install_jwt_crypto();
        let message = format!("{}.{}", b64(header), b64(payload));
        let sig = jsonwebtoken::crypto::sign(
            message.as_bytes(),
            &EncodingKey::from_secret(secret),
            Algorithm::HS256,
        )
        .unwrap();
        format!("{message}.{sig}")
    }

    #[test]
    fn short_secret_is_rejected() {
        for len in [0, 1, 16, 31] {
            let err = TokenKeys::new(&vec![7u8; len]).unwrap_err();
            assert_eq!(err, AuthError::SecretTooShort { len, min: 32 });
            assert!(err.to_string().contains("at least 32 bytes"));
        }
        assert!(TokenKeys::new(&[7u8; 32]).is_ok());
        assert!(TokenKeys::new(&[7u8; 64]).is_ok());
    }

    #[test]
    fn debug_does_not_leak_secret() {
        assert_eq!(format!("{:?}", keys()), "TokenKeys { .. }");
    }

    #[test]
    fn issue_then_verify() {
        let k = keys();
        let token = k.issue("admin", "sid-1", NOW - 100, NOW, 900).unwrap();
        let claims = k.verify(&token, NOW).unwrap();
        assert_eq!(
            claims,
            Claims {
                sub: "admin".into(),
                sid: "sid-1".into(),
                iat: NOW,
                exp: NOW + 900,
                auth_time: NOW - 100,
            }
        );
        // still valid one second before expiry
        assert!(k.verify(&token, NOW + 899).is_ok());
        // a second key built from the same secret verifies it
        assert!(TokenKeys::new(SECRET).unwrap().verify(&token, NOW).is_ok());
    }

    #[test]
    fn expired_is_distinct_from_invalid_and_carries_claims() {
        let k = keys();
        let token = k.issue("editor", "sid-2", NOW, NOW, 900).unwrap();
        for at in [NOW + 900, NOW + 901, NOW + 100_000] {
            match k.verify(&token, at) {
                Err(TokenError::Expired(c)) => {
                    assert_eq!(c.sub, "editor");
                    assert_eq!(c.sid, "sid-2");
                    assert_eq!(c.exp, NOW + 900);
                }
                other => panic!("at {at}: expected Expired, got {other:?}"),
            }
        }
    }

    #[test]
    fn no_leeway_even_against_real_clock() {
        // A token that expired in 1970 must be expired at any `now` after it,
        // whatever jsonwebtoken's own clock and default leeway would say.
        let k = keys();
        let token = k.issue("admin", "s", 0, 10, 5).unwrap();
        assert!(matches!(k.verify(&token, 15), Err(TokenError::Expired(_))));
        assert!(k.verify(&token, 14).is_ok());
    }

    #[test]
    fn bad_ttl_is_refused() {
        let k = keys();
        assert!(matches!(
            k.issue("a", "s", NOW, NOW, 0),
            Err(AuthError::Issue(_))
        ));
        assert!(matches!(
            k.issue("a", "s", NOW, NOW, -5),
            Err(AuthError::Issue(_))
        ));
        assert!(matches!(
            k.issue("a", "s", NOW, i64::MAX, 10),
            Err(AuthError::Issue(_))
        ));
    }

    #[test]
    fn tampered_signature_is_invalid() {
        let k = keys();
        let token = k.issue("editor", "s", NOW, NOW, 900).unwrap();
        let (rest, sig) = token.rsplit_once('.').unwrap();
        let mut sig_bytes = URL_SAFE_NO_PAD.decode(sig).unwrap();
        sig_bytes[0] ^= 1;
        let tampered = format!("{rest}.{}", URL_SAFE_NO_PAD.encode(&sig_bytes));
        assert_eq!(k.verify(&tampered, NOW), Err(TokenError::Invalid));
        // also invalid once "expired": a bad signature is never Expired
        assert_eq!(k.verify(&tampered, NOW + 10_000), Err(TokenError::Invalid));
    }

    #[test]
    fn tampered_payload_is_invalid() {
        let k = keys();
        let token = k.issue("editor", "s", NOW, NOW, 900).unwrap();
        let parts: Vec<&str> = token.split('.').collect();
        let mut payload = claims_json();
        payload["sub"] = json!("admin");
        let forged = format!("{}.{}.{}", parts[0], b64(&payload), parts[2]);
        assert_eq!(k.verify(&forged, NOW), Err(TokenError::Invalid));
    }

    #[test]
    fn wrong_secret_is_invalid() {
        let token = TokenKeys::new(OTHER_SECRET)
            .unwrap()
            .issue("admin", "s", NOW, NOW, 900)
            .unwrap();
        assert_eq!(keys().verify(&token, NOW), Err(TokenError::Invalid));
        assert_eq!(
            keys().verify(&token, NOW + 10_000),
            Err(TokenError::Invalid)
        );
    }

    #[test]
    fn garbage_is_invalid() {
        let k = keys();
        for token in [
            "",
            ".",
            "..",
            "a.b.c",
            "not a token",
            "Bearer x.y.z",
            "eyJ.eyJ.sig",
        ] {
            assert_eq!(k.verify(token, NOW), Err(TokenError::Invalid), "{token:?}");
        }
    }

    #[test]
    fn alg_none_is_rejected() {
        let k = keys();
        for alg in ["none", "None", "NONE"] {
            let header = json!({"alg": alg, "typ": "JWT"});
            let unsigned = format!("{}.{}.", b64(&header), b64(&claims_json()));
            assert_eq!(k.verify(&unsigned, NOW), Err(TokenError::Invalid), "{alg}");
            let with_sig = format!("{}.{}.c2ln", b64(&header), b64(&claims_json()));
            assert_eq!(k.verify(&with_sig, NOW), Err(TokenError::Invalid), "{alg}");
        }
    }

    #[test]
    fn other_algorithms_are_rejected() {
        // HS512 with the right secret: still refused, only HS256 is accepted.
        // (Signed by hand: the product's jsonwebtoken provider signs HS256 only.)
        use hmac::Mac;
        let message = format!("{}.{}", b64(&json!({"alg": "HS512", "typ": "JWT"})), b64(&claims_json()));
        let mut mac = hmac::Hmac::<sha2::Sha512>::new_from_slice(SECRET).unwrap();
        mac.update(message.as_bytes());
        let token = format!("{message}.{}", URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()));
        assert_eq!(keys().verify(&token, NOW), Err(TokenError::Invalid));
        // Nor does the provider sign anything else.
        install_jwt_crypto();
        assert!(encode(&Header::new(Algorithm::HS512), &claims_json(), &EncodingKey::from_secret(SECRET)).is_err());
    }

    #[test]
    fn hand_signed_token_with_right_secret_verifies() {
        // sanity check of the raw signer used below
        let token = sign_raw(
            &json!({"alg": "HS256", "typ": "JWT"}),
            &claims_json(),
            SECRET,
        );
        assert_eq!(keys().verify(&token, NOW).unwrap().sub, "admin");
    }

    #[test]
    fn missing_or_mistyped_claims_are_invalid() {
        let header = json!({"alg": "HS256", "typ": "JWT"});
        let mut cases = Vec::new();
        for field in ["sub", "sid", "iat", "exp", "auth_time"] {
            let mut c = claims_json();
            c.as_object_mut().unwrap().remove(field);
            cases.push(c);
        }
        let mut c = claims_json();
        c["exp"] = json!("soon");
        cases.push(c);
        let mut c = claims_json();
        c["sub"] = json!(42);
        cases.push(c);
        cases.push(json!("just a string"));
        for payload in cases {
            let token = sign_raw(&header, &payload, SECRET);
            assert_eq!(
                keys().verify(&token, NOW),
                Err(TokenError::Invalid),
                "{payload}"
            );
        }
    }

    #[test]
    fn bearer_prefix_is_optional() {
        let cases: &[(Option<&str>, Option<&str>)] = &[
            (None, None),
            (Some(""), None),
            (Some("   "), None),
            (Some("Bearer "), None),
            (Some("Bearer"), None),
            (Some("bearer"), None),
            (Some("Bearer abc.def.ghi"), Some("abc.def.ghi")),
            (Some("bearer abc"), Some("abc")),
            (Some("BEARER   abc  "), Some("abc")),
            (Some("abc.def.ghi"), Some("abc.def.ghi")),
            (Some("  abc  "), Some("abc")),
            (Some("Basic dXNlcjpwYXNz"), None),
            (Some("Bearer a b"), None),
            (Some("Bearer 令牌"), Some("令牌")),
            (Some("令牌令牌令牌"), Some("令牌令牌令牌")),
        ];
        for (input, expected) in cases {
            assert_eq!(bearer_token(*input), *expected, "{input:?}");
        }
    }
}
