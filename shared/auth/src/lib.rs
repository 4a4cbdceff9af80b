//! Authentication primitives; no store access, pure functions and small types.
//!
//! - [`password`]: argon2id hashing/verification, a dummy verify for unknown
//!   users (timing), and the password policy (6 characters to sign in, 12 for a new one).
//! - [`token`]: HS256 JWT access tokens ([`TokenKeys`], [`Claims`]) with an
//!   explicit clock, `Expired` distinct from `Invalid`.
//! - [`throttle`]: login-throttling arithmetic ([`ThrottlePolicy`]).
//! - [`device`]: device tokens (OWASP's device cookie): a browser that
//!   signed in before is known, and guesses from elsewhere cannot lock it out.

pub mod device;
mod error;
pub mod password;
pub mod throttle;
pub mod token;

pub use device::{DeviceKey, KnownDevice, DEVICE_TOKEN_MAX_AGE_SECS};
pub use error::AuthError;
pub use password::{
    dummy_verify, hash_password, is_common_password, needs_rehash, password_policy, reserve_memory, verify_password,
    PolicyError, NEW_PASSWORD_MIN_CHARS, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS,
};
pub use throttle::{FailureWindow, ThrottleDecision, ThrottlePolicy};
pub use token::{bearer_token, Claims, TokenError, TokenKeys, MIN_SECRET_BYTES};
