//! Time-of-use tariff templates: the sharp, peak, flat and valley tiers.
//!
//! A template maps the 48 half-hour slots of a local day to a [`Tier`] and
//! gives each tier an electricity price and a service price per kWh. Slot `i`
//! covers local time `[i*30min, (i+1)*30min)`. Half-hour granularity is what
//! Chinese grid TOU schedules and charging tariffs use, and a fixed-length
//! slot array makes "covers 24 h with no gap or overlap" a length check.
//!
//! Templates are versioned; an order stores a snapshot of the template it was
//! priced with, so changing prices never rewrites history.
//!
//! The UI edits the schedule as contiguous [`Segment`]s ("08:00-10:00 peak");
//! [`segments_to_slots`] / [`slots_to_segments`] convert, and
//! [`TariffTemplateForm`] is the segments-based form of a whole template.

use crate::money::{Fen, PricePerKwh};
use crate::problem::Problem;
use serde::{Deserialize, Serialize};

/// Half-hour slots per day.
pub const SLOTS_PER_DAY: usize = 48;
/// Seconds per slot.
pub const SLOT_SECS: i64 = 1800;
/// Sanity ceiling for either price component: 10 yuan/kWh. Real prices are
/// around 0.3-1.5 yuan; anything above this is a typo (e.g. fen typed as yuan).
pub const MAX_PRICE: PricePerKwh = PricePerKwh(10 * PricePerKwh::UNITS_PER_YUAN);
/// Maximum template name length, in characters (not bytes: names are Chinese).
pub const NAME_MAX_CHARS: usize = 50;
/// Sanity ceiling for the parking rate: 10 yuan per minute.
pub const MAX_PARKING_FEN_PER_MINUTE: Fen = Fen(1000);
/// A free period longer than a day is a typo.
pub const MAX_FREE_MINUTES: u32 = 24 * 60;

/// The four TOU tiers. JSON: "sharp" | "peak" | "flat" | "valley".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Tier {
    /// The critical peak, priced highest.
    Sharp,
    Peak,
    Flat,
    Valley,
}

impl Tier {
    /// Display / report order: most to least expensive.
    pub const ALL: [Tier; 4] = [Tier::Sharp, Tier::Peak, Tier::Flat, Tier::Valley];

    /// JSON / field name.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Sharp => "sharp",
            Tier::Peak => "peak",
            Tier::Flat => "flat",
            Tier::Valley => "valley",
        }
    }

}

/// The two per-kWh components Chinese public charging bills separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierPrice {
    /// The energy pass-through price.
    pub electricity: PricePerKwh,
    /// The operator's service fee.
    pub service: PricePerKwh,
}

impl TierPrice {
    pub fn new(electricity: PricePerKwh, service: PricePerKwh) -> Self {
        Self { electricity, service }
    }
}

/// Prices by tier. A tier may be absent when no slot uses it (many provinces
/// have no sharp tier). JSON: `{"peak": {...}, "flat": {...}}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierPrices {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharp: Option<TierPrice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<TierPrice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flat: Option<TierPrice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valley: Option<TierPrice>,
}

impl TierPrices {
    pub fn get(&self, tier: Tier) -> Option<TierPrice> {
        match tier {
            Tier::Sharp => self.sharp,
            Tier::Peak => self.peak,
            Tier::Flat => self.flat,
            Tier::Valley => self.valley,
        }
    }

    pub fn set(&mut self, tier: Tier, price: Option<TierPrice>) {
        match tier {
            Tier::Sharp => self.sharp = price,
            Tier::Peak => self.peak = price,
            Tier::Flat => self.flat = price,
            Tier::Valley => self.valley = price,
        }
    }

    /// Builder convenience for code and tests.
    pub fn with(mut self, tier: Tier, electricity: PricePerKwh, service: PricePerKwh) -> Self {
        self.set(tier, Some(TierPrice::new(electricity, service)));
        self
    }
}

/// Occupancy (parking) fee: after `free_minutes`, `fen_per_minute` per started
/// minute of occupancy, optionally capped per session. Occupancy minutes are
/// measured by the caller (whole minutes, per station policy: typically plug-in
/// to unplug), so the rule itself stays a pure function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParkingRule {
    pub free_minutes: u32,
    pub fen_per_minute: Fen,
    /// Maximum parking fee for one session; `None` = uncapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap_per_session: Option<Fen>,
}

