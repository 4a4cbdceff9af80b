//! What the order pages are sent: the list row, the detail, and the sums.
//! These types are serialised as the answer's `data` and their JSON
//! Schemas are the OpenAPI document's, so the document describes exactly
//! what is sent.
//!
//! A few pieces mirror `charging` types that have no JSON Schema (stop
//! reason, payment method, anomaly, tier line, curve point). Each is built
//! by an exhaustive conversion (a new variant or field in `charging` does
//! not compile here until it is mirrored) and sends the same JSON (tests
//! below compare them).

use charging::demo::CurvePoint;
use charging::orders::{Anomaly, AnomalyThresholds, OrderStatus, PaymentMethod, PaymentStatus, StopReason};
use charging::pricing::TierLine;
use charging::tariff::{ParkingRule, Segment, TariffTemplate, Tier, TierPrices};
use charging::{Fen, PricePerKwh};
use schemars::JsonSchema;
use serde::Serialize;

use super::record::OrderRow;
use super::refunds::RefundRecord;
use super::rollup::Sums;

/// Why a session stopped (JSON as `charging::orders::StopReason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum StopReasonView {
    UserApp,
    UserCard,
    Full,
    LimitReached,
    InsufficientBalance,
    RemoteStop,
    EmergencyStop,
    Unplugged,
    ChargerFault,
    VehicleFault,
    PowerLoss,
    CommunicationLost,
    ManualClose,
    Other,
}

impl From<StopReason> for StopReasonView {
    fn from(r: StopReason) -> Self {
        match r {
            StopReason::UserApp => Self::UserApp,
            StopReason::UserCard => Self::UserCard,
            StopReason::Full => Self::Full,
            StopReason::LimitReached => Self::LimitReached,
            StopReason::InsufficientBalance => Self::InsufficientBalance,
            StopReason::RemoteStop => Self::RemoteStop,
            StopReason::EmergencyStop => Self::EmergencyStop,
            StopReason::Unplugged => Self::Unplugged,
            StopReason::ChargerFault => Self::ChargerFault,
            StopReason::VehicleFault => Self::VehicleFault,
            StopReason::PowerLoss => Self::PowerLoss,
            StopReason::CommunicationLost => Self::CommunicationLost,
            StopReason::ManualClose => Self::ManualClose,
            StopReason::Other => Self::Other,
        }
    }
}

/// How the user paid (JSON as `charging::orders::PaymentMethod`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PaymentMethodView {
    Wechat,
    Alipay,
    Balance,
    Card,
    Unionpay,
}

impl From<PaymentMethod> for PaymentMethodView {
    fn from(m: PaymentMethod) -> Self {
        match m {
            PaymentMethod::Wechat => Self::Wechat,
            PaymentMethod::Alipay => Self::Alipay,
            PaymentMethod::Balance => Self::Balance,
            PaymentMethod::Card => Self::Card,
            PaymentMethod::Unionpay => Self::Unionpay,
        }
    }
}

/// One anomaly found on an order, e.g. `{"kind": "neverStopped", "runningSecs": 50000}`
/// (JSON as `charging::orders::Anomaly`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum AnomalyView {
    /// Still charging long after it started.
    NeverStopped { running_secs: i64 },
    /// Finished without delivering energy.
    ZeroEnergy,
    /// The meter went backwards (Wh, negative).
    NegativeMeter { delta_wh: i64 },
    /// Finished without a stop meter reading.
    MissingMeterStop,
    /// No tariff snapshot to price with.
    MissingPriceSnapshot,
    /// Stopped, but implausibly long.
    TooLong { duration_secs: i64 },
    /// Stop time before start time.
    StopBeforeStart,
}

impl From<Anomaly> for AnomalyView {
    fn from(a: Anomaly) -> Self {
        match a {
            Anomaly::NeverStopped { running_secs } => Self::NeverStopped { running_secs },
            Anomaly::ZeroEnergy => Self::ZeroEnergy,
            Anomaly::NegativeMeter { delta_wh } => Self::NegativeMeter { delta_wh },
            Anomaly::MissingMeterStop => Self::MissingMeterStop,
            Anomaly::MissingPriceSnapshot => Self::MissingPriceSnapshot,
            Anomaly::TooLong { duration_secs } => Self::TooLong { duration_secs },
            Anomaly::StopBeforeStart => Self::StopBeforeStart,
        }
    }
}

