//! Piles and connectors: status (OCPP 1.6-like), standards, the online rule,
//! and the one status an operator sets by hand (out of service for
//! maintenance, and back).
//!
//! Everything else done to a connector (remote start and stop, unlock,
//! reset) is a remote operation sent to the charger (the back-office's
//! command routes); its status then changes when the charger reports it.

use serde::{Deserialize, Serialize};

/// JSON: camelCase names, e.g. "available", "faulted".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ConnectorStatus {
    Available,
    /// Plugged in / authorising, not yet delivering energy.
    Preparing,
    Charging,
    /// Session open but energy paused (by the EV or the charger).
    Suspended,
    /// Session ended, cable still plugged.
    Finishing,
    Reserved,
    /// Disabled by the operator (out of service).
    Unavailable,
    Faulted,
    /// Not an OCPP status: the pile is silent (see [`is_online`]).
    Offline,
}

impl ConnectorStatus {
    pub const ALL: [ConnectorStatus; 9] = [
        ConnectorStatus::Available,
        ConnectorStatus::Preparing,
        ConnectorStatus::Charging,
        ConnectorStatus::Suspended,
        ConnectorStatus::Finishing,
        ConnectorStatus::Reserved,
        ConnectorStatus::Unavailable,
        ConnectorStatus::Faulted,
        ConnectorStatus::Offline,
    ];

    /// A session is open on the connector.
    pub fn in_session(self) -> bool {
        matches!(self, ConnectorStatus::Charging | ConnectorStatus::Suspended)
    }
}

/// Connector standard. JSON: "gbt2015" | "ccs2" | "chademo" | "type2".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConnectorStandard {
    /// GB/T 20234-2015, the Chinese national standard (AC and DC).
    Gbt2015,
    Ccs2,
    Chademo,
    /// IEC 62196 Type 2 (AC).
    Type2,
}

impl ConnectorStandard {
    pub fn label(self) -> &'static str {
        match self {
            ConnectorStandard::Gbt2015 => "GB/T 2015",
            ConnectorStandard::Ccs2 => "CCS2",
            ConnectorStandard::Chademo => "CHAdeMO",
            ConnectorStandard::Type2 => "Type 2",
        }
    }
}

/// JSON: "ac" | "dc".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PileType {
    Ac,
    Dc,
}

/// A pile is online when its last heartbeat is within `window_secs` of `now`
/// (e.g. 3 x the heartbeat interval). No heartbeat ever -> offline. A
/// heartbeat more than a window in the future (clock skew, bad data) is not
/// trusted either, so a pile is never shown online long after it went silent.
pub fn is_online(last_heartbeat: Option<i64>, now: i64, window_secs: i64) -> bool {
    match last_heartbeat {
        Some(hb) => now - hb <= window_secs && hb - now <= window_secs,
        None => false,
    }
}

/// The status to show: the stored status, or offline when the pile is silent.
pub fn effective_status(stored: ConnectorStatus, pile_online: bool) -> ConnectorStatus {
    if pile_online {
        stored
    } else {
        ConnectorStatus::Offline
    }
}

/// The status an operator sets by hand (recorded in the system log and
/// the connector's history by the caller, who also tells a connected
/// charger with ChangeAvailability). JSON: "enable" | "disable".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum OperatorAction {
    /// Back in service (ChangeAvailability Operative).
    Enable,
    /// Out of service, e.g. for maintenance (ChangeAvailability Inoperative).
    Disable,
}

impl OperatorAction {
    pub const ALL: [OperatorAction; 2] = [OperatorAction::Enable, OperatorAction::Disable];

    /// The OCPP 1.6 availability type a connected charger is sent.
    pub fn availability(self) -> &'static str {
        match self {
            OperatorAction::Enable => "Operative",
            OperatorAction::Disable => "Inoperative",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("{action:?} is not allowed while the connector is {status:?}")]
    NotAllowed { action: OperatorAction, status: ConnectorStatus },
}

impl ActionError {
    /// The field of the request the error is about.
    pub fn field(&self) -> &'static str {
        "action"
    }
}

