//! Login, heartbeat and the tariff model (specification section 6,
//! "注册心跳帧类型码数据定义"). Offsets are within the body.

use super::{record, GunNo, PileNo, TariffModelId};
use crate::units::PriceE5;
use crate::wire::{code, Ascii, Bcd, Field, FieldError, Reader};
use serde::{Serialize, Serializer};

code! {
    /// "桩类型".
    pub enum PileType {
        /// 0: DC ("直流桩").
        Dc = 0,
        /// 1: AC ("交流桩").
        Ac = 1,
    }
}

code! {
    /// "网络链接类型".
    pub enum NetworkType {
        Sim = 0x00,
        Lan = 0x01,
        Wan = 0x02,
        /// 0x03 其他.
        OtherNetwork = 0x03,
    }
}

code! {
    /// "运营商" (the SIM's carrier). The specification has no 0x01.
    pub enum Carrier {
        /// 0x00 移动.
        ChinaMobile = 0x00,
        /// 0x02 电信.
        ChinaTelecom = 0x02,
        /// 0x03 联通.
        ChinaUnicom = 0x03,
        /// 0x04 其他.
        OtherCarrier = 0x04,
    }
}

record! {
    /// 0x01 充电桩登录认证: sent after every reset or reconnection; nothing
    /// else may follow until the platform accepts it. 30 bytes.
    pub struct Login {
        /// 0, 7 bytes, BCD: the pile number.
        pub pile: PileNo,
        /// 7, 1 byte, BIN: DC or AC.
        pub pile_type: PileType,
        /// 8, 1 byte, BIN: the number of guns ("充电枪数量").
        pub gun_count: u8,
        /// 9, 1 byte, BIN: the protocol version × 10 (0x0F = V1.5, 0x10 = V1.6).
        pub protocol_version: u8,
        /// 10, 8 bytes, ASCII, zero-padded: the firmware version ("程序版本").
        pub software_version: Ascii<8>,
        /// 18, 1 byte, BIN.
        pub network: NetworkType,
        /// 19, 10 bytes, BCD: the SIM number (ICCID), zeros when unknown.
        pub sim: Bcd<10>,
        /// 29, 1 byte, BIN.
        pub carrier: Carrier,
    }
}

code! {
    /// "登陆结果".
    pub enum LoginResult {
        Accepted = 0x00,
        Refused = 0x01,
    }
}

record! {
    /// 0x02 登录认证应答. 8 bytes. (A refused pile is then disconnected.)
    pub struct LoginAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub result: LoginResult,
    }
}

code! {
    /// "枪状态" of the heartbeat.
    pub enum GunHealth {
        Normal = 0x00,
        Fault = 0x01,
    }
}

record! {
    /// 0x03 充电桩心跳包: every 10 s; three missed heartbeats mean the link
    /// is down and the pile logs in again. One per gun. 9 bytes.
    pub struct Heartbeat {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
        /// 8, 1 byte, BIN.
        pub gun_status: GunHealth,
    }
}

record! {
    /// 0x04 心跳包应答. 9 bytes.
    pub struct HeartbeatAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
        /// 8, 1 byte, BIN: always 0 ("置0").
        pub answer: u8,
    }
}

impl Heartbeat {
    /// The answer the specification asks for.
    pub fn answer(&self) -> HeartbeatAnswer {
        HeartbeatAnswer { pile: self.pile, gun: self.gun, answer: 0 }
    }
}

record! {
    /// 0x05 计费模型验证请求: after login, until answered. 9 bytes.
    pub struct TariffCheck {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 2 bytes, BCD: the model the pile holds (0000 at its first connection).
        pub model: TariffModelId,
    }
}

code! {
    /// "验证结果".
    pub enum TariffCheckResult {
        /// 0x00: the pile's model is the platform's.
        Same = 0x00,
        /// 0x01: it differs; the pile then asks for the model (0x09).
        Differs = 0x01,
    }
}

