//! Sessions, the transaction record, balances and offline cards
//! (specification section 8, "运营交互帧类型码数据定义"). Offsets are within
//! the body.

use super::{check_count, record, Body, EncodeError, GunNo, LogicalCardNo, OrderNo, PhysicalCardNo, PileNo};
use crate::units::{Fen, KwhE4, PriceE5, YuanE4};
use crate::wire::{code, Ascii, Cp56Time2a, Field, FieldError, Reader, UInt};
use serde::Serialize;

code! {
    /// "启动方式" of a start the pile asks for.
    pub enum StartMode {
        /// 0x01: a card was swiped.
        Card = 0x01,
        /// 0x02: account and password (the specification: not supported yet).
        Account = 0x02,
        /// 0x03: the car's VIN.
        Vin = 0x03,
    }
}

record! {
    /// 0x31 充电桩主动申请启动充电: a card (or VIN) at the pile asks to
    /// charge. 51 bytes.
    pub struct StartRequest {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
        /// 8, 1 byte, BIN.
        pub mode: StartMode,
        /// 9, 1 byte, BIN: 0x01 when the user typed a password.
        pub needs_password: YesNoByte,
        /// 10, 8 bytes, BIN: the physical card number (or the account), zero bytes first.
        pub card: PhysicalCardNo,
        /// 18, 16 bytes, BIN: the password's MD5, 16 lower-case hex characters.
        pub password_md5: Ascii<16>,
        /// 34, 17 bytes, ASCII: the VIN, last character first ("VIN码需要反序上送"),
        /// zeros unless the mode is VIN; [`StartRequest::vin`] turns it round.
        pub vin_reversed: Ascii<17>,
    }
}

impl StartRequest {
    /// The VIN in reading order (empty when not sent).
    pub fn vin(&self) -> String {
        unreverse_vin(&self.vin_reversed)
    }
}

/// A VIN sent last character first, in reading order: a VIN shorter than
/// 17 characters is zero-padded after its reversed characters, so the
/// reversed bytes start with the padding.
pub(crate) fn unreverse_vin(reversed: &Ascii<17>) -> String {
    let mut bytes = *reversed.bytes();
    bytes.reverse();
    let start = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    let mut padded = [0u8; 17];
    padded[..17 - start].copy_from_slice(&bytes[start..]);
    Ascii::<17>::from_bytes(padded).text()
}

code! {
    /// A yes/no byte (0x00 no, 0x01 yes).
    pub enum YesNoByte {
        No = 0x00,
        Yes = 0x01,
    }
}

code! {
    /// "鉴权成功标志" / "启动结果" / "停止结果": 0x00 failed, 0x01 succeeded.
    pub enum Outcome {
        Failed = 0x00,
        Succeeded = 0x01,
    }
}

code! {
    /// "失败原因" of a refused start (0x32, 0xA2).
    pub enum StartRefusal {
        /// 0x00: no reason (the start was accepted).
        None = 0x00,
        /// 0x01 账户不存在.
        UnknownAccount = 0x01,
        /// 0x02 账户冻结.
        AccountFrozen = 0x02,
        /// 0x03 账户余额不足.
        InsufficientBalance = 0x03,
        /// 0x04 该卡存在未结账记录.
        CardHasUnsettledOrder = 0x04,
        /// 0x05 桩停用.
        PileDisabled = 0x05,
        /// 0x06 该账户不能在此桩上充电.
        NotAllowedOnPile = 0x06,
        /// 0x07 密码错误.
        WrongPassword = 0x07,
        /// 0x08 电站电容不足.
        StationCapacity = 0x08,
        /// 0x09 系统中vin码不存在.
        UnknownVin = 0x09,
        /// 0x0A 该桩存在未结账记录.
        PileHasUnsettledOrder = 0x0A,
        /// 0x0B 该桩不支持刷卡.
        CardsNotSupported = 0x0B,
    }
}

record! {
    /// 0x32 运营平台确认启动充电: the platform's answer to 0x31, with the
    /// order number the session will use. 38 bytes.
    pub struct StartAnswer {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 8 bytes, BCD: the card number shown on the screen.
        pub logical_card: LogicalCardNo,
        /// 32, 4 bytes, BIN: the account balance, fen.
        pub balance: Fen,
        /// 36, 1 byte, BIN.
        pub authorised: Outcome,
        /// 37, 1 byte ("BCD" in the table; its values are 0x01-0x0B).
        pub refusal: StartRefusal,
    }
}

