//! Rollup (counter) items: per day and month, per filter dimension, the
//! sums the order list and the finance page show. They are changed in the
//! same transaction as the order (ADD of the difference between the order
//! before and after the write), so they always equal the sum of the orders
//! behind them, and reading a sum costs a few items, not the orders.
//!
//! Two days count, each for its own figure:
//! - the order's start day (China local): every field but one is the sum of
//!   the orders started that day, `refundedFen` included (what those orders
//!   have been refunded so far). The order list's sums read these: they
//!   describe the listed orders.
//! - a postpaid card's session also counts in its holder's bill of the
//!   order's start month (`keys::holder_bill`): what the holder owes is
//!   amount - paid - written off.
//! - the day a refund is approved: `refundsGrantedFen` is the money refunded
//!   that day, whatever day its order started (`granted_refund`, added in
//!   the approval's transaction to dims `ALL` and `S#{station}` only).
//!   Finance and the dashboard count refunds with it (`Sums::as_money`), so
//!   a period's statement does not change when an order of it is refunded
//!   later: the refund shows in the period it was granted.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::{Key, TxOp, UpdateAction};

use super::keys::{self, Dim};
use super::record::OrderRow;

/// The summed fields. JSON names are the item attribute names. Money is
/// integer fen, energy Wh.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Sums {
    pub orders: i64,
    pub energy_wh: i64,
    pub electricity_fen: i64,
    pub service_fen: i64,
    pub parking_fen: i64,
    pub discount_fen: i64,
    pub amount_fen: i64,
    pub paid_fen: i64,
    pub refunded_fen: i64,
    /// Owed amounts finance wrote off (`settle`): neither paid nor still owed.
    pub written_off_fen: i64,
    /// Refunds approved on the item's day / in its month, of orders started
    /// any day (see the module docs). Never part of an order's own sums
    /// (`Sums::of` leaves it 0); not sent as such: finance answers carry it
    /// as their `refundedFen` (`as_money`).
    #[serde(skip)]
    pub refunds_granted_fen: i64,
}

impl Sums {
    /// The item attribute names, in `values` order.
    pub const FIELDS: [&'static str; 11] = [
        "orders",
        "energyWh",
        "electricityFen",
        "serviceFen",
        "parkingFen",
        "discountFen",
        "amountFen",
        "paidFen",
        "refundedFen",
        "writtenOffFen",
        "refundsGrantedFen",
    ];

    fn values(&self) -> [i64; 11] {
        [
            self.orders,
            self.energy_wh,
            self.electricity_fen,
            self.service_fen,
            self.parking_fen,
            self.discount_fen,
            self.amount_fen,
            self.paid_fen,
            self.refunded_fen,
            self.written_off_fen,
            self.refunds_granted_fen,
        ]
    }

    fn from_values(v: [i64; 11]) -> Sums {
        Sums {
            orders: v[0],
            energy_wh: v[1],
            electricity_fen: v[2],
            service_fen: v[3],
            parking_fen: v[4],
            discount_fen: v[5],
            amount_fen: v[6],
            paid_fen: v[7],
            refunded_fen: v[8],
            written_off_fen: v[9],
            refunds_granted_fen: v[10],
        }
    }

    pub fn of(o: &OrderRow) -> Sums {
        Sums {
            orders: 1,
            energy_wh: o.order.energy_wh,
            electricity_fen: o.order.electricity_fen.0,
            service_fen: o.order.service_fen.0,
            parking_fen: o.order.parking_fen.0,
            discount_fen: o.order.discount_fen.0,
            amount_fen: o.order.amount_fen.0,
            paid_fen: o.order.paid_fen.0,
            refunded_fen: o.order.refunded_fen.0,
            written_off_fen: match &o.settlement {
                Some(s) if s.kind == super::settle::SettlementKind::WriteOff => s.amount_fen.0,
                _ => 0,
            },
            refunds_granted_fen: 0,
        }
    }

    pub fn add(&mut self, other: &Sums) {
        let (a, b) = (self.values(), other.values());
        *self = Sums::from_values(std::array::from_fn(|i| a[i] + b[i]));
    }

    pub fn sub(&self, other: &Sums) -> Sums {
        let (a, b) = (self.values(), other.values());
        Sums::from_values(std::array::from_fn(|i| a[i] - b[i]))
    }

    pub fn is_zero(&self) -> bool {
        self.values().iter().all(|v| *v == 0)
    }

