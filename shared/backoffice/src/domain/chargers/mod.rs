//! What the charger link (OCPP) keeps about chargers, apart from the
//! protocol itself (which lives in the `ocpp` crate): the connection and
//! boot record of each pile, its password, the message log, and charging
//! sessions turned into charging orders.
//!
//! Key layout (the shared table):
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | link (connection, boot, charger status) | `PILE#{pileId}` | `LINK` | GSI1 `STATION#{sid}#PILES` / `{code}#LINK` (right after the pile's connectors) |
//! | charger password (salted hash) | `PILE#{pileId}` | `SECRET` | |
//! | message log entry | `OCPPLOG#{pileId}` | `{at:012}#{uuid7}` | GSI1 `OCPPLOG#{pileId}#{action}` / same sort |
//! | transaction | `OCPPTX#{transactionId}` | `TX` | |
//! | StartTransaction dedupe | `OCPPSTART#{pileId}#{connector}#{timestamp}#{idTag}#{meterStart}` | `UNIQUE` | |
//! | transaction id sequence | `OCPPSEQ` | `TX` | |

pub mod actions;
pub mod commands;
pub mod link;
pub mod log;
pub mod outbound;
pub mod reservations;
pub mod secret;
pub mod sessions;
pub mod status;
pub mod sweep;

/// Timestamps before this (2010-01-01) come from a charger whose clock is
/// not set yet (it boots at 1970); they cannot be billed by.
pub const EARLIEST_PLAUSIBLE_TS: i64 = 1_262_304_000;
/// A charger clock this far ahead of ours is wrong rather than skewed.
pub const MAX_FUTURE_SKEW_SECS: i64 = 3600;

/// The time to record for a charger's timestamp `reported` received at
/// `now`: the charger's own unless it is implausible (unset clock, far
/// future), then ours; the flag says whether it was replaced.
pub fn plausible_time(reported: Option<i64>, now: i64) -> (i64, bool) {
    match reported {
        Some(t) if (EARLIEST_PLAUSIBLE_TS..=now + MAX_FUTURE_SKEW_SECS).contains(&t) => (t, false),
        _ => (now, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implausible_charger_times_are_replaced_by_arrival() {
        let now = 1_800_000_000;
        assert_eq!(plausible_time(Some(now - 7200), now), (now - 7200, false));
        assert_eq!(plausible_time(Some(now + 60), now), (now + 60, false));
        assert_eq!(plausible_time(Some(0), now), (now, true));
        assert_eq!(plausible_time(Some(now + 86_400), now), (now, true));
        assert_eq!(plausible_time(None, now), (now, true));
    }
}
