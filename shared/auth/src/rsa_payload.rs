//! Optional RSA payload encryption (spec point 7): the client JSON-stringifies
//! the payload, encrypts it with the server's public key in chunks of
//! `key_bytes - 11` bytes (117 for a 1024-bit key) with PKCS#1 v1.5, and
//! base64-encodes the concatenated ciphertext; the server decrypts it in
//! chunks of `key_bytes` (128).
//!
//! **Off by default at runtime.** HTTPS already protects the payload, and the
//! `rsa` crate has an open timing side-channel advisory (RUSTSEC-2023-0071,
//! "Marvin attack": non-constant-time private-key operations may leak key
//! bits to a network observer who can time many decryptions). Enable only
//! where the client requires it, and prefer short-lived keys.
//! Decryption failures are reported as one opaque [`AuthError::Decrypt`].

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rand::rngs::OsRng;
use rsa::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding,
};
use rsa::traits::PublicKeyParts;
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};

use crate::AuthError;

/// Default key size (spec point 9: 1024 bits, 117/128-byte chunks).
pub const DEFAULT_RSA_BITS: usize = 1024;

/// PKCS#1 v1.5 encryption padding overhead in bytes.
const PKCS1_OVERHEAD: usize = 11;

/// Upper bound on the number of ciphertext chunks accepted by
/// [`RsaKeys::decrypt_payload`] (bounds CPU per request; 256 chunks of a
/// 1024-bit key carry about 29 KiB of plaintext).
pub const MAX_PAYLOAD_CHUNKS: usize = 256;

/// An RSA key pair for payload decryption.
#[derive(Clone)]
pub struct RsaKeys {
    private: RsaPrivateKey,
    public: RsaPublicKey,
}

impl fmt::Debug for RsaKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RsaKeys {{ bits: {} }}", self.public.size() * 8)
    }
}

impl RsaKeys {
    /// Generates a new key pair of `bits` bits (1024 to 4096; see
    /// [`DEFAULT_RSA_BITS`]).
    pub fn generate(bits: usize) -> Result<Self, AuthError> {
        if !(1024..=4096).contains(&bits) || !bits.is_multiple_of(8) {
            return Err(AuthError::RsaKey(format!(
                "key size must be a multiple of 8 between 1024 and 4096 bits, got {bits}"
            )));
        }
        let private =
            RsaPrivateKey::new(&mut OsRng, bits).map_err(|e| AuthError::RsaKey(e.to_string()))?;
        Ok(Self::from_private(private))
    }

    /// Loads a PKCS#8 PEM private key (`-----BEGIN PRIVATE KEY-----`).
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, AuthError> {
        let private = RsaPrivateKey::from_pkcs8_pem(pem)
            .map_err(|e| AuthError::RsaKey(format!("invalid PKCS#8 private key: {e}")))?;
        Ok(Self::from_private(private))
    }

    fn from_private(private: RsaPrivateKey) -> Self {
        let public = private.to_public_key();
        Self { private, public }
    }

    /// The private key as PKCS#8 PEM, for persisting a generated key.
    pub fn private_key_pkcs8_pem(&self) -> Result<String, AuthError> {
        self.private
            .to_pkcs8_pem(LineEnding::LF)
            .map(|pem| pem.to_string())
            .map_err(|e| AuthError::RsaKey(e.to_string()))
    }

    /// The public key as SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
    pub fn public_key_pem(&self) -> String {
        self.public
            .to_public_key_pem(LineEnding::LF)
            .expect("an RSA public key always encodes")
    }

    /// The public key as base64 SPKI DER, i.e. the PEM body without header,
    /// footer and line breaks (what the template client wraps in PEM
    /// markers itself).
    pub fn public_key_base64(&self) -> String {
        let der = self
            .public
            .to_public_key_der()
            .expect("an RSA public key always encodes");
        STANDARD.encode(der.as_bytes())
    }

    /// Key size in bytes (128 for 1024 bits): the ciphertext chunk size.
    pub fn key_bytes(&self) -> usize {
        self.public.size()
    }

