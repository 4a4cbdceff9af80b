//! Piles and connectors: status (OCPP 1.6-like), standards, the online rule,
//! and what operator actions do to the stored state.
//!
//! There is no charger link yet, so an action changes the *stored* status
//! only, exactly as the transition table in [`apply_action`] says; when a
//! charger protocol arrives the same table says which commands to send.

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

    pub fn zh(self) -> &'static str {
        match self {
            ConnectorStatus::Available => "空闲",
            ConnectorStatus::Preparing => "准备中",
            ConnectorStatus::Charging => "充电中",
            ConnectorStatus::Suspended => "暂停",
            ConnectorStatus::Finishing => "充电结束",
            ConnectorStatus::Reserved => "已预约",
            ConnectorStatus::Unavailable => "停用",
            ConnectorStatus::Faulted => "故障",
            ConnectorStatus::Offline => "离线",
        }
    }

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

impl PileType {
    pub fn zh(self) -> &'static str {
        match self {
            PileType::Ac => "交流桩",
            PileType::Dc => "直流桩",
        }
    }
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

/// Operator actions on a connector (recorded in the system log by the caller).
/// JSON: "enable" | "disable" | "reset" | "unlock" | "remoteStart" | "remoteStop".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum OperatorAction {
    Enable,
    Disable,
    Reset,
    Unlock,
    RemoteStart,
    RemoteStop,
}

impl OperatorAction {
    pub const ALL: [OperatorAction; 6] = [
        OperatorAction::Enable,
        OperatorAction::Disable,
        OperatorAction::Reset,
        OperatorAction::Unlock,
        OperatorAction::RemoteStart,
        OperatorAction::RemoteStop,
    ];

    pub fn zh(self) -> &'static str {
        match self {
            OperatorAction::Enable => "启用",
            OperatorAction::Disable => "停用",
            OperatorAction::Reset => "重启",
            OperatorAction::Unlock => "解锁",
            OperatorAction::RemoteStart => "远程启动",
            OperatorAction::RemoteStop => "远程停止",
        }
    }

    /// Whether the action needs the pile to be reachable. Enable/disable are
    /// bookkeeping (take a silent pile out of service); the rest are commands.
    pub fn needs_online(self) -> bool {
        !matches!(self, OperatorAction::Enable | OperatorAction::Disable)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("{action:?} needs the pile to be online")]
    Offline { action: OperatorAction },
    #[error("{action:?} is not allowed while the connector is {status:?}")]
    NotAllowed { action: OperatorAction, status: ConnectorStatus },
}

impl ActionError {
    pub fn problem(&self) -> crate::Problem {
        let zh = match self {
            ActionError::Offline { action } => format!("充电桩离线，无法{}", action.zh()),
            ActionError::NotAllowed { action, status } => format!("充电枪当前为“{}”，不能{}", status.zh(), action.zh()),
        };
        crate::Problem::new("action", self.to_string(), zh)
    }
}

/// The stored status after `action`, or why it is refused.
///
/// | action      | allowed from                                   | result |
/// |-------------|------------------------------------------------|--------|
/// | enable      | unavailable                                    | available |
/// | disable     | available, preparing, reserved, faulted, offline | unavailable (never mid-session: stop first) |
/// | reset       | any but offline                                | unavailable stays unavailable; else available (a reboot ends sessions and clears transient faults) |
/// | unlock      | available, preparing, finishing, faulted, unavailable | preparing/finishing -> available; others unchanged (never mid-session) |
/// | remoteStart | available, preparing                           | available -> preparing (waits for the plug), preparing -> charging |
/// | remoteStop  | charging, suspended                            | finishing |
///
/// `pile_online` is [`is_online`] of the pile; commands other than
/// enable/disable are refused while it is offline. A stored `offline` status
/// is treated as offline too.
pub fn apply_action(stored: ConnectorStatus, pile_online: bool, action: OperatorAction) -> Result<ConnectorStatus, ActionError> {
    use ConnectorStatus as S;
    use OperatorAction as A;
    let online = pile_online && stored != S::Offline;
    if action.needs_online() && !online {
        return Err(ActionError::Offline { action });
    }
    let next = match (action, stored) {
        (A::Enable, S::Unavailable) => Some(S::Available),
        (A::Disable, S::Available | S::Preparing | S::Reserved | S::Faulted | S::Offline) => Some(S::Unavailable),
        (A::Reset, S::Unavailable) => Some(S::Unavailable),
        (A::Reset, _) => Some(S::Available),
        (A::Unlock, S::Preparing | S::Finishing) => Some(S::Available),
        (A::Unlock, S::Available | S::Faulted | S::Unavailable) => Some(stored),
        (A::RemoteStart, S::Available) => Some(S::Preparing),
        (A::RemoteStart, S::Preparing) => Some(S::Charging),
        (A::RemoteStop, S::Charging | S::Suspended) => Some(S::Finishing),
        _ => None,
    };
    next.ok_or(ActionError::NotAllowed { action, status: stored })
}

