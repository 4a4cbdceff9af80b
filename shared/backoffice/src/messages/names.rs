//! A refused name (`names::Refusal`), in words that follow the field's name.

use envelope::{msg, Text};
use names::{Refusal, Unseen};

/// "is too long (at most 256 characters)", "contains an invisible ... (U+200B); ...".
pub fn refusal(r: &Refusal) -> Text {
    match *r {
        Refusal::TooLong { max } => msg::request::too_long(max),
        Refusal::Unseen { kind, ch } => {
            let what = match kind {
                Unseen::Control => msg::names::kind::control(),
                Unseen::Format => msg::names::kind::format(),
                Unseen::Other => msg::names::kind::other(),
            };
            msg::names::unseen(Refusal::code_point(ch), what)
        }
    }
}
