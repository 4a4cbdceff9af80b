//! Where order, refund, ledger and rollup items live. Every list of the
//! orders/finance pages is a Query on one of these keys (no Scan).
//!
//! | record | PK | SK | index |
//! |---|---|---|---|
//! | order (list row) | `ORDER#{no}` | `ORDER` | GSI1 `ORDM#{yyyymm}`, GSI2 `ORDS#{station}#{yyyymm}`, GSI3 `ORDT#{status}#{yyyymm}`; SK `{start:012}#{no}` |
//! | order curve + tariff snapshot | `ORDER#{no}` | `DETAIL` | |
//! | refund request | `ORDER#{no}` | `REFUND#{id}` | GSI1 `RFD#{status}` / `{requested:012}#{id}` |
//! | ledger entry (approved refund) | `LEDGER#{refund id}` | `LEDGER` | GSI1 `LEDGER` / `{approved:012}#{id}` |
//! | ledger entry (offline payment or write-off, one per order) | `LEDGER#SETTLE-{no}` | `LEDGER` | GSI1 `LEDGER` / `{at:012}#SETTLE-{no}` |
//! | pointer by payment status | `OIX#PAY#{status}#{yyyymm}` | `{start:012}#{no}` | |
//! | pointer by user / plate | `OIX#USER#{id}` / `OIX#PLATE#{plate}` | `{start:012}#{no}` | |
//! | pointer to flagged orders | `OIX#FLAG#{yyyymm}` | `{start:012}#{no}` | |
//! | pointer by amount / energy (the list sorted by value) | `OIX#AMT#{yyyymm}` / `OIX#KWH#{yyyymm}` | `{amount fen:012}#{no}` / `{energy Wh:012}#{no}` | |
//! | daily rollup | `AGG#D#{dim}` | `{yyyymmdd}` | |
//! | monthly rollup | `AGG#M#{dim}` | `{yyyymm}` | |
//! | all-time per station | `AGG#STATIONS` | `{station}` | |
//! | a holder's monthly bill (postpaid card sessions) | `AGG#BILL#{yyyymm}` | `{holder account}` | |
//! | marker: earlier refunds counted on their approval day | `MIGRATION#REFUNDS_BY_GRANT_DAY` | `DONE` | |
//!
//! Months and days are China local time (+08:00), of the order's start;
//! `refundsGrantedFen` (dims `ALL` and `S#{station}` only) is of the
//! refund's approval (see `rollup`).
//! Rollup dims ([`Dim`], spelled by `Dim::key` only): `ALL`, `S#{station}`, `T#{status}`, `P#{payment}`,
//! `S#{station}#T#{status}`: each single filter of the order list (and
//! station x status) has its sums in a few rollup items. The summed
//! fields are `rollup::Sums::FIELDS` (`writtenOffFen` since write-offs:
//! items written before simply lack it, which reads as 0, and no order
//! was written off before it existed; `refundsGrantedFen` since refunds
//! count on their approval day: refunds approved before are added once by
//! `refunds::count_earlier_refunds_on_grant_day`).

use charging::civil::{civil_from_days, days_from_civil};
use charging::orders::{OrderStatus, PaymentStatus};
use charging::pricing::CHINA_UTC_OFFSET_SECS;
use store::Key;

pub fn order(no: &str) -> Key {
    Key::new(format!("ORDER#{no}"), "ORDER")
}
pub fn order_pk(no: &str) -> String {
    format!("ORDER#{no}")
}
pub fn order_detail(no: &str) -> Key {
    Key::new(format!("ORDER#{no}"), "DETAIL")
}
pub fn refund(no: &str, id: &str) -> Key {
    Key::new(format!("ORDER#{no}"), format!("REFUND#{id}"))
}
pub fn refunds_by_status(status: &str) -> String {
    format!("RFD#{status}")
}
pub fn ledger(id: &str) -> Key {
    Key::new(format!("LEDGER#{id}"), "LEDGER")
}
pub const LEDGER_INDEX_PK: &str = "LEDGER";

pub fn by_month(month: &str) -> String {
    format!("ORDM#{month}")
}
pub fn by_station(station: &str, month: &str) -> String {
    format!("ORDS#{station}#{month}")
}
pub fn by_status(status: OrderStatus, month: &str) -> String {
    format!("ORDT#{}#{month}", enum_name(&status))
}
pub fn by_payment(status: PaymentStatus, month: &str) -> String {
    format!("OIX#PAY#{}#{month}", enum_name(&status))
}
pub fn by_user(user: &str) -> String {
    format!("OIX#USER#{user}")
}
pub fn by_plate(plate: &str) -> String {
    format!("OIX#PLATE#{plate}")
}
pub fn flagged(month: &str) -> String {
    format!("OIX#FLAG#{month}")
}
pub fn by_amount(month: &str) -> String {
    format!("OIX#AMT#{month}")
}
pub fn by_energy(month: &str) -> String {
    format!("OIX#KWH#{month}")
}

