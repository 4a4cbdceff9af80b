//! The OCPP 1.6 actions of the charger link, from the protocol's own
//! types (`ocpp::v16::Action`, generated from the schemas): what a charger
//! may send that this server answers (the application's
//! `CentralSystem::ANSWERED`), what the server may send (every action the
//! protocol does not reserve to chargers), and what the message log can
//! hold (its filter; the remote operations say which calls they send,
//! `handlers::commands::OPERATIONS`).

use ocpp::v16::{Action, CentralSystem};
use ocpp::Sender;

use crate::ctx::AppCtx;

/// Actions a charger may send that this server answers.
pub fn answered() -> &'static [Action] {
    <AppCtx as CentralSystem>::ANSWERED
}

/// Whether the server may send `action` to a charger (DataTransfer goes
/// both ways).
pub fn sent_by_server(action: Action) -> bool {
    action.sender() != Sender::Charger
}

/// Every action the message log can hold (what chargers send that is
/// answered, and `sent`: what the server's operations send), sorted by
/// name, once each.
pub fn logged(sent: impl IntoIterator<Item = Action>) -> Vec<&'static str> {
    let mut all: Vec<&'static str> = answered().iter().copied().chain(sent).map(Action::name).collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// [`logged`] for a charger that speaks OCPP 2.0.1: what 2.0.1 stations
/// send that is answered, and `sent`.
pub fn logged_v201(sent: impl IntoIterator<Item = ocpp::v201::Action>) -> Vec<&'static str> {
    let answered = <AppCtx as ocpp::v201::Csms>::ANSWERED.iter().copied();
    let mut all: Vec<&'static str> = answered.chain(sent).map(ocpp::v201::Action::name).collect();
    all.sort_unstable();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_lists_what_both_sides_send_once() {
        let all = logged([Action::ReserveNow, Action::DataTransfer, Action::Reset]);
        assert_eq!(all, vec!["Authorize", "BootNotification", "DataTransfer", "DiagnosticsStatusNotification", "FirmwareStatusNotification", "Heartbeat", "LogStatusNotification", "MeterValues", "ReserveNow", "Reset", "SecurityEventNotification", "SignCertificate", "SignedFirmwareStatusNotification", "StartTransaction", "StatusNotification", "StopTransaction"]);
        assert!(sent_by_server(Action::DataTransfer) && sent_by_server(Action::Reset) && !sent_by_server(Action::Heartbeat));
        assert!(answered().iter().all(|a| a.sender() != Sender::Server), "only what chargers send is answered");
        let v201 = logged_v201([ocpp::v201::Action::GetVariables]);
        assert!(v201.contains(&"TransactionEvent") && v201.contains(&"GetVariables") && !v201.contains(&"StartTransaction"), "{v201:?}");
    }
}