code! {
    /// "失败原因" of a remote start (0x33, 0xA3).
    pub enum RemoteStartFailure {
        None = 0x00,
        /// 0x01 设备编号不匹配.
        PileMismatch = 0x01,
        /// 0x02 枪已在充电.
        AlreadyCharging = 0x02,
        /// 0x03 设备故障.
        Fault = 0x03,
        /// 0x04 设备离线.
        Offline = 0x04,
        /// 0x05 未插枪: the pile sends a success within 60 s if the gun is plugged in then.
        NotPlugged = 0x05,
    }
}

record! {
    /// 0x33 远程启动充电命令回复. 26 bytes.
    pub struct RemoteStartAnswer {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte.
        pub result: Outcome,
        /// 25, 1 byte, BIN.
        pub failure: RemoteStartFailure,
    }
}

record! {
    /// 0x34 运营平台远程控制启机. 44 bytes.
    pub struct RemoteStart {
        /// 0, 16 bytes, BCD: the order the platform opened.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 8 bytes, BCD: the card number shown on the screen.
        pub logical_card: LogicalCardNo,
        /// 32, 8 bytes, BIN: the physical card number (a card can then stop the session).
        pub physical_card: PhysicalCardNo,
        /// 40, 4 bytes, BIN: the account balance, fen.
        pub balance: Fen,
    }
}

code! {
    /// "失败原因" of a remote stop (0x35).
    pub enum RemoteStopFailure {
        None = 0x00,
        /// 0x01 设备编号不匹配.
        PileMismatch = 0x01,
        /// 0x02 枪未处于充电状态.
        NotCharging = 0x02,
        /// 0x03 其他.
        OtherFailure = 0x03,
    }
}

record! {
    /// 0x35 远程停机命令回复. 10 bytes.
    pub struct RemoteStopAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
        /// 8, 1 byte.
        pub result: Outcome,
        /// 9, 1 byte, BIN.
        pub failure: RemoteStopFailure,
    }
}

record! {
    /// 0x36 运营平台远程停机. 8 bytes.
    pub struct RemoteStop {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
    }
}

record! {
    /// One rate's line of the transaction record. 16 bytes.
    pub struct TierLine {
        /// +0, 4 bytes, BIN: unit price (electricity + service), 0.00001 yuan/kWh.
        pub price: PriceE5,
        /// +4, 4 bytes, BIN: energy, 0.0001 kWh.
        pub energy: KwhE4,
        /// +8, 4 bytes, BIN: energy with the loss ratio added, 0.0001 kWh.
        pub loss_energy: KwhE4,
        /// +12, 4 bytes, BIN: amount, 0.0001 yuan.
        pub amount: YuanE4,
    }
}

code! {
    /// "交易标识": how the session was started.
    pub enum TradeKind {
        /// 0x01 app 启动 (a remote start).
        App = 0x01,
        /// 0x02 卡启动.
        Card = 0x02,
        /// 0x04 离线卡启动.
        OfflineCard = 0x04,
        /// 0x05 vin 码启动充电.
        Vin = 0x05,
    }
}

/// The stop reason of the transaction record ("停止原因", appendix 13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(proptest_derive::Arbitrary))]
#[serde(transparent)]
pub struct StopReason(pub u8);