impl ParkingRule {
    /// Fee for `occupancy_minutes`; never negative, saturates instead of
    /// overflowing (the cap or validation bounds keep real values tiny).
    pub fn fee(&self, occupancy_minutes: u32) -> Fen {
        let billable = occupancy_minutes.saturating_sub(self.free_minutes) as i64;
        let fee = billable.saturating_mul(self.fen_per_minute.0.max(0));
        let fee = match self.cap_per_session {
            Some(cap) => fee.min(cap.0.max(0)),
            None => fee,
        };
        Fen(fee)
    }

    fn problems(&self, out: &mut Vec<Problem<TariffProblem>>) {
        if self.fen_per_minute.is_negative() {
            out.push(Problem::new("parking.fenPerMinute", TariffProblem::ParkingFeeNegative));
        } else if self.fen_per_minute > MAX_PARKING_FEN_PER_MINUTE {
            out.push(Problem::new("parking.fenPerMinute", TariffProblem::ParkingFeeTooHigh { max: MAX_PARKING_FEN_PER_MINUTE }));
        }
        if self.free_minutes > MAX_FREE_MINUTES {
            out.push(Problem::new("parking.freeMinutes", TariffProblem::FreeParkingTooLong { max: MAX_FREE_MINUTES }));
        }
        if let Some(cap) = self.cap_per_session {
            if cap.is_negative() {
                out.push(Problem::new("parking.capPerSession", TariffProblem::ParkingCapNegative));
            }
        }
    }
}

/// A versioned TOU tariff template. `slots` must hold exactly
/// [`SLOTS_PER_DAY`] tiers; it is a `Vec` (not `[Tier; 48]`) so a malformed
/// submission still deserialises and [`validate`](Self::validate) can say
/// what is wrong instead of a serde error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TariffTemplate {
    pub id: String,
    pub name: String,
    /// Starts at 1; a handler bumps it on every saved change.
    pub version: i64,
    pub slots: Vec<Tier>,
    pub prices: TierPrices,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parking: Option<ParkingRule>,
}

impl TariffTemplate {
    /// Tier of slot `slot` (0..48), `None` when out of range / slots malformed.
    pub fn tier_at_slot(&self, slot: usize) -> Option<Tier> {
        self.slots.get(slot).copied()
    }

    /// Tiers used by at least one slot, in [`Tier::ALL`] order.
    pub fn tiers_used(&self) -> Vec<Tier> {
        Tier::ALL.into_iter().filter(|t| self.slots.contains(t)).collect()
    }

    /// The schedule as UI segments (adjacent equal slots merged).
    pub fn segments(&self) -> Vec<Segment> {
        slots_to_segments(&self.slots)
    }

    /// Checks everything and returns every problem found (empty = valid).
    pub fn problems(&self) -> Vec<Problem<TariffProblem>> {
        let mut out = Vec::new();
        let name = self.name.trim();
        if name.is_empty() {
            out.push(Problem::new("name", TariffProblem::NameRequired));
        } else if name.chars().count() > NAME_MAX_CHARS {
            out.push(Problem::new("name", TariffProblem::NameTooLong { max: NAME_MAX_CHARS }));
        }
        if self.version < 1 {
            out.push(Problem::new("version", TariffProblem::VersionBelowOne));
        }
        if self.slots.len() != SLOTS_PER_DAY {
            out.push(Problem::new("slots", TariffProblem::NotWholeDay { expected: SLOTS_PER_DAY, got: self.slots.len() }));
        }
        for tier in Tier::ALL {
            let used = self.slots.contains(&tier);
            match self.prices.get(tier) {
                None if used => out.push(Problem::new(format!("prices.{}", tier.as_str()), TariffProblem::TierWithoutPrice { tier })),
                None => {}
                Some(p) => {
                    price_problems(tier, PricePart::Electricity, p.electricity, &mut out);
                    price_problems(tier, PricePart::Service, p.service, &mut out);
                }
            }
        }
        if let Some(rule) = &self.parking {
            rule.problems(&mut out);
        }
        out
    }

    /// `Ok(())` or all problems.
    pub fn validate(&self) -> Result<(), Vec<Problem<TariffProblem>>> {
        let p = self.problems();
        if p.is_empty() {
            Ok(())
        } else {
            Err(p)
        }
    }

    /// The segments-based form of this template (for the editor UI).
    pub fn to_form(&self) -> TariffTemplateForm {
        TariffTemplateForm {
            id: self.id.clone(),
            name: self.name.clone(),
            version: self.version,
            segments: self.segments(),
            prices: self.prices,
            parking: self.parking,
        }
    }
}

