//! Password hashing (argon2id, PHC strings) and the password policy.

use std::sync::Mutex;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

use crate::AuthError;

/// Minimum length of a password typed to sign in (its error message is the
/// catalogue's `auth.passwordTooShort`): the sign-in form's check, not the
/// policy for new ones.
pub const PASSWORD_MIN_CHARS: usize = 6;
/// Minimum length of a new password (sign-up, change, admin reset, first
/// admin): OWASP ASVS 2.1.1 asks for 12.
pub const NEW_PASSWORD_MIN_CHARS: usize = 12;

/// The 10,000 most common passwords, lower case, most common first (one per
/// line after `#` comment lines). Source: the ranked "passwords" list of
/// zxcvbn 4.5.0 (MIT, https://github.com/dwolf/zxcvbn-python), which ranks
/// Mark Burnett's 10 million leaked passwords (xato.net); its head is the
/// same as SecLists' 10k-most-common.txt.
const COMMON_PASSWORDS: &str = include_str!("../data/common-passwords.txt");

/// Whether `pw` is one of [`COMMON_PASSWORDS`] (case-insensitive).
pub fn is_common_password(pw: &str) -> bool {
    let lower = pw.to_lowercase();
    COMMON_PASSWORDS.lines().filter(|l| !l.starts_with('#')).any(|l| l == lower)
}
/// Maximum password length in characters (bounds hashing work per request).
pub const PASSWORD_MAX_CHARS: usize = 128;

/// Production argon2id memory cost in KiB (OWASP: m=19456, t=2, p=1).
const PROD_M_COST: u32 = 19_456;
const PROD_T_COST: u32 = 2;
const PROD_P_COST: u32 = 1;

/// A valid argon2id hash made with the production parameters, of a random
/// password nobody knows. [`dummy_verify`] checks against it so that a login
/// for an unknown user costs as much as one for a known user.
/// A test asserts that its parameters equal the production ones.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$1QsjS/ZrKfAtY2fOySNqEw$AVFRx8Bgjt5d/cMlUwlvX6aahYOPWLg2l5OYEHcwnNY";

fn production_params() -> Params {
    Params::new(PROD_M_COST, PROD_T_COST, PROD_P_COST, None).expect("valid argon2 params")
}

/// Parameters used by [`hash_password`]: the production parameters, except
/// in this crate's own unit tests, where cheap ones keep the suite fast.
fn hashing_params() -> Params {
    #[cfg(test)]
    {
        Params::new(Params::MIN_M_COST, 1, 1, None).expect("valid argon2 params")
    }
    #[cfg(not(test))]
    {
        production_params()
    }
}

fn hasher(params: Params) -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// argon2's working memory (19 MiB a hash with the production parameters),
/// kept for the next hash instead of freed: a burst of sign-ins then does
/// not grow and shrink the heap by tens of megabytes at a time. At most
/// [`KEPT_BUFFERS`] are kept (the server bounds concurrent hashes anyway).
static MEMORY: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());
const KEPT_BUFFERS: usize = 4;

/// Allocates (and touches) the working memory of `slots` concurrent hashes
/// with the production parameters now, so a server's memory does not step
/// up the first time that many sign-ins overlap.
pub fn reserve_memory(slots: usize) {
    let blocks = production_params().block_count();
    let mut kept = MEMORY.lock().unwrap_or_else(|p| p.into_inner());
    while kept.len() < slots.min(KEPT_BUFFERS) {
        // vec! writes every block (Block is not a primitive zero), so the
        // pages are resident from here on.
        kept.push(vec![Block::default(); blocks]);
    }
}

fn with_memory<T>(blocks: usize, work: impl FnOnce(&mut [Block]) -> T) -> T {
    let reused = MEMORY.lock().unwrap_or_else(|p| p.into_inner()).pop();
    let mut memory = match reused {
        Some(m) if m.len() >= blocks => m,
        _ => vec![Block::default(); blocks],
    };
    let result = work(&mut memory[..blocks]);
    let mut kept = MEMORY.lock().unwrap_or_else(|p| p.into_inner());
    if kept.len() < KEPT_BUFFERS {
        kept.push(memory);
    }
    result
}

