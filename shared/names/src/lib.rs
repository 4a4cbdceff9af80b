//! One spelling for every name that is compared: role, user, department,
//! menu key, card number, charge point id.
//!
//! A permission check and the store must see the same value. When the check
//! looks a name up as it was sent (`" Admin"`: no such role, so no power)
//! and the store saves it cleaned (`Admin`), a caller can grant what they do
//! not hold by spelling it differently. So a name is made canonical once,
//! when the request is parsed, and everything after it sees that value:
//!
//! - Unicode NFKC (`Ａｄｍｉｎ` is `Admin`, an ideographic or no-break space
//!   is a space, `ﬁ` is `fi`);
//! - Unicode white space trimmed at both ends (tab and newline included);
//! - refused when what is left holds a character one cannot see or type:
//!   controls (a tab inside the name, ...), format characters (zero-width space and joiners,
//!   the byte-order mark, direction marks), line and paragraph separators,
//!   private-use, surrogate or unassigned code points.
//!
//! Names already stored passed stricter rules when they were made (ASCII
//! role, user and pile names), and canonical form leaves such names as they
//! are, so they keep matching.
//!
//! The newtypes below deserialize through [`canonical`] (or refuse, with a
//! message the back-office's request parser completes with the field's
//! name), so a request struct that carries one cannot hold another spelling.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use icu_normalizer::ComposingNormalizerBorrowed;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};
use icu_properties::CodePointMapData;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Starts a parse error's message that carries a [`Refusal`]
/// ([`Refusal::from_parse_error`] reads it back): the back-office's request
/// parser words it, naming the field after the path (`roles[1]`), so a
/// type's own parser need not know where it sits.
pub const REFUSAL_MARK: char = '\u{1d}';

/// The longest name accepted before canonical form is taken (NFKC may make
/// a text longer; every name of the product is far shorter).
pub const MAX_RAW_CHARS: usize = 256;

/// Why a name was refused (worded by whoever reports it, after the
/// field's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Longer than [`MAX_RAW_CHARS`].
    TooLong { max: usize },
    /// It holds a character one cannot see or type.
    Unseen { kind: Unseen, ch: char },
}

/// The kinds of character a name cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unseen {
    /// A control character, or a line or paragraph separator.
    Control,
    /// A zero-width or other format character.
    Format,
    /// Private-use, surrogate or unassigned.
    Other,
}

impl Unseen {
    fn name(self) -> &'static str {
        match self {
            Unseen::Control => "control",
            Unseen::Format => "format",
            Unseen::Other => "other",
        }
    }
}

impl Refusal {
    /// The refused character as `U+200B`.
    pub fn code_point(ch: char) -> String {
        format!("U+{:04X}", ch as u32)
    }

    /// The refusal as a serde error message (see [`REFUSAL_MARK`]).
    fn to_parse_error(self) -> String {
        match self {
            Refusal::TooLong { max } => format!("{REFUSAL_MARK}tooLong:{max}"),
            Refusal::Unseen { kind, ch } => format!("{REFUSAL_MARK}unseen:{}:{}", kind.name(), ch as u32),
        }
    }

    /// The refusal a name type's parse error carries, if `message` is one.
    pub fn from_parse_error(message: &str) -> Option<Refusal> {
        let rest = message.strip_prefix(REFUSAL_MARK)?;
        let mut parts = rest.split(':');
        match (parts.next()?, parts.next(), parts.next()) {
            ("tooLong", Some(max), None) => Some(Refusal::TooLong { max: max.parse().ok()? }),
            ("unseen", Some(kind), Some(ch)) => {
                let kind = [Unseen::Control, Unseen::Format, Unseen::Other].into_iter().find(|k| k.name() == kind)?;
                Some(Refusal::Unseen { kind, ch: char::from_u32(ch.parse().ok()?)? })
            }
            _ => None,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::TooLong { max } => write!(f, "is too long (at most {max} characters)"),
            Refusal::Unseen { kind, ch } => write!(f, "contains a {} character ({})", kind.name(), Refusal::code_point(*ch)),
        }
    }
}

impl std::error::Error for Refusal {}

/// Whether `c` may appear in a name: not a control, format, separator
/// (other than the space), private-use, surrogate or unassigned character.
pub fn is_allowed(c: char) -> bool {
    let category = CodePointMapData::<GeneralCategory>::new().get(c);
    let refused = GeneralCategoryGroup::Other.contains(category)
        || category == GeneralCategory::LineSeparator
        || category == GeneralCategory::ParagraphSeparator;
    !refused
}

fn kind_of(c: char) -> Unseen {
    let category = CodePointMapData::<GeneralCategory>::new().get(c);
    match category {
        GeneralCategory::Control | GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => Unseen::Control,
        GeneralCategory::Format => Unseen::Format,
        _ => Unseen::Other,
    }
}

/// The canonical form of a name: NFKC, trimmed of Unicode white space;
/// refused when what is left holds an invisible or control character, or
/// the name is longer than [`MAX_RAW_CHARS`].
pub fn canonical(raw: &str) -> Result<String, Refusal> {
    if raw.chars().count() > MAX_RAW_CHARS {
        return Err(Refusal::TooLong { max: MAX_RAW_CHARS });
    }
    let normal = ComposingNormalizerBorrowed::new_nfkc().normalize(raw);
    let normal = normal.trim();
    if let Some(bad) = normal.chars().find(|c| !is_allowed(*c)) {
        return Err(Refusal::Unseen { kind: kind_of(bad), ch: bad });
    }
    Ok(normal.to_string())
}

