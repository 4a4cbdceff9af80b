//! A station's tariff as a YKC tariff model: the four rates (sharp, peak, flat, valley) in
//! 0.00001 yuan per kWh (the product keeps 0.0001, so exactly ten times),
//! the loss ratio the specification has the platform set to 0, and the
//! rate of each of the day's 48 half-hour slots (the product's own slots).

use charging::tariff::{Tier, TierPrice, TariffTemplate};
use ykc::msg::{HalfHourSlots, Rate, RateIndex, TariffModel, TariffModelId};
use ykc::units::PriceE5;

/// 0.00001 yuan per 0.0001 yuan.
const E5_PER_E4: i64 = 10;

fn rate(price: Option<TierPrice>) -> Rate {
    let e5 = |p: i64| PriceE5(u32::try_from(p * E5_PER_E4).unwrap_or(u32::MAX));
    match price {
        Some(p) => Rate { electricity: e5(p.electricity.0), service: e5(p.service.0) },
        // A tier no slot uses: zero, never charged.
        None => Rate { electricity: PriceE5(0), service: PriceE5(0) },
    }
}

fn index(tier: Tier) -> RateIndex {
    match tier {
        Tier::Sharp => RateIndex::Sharp,
        Tier::Peak => RateIndex::Peak,
        Tier::Flat => RateIndex::Flat,
        Tier::Valley => RateIndex::Valley,
    }
}

/// The tier a rate index names (`None` for a value outside 0-3).
pub fn tier(index: RateIndex) -> Option<Tier> {
    match index {
        RateIndex::Sharp => Some(Tier::Sharp),
        RateIndex::Peak => Some(Tier::Peak),
        RateIndex::Flat => Some(Tier::Flat),
        RateIndex::Valley => Some(Tier::Valley),
        RateIndex::Other(_) => None,
    }
}

/// The model of a valid template (48 slots; a template is validated when saved).
pub fn model(t: &TariffTemplate) -> TariffModel {
    let mut slots = [RateIndex::Flat; 48];
    for (slot, tier) in slots.iter_mut().zip(&t.slots) {
        *slot = index(*tier);
    }
    TariffModel {
        sharp: rate(t.prices.sharp),
        peak: rate(t.prices.peak),
        flat: rate(t.prices.flat),
        valley: rate(t.prices.valley),
        loss_ratio: 0,
        slots: HalfHourSlots(slots),
    }
}

/// The model's 4-digit id: two digits of the tariff's id and two of its
/// version, so a pile told another tariff, or a new version of the same,
/// holds another id and asks again (0000, a pile's "no model", is never used).
pub fn model_id(tariff_id: &str, version: i64) -> TariffModelId {
    // FNV-1a: stable across builds and platforms (std's hasher is not).
    let hash = tariff_id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let id = (hash % 100) * 100 + version.rem_euclid(100) as u64;
    TariffModelId::from_number(u128::from(if id == 0 { 1 } else { id })).expect("at most 4 digits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use charging::money::PricePerKwh;
    use charging::tariff::TierPrices;

    fn template(version: i64) -> TariffTemplate {
        let mut slots = vec![Tier::Valley; 16];
        slots.extend(vec![Tier::Peak; 4]);
        slots.extend(vec![Tier::Sharp; 4]);
        slots.extend(vec![Tier::Flat; 24]);
        TariffTemplate {
            id: "tariff-1".into(),
            name: "t".into(),
            version,
            slots,
            prices: TierPrices::default()
                .with(Tier::Sharp, PricePerKwh(12_000), PricePerKwh(8_000))
                .with(Tier::Peak, PricePerKwh(10_000), PricePerKwh(8_000))
                .with(Tier::Flat, PricePerKwh(6_253), PricePerKwh(8_000))
                .with(Tier::Valley, PricePerKwh(3_000), PricePerKwh(8_000)),
            parking: None,
        }
    }

    #[test]
    fn rates_are_ten_times_the_products_and_slots_follow_the_template() {
        let m = model(&template(1));
        assert_eq!(m.flat.electricity, PriceE5(62_530));
        assert_eq!(m.sharp.service, PriceE5(80_000));
        assert_eq!(m.slot_at(0, 0), Some(RateIndex::Valley));
        assert_eq!(m.slot_at(8, 15), Some(RateIndex::Peak));
        assert_eq!(m.slot_at(10, 59), Some(RateIndex::Sharp));
        assert_eq!(m.slot_at(23, 30), Some(RateIndex::Flat));
        assert_eq!(m.loss_ratio, 0);
    }

    #[test]
    fn a_new_version_or_another_tariff_is_another_model() {
        let a = model_id("tariff-1", 1);
        assert_ne!(a, model_id("tariff-1", 2));
        assert_ne!(a, model_id("tariff-2", 1));
        assert_eq!(a, model_id("tariff-1", 1));
        assert!(a.digits().len() == 4 && a.digits() != "0000");
    }
}