/// The raw argon2id output of `pw` with `salt` under `params`.
fn raw_hash(pw: &str, salt: &[u8], params: Params, out_len: usize) -> Result<Vec<u8>, AuthError> {
    let mut out = vec![0u8; out_len];
    let blocks = params.block_count();
    with_memory(blocks, |memory| hasher(params).hash_password_into_with_memory(pw.as_bytes(), salt, &mut out, memory))
        .map_err(|e| AuthError::Hash(e.to_string()))?;
    Ok(out)
}

fn hash_with(pw: &str, params: Params) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_bytes = [0u8; 64];
    let salt_raw = salt.decode_b64(&mut salt_bytes).map_err(|e| AuthError::Hash(e.to_string()))?;
    let out = raw_hash(pw, salt_raw, params.clone(), Params::DEFAULT_OUTPUT_LEN)?;
    let output = Output::new(&out).map_err(|e| AuthError::Hash(e.to_string()))?;
    // The PHC string the argon2 crate itself writes (a test checks both ways).
    Ok(format!(
        "$argon2id$v=19$m={},t={},p={}${}${}",
        params.m_cost(),
        params.t_cost(),
        params.p_cost(),
        salt.as_str(),
        output
    ))
}

/// Hashes a password with argon2id (m=19456 KiB, t=2, p=1) and a random
/// salt; returns the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`).
///
/// Does not apply [`password_policy`]; callers check it first. CPU-bound
/// for tens of milliseconds: async callers run it on the blocking pool.
pub fn hash_password(pw: &str) -> Result<String, AuthError> {
    hash_with(pw, hashing_params())
}

/// Whether `pw` matches the PHC string `phc`. False for a wrong password, a
/// malformed hash or a hash that is not argon2id. The output comparison is
/// constant-time, and the cost follows the parameters recorded in the hash.
pub fn verify_password(pw: &str, phc: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    if parsed.algorithm != argon2::ARGON2ID_IDENT || parsed.version.is_some_and(|v| v != 0x13) {
        return false;
    }
    let (Ok(params), Some(salt), Some(expected)) = (Params::try_from(&parsed), parsed.salt, parsed.hash) else {
        return false;
    };
    let mut salt_bytes = [0u8; 64];
    let Ok(salt_raw) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    match raw_hash(pw, salt_raw, params, expected.len()) {
        // Output's equality is constant-time.
        Ok(out) => Output::new(&out).is_ok_and(|computed| computed == expected),
        Err(_) => false,
    }
}

/// Spends the time of a real [`verify_password`] against a production hash
/// and discards the result. Call it when the username is unknown so that
/// response times do not reveal which usernames exist.
pub fn dummy_verify(pw: &str) {
    let _ = std::hint::black_box(verify_password(pw, DUMMY_HASH));
}

/// Whether a stored hash should be replaced by a fresh [`hash_password`] at
/// the next successful login: malformed, not argon2id, or made with
/// parameters weaker than the production ones.
pub fn needs_rehash(phc: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return true;
    };
    if parsed.algorithm != argon2::ARGON2ID_IDENT {
        return true;
    }
    let Ok(params) = Params::try_from(&parsed) else {
        return true;
    };
    params.m_cost() < PROD_M_COST || params.t_cost() < PROD_T_COST
}

/// The least strength a new password must have: zxcvbn's score 3 of 4,
/// "safely unguessable" (at least 10^8 guesses by its estimate, which
/// knows common passwords, words, names, keyboard rows, dates, sequences,
/// repeats and l33t substitutions: `password1234` and `Password1234!` are
/// far below it).
pub const MIN_STRENGTH_SCORE: u8 = 3;

