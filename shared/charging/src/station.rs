//! What the station records share beyond their stored form.

use serde::{Deserialize, Serialize};

/// A station's life-cycle status. JSON: "planning" | "operating" |
/// "suspended" | "closed".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum StationStatus {
    Planning,
    Operating,
    Suspended,
    Closed,
}
