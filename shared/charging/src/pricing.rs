//! Pricing a charging session against a tariff snapshot.
//!
//! 1. [`split_energy`]: the meter samples (cumulative Wh over time) are
//!    interpolated linearly between consecutive samples, and the energy of
//!    each piece of time is assigned to the tier of the half-hour slot it
//!    falls in (local time at a fixed UTC offset, China = +08:00). Sparse
//!    samples, slot boundaries and midnight are all handled by cutting each
//!    sample interval at every slot boundary it crosses.
//!    Energy stays an integer in Wh (= milli-kWh): the cumulative share at each
//!    cut is rounded, so the pieces always add up exactly to the metered energy.
//! 2. [`price_energy`]: every tier's Wh x (electricity + service) price is
//!    summed **exactly** (in 1e-5 fen) and the energy amount is **rounded once,
//!    at the end, half-up to the fen** (0.5 fen -> 1 fen). The displayed split
//!    (electricity total, service total and per-tier line amounts) is an
//!    allocation of that one rounded figure (electricity rounded half-up,
//!    service = the rest; lines by largest remainder), so every shown part adds
//!    up to the total to the fen and the finance page can sum either level.
//! 3. `amount = energy amount + parking fee - discount`, never below 0 (the
//!    applied discount is capped at the gross amount and reported as such).

use crate::money::{div_round_half_up, Fen, PricePerKwh, EXACT_UNITS_PER_FEN};
use crate::problem::Problem;
use crate::tariff::{TariffProblem, TariffTemplate, Tier, SLOTS_PER_DAY, SLOT_SECS};
use serde::{Deserialize, Serialize};

/// China Standard Time, the default local time of tariffs.
pub const CHINA_UTC_OFFSET_SECS: i32 = 8 * 3600;
/// Sessions longer than this are refused (a corrupted timestamp would
/// otherwise make pricing walk millions of slots). 31 days.
pub const MAX_SESSION_SECS: i64 = 31 * 86_400;

/// One meter reading: unix seconds and the cumulative energy register in Wh
/// (absolute or relative to session start; only differences matter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeterSample {
    pub ts: i64,
    pub energy_wh: i64,
}

impl MeterSample {
    pub fn new(ts: i64, energy_wh: i64) -> Self {
        Self { ts, energy_wh }
    }
}

/// Energy per tier, Wh.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TierEnergy {
    pub sharp: i64,
    pub peak: i64,
    pub flat: i64,
    pub valley: i64,
}

impl TierEnergy {
    pub fn get(&self, tier: Tier) -> i64 {
        match tier {
            Tier::Sharp => self.sharp,
            Tier::Peak => self.peak,
            Tier::Flat => self.flat,
            Tier::Valley => self.valley,
        }
    }

    fn add(&mut self, tier: Tier, wh: i64) {
        match tier {
            Tier::Sharp => self.sharp += wh,
            Tier::Peak => self.peak += wh,
            Tier::Flat => self.flat += wh,
            Tier::Valley => self.valley += wh,
        }
    }

    pub fn total(&self) -> i64 {
        self.sharp + self.peak + self.flat + self.valley
    }
}

/// Inputs besides the tariff and the meter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PricingOptions {
    /// Local time of the tariff schedule, seconds east of UTC.
    #[serde(default = "china")]
    pub utc_offset_secs: i32,
    /// Minutes the bay was occupied, for the tariff's parking rule (if any).
    #[serde(default)]
    pub occupancy_minutes: u32,
    /// Discount requested (coupon, promotion); must be >= 0. The applied
    /// discount never exceeds the gross amount.
    #[serde(default)]
    pub discount: Fen,
}

fn china() -> i32 {
    CHINA_UTC_OFFSET_SECS
}

impl Default for PricingOptions {
    fn default() -> Self {
        Self { utc_offset_secs: CHINA_UTC_OFFSET_SECS, occupancy_minutes: 0, discount: Fen::ZERO }
    }
}