/// Why a new password was refused by [`password_policy`] (`Display` is the
/// English reason; the back-office words it for the reader).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum PolicyError {
    /// Fewer than [`NEW_PASSWORD_MIN_CHARS`] characters.
    #[error("the password must have at least 12 characters")]
    TooShort,
    /// More than [`PASSWORD_MAX_CHARS`] characters.
    #[error("password cannot be more than 128 characters")]
    TooLong,
    /// One of the 10,000 most common passwords.
    #[error("this password is one of the 10,000 most common ones: choose another")]
    Common,
    /// The user name inside the password, or one character repeated.
    #[error("the password must not contain the user name or be one character repeated")]
    Guessable,
    /// Below [`MIN_STRENGTH_SCORE`] by the strength estimator, with what it
    /// found and what it suggests.
    #[error("{}", weak_en(*warning, *suggestion))]
    Weak { warning: Option<Weakness>, suggestion: Option<Advice> },
    /// This build has no strength estimator (feature `strength`): it sets
    /// no password rather than skip the check.
    #[error("this server cannot check a new password's strength; the password was not changed")]
    Unchecked,
}

#[cfg(feature = "strength")]
pub use zxcvbn::feedback::{Suggestion as Advice, Warning as Weakness};

/// What the strength estimator found (zxcvbn's warnings; none without it).
#[cfg(not(feature = "strength"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weakness {}
/// What the strength estimator suggests (zxcvbn's suggestions; none without it).
#[cfg(not(feature = "strength"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advice {}

fn weak_en(warning: Option<Weakness>, suggestion: Option<Advice>) -> String {
    let mut text = String::from("this password is too easy to guess");
    if let Some(w) = warning {
        text.push_str(&format!(": {}", w.to_string().trim_end_matches('.').to_lowercase()));
    }
    if let Some(s) = suggestion {
        text.push_str(&format!(". {s}"));
    }
    text
}

#[cfg(not(feature = "strength"))]
impl std::fmt::Display for Weakness {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {}
    }
}

#[cfg(not(feature = "strength"))]
impl std::fmt::Display for Advice {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {}
    }
}

/// The strength estimator's verdict on `pw` (the user name counts as a
/// word an attacker tries first).
#[cfg(feature = "strength")]
fn strength(pw: &str, username: &str) -> Result<(), PolicyError> {
    let estimate = zxcvbn::zxcvbn(pw, &[username.trim()]);
    if u8::from(estimate.score()) >= MIN_STRENGTH_SCORE {
        return Ok(());
    }
    let feedback = estimate.feedback();
    Err(PolicyError::Weak {
        warning: feedback.and_then(|f| f.warning()),
        suggestion: feedback.and_then(|f| f.suggestions().first().copied()),
    })
}

#[cfg(not(feature = "strength"))]
fn strength(_pw: &str, _username: &str) -> Result<(), PolicyError> {
    Err(PolicyError::Unchecked)
}

