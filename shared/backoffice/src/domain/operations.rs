//! Operations settings (the /setting/workflow page): the thresholds that
//! decide what every page calls an offline pile and a stuck order. One
//! versioned item; until an admin saves, the defaults hold.
//!
//! Only thresholds applied when a page is read live here. Rules baked into
//! stored indexes when an order is written (the flagged-orders pointers,
//! "too long" sessions) stay constants, so changing a setting never leaves
//! old and new orders judged by different rules.

use std::time::{Duration, Instant};

use charging::orders::AnomalyThresholds;
use envelope::{msg, ApiError, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::{Condition, Key};
use tokio::sync::Mutex;

use super::StoreResultExt;
use crate::ctx::AppCtx;

/// A pile is offline after this many heartbeat intervals without one.
pub const OFFLINE_AFTER_INTERVALS: Bound = Bound { min: 2, default: 3, max: 10 };
/// A charging order still open after this many hours is stuck.
pub const STUCK_AFTER_HOURS: Bound = Bound { min: 1, default: 12, max: 24 };
/// A sign-in session without a request for this many minutes ends.
pub const IDLE_TIMEOUT_MINUTES: Bound = Bound { min: 5, default: 30, max: 720 };
/// A prepaid card starts a session only with at least this much (fen) of
/// its balance free; each running session holds this much until it stops.
pub const PREPAID_MINIMUM_FEN: Bound = Bound { min: 0, default: 1000, max: 1_000_000 };
/// The operator's time zone until one is chosen.
pub const DEFAULT_TIME_ZONE: &str = "Asia/Shanghai";
/// The time zones an operator may choose (IANA names, `data/time-zones.txt`).
pub fn time_zones() -> Vec<&'static str> {
    include_str!("../../data/time-zones.txt").lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

/// The range a setting accepts and its default (sent to the page, which
/// checks a form against it before saving).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Bound {
    pub min: i64,
    pub default: i64,
    pub max: i64,
}

fn key() -> Key {
    Key::new("SETTINGS", "OPERATIONS")
}

/// The settings as stored and as GET /operationSettings/get answers them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationSettings {
    /// Heartbeat intervals without a heartbeat after which a pile is offline.
    pub offline_after_intervals: i64,
    /// Hours after which a still-charging order is flagged as stuck.
    pub stuck_after_hours: i64,
    /// Minutes without a request after which a sign-in session ends.
    #[serde(default = "default_idle_timeout")]
    pub idle_timeout_minutes: i64,
    /// The least a prepaid card must have free (fen) to start a session.
    #[serde(default = "default_prepaid_minimum")]
    pub prepaid_minimum_fen: i64,
    /// The operator's time zone (IANA name): every date and time the pages
    /// show and every one typed in them is in it.
    #[serde(default = "default_time_zone")]
    pub time_zone: String,
    /// 0 until the first save; send it back with an edit.
    pub version: i64,
    pub updated_by: Option<String>,
    /// Unix seconds of the last save.
    pub updated_at: Option<i64>,
    /// The window the charger edge holds heartbeat intervals in (AWS:
    /// `chargers::AWS_HEARTBEAT_WINDOW_SECS`), none on the local gateway:
    /// where this installation runs, not a setting (never stored or sent).
    #[serde(skip)]
    pub heartbeat_window: Option<(i64, i64)>,
}

fn default_idle_timeout() -> i64 {
    IDLE_TIMEOUT_MINUTES.default
}

fn default_prepaid_minimum() -> i64 {
    PREPAID_MINIMUM_FEN.default
}

fn default_time_zone() -> String {
    DEFAULT_TIME_ZONE.into()
}

impl Default for OperationSettings {
    fn default() -> Self {
        OperationSettings {
            offline_after_intervals: OFFLINE_AFTER_INTERVALS.default,
            stuck_after_hours: STUCK_AFTER_HOURS.default,
            idle_timeout_minutes: IDLE_TIMEOUT_MINUTES.default,
            prepaid_minimum_fen: PREPAID_MINIMUM_FEN.default,
            time_zone: DEFAULT_TIME_ZONE.into(),
            version: 0,
            updated_by: None,
            updated_at: None,
            heartbeat_window: None,
        }
    }
}

impl OperationSettings {
    /// The heartbeat interval a pile set to `heartbeat_interval_secs` is
    /// told at boot: its own, held within the edge's window if it has one.
    pub fn told_heartbeat_secs(&self, heartbeat_interval_secs: i64) -> i64 {
        match self.heartbeat_window {
            Some((least, most)) => heartbeat_interval_secs.clamp(least, most),
            None => heartbeat_interval_secs,
        }
    }

    /// How long a pile with this heartbeat interval stays online after its
    /// last heartbeat (counted in the interval it is told).
    pub fn offline_window_secs(&self, heartbeat_interval_secs: i64) -> i64 {
        self.told_heartbeat_secs(heartbeat_interval_secs).saturating_mul(self.offline_after_intervals)
    }

