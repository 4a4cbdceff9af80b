//! Charging orders: list with filters and sums, detail, manual close of a
//! stuck order, refund requests and their approval, settling what an
//! order owes (offline payment or write-off: finance, like refund approval).

use charging::orders::{manual_close, ChargerProblem, OrderStatus};
use charging::pricing::{price_session, MeterSample, PricingOptions};
use charging::Fen;
use envelope::{msg, ApiError, Text};
use permission::{REFUND_APPROVE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::orders::list::{self, Filter};
use crate::domain::orders::refunds::{self, QueueEntry, RefundRecord, RefundStatus};
use crate::domain::orders::settle::{self, OfflineMethod, Settle};
use crate::domain::orders::view::{fill_pile_codes, OrderDetailView, OrderView, SumsView, TariffSnapshotView};
use crate::domain::operations;
use crate::domain::orders::{self as orders, keys};
use crate::domain::store_error;
use crate::reply::Reply;
use crate::params::{cursor_page_size, filter_text, DayRange, IdQuery};
use crate::request::Call;
use crate::routes::{Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): orders, refunds and the ledger, with the pointers and rollups they keep.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    // PILE: orders stored before they kept their pile's code read it from the pile.
    // A charger session closed by hand is paid by its card (the transaction,
    // a prepaid card's wallet, balance entry and ledger).
    crate::iam::KeyUse::new(&[ORDERS_BY_MONTH, ORDERS_BY_STATION, ORDERS_BY_STATUS, REFUNDS_BY_STATUS, PILE, OCPP_TRANSACTION], &[ORDER, LEDGER, ORDER_POINTER, ROLLUP, CARD, CARD_BALANCE, CARD_LEDGER])
};

pub fn routes() -> Vec<Route> {
    use crate::routes::route;
    vec![
        route!(GET "/order/getList" => "order_list", Permission(SYSTEM_READ), unaudited, "Charging orders filtered by time, station, status, payment, number, user or plate, with the filter's sums; sorted by start time, amount or energy", list_orders, query = OrderListQuery, data = OrderList),
        route!(GET "/order/detail" => "order_detail", Permission(SYSTEM_READ), unaudited, "One order with tier lines, tariff snapshot, meter curve and refunds", order_detail, query = IdQuery, data = OrderDetailView; errors = &[404]),
        route!(POST "/order/close" => "order_close", Permission(SYSTEM_WRITE), audited, "Close a stuck or abnormal order manually (reason required)", close_order, body = CloseBody, data = OrderView),
        route!(POST "/order/refund/request" => "refund_request", Permission(SYSTEM_WRITE), audited, "Request a refund of an order (reason required); pending requests together never exceed paid - refunded", refund_request, body = RefundRequestBody, data = RefundRecord),
        route!(POST "/order/refund/approve" => "refund_approve", Permission(REFUND_APPROVE), audited, "Approve a pending refund (Admin), with an optional note: applied at most once, never above paid - refunded", refund_approve, body = DecideBody, data = RefundApproval),
        route!(POST "/order/refund/approval/reject" => "refund_reject", Permission(REFUND_APPROVE), audited, "Reject a pending refund (Admin), with an optional note", refund_reject, body = DecideBody, data = RefundRecord),
        route!(POST "/order/settle/offlinePayment" => "order_offline_payment", Permission(REFUND_APPROVE), audited, "Record a payment received offline for what an order owes (finance: method, reference, the whole amount owed); once per order", offline_payment, body = OfflinePaymentBody, data = OrderView),
        route!(POST "/order/settle/writeOff" => "order_write_off", Permission(REFUND_APPROVE), audited, "Write off what an order owes, with a reason (finance); once per order", write_off, body = WriteOffBody, data = OrderView),
        route!(GET "/order/refund/getList" => "refund_list", Permission(SYSTEM_READ), unaudited, "Refund requests by status with their order's paid, refunded and remaining amounts; pending oldest first, decided newest first", refund_list, query = RefundListQuery, data = RefundList),
    ]
}