/// One per-tier line of an order (JSON as `charging::pricing::TierLine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierLineView {
    pub tier: Tier,
    pub energy_wh: i64,
    /// Unit prices applied (1/10000 yuan per kWh).
    pub electricity_price: PricePerKwh,
    pub service_price: PricePerKwh,
    pub electricity_fen: Fen,
    pub service_fen: Fen,
}

impl From<&TierLine> for TierLineView {
    fn from(l: &TierLine) -> Self {
        let TierLine { tier, energy_wh, electricity_price, service_price, electricity_fen, service_fen } = *l;
        TierLineView { tier, energy_wh, electricity_price, service_price, electricity_fen, service_fen }
    }
}

/// One point of the meter curve (JSON as `charging::demo::CurvePoint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurvePointView {
    pub ts: i64,
    /// Instantaneous power, W.
    pub power_w: i64,
    /// Energy delivered since the session start, Wh.
    pub energy_wh: i64,
    /// State of charge, %.
    pub soc: u8,
}

impl From<&CurvePoint> for CurvePointView {
    fn from(p: &CurvePoint) -> Self {
        let CurvePoint { ts, power_w, energy_wh, soc } = *p;
        CurvePointView { ts, power_w, energy_wh, soc }
    }
}

/// An order as a list shows it: the stored row without its tier lines,
/// with the anomalies found now. Money is integer fen, energy Wh, times
/// unix seconds.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderView {
    pub order_no: String,
    pub station_id: String,
    /// The station's name when the order was written.
    pub station_name: String,
    pub pile_id: String,
    pub connector_id: String,
    pub user_id: String,
    pub plate: String,
    pub start_ts: i64,
    /// Null while charging.
    pub stop_ts: Option<i64>,
    pub meter_start_wh: i64,
    pub meter_stop_wh: Option<i64>,
    pub energy_wh: i64,
    pub soc_start: u8,
    pub soc_end: Option<u8>,
    pub status: OrderStatus,
    pub stop_reason: Option<StopReasonView>,
    pub occupancy_minutes: u32,
    pub electricity_fen: Fen,
    pub service_fen: Fen,
    pub parking_fen: Fen,
    pub discount_fen: Fen,
    pub amount_fen: Fen,
    pub paid_fen: Fen,
    pub refunded_fen: Fen,
    pub payment_method: Option<PaymentMethodView>,
    pub payment_status: PaymentStatus,
    /// Tariff id / version the order was priced with.
    pub tariff_id: Option<String>,
    pub tariff_version: Option<i64>,
    /// The most negative delta between consecutive curve samples (Wh).
    pub worst_sample_delta_wh: Option<i64>,
    /// Who closed it manually, why and when (null unless closed by staff).
    pub closed_by: Option<String>,
    pub close_reason: Option<String>,
    pub closed_at: Option<i64>,
    /// Optimistic-lock version.
    pub version: i64,
    /// Anomalies at the time of the answer (empty = healthy).
    pub anomalies: Vec<AnomalyView>,
}

impl OrderView {
    pub fn of(row: &OrderRow, now: i64, th: &AnomalyThresholds) -> OrderView {
        let anomalies = row.anomalies(now, th).into_iter().map(AnomalyView::from).collect();
        // Every field named: a new field of the row does not compile here
        // until the view decides about it.
        let OrderRow {
            order_no,
            station_id,
            station_name,
            pile_id,
            connector_id,
            user_id,
            plate,
            start_ts,
            stop_ts,
            meter_start_wh,
            meter_stop_wh,
            energy_wh,
            soc_start,
            soc_end,
            status,
            stop_reason,
            occupancy_minutes,
            lines: _,
            electricity_fen,
            service_fen,
            parking_fen,
            discount_fen,
            amount_fen,
            paid_fen,
            refunded_fen,
            payment_method,
            payment_status,
            tariff_id,
            tariff_version,
            worst_sample_delta_wh,
            closed_by,
            close_reason,
            closed_at,
            version,
        } = row.clone();
        OrderView {
            order_no,
            station_id,
            station_name,
            pile_id,
            connector_id,
            user_id,
            plate,
            start_ts,
            stop_ts,
            meter_start_wh,
            meter_stop_wh,
            energy_wh,
            soc_start,
            soc_end,
            status,
            stop_reason: stop_reason.map(StopReasonView::from),
            occupancy_minutes,
            electricity_fen,
            service_fen,
            parking_fen,
            discount_fen,
            amount_fen,
            paid_fen,
            refunded_fen,
            payment_method: payment_method.map(PaymentMethodView::from),
            payment_status,
            tariff_id,
            tariff_version,
            worst_sample_delta_wh,
            closed_by,
            close_reason,
            closed_at,
            version,
            anomalies,
        }
    }
}