/// One per-tier line of an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierLine {
    pub tier: Tier,
    pub energy_wh: i64,
    /// Unit prices applied (copied so a line reads on its own).
    pub electricity_price: PricePerKwh,
    pub service_price: PricePerKwh,
    pub electricity_fen: Fen,
    pub service_fen: Fen,
}

/// The priced session. Invariants (tested): lines' energy sums to
/// `energy_wh`; lines' amounts sum to `electricity_fen` / `service_fen`;
/// `electricity_fen + service_fen + parking_fen - discount_fen == amount_fen`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PricedSession {
    pub tariff_id: String,
    pub tariff_version: i64,
    /// Tiers with energy, in [`Tier::ALL`] order.
    pub lines: Vec<TierLine>,
    pub energy_wh: i64,
    pub electricity_fen: Fen,
    pub service_fen: Fen,
    pub parking_fen: Fen,
    /// Discount actually applied (<= requested, <= gross).
    pub discount_fen: Fen,
    pub amount_fen: Fen,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PricingError {
    #[error("no meter samples")]
    NoSamples,
    #[error("tariff snapshot is invalid: {0:?}")]
    InvalidTariff(Vec<Problem<TariffProblem>>),
    #[error("meter sample {index}: time goes backwards or jumps ({prev_ts} -> {ts})")]
    TimeNotIncreasing { index: usize, prev_ts: i64, ts: i64 },
    #[error("meter sample {index}: negative energy delta ({from_wh} Wh -> {to_wh} Wh)")]
    NegativeMeterDelta { index: usize, from_wh: i64, to_wh: i64 },
    #[error("session spans {secs} s, more than the {max} s allowed")]
    SessionTooLong { secs: i64, max: i64 },
    #[error("discount must not be negative")]
    NegativeDiscount,
    #[error("amount overflow")]
    Overflow,
}

impl PricingError {
    /// What of the session the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            PricingError::InvalidTariff(_) => "tariff",
            PricingError::NegativeDiscount => "discount",
            PricingError::Overflow => "amount",
            PricingError::NoSamples | PricingError::TimeNotIncreasing { .. } | PricingError::NegativeMeterDelta { .. } | PricingError::SessionTooLong { .. } => "samples",
        }
    }
}

/// Splits the metered energy across tiers (see module docs). Samples must be
/// in time order; equal timestamps are allowed only with equal readings.
pub fn split_energy(tariff: &TariffTemplate, samples: &[MeterSample], utc_offset_secs: i32) -> Result<TierEnergy, PricingError> {
    if tariff.slots.len() != SLOTS_PER_DAY {
        return Err(PricingError::InvalidTariff(tariff.problems()));
    }
    let (first, last) = match (samples.first(), samples.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return Err(PricingError::NoSamples),
    };
    // Check ordering and deltas before the span, so the most specific error wins.
    for (i, w) in samples.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if b.ts < a.ts || (b.ts == a.ts && b.energy_wh != a.energy_wh) {
            return Err(PricingError::TimeNotIncreasing { index: i + 1, prev_ts: a.ts, ts: b.ts });
        }
        if b.energy_wh < a.energy_wh {
            return Err(PricingError::NegativeMeterDelta { index: i + 1, from_wh: a.energy_wh, to_wh: b.energy_wh });
        }
    }
    let span = last.ts - first.ts;
    if span > MAX_SESSION_SECS {
        return Err(PricingError::SessionTooLong { secs: span, max: MAX_SESSION_SECS });
    }
    let off = utc_offset_secs as i64;
    let mut out = TierEnergy::default();
    for w in samples.windows(2) {
        let (a, b) = (w[0], w[1]);
        let de = (b.energy_wh - a.energy_wh) as i128;
        if de == 0 {
            continue;
        }
        let (l0, l1) = (a.ts + off, b.ts + off);
        let dur = (l1 - l0) as i128;
        let mut cut = l0;
        let mut given: i128 = 0;
        while cut < l1 {
            let slot_start = cut.div_euclid(SLOT_SECS) * SLOT_SECS;
            let next = (slot_start + SLOT_SECS).min(l1);
            // Cumulative share up to `next`, rounded: pieces sum exactly to de.
            let upto = div_round_half_up(de * (next - l0) as i128, dur);
            let slot = (slot_start.rem_euclid(86_400) / SLOT_SECS) as usize;
            out.add(tariff.slots[slot], (upto - given) as i64);
            given = upto;
            cut = next;
        }
    }
    Ok(out)
}

