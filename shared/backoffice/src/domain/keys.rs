//! The single-table key layout: one place that says where each record
//! lives and which index serves which list.
//!
//! | record | PK | SK | index |
//! |---|---|---|---|
//! | user | `USER#{name}` | `PROFILE` | GSI1 `USERS` / name |
//! | session | `USER#{name}` | `SESSION#{sid}` | |
//! | role | `ROLE#{name}` | `ROLE` | GSI1 `ROLES` / name |
//! | menu tree | `MENU` | `TREE` | |
//! | notice | `NOTICE` | `{time}#{id}` | |
//! | a user's notice state (cleared through, read) | `USER#{name}` | `NOTICES` | |
//! | login throttle | `THROTTLE#{kind}#{subject}` | `THROTTLE` | |
//! | system log entry | `LOG#{id}` | `LOG` | GSI1 `LOG` / time#id, GSI2 `LOG#ACCOUNT#{name}` / time#id, GSI3 `LOG#TYPE#{function}` / time#id |
//! | social identity (which account it signs in as) | `SOCIAL#{provider}#{subject}` | `LINK` | |
//! | an account's social identity | `USER#{name}` | `SOCIAL#{provider}` | |
//! | pending social authorization | `OAUTHSTATE#{sha256(state)}` | `STATE` | |
//! | seed marker | `META` | `SEED` | |
//! | orders, refunds, refund ledger, order rollups | `ORDER#…`, `LEDGER#…`, `OIX#…`, `AGG#…` | | see `domain::orders::keys` |

use store::Key;

pub const PROFILE: &str = "PROFILE";
pub const USERS_INDEX_PK: &str = "USERS";
pub const ROLES_INDEX_PK: &str = "ROLES";
pub const LOG_INDEX_PK: &str = "LOG";

/// Usernames are matched without regard to case.
pub fn user_pk(username: &str) -> String {
    format!("USER#{}", username.to_lowercase())
}

pub fn user(username: &str) -> Key {
    Key::new(user_pk(username), PROFILE)
}

/// A user's password hash, in a partition of its own (`PWD#...`): the IAM
/// policies (`dynamodb:LeadingKeys`) keep every function but sign-in and
/// the staff routes away from it, while the user's record is read by every
/// authenticated call.
pub fn password(username: &str) -> Key {
    Key::new(format!("PWD#{}", username.to_lowercase()), "HASH")
}

pub fn session(username: &str, sid: &str) -> Key {
    Key::new(user_pk(username), format!("SESSION#{sid}"))
}

pub fn role(name: &str) -> Key {
    Key::new(format!("ROLE#{name}"), "ROLE")
}

pub fn menu_tree() -> Key {
    Key::new("MENU", "TREE")
}

pub const NOTICE_PK: &str = "NOTICE";

/// What one user cleared and read of the notices, beside their account.
pub fn notice_reader(username: &str) -> Key {
    Key::new(user_pk(username), "NOTICES")
}

pub fn throttle(kind: &str, subject: &str) -> Key {
    Key::new(format!("THROTTLE#{kind}#{}", subject.to_lowercase()), "THROTTLE")
}

pub fn log_entry(id: &str) -> Key {
    Key::new(format!("LOG#{id}"), "LOG")
}

pub fn log_account_index_pk(account: &str) -> String {
    format!("LOG#ACCOUNT#{}", account.to_lowercase())
}

/// The log's entries of one type: the route's function name, or
/// [`LOG_TYPE_CHARGER_ANSWER`] for what chargers answered.
pub fn log_type_index_pk(kind: &str) -> String {
    format!("LOG#TYPE#{kind}")
}
pub const LOG_TYPE_CHARGER_ANSWER: &str = "chargerAnswer";

pub fn social_link(provider: &str, subject: &str) -> Key {
    Key::new(format!("SOCIAL#{provider}#{subject}"), "LINK")
}

/// An account's link with a provider (beside its profile and sessions).
pub fn user_social(username: &str, provider: &str) -> Key {
    Key::new(user_pk(username), format!("{USER_SOCIAL_PREFIX}{provider}"))
}

pub const USER_SOCIAL_PREFIX: &str = "SOCIAL#";

/// A pending social-login authorization, by the hash of its `state`.
pub fn oauth_state(state_hash: &str) -> Key {
    Key::new(format!("OAUTHSTATE#{state_hash}"), "STATE")
}

pub fn seed_marker() -> Key {
    Key::new("META", "SEED")
}

/// A sortable time prefix: zero-padded seconds, so strings sort as numbers.
pub fn time_sort(secs: i64) -> String {
    format!("{secs:012}")
}

/// Users are found by e-mail through GSI2.
pub fn user_email_index_pk(email: &str) -> String {
    format!("EMAIL#{}", email.trim().to_lowercase())
}
