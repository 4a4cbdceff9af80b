//! The stored order: the list row (`ORDER`) and its heavy part (`DETAIL`:
//! meter curve and tariff snapshot), kept apart so a list page never reads
//! curves.

use charging::demo::DemoOrder;
use charging::orders::CurvePoint;
use charging::orders::{detect_anomalies, Anomaly, AnomalyThresholds, ChargerProblem, Order, OrderFacts};
use charging::pricing::TierLine;
use charging::tariff::TariffTemplate;
use charging::Fen;
use serde::{Deserialize, Serialize};

use super::keys;

/// The list row of an order: the order, its tier lines and the
/// bookkeeping kept with it (everything but the curve and the tariff).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderRow {
    #[serde(flatten)]
    pub order: Order,
    /// The station's name when the order was written (a snapshot, like the tariff).
    #[serde(default)]
    pub station_name: String,
    /// The pile's code (as typed by the operator, the charger's identity)
    /// when the order was written. Absent on orders written before it was
    /// kept (and on demo orders): the answers derive it from the pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile_code: Option<String>,
    pub lines: Vec<TierLine>,
    /// What the order's pending refund requests ask, kept with the order so
    /// a new request is checked and written in one conditional transaction
    /// (race-safe on both stores). Absent on orders not written since it
    /// was introduced: then it is the sum of the pending requests
    /// (`refunds::pending_of`), and the next refund write stores it. New
    /// orders start at 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_refund_fen: Option<Fen>,
    /// Tariff id/version the order was priced with (the snapshot is in DETAIL).
    pub tariff_id: Option<String>,
    pub tariff_version: Option<i64>,
    /// The most negative delta between consecutive curve samples (Wh).
    #[serde(default)]
    pub worst_sample_delta_wh: Option<i64>,
    /// Who closed it manually, why and when.
    #[serde(default)]
    pub closed_by: Option<String>,
    #[serde(default)]
    pub close_reason: Option<String>,
    #[serde(default)]
    pub closed_at: Option<i64>,
    /// The OCPP transaction id when a charger reported the session.
    #[serde(default)]
    pub transaction_id: Option<i64>,
    /// An offline payment or write-off recorded by staff (`settle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settlement: Option<super::settle::Settlement>,
    /// The account a postpaid card's session is billed to (the card's
    /// holder, or its number when no holder is written): its amount counts
    /// in that holder's monthly bill (`rollup`). None for every other order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billed_to: Option<String>,
    /// Energy so far of a session still charging (from its meter values).
    /// Kept apart from `energy_wh`, which the rollups sum, so a meter
    /// value writes the order and its curve only; the stop moves it over.
    #[serde(default)]
    pub live_energy_wh: Option<i64>,
    /// What the charger's messages got wrong about this session.
    #[serde(default)]
    pub charger_problems: Vec<ChargerProblem>,
    /// Optimistic-lock version; every change checks and bumps it.
    pub version: i64,
}

/// The heavy part, read only by the detail page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderDetail {
    pub curve: Vec<CurvePoint>,
    pub tariff: Option<TariffTemplate>,
}

impl OrderRow {
    pub fn from_demo(o: &DemoOrder, station_name: &str) -> (OrderRow, OrderDetail) {
        let worst = o.curve.windows(2).map(|w| w[1].energy_wh - w[0].energy_wh).filter(|d| *d < 0).min();
        let row = OrderRow {
            order: o.order.clone(),
            station_name: station_name.to_string(),
            // The demo's piles exist: the answers look their codes up.
            pile_code: None,
            lines: o.lines.clone(),
            // Counted from the start (the seed sets its pending requests' total).
            pending_refund_fen: Some(Fen::ZERO),
            tariff_id: o.tariff.as_ref().map(|t| t.id.clone()),
            tariff_version: o.tariff.as_ref().map(|t| t.version),
            worst_sample_delta_wh: worst,
            closed_by: None,
            close_reason: None,
            closed_at: None,
            transaction_id: None,
            settlement: None,
            billed_to: None,
            live_energy_wh: None,
            charger_problems: Vec::new(),
            version: 1,
        };
        (row, OrderDetail { curve: o.curve.clone(), tariff: o.tariff.clone() })
    }

    /// Takes a pricing's tier lines and amounts (the energy stays the
    /// meter's: the caller decides whether the priced energy replaces it).
    pub fn apply_priced(&mut self, priced: charging::pricing::PricedSession) {
        self.lines = self.order.apply_priced(priced);
    }

    pub fn facts(&self) -> OrderFacts {
        OrderFacts {
            status: self.order.status,
            start_ts: self.order.start_ts,
            stop_ts: self.order.stop_ts,
            meter_start_wh: Some(self.order.meter_start_wh),
            meter_stop_wh: self.order.meter_stop_wh,
            worst_sample_delta_wh: self.worst_sample_delta_wh,
            has_price_snapshot: self.tariff_id.is_some(),
        }
    }

    /// The anomalies at `now` under `th` (the stuck limit is an operations
    /// setting: `operations::current(ctx).anomaly_thresholds()`).
    pub fn anomalies(&self, now: i64, th: &AnomalyThresholds) -> Vec<Anomaly> {
        let mut found = detect_anomalies(&self.facts(), now, th);
        found.extend(self.charger_problems.iter().map(|&problem| Anomaly::Charger { problem }));
        found
    }

    /// Anomalies that do not depend on the clock (stored as a list pointer
    /// at write time); "never stopped" is found by a key range instead.
    pub fn flagged(&self) -> bool {
        // The fixed thresholds: a stored pointer must not depend on a setting.
        self.anomalies(self.order.start_ts, &AnomalyThresholds::default()).iter().any(|a| !matches!(a, Anomaly::NeverStopped { .. }))
    }

    /// The order item with its index keys.
    pub fn to_item(&self) -> store::Item {
        let month = keys::month_of(self.order.start_ts);
        let sort = keys::time_sort(self.order.start_ts, &self.order.order_no);
        let key = keys::order(&self.order.order_no);
        crate::domain::to_item(
            self,
            &[
                (store::PK, key.pk),
                (store::SK, key.sk),
                ("GSI1PK", keys::by_month(&month)),
                ("GSI1SK", sort.clone()),
                ("GSI2PK", keys::by_station(&self.order.station_id, &month)),
                ("GSI2SK", sort.clone()),
                ("GSI3PK", keys::by_status(self.order.status, &month)),
                ("GSI3SK", sort),
            ],
        )
    }
}

impl OrderDetail {
    pub fn to_item(&self, order_no: &str) -> store::Item {
        let key = keys::order_detail(order_no);
        crate::domain::to_item(self, &[(store::PK, key.pk), (store::SK, key.sk)])
    }
}