/// Largest-remainder allocation of `total` fen over exact amounts (1e-5 fen):
/// each part gets its floor, the leftover fen go to the largest remainders
/// (ties: earlier part). Callers guarantee `sum(floor) <= total <= sum(ceil)`.
fn allocate(total: i64, exact: &[i128]) -> Vec<i64> {
    let mut parts: Vec<i64> = exact.iter().map(|&x| x.div_euclid(EXACT_UNITS_PER_FEN) as i64).collect();
    let mut left = total - parts.iter().sum::<i64>();
    debug_assert!(left >= 0 && left as usize <= exact.len(), "allocation out of range");
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(exact[i].rem_euclid(EXACT_UNITS_PER_FEN)));
    for i in order {
        if left <= 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    parts
}

/// Prices energy already split by tier (e.g. from [`split_energy`], or
/// re-pricing stored lines).
pub fn price_energy(tariff: &TariffTemplate, energy: &TierEnergy, opts: &PricingOptions) -> Result<PricedSession, PricingError> {
    if let Err(p) = tariff.validate() {
        return Err(PricingError::InvalidTariff(p));
    }
    if opts.discount.is_negative() {
        return Err(PricingError::NegativeDiscount);
    }
    let mut tiers = Vec::new();
    let (mut exact_e, mut exact_s) = (Vec::new(), Vec::new());
    for tier in Tier::ALL {
        let wh = energy.get(tier);
        if wh == 0 {
            continue;
        }
        // A tier with energy but no price can only come from a bad TierEnergy.
        let price = tariff.prices.get(tier).ok_or_else(|| PricingError::InvalidTariff(tariff.problems()))?;
        tiers.push((tier, wh, price));
        exact_e.push(price.electricity.exact_cost(wh));
        exact_s.push(price.service.exact_cost(wh));
    }
    let sum_e: i128 = exact_e.iter().sum();
    let sum_s: i128 = exact_s.iter().sum();
    let to_i64 = |v: i128| i64::try_from(v).map_err(|_| PricingError::Overflow);
    // The one rounding of the energy amount.
    let energy_amount = to_i64(div_round_half_up(sum_e + sum_s, EXACT_UNITS_PER_FEN))?;
    let electricity = to_i64(div_round_half_up(sum_e, EXACT_UNITS_PER_FEN))?;
    let service = energy_amount - electricity;
    let line_e = allocate(electricity, &exact_e);
    let line_s = allocate(service, &exact_s);
    let lines = tiers
        .iter()
        .enumerate()
        .map(|(i, &(tier, wh, price))| TierLine {
            tier,
            energy_wh: wh,
            electricity_price: price.electricity,
            service_price: price.service,
            electricity_fen: Fen(line_e[i]),
            service_fen: Fen(line_s[i]),
        })
        .collect();
    let parking = tariff.parking.map(|r| r.fee(opts.occupancy_minutes)).unwrap_or(Fen::ZERO);
    let gross = Fen(energy_amount).checked_add(parking).ok_or(PricingError::Overflow)?;
    let discount = opts.discount.min(gross);
    Ok(PricedSession {
        tariff_id: tariff.id.clone(),
        tariff_version: tariff.version,
        lines,
        energy_wh: energy.total(),
        electricity_fen: Fen(electricity),
        service_fen: Fen(service),
        parking_fen: parking,
        discount_fen: discount,
        amount_fen: Fen(gross.0 - discount.0),
    })
}

