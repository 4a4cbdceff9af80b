//! The charging core's refusals and labels (`charging`), in words: tariff
//! and opening-hours problems, region, pricing, refund and close errors,
//! and the statuses and actions those messages name.

use charging::connector::{ActionError, ConnectorStatus, OperatorAction};
use charging::hours::HoursProblem;
use charging::orders::{CloseError, OrderStatus, RefundError};
use charging::pricing::PricingError;
use charging::region::RegionError;
use charging::tariff::{PricePart, TariffProblem, Tier, TimeProblem};
use charging::Problem;
use envelope::{msg, Arg, Text};

use crate::request::FieldProblem;

/// Problems of one validator, each at its field, in words.
pub fn problems<K>(found: &[Problem<K>], words: impl Fn(&K) -> Text) -> Vec<FieldProblem> {
    found.iter().map(|p| FieldProblem::new(&p.field, words(&p.kind))).collect()
}

/// A tier as the tariff messages name it ("sharp").
pub fn tier(t: Tier) -> Text {
    match t {
        Tier::Sharp => msg::tariff::tier::sharp(),
        Tier::Peak => msg::tariff::tier::peak(),
        Tier::Flat => msg::tariff::tier::flat(),
        Tier::Valley => msg::tariff::tier::valley(),
    }
}

fn price_part(p: PricePart) -> Text {
    match p {
        PricePart::Electricity => msg::tariff::part::electricity(),
        PricePart::Service => msg::tariff::part::service(),
    }
}

fn time(p: TimeProblem) -> Text {
    match p {
        TimeProblem::NotHhMm => msg::tariff::time::not_hh_mm(),
        TimeProblem::NotTimeOfDay => msg::tariff::time::not_time_of_day(),
        TimeProblem::NotHalfHour => msg::tariff::time::not_half_hour(),
    }
}

pub fn tariff(p: &TariffProblem) -> Text {
    use TariffProblem as P;
    match p {
        P::NameRequired => msg::tariff::name_required(),
        P::NameTooLong { max } => msg::tariff::name_too_long(max),
        P::VersionBelowOne => msg::tariff::version_below_one(),
        P::NotWholeDay { expected, got } => msg::tariff::not_whole_day(expected, got),
        P::TierWithoutPrice { tier: t } => msg::tariff::tier_without_price(tier(*t)),
        P::PriceNegative { tier: t, part } => msg::tariff::price_negative(price_part(*part), tier(*t)),
        P::PriceTooHigh { tier: t, part, max } => msg::tariff::price_too_high(max, price_part(*part), tier(*t)),
        P::ParkingFeeNegative => msg::tariff::parking_fee_negative(),
        P::ParkingFeeTooHigh { max } => msg::tariff::parking_fee_too_high(max),
        P::FreeParkingTooLong { max } => msg::tariff::free_parking_too_long(max),
        P::ParkingCapNegative => msg::tariff::parking_cap_negative(),
        P::NoSegments => msg::tariff::no_segments(),
        P::BadStart { segment, value, why } => msg::tariff::bad_start(segment, value, time(*why)),
        P::BadEnd { segment, value, why } => msg::tariff::bad_end(segment, value, time(*why)),
        P::EndNotAfterStart { segment } => msg::tariff::end_not_after_start(segment),
        P::Gap { from, to, before } => msg::tariff::gap(before, from, to),
        P::Overlap { segment, other } => msg::tariff::overlap(other, segment),
        P::GapAtEnd { from } => msg::tariff::gap_at_end(from),
    }
}

pub fn hours(p: &HoursProblem) -> Text {
    use HoursProblem as P;
    let examples = msg::stations::hours::examples;
    match p {
        P::Required => msg::stations::hours::required(examples()),
        P::TooManyPeriods { max, got } => msg::stations::hours::too_many_periods(got, max),
        P::NotAPeriod { part } => msg::stations::hours::not_a_period(examples(), part),
        P::StartsAt24 { part } => msg::stations::hours::starts_at24(part),
        P::StartsWhereItEnds { part } => msg::stations::hours::starts_where_it_ends(part),
        P::Overlap { first, second } => msg::stations::hours::overlap(first, second),
    }
}

pub fn region(e: &RegionError) -> Text {
    match e {
        RegionError::UnknownProvince(code) => msg::stations::region::unknown_province(code),
        RegionError::CityNotInProvince { province, city } => msg::stations::region::city_not_in_province(city, province),
        RegionError::DistrictNotInCity { city, district } => msg::stations::region::district_not_in_city(city, district),
        RegionError::DistrictRequired(city) => msg::stations::region::district_required(city),
        RegionError::DistrictNotAllowed(city) => msg::stations::region::district_not_allowed(city),
    }
}

pub fn pricing(e: &PricingError) -> Text {
    match e {
        PricingError::NoSamples => msg::orders::pricing::no_samples(),
        PricingError::InvalidTariff(found) => msg::orders::pricing::invalid_tariff(Arg::semicolons(found.iter().map(|p| tariff(&p.kind)).collect())),
        PricingError::TimeNotIncreasing { index, prev_ts, ts } => msg::orders::pricing::time_not_increasing(index + 1, prev_ts, ts),
        PricingError::NegativeMeterDelta { index, from_wh, to_wh } => msg::orders::pricing::negative_meter_delta(from_wh, index + 1, to_wh),
        PricingError::SessionTooLong { secs, max } => msg::orders::pricing::session_too_long(max, secs),
        PricingError::NegativeDiscount => msg::orders::pricing::negative_discount(),
        PricingError::Overflow => msg::orders::pricing::overflow(),
    }
}