impl StopReason {
    /// The appendix's words for the code (Chinese, as the specification
    /// gives them); `None` for a code it does not list.
    pub fn description(self) -> Option<&'static str> {
        Some(match self.0 {
            0x40 => "结束充电，APP远程停止",
            0x41 => "结束充电，SOC达到100%",
            0x42 => "结束充电，充电电量满足设定条件",
            0x43 => "结束充电，充电金额满足设定条件",
            0x44 => "结束充电，充电时间满足设定条件",
            0x45 => "结束充电，手动停止充电",
            0x46..=0x49 => "结束充电，其他方式",
            0x4A => "充电启动失败，充电桩控制系统故障",
            0x4B => "充电启动失败，控制导引断开",
            0x4C => "充电启动失败，断路器跳位",
            0x4D => "充电启动失败，电表通信中断",
            0x4E => "充电启动失败，余额不足",
            0x4F => "充电启动失败，充电模块故障",
            0x50 => "充电启动失败，急停开入",
            0x51 => "充电启动失败，防雷器异常",
            0x52 => "充电启动失败，BMS未就绪",
            0x53 => "充电启动失败，温度异常",
            0x54 => "充电启动失败，电池反接故障",
            0x55 => "充电启动失败，电子锁异常",
            0x56 => "充电启动失败，合闸失败",
            0x57 => "充电启动失败，绝缘异常",
            0x59 => "充电启动失败，接收BMS握手报文BHM超时",
            0x5A => "充电启动失败，接收BMS和车辆的辨识报文BRM超时",
            0x5B => "充电启动失败，接收电池充电参数报文BCP超时",
            0x5C => "充电启动失败，接收BMS完成充电准备报文BRO超时",
            0x5D => "充电启动失败，接收电池充电总状态报文BCS超时",
            0x5E => "充电启动失败，接收电池充电要求报文BCL超时",
            0x5F => "充电启动失败，接收电池状态信息报文BSM超时",
            0x60 => "充电启动失败，电池在BHM阶段有电压不允许充电",
            0x61 => "充电启动失败，BRO阶段电池实际电压与BCP报文电池电压差距大于5%",
            0x62 => "充电启动失败，预充电阶段BRO由AA变为00",
            0x63 => "充电启动失败，接收主机配置报文超时",
            0x64 => "充电启动失败，充电机未准备就绪",
            0x65..=0x69 => "充电启动失败，其他原因",
            0x6A => "充电异常中止，系统闭锁",
            0x6B => "充电异常中止，导引断开",
            0x6C => "充电异常中止，断路器跳位",
            0x6D => "充电异常中止，电表通信中断",
            0x6E => "充电异常中止，余额不足",
            0x6F => "充电异常中止，交流保护动作",
            0x70 => "充电异常中止，直流保护动作",
            0x71 => "充电异常中止，充电模块故障",
            0x72 => "充电异常中止，急停开入",
            0x73 => "充电异常中止，防雷器异常",
            0x74 => "充电异常中止，温度异常",
            0x75 => "充电异常中止，输出异常",
            0x76 => "充电异常中止，充电无流",
            0x77 => "充电异常中止，电子锁异常",
            0x79 => "充电异常中止，总充电电压异常",
            0x7A => "充电异常中止，总充电电流异常",
            0x7B => "充电异常中止，单体充电电压异常",
            0x7C => "充电异常中止，电池组过温",
            0x7D => "充电异常中止，最高单体充电电压异常",
            0x7E => "充电异常中止，最高电池组过温",
            0x7F => "充电异常中止，BMV单体充电电压异常",
            0x80 => "充电异常中止，BMT电池组过温",
            0x81 => "充电异常中止，电池状态异常停止充电",
            0x82 => "充电异常中止，车辆发报文禁止充电",
            0x83 => "充电异常中止，充电桩断电",
            0x84 => "充电异常中止，接收电池充电总状态报文超时",
            0x85 => "充电异常中止，接收电池充电要求报文超时",
            0x86 => "充电异常中止，接收电池状态信息报文超时",
            0x87 => "充电异常中止，接收BMS中止充电报文超时",
            0x88 => "充电异常中止，接收BMS充电统计报文超时",
            0x89 => "充电异常中止，接收对侧CCS报文超时",
            0x8A..=0x8F => "充电异常中止，其他原因",
            0x90 => "未知原因停止",
            _ => return None,
        })
    }

    /// The appendix's class of the code: a normal end (0x40-0x49), a start
    /// that failed (0x4A-0x69), an abnormal stop (0x6A-0x8F), unknown (0x90).
    pub fn class(self) -> Option<StopClass> {
        match self.0 {
            0x40..=0x49 => Some(StopClass::Completed),
            0x4A..=0x69 => Some(StopClass::StartFailed),
            0x6A..=0x8F => Some(StopClass::Abnormal),
            0x90 => Some(StopClass::Unknown),
            _ => None,
        }
    }
}

/// The appendix's classes of stop reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum StopClass {
    Completed,
    StartFailed,
    Abnormal,
    Unknown,
}

impl Field for StopReason {
    const LEN: usize = 1;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(StopReason(<u8 as Field>::read(r, field)?))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.push(self.0);
    }
}

