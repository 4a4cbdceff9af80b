//! A rule a submitted record breaks, at the field it concerns.
//!
//! Validators return *all* problems at once (not the first) so a form can
//! highlight every bad field in one round trip; `field` is a JSON-path-like
//! pointer into the submitted document (e.g. `prices.peak.service`,
//! `segments[2].end`) so the UI can attach the message to the right input.
//! What is wrong is the validator's own enum (`kind`), in the domain's
//! terms; the back-office words it for the reader.

/// One problem of kind `K` at `field`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem<K> {
    /// Where the problem is, e.g. `name`, `slots[47]`, `segments[1].start`.
    pub field: String,
    /// What is wrong.
    pub kind: K,
}

impl<K> Problem<K> {
    pub fn new(field: impl Into<String>, kind: K) -> Self {
        Self { field: field.into(), kind }
    }
}

impl<K: std::fmt::Display> std::fmt::Display for Problem<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.kind)
    }
}
