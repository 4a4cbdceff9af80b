//! The 云快充 (YKC) charger protocol, versions 1.5 and 1.6
//! (《充电桩与云快充服务平台交互协议》): the binary protocol most chargers
//! sold in China speak over a long-lived TCP connection.
//!
//! This crate is the protocol alone, with no I/O and nothing of the
//! application: [`frame`] (the frame, its CRC, a streaming decoder for a TCP
//! byte stream), [`msg`] (every message as a Rust type with its body's
//! encode and decode), [`wire`] (BCD, little-endian integers, ASCII,
//! CP56Time2a), [`units`] (money and energy as integers) and [`session`] (a
//! pure state machine of one pile's connection: login first, the declared
//! version, the pile's number, sequence numbers, liveness).
//!
//! # What the server side needs (not here)
//! - A TCP listener (a setting of its own port, TLS optional) that feeds each
//!   connection's reads to a [`frame::StreamDecoder`] and its frames to a
//!   [`session::Session`], and writes what the session encodes.
//! - For [`session::Inbound::Login`]: look the pile up by its 14-digit number
//!   (known, enabled, its protocol YKC 1.5 or 1.6), then
//!   [`session::Session::accept_login`] or [`session::Session::refuse_login`]
//!   and close; send a time sync (0x56) after the answer.
//! - Heartbeats (0x03) drive the pile's online state and each gun's health;
//!   real-time data (0x13) drives the connector status and the order's
//!   curve; [`session::Session::is_silent`] says when three heartbeat
//!   periods passed without a frame.
//! - Tariffs: answer 0x05 and 0x09 from the station's tariff in force
//!   (mapping its 尖峰平谷 rates and 48 half-hour slots to a
//!   [`msg::TariffModel`], the model id being the tariff's id and version);
//!   push 0x58 to every YKC pile of the stations using a saved tariff and
//!   record each 0x57.
//! - Sessions: authorise 0x31 against the charging cards and answer 0x32
//!   with the order number; send 0x34/0x36 from the charger panel as
//!   commands (queue, one in flight, time-outs) and match 0x33/0x35; turn
//!   0x3B into the priced order (once per order number: a repeated record
//!   makes no second order), price it with the product's own pricing,
//!   flag any difference from the pile's amounts, and answer 0x40 always.
//! - The message log: every frame in and out with [`msg::frame_type_name`],
//!   the decoded [`msg::Message`] (it serializes with serde) and the raw hex
//!   ([`frame::to_hex`]); skipped bytes with their [`frame::SkipReason`].

pub mod frame;
pub mod msg;
pub mod session;
pub mod units;
pub mod wire;

pub use frame::{Decoded, Frame, SkipReason, StreamDecoder};
pub use msg::{Message, MessageError, Version};
pub use session::{Inbound, Refusal, Session};

#[cfg(test)]
mod proptests;
