//! Money and energy as the integers the specification sends: never floats.
//!
//! | type | unit | where |
//! |---|---|---|
//! | [`PriceE5`] | 0.00001 yuan per kWh ("精确到五位小数") | tariff rates (0x0A, 0x58), unit prices of the transaction record (0x3B) |
//! | [`KwhE4`] | 0.0001 kWh ("精确到小数点后四位") | energy of the real-time data (0x13) and the transaction record (0x3B) |
//! | [`YuanE4`] | 0.0001 yuan ("精确到小数点后四位") | amounts of the real-time data and the transaction record |
//! | [`Fen`] | 0.01 yuan ("保留两位小数") | account balances (0x32, 0x34, 0x42) |

use crate::wire::{Field, FieldError, Reader};
use serde::Serialize;

macro_rules! unit {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
        #[cfg_attr(test, derive(proptest_derive::Arbitrary))]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl Field for $name {
            const LEN: usize = 4;
            fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
                Ok($name(u32::read(r, field)?))
            }
            fn write(&self, out: &mut Vec<u8>) {
                self.0.write(out);
            }
        }
    };
}

unit!(
    /// A price in 0.00001 yuan per kWh: 1.30000 yuan/kWh is `PriceE5(130000)`.
    PriceE5
);
unit!(
    /// Energy in 0.0001 kWh: 12.3456 kWh is `KwhE4(123456)`.
    KwhE4
);
unit!(
    /// An amount in 0.0001 yuan: 1.2345 yuan is `YuanE4(12345)`.
    YuanE4
);
unit!(
    /// An amount in fen (0.01 yuan): 1000.00 yuan is `Fen(100000)`.
    Fen
);

impl PriceE5 {
    /// The amount of `energy` at this price, in 0.0001 yuan, rounded half
    /// up. The specification does not say how a pile rounds (it sends the
    /// amounts it computed); this is the platform's own figure to compare
    /// with them.
    pub fn amount(self, energy: KwhE4) -> YuanE4 {
        // 1e-5 yuan/kWh × 1e-4 kWh = 1e-9 yuan; 1e-4 yuan = 1e5 of those.
        let nano = u64::from(self.0) * u64::from(energy.0);
        YuanE4(u32::try_from((nano + 50_000) / 100_000).unwrap_or(u32::MAX))
    }
}

impl YuanE4 {
    /// The amount in fen, rounded half up (0.0050 yuan is 1 fen).
    pub fn to_fen(self) -> Fen {
        Fen((self.0 + 50) / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn price_times_energy_in_ten_thousandths_of_a_yuan() {
        // 1.30000 yuan/kWh × 10.0000 kWh = 13.0000 yuan.
        assert_eq!(PriceE5(130_000).amount(KwhE4(100_000)), YuanE4(130_000));
        // 0.12345 yuan/kWh × 0.0001 kWh = 0.000012345 yuan, rounds to 0.0000.
        assert_eq!(PriceE5(12_345).amount(KwhE4(1)), YuanE4(0));
        // 0.5 yuan/kWh × 0.0001 kWh = 0.00005 yuan: half rounds up to 0.0001.
        assert_eq!(PriceE5(50_000).amount(KwhE4(1)), YuanE4(1));
        assert_eq!(YuanE4(12_349).to_fen(), Fen(123));
        assert_eq!(YuanE4(12_350).to_fen(), Fen(124));
    }
}