/// GET /order/getList
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderListQuery {
    #[serde(flatten)]
    pub range: DayRange,
    #[serde(default, deserialize_with = "filter_text")]
    #[schemars(length(max = 64))]
    pub station_id: Option<String>,
    #[serde(default)]
    pub status: Option<OrderStatus>,
    #[serde(default)]
    pub payment_status: Option<charging::orders::PaymentStatus>,
    #[serde(default, deserialize_with = "filter_text")]
    #[schemars(length(max = 64))]
    pub order_no: Option<String>,
    #[serde(default, deserialize_with = "filter_text")]
    #[schemars(length(max = 64))]
    pub user_id: Option<String>,
    #[serde(default, deserialize_with = "filter_text")]
    #[schemars(length(max = 64))]
    pub plate: Option<String>,
    /// `stuck` (charging for too long) or `flagged`.
    #[serde(default)]
    pub anomaly: Option<list::AnomalyFilter>,
    /// Items a page (default 20, at most 500).
    #[serde(default, deserialize_with = "cursor_page_size")]
    #[schemars(range(min = 1, max = 500))]
    pub page_size: Option<u32>,
    /// The `cursor` of the previous page; absent for the first page.
    pub cursor: Option<String>,
    /// `newest` first (default) or `oldest` first (also the pager's jump to
    /// the last page); `amountDesc`/`amountAsc` (amount, then number) or
    /// `energyDesc`/`energyAsc` (energy of finished sessions; one still
    /// charging counts 0), which take the time range alone (other filters:
    /// 400). A cursor continues the sort it was made for.
    #[serde(default)]
    pub sort: Option<list::SortBy>,
}

/// GET /order/refund/getList
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundListQuery {
    /// Default `pending`.
    #[serde(default)]
    pub status: Option<RefundStatus>,
    /// `oldest` or `newest` first; default `oldest` for pending requests
    /// (a queue: the longest waiting first), `newest` for decided ones.
    #[serde(default)]
    pub sort: Option<crate::params::Direction>,
    /// Items a page (default 20, at most 200).
    #[serde(default, deserialize_with = "crate::params::page_size")]
    #[schemars(range(min = 1, max = 200))]
    pub page_size: Option<u32>,
    pub cursor: Option<String>,
}

/// GET /order/getList answer.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderList {
    /// This page, in the order `sort` asked (newest first by default).
    pub list: Vec<OrderView>,
    /// Pass as `cursor` for the next page; null on the last page. A page
    /// can be short (filters applied within a read budget) and still have
    /// a cursor.
    pub cursor: Option<String>,
    /// The whole filter's sums, on the first page only; null on later
    /// pages and for filters no rollup covers.
    pub sums: Option<SumsView>,
    /// The number of orders matching (`sums.orders`); null when `sums` is.
    pub total: Option<i64>,
    /// The range listed (`YYYY-MM-DD`, China local days).
    pub from: String,
    pub to: String,
}

/// POST /order/refund/approve answer: the decided request and the order after it.
#[derive(Serialize, JsonSchema)]
pub struct RefundApproval {
    pub refund: RefundRecord,
    pub order: OrderView,
}

/// GET /order/refund/getList answer.
#[derive(Serialize, JsonSchema)]
pub struct RefundList {
    pub list: Vec<QueueEntry>,
    /// Null on the last page.
    pub cursor: Option<String>,
}


pub fn today(ctx: &AppCtx) -> i64 {
    keys::local_day(ctx.now())
}

/// The list's filters from its parsed query: the range's defaults and
/// length rule applied, order numbers and plates upper-cased.
fn filter_of(q: &OrderListQuery, today: i64) -> Result<Filter, ApiError> {
    let (from_day, to_day) = q.range.days(today, list::MAX_RANGE_DAYS)?;
    Ok(Filter {
        from_day,
        to_day,
        station: q.station_id.clone(),
        status: q.status,
        payment: q.payment_status,
        order_no: q.order_no.as_ref().map(|s| s.to_uppercase()),
        user: q.user_id.clone(),
        plate: q.plate.as_ref().map(|s| s.to_uppercase()),
        anomaly: q.anomaly,
    })
}

