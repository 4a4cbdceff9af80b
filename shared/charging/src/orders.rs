//! Order rules: statuses, stop reasons, anomaly ("stuck") detection,
//! refunds and the safe manual close.
//!
//! Everything here is a pure function of the order's facts and `now`, so a
//! list page, a nightly job and a test all flag the same orders.

use crate::money::Fen;
use serde::{Deserialize, Serialize};

/// One point of the meter curve shown on the order detail page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    pub ts: i64,
    /// Instantaneous power, W.
    pub power_w: i64,
    /// Energy delivered since the session start, Wh.
    pub energy_wh: i64,
    /// State of charge, %.
    pub soc: u8,
}

/// Maximum refund / close reason length, in characters.
pub const REASON_MAX_CHARS: usize = 200;

/// JSON: "charging" | "finished" | "abnormal" | "cancelled".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum OrderStatus {
    Charging,
    Finished,
    /// Ended abnormally (fault, lost communication, negative meter...);
    /// needs a look before it is settled.
    Abnormal,
    /// Never delivered energy (failed start, user cancelled before charging).
    Cancelled,
}

impl OrderStatus {
    pub const ALL: [OrderStatus; 4] = [OrderStatus::Charging, OrderStatus::Finished, OrderStatus::Abnormal, OrderStatus::Cancelled];
}

/// JSON: "unpaid" | "paid" | "refunded" | "partiallyRefunded" | "writtenOff" | "billed".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PaymentStatus {
    Unpaid,
    Paid,
    Refunded,
    PartiallyRefunded,
    /// Nothing was collected and finance wrote the amount off (a decision
    /// recorded on the order, never derived from its money).
    WrittenOff,
    /// A postpaid card's session: nothing collected yet, owed by the card's
    /// holder (their monthly bill); paid when finance records the payment.
    Billed,
}

/// How the user paid. JSON: camelCase names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PaymentMethod {
    Wechat,
    Alipay,
    /// Prepaid account balance in the operator's app.
    Balance,
    /// Operator-issued RFID/IC card.
    Card,
    Unionpay,
}

/// Why a session stopped. JSON: camelCase names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum StopReason {
    /// User stopped in the app / mini-program.
    UserApp,
    /// User swiped the card again.
    UserCard,
    /// Battery full or the SoC target reached (BMS request).
    Full,
    /// The user's preset amount / energy / time limit was reached.
    LimitReached,
    /// Prepaid balance ran out.
    InsufficientBalance,
    /// Operator remote stop from the back-office.
    RemoteStop,
    /// Emergency stop button pressed.
    EmergencyStop,
    /// Connector pulled out during charging.
    Unplugged,
    ChargerFault,
    VehicleFault,
    PowerLoss,
    CommunicationLost,
    /// Closed manually by staff (stuck/zombie order).
    ManualClose,
    Other,
}

impl StopReason {
    /// Reasons that mean the session ended abnormally.
    pub fn is_abnormal(self) -> bool {
        matches!(
            self,
            StopReason::EmergencyStop
                | StopReason::ChargerFault
                | StopReason::VehicleFault
                | StopReason::PowerLoss
                | StopReason::CommunicationLost
        )
    }
}

// ---------------------------------------------------------------- the order

/// A charging session and its bill: the one record of an order that the
/// stored row (with its tier lines and bookkeeping), the answers (with
/// names and anomalies) and the demo generator (with its curve and
/// refunds) each hold and flatten into their JSON. Money is integer fen,
/// energy Wh, times unix seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    /// "CD" + local start date + 10-digit sequence: unique, sorts by time.
    pub order_no: String,
    pub station_id: String,
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
    pub stop_reason: Option<StopReason>,
    pub occupancy_minutes: u32,
    pub electricity_fen: Fen,
    pub service_fen: Fen,
    pub parking_fen: Fen,
    pub discount_fen: Fen,
    pub amount_fen: Fen,
    pub paid_fen: Fen,
    pub refunded_fen: Fen,
    pub payment_method: Option<PaymentMethod>,
    pub payment_status: PaymentStatus,
}

