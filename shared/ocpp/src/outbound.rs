//! The outbound port (defined beside the back-office's domain, which
//! queues the remote operations that use it).

pub use backoffice::domain::chargers::outbound::{Gone, Outbound};