/// GET /order/getList
async fn list_orders(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: OrderListQuery = call.query()?;
    let filter = filter_of(&q, today(ctx))?;
    let size = q.page_size.unwrap_or(list::DEFAULT_PAGE);
    let sort = q.sort.unwrap_or_default();
    let cursor = q.cursor.as_deref();
    let page = list::page_sorted(ctx, &filter, size, cursor, sort).await?;
    // Sums only with the first page: they do not change while paging.
    let sums = if cursor.is_none() { list::sums(ctx, &filter).await?.map(SumsView::from) } else { None };
    let now = ctx.now();
    let th = operations::current(ctx).await?.anomaly_thresholds();
    let mut list: Vec<OrderView> = page.rows.iter().map(|r| OrderView::of(r, now, &th)).collect();
    fill_pile_codes(ctx, &mut list.iter_mut().collect::<Vec<_>>()).await?;
    Ok(Reply::data(OrderList {
        list,
        cursor: page.cursor,
        total: sums.map(|s| s.sums.orders),
        sums,
        from: keys::iso_day(filter.from_day),
        to: keys::iso_day(filter.to_day),
    }))
}

/// GET /order/detail?id=
async fn order_detail(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let IdQuery { id } = call.query()?;
    let no = id.to_uppercase();
    let (row, detail, refunds) = orders::load_full(ctx, &no).await?;
    let now = ctx.now();
    let th = operations::current(ctx).await?.anomaly_thresholds();
    // From the requests read with the order (the same partition).
    let pending = Fen(refunds.iter().filter(|r| r.status == RefundStatus::Pending).map(|r| r.amount_fen.0).sum());
    let mut order = OrderView::of(&row, now, &th);
    fill_pile_codes(ctx, &mut [&mut order]).await?;
    Ok(Reply::data(OrderDetailView {
        order,
        lines: row.lines.clone(),
        curve: detail.as_ref().map(|d| d.curve.clone()),
        tariff: detail.as_ref().and_then(|d| d.tariff.as_ref()).map(TariffSnapshotView::from),
        refunds,
        refundable_fen: charging::orders::requestable(&row.order.money(), pending),
        pending_refund_fen: pending,
        duration_secs: row.order.stop_ts.unwrap_or(now) - row.order.start_ts,
    }))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["orderNo", "reason"]))]
pub struct CloseBody {
    order_no: String,
    #[schemars(length(min = 1, max = 200))]
    #[serde(default)]
    reason: String,
}