    /// How long a session may go without a request.
    pub fn idle_timeout_secs(&self) -> i64 {
        self.idle_timeout_minutes * 60
    }

    /// The order anomaly thresholds with this stuck limit.
    pub fn anomaly_thresholds(&self) -> AnomalyThresholds {
        AnomalyThresholds { stuck_after_secs: self.stuck_after_hours * 3600, ..AnomalyThresholds::default() }
    }
}

/// The settings with the ranges they accept: what the page is answered.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationSettingsAnswer {
    #[serde(flatten)]
    pub settings: OperationSettings,
    pub limits: Limits,
    /// The time zones that may be chosen.
    pub time_zones: Vec<&'static str>,
}

#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    pub offline_after_intervals: Bound,
    pub stuck_after_hours: Bound,
    pub idle_timeout_minutes: Bound,
    pub prepaid_minimum_fen: Bound,
}

impl From<OperationSettings> for OperationSettingsAnswer {
    fn from(settings: OperationSettings) -> Self {
        OperationSettingsAnswer {
            settings,
            limits: Limits { offline_after_intervals: OFFLINE_AFTER_INTERVALS, stuck_after_hours: STUCK_AFTER_HOURS, idle_timeout_minutes: IDLE_TIMEOUT_MINUTES, prepaid_minimum_fen: PREPAID_MINIMUM_FEN },
            time_zones: time_zones(),
        }
    }
}

/// POST /operationSettings/doEdit body.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperationSettingsEdit {
    /// 2 to 10.
    #[schemars(range(min = 2, max = 10))]
    pub offline_after_intervals: i64,
    /// 1 to 24.
    #[schemars(range(min = 1, max = 24))]
    pub stuck_after_hours: i64,
    /// 5 to 720; absent keeps the value in force (clients older than the
    /// setting).
    #[schemars(range(min = 5, max = 720))]
    #[serde(default)]
    pub idle_timeout_minutes: Option<i64>,
    /// 0 to 1,000,000 fen; absent keeps the value in force.
    #[schemars(range(min = 0, max = 1_000_000))]
    #[serde(default)]
    pub prepaid_minimum_fen: Option<i64>,
    /// One of the answer's `timeZones`; absent keeps the value in force.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// The version the form was loaded with (0 before the first save).
    #[schemars(range(min = 0))]
    pub version: i64,
}

/// How long a function instance keeps the settings it read. A save made
/// through another instance (another Lambda function) applies within it;
/// a save through this one applies at once.
const CACHE_TTL: Duration = Duration::from_secs(10);

/// The settings every list and detail applies, read at most once per
/// [`CACHE_TTL`], so judging piles and orders costs no store call per request.
#[derive(Default)]
pub struct OperationsCache {
    loaded: Mutex<Option<(Instant, OperationSettings)>>,
}

impl OperationsCache {
    pub async fn current(&self, ctx: &AppCtx) -> Result<OperationSettings, ApiError> {
        let mut guard = self.loaded.lock().await;
        match guard.as_ref() {
            Some((at, settings)) if at.elapsed() < CACHE_TTL => Ok(settings.clone()),
            _ => {
                let settings = load(ctx).await?;
                *guard = Some((Instant::now(), settings.clone()));
                Ok(settings)
            }
        }
    }

    async fn replace(&self, settings: OperationSettings) {
        *self.loaded.lock().await = Some((Instant::now(), settings));
    }
}

/// The settings in force (cached briefly, see [`OperationsCache`]).
pub async fn current(ctx: &AppCtx) -> Result<OperationSettings, ApiError> {
    let mut settings = ctx.operations.current(ctx).await?;
    // Where this process serves chargers, as it is now (not as cached).
    settings.heartbeat_window = super::chargers::heartbeat_window(ctx);
    Ok(settings)
}

/// The stored settings, or the defaults before the first save.
pub async fn load(ctx: &AppCtx) -> Result<OperationSettings, ApiError> {
    let heartbeat_window = super::chargers::heartbeat_window(ctx);
    let Some(item) = ctx.store.get(&key()).await.api()? else {
        return Ok(OperationSettings { heartbeat_window, ..OperationSettings::default() });
    };
    // `version` is the store's optimistic-lock attribute (`store::VERSION`).
    let mut settings: OperationSettings = super::from_item(item)?;
    // A value outside today's bounds (written under other rules) is
    // clamped, so a page never divides by or waits for nonsense.
    settings.offline_after_intervals = settings.offline_after_intervals.clamp(OFFLINE_AFTER_INTERVALS.min, OFFLINE_AFTER_INTERVALS.max);
    settings.stuck_after_hours = settings.stuck_after_hours.clamp(STUCK_AFTER_HOURS.min, STUCK_AFTER_HOURS.max);
    settings.idle_timeout_minutes = settings.idle_timeout_minutes.clamp(IDLE_TIMEOUT_MINUTES.min, IDLE_TIMEOUT_MINUTES.max);
    settings.prepaid_minimum_fen = settings.prepaid_minimum_fen.clamp(PREPAID_MINIMUM_FEN.min, PREPAID_MINIMUM_FEN.max);
    if !time_zones().contains(&settings.time_zone.as_str()) {
        settings.time_zone = DEFAULT_TIME_ZONE.into();
    }
    settings.heartbeat_window = heartbeat_window;
    Ok(settings)
}