    /// Revenue actually kept: paid - refunded.
    pub fn net_fen(&self) -> i64 {
        self.paid_fen - self.refunded_fen
    }

    /// The sums as finance and the dashboard count money: refunds on the
    /// day they were granted (`refundedFen` = `refundsGrantedFen`, so the
    /// net is paid - refunds granted in the period); the rest by the
    /// orders' start day.
    pub fn as_money(&self) -> Sums {
        Sums { refunded_fen: self.refunds_granted_fen, ..*self }
    }

    pub fn from_item(item: &store::Item) -> Sums {
        let v = |name: &str| item.get(name).and_then(serde_json::Value::as_i64).unwrap_or(0);
        Sums::from_values(std::array::from_fn(|i| v(Sums::FIELDS[i])))
    }

    fn actions(&self) -> Vec<UpdateAction> {
        Sums::FIELDS.iter().zip(self.values()).filter(|(_, v)| *v != 0).map(|(f, v)| UpdateAction::Add((*f).to_string(), v)).collect()
    }
}

/// The filter dimensions an order counts in.
pub fn dims(o: &OrderRow) -> [Dim<'_>; 5] {
    let station = o.order.station_id.as_str();
    [Dim::All, Dim::Station(station), Dim::Status(o.order.status), Dim::Payment(o.order.payment_status), Dim::StationStatus(station, o.order.status)]
}

/// Every rollup item an order adds to, with what it adds.
fn contributions(o: &OrderRow) -> Vec<(Key, Sums)> {
    let s = Sums::of(o);
    let (day, month) = (keys::day_of(o.order.start_ts), keys::month_of(o.order.start_ts));
    let mut out = Vec::new();
    for dim in dims(o) {
        out.push((Key::new(keys::day_rollup(dim), day.clone()), s));
        out.push((Key::new(keys::month_rollup(dim), month.clone()), s));
    }
    out.push((Key::new(keys::STATIONS_ROLLUP_PK, o.order.station_id.clone()), s));
    if let Some(account) = &o.billed_to {
        out.push((keys::holder_bill(&month, account), s));
    }
    out
}

/// The rollup changes for an order going from `before` to `after`
/// (None = did not exist / removed): per item, after - before.
pub fn deltas(before: Option<&OrderRow>, after: Option<&OrderRow>) -> BTreeMap<Key, Sums> {
    let mut out: BTreeMap<Key, Sums> = BTreeMap::new();
    for (k, s) in after.map(contributions).unwrap_or_default() {
        out.entry(k).or_default().add(&s);
    }
    for (k, s) in before.map(contributions).unwrap_or_default() {
        let e = out.entry(k).or_default();
        *e = e.sub(&s);
    }
    out.retain(|_, s| !s.is_zero());
    out
}

/// The dims a granted refund counts in: finance reads all stations or one.
fn granted_dims(station_id: &str) -> [Dim<'_>; 2] {
    [Dim::All, Dim::Station(station_id)]
}

/// The rollup items an approved refund adds to (`refundsGrantedFen`): its
/// approval day's and month's, China local time (see the module docs).
pub fn granted_refund(station_id: &str, amount_fen: i64, approved_at: i64) -> BTreeMap<Key, Sums> {
    let s = Sums { refunds_granted_fen: amount_fen, ..Sums::default() };
    let (day, month) = (keys::day_of(approved_at), keys::month_of(approved_at));
    let mut out = BTreeMap::new();
    for dim in granted_dims(station_id) {
        out.insert(Key::new(keys::day_rollup(dim), day.clone()), s);
        out.insert(Key::new(keys::month_rollup(dim), month.clone()), s);
    }
    out.retain(|_, s| !s.is_zero());
    out
}

/// Adds `more` into an accumulating map (bulk seeding).
pub fn accumulate(acc: &mut BTreeMap<Key, Sums>, more: BTreeMap<Key, Sums>) {
    for (k, s) in more {
        acc.entry(k).or_default().add(&s);
    }
}

/// Transaction operations applying rollup deltas (atomic ADDs, so
/// concurrent writes to other orders never lose an update).
pub fn ops(deltas: &BTreeMap<Key, Sums>) -> Vec<TxOp> {
    deltas.iter().map(|(k, s)| TxOp::Update { key: k.clone(), actions: s.actions(), condition: None }).collect()
}

/// Update actions for one rollup item (bulk seeding writes them one by one).
pub fn add_actions(s: &Sums) -> Vec<UpdateAction> {
    s.actions()
}