/// A serde error for a refused name, in the request parser's format.
fn refusal<E: serde::de::Error>(r: Refusal) -> E {
    E::custom(r.to_parse_error())
}

macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(String);

        impl $name {
            /// The canonical form of `raw`, or why it was refused.
            pub fn parse(raw: &str) -> Result<Self, Refusal> {
                canonical(raw).map(Self)
            }
            pub fn as_str(&self) -> &str {
                &self.0
            }
            pub fn into_string(self) -> String {
                self.0
            }
            /// Whether the canonical name is empty (it was blank).
            pub fn is_empty(&self) -> bool {
                self.0.is_empty()
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl From<$name> for String {
            fn from(n: $name) -> String {
                n.0
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let raw = String::deserialize(d)?;
                Self::parse(&raw).map_err(refusal)
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                String::schema_name()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let mut schema = String::json_schema(generator);
                schema.insert(
                    "description".into(),
                    concat!($what, ", in canonical form: NFKC, trimmed; invisible and control characters are refused").into(),
                );
                schema
            }
        }
    };
}

name_type!(
    /// A role's name (case-sensitive: `admin` is not `Admin`).
    RoleName,
    "A role's name"
);
name_type!(
    /// A staff account's name (matched without regard to letter case).
    UserName,
    "A staff account's name"
);
name_type!(
    /// A permission's name (`write:system`).
    PermissionName,
    "A permission's name"
);
name_type!(
    /// A department's id, or one of its names.
    DepartmentName,
    "A department's id or name"
);
name_type!(
    /// A menu entry's key (its unique `name`).
    MenuKey,
    "A menu entry's key"
);
name_type!(
    /// A charging card's number (an OCPP idTag; matched without regard to letter case).
    CardNumber,
    "A charging card's number"
);
name_type!(
    /// A charge point's id: the pile's code, which the charger names in its
    /// OCPP address (matched without regard to letter case).
    ChargePointId,
    "A charge point id (the pile's code)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_admin_is_admin_or_refused() {
        for same in [" Admin", "Admin ", "\tAdmin", "Admin\n", "Admin\u{3000}", "\u{3000}Admin", "Admin\u{a0}", "Ａｄｍｉｎ", "\u{2002}Ａdmin\u{2003}"] {
            assert_eq!(canonical(same).unwrap(), "Admin", "{same:?}");
        }
        for refused in ["Ad\tmin", "Ad\nmin", "Ad\u{200b}min", "Admin\u{200b}", "\u{feff}Admin", "Ad\u{200d}min", "Ad\u{2060}min", "\u{202e}nimdA", "Ad\u{2028}min", "Ad\u{e000}min", "Ad\u{0}min"] {
            let err = canonical(refused).unwrap_err();
            assert!(err.to_string().contains("U+"), "{refused:?}: {err}");
            assert_eq!(Refusal::from_parse_error(&err.to_parse_error()), Some(err), "what a parse error carries comes back");
        }
        assert_eq!(canonical("Ad\tmin").unwrap_err(), Refusal::Unseen { kind: Unseen::Control, ch: '\t' });
        assert_eq!(canonical("Ad\u{200b}min").unwrap_err(), Refusal::Unseen { kind: Unseen::Format, ch: '\u{200b}' });
        assert_eq!(Refusal::from_parse_error("invalid type: integer"), None);
    }

    #[test]
    fn stored_names_are_already_canonical() {
        for stored in ["Admin", "Editor", "Test", "admin", "ops.lead-01@site", "read:system", "CP-0001_A", "04A2B3C4D5", "研发部", "Sales Team", ""] {
            assert_eq!(canonical(stored).unwrap(), stored);
        }
    }

    #[test]
    fn other_letters_stay_other_letters() {
        // Cyrillic А is not Latin A: NFKC keeps it, and the role, user and
        // pile rules (ASCII) refuse it where it matters.
        assert_eq!(canonical("\u{410}dmin").unwrap(), "\u{410}dmin");
        assert_ne!(canonical("\u{410}dmin").unwrap(), "Admin");
        assert_eq!(canonical("ﬁle").unwrap(), "file");
        assert_eq!(canonical("e\u{301}").unwrap(), "\u{e9}");
    }

    #[test]
    fn long_names_are_refused_before_normalising() {
        assert!(canonical(&"a".repeat(MAX_RAW_CHARS)).is_ok());
        assert_eq!(canonical(&"a".repeat(MAX_RAW_CHARS + 1)).unwrap_err(), Refusal::TooLong { max: MAX_RAW_CHARS });
    }

    #[test]
    fn the_types_deserialize_canonical_or_refuse() {
        let roles: Vec<RoleName> = serde_json::from_str(r#"[" Admin", "Ｅｄｉｔｏｒ"]"#).unwrap();
        assert_eq!(roles, [RoleName::parse("Admin").unwrap(), RoleName::parse("Editor").unwrap()]);
        assert_eq!(roles[0], "Admin");
        let err = serde_json::from_str::<RoleName>("\"Ad\\u200bmin\"").unwrap_err().to_string();
        // serde_json adds where in the text it stopped, after the message.
        let carried = err.split(" at line ").next().unwrap();
        assert_eq!(Refusal::from_parse_error(carried), Some(Refusal::Unseen { kind: Unseen::Format, ch: '\u{200b}' }), "{err:?}");
        assert_eq!(serde_json::to_string(&CardNumber::parse(" ab12 ").unwrap()).unwrap(), "\"ab12\"");
    }
}