/// Who, where and when a session started: what a new order is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionStart {
    pub order_no: String,
    pub station_id: String,
    pub pile_id: String,
    pub connector_id: String,
    pub user_id: String,
    pub plate: String,
    pub start_ts: i64,
    pub meter_start_wh: i64,
    pub soc_start: u8,
    pub payment_method: Option<PaymentMethod>,
}

impl Order {
    /// A session that has just started: charging, nothing delivered,
    /// billed or paid yet.
    pub fn started(s: SessionStart) -> Order {
        Order {
            order_no: s.order_no,
            station_id: s.station_id,
            pile_id: s.pile_id,
            connector_id: s.connector_id,
            user_id: s.user_id,
            plate: s.plate,
            start_ts: s.start_ts,
            stop_ts: None,
            meter_start_wh: s.meter_start_wh,
            meter_stop_wh: None,
            energy_wh: 0,
            soc_start: s.soc_start,
            soc_end: None,
            status: OrderStatus::Charging,
            stop_reason: None,
            occupancy_minutes: 0,
            electricity_fen: Fen::ZERO,
            service_fen: Fen::ZERO,
            parking_fen: Fen::ZERO,
            discount_fen: Fen::ZERO,
            amount_fen: Fen::ZERO,
            paid_fen: Fen::ZERO,
            refunded_fen: Fen::ZERO,
            payment_method: s.payment_method,
            payment_status: PaymentStatus::Unpaid,
        }
    }

    pub fn money(&self) -> OrderMoney {
        OrderMoney { amount: self.amount_fen, paid: self.paid_fen, refunded: self.refunded_fen }
    }

    /// Takes a pricing's amounts and gives back its tier lines, for the
    /// holder that keeps them (the energy stays the meter's: the caller
    /// decides whether the priced energy replaces it).
    #[must_use = "the tier lines belong with the order"]
    pub fn apply_priced(&mut self, priced: crate::pricing::PricedSession) -> Vec<crate::pricing::TierLine> {
        self.electricity_fen = priced.electricity_fen;
        self.service_fen = priced.service_fen;
        self.parking_fen = priced.parking_fen;
        self.discount_fen = priced.discount_fen;
        self.amount_fen = priced.amount_fen;
        priced.lines
    }
}

// ---------------------------------------------------------------- money state

/// The money state of one order. `amount` is what the session cost;
/// `paid` what was collected; `refunded` the sum of refunds so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderMoney {
    pub amount: Fen,
    pub paid: Fen,
    pub refunded: Fen,
}

impl OrderMoney {
    /// What may still be refunded: paid - refunded (never below 0).
    pub fn refundable(&self) -> Fen {
        Fen((self.paid.0 - self.refunded.0).max(0))
    }

    /// Payment status derived from the amounts (never stored independently,
    /// so it cannot disagree with them): nothing collected -> unpaid (also for
    /// zero-amount orders: nothing was collected); collected and nothing
    /// refunded -> paid; everything refunded -> refunded; else partially.
    pub fn payment_status(&self) -> PaymentStatus {
        if self.paid.0 <= 0 {
            PaymentStatus::Unpaid
        } else if self.refunded.0 <= 0 {
            PaymentStatus::Paid
        } else if self.refunded >= self.paid {
            PaymentStatus::Refunded
        } else {
            PaymentStatus::PartiallyRefunded
        }
    }
}

