//! OCPP 2.0.1: the message types only ([`messages`], generated from the
//! schemas), where the 2.0.1 handlers will start from: a `Csms` trait
//! beside `v16::CentralSystem` over the same `link::Link`, and a dispatch
//! like `v16::handle` (2.0.1 spells two error codes apart:
//! `frame::ErrorCode::spelled`). Not negotiated until then
//! (`negotiate::SUPPORTED`).

pub mod messages;

pub use messages::*;