record! {
    /// 0x3B 交易记录: the bill the pile computed, sent after every session it
    /// started (even one that failed to start), again every 30 s up to three
    /// times until confirmed (0x40). V1.5 moved it to 0x3B and widened the
    /// meter registers to 5 bytes. 158 bytes.
    pub struct TransactionRecord {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 7 bytes, CP56Time2a: start.
        pub start: Cp56Time2a,
        /// 31, 7 bytes, CP56Time2a: end.
        pub end: Cp56Time2a,
        /// 38, 16 bytes: 尖 (sharp).
        pub sharp: TierLine,
        /// 54, 16 bytes: 峰 (peak).
        pub peak: TierLine,
        /// 70, 16 bytes: 平 (flat).
        pub flat: TierLine,
        /// 86, 16 bytes: 谷 (valley).
        pub valley: TierLine,
        /// 102, 5 bytes, BIN: meter register at the start, 0.0001 kWh.
        pub meter_start: UInt<5>,
        /// 107, 5 bytes, BIN: meter register at the end, 0.0001 kWh.
        pub meter_stop: UInt<5>,
        /// 112, 4 bytes, BIN: total energy, 0.0001 kWh.
        pub energy: KwhE4,
        /// 116, 4 bytes, BIN: total energy with the loss ratio, 0.0001 kWh.
        pub loss_energy: KwhE4,
        /// 120, 4 bytes, BIN: total amount (electricity + service), 0.0001 yuan.
        pub amount: YuanE4,
        /// 124, 17 bytes, ASCII: the VIN in reading order ("正序直接上传").
        pub vin: Ascii<17>,
        /// 141, 1 byte, BIN.
        pub trade_kind: TradeKind,
        /// 142, 7 bytes, CP56Time2a: when the record was made.
        pub traded_at: Cp56Time2a,
        /// 149, 1 byte, BIN: appendix 13.1.
        pub stop_reason: StopReason,
        /// 150, 8 bytes, BIN: the physical card number, zeros when none.
        pub physical_card: PhysicalCardNo,
    }
}

impl TransactionRecord {
    /// The four rate lines, sharp first.
    pub fn tiers(&self) -> [&TierLine; 4] {
        [&self.sharp, &self.peak, &self.flat, &self.valley]
    }

    /// The confirmation of this record.
    pub fn confirm(&self, result: ConfirmResult) -> TransactionConfirm {
        TransactionConfirm { order: self.order, result }
    }
}

code! {
    /// "确认结果".
    pub enum ConfirmResult {
        /// 0x00 上传成功.
        Accepted = 0x00,
        /// 0x01 非法账单.
        Illegal = 0x01,
    }
}

record! {
    /// 0x40 交易记录确认: that the record arrived (not that it was settled). 17 bytes.
    pub struct TransactionConfirm {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 1 byte, BIN.
        pub result: ConfirmResult,
    }
}

record! {
    /// 0x42 远程账户余额更新: after a top-up. 20 bytes.
    pub struct BalanceUpdate {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
        /// 8, 8 bytes, BIN: the card charging now (zeros: whoever charges).
        pub physical_card: PhysicalCardNo,
        /// 16, 4 bytes, BIN: the new balance, fen.
        pub balance: Fen,
    }
}

code! {
    /// "修改结果".
    pub enum BalanceUpdateResult {
        Updated = 0x00,
        /// 0x01 设备编号错误.
        WrongPile = 0x01,
        /// 0x02 卡号错误.
        WrongCard = 0x02,
    }
}

record! {
    /// 0x41 余额更新应答. 16 bytes. (The example's length byte, 0x13, is
    /// one short of its table's 7 + 8 + 1 bytes; the table is followed.)
    pub struct BalanceUpdateAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 8 bytes, BIN.
        pub physical_card: PhysicalCardNo,
        /// 15, 1 byte, BIN.
        pub result: BalanceUpdateResult,
    }
}

record! {
    /// One card of the offline list: the number printed on it and the one read.
    pub struct OfflineCard {
        /// +0, 8 bytes, BCD.
        pub logical_card: LogicalCardNo,
        /// +8, 8 bytes, BIN.
        pub physical_card: PhysicalCardNo,
    }
}