    /// Base64-decodes `b64` (standard alphabet, surrounding whitespace
    /// ignored), decrypts each [`key_bytes`](Self::key_bytes) chunk with
    /// PKCS#1 v1.5 and concatenates the plaintexts.
    pub fn decrypt_payload(&self, b64: &str) -> Result<Vec<u8>, AuthError> {
        let data = STANDARD
            .decode(b64.trim())
            .map_err(|_| AuthError::PayloadEncoding)?;
        let chunk = self.key_bytes();
        if data.is_empty() {
            return Err(AuthError::PayloadMalformed("empty payload".to_owned()));
        }
        if data.len() % chunk != 0 {
            return Err(AuthError::PayloadMalformed(format!(
                "{} bytes is not a whole number of {chunk}-byte chunks",
                data.len()
            )));
        }
        if data.len() / chunk > MAX_PAYLOAD_CHUNKS {
            return Err(AuthError::PayloadMalformed(format!(
                "more than {MAX_PAYLOAD_CHUNKS} chunks"
            )));
        }
        let mut plain = Vec::with_capacity(data.len());
        for block in data.chunks(chunk) {
            let part = self
                .private
                .decrypt(Pkcs1v15Encrypt, block)
                .map_err(|_| AuthError::Decrypt)?;
            plain.extend_from_slice(&part);
        }
        Ok(plain)
    }
}

/// Encrypts `plain` for the holder of `public_pem` (SPKI PEM, or the bare
/// base64 body as given by [`RsaKeys::public_key_base64`]): PKCS#1 v1.5 in
/// chunks of `key_bytes - 11` bytes, ciphertexts concatenated and base64
/// encoded. An empty `plain` gives one chunk. For tests and clients.
pub fn encrypt_payload(public_pem: &str, plain: &[u8]) -> Result<String, AuthError> {
    let public = parse_public_key(public_pem)?;
    let chunk = public.size().saturating_sub(PKCS1_OVERHEAD);
    if chunk == 0 {
        return Err(AuthError::Encrypt("key too small".to_owned()));
    }
    let mut out = Vec::with_capacity(plain.len().div_ceil(chunk).max(1) * public.size());
    let mut encrypt = |part: &[u8]| -> Result<(), AuthError> {
        let ct = public
            .encrypt(&mut OsRng, Pkcs1v15Encrypt, part)
            .map_err(|e| AuthError::Encrypt(e.to_string()))?;
        out.extend_from_slice(&ct);
        Ok(())
    };
    if plain.is_empty() {
        encrypt(&[])?;
    }
    for part in plain.chunks(chunk) {
        encrypt(part)?;
    }
    Ok(STANDARD.encode(out))
}

