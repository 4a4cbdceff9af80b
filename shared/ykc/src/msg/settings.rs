//! Settings the platform pushes (specification section 9,
//! "运营平台设置帧类型码数据定义"). Offsets are within the body.

use super::{record, Outcome, PileNo, TariffModel, TariffModelId};
use crate::wire::{code, Cp56Time2a};

code! {
    /// "是否允许工作".
    pub enum WorkAllowed {
        /// 0x00: the pile works normally.
        Allowed = 0x00,
        /// 0x01: the pile is locked out of service ("停止使用，锁定充电桩").
        Locked = 0x01,
    }
}

record! {
    /// 0x52 充电桩工作参数设置: enable or lock the pile and cap its output. 9 bytes.
    pub struct WorkParams {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub allowed: WorkAllowed,
        /// 8, 1 byte, BIN: the highest output allowed, % of the rated power (30-100).
        pub max_power_percent: u8,
    }
}

record! {
    /// 0x51 充电桩工作参数设置应答. 8 bytes.
    pub struct WorkParamsAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub result: Outcome,
    }
}

record! {
    /// 0x56 对时设置: the platform's clock, daily (and, in this product, at login). 14 bytes.
    pub struct TimeSync {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 7 bytes, CP56Time2a.
        pub time: Cp56Time2a,
    }
}

record! {
    /// 0x55 对时设置应答: the pile's clock after the sync. 14 bytes.
    pub struct TimeSyncAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 7 bytes, CP56Time2a.
        pub time: Cp56Time2a,
    }
}

record! {
    /// 0x58 计费模型设置: the platform pushes a tariff model (the pile
    /// applies it while idle). Same body as 0x0A. 90 bytes.
    pub struct TariffSet {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 2 bytes, BCD.
        pub model: TariffModelId,
        /// 9, 81 bytes.
        pub tariff: TariffModel,
    }
}

record! {
    /// 0x57 计费模型应答: whether the pile took the pushed model. 8 bytes.
    pub struct TariffSetAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub result: Outcome,
    }
}