/// A list body: a pile number, then entries (with or without a count byte
/// before them, as each frame has it).
macro_rules! list_body {
    (
        $(#[$meta:meta])*
        pub struct $name:ident { entries: $entry:ty, counted: $counted:literal, max: $max:expr, what: $what:literal }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            /// 0, 7 bytes, BCD.
            pub pile: PileNo,
            /// The entries, in order.
            pub entries: Vec<$entry>,
        }

        #[cfg(test)]
        impl proptest::arbitrary::Arbitrary for $name {
            type Parameters = ();
            type Strategy = proptest::strategy::BoxedStrategy<Self>;
            fn arbitrary_with(_: ()) -> Self::Strategy {
                use proptest::prelude::*;
                (any::<PileNo>(), proptest::collection::vec(any::<$entry>(), 0..=$max))
                    .prop_map(|(pile, entries)| $name { pile, entries })
                    .boxed()
            }
        }

        impl Body for $name {
            fn expected_len() -> String {
                let head = PileNo::LEN + if $counted { 1 } else { 0 };
                format!("{head} + {} × n (n ≤ {})", <$entry as Field>::LEN, $max)
            }
            fn accepts_len(len: usize) -> bool {
                let head = PileNo::LEN + if $counted { 1 } else { 0 };
                len >= head && (len - head) % <$entry as Field>::LEN == 0
                    && (len - head) / <$entry as Field>::LEN <= $max
            }
            fn read_body(r: &mut Reader<'_>) -> Result<Self, FieldError> {
                let pile = <PileNo as Field>::read(r, "pile")?;
                if $counted {
                    let count = usize::from(<u8 as Field>::read(r, "count")?);
                    let n = r.remaining() / <$entry as Field>::LEN;
                    if count != n {
                        return Err(FieldError::Invalid {
                            field: "count",
                            reason: format!("says {count} entries, the body holds {n}"),
                        });
                    }
                }
                let n = r.remaining() / <$entry as Field>::LEN;
                let entries = (0..n).map(|_| <$entry as Field>::read(r, "entries")).collect::<Result<_, _>>()?;
                Ok($name { pile, entries })
            }
            fn write_body(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
                check_count($what, self.entries.len(), $max)?;
                Field::write(&self.pile, out);
                if $counted {
                    out.push(self.entries.len() as u8);
                }
                for entry in &self.entries {
                    Field::write(entry, out);
                }
                Ok(())
            }
        }
    };
}

list_body! {
    /// 0x44 离线卡数据同步: cards the pile may authorise while offline
    /// (added or overwritten). Body: pile (7), count (1, BIN, at most 15),
    /// then 16 bytes a card. (The example's length byte, 0x2C, is that of two
    /// cards; it shows one.)
    pub struct OfflineCardSync { entries: OfflineCard, counted: true, max: 15, what: "offline cards to sync" }
}

code! {
    /// "失败原因" of an offline card sync.
    pub enum SyncFailure {
        None = 0x00,
        /// 0x01 卡号格式错误.
        BadCardNumber = 0x01,
        /// 0x02 储存空间不足.
        NoSpace = 0x02,
    }
}

record! {
    /// 0x43 离线卡数据同步应答. 9 bytes.
    pub struct OfflineCardSyncAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub saved: Outcome,
        /// 8, 1 byte, BIN.
        pub failure: SyncFailure,
    }
}

list_body! {
    /// 0x46 离线卡数据清除: physical card numbers to forget. Body: pile (7),
    /// count (1, at most 24), 8 bytes a card.
    pub struct OfflineCardClear { entries: PhysicalCardNo, counted: true, max: 24, what: "offline cards to clear" }
}

record! {
    /// One card's line of the clear answer. 10 bytes.
    pub struct ClearResult {
        /// +0, 8 bytes, BIN.
        pub physical_card: PhysicalCardNo,
        /// +8, 1 byte, BIN: 0x00 not cleared, 0x01 cleared.
        pub cleared: Outcome,
        /// +9, 1 byte: 0x01 bad card number (the table's other values contradict each other).
        pub failure: u8,
    }
}

list_body! {
    /// 0x45 离线卡数据清除应答: one line per card, no count byte. Body: pile
    /// (7), 10 bytes a card.
    pub struct OfflineCardClearAnswer { entries: ClearResult, counted: false, max: 24, what: "offline card clear results" }
}

list_body! {
    /// 0x48 离线卡数据查询: which of these cards the pile holds. Body: pile
    /// (7), count (1, at most 26), 8 bytes a card.
    pub struct OfflineCardQuery { entries: PhysicalCardNo, counted: true, max: 26, what: "offline cards to query" }
}

record! {
    /// One card's line of the query answer. 9 bytes.
    pub struct QueryResult {
        /// +0, 8 bytes, BIN.
        pub physical_card: PhysicalCardNo,
        /// +8, 1 byte, BIN: whether the pile holds it.
        pub present: YesNoByte,
    }
}

list_body! {
    /// 0x47 离线卡数据查询应答: one line per card, no count byte. Body: pile
    /// (7), 9 bytes a card.
    pub struct OfflineCardQueryAnswer { entries: QueryResult, counted: false, max: 26, what: "offline card query results" }
}