record! {
    /// 0x06 计费模型验证请求应答. 10 bytes.
    pub struct TariffCheckAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 2 bytes, BCD.
        pub model: TariffModelId,
        /// 9, 1 byte, BIN.
        pub result: TariffCheckResult,
    }
}

record! {
    /// 0x09 充电桩计费模型请求: until answered; a pile without a model does
    /// not charge. 7 bytes.
    pub struct TariffRequest {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
    }
}

record! {
    /// One rate of the model: electricity and service fee, each in 0.00001
    /// yuan per kWh ("精确到五位小数"). 8 bytes.
    pub struct Rate {
        /// +0, 4 bytes, BIN: electricity fee ("电费费率").
        pub electricity: PriceE5,
        /// +4, 4 bytes, BIN: service fee ("服务费费率").
        pub service: PriceE5,
    }
}

code! {
    /// Which rate a half-hour slot uses ("时段费率号").
    pub enum RateIndex {
        /// 0x00 尖.
        Sharp = 0x00,
        /// 0x01 峰.
        Peak = 0x01,
        /// 0x02 平.
        Flat = 0x02,
        /// 0x03 谷.
        Valley = 0x03,
    }
}

/// The 48 half-hour slots of a day, 00:00-00:30 first, each naming its rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HalfHourSlots(pub [RateIndex; 48]);

impl Field for HalfHourSlots {
    const LEN: usize = 48;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        let bytes: [u8; 48] = r.array(field)?;
        Ok(HalfHourSlots(bytes.map(RateIndex::from)))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend(self.0.iter().map(|r| u8::from(*r)));
    }
}

impl Serialize for HalfHourSlots {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

#[cfg(test)]
impl proptest::arbitrary::Arbitrary for HalfHourSlots {
    type Parameters = ();
    type Strategy = proptest::strategy::BoxedStrategy<Self>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        use proptest::prelude::*;
        proptest::collection::vec(any::<RateIndex>(), 48)
            .prop_map(|v| HalfHourSlots(v.try_into().expect("48 slots")))
            .boxed()
    }
}

record! {
    /// The tariff model of 0x0A and 0x58 after the pile number and model id:
    /// four rates, the loss ratio and the 48 slots. 81 bytes.
    pub struct TariffModel {
        /// +0, 8 bytes: 尖 (sharp).
        pub sharp: Rate,
        /// +8, 8 bytes: 峰 (peak).
        pub peak: Rate,
        /// +16, 8 bytes: 平 (flat).
        pub flat: Rate,
        /// +24, 8 bytes: 谷 (valley).
        pub valley: Rate,
        /// +32, 1 byte, BIN: "计损比例", the percentage a pile adds to the
        /// energy it reports; the specification says the platform sets 0.
        pub loss_ratio: u8,
        /// +33, 48 bytes, BIN: the rate of each half hour.
        pub slots: HalfHourSlots,
    }
}

impl TariffModel {
    /// The rate a slot names (`None` for a value outside 0-3).
    pub fn rate(&self, index: RateIndex) -> Option<&Rate> {
        match index {
            RateIndex::Sharp => Some(&self.sharp),
            RateIndex::Peak => Some(&self.peak),
            RateIndex::Flat => Some(&self.flat),
            RateIndex::Valley => Some(&self.valley),
            RateIndex::Other(_) => None,
        }
    }

    /// The rate index of the half hour that contains `hour:minute`.
    pub fn slot_at(&self, hour: u8, minute: u8) -> Option<RateIndex> {
        let slot = usize::from(hour) * 2 + usize::from(minute) / 30;
        (hour < 24 && minute < 60).then(|| self.slots.0[slot])
    }
}

record! {
    /// 0x0A 计费模型请求应答. 90 bytes. (The specification's table says the
    /// model id is "固定值：01 00"; any id is encoded as given.)
    pub struct TariffAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 2 bytes, BCD.
        pub model: TariffModelId,
        /// 9, 81 bytes.
        pub tariff: TariffModel,
    }
}
