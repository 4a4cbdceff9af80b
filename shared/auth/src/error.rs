//! The crate's error type.

/// Errors of the auth primitives. Messages never contain secrets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// Hashing a password failed (bad parameters; should not happen).
    #[error("password hashing failed: {0}")]
    Hash(String),
    /// The HS256 secret is shorter than [`crate::MIN_SECRET_BYTES`].
    #[error("JWT secret too short: {len} bytes, at least {min} bytes required")]
    SecretTooShort { len: usize, min: usize },
    /// A token could not be issued (bad ttl or encoding failure).
    #[error("token could not be issued: {0}")]
    Issue(String),
    /// An RSA key could not be generated, parsed or encoded.
    #[error("RSA key error: {0}")]
    RsaKey(String),
    /// The encrypted payload is not valid base64.
    #[error("encrypted payload is not valid base64")]
    PayloadEncoding,
    /// The encrypted payload has the wrong size (empty, not a whole number of
    /// key-size chunks, or too large).
    #[error("encrypted payload is malformed: {0}")]
    PayloadMalformed(String),
    /// A chunk failed to decrypt. Deliberately carries no detail.
    #[error("encrypted payload could not be decrypted")]
    Decrypt,
    /// Encryption failed (bad public key or RNG failure).
    #[error("payload could not be encrypted: {0}")]
    Encrypt(String),
}