/// POST /order/close {orderNo, reason}: closes a stuck/abnormal order. One
/// that delivered energy is priced with its tariff snapshot up to its last
/// meter reading and becomes finished; one that did not is cancelled.
async fn close_order(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: CloseBody = call.req.payload()?;
    let by = call.caller()?.username().to_string();
    let no = body.order_no.trim().to_uppercase();
    let (before, detail, _) = orders::load_full(ctx, &no).await?;
    let curve = detail.as_ref().map(|d| d.curve.clone()).unwrap_or_default();
    // The last reading of an unstopped order is the last curve sample.
    let mut facts = before.facts();
    if facts.meter_stop_wh.is_none() {
        facts.meter_stop_wh = curve.last().map(|p| before.order.meter_start_wh + p.energy_wh);
    }
    let outcome = manual_close(&facts, &body.reason).map_err(|e| ApiError::bad_request(crate::messages::charging::close(&e)))?;
    let now = ctx.now();
    let mut after = before.clone();
    after.order.status = outcome.status;
    after.order.stop_reason = Some(outcome.stop_reason);
    after.order.stop_ts = Some(before.order.stop_ts.or(curve.last().map(|p| p.ts)).unwrap_or(now));
    after.order.meter_stop_wh = facts.meter_stop_wh;
    after.closed_by = Some(by);
    after.close_reason = Some(body.reason.trim().to_string());
    after.closed_at = Some(now);
    after.version = before.version + 1;
    // Why the close could not bill the session, told to the closer and kept
    // on the order (the "could not be priced" anomaly) so finance sees an
    // unbilled order rather than a finished one that silently cost nothing.
    let mut unpriced: Option<Text> = None;
    if outcome.status == OrderStatus::Finished && before.order.amount_fen == Fen::ZERO {
        if let Some(tariff) = detail.as_ref().and_then(|d| d.tariff.as_ref()) {
            let samples: Vec<MeterSample> = curve.iter().map(|p| MeterSample::new(p.ts, before.order.meter_start_wh + p.energy_wh)).collect();
            match price_session(tariff, &samples, &PricingOptions::default()) {
                Ok(priced) => {
                    after.order.energy_wh = priced.energy_wh;
                    after.apply_priced(priced);
                }
                Err(e) => {
                    tracing::warn!(order = %no, error = %e, "a manually closed order could not be priced");
                    if !after.charger_problems.contains(&ChargerProblem::Unpriceable) {
                        after.charger_problems.push(ChargerProblem::Unpriceable);
                    }
                    unpriced = Some(crate::messages::charging::pricing(&e));
                }
            }
        }
    }
    // A charger session is paid by its card's arrangement as it closes, by hand too.
    let mut card_ops = Vec::new();
    if before.order.status == OrderStatus::Charging {
        if let Some(tx) = match before.transaction_id {
            Some(id) => crate::domain::chargers::sessions::get_transaction(ctx, id).await?,
            None => None,
        } {
            card_ops = crate::domain::chargers::sessions::pay_by_card(ctx, &tx, &mut after, now).await?;
        }
    }
    let mut ops = orders::change_ops(&before, &after);
    ops.extend(card_ops);
    ctx.store.transact(ops).await.map_err(store_error)?;
    let th = operations::current(ctx).await?.anomaly_thresholds();
    let mut view = OrderView::of(&after, now, &th);
    fill_pile_codes(ctx, &mut [&mut view]).await?;
    let said = match unpriced {
        None => msg::orders::close::closed(),
        Some(why) => msg::orders::close::closed_unpriced(why),
    };
    Ok(Reply::data_with_msg(view, said))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["orderNo", "amount", "reason"]))]
pub struct RefundRequestBody {
    order_no: String,
    /// Yuan with at most 2 decimals, as a string ("12.34") or a number.
    amount: YuanAmount,
    #[schemars(length(min = 1, max = 200))]
    #[serde(default)]
    reason: String,
}

/// How `amount` may be written: yuan with at most 2 decimals, as text
/// ("12.34") or a number. Anything else is a 400 naming the field (the
/// `expecting` text is completed with the field's name by
/// `crate::request`).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged, expecting = "\u{1e}\u{1c}refunds.yuanAmount")]
enum YuanAmount {
    Text(#[schemars(regex(pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$"))] String),
    Number(#[schemars(range(min = 0.01))] serde_json::Number),
}

impl YuanAmount {
    fn fen(&self) -> Result<Fen, ApiError> {
        let s = match self {
            YuanAmount::Text(s) => s.trim().to_string(),
            YuanAmount::Number(n) => n.to_string(),
        };
        Fen::parse_yuan(&s).map_err(|_| ApiError::bad_request(msg::refunds::amount_not_yuan(format!("{s:?}"))))
    }
}

/// POST /order/refund/request {orderNo, amount (yuan), reason}
async fn refund_request(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: RefundRequestBody = call.req.payload()?;
    let amount = body.amount.fen()?;
    let by = call.caller()?.username().to_string();
    let rec = refunds::request(ctx, &body.order_no.trim().to_uppercase(), amount, &body.reason, &by).await?;
    Ok(Reply::data_with_msg(rec, msg::refunds::requested()))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecideBody {
    order_no: String,
    refund_id: String,
    /// Optional; shown with the decision on the order.
    #[schemars(length(max = 200))]
    #[serde(default)]
    note: String,
}

impl DecideBody {
    fn checked(call: &Call) -> Result<DecideBody, ApiError> {
        let body: DecideBody = call.req.payload()?;
        if body.note.trim().chars().count() > 200 {
            return Err(ApiError::bad_request(msg::refunds::note_too_long()));
        }
        Ok(body)
    }
}

/// POST /order/refund/approve {orderNo, refundId, note?}
async fn refund_approve(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body = DecideBody::checked(&call)?;
    let by = call.caller()?.username().to_string();
    let (rec, order) = refunds::approve(ctx, &body.order_no.trim().to_uppercase(), body.refund_id.trim(), &by, &body.note).await?;
    let mut view = OrderView::of(&order, ctx.now(), &operations::current(ctx).await?.anomaly_thresholds());
    fill_pile_codes(ctx, &mut [&mut view]).await?;
    Ok(Reply::data_with_msg(RefundApproval { refund: rec, order: view }, msg::refunds::approved()))
}

/// POST /order/refund/approval/reject {orderNo, refundId, note?}
async fn refund_reject(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body = DecideBody::checked(&call)?;
    let by = call.caller()?.username().to_string();
    let rec = refunds::reject(ctx, &body.order_no.trim().to_uppercase(), body.refund_id.trim(), &by, &body.note).await?;
    Ok(Reply::data_with_msg(rec, msg::refunds::rejected()))
}

/// GET /order/refund/getList?status=pending|approved|rejected
async fn refund_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: RefundListQuery = call.query()?;
    let status = q.status.unwrap_or(RefundStatus::Pending);
    let oldest_first = q.sort.map_or(status == RefundStatus::Pending, |d| d == crate::params::Direction::Oldest);
    let size = q.page_size.unwrap_or(20);
    let (list, cursor) = refunds::list(ctx, status, oldest_first, size, q.cursor).await?;
    Ok(Reply::data(RefundList { list: refunds::with_orders(ctx, list).await?, cursor }))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["orderNo", "method", "amount"]))]