/// The policy for a new password of `username`: 12 to 128 characters
/// (Unicode scalar values, not bytes; any characters, spaces included, no
/// composition rules, as ASVS 2.1 asks), not one of the 10,000 most common
/// passwords, not containing the user name, not one character repeated,
/// and strong enough by the strength estimator ([`MIN_STRENGTH_SCORE`]).
pub fn password_policy(pw: &str, username: &str) -> Result<(), PolicyError> {
    let n = pw.chars().count();
    if n < NEW_PASSWORD_MIN_CHARS {
        return Err(PolicyError::TooShort);
    }
    if n > PASSWORD_MAX_CHARS {
        return Err(PolicyError::TooLong);
    }
    if is_common_password(pw) {
        return Err(PolicyError::Common);
    }
    let lower = pw.to_lowercase();
    let name = username.trim().to_lowercase();
    let mut chars = pw.chars();
    let first = chars.next();
    if (name.chars().count() >= 3 && lower.contains(&name)) || chars.all(|c| Some(c) == first) {
        return Err(PolicyError::Guessable);
    }
    strength(pw, username)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[test]
    fn hashes_agree_with_the_argon2_crate_both_ways() {
        // Ours verified by the crate's own verifier...
        let ours = hash_password("interop pass").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default().verify_password(b"interop pass", &parsed).is_ok(), "{ours}");
        // ...and the crate's hashes (stored before this code) verified by ours.
        let salt = SaltString::generate(&mut OsRng);
        let theirs = hasher(production_params()).hash_password(b"interop pass", &salt).unwrap().to_string();
        assert!(verify_password("interop pass", &theirs));
        assert!(!verify_password("interop pasS", &theirs));
    }

    #[test]
    fn reserved_memory_is_used_by_the_next_hashes() {
        reserve_memory(2);
        assert!(MEMORY.lock().unwrap().len() >= 1);
        let phc = hash_password("reserved").unwrap();
        assert!(verify_password("reserved", &phc));
    }

    #[test]
    fn the_working_memory_is_kept_for_reuse_not_grown() {
        for _ in 0..10 {
            let phc = hash_password("reuse").unwrap();
            assert!(verify_password("reuse", &phc));
        }
        assert!(MEMORY.lock().unwrap().len() <= KEPT_BUFFERS);
    }

    #[test]
    fn hash_verify_roundtrip() {
        let phc = hash_password("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$"), "{phc}");
        assert!(verify_password("correct horse", &phc));
    }

    #[test]
    fn wrong_password_fails() {
        let phc = hash_password("correct horse").unwrap();
        for wrong in ["correct hors", "Correct horse", "correct horse ", "", "x"] {
            assert!(!verify_password(wrong, &phc), "{wrong:?}");
        }
    }

    #[test]
    fn salts_are_random() {
        let a = hash_password("same password").unwrap();
        let b = hash_password("same password").unwrap();
        assert_ne!(a, b);
        assert!(verify_password("same password", &a));
        assert!(verify_password("same password", &b));
    }

    #[test]
    fn unicode_and_long_passwords() {
        for pw in ["密码不能少于6位", "pässwörd🔑", &"a".repeat(128)] {
            let phc = hash_password(pw).unwrap();
            assert!(verify_password(pw, &phc), "{pw}");
        }
    }

    #[test]
    fn malformed_hash_is_false_not_panic() {
        let good = hash_password("secret1").unwrap();
        let truncated = &good[..good.len() - 5];
        let cases = [
            "",
            "plain text",
            "$argon2id$",
            "$argon2id$v=19$m=19456,t=2,p=1$",
            "$argon2id$v=19$m=abc,t=2,p=1$c2FsdHNhbHQ$aGFzaA",
            "$bcrypt$whatever",
            truncated,
        ];
        for phc in cases {
            assert!(!verify_password("secret1", phc), "{phc:?}");
        }
    }

    #[test]
    fn other_argon2_variants_are_refused() {
        let salt = SaltString::generate(&mut OsRng);
        let params = Params::new(Params::MIN_M_COST, 1, 1, None).unwrap();
        let argon2i = Argon2::new(Algorithm::Argon2i, Version::V0x13, params)
            .hash_password(b"secret1", &salt)
            .unwrap()
            .to_string();
        assert!(argon2i.starts_with("$argon2i$"));
        assert!(!verify_password("secret1", &argon2i));
        assert!(needs_rehash(&argon2i));
    }

    #[test]
    fn dummy_hash_uses_production_params() {
        let parsed = PasswordHash::new(DUMMY_HASH).expect("dummy hash parses");
        assert_eq!(parsed.algorithm, argon2::ARGON2ID_IDENT);
        let params = Params::try_from(&parsed).unwrap();
        let prod = production_params();
        assert_eq!(
            (params.m_cost(), params.t_cost(), params.p_cost()),
            (prod.m_cost(), prod.t_cost(), prod.p_cost())
        );
        assert_eq!(
            (prod.m_cost(), prod.t_cost(), prod.p_cost()),
            (19_456, 2, 1)
        );
        assert!(!needs_rehash(DUMMY_HASH));
        // it is a real hash: verification runs and fails for a guess
        assert!(!verify_password("password", DUMMY_HASH));
        dummy_verify("password");
    }

    #[test]
    fn production_params_hash_verifies() {
        let phc = hash_with("production", production_params()).unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify_password("production", &phc));
        assert!(!needs_rehash(&phc));
    }

    #[test]
    fn weak_or_malformed_hashes_need_rehash() {
        let cheap = hash_password("secret1").unwrap();
        assert!(needs_rehash(&cheap));
        assert!(needs_rehash("garbage"));
    }

    #[test]
    fn policy_boundaries() {
        let cases: &[(&str, Result<(), PolicyError>)] = &[
            ("", Err(PolicyError::TooShort)),
            ("correct hor", Err(PolicyError::TooShort)),
            ("correct hors", Ok(())),
            ("密码密码密码密码密码密", Err(PolicyError::TooShort)),
            ("充电站的密码是绿色的电车啊", Ok(())), // 13 chars, 39 bytes
        ];
        for (pw, expected) in cases {
            assert_eq!(password_policy(pw, "zoe"), *expected, "{pw:?}");
        }
        // Lengths in characters; text without repeats, so only the length decides.
        let latin = |n: usize| (0..n).map(|i| char::from(b'a' + ((i * 7 + i / 26) % 26) as u8)).collect::<String>();
        let han = |n: usize| (0..n).map(|i| char::from_u32(0x4e00 + (i as u32 * 37) % 2000).unwrap()).collect::<String>();
        assert_eq!(password_policy(&latin(128), "zoe"), Ok(()));
        assert_eq!(password_policy(&latin(129), "zoe"), Err(PolicyError::TooLong));
        assert_eq!(password_policy(&han(128), "zoe"), Ok(()));
        assert_eq!(password_policy(&han(129), "zoe"), Err(PolicyError::TooLong));
        // Long is not enough: one pair repeated is refused as easy to guess.
        assert!(matches!(password_policy(&"ab".repeat(64), "zoe"), Err(PolicyError::Weak { .. })));
    }

    #[test]
    fn common_and_guessable_passwords_are_refused() {
        // The list's first entry, its longest common ones, any case.
        assert!(is_common_password("123456") && is_common_password("QWERTY"));
        for common in ["1qaz2wsx3edc", "qwerty123456", "LeaveMeAlone", "123456654321"] {
            assert_eq!(password_policy(common, "zoe"), Err(PolicyError::Common), "{common}");
        }
        let listed = COMMON_PASSWORDS.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(listed, 10_000);
        assert_eq!(password_policy("station-manager-77", "Manager"), Err(PolicyError::Guessable));
        assert_eq!(password_policy("zzzzzzzzzzzzzz", "zoe"), Err(PolicyError::Guessable));
        // A short name is not searched for (it would refuse half of all passwords).
        assert_eq!(password_policy("bold kettle rain", "al"), Ok(()));
    }

    #[test]
    fn passwords_easy_to_guess_are_refused_with_the_reason() {
        for weak in ["password1234", "Password1234!", "P@ssw0rd2024!", "qwertyuiop123", "abcdefgh1234", "iloveyou2024!"] {
            let err = password_policy(weak, "zoe").unwrap_err();
            assert!(matches!(err, PolicyError::Weak { .. }), "{weak}: {err:?}");
            assert!(err.to_string().starts_with("this password is too easy to guess"), "{err}");
        }
        let common = password_policy("password1234", "zoe").unwrap_err().to_string();
        assert!(common.contains("common password") || common.contains("similar"), "{common}");
        for strong in ["correct horse battery staple", "bold kettle rain", "quiet-lantern-12345", "充电站的密码是绿色的电车啊"] {
            assert_eq!(password_policy(strong, "zoe"), Ok(()), "{strong}");
        }
    }

    #[test]
    fn policy_messages() {
        assert_eq!(PolicyError::TooShort.to_string(), "the password must have at least 12 characters");
        assert!(PolicyError::Common.to_string().contains("most common"));
    }
}
