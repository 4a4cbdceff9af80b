//! The local gateway as a library, so tests can mount the same app
//! in-process; `main.rs` is the command-line shell around it.

pub mod backup_cli;
pub mod chargers;
pub mod instances;
pub mod licence;
pub mod ops;
pub mod server;
pub mod simulate;
pub mod simulate_cli;
pub mod static_files;
pub mod tls;
pub mod ykc;