/// A refund request from the finance page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest {
    pub amount: Fen,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefundError {
    #[error("refund amount must be greater than 0")]
    NotPositive,
    #[error("nothing left to refund (paid {paid}, refunded {refunded})")]
    NothingRefundable { paid: Fen, refunded: Fen },
    #[error("refund {requested} exceeds the refundable {refundable} (paid - refunded)")]
    ExceedsRefundable { requested: Fen, refundable: Fen },
    /// Other requests still await approval and this one does not fit beside them.
    #[error("refund {requested} exceeds the {requestable} still refundable (paid {paid} - refunded {refunded} - pending requests {pending})")]
    ExceedsRequestable { requested: Fen, requestable: Fen, paid: Fen, refunded: Fen, pending: Fen },
    #[error("a refund reason is required")]
    EmptyReason,
    #[error("refund reason must be at most {max} characters (got {chars})")]
    ReasonTooLong { chars: usize, max: usize },
    #[error("refund amount overflow")]
    Overflow,
}

impl RefundError {
    /// The field of the request the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            RefundError::EmptyReason | RefundError::ReasonTooLong { .. } => "reason",
            _ => "amount",
        }
    }
}

fn reason_error(reason: &str) -> Option<RefundError> {
    let chars = reason.trim().chars().count();
    if chars == 0 {
        Some(RefundError::EmptyReason)
    } else if chars > REASON_MAX_CHARS {
        Some(RefundError::ReasonTooLong { chars, max: REASON_MAX_CHARS })
    } else {
        None
    }
}

/// Every problem with a refund request (for the form); empty = acceptable.
pub fn refund_errors(money: &OrderMoney, req: &RefundRequest) -> Vec<RefundError> {
    let mut out = Vec::new();
    let refundable = money.refundable();
    if !req.amount.is_positive() {
        out.push(RefundError::NotPositive);
    } else if !refundable.is_positive() {
        out.push(RefundError::NothingRefundable { paid: money.paid, refunded: money.refunded });
    } else if req.amount > refundable {
        out.push(RefundError::ExceedsRefundable { requested: req.amount, refundable });
    }
    out.extend(reason_error(&req.reason));
    out
}

/// What a new request may still ask for: paid - refunded - what pending
/// requests already ask (never below 0). Requests are checked against this,
/// so pending requests can never add up to more than was paid.
pub fn requestable(money: &OrderMoney, pending: Fen) -> Fen {
    Fen((money.refundable().0 - pending.0.max(0)).max(0))
}

/// Every problem with a new request while `pending` is already requested
/// and awaiting approval (for the form and the request endpoint).
pub fn request_errors(money: &OrderMoney, pending: Fen, req: &RefundRequest) -> Vec<RefundError> {
    let mut out = refund_errors(money, req);
    let requestable = requestable(money, pending);
    if out.is_empty() && pending.is_positive() && req.amount > requestable {
        out.insert(0, RefundError::ExceedsRequestable { requested: req.amount, requestable, paid: money.paid, refunded: money.refunded, pending });
    }
    out
}

/// Applies a refund to the money state: the new state, or the first problem.
/// The handler must apply it with a conditional write on the *old* state (or
/// a per-request idempotency key) so concurrent clicks cannot both pass.
pub fn apply_refund(money: &OrderMoney, req: &RefundRequest) -> Result<OrderMoney, RefundError> {
    if let Some(e) = refund_errors(money, req).into_iter().next() {
        return Err(e);
    }
    let refunded = money.refunded.checked_add(req.amount).ok_or(RefundError::Overflow)?;
    Ok(OrderMoney { refunded, ..*money })
}

// ---------------------------------------------------------------- anomalies

/// What the anomaly detector needs to know about an order (the handler
/// fills it from the stored record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderFacts {
    pub status: OrderStatus,
    pub start_ts: i64,
    #[serde(default)]
    pub stop_ts: Option<i64>,
    #[serde(default)]
    pub meter_start_wh: Option<i64>,
    #[serde(default)]
    pub meter_stop_wh: Option<i64>,
    /// The most negative delta between consecutive meter samples, if any
    /// sample went backwards (None = none did / unknown).
    #[serde(default)]
    pub worst_sample_delta_wh: Option<i64>,
    /// Whether the order holds a tariff snapshot to be priced with.
    pub has_price_snapshot: bool,
}