/// [`split_energy`] then [`price_energy`].
pub fn price_session(tariff: &TariffTemplate, samples: &[MeterSample], opts: &PricingOptions) -> Result<PricedSession, PricingError> {
    let energy = split_energy(tariff, samples, opts.utc_offset_secs)?;
    price_energy(tariff, &energy, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tariff::tests::{p, sample};
    use crate::tariff::{ParkingRule, TierPrices};

    /// Unix time of 2025-03-10 hh:mm local China time.
    fn at(h: i64, m: i64) -> i64 {
        // 2025-03-10T00:00:00+08:00 = 2025-03-09T16:00:00Z
        1_741_536_000 + h * 3600 + m * 60
    }

    fn s(ts: i64, wh: i64) -> MeterSample {
        MeterSample::new(ts, wh)
    }

    fn no_parking() -> TariffTemplate {
        TariffTemplate { parking: None, ..sample() }
    }

    fn check_invariants(r: &PricedSession) {
        assert_eq!(r.lines.iter().map(|l| l.energy_wh).sum::<i64>(), r.energy_wh);
        assert_eq!(Fen::checked_sum(r.lines.iter().map(|l| l.electricity_fen)), Some(r.electricity_fen));
        assert_eq!(Fen::checked_sum(r.lines.iter().map(|l| l.service_fen)), Some(r.service_fen));
        assert_eq!(r.electricity_fen.0 + r.service_fen.0 + r.parking_fen.0 - r.discount_fen.0, r.amount_fen.0);
        assert!(r.amount_fen.0 >= 0);
    }

    #[test]
    fn inside_one_slot() {
        let r = price_session(&no_parking(), &[s(at(10, 5), 100_000), s(at(10, 25), 105_000)], &PricingOptions::default()).unwrap();
        check_invariants(&r);
        assert_eq!(r.lines.len(), 1);
        let l = r.lines[0];
        assert_eq!((l.tier, l.energy_wh), (Tier::Peak, 5000));
        // 5 kWh x 1.0000 = 5.00 yuan; x 0.8000 = 4.00 yuan.
        assert_eq!((l.electricity_fen, l.service_fen), (Fen(500), Fen(400)));
        assert_eq!(r.amount_fen, Fen(900));
        assert_eq!((r.tariff_id.as_str(), r.tariff_version), ("tt-1", 1));
    }

    #[test]
    fn across_a_slot_boundary_same_tier() {
        let e = split_energy(&sample(), &[s(at(10, 15), 0), s(at(10, 45), 1000)], CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(e, TierEnergy { peak: 1000, ..Default::default() });
    }

    #[test]
    fn across_a_tier_change_is_interpolated() {
        // 11:45 -> 12:15 crosses peak -> sharp at 12:00, half each.
        let e = split_energy(&sample(), &[s(at(11, 45), 0), s(at(12, 15), 1000)], CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(e, TierEnergy { peak: 500, sharp: 500, ..Default::default() });
        // Uneven: 11:50 -> 12:20 gives 1/3 peak, 2/3 sharp; rounding keeps the sum.
        let e = split_energy(&sample(), &[s(at(11, 50), 0), s(at(12, 20), 1000)], CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(e, TierEnergy { peak: 333, sharp: 667, ..Default::default() });
    }

    #[test]
    fn sparse_samples_interpolate_and_dense_ones_refine() {
        let t = sample();
        let sparse = split_energy(&t, &[s(at(11, 0), 0), s(at(13, 0), 2000)], CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(sparse, TierEnergy { peak: 1000, sharp: 1000, ..Default::default() });
        let dense = split_energy(&t, &[s(at(11, 0), 0), s(at(12, 0), 1500), s(at(13, 0), 2000)], CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(dense, TierEnergy { peak: 1500, sharp: 500, ..Default::default() });
    }

    #[test]
    fn across_midnight_and_offsets() {
        let t = sample();
        // 23:30 -> 00:30 local: flat then valley.
        let samples = [s(at(23, 30), 0), s(at(24, 30), 2000)];
        let e = split_energy(&t, &samples, CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(e, TierEnergy { flat: 1000, valley: 1000, ..Default::default() });
        // The same instants seen at UTC are 15:30 -> 16:30, all peak.
        let e = split_energy(&t, &samples, 0).unwrap();
        assert_eq!(e, TierEnergy { peak: 2000, ..Default::default() });
        // A long overnight session crossing several tiers: 22:00 -> 09:00 at 1 kWh/h.
        let e = split_energy(&t, &[s(at(22, 0), 0), s(at(33, 0), 11_000)], CHINA_UTC_OFFSET_SECS).unwrap();
        assert_eq!(e, TierEnergy { flat: 3000, valley: 8000, ..Default::default() });
    }

    #[test]
    fn zero_energy() {
        let t = sample();
        for samples in [vec![s(at(9, 0), 500)], vec![s(at(9, 0), 500), s(at(9, 0), 500), s(at(10, 0), 500)]] {
            let r = price_session(&t, &samples, &PricingOptions::default()).unwrap();
            check_invariants(&r);
            assert!(r.lines.is_empty());
            assert_eq!((r.energy_wh, r.amount_fen), (0, Fen(0)));
        }
        assert_eq!(price_session(&t, &[], &PricingOptions::default()), Err(PricingError::NoSamples));
    }

    #[test]
    fn bad_meter_is_an_error() {
        let t = sample();
        let err = split_energy(&t, &[s(at(9, 0), 500), s(at(9, 5), 600), s(at(9, 10), 550)], 28_800).unwrap_err();
        assert_eq!(err, PricingError::NegativeMeterDelta { index: 2, from_wh: 600, to_wh: 550 });
        assert_eq!(err.field(), "samples");
        let err = split_energy(&t, &[s(at(9, 5), 500), s(at(9, 0), 600)], 28_800).unwrap_err();
        assert!(matches!(err, PricingError::TimeNotIncreasing { index: 1, .. }));
        let err = split_energy(&t, &[s(at(9, 5), 500), s(at(9, 5), 600)], 28_800).unwrap_err();
        assert!(matches!(err, PricingError::TimeNotIncreasing { .. }));
        let err = split_energy(&t, &[s(0, 0), s(40 * 86_400, 1)], 28_800).unwrap_err();
        assert!(matches!(err, PricingError::SessionTooLong { .. }));
        let mut bad = sample();
        bad.slots.pop();
        assert!(matches!(split_energy(&bad, &[s(0, 0)], 0), Err(PricingError::InvalidTariff(_))));
        let opts = PricingOptions { discount: Fen(-1), ..Default::default() };
        assert_eq!(price_energy(&t, &TierEnergy::default(), &opts), Err(PricingError::NegativeDiscount));
    }

    fn flat_tariff(electricity: &str, service: &str) -> TariffTemplate {
        TariffTemplate {
            id: "flat".into(),
            name: "flat".into(),
            version: 3,
            slots: vec![Tier::Flat; 48],
            prices: TierPrices::default().with(Tier::Flat, p(electricity), p(service)),
            parking: None,
        }
    }

    #[test]
    fn rounding_is_half_up_once_at_the_end() {
        let opts = PricingOptions::default();
        // 5 Wh x 1.0000 yuan = 0.5 fen -> 1 fen (half-up).
        let t = flat_tariff("0.6000", "0.4000");
        let r = price_energy(&t, &TierEnergy { flat: 5, ..Default::default() }, &opts).unwrap();
        assert_eq!(r.amount_fen, Fen(1));
        // 0.4 fen -> 0.
        let r = price_energy(&t, &TierEnergy { flat: 4, ..Default::default() }, &opts).unwrap();
        assert_eq!(r.amount_fen, Fen(0));
        // Four tiers of 0.4 fen each: per-line rounding would give 0, rounding
        // once gives round(1.6) = 2.
        let t = TariffTemplate {
            prices: TierPrices::default()
                .with(Tier::Sharp, p("1.0000"), p("0"))
                .with(Tier::Peak, p("1.0000"), p("0"))
                .with(Tier::Flat, p("1.0000"), p("0"))
                .with(Tier::Valley, p("1.0000"), p("0")),
            ..no_parking()
        };
        let r = price_energy(&t, &TierEnergy { sharp: 4, peak: 4, flat: 4, valley: 4 }, &opts).unwrap();
        check_invariants(&r);
        assert_eq!(r.amount_fen, Fen(2));
        assert_eq!(r.lines.iter().map(|l| l.electricity_fen.0).collect::<Vec<_>>(), [1, 1, 0, 0]);
        // 4 decimals matter: 12.345 kWh at 0.6253 + 0.8 = 12.345 x 1.4253 = 17.5953... yuan.
        let t = flat_tariff("0.6253", "0.8000");
        let r = price_energy(&t, &TierEnergy { flat: 12_345, ..Default::default() }, &opts).unwrap();
        check_invariants(&r);
        // exact: electricity 7.7193285 yuan, service 9.876 yuan, total 17.5953285
        assert_eq!(r.amount_fen, Fen(1760));
        assert_eq!(r.electricity_fen, Fen(772));
        assert_eq!(r.service_fen, Fen(988)); // 987.6 -> 988, the remainder of 1760 - 772
        // Electricity 0.5 and service 0.5 fen: total exactly 1 fen; electricity
        // rounds half-up to 1, service gets the remaining 0.
        let t = flat_tariff("1.0000", "1.0000");
        let r = price_energy(&t, &TierEnergy { flat: 5, ..Default::default() }, &opts).unwrap();
        check_invariants(&r);
        assert_eq!((r.amount_fen, r.electricity_fen, r.service_fen), (Fen(1), Fen(1), Fen(0)));
        // 0.25 + 0.25 fen: total 0.5 -> 1 fen; electricity 0.25 -> 0; service 1.
        let r = price_energy(&flat_tariff("0.5000", "0.5000"), &TierEnergy { flat: 5, ..Default::default() }, &opts).unwrap();
        assert_eq!((r.amount_fen, r.electricity_fen, r.service_fen), (Fen(1), Fen(0), Fen(1)));
        check_invariants(&r);
    }

    #[test]
    fn parking_and_discount() {
        let mut t = flat_tariff("1.0000", "0.5000");
        t.parking = Some(ParkingRule { free_minutes: 60, fen_per_minute: Fen(5), cap_per_session: Some(Fen(500)) });
        let energy = TierEnergy { flat: 10_000, ..Default::default() }; // 15.00 yuan
        let opts = PricingOptions { occupancy_minutes: 90, discount: Fen(200), ..Default::default() };
        let r = price_energy(&t, &energy, &opts).unwrap();
        check_invariants(&r);
        assert_eq!((r.parking_fen, r.discount_fen, r.amount_fen), (Fen(150), Fen(200), Fen(1450)));
        // Discount above the gross amount: amount 0, applied discount = gross.
        let opts = PricingOptions { occupancy_minutes: 90, discount: Fen(99_999), ..Default::default() };
        let r = price_energy(&t, &energy, &opts).unwrap();
        check_invariants(&r);
        assert_eq!((r.discount_fen, r.amount_fen), (Fen(1650), Fen(0)));
    }

    #[test]
    fn realistic_session_invariants() {
        let t = sample();
        // A 5-minute-sampled overnight AC session, 7 kW with a ragged curve.
        let mut samples = Vec::new();
        let mut wh = 1_234_567;
        let mut ts = at(21, 7) + 13;
        for i in 0..150 {
            samples.push(s(ts, wh));
            ts += 300 + (i % 7) as i64;
            wh += 583 + (i * 37 % 11) as i64;
        }
        let r = price_session(&t, &samples, &PricingOptions { occupancy_minutes: 800, ..Default::default() }).unwrap();
        check_invariants(&r);
        assert_eq!(r.energy_wh, samples.last().unwrap().energy_wh - samples[0].energy_wh);
        assert_eq!(r.lines.iter().map(|l| l.tier).collect::<Vec<_>>(), [Tier::Flat, Tier::Valley]);
        assert_eq!(r.parking_fen, Fen(3000)); // capped
        let v = serde_json::to_value(&r).unwrap();
        assert!(v["lines"][0]["electricityFen"].is_i64());
        assert!(v["amountFen"].is_i64());
    }
}
