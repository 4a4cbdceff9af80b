//! Two guns charging one car (specification section 12, "并充模式帧类型码数据
//! 定义"): V1.6 only. Each frame is its single-gun counterpart plus the
//! main/auxiliary flag and the parallel number that ties the guns together.
//! The frame table of section 4 gives 0xA3 and 0xA4 the opposite directions;
//! section 12 and the odd/even rule (0xA3 from the pile) are followed.
//! Offsets are within the body.

use super::{
    record, GunNo, LogicalCardNo, OrderNo, Outcome, ParallelNo, PhysicalCardNo, PileNo, RemoteStartFailure,
    StartMode, StartRefusal, YesNoByte,
};
use crate::units::Fen;
use crate::wire::{code, Ascii};

code! {
    /// "主辅枪标记".
    pub enum GunRole {
        Main = 0x00,
        Auxiliary = 0x01,
    }
}

record! {
    /// 0xA1 充电桩主动申请并充充电: 0x31 for each gun of a parallel start. 58 bytes.
    pub struct ParallelStartRequest {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
        /// 8, 1 byte, BIN.
        pub mode: StartMode,
        /// 9, 1 byte, BIN.
        pub needs_password: YesNoByte,
        /// 10, 8 bytes, BIN.
        pub card: PhysicalCardNo,
        /// 18, 16 bytes: the password's MD5, 16 lower-case hex characters.
        pub password_md5: Ascii<16>,
        /// 34, 17 bytes, ASCII: the VIN, last character first.
        pub vin_reversed: Ascii<17>,
        /// 51, 1 byte, BIN.
        pub role: GunRole,
        /// 52, 6 bytes, BCD: yyMMddHHmmss, the same on every gun of the start (made by the pile).
        pub parallel_no: ParallelNo,
    }
}

impl ParallelStartRequest {
    /// The VIN in reading order (empty when not sent).
    pub fn vin(&self) -> String {
        super::operation::unreverse_vin(&self.vin_reversed)
    }
}

record! {
    /// 0xA2 运营平台确认并充启动充电: 0x32 plus the parallel number; the
    /// pile starts only when every gun is authorised. 44 bytes. (The
    /// example writes frame type 32; its length, 0x30, is 0xA2's.)
    pub struct ParallelStartAnswer {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 8 bytes, BCD.
        pub logical_card: LogicalCardNo,
        /// 32, 4 bytes, BIN: fen.
        pub balance: Fen,
        /// 36, 1 byte, BIN.
        pub authorised: Outcome,
        /// 37, 1 byte.
        pub refusal: StartRefusal,
        /// 38, 6 bytes, BCD: the 0xA1's parallel number.
        pub parallel_no: ParallelNo,
    }
}

record! {
    /// 0xA4 运营平台远程控制并充启机: 0x34 plus the parallel number. 50 bytes.
    pub struct ParallelRemoteStart {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 8 bytes, BCD.
        pub logical_card: LogicalCardNo,
        /// 32, 8 bytes, BIN.
        pub physical_card: PhysicalCardNo,
        /// 40, 4 bytes, BIN: fen.
        pub balance: Fen,
        /// 44, 6 bytes, BCD: yyMMddHHmmss, made by the platform.
        pub parallel_no: ParallelNo,
    }
}

record! {
    /// 0xA3 远程并充启机命令回复: 0x33 plus role and parallel number. 33 bytes.
    pub struct ParallelRemoteStartAnswer {
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
        /// 26, 1 byte, BIN.
        pub role: GunRole,
        /// 27, 6 bytes, BCD.
        pub parallel_no: ParallelNo,
    }
}