fn parse_public_key(text: &str) -> Result<RsaPublicKey, AuthError> {
    let text = text.trim();
    let parsed = if text.starts_with("-----BEGIN") {
        RsaPublicKey::from_public_key_pem(text).map_err(|e| e.to_string())
    } else {
        let compact: String = text.split_whitespace().collect();
        STANDARD
            .decode(compact)
            .map_err(|e| e.to_string())
            .and_then(|der| RsaPublicKey::from_public_key_der(&der).map_err(|e| e.to_string()))
    };
    parsed.map_err(|e| AuthError::RsaKey(format!("invalid SPKI public key: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    /// One 1024-bit key for the whole module (generation is the slow part).
    fn keys() -> &'static RsaKeys {
        static KEYS: OnceLock<RsaKeys> = OnceLock::new();
        KEYS.get_or_init(|| RsaKeys::generate(DEFAULT_RSA_BITS).unwrap())
    }

    fn payload(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn key_shape() {
        let k = keys();
        assert_eq!(k.key_bytes(), 128);
        let pem = k.public_key_pem();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"), "{pem}");
        assert!(pem.trim_end().ends_with("-----END PUBLIC KEY-----"));
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        assert_eq!(body, k.public_key_base64());
        assert_eq!(format!("{k:?}"), "RsaKeys { bits: 1024 }");
    }

    #[test]
    fn roundtrip_various_lengths_and_chunk_counts() {
        let k = keys();
        let pem = k.public_key_pem();
        // (plaintext length, expected chunk count)
        for (len, chunks) in [
            (0, 1),
            (1, 1),
            (117, 1),
            (118, 2),
            (234, 2),
            (235, 3),
            (1000, 9),
        ] {
            let plain = payload(len);
            let b64 = encrypt_payload(&pem, &plain).unwrap();
            let raw = STANDARD.decode(&b64).unwrap();
            assert_eq!(raw.len(), chunks * 128, "len {len}");
            assert_eq!(k.decrypt_payload(&b64).unwrap(), plain, "len {len}");
        }
    }

    #[test]
    fn json_login_payload_roundtrip_with_bare_base64_key() {
        let k = keys();
        let json = format!(
            r#"{{"username":"admin","password":"{}","note":"密码不能少于6位"}}"#,
            "p".repeat(150)
        );
        assert!(json.len() > 117);
        let b64 = encrypt_payload(&k.public_key_base64(), json.as_bytes()).unwrap();
        let plain = k.decrypt_payload(&format!("  {b64}\n")).unwrap();
        assert_eq!(String::from_utf8(plain).unwrap(), json);
    }

    #[test]
    fn encryption_is_randomised() {
        let pem = keys().public_key_pem();
        assert_ne!(
            encrypt_payload(&pem, b"same").unwrap(),
            encrypt_payload(&pem, b"same").unwrap()
        );
    }

    #[test]
    fn corrupted_ciphertext_fails_to_decrypt() {
        let k = keys();
        let b64 = encrypt_payload(&k.public_key_pem(), &payload(200)).unwrap();
        let mut raw = STANDARD.decode(&b64).unwrap();
        // corrupt the second chunk
        raw[130] ^= 0xff;
        raw[200] ^= 0x55;
        assert_eq!(
            k.decrypt_payload(&STANDARD.encode(&raw)),
            Err(AuthError::Decrypt)
        );
        // a chunk of all zero bytes is not a valid ciphertext either
        assert_eq!(
            k.decrypt_payload(&STANDARD.encode([0u8; 128])),
            Err(AuthError::Decrypt)
        );
    }

    #[test]
    fn wrong_key_fails_to_decrypt() {
        let other = RsaKeys::generate(1024).unwrap();
        let b64 = encrypt_payload(&other.public_key_pem(), b"hello").unwrap();
        assert_eq!(keys().decrypt_payload(&b64), Err(AuthError::Decrypt));
    }

    #[test]
    fn malformed_payloads() {
        let k = keys();
        assert_eq!(
            k.decrypt_payload("not base64!!"),
            Err(AuthError::PayloadEncoding)
        );
        assert!(matches!(
            k.decrypt_payload(""),
            Err(AuthError::PayloadMalformed(_))
        ));
        let b64 = encrypt_payload(&k.public_key_pem(), b"hello").unwrap();
        let mut raw = STANDARD.decode(&b64).unwrap();
        raw.pop();
        assert!(matches!(
            k.decrypt_payload(&STANDARD.encode(&raw)),
            Err(AuthError::PayloadMalformed(_))
        ));
        let too_many = vec![1u8; 128 * (MAX_PAYLOAD_CHUNKS + 1)];
        assert!(matches!(
            k.decrypt_payload(&STANDARD.encode(too_many)),
            Err(AuthError::PayloadMalformed(_))
        ));
    }

    #[test]
    fn pkcs8_pem_roundtrip() {
        let k = keys();
        let pem = k.private_key_pkcs8_pem().unwrap();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
        let loaded = RsaKeys::from_pkcs8_pem(&pem).unwrap();
        assert_eq!(loaded.public_key_pem(), k.public_key_pem());
        let b64 = encrypt_payload(&k.public_key_pem(), b"persisted").unwrap();
        assert_eq!(loaded.decrypt_payload(&b64).unwrap(), b"persisted");
    }

    #[test]
    fn bad_keys_are_errors() {
        assert!(matches!(
            RsaKeys::from_pkcs8_pem("nope"),
            Err(AuthError::RsaKey(_))
        ));
        assert!(matches!(
            RsaKeys::from_pkcs8_pem(&keys().public_key_pem()),
            Err(AuthError::RsaKey(_))
        ));
        assert!(matches!(
            encrypt_payload("nope", b"x"),
            Err(AuthError::RsaKey(_))
        ));
        assert!(matches!(
            encrypt_payload(
                "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
                b"x"
            ),
            Err(AuthError::RsaKey(_))
        ));
        for bits in [0, 512, 1000, 8192] {
            assert!(
                matches!(RsaKeys::generate(bits), Err(AuthError::RsaKey(_))),
                "{bits}"
            );
        }
    }

    #[test]
    fn larger_key_uses_larger_chunks() {
        let k = RsaKeys::generate(2048).unwrap();
        assert_eq!(k.key_bytes(), 256);
        let plain = payload(500); // 245-byte chunks -> 3 chunks
        let b64 = encrypt_payload(&k.public_key_pem(), &plain).unwrap();
        assert_eq!(STANDARD.decode(&b64).unwrap().len(), 3 * 256);
        assert_eq!(k.decrypt_payload(&b64).unwrap(), plain);
    }
}
