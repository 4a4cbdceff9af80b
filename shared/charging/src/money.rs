//! Exact integer money.
//!
//! Floats cannot represent 0.1 yuan exactly, and the finance page must add
//! up to the orders behind it to the fen, so every amount is an integer:
//!
//! - [`Fen`]: an amount of money in fen (1 yuan = 100 fen). JSON: integer fen.
//! - [`PricePerKwh`]: a unit price in **1/10000 yuan per kWh** (= 0.01 fen per
//!   kWh), because Chinese tariffs are published with 4 decimals of yuan
//!   (e.g. 0.6253 yuan/kWh -> `PricePerKwh(6253)`). JSON: that integer.
//!
//! Energy is kept in Wh (= milli-kWh) elsewhere, so `Wh x PricePerKwh` is an
//! exact integer in units of 1e-5 fen ([`EXACT_UNITS_PER_FEN`]); pricing sums
//! those exact products and rounds to fen once, at the end.
//!
//! Yuan strings ("12.34", "0.6253") are the human form, for forms, exports and
//! `Display`; parsing is strict (no exponent, no thousands separators, no more
//! decimals than the type can hold) so nothing is silently rounded on input.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// `Wh x PricePerKwh` units per fen: Wh = 1e-3 kWh, price unit = 1e-4 yuan/kWh,
/// so the product is 1e-7 yuan = 1e-5 fen.
pub const EXACT_UNITS_PER_FEN: i128 = 100_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("not a yuan amount: {0:?} (expected e.g. \"12.34\")")]
    Invalid(String),
    #[error("too many decimals in {0:?} (at most {1})")]
    TooManyDecimals(String, u32),
    #[error("amount out of range: {0:?}")]
    OutOfRange(String),
}

/// An amount in fen (1/100 yuan). May be negative only where a caller allows
/// it (e.g. a ledger delta); validators reject negative prices and refunds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Fen(pub i64);

impl Fen {
    pub const ZERO: Fen = Fen(0);

    /// Parses a yuan string with up to 2 decimals: "12", "12.3", "12.34", "-0.05".
    pub fn parse_yuan(s: &str) -> Result<Fen, MoneyError> {
        parse_decimal(s, 2).map(Fen)
    }

    /// Formats as yuan with exactly 2 decimals: `Fen(1234)` -> "12.34".
    pub fn to_yuan_string(self) -> String {
        format_decimal(self.0, 2)
    }

    pub fn checked_add(self, other: Fen) -> Option<Fen> {
        self.0.checked_add(other.0).map(Fen)
    }

    pub fn checked_sub(self, other: Fen) -> Option<Fen> {
        self.0.checked_sub(other.0).map(Fen)
    }

    pub fn checked_mul(self, factor: i64) -> Option<Fen> {
        self.0.checked_mul(factor).map(Fen)
    }

    /// Sums amounts, `None` on overflow (a corrupted record, never silently wrapped).
    pub fn checked_sum<I: IntoIterator<Item = Fen>>(items: I) -> Option<Fen> {
        items.into_iter().try_fold(Fen::ZERO, |acc, x| acc.checked_add(x))
    }

    pub fn is_negative(self) -> bool {
        self.0 < 0
    }

    pub fn is_positive(self) -> bool {
        self.0 > 0
    }
}

/// Yuan with 2 decimals, no currency sign (so it pastes into spreadsheets).
impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_yuan_string())
    }
}

impl FromStr for Fen {
    type Err = MoneyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Fen::parse_yuan(s)
    }
}

/// A per-kWh unit price in 1/10000 yuan (see module docs). `PricePerKwh(6253)`
/// is 0.6253 yuan/kWh.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct PricePerKwh(pub i64);

impl PricePerKwh {
    /// Units per yuan.
    pub const UNITS_PER_YUAN: i64 = 10_000;

    /// Parses a yuan/kWh string with up to 4 decimals: "0.6253", "1.2", "0".
    pub fn parse_yuan(s: &str) -> Result<PricePerKwh, MoneyError> {
        parse_decimal(s, 4).map(PricePerKwh)
    }

    /// Formats with exactly 4 decimals: `PricePerKwh(6253)` -> "0.6253".
    pub fn to_yuan_string(self) -> String {
        format_decimal(self.0, 4)
    }

    /// Exact cost of `wh` watt-hours at this price, in 1e-5 fen
    /// ([`EXACT_UNITS_PER_FEN`] per fen). i128 so no realistic input overflows.
    pub fn exact_cost(self, wh: i64) -> i128 {
        wh as i128 * self.0 as i128
    }
}

impl fmt::Display for PricePerKwh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_yuan_string())
    }
}

impl FromStr for PricePerKwh {
    type Err = MoneyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PricePerKwh::parse_yuan(s)
    }
}

/// Divides rounding half away from zero (half-up for the non-negative amounts
/// pricing produces): 2.5 -> 3, -2.5 -> -3. `den` must be positive.
pub fn div_round_half_up(num: i128, den: i128) -> i128 {
    debug_assert!(den > 0);
    let q = num / den;
    let r = num % den;
    if 2 * r.abs() >= den {
        q + num.signum()
    } else {
        q
    }
}

