//! A bilingual validation message, shared by every validator in the crate.
//!
//! Validators return *all* problems at once (not the first) so a form can
//! highlight every bad field in one round trip; `field` is a JSON-path-like
//! pointer into the submitted document (e.g. `prices.peak.service`,
//! `segments[2].end`) so the UI can attach the message to the right input.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// Where the problem is, e.g. `name`, `slots[47]`, `segments[1].start`.
    pub field: String,
    /// English message.
    pub en: String,
    /// Chinese message.
    pub zh: String,
}

impl Problem {
    pub fn new(field: impl Into<String>, en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self { field: field.into(), en: en.into(), zh: zh.into() }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} / {}", self.field, self.en, self.zh)
    }
}