/// The two prices of a tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PricePart {
    Electricity,
    Service,
}

impl PricePart {
    /// JSON / field name.
    pub fn as_str(self) -> &'static str {
        match self {
            PricePart::Electricity => "electricity",
            PricePart::Service => "service",
        }
    }
}

/// Why a time of the schedule (`HH:MM`) is not a boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TimeProblem {
    #[error("must be a time HH:MM")]
    NotHhMm,
    #[error("is not a valid time of day (00:00-24:00)")]
    NotTimeOfDay,
    #[error("must be on a half-hour boundary (HH:00 or HH:30)")]
    NotHalfHour,
}

/// What is wrong with a tariff template or its schedule. A segment is
/// named by its label, "2 (08:00-10:00)" (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TariffProblem {
    #[error("Name is required")]
    NameRequired,
    #[error("Name must be at most {max} characters")]
    NameTooLong { max: usize },
    #[error("Version must be at least 1")]
    VersionBelowOne,
    #[error("The schedule must cover the whole day: expected {expected} half-hour slots, got {got}")]
    NotWholeDay { expected: usize, got: usize },
    #[error("Tier {} is used by the schedule but has no price", tier.as_str())]
    TierWithoutPrice { tier: Tier },
    #[error("The {} price of tier {} must not be negative", part.as_str(), tier.as_str())]
    PriceNegative { tier: Tier, part: PricePart },
    #[error("The {} price of tier {} must be at most {max} yuan/kWh", part.as_str(), tier.as_str())]
    PriceTooHigh { tier: Tier, part: PricePart, max: PricePerKwh },
    #[error("Parking fee per minute must not be negative")]
    ParkingFeeNegative,
    #[error("Parking fee per minute must be at most {max} yuan")]
    ParkingFeeTooHigh { max: Fen },
    #[error("Free parking must be at most {max} minutes")]
    FreeParkingTooLong { max: u32 },
    #[error("Parking fee cap must not be negative")]
    ParkingCapNegative,
    #[error("At least one time segment is required (00:00-24:00)")]
    NoSegments,
    #[error("Segment {segment}: start \"{value}\" {why}")]
    BadStart { segment: String, value: String, why: TimeProblem },
    #[error("Segment {segment}: end \"{value}\" {why}")]
    BadEnd { segment: String, value: String, why: TimeProblem },
    #[error("Segment {segment}: end must be after start (split a period crossing midnight into two segments)")]
    EndNotAfterStart { segment: String },
    #[error("Gap: {from}-{to} is not covered by any segment (before segment {before})")]
    Gap { from: String, to: String, before: String },
    #[error("Segment {segment} overlaps segment {other}")]
    Overlap { segment: String, other: String },
    #[error("Gap: {from}-24:00 is not covered by any segment")]
    GapAtEnd { from: String },
}

fn price_problems(tier: Tier, part: PricePart, price: PricePerKwh, out: &mut Vec<Problem<TariffProblem>>) {
    let field = format!("prices.{}.{}", tier.as_str(), part.as_str());
    if price.0 < 0 {
        out.push(Problem::new(field, TariffProblem::PriceNegative { tier, part }));
    } else if price > MAX_PRICE {
        out.push(Problem::new(field, TariffProblem::PriceTooHigh { tier, part, max: MAX_PRICE }));
    }
}

/// One contiguous run of the schedule as the UI edits it: `[start, end)` in
/// local "HH:MM" on half-hour boundaries; `end` may be "24:00".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub start: String,
    pub end: String,
    pub tier: Tier,
}

impl Segment {
    pub fn new(start: &str, end: &str, tier: Tier) -> Self {
        Self { start: start.to_string(), end: end.to_string(), tier }
    }
}

/// "HH:MM" of a slot boundary (0..=48).
pub fn boundary_label(boundary: usize) -> String {
    format!("{:02}:{:02}", boundary / 2, (boundary % 2) * 30)
}

/// Merges adjacent equal slots into segments. Works on any length (a
/// malformed template still displays); a valid template yields segments
/// covering "00:00".."24:00".
pub fn slots_to_segments(slots: &[Tier]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut i = 0;
    while i < slots.len() {
        let tier = slots[i];
        let mut j = i + 1;
        while j < slots.len() && slots[j] == tier {
            j += 1;
        }
        out.push(Segment { start: boundary_label(i), end: boundary_label(j), tier });
        i = j;
    }
    out
}

