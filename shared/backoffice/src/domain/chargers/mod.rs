//! What the charger link (OCPP) keeps about chargers, apart from the
//! protocol itself (which lives in the `ocpp` crate, beneath this one):
//! the connection and boot record of each pile, its password, the message
//! log, and charging sessions turned into charging orders. `application`
//! is where the back-office implements the protocol's session contract
//! and OCPP 1.6 handlers over these records.
//!
//! Key layout (the shared table):
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | link (connection, boot, charger status) | `PILE#{pileId}` | `LINK` | GSI1 `STATION#{sid}#PILES` / `{code}#LINK` (right after the pile's connectors) |
//! | charger password (argon2id; the addresses it connected from) | `PILE#{pileId}` | `SECRET` | |
//! | handshake guessing counters (`guard`) | `OCPPGUARD#{ADDRESS,CHARGER,PAIR}#{subject}` | `GUARD` | |
//! | message log entry | `OCPPLOG#{pileId}` | `{at:012}#{uuid7}` | GSI1 `OCPPLOG#{pileId}#{action}` / same sort |
//! | transaction | `OCPPTX#{transactionId}` | `TX` | |
//! | StartTransaction dedupe | `OCPPSTART#{pileId}#{connector}#{timestamp}#{idTag}#{meterStart}` | `UNIQUE` | |
//! | transaction id sequence | `OCPPSEQ` | `TX` | |
//! | certificates (`certificates`) | `CHARGERCERT#{pileId}` | `ISSUED#{serial}` / `ROOT#{issuerKeyHash}#{serial}` | |
//! | security events (`security_events`) | `SECEVENT#{pileId}` | `{at:012}#{uuid7}` | GSI1 `SECEVENTS`, GSI2 `SECEVENTS#TYPE#{type}`, GSI3 `SECEVENT#{pileId}#TYPE#{type}` / same sort |

pub mod actions;
pub mod application;
pub mod budget;
#[cfg(feature = "charger-ca")]
pub mod ca;
pub mod certificates;
pub mod commands;
pub mod device_model;
pub mod guard;
pub mod link;
pub mod log;
pub mod outbound;
pub mod reservations;
pub mod secret;
pub mod security_events;
pub mod sessions;
pub mod smart_v201;
pub mod station_reports;
pub mod status;
pub mod sweep;
pub mod v201;
pub mod ykc_platform;

use envelope::{msg, ApiError};

use crate::ctx::AppCtx;

/// Where chargers connect to this installation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Edge {
    /// API Gateway's WebSocket API (the Lambda build): every connection is
    /// TLS, and its `$connect` is open to the internet.
    pub aws: bool,
    /// The local gateway serves TLS itself (every charger connection is wss).
    pub tls: bool,
}

/// The heartbeat intervals a charger is told on AWS (seconds, inclusive):
/// API Gateway drops a WebSocket connection after 10 minutes without a
/// frame, so the interval stays well under 600 s (a late heartbeat still
/// arrives in time); and at least 300 s, since every heartbeat is two
/// billed messages and two Lambda calls (30 s costs about three times as
/// much as 300 s). A pile's own setting outside the window is told the
/// nearest end; the local gateway tells each pile its own setting.
pub const AWS_HEARTBEAT_WINDOW_SECS: (i64, i64) = (300, 540);

/// The window this installation's charger edge holds heartbeat intervals
/// in, if any.
pub fn heartbeat_window(ctx: &AppCtx) -> Option<(i64, i64)> {
    ctx.charger_edge().aws.then_some(AWS_HEARTBEAT_WINDOW_SECS)
}

/// The security profile a new pile gets when none is chosen: 2 (Basic auth
/// over TLS) where chargers connect over TLS, else 1 (Basic auth).
pub fn default_security_profile(ctx: &AppCtx) -> u8 {
    let edge = ctx.charger_edge();
    if edge.aws || edge.tls {
        2
    } else {
        charging::pile::DEFAULT_SECURITY_PROFILE
    }
}

/// The lowest security profile a charger is held to here: on AWS the
/// charger link is reachable from the whole internet, so a charger always
/// authenticates (profile 0 counts as 1).
pub fn least_security_profile(ctx: &AppCtx) -> u8 {
    u8::from(ctx.charger_edge().aws)
}

/// Refuses a security profile this installation does not allow: 0 (no
/// authentication) on AWS, 3 (client certificates) where the edge carries
/// none.
pub fn check_security_profile(ctx: &AppCtx, profile: u8) -> Result<(), ApiError> {
    if profile == certificates::CLIENT_CERTIFICATE_PROFILE {
        certificates::check_profile_3(ctx)?;
    }
    if profile < least_security_profile(ctx) {
        return Err(ApiError::bad_request(msg::chargers::credentials::profile0_on_aws()));
    }
    Ok(())
}

/// Who may change a charger's credentials (its password, its security
/// profile): the configure-charger permission (Admin), not everyday writers.
pub fn may_change_credentials(principal: &permission::Principal) -> bool {
    crate::dispatch::has_permission(principal, permission::CHARGER_CONFIGURE)
}

/// 403 for a credential change without that permission.
pub fn credentials_forbidden(field: &str) -> ApiError {
    ApiError::new(403, msg::chargers::credentials::forbidden(field))
}

/// A charger's credentials changed: its live connection (made with the old
/// ones) is closed; the charger must connect again with the new ones. On
/// the local gateway this closes the socket, on AWS it is DeleteConnection.
pub async fn close_live_connection(ctx: &AppCtx, pile_id: &str) -> Result<(), ApiError> {
    let Some(l) = link::get(ctx, pile_id).await?.filter(|l| l.connected && !l.connection_id.is_empty()) else { return Ok(()) };
    match ctx.outbound.get() {
        Some(out) => link::close(ctx, out.as_ref(), pile_id, &l.connection_id).await?,
        None => tracing::warn!(pile = pile_id, "the charger's credentials changed but its connection cannot be closed from here"),
    }
    Ok(())
}

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