/// The stored status after `action`, or why it is refused.
///
/// | action  | allowed from                                     | result |
/// |---------|--------------------------------------------------|--------|
/// | enable  | unavailable                                      | available |
/// | disable | available, preparing, reserved, faulted, offline | unavailable (never mid-session: stop it first) |
///
/// Both are bookkeeping and work on a silent pile too (take it out of
/// service while it is unreachable).
pub fn apply_action(stored: ConnectorStatus, action: OperatorAction) -> Result<ConnectorStatus, ActionError> {
    use ConnectorStatus as S;
    use OperatorAction as A;
    let next = match (action, stored) {
        (A::Enable, S::Unavailable) => Some(S::Available),
        (A::Disable, S::Available | S::Preparing | S::Reserved | S::Faulted | S::Offline) => Some(S::Unavailable),
        _ => None,
    };
    next.ok_or(ActionError::NotAllowed { action, status: stored })
}

/// The hand-set statuses the UI should offer for a connector.
pub fn allowed_actions(stored: ConnectorStatus) -> Vec<OperatorAction> {
    OperatorAction::ALL.into_iter().filter(|&a| apply_action(stored, a).is_ok()).collect()
}

/// A connector as stored and as sent by its edits and actions (the demo
/// data is made of these too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Connector {
    pub id: String,
    pub pile_id: String,
    pub pile_code: String,
    pub station_id: String,
    pub number: u32,
    pub pile_type: PileType,
    pub standard: ConnectorStandard,
    pub max_power_kw: u32,
    pub qr_code: String,
    /// The last reported (or operator-set) status; what a page shows also
    /// depends on whether the pile is online (`effectiveStatus`).
    pub status: ConnectorStatus,
    pub fault_code: Option<String>,
    pub status_since: i64,
    /// The charger's timestamp of the status it last reported (an older
    /// report never overwrites a newer one); null when set by an operator.
    #[serde(default)]
    pub reported_at: Option<i64>,
    pub updated_at: i64,
    pub version: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ConnectorStatus as S;
    use OperatorAction as A;

    #[test]
    fn online_window() {
        assert!(is_online(Some(1000), 1000, 90));
        assert!(is_online(Some(1000), 1090, 90));
        assert!(!is_online(Some(1000), 1091, 90));
        assert!(!is_online(None, 1000, 90));
        assert!(is_online(Some(1050), 1000, 90)); // small skew tolerated
        assert!(!is_online(Some(10_000), 1000, 90)); // far future: untrusted
        assert_eq!(effective_status(S::Charging, false), S::Offline);
        assert_eq!(effective_status(S::Charging, true), S::Charging);
    }

    #[test]
    fn transitions() {
        assert_eq!(apply_action(S::Unavailable, A::Enable), Ok(S::Available));
        assert_eq!(apply_action(S::Available, A::Disable), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Faulted, A::Disable), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Offline, A::Disable), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Charging, A::Disable), Err(ActionError::NotAllowed { action: A::Disable, status: S::Charging }));
        assert!(apply_action(S::Available, A::Enable).is_err());
    }

    #[test]
    fn allowed_actions_table() {
        assert_eq!(allowed_actions(S::Available), [A::Disable]);
        assert_eq!(allowed_actions(S::Charging), Vec::<OperatorAction>::new());
        assert_eq!(allowed_actions(S::Unavailable), [A::Enable]);
        for s in ConnectorStatus::ALL {
            for a in OperatorAction::ALL {
                if let Ok(next) = apply_action(s, a) {
                    assert_ne!(next, S::Offline, "{s:?} {a:?}");
                }
            }
        }
        assert_eq!(A::Disable.availability(), "Inoperative");
    }

    #[test]
    fn json_names() {
        assert_eq!(serde_json::to_string(&A::Disable).unwrap(), "\"disable\"");
        assert_eq!(serde_json::to_string(&ConnectorStandard::Gbt2015).unwrap(), "\"gbt2015\"");
        assert_eq!(serde_json::to_string(&PileType::Dc).unwrap(), "\"dc\"");
        assert_eq!(serde_json::to_string(&S::Unavailable).unwrap(), "\"unavailable\"");
        assert_eq!(ConnectorStandard::Chademo.label(), "CHAdeMO");
    }
}