impl OrderFacts {
    /// Metered energy if both readings are known.
    pub fn energy_wh(&self) -> Option<i64> {
        Some(self.meter_stop_wh? - self.meter_start_wh?)
    }
}

/// Thresholds of the checks. Defaults: a charging order with no stop after
/// 12 h is stuck (a full AC charge of a large battery takes ~10 h); a stopped
/// session longer than 24 h is implausible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyThresholds {
    pub stuck_after_secs: i64,
    pub too_long_secs: i64,
}

impl Default for AnomalyThresholds {
    fn default() -> Self {
        Self { stuck_after_secs: 12 * 3600, too_long_secs: 24 * 3600 }
    }
}

/// Something a charger's messages about a session got wrong, recorded on
/// the order when it happens (the charger is always answered, so the
/// order is where staff see it). JSON: camelCase names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ChargerProblem {
    /// The session started with an idTag that was not accepted (unknown,
    /// blocked, expired): a start made while the charger was offline.
    UnauthorizedIdTag,
    /// A start or stop time was implausible (clock not set, far future):
    /// the time of arrival was recorded instead.
    ClockNotSet,
    /// A second StopTransaction with other values came for a stopped session.
    StoppedTwice,
    /// The readings could not be priced (times or meter going backwards).
    Unpriceable,
    /// The charger's events of the transaction have gaps (OCPP 2.0.1
    /// TransactionEvent seqNo): some were never received.
    EventsMissing,
    /// The charger's own bill (YKC's transaction record) differs from the
    /// product's pricing of the same energy by more than a fen.
    AmountDiffers,
    /// The charger reported a session the platform never started (a YKC
    /// record of an unknown order number): made an order all the same.
    UnknownSession,
    /// The station started the session without authorization (OCPP 2.0.1
    /// NoAuthorization: a free-vend station's start button): no card, no
    /// one billed.
    NoAuthorization,
}

/// One finding. JSON: `{"kind": "neverStopped", "runningSecs": 50000}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Anomaly {
    /// Still "charging" long after it started: a zombie order.
    NeverStopped { running_secs: i64 },
    /// Finished without delivering energy.
    ZeroEnergy,
    /// The meter went backwards (stop < start, or between samples).
    NegativeMeter { delta_wh: i64 },
    /// Finished but the stop reading is missing, so it cannot be priced.
    MissingMeterStop,
    /// No tariff snapshot to price with.
    MissingPriceSnapshot,
    /// Stopped, but the recorded duration is implausibly long.
    TooLong { duration_secs: i64 },
    /// Stop time before start time.
    StopBeforeStart,
    /// What the charger got wrong (see [`ChargerProblem`]).
    Charger { problem: ChargerProblem },
}

/// All anomalies of an order at `now` (empty = healthy). Cancelled orders
/// are only checked for time/meter consistency.
pub fn detect_anomalies(o: &OrderFacts, now: i64, th: &AnomalyThresholds) -> Vec<Anomaly> {
    let mut out = Vec::new();
    let live = o.status != OrderStatus::Cancelled;
    if o.status == OrderStatus::Charging && o.stop_ts.is_none() && now - o.start_ts > th.stuck_after_secs {
        out.push(Anomaly::NeverStopped { running_secs: now - o.start_ts });
    }
    if let Some(stop) = o.stop_ts {
        if stop < o.start_ts {
            out.push(Anomaly::StopBeforeStart);
        } else if stop - o.start_ts > th.too_long_secs {
            out.push(Anomaly::TooLong { duration_secs: stop - o.start_ts });
        }
    }
    let energy = o.energy_wh();
    if o.status == OrderStatus::Finished {
        match energy {
            None => out.push(Anomaly::MissingMeterStop),
            Some(0) => out.push(Anomaly::ZeroEnergy),
            _ => {}
        }
    }
    let worst = [energy.filter(|&e| e < 0), o.worst_sample_delta_wh.filter(|&d| d < 0)].into_iter().flatten().min();
    if let Some(delta_wh) = worst {
        out.push(Anomaly::NegativeMeter { delta_wh });
    }
    if live && !o.has_price_snapshot {
        out.push(Anomaly::MissingPriceSnapshot);
    }
    out
}