/// A rollup dimension: the filter an order's sums are kept under (see
/// the module docs). Only [`Dim::key`] spells them, so a misspelt filter
/// cannot read another dimension's zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim<'a> {
    All,
    Station(&'a str),
    Status(OrderStatus),
    Payment(PaymentStatus),
    StationStatus(&'a str, OrderStatus),
}

impl<'a> Dim<'a> {
    /// The dimension whose sums are those of a list's filters, if one is kept.
    pub fn of_filters(station: Option<&'a str>, status: Option<OrderStatus>, payment: Option<PaymentStatus>) -> Option<Dim<'a>> {
        match (station, status, payment) {
            (None, None, None) => Some(Dim::All),
            (Some(s), None, None) => Some(Dim::Station(s)),
            (None, Some(t), None) => Some(Dim::Status(t)),
            (None, None, Some(p)) => Some(Dim::Payment(p)),
            (Some(s), Some(t), None) => Some(Dim::StationStatus(s, t)),
            _ => None,
        }
    }

    /// The dimension's part of its rollup keys.
    pub fn key(&self) -> String {
        match self {
            Dim::All => "ALL".to_string(),
            Dim::Station(s) => format!("S#{s}"),
            Dim::Status(t) => format!("T#{}", enum_name(t)),
            Dim::Payment(p) => format!("P#{}", enum_name(p)),
            Dim::StationStatus(s, t) => format!("S#{s}#T#{}", enum_name(t)),
        }
    }
}

pub fn day_rollup(dim: Dim) -> String {
    format!("AGG#D#{}", dim.key())
}
pub fn month_rollup(dim: Dim) -> String {
    format!("AGG#M#{}", dim.key())
}
pub const STATIONS_ROLLUP_PK: &str = "AGG#STATIONS";

/// The partition of the holders' bills of a month (`yyyymm`).
pub fn holder_bills(month: &str) -> String {
    format!("AGG#BILL#{month}")
}

/// A holder account's bill of a month (a rollup item: the sums of its
/// postpaid card sessions started that month).
pub fn holder_bill(month: &str, account: &str) -> Key {
    Key::new(holder_bills(month), account)
}

/// The JSON name of a camelCase enum (`partiallyRefunded`).
pub fn enum_name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Sort key of an order in a time-ordered list: sorts by start, then number.
pub fn time_sort(start_ts: i64, no: &str) -> String {
    format!("{start_ts:012}#{no}")
}

/// Sort key of an order in a list sorted by a value (amount in fen,
/// energy in Wh), then by number; negative values sort as 0.
pub fn value_sort(value: i64, no: &str) -> String {
    format!("{:012}#{no}", value.max(0))
}

/// Local day number (days since 1970-01-01 at +08:00).
pub fn local_day(ts: i64) -> i64 {
    (ts + CHINA_UTC_OFFSET_SECS as i64).div_euclid(86_400)
}
/// The unix time local day `day` starts.
pub fn day_start(day: i64) -> i64 {
    day * 86_400 - CHINA_UTC_OFFSET_SECS as i64
}
pub fn day_key(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}{m:02}{d:02}")
}
pub fn month_key_of_day(day: i64) -> String {
    let (y, m, _) = civil_from_days(day);
    format!("{y:04}{m:02}")
}
pub fn month_of(ts: i64) -> String {
    month_key_of_day(local_day(ts))
}
pub fn day_of(ts: i64) -> String {
    day_key(local_day(ts))
}

/// Parses `YYYY-MM-DD` (or `YYYYMMDD`) into a local day number.
pub fn parse_day(s: &str) -> Option<i64> {
    let digits: String = s.chars().filter(|c| *c != '-').collect();
    if digits.len() != 8 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let y: i64 = digits[0..4].parse().ok()?;
    let m: u32 = digits[4..6].parse().ok()?;
    let d: u32 = digits[6..8].parse().ok()?;
    if !(1..=12).contains(&m) || d == 0 || d > 31 || !(1970..=9999).contains(&y) {
        return None;
    }
    let day = days_from_civil(y, m, d);
    // Reject 2025-02-30 and the like: the round trip must agree.
    (civil_from_days(day) == (y, m, d)).then_some(day)
}

/// `YYYY-MM-DD` of a local day.
pub fn iso_day(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The months (`YYYYMM`) from the one of `to_day` back to the one of `from_day`, newest first.
pub fn months_desc(from_day: i64, to_day: i64) -> Vec<String> {
    let (fy, fm, _) = civil_from_days(from_day);
    let (mut y, mut m, _) = civil_from_days(to_day);
    let mut out = Vec::new();
    while (y, m) >= (fy, fm) {
        out.push(format!("{y:04}{m:02}"));
        if m == 1 {
            y -= 1;
            m = 12;
        } else {
            m -= 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_months() {
        let d = parse_day("2025-06-30").unwrap();
        assert_eq!(iso_day(d), "2025-06-30");
        assert_eq!(parse_day("2025-02-30"), None);
        assert_eq!(parse_day("2025-6-3"), None);
        assert_eq!(months_desc(parse_day("2024-11-15").unwrap(), d), ["202506", "202505", "202504", "202503", "202502", "202501", "202412", "202411"]);
        // 2024-12-31T16:00:00Z is 2025-01-01 in China.
        assert_eq!(day_of(1_735_660_800), "20250101");
        assert_eq!(day_start(local_day(1_735_660_800)), 1_735_660_800);
        assert_eq!(enum_name(&PaymentStatus::PartiallyRefunded), "partiallyRefunded");
    }
}
