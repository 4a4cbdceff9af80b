//! What the libraries' and the domain's values say, in the catalogue's
//! words: the one place a refusal, a rule broken or a status becomes a
//! message (`envelope::msg`) and, for errors, an HTTP status. The domain
//! and the libraries below it know nothing of either.

pub mod auth;
pub mod charging;
pub mod names;
pub mod orders;
pub mod permission;
pub mod routes;
