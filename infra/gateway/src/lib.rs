//! The local gateway as a library, so tests can mount the same app
//! in-process; `main.rs` is the command-line shell around it.

pub mod chargers;
pub mod server;
pub mod simulate;
pub mod simulate_cli;
