//! Charging assets: stations, piles, connectors and tariff templates, and
//! the demo seed for them. The rules themselves (tariff validation, region
//! codes, connector transitions, the online window) live in the `charging`
//! crate; this module stores them.
//!
//! Key layout (the shared table; see also `domain::keys`):
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | station | `STATION#{id}` | `STATION` | facet list `station` (status x region), sort = normalised name |
//! | station code (unique) | `STATIONCODE#{code}` | `UNIQUE` | |
//! | tariff, current | `TARIFF#{id}` | `CURRENT` | GSI1 `TARIFFS` / name#id |
//! | tariff, version n | `TARIFF#{id}` | `V#{n:06}` | (partition query, newest first) |
//! | pile | `PILE#{id}` | `PILE` | GSI1 `STATION#{sid}#PILES` / `{code}` |
//! | connector | `PILE#{pileId}` | `CONN#{n:02}` | GSI1 `STATION#{sid}#PILES` / `{code}#C{n:02}`; facet list `connector` (station x status x type) |
//! | pile code (unique) | `PILECODE#{code}` | `UNIQUE` | |
//! | connector status history | `CONNHIST#{connectorId}` | `{time:012}#{id}` | (partition query, newest first) |
//! | list entry / counter | `LIST#{list}#{partition}` / `COUNT#{list}#{partition}` | see [`facets`] | |
//! | station name word entry (each suffix of the name) | `LIST#station#~words` | `{suffix}#STATION#{id}#STATION` | see [`words`] |

pub mod facets;
pub mod piles;
pub mod seed;
pub mod demo_chargers;
pub mod stations;
pub mod tariffs;
pub mod words;

use envelope::{msg, ApiError, Text};
use store::StoreError;

use crate::request::{invalid_fields, FieldProblem};

/// A 400 listing every problem in its message, and in `data.fields`
/// each problem's field with its own words, so a form can mark the field at
/// fault (`data.field` is the first one).
pub fn invalid(problems: &[FieldProblem]) -> ApiError {
    invalid_fields(problems)
}

/// `Ok` when no problems were found.
pub fn check(problems: Vec<FieldProblem>) -> Result<(), ApiError> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(invalid(&problems))
    }
}

/// Maps a failed transaction: a failed uniqueness op (at `unique_at`) is a
/// 400 naming the taken value; anything else is the usual 409 / 503.
pub fn tx_error(err: StoreError, unique_at: Option<usize>, taken: FieldProblem) -> ApiError {
    match (&err, unique_at) {
        // A 400 on the unique field, like any other problem with it.
        (StoreError::TransactionCanceled { failed }, Some(i)) if failed.contains(&i) => invalid(&[taken]),
        _ => crate::domain::store_error(err),
    }
}

/// The 404 of a record that does not exist (or was deleted meanwhile):
/// `what` names the kind of record ([`msg::assets::what`]).
pub fn not_found(what: Text, id: &str) -> ApiError {
    ApiError::not_found(msg::assets::not_found(id, what))
}

/// A field that is too long / empty, as a problem; `label` names it.
pub fn text_problem(field: &str, label: Text, value: &str, required: bool, max: usize, out: &mut Vec<FieldProblem>) {
    let n = value.trim().chars().count();
    if required && n == 0 {
        out.push(FieldProblem::new(field, msg::common::label_required(label)));
    } else if n > max {
        out.push(FieldProblem::new(field, msg::common::label_too_long(label, max)));
    }
}