/// Parses "HH:MM" to a slot boundary index 0..=48.
fn parse_boundary(s: &str) -> Result<usize, TimeProblem> {
    let b = s.as_bytes();
    if b.len() != 5 || b[2] != b':' || ![0, 1, 3, 4].iter().all(|&i| b[i].is_ascii_digit()) {
        return Err(TimeProblem::NotHhMm);
    }
    let h = ((b[0] - b'0') * 10 + (b[1] - b'0')) as usize;
    let m = ((b[3] - b'0') * 10 + (b[4] - b'0')) as usize;
    if h > 24 || m > 59 || (h == 24 && m != 0) {
        return Err(TimeProblem::NotTimeOfDay);
    }
    if m != 0 && m != 30 {
        return Err(TimeProblem::NotHalfHour);
    }
    Ok(h * 2 + m / 30)
}

/// Converts UI segments to 48 slots. Segments may come in any order but must
/// cover 00:00-24:00 contiguously with no overlap; every problem found is
/// returned, each naming the bad segment (1-based in messages, 0-based in
/// `field`, e.g. `segments[2].end`).
pub fn segments_to_slots(segments: &[Segment]) -> Result<Vec<Tier>, Vec<Problem<TariffProblem>>> {
    let mut problems = Vec::new();
    if segments.is_empty() {
        problems.push(Problem::new("segments", TariffProblem::NoSegments));
        return Err(problems);
    }
    let label = |i: usize, s: &Segment| format!("{} ({}-{})", i + 1, s.start, s.end);
    // (start, end, index) of well-formed segments.
    let mut ok: Vec<(usize, usize, usize)> = Vec::new();
    for (i, seg) in segments.iter().enumerate() {
        let start = parse_boundary(&seg.start);
        let end = parse_boundary(&seg.end);
        if let Err(why) = start {
            problems.push(Problem::new(format!("segments[{i}].start"), TariffProblem::BadStart { segment: label(i, seg), value: seg.start.clone(), why }));
        }
        if let Err(why) = end {
            problems.push(Problem::new(format!("segments[{i}].end"), TariffProblem::BadEnd { segment: label(i, seg), value: seg.end.clone(), why }));
        }
        if let (Ok(s), Ok(e)) = (start, end) {
            if e <= s {
                problems.push(Problem::new(format!("segments[{i}].end"), TariffProblem::EndNotAfterStart { segment: label(i, seg) }));
            } else {
                ok.push((s, e, i));
            }
        }
    }
    ok.sort();
    let mut cursor = 0usize;
    let mut last: Option<usize> = None;
    for &(s, e, i) in &ok {
        let seg = &segments[i];
        if s > cursor {
            problems.push(Problem::new(
                format!("segments[{i}].start"),
                TariffProblem::Gap { from: boundary_label(cursor), to: boundary_label(s), before: label(i, seg) },
            ));
        } else if s < cursor {
            let other = last.map(|j| label(j, &segments[j])).unwrap_or_default();
            problems.push(Problem::new(format!("segments[{i}].start"), TariffProblem::Overlap { segment: label(i, seg), other }));
        }
        if e > cursor {
            cursor = e;
            last = Some(i);
        }
    }
    if cursor < SLOTS_PER_DAY && !ok.is_empty() {
        problems.push(Problem::new("segments", TariffProblem::GapAtEnd { from: boundary_label(cursor) }));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut slots = vec![Tier::Flat; SLOTS_PER_DAY];
    for &(s, e, i) in &ok {
        slots[s..e].fill(segments[i].tier);
    }
    Ok(slots)
}

/// A template as the editor submits it: segments instead of slots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffTemplateForm {
    #[serde(default)]
    pub id: String,
    pub name: String,
    #[serde(default = "one")]
    pub version: i64,
    pub segments: Vec<Segment>,
    #[serde(default)]
    pub prices: TierPrices,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parking: Option<ParkingRule>,
}

fn one() -> i64 {
    1
}

