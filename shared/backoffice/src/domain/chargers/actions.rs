//! The OCPP 1.6 actions of the charger link, listed once: what a charger
//! may send that this server answers, and what the server sends. The
//! protocol handlers (`ocpp::v16`), the remote operations
//! ([`super::commands::submit`] refuses any other) and the message log's
//! filter (its first page carries [`logged`]) read these lists.

/// Actions a charger may send in 1.6 that this server answers.
pub const CHARGER_ACTIONS: &[&str] = &[
    "Authorize",
    "BootNotification",
    "DataTransfer",
    "DiagnosticsStatusNotification",
    "FirmwareStatusNotification",
    "Heartbeat",
    "MeterValues",
    "StartTransaction",
    "StatusNotification",
    "StopTransaction",
];

/// Actions only the server sends in 1.6 (a charger sending one is wrong).
pub const SERVER_ACTIONS: &[&str] = &[
    "CancelReservation",
    "ChangeAvailability",
    "ChangeConfiguration",
    "ClearCache",
    "ClearChargingProfile",
    "GetCompositeSchedule",
    "GetConfiguration",
    "GetDiagnostics",
    "GetLocalListVersion",
    "RemoteStartTransaction",
    "RemoteStopTransaction",
    "ReserveNow",
    "Reset",
    "SendLocalList",
    "SetChargingProfile",
    "TriggerMessage",
    "UnlockConnector",
    "UpdateFirmware",
];

/// Whether the server may send `action` to a charger (DataTransfer goes
/// both ways).
pub fn sent_by_server(action: &str) -> bool {
    SERVER_ACTIONS.contains(&action) || action == "DataTransfer"
}

/// Every action the message log can hold, sorted by name, once each.
pub fn logged() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = CHARGER_ACTIONS.iter().chain(SERVER_ACTIONS).copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_lists_what_both_sides_send_once() {
        let all = logged();
        for a in ["ReserveNow", "CancelReservation", "SendLocalList", "SetChargingProfile", "GetCompositeSchedule", "UpdateFirmware", "GetDiagnostics", "BootNotification", "DataTransfer"] {
            assert!(all.contains(&a), "{a}");
        }
        assert_eq!(all.len(), CHARGER_ACTIONS.len() + SERVER_ACTIONS.len(), "no action is on both lists");
        assert!(sent_by_server("DataTransfer") && sent_by_server("Reset") && !sent_by_server("Heartbeat"));
    }
}