fn check(value: i64, bound: Bound, what: Text) -> Result<(), ApiError> {
    if (bound.min..=bound.max).contains(&value) {
        return Ok(());
    }
    Err(ApiError::bad_request(msg::settings::operations::out_of_range(bound.max, bound.min, what)))
}

/// Checks an edit whole, then saves it over the version it was loaded
/// with; an edit of an older version is refused (409) and writes nothing.
pub async fn save(ctx: &AppCtx, actor: &str, edit: OperationSettingsEdit) -> Result<OperationSettings, ApiError> {
    check(edit.offline_after_intervals, OFFLINE_AFTER_INTERVALS, msg::settings::operations::offline_after_intervals())?;
    check(edit.stuck_after_hours, STUCK_AFTER_HOURS, msg::settings::operations::stuck_after_hours())?;
    let in_force = load(ctx).await?;
    let idle_timeout_minutes = match edit.idle_timeout_minutes {
        Some(minutes) => {
            check(minutes, IDLE_TIMEOUT_MINUTES, msg::settings::operations::idle_timeout_minutes())?;
            minutes
        }
        None => in_force.idle_timeout_minutes,
    };
    let prepaid_minimum_fen = match edit.prepaid_minimum_fen {
        Some(fen) => {
            check(fen, PREPAID_MINIMUM_FEN, msg::settings::operations::prepaid_minimum_fen())?;
            fen
        }
        None => in_force.prepaid_minimum_fen,
    };
    let time_zone = match edit.time_zone.as_deref().map(str::trim) {
        Some(zone) if time_zones().contains(&zone) => zone.to_string(),
        Some(zone) => {
            return Err(ApiError::bad_request(msg::settings::operations::bad_time_zone(&zone)))
        }
        None => in_force.time_zone,
    };
    if edit.version < 0 {
        return Err(ApiError::bad_request(msg::settings::operations::version_needed()));
    }
    // Saturating: a claimed version no save can have reached fails the
    // version check (409) instead of overflowing.
    let next = edit.version.saturating_add(1);
    let saved = OperationSettings {
        offline_after_intervals: edit.offline_after_intervals,
        stuck_after_hours: edit.stuck_after_hours,
        idle_timeout_minutes,
        prepaid_minimum_fen,
        time_zone,
        version: next,
        updated_by: Some(actor.to_string()),
        updated_at: Some(ctx.now()),
        heartbeat_window: in_force.heartbeat_window,
    };
    let Key { pk, sk } = key();
    let item = super::to_item(&saved, &[(store::PK, pk), (store::SK, sk)]);
    match ctx.store.put(item, Some(Condition::loaded_at(edit.version))).await {
        Ok(()) => {
            ctx.operations.replace(saved.clone()).await;
            Ok(saved)
        }
        Err(store::StoreError::ConditionFailed) => Err(ApiError::conflict(msg::settings::operations::changed_meanwhile())),
        Err(e) => Err(super::store_error(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_rules_the_pages_used_before_settings_existed() {
        let s = OperationSettings::default();
        assert_eq!(s.offline_window_secs(60), 180);
        assert_eq!(s.anomaly_thresholds(), AnomalyThresholds::default());
    }

    #[test]
    fn the_stuck_limit_changes_only_the_stuck_rule() {
        let s = OperationSettings { stuck_after_hours: 4, ..OperationSettings::default() };
        let th = s.anomaly_thresholds();
        assert_eq!(th.stuck_after_secs, 4 * 3600);
        assert_eq!(th.too_long_secs, AnomalyThresholds::default().too_long_secs);
    }

    #[test]
    fn bounds_are_checked_with_what_to_fix() {
        assert!(check(3, OFFLINE_AFTER_INTERVALS, msg::settings::operations::offline_after_intervals()).is_ok());
        for bad in [1, 11, -3, i64::MAX] {
            let err = check(bad, OFFLINE_AFTER_INTERVALS, msg::settings::operations::offline_after_intervals()).unwrap_err();
            assert_eq!(err.code, 400);
            assert!(err.msg.en.contains("from 2 to 10"), "{}", err.msg.en);
        }
    }
}