impl TariffTemplateForm {
    /// Converts and validates; segment problems and template problems are
    /// returned together (slot-count problems are implied by segment ones and
    /// not repeated).
    pub fn into_template(self) -> Result<TariffTemplate, Vec<Problem<TariffProblem>>> {
        let (slots, mut problems) = match segments_to_slots(&self.segments) {
            Ok(slots) => (slots, Vec::new()),
            Err(p) => (Vec::new(), p),
        };
        let seg_ok = problems.is_empty();
        // Tiers named by segments still need prices even if the schedule is bad.
        let named: Vec<Tier> = self.segments.iter().map(|s| s.tier).collect();
        let t = TariffTemplate {
            id: self.id,
            name: self.name,
            version: self.version,
            slots: if seg_ok { slots } else { named },
            prices: self.prices,
            parking: self.parking,
        };
        problems.extend(t.problems().into_iter().filter(|p| seg_ok || p.field != "slots"));
        if problems.is_empty() {
            Ok(t)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn p(s: &str) -> PricePerKwh {
        PricePerKwh::parse_yuan(s).unwrap()
    }

    /// valley 00-08, flat 08-10, peak 10-12, sharp 12-13, peak 13-18, flat 18-24
    pub(crate) fn sample() -> TariffTemplate {
        let mut slots = vec![Tier::Flat; 48];
        slots[0..16].fill(Tier::Valley);
        slots[20..24].fill(Tier::Peak);
        slots[24..26].fill(Tier::Sharp);
        slots[26..36].fill(Tier::Peak);
        TariffTemplate {
            id: "tt-1".into(),
            name: "深圳标准分时".into(),
            version: 1,
            slots,
            prices: TierPrices::default()
                .with(Tier::Sharp, p("1.2000"), p("0.8000"))
                .with(Tier::Peak, p("1.0000"), p("0.8000"))
                .with(Tier::Flat, p("0.6500"), p("0.6000"))
                .with(Tier::Valley, p("0.3000"), p("0.4000")),
            parking: Some(ParkingRule { free_minutes: 30, fen_per_minute: Fen(10), cap_per_session: Some(Fen(3000)) }),
        }
    }

    #[test]
    fn valid_template_passes() {
        assert_eq!(sample().validate(), Ok(()));
        assert_eq!(sample().tiers_used(), Tier::ALL.to_vec());
    }

    #[test]
    fn reports_all_problems() {
        let mut t = sample();
        t.name = "   ".into();
        t.version = 0;
        t.slots.truncate(47);
        t.prices.sharp = None;
        t.prices.peak = Some(TierPrice::new(p("-0.1"), p("10.0001")));
        t.parking = Some(ParkingRule { free_minutes: 2000, fen_per_minute: Fen(-1), cap_per_session: Some(Fen(-5)) });
        let probs = t.validate().unwrap_err();
        let fields: Vec<&str> = probs.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "name",
                "version",
                "slots",
                "prices.sharp",
                "prices.peak.electricity",
                "prices.peak.service",
                "parking.fenPerMinute",
                "parking.freeMinutes",
                "parking.capPerSession"
            ]
        );
        assert_eq!(probs[2].kind, TariffProblem::NotWholeDay { expected: 48, got: 47 });
        assert!(probs[2].kind.to_string().contains("got 47"), "{}", probs[2].kind);
    }

    #[test]
    fn name_length_counts_characters() {
        let mut t = sample();
        t.name = "电".repeat(50);
        assert_eq!(t.validate(), Ok(()));
        t.name = "电".repeat(51);
        assert_eq!(t.validate().unwrap_err()[0].field, "name");
    }

    #[test]
    fn unused_tier_needs_no_price_and_zero_is_allowed() {
        let mut t = sample();
        t.slots = vec![Tier::Flat; 48];
        t.prices = TierPrices::default().with(Tier::Flat, p("0"), p("0"));
        t.parking = None;
        assert_eq!(t.validate(), Ok(()));
        t.prices.set(Tier::Flat, Some(TierPrice::new(MAX_PRICE, MAX_PRICE)));
        assert_eq!(t.validate(), Ok(()));
    }

    #[test]
    fn parking_fee() {
        let r = ParkingRule { free_minutes: 30, fen_per_minute: Fen(10), cap_per_session: Some(Fen(300)) };
        assert_eq!(r.fee(0), Fen(0));
        assert_eq!(r.fee(30), Fen(0));
        assert_eq!(r.fee(31), Fen(10));
        assert_eq!(r.fee(45), Fen(150));
        assert_eq!(r.fee(10_000), Fen(300));
        let uncapped = ParkingRule { cap_per_session: None, ..r };
        assert_eq!(uncapped.fee(130), Fen(1000));
        assert_eq!(uncapped.fee(u32::MAX), Fen((u32::MAX as i64 - 30) * 10));
    }

