//! What the order pages are sent: the list row, the detail, and the sums.
//! These types are serialised as the answer's `data` and their JSON
//! Schemas are the OpenAPI document's, so the document describes exactly
//! what is sent.
//! The business types inside them (stop reason, payment method, anomaly,
//! tier line, curve point) are `charging`'s own, with their schemas.

use charging::orders::CurvePoint;
use charging::orders::{Anomaly, AnomalyThresholds, Order, OrderStatus};
use charging::pricing::TierLine;
use charging::tariff::{ParkingRule, Segment, TariffTemplate, TierPrices};
use charging::Fen;
use schemars::JsonSchema;
use serde::Serialize;

use super::record::OrderRow;
use super::refunds::RefundRecord;
use super::rollup::Sums;
use super::settle::Settlement;

/// An order as a list shows it: the order with the stored row's
/// bookkeeping (not its tier lines), display names and the anomalies found
/// now. Money is integer fen, energy Wh, times unix seconds.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderView {
    /// The order; a running session's `energyWh` is what its charger
    /// reported so far.
    #[serde(flatten)]
    pub order: Order,
    /// The station's name when the order was written.
    pub station_name: String,
    /// The pile's code as the operator typed it (what its label and the
    /// charger's identity say), e.g. INFYAC001606; empty when the pile is
    /// no longer registered and the order predates stored codes.
    pub pile_code: String,
    /// The connector's number on its pile (1, 2 ...), as printed on it.
    pub connector_no: Option<u32>,
    /// Tariff id / version the order was priced with.
    pub tariff_id: Option<String>,
    pub tariff_version: Option<i64>,
    /// The most negative delta between consecutive curve samples (Wh).
    pub worst_sample_delta_wh: Option<i64>,
    /// Who closed it manually, why and when (null unless closed by staff).
    pub closed_by: Option<String>,
    pub close_reason: Option<String>,
    pub closed_at: Option<i64>,
    /// The OCPP transaction id when a charger reported the session.
    pub transaction_id: Option<i64>,
    /// An offline payment or write-off recorded by finance: who, when,
    /// method and reference, or the reason (null when none).
    pub settlement: Option<Settlement>,
    /// A postpaid card's session: the holder account it is billed to.
    pub billed_to: Option<String>,
    /// Optimistic-lock version.
    pub version: i64,
    /// Anomalies at the time of the answer (empty = healthy).
    pub anomalies: Vec<Anomaly>,
}

impl OrderView {
    pub fn of(row: &OrderRow, now: i64, th: &AnomalyThresholds) -> OrderView {
        let anomalies = row.anomalies(now, th);
        // Every field named: a new field of the row does not compile here
        // until the view decides about it.
        let OrderRow {
            mut order,
            station_name,
            pile_code,
            // The detail sends the tier lines; a list row does not.
            lines: _,
            // Pending requests are listed on the detail (`pendingRefundFen` there).
            pending_refund_fen: _,
            tariff_id,
            tariff_version,
            worst_sample_delta_wh,
            closed_by,
            close_reason,
            closed_at,
            transaction_id,
            settlement,
            billed_to,
            live_energy_wh,
            charger_problems: _,
            version,
        } = row.clone();
        // A running session shows the energy its charger reported so far.
        if order.status == OrderStatus::Charging {
            order.energy_wh = live_energy_wh.unwrap_or(order.energy_wh);
        }
        let connector_no = crate::domain::assets::piles::parse_connector_id(&order.connector_id).map(|(_, n)| n);
        OrderView {
            order,
            station_name,
            pile_code: pile_code.unwrap_or_default(),
            connector_no,
            tariff_id,
            tariff_version,
            worst_sample_delta_wh,
            closed_by,
            close_reason,
            closed_at,
            transaction_id,
            settlement,
            billed_to,
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
    pub lines: Vec<TierLine>,
    /// The meter curve; null when the order has no detail record.
    pub curve: Option<Vec<CurvePoint>>,
    /// Null when the order was not priced with a tariff snapshot.
    pub tariff: Option<TariffSnapshotView>,
    /// Every refund request of the order, any status.
    pub refunds: Vec<RefundRecord>,
    /// What a new refund request may still ask: paid - refunded - pending
    /// requests, never below 0.
    pub refundable_fen: Fen,
    /// What the pending requests ask together.
    pub pending_refund_fen: Fen,
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

    #[test]
    fn sums_are_sent_with_their_net() {
        let s = Sums { orders: 2, paid_fen: 500, refunded_fen: 120, ..Sums::default() };
        let v = to_value(SumsView::from(s)).unwrap();
        assert_eq!(v["netFen"], 380);
        assert_eq!(v["orders"], 2);
        // Every stored field but refundsGrantedFen (finance sends it as its refundedFen), and the net.
        assert_eq!(v.as_object().unwrap().len(), Sums::FIELDS.len() - 1 + 1);
        assert!(v.get("refundsGrantedFen").is_none());
    }
}

/// Fills in the pile codes the rows do not carry (orders written before
/// codes were kept with the order): one BatchGetItem of the page's piles,
/// so old orders show the code without a migration step.
pub async fn fill_pile_codes(ctx: &crate::ctx::AppCtx, views: &mut [&mut OrderView]) -> Result<(), envelope::ApiError> {
    use crate::domain::StoreResultExt;
    let mut missing: Vec<String> = views.iter().filter(|v| v.pile_code.is_empty()).map(|v| v.order.pile_id.clone()).collect();
    missing.sort();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    let keys: Vec<store::Key> = missing.iter().map(|id| crate::domain::assets::piles::pile_key(id)).collect();
    let mut codes = std::collections::HashMap::new();
    for chunk in keys.chunks(100) {
        for item in ctx.store.batch_get(chunk).await.api()?.into_iter().flatten() {
            if let (Some(id), Some(code)) = (item.get("id").and_then(|v| v.as_str()), item.get("code").and_then(|v| v.as_str())) {
                codes.insert(id.to_string(), code.to_string());
            }
        }
    }
    for v in views.iter_mut().filter(|v| v.pile_code.is_empty()) {
        if let Some(code) = codes.get(&v.order.pile_id) {
            v.pile_code = code.clone();
        }
    }
    Ok(())
}