/// Actions the UI should offer for a connector (buttons enabled).
pub fn allowed_actions(stored: ConnectorStatus, pile_online: bool) -> Vec<OperatorAction> {
    OperatorAction::ALL.into_iter().filter(|&a| apply_action(stored, pile_online, a).is_ok()).collect()
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
        assert_eq!(apply_action(S::Unavailable, true, A::Enable), Ok(S::Available));
        assert_eq!(apply_action(S::Available, true, A::Disable), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Faulted, false, A::Disable), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Offline, true, A::Disable), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Charging, true, A::Disable), Err(ActionError::NotAllowed { action: A::Disable, status: S::Charging }));
        assert_eq!(apply_action(S::Faulted, true, A::Reset), Ok(S::Available));
        assert_eq!(apply_action(S::Unavailable, true, A::Reset), Ok(S::Unavailable));
        assert_eq!(apply_action(S::Finishing, true, A::Unlock), Ok(S::Available));
        assert_eq!(apply_action(S::Faulted, true, A::Unlock), Ok(S::Faulted));
        assert!(apply_action(S::Charging, true, A::Unlock).is_err());
        assert_eq!(apply_action(S::Available, true, A::RemoteStart), Ok(S::Preparing));
        assert_eq!(apply_action(S::Preparing, true, A::RemoteStart), Ok(S::Charging));
        assert!(apply_action(S::Reserved, true, A::RemoteStart).is_err());
        assert_eq!(apply_action(S::Suspended, true, A::RemoteStop), Ok(S::Finishing));
        assert!(apply_action(S::Available, true, A::RemoteStop).is_err());
        assert_eq!(apply_action(S::Charging, false, A::RemoteStop), Err(ActionError::Offline { action: A::RemoteStop }));
        assert_eq!(apply_action(S::Offline, true, A::Reset), Err(ActionError::Offline { action: A::Reset }));
        assert!(apply_action(S::Available, true, A::Enable).is_err());
    }

    #[test]
    fn allowed_actions_table() {
        assert_eq!(allowed_actions(S::Available, true), [A::Disable, A::Reset, A::Unlock, A::RemoteStart]);
        assert_eq!(allowed_actions(S::Charging, true), [A::Reset, A::RemoteStop]);
        assert_eq!(allowed_actions(S::Unavailable, true), [A::Enable, A::Reset, A::Unlock]);
        assert_eq!(allowed_actions(S::Charging, false), Vec::<OperatorAction>::new());
        assert_eq!(allowed_actions(S::Unavailable, false), [A::Enable]);
        // Every status has a consistent answer and results are never "offline".
        for s in ConnectorStatus::ALL {
            for a in OperatorAction::ALL {
                if let Ok(next) = apply_action(s, true, a) {
                    assert_ne!(next, S::Offline, "{s:?} {a:?}");
                }
            }
        }
        assert!(ActionError::NotAllowed { action: A::Unlock, status: S::Charging }.problem().zh.contains("充电中"));
    }

    #[test]
    fn json_names() {
        assert_eq!(serde_json::to_string(&A::RemoteStart).unwrap(), "\"remoteStart\"");
        assert_eq!(serde_json::to_string(&ConnectorStandard::Gbt2015).unwrap(), "\"gbt2015\"");
        assert_eq!(serde_json::to_string(&PileType::Dc).unwrap(), "\"dc\"");
        assert_eq!(serde_json::to_string(&S::Unavailable).unwrap(), "\"unavailable\"");
        assert_eq!(ConnectorStandard::Chademo.label(), "CHAdeMO");
    }
}