    #[test]
    fn segments_round_trip() {
        let t = sample();
        let segs = t.segments();
        assert_eq!(
            segs,
            vec![
                Segment::new("00:00", "08:00", Tier::Valley),
                Segment::new("08:00", "10:00", Tier::Flat),
                Segment::new("10:00", "12:00", Tier::Peak),
                Segment::new("12:00", "13:00", Tier::Sharp),
                Segment::new("13:00", "18:00", Tier::Peak),
                Segment::new("18:00", "24:00", Tier::Flat),
            ]
        );
        assert_eq!(segments_to_slots(&segs).unwrap(), t.slots);
        // Order does not matter; adjacent same-tier segments are fine.
        let mut shuffled = segs.clone();
        shuffled.reverse();
        shuffled.push(Segment::new("23:30", "24:00", Tier::Flat));
        shuffled.iter_mut().find(|s| s.start == "18:00").unwrap().end = "23:30".into();
        assert_eq!(segments_to_slots(&shuffled).unwrap(), t.slots);
        let whole = [Segment::new("00:00", "24:00", Tier::Valley)];
        assert_eq!(segments_to_slots(&whole).unwrap(), vec![Tier::Valley; 48]);
    }

    #[test]
    fn segment_problems_name_the_segment() {
        let segs = vec![
            Segment::new("00:00", "08:15", Tier::Valley),
            Segment::new("8:00", "10:00", Tier::Flat),
            Segment::new("10:00", "09:00", Tier::Peak),
            Segment::new("24:30", "25:00", Tier::Peak),
        ];
        let probs = segments_to_slots(&segs).unwrap_err();
        let fields: Vec<&str> = probs.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            ["segments[0].end", "segments[1].start", "segments[2].end", "segments[3].start", "segments[3].end"]
        );
        assert!(probs[0].kind.to_string().contains("Segment 1 (00:00-08:15)"), "{}", probs[0].kind.to_string());
        assert!(probs[0].kind.to_string().contains("half-hour"));
        assert!(probs[2].kind.to_string().contains("after start"));
    }

    #[test]
    fn gaps_and_overlaps() {
        let segs = vec![
            Segment::new("00:00", "08:00", Tier::Valley),
            Segment::new("09:00", "12:00", Tier::Flat),
            Segment::new("11:00", "20:00", Tier::Peak),
        ];
        let probs = segments_to_slots(&segs).unwrap_err();
        assert_eq!(probs.len(), 3, "{probs:#?}");
        assert_eq!(probs[0].field, "segments[1].start");
        assert!(probs[0].kind.to_string().contains("Gap: 08:00-09:00"), "{}", probs[0].kind.to_string());
        assert_eq!(probs[1].field, "segments[2].start");
        assert!(probs[1].kind.to_string().contains("Segment 3 (11:00-20:00) overlaps segment 2 (09:00-12:00)"), "{}", probs[1].kind.to_string());
        assert_eq!(probs[2].field, "segments");
        assert!(probs[2].kind.to_string().contains("20:00-24:00"));
        assert_eq!(segments_to_slots(&[]).unwrap_err()[0].field, "segments");
        let missing_start = [Segment::new("00:30", "24:00", Tier::Flat)];
        assert!(segments_to_slots(&missing_start).unwrap_err()[0].kind.to_string().contains("00:00-00:30"));
    }

    #[test]
    fn form_round_trip_and_problems() {
        let t = sample();
        let form = t.to_form();
        assert_eq!(form.clone().into_template().unwrap(), t);
        let json = serde_json::to_value(&form).unwrap();
        assert_eq!(json["segments"][0], serde_json::json!({"start":"00:00","end":"08:00","tier":"valley"}));
        assert_eq!(json["parking"]["fenPerMinute"], 10);
        let mut bad = form;
        bad.segments.pop();
        bad.prices.sharp = None;
        let probs = bad.into_template().unwrap_err();
        let fields: Vec<&str> = probs.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["segments", "prices.sharp"]);
    }

    #[test]
    fn serde_shape() {
        let t = sample();
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(v["slots"].as_array().unwrap().len(), 48);
        assert_eq!(v["slots"][0], "valley");
        assert_eq!(v["prices"]["sharp"], serde_json::json!({"electricity": 12000, "service": 8000}));
        assert_eq!(v["parking"]["capPerSession"], 3000);
        let back: TariffTemplate = serde_json::from_value(v).unwrap();
        assert_eq!(back, t);
        // A short slot list still deserialises so validate() can explain it.
        let short: TariffTemplate =
            serde_json::from_str(r#"{"id":"x","name":"n","version":1,"slots":["flat"],"prices":{}}"#).unwrap();
        assert_eq!(short.validate().unwrap_err().len(), 2);
    }
}