// ---------------------------------------------------------------- manual close

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CloseError {
    #[error("only charging or abnormal orders can be closed manually (status: {0:?})")]
    NotClosable(OrderStatus),
    #[error("a reason is required to close an order manually")]
    EmptyReason,
    #[error("reason must be at most {max} characters (got {chars})")]
    ReasonTooLong { chars: usize, max: usize },
}

impl CloseError {
    /// The field of the close the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            CloseError::NotClosable(_) => "status",
            CloseError::EmptyReason | CloseError::ReasonTooLong { .. } => "reason",
        }
    }
}

/// The outcome of a manual close; the handler records it with who and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseOutcome {
    pub status: OrderStatus,
    pub stop_reason: StopReason,
}

/// Decides a safe manual close of a stuck/abnormal order: only from
/// `charging` or `abnormal`, with a reason; an order that delivered energy is
/// `finished` (priced with its last reading), one that did not is `cancelled`
/// (nothing to bill).
pub fn manual_close(o: &OrderFacts, reason: &str) -> Result<CloseOutcome, CloseError> {
    if !matches!(o.status, OrderStatus::Charging | OrderStatus::Abnormal) {
        return Err(CloseError::NotClosable(o.status));
    }
    let chars = reason.trim().chars().count();
    if chars == 0 {
        return Err(CloseError::EmptyReason);
    }
    if chars > REASON_MAX_CHARS {
        return Err(CloseError::ReasonTooLong { chars, max: REASON_MAX_CHARS });
    }
    let delivered = o.energy_wh().is_some_and(|e| e > 0);
    Ok(CloseOutcome {
        status: if delivered { OrderStatus::Finished } else { OrderStatus::Cancelled },
        stop_reason: StopReason::ManualClose,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(amount: i64, paid: i64, refunded: i64) -> OrderMoney {
        OrderMoney { amount: Fen(amount), paid: Fen(paid), refunded: Fen(refunded) }
    }

    fn req(amount: i64, reason: &str) -> RefundRequest {
        RefundRequest { amount: Fen(amount), reason: reason.into() }
    }

    #[test]
    fn payment_status_derivation() {
        assert_eq!(money(1000, 0, 0).payment_status(), PaymentStatus::Unpaid);
        assert_eq!(money(0, 0, 0).payment_status(), PaymentStatus::Unpaid);
        assert_eq!(money(1000, 1000, 0).payment_status(), PaymentStatus::Paid);
        assert_eq!(money(1000, 1000, 1).payment_status(), PaymentStatus::PartiallyRefunded);
        assert_eq!(money(1000, 1000, 1000).payment_status(), PaymentStatus::Refunded);
    }

    #[test]
    fn requests_count_what_is_pending() {
        // Paid 16.03, a 5.00 request pending: 11.03 may still be requested.
        let m = money(1603, 1603, 0);
        assert_eq!(requestable(&m, Fen(500)), Fen(1103));
        assert!(request_errors(&m, Fen(500), &req(1103, "故障")).is_empty());
        let e = request_errors(&m, Fen(500), &req(1603, "故障"));
        assert!(matches!(e[0], RefundError::ExceedsRequestable { requestable: Fen(1103), .. }), "{e:?}");
        assert!(e[0].to_string().contains("11.03 still refundable"), "{}", e[0]);
        assert_eq!(e[0].field(), "amount");
        // Everything requested: nothing left, and the message says 0.00.
        let e = request_errors(&money(1000, 1000, 200), Fen(800), &req(1, "故障"));
        assert!(e[0].to_string().contains("0.00 still refundable"), "{e:?}");
        // Without pending requests the old messages stay.
        assert!(matches!(request_errors(&m, Fen::ZERO, &req(1604, "x"))[0], RefundError::ExceedsRefundable { .. }));
        assert_eq!(requestable(&money(1000, 1000, 900), Fen(500)), Fen::ZERO);
    }

    #[test]
    fn refunds_never_exceed_paid_minus_refunded() {
        let m = money(1000, 1000, 0);
        let m = apply_refund(&m, &req(300, "充电枪故障")).unwrap();
        assert_eq!(m, money(1000, 1000, 300));
        assert_eq!(m.payment_status(), PaymentStatus::PartiallyRefunded);
        assert_eq!(
            apply_refund(&m, &req(701, "x")),
            Err(RefundError::ExceedsRefundable { requested: Fen(701), refundable: Fen(700) })
        );
        let m = apply_refund(&m, &req(700, "x")).unwrap();
        assert_eq!(m.payment_status(), PaymentStatus::Refunded);
        assert_eq!(m.refundable(), Fen(0));
        assert!(matches!(apply_refund(&m, &req(1, "x")), Err(RefundError::NothingRefundable { .. })));
        assert!(matches!(apply_refund(&money(1000, 0, 0), &req(1, "x")), Err(RefundError::NothingRefundable { .. })));
    }

    #[test]
    fn refund_validation() {
        let m = money(1000, 1000, 0);
        assert_eq!(apply_refund(&m, &req(0, "x")), Err(RefundError::NotPositive));
        assert_eq!(apply_refund(&m, &req(-5, "x")), Err(RefundError::NotPositive));
        assert_eq!(apply_refund(&m, &req(5, "  ")), Err(RefundError::EmptyReason));
        assert_eq!(apply_refund(&m, &req(5, &"退".repeat(200))).unwrap().refunded, Fen(5));
        assert_eq!(apply_refund(&m, &req(5, &"退".repeat(201))), Err(RefundError::ReasonTooLong { chars: 201, max: 200 }));
        // All problems at once for the form.
        let errs = refund_errors(&m, &req(0, ""));
        assert_eq!(errs, [RefundError::NotPositive, RefundError::EmptyReason]);
        let e = RefundError::ExceedsRefundable { requested: Fen(701), refundable: Fen(700) };
        assert_eq!(e.field(), "amount");
        assert!(e.to_string().contains("7.01") && e.to_string().contains("7.00"), "{e}");
    }

    fn facts(status: OrderStatus) -> OrderFacts {
        OrderFacts {
            status,
            start_ts: 1_000_000,
            stop_ts: Some(1_000_000 + 3600),
            meter_start_wh: Some(50_000),
            meter_stop_wh: Some(80_000),
            worst_sample_delta_wh: None,
            has_price_snapshot: true,
        }
    }

    #[test]
    fn healthy_orders_have_no_anomalies() {
        let th = AnomalyThresholds::default();
        assert!(detect_anomalies(&facts(OrderStatus::Finished), 2_000_000, &th).is_empty());
        let charging = OrderFacts { stop_ts: None, meter_stop_wh: None, ..facts(OrderStatus::Charging) };
        assert!(detect_anomalies(&charging, 1_000_000 + 12 * 3600, &th).is_empty());
    }

    #[test]
    fn detects_each_anomaly() {
        let th = AnomalyThresholds::default();
        let charging = OrderFacts { stop_ts: None, meter_stop_wh: None, ..facts(OrderStatus::Charging) };
        assert_eq!(
            detect_anomalies(&charging, 1_000_000 + 12 * 3600 + 1, &th),
            [Anomaly::NeverStopped { running_secs: 12 * 3600 + 1 }]
        );
        let zero = OrderFacts { meter_stop_wh: Some(50_000), ..facts(OrderStatus::Finished) };
        assert_eq!(detect_anomalies(&zero, 0, &th), [Anomaly::ZeroEnergy]);
        let neg = OrderFacts { meter_stop_wh: Some(40_000), worst_sample_delta_wh: Some(-3), ..facts(OrderStatus::Abnormal) };
        assert_eq!(detect_anomalies(&neg, 0, &th), [Anomaly::NegativeMeter { delta_wh: -10_000 }]);
        let neg_sample = OrderFacts { worst_sample_delta_wh: Some(-7), ..facts(OrderStatus::Finished) };
        assert_eq!(detect_anomalies(&neg_sample, 0, &th), [Anomaly::NegativeMeter { delta_wh: -7 }]);
        let no_price = OrderFacts { has_price_snapshot: false, ..facts(OrderStatus::Finished) };
        assert_eq!(detect_anomalies(&no_price, 0, &th), [Anomaly::MissingPriceSnapshot]);
        let cancelled = OrderFacts { has_price_snapshot: false, ..facts(OrderStatus::Cancelled) };
        assert!(detect_anomalies(&cancelled, 0, &th).is_empty());
        let long = OrderFacts { stop_ts: Some(1_000_000 + 30 * 3600), ..facts(OrderStatus::Finished) };
        assert_eq!(detect_anomalies(&long, 0, &th), [Anomaly::TooLong { duration_secs: 30 * 3600 }]);
        let backwards = OrderFacts { stop_ts: Some(999_000), ..facts(OrderStatus::Finished) };
        assert_eq!(detect_anomalies(&backwards, 0, &th), [Anomaly::StopBeforeStart]);
        let no_stop_meter = OrderFacts { meter_stop_wh: None, ..facts(OrderStatus::Finished) };
        assert_eq!(detect_anomalies(&no_stop_meter, 0, &th), [Anomaly::MissingMeterStop]);
        // Several at once.
        let bad = OrderFacts { meter_stop_wh: Some(50_000), has_price_snapshot: false, stop_ts: Some(1_000_000 + 90_000), ..facts(OrderStatus::Finished) };
        assert_eq!(
            detect_anomalies(&bad, 0, &th),
            [Anomaly::TooLong { duration_secs: 90_000 }, Anomaly::ZeroEnergy, Anomaly::MissingPriceSnapshot]
        );
        assert_eq!(
            serde_json::to_value(Anomaly::NeverStopped { running_secs: 5 }).unwrap(),
            serde_json::json!({"kind": "neverStopped", "runningSecs": 5})
        );
    }

    #[test]
    fn manual_close_rules() {
        let stuck = OrderFacts { stop_ts: None, meter_stop_wh: Some(62_000), ..facts(OrderStatus::Charging) };
        assert_eq!(
            manual_close(&stuck, "桩离线，人工结单"),
            Ok(CloseOutcome { status: OrderStatus::Finished, stop_reason: StopReason::ManualClose })
        );
        let zero = OrderFacts { meter_stop_wh: None, ..stuck };
        assert_eq!(manual_close(&zero, "x").unwrap().status, OrderStatus::Cancelled);
        assert_eq!(manual_close(&stuck, " "), Err(CloseError::EmptyReason));
        assert!(matches!(manual_close(&stuck, &"x".repeat(201)), Err(CloseError::ReasonTooLong { .. })));
        assert_eq!(manual_close(&facts(OrderStatus::Finished), "x"), Err(CloseError::NotClosable(OrderStatus::Finished)));
        assert_eq!(CloseError::NotClosable(OrderStatus::Cancelled).field(), "status");
    }

    #[test]
    fn enum_json_names() {
        assert_eq!(serde_json::to_string(&PaymentStatus::PartiallyRefunded).unwrap(), "\"partiallyRefunded\"");
        assert_eq!(serde_json::to_string(&OrderStatus::Charging).unwrap(), "\"charging\"");
        assert_eq!(serde_json::to_string(&StopReason::InsufficientBalance).unwrap(), "\"insufficientBalance\"");
        assert_eq!(serde_json::to_string(&PaymentMethod::Wechat).unwrap(), "\"wechat\"");
        let m: OrderMoney = serde_json::from_str(r#"{"amount":1,"paid":1,"refunded":0}"#).unwrap();
        assert_eq!(m.payment_status(), PaymentStatus::Paid);
    }
}