/// Strict decimal parser: `[+-]?digits(.digits{1,scale})?`, surrounding
/// whitespace ignored.
fn parse_decimal(input: &str, scale: u32) -> Result<i64, MoneyError> {
    let s = input.trim();
    let invalid = || MoneyError::Invalid(input.to_string());
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (int_part, frac_part) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    if int_part.is_empty() || !int_part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let frac = frac_part.unwrap_or("");
    if frac_part.is_some() && frac.is_empty() {
        return Err(invalid());
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    if frac.len() > scale as usize {
        return Err(MoneyError::TooManyDecimals(input.to_string(), scale));
    }
    let out_of_range = || MoneyError::OutOfRange(input.to_string());
    let mut v: i64 = 0;
    for b in int_part.bytes() {
        v = v.checked_mul(10).and_then(|v| v.checked_add((b - b'0') as i64)).ok_or_else(out_of_range)?;
    }
    for i in 0..scale as usize {
        let d = frac.as_bytes().get(i).map(|b| (b - b'0') as i64).unwrap_or(0);
        v = v.checked_mul(10).and_then(|v| v.checked_add(d)).ok_or_else(out_of_range)?;
    }
    Ok(if neg { -v } else { v })
}

fn format_decimal(v: i64, scale: u32) -> String {
    let unit = 10u64.pow(scale);
    let abs = v.unsigned_abs();
    let sign = if v < 0 { "-" } else { "" };
    format!("{sign}{}.{:0width$}", abs / unit, abs % unit, width = scale as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_yuan() {
        assert_eq!(Fen::parse_yuan("12.34"), Ok(Fen(1234)));
        assert_eq!(Fen::parse_yuan("12.3"), Ok(Fen(1230)));
        assert_eq!(Fen::parse_yuan("12"), Ok(Fen(1200)));
        assert_eq!(Fen::parse_yuan("0.05"), Ok(Fen(5)));
        assert_eq!(Fen::parse_yuan("-0.05"), Ok(Fen(-5)));
        assert_eq!(Fen::parse_yuan(" +1.00 "), Ok(Fen(100)));
        assert_eq!("007.10".parse::<Fen>(), Ok(Fen(710)));
    }

    #[test]
    fn rejects_bad_yuan() {
        for s in ["", "-", ".5", "1.", "1.2.3", "1e3", "1,000.00", "abc", "¥1", "1 .0", "--1"] {
            assert!(matches!(Fen::parse_yuan(s), Err(MoneyError::Invalid(_))), "{s:?}");
        }
        assert!(matches!(Fen::parse_yuan("1.234"), Err(MoneyError::TooManyDecimals(_, 2))));
        assert!(matches!(Fen::parse_yuan("99999999999999999999"), Err(MoneyError::OutOfRange(_))));
    }

    #[test]
    fn formats_yuan() {
        assert_eq!(Fen(1234).to_string(), "12.34");
        assert_eq!(Fen(5).to_string(), "0.05");
        assert_eq!(Fen(-5).to_string(), "-0.05");
        assert_eq!(Fen(0).to_string(), "0.00");
        assert_eq!(Fen(-120).to_string(), "-1.20");
        assert_eq!(Fen(i64::MIN).to_string(), "-92233720368547758.08");
        for v in [0, 1, 99, 100, 123456789, -1, -100] {
            assert_eq!(Fen::parse_yuan(&Fen(v).to_string()), Ok(Fen(v)));
        }
    }

    #[test]
    fn price_per_kwh_is_exact_to_four_decimals() {
        assert_eq!(PricePerKwh::parse_yuan("0.6253"), Ok(PricePerKwh(6253)));
        assert_eq!(PricePerKwh::parse_yuan("1.2"), Ok(PricePerKwh(12000)));
        assert_eq!(PricePerKwh(6253).to_string(), "0.6253");
        assert_eq!(PricePerKwh(10000).to_string(), "1.0000");
        assert!(matches!(PricePerKwh::parse_yuan("0.12345"), Err(MoneyError::TooManyDecimals(_, 4))));
        // 1 kWh at 0.6253 yuan = 62.53 fen = 6_253_000 exact units.
        assert_eq!(PricePerKwh(6253).exact_cost(1000), 6_253_000);
        assert_eq!(6_253_000 / EXACT_UNITS_PER_FEN, 62);
    }

    #[test]
    fn checked_arithmetic() {
        assert_eq!(Fen(1).checked_add(Fen(2)), Some(Fen(3)));
        assert_eq!(Fen(1).checked_sub(Fen(2)), Some(Fen(-1)));
        assert_eq!(Fen(i64::MAX).checked_add(Fen(1)), None);
        assert_eq!(Fen(i64::MIN).checked_sub(Fen(1)), None);
        assert_eq!(Fen(3).checked_mul(4), Some(Fen(12)));
        assert_eq!(Fen::checked_sum([Fen(1), Fen(2), Fen(3)]), Some(Fen(6)));
        assert_eq!(Fen::checked_sum([Fen(i64::MAX), Fen(1)]), None);
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(div_round_half_up(249_999, 100_000), 2);
        assert_eq!(div_round_half_up(250_000, 100_000), 3);
        assert_eq!(div_round_half_up(-250_000, 100_000), -3);
        assert_eq!(div_round_half_up(-249_999, 100_000), -2);
        assert_eq!(div_round_half_up(0, 7), 0);
    }

    #[test]
    fn serde_is_integer() {
        assert_eq!(serde_json::to_string(&Fen(1234)).unwrap(), "1234");
        assert_eq!(serde_json::from_str::<PricePerKwh>("6253").unwrap(), PricePerKwh(6253));
    }
}