pub struct OfflinePaymentBody {
    order_no: String,
    method: OfflineMethod,
    /// The receipt or transfer reference (optional).
    #[schemars(length(max = 100))]
    #[serde(default)]
    reference: String,
    /// Yuan with at most 2 decimals: the whole amount owed.
    amount: YuanAmount,
    /// Optional note.
    #[schemars(length(max = 200))]
    #[serde(default)]
    note: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["orderNo", "reason"]))]
pub struct WriteOffBody {
    order_no: String,
    #[schemars(length(min = 1, max = 200))]
    #[serde(default)]
    reason: String,
}

fn at_most(label: Text, text: &str, max: usize) -> Result<(), ApiError> {
    if text.trim().chars().count() > max {
        return Err(ApiError::bad_request(msg::common::label_too_long(label, max)));
    }
    Ok(())
}

/// POST /order/settle/offlinePayment {orderNo, method, reference?, amount (yuan), note?}
async fn offline_payment(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: OfflinePaymentBody = call.req.payload()?;
    let method = body.method;
    at_most(msg::orders::settle::label::reference(), &body.reference, 100)?;
    at_most(msg::orders::settle::label::note(), &body.note, 200)?;
    let amount = body.amount.fen()?;
    let by = call.caller()?.username().to_string();
    let what = Settle::Payment { method, reference: body.reference, amount, note: body.note };
    let row = settle::settle(ctx, &body.order_no.trim().to_uppercase(), what, &by).await?;
    let th = operations::current(ctx).await?.anomaly_thresholds();
    Ok(Reply::data_with_msg(OrderView::of(&row, ctx.now(), &th), msg::orders::settle::paid_offline(amount, crate::messages::orders::offline_method(method))))
}

/// POST /order/settle/writeOff {orderNo, reason}
async fn write_off(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: WriteOffBody = call.req.payload()?;
    if body.reason.trim().is_empty() {
        return Err(ApiError::bad_request(msg::orders::settle::reason_required()));
    }
    at_most(msg::orders::settle::label::reason(), &body.reason, 200)?;
    let by = call.caller()?.username().to_string();
    let row = settle::settle(ctx, &body.order_no.trim().to_uppercase(), Settle::WriteOff { reason: body.reason }, &by).await?;
    let th = operations::current(ctx).await?.anomaly_thresholds();
    let owed = row.settlement.as_ref().map(|s| s.amount_fen).unwrap_or_default();
    Ok(Reply::data_with_msg(OrderView::of(&row, ctx.now(), &th), msg::orders::settle::written_off(&owed)))
}