pub fn refund(e: &RefundError) -> Text {
    match e {
        RefundError::NotPositive => msg::refunds::not_positive(),
        RefundError::NothingRefundable { paid, refunded } => msg::refunds::nothing_refundable(paid, refunded),
        RefundError::ExceedsRefundable { requested, refundable } => msg::refunds::exceeds_refundable(refundable, requested),
        RefundError::ExceedsRequestable { requested, requestable, paid, refunded, pending } => {
            msg::refunds::exceeds_requestable(paid, pending, refunded, requestable, requested)
        }
        RefundError::EmptyReason => msg::refunds::empty_reason(),
        RefundError::ReasonTooLong { chars, max } => msg::refunds::reason_too_long(chars, max),
        RefundError::Overflow => msg::refunds::overflow(),
    }
}

/// An order status as messages name it ("Cancelled").
pub fn order_status(s: OrderStatus) -> Text {
    match s {
        OrderStatus::Charging => msg::orders::status::charging(),
        OrderStatus::Finished => msg::orders::status::finished(),
        OrderStatus::Abnormal => msg::orders::status::abnormal(),
        OrderStatus::Cancelled => msg::orders::status::cancelled(),
    }
}

pub fn close(e: &CloseError) -> Text {
    match e {
        CloseError::NotClosable(s) => msg::orders::close::not_closable(order_status(*s)),
        CloseError::EmptyReason => msg::orders::close::empty_reason(),
        CloseError::ReasonTooLong { chars, max } => msg::orders::close::reason_too_long(chars, max),
    }
}

/// A connector status as messages name it ("Charging").
pub fn connector_status(s: ConnectorStatus) -> Text {
    use ConnectorStatus as S;
    match s {
        S::Available => msg::connectors::status::available(),
        S::Preparing => msg::connectors::status::preparing(),
        S::Charging => msg::connectors::status::charging(),
        S::Suspended => msg::connectors::status::suspended(),
        S::Finishing => msg::connectors::status::finishing(),
        S::Reserved => msg::connectors::status::reserved(),
        S::Unavailable => msg::connectors::status::unavailable(),
        S::Faulted => msg::connectors::status::faulted(),
        S::Offline => msg::connectors::status::offline(),
    }
}

/// An operator's action on a connector ("Disable").
pub fn operator_action(a: OperatorAction) -> Text {
    match a {
        OperatorAction::Enable => msg::connectors::action::enable(),
        OperatorAction::Disable => msg::connectors::action::disable(),
    }
}

pub fn action(e: &ActionError) -> Text {
    let ActionError::NotAllowed { action, status } = e;
    msg::connectors::not_allowed(operator_action(*action), connector_status(*status))
}

#[cfg(test)]
mod tests {
    use super::*;
    use charging::Fen;

    /// The English words are the errors' own (`Display`), so the log and
    /// the answer say the same; only a few carry more for the reader.
    #[test]
    fn english_words_are_the_errors_own() {
        let segment = || "2 (08:00-08:15)".to_string();
        let every = [
            TariffProblem::NameRequired,
            TariffProblem::NameTooLong { max: 50 },
            TariffProblem::VersionBelowOne,
            TariffProblem::NotWholeDay { expected: 48, got: 47 },
            TariffProblem::TierWithoutPrice { tier: Tier::Sharp },
            TariffProblem::PriceNegative { tier: Tier::Peak, part: PricePart::Service },
            TariffProblem::PriceTooHigh { tier: Tier::Flat, part: PricePart::Electricity, max: charging::tariff::MAX_PRICE },
            TariffProblem::ParkingFeeNegative,
            TariffProblem::ParkingFeeTooHigh { max: charging::tariff::MAX_PARKING_FEN_PER_MINUTE },
            TariffProblem::FreeParkingTooLong { max: 1440 },
            TariffProblem::ParkingCapNegative,
            TariffProblem::NoSegments,
            TariffProblem::BadStart { segment: segment(), value: "8:00".into(), why: TimeProblem::NotHhMm },
            TariffProblem::BadEnd { segment: segment(), value: "08:15".into(), why: TimeProblem::NotHalfHour },
            TariffProblem::EndNotAfterStart { segment: segment() },
            TariffProblem::Gap { from: "08:00".into(), to: "09:00".into(), before: segment() },
            TariffProblem::Overlap { segment: segment(), other: "1 (00:00-09:00)".into() },
            TariffProblem::GapAtEnd { from: "20:00".into() },
        ];
        for p in every {
            assert_eq!(tariff(&p).en, p.to_string(), "{p:?}");
        }
        for e in [RefundError::NotPositive, RefundError::ExceedsRefundable { requested: Fen(500), refundable: Fen(300) }, RefundError::EmptyReason, RefundError::Overflow] {
            assert_eq!(refund(&e).en, e.to_string());
        }
        for e in [CloseError::NotClosable(OrderStatus::Cancelled), CloseError::EmptyReason, CloseError::ReasonTooLong { chars: 201, max: 200 }] {
            assert_eq!(close(&e).en, e.to_string());
        }
        let e = ActionError::NotAllowed { action: OperatorAction::Disable, status: ConnectorStatus::Charging };
        assert_eq!(action(&e).en, e.to_string());
        assert!(action(&e).zh.contains("充电中"));
        for e in [RegionError::UnknownProvince("990000".into()), RegionError::DistrictRequired("440300".into()), RegionError::DistrictNotAllowed("441900".into())] {
            assert_eq!(region(&e).en, e.to_string());
        }
        for p in [HoursProblem::Required, HoursProblem::StartsAt24 { part: "24:00-06:00".into() }, HoursProblem::TooManyPeriods { max: 6, got: 7 }] {
            assert_eq!(hours(&p).en, p.to_string());
        }
    }
}
