//! The pure business core of the charging product.
//!
//! No I/O, no store, no HTTP: handlers load records, call these functions and
//! persist what they return. Keeping the rules here means the Lambdas, the
//! seed command and the tests all agree on one definition of "price", "stuck",
//! "refundable" and "online".
//!
//! JSON: every type (de)serialises with camelCase field names. Money is always
//! an integer (see [`money`]); never a float.
//!
//! Modules:
//! - [`money`]: [`Fen`] and [`PricePerKwh`], exact integer money.
//! - [`tariff`]: time-of-use tariff templates (48 half-hour slots), validation,
//!   the UI "segments" form.
//! - [`pricing`]: splits a session's meter readings across tiers and prices it.
//! - [`orders`]: the order record, order / payment status, stop reasons, anomaly ("stuck")
//!   detection, refunds, manual close, the meter curve.
//! - [`hours`]: a station's opening hours (several periods, past midnight).
//! - [`connector`]: the connector record, status, standards, online rule,
//!   operator actions.
//! - [`region`]: the China province / city / district tree (real codes).
//! - [`station`]: the station record and its status.
//! - [`pile`]: the pile record and its boot registration status.
//! - [`demo`]: deterministic demo data (stations, piles, connectors, tariffs,
//!   lazily generated orders), made of the records above.

pub mod connector;
pub mod demo;
pub mod hours;
pub mod money;
pub mod orders;
pub mod pile;
pub mod pricing;
pub mod problem;
pub mod region;
pub mod station;
pub mod tariff;
pub mod civil;

pub use money::{Fen, PricePerKwh};
pub use problem::Problem;
