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
}