/// The tariff snapshot an order was priced with, as the detail shows it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffSnapshotView {
    pub id: String,
    pub name: String,
    pub version: i64,
    /// The schedule as segments (adjacent equal half-hours merged).
    pub segments: Vec<Segment>,
    pub prices: TierPrices,
    /// Null when the tariff has no occupancy fee.
    pub parking: Option<ParkingRule>,
}

impl From<&TariffTemplate> for TariffSnapshotView {
    fn from(t: &TariffTemplate) -> Self {
        TariffSnapshotView { id: t.id.clone(), name: t.name.clone(), version: t.version, segments: t.segments(), prices: t.prices, parking: t.parking }
    }
}

/// One order with everything the detail page shows.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderDetailView {
    #[serde(flatten)]
    pub order: OrderView,
    /// Per-tier energy and money.
    pub lines: Vec<TierLineView>,
    /// The meter curve; null when the order has no detail record.
    pub curve: Option<Vec<CurvePointView>>,
    /// Null when the order was not priced with a tariff snapshot.
    pub tariff: Option<TariffSnapshotView>,
    /// Every refund request of the order, any status.
    pub refunds: Vec<RefundRecord>,
    /// What may still be refunded: paid - refunded, never below 0.
    pub refundable_fen: Fen,
    /// Stop (or now, while charging) minus start.
    pub duration_secs: i64,
}

/// Sums over a set of orders, plus net = paid - refunded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SumsView {
    #[serde(flatten)]
    pub sums: Sums,
    /// Revenue kept: paid - refunded.
    pub net_fen: i64,
}

impl From<Sums> for SumsView {
    fn from(sums: Sums) -> Self {
        SumsView { sums, net_fen: sums.net_fen() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::to_value;

    const STOP_REASONS: [StopReason; 14] = [
        StopReason::UserApp,
        StopReason::UserCard,
        StopReason::Full,
        StopReason::LimitReached,
        StopReason::InsufficientBalance,
        StopReason::RemoteStop,
        StopReason::EmergencyStop,
        StopReason::Unplugged,
        StopReason::ChargerFault,
        StopReason::VehicleFault,
        StopReason::PowerLoss,
        StopReason::CommunicationLost,
        StopReason::ManualClose,
        StopReason::Other,
    ];

    #[test]
    fn mirrors_send_the_json_of_the_charging_types() {
        for r in STOP_REASONS {
            assert_eq!(to_value(StopReasonView::from(r)).unwrap(), to_value(r).unwrap());
        }
        for m in [PaymentMethod::Wechat, PaymentMethod::Alipay, PaymentMethod::Balance, PaymentMethod::Card, PaymentMethod::Unionpay] {
            assert_eq!(to_value(PaymentMethodView::from(m)).unwrap(), to_value(m).unwrap());
        }
        for a in [
            Anomaly::NeverStopped { running_secs: 50_000 },
            Anomaly::ZeroEnergy,
            Anomaly::NegativeMeter { delta_wh: -12 },
            Anomaly::MissingMeterStop,
            Anomaly::MissingPriceSnapshot,
            Anomaly::TooLong { duration_secs: 90_000 },
            Anomaly::StopBeforeStart,
        ] {
            assert_eq!(to_value(AnomalyView::from(a)).unwrap(), to_value(a).unwrap());
        }
        let line = TierLine {
            tier: Tier::Peak,
            energy_wh: 1234,
            electricity_price: PricePerKwh(10653),
            service_price: PricePerKwh(8000),
            electricity_fen: Fen(131),
            service_fen: Fen(99),
        };
        assert_eq!(to_value(TierLineView::from(&line)).unwrap(), to_value(line).unwrap());
        let point = CurvePoint { ts: 1_750_000_000, power_w: 60_000, energy_wh: 4_200, soc: 57 };
        assert_eq!(to_value(CurvePointView::from(&point)).unwrap(), to_value(point).unwrap());
    }

    #[test]
    fn sums_are_sent_with_their_net() {
        let s = Sums { orders: 2, paid_fen: 500, refunded_fen: 120, ..Sums::default() };
        let v = to_value(SumsView::from(s)).unwrap();
        assert_eq!(v["netFen"], 380);
        assert_eq!(v["orders"], 2);
        assert_eq!(v.as_object().unwrap().len(), Sums::FIELDS.len() + 1);
    }
}
