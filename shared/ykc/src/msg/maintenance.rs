//! Remote reboot and firmware update (specification section 11,
//! "电桩远程维护帧类型码数据定义"). Offsets are within the body.

use super::{record, Outcome, PileNo};
use crate::wire::{code, Ascii};

code! {
    /// "执行控制".
    pub enum When {
        /// 0x01 立即执行.
        Now = 0x01,
        /// 0x02 空闲执行: when no gun is charging.
        WhenIdle = 0x02,
    }
}

record! {
    /// 0x92 远程重启. 8 bytes.
    pub struct Reboot {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub when: When,
    }
}

record! {
    /// 0x91 远程重启应答. 8 bytes.
    pub struct RebootAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub result: Outcome,
    }
}

code! {
    /// "桩型号" of the update.
    pub enum PileModel {
        Dc = 0x01,
        Ac = 0x02,
    }
}

record! {
    /// 0x94 远程更新: where the pile downloads its firmware (FTP). 94 bytes.
    pub struct Update {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub model: PileModel,
        /// 8, 2 bytes, BIN: the pile's power ("桩功率"; the table gives no unit, kW in practice).
        pub power: u16,
        /// 10, 16 bytes, ASCII: server address.
        pub server: Ascii<16>,
        /// 26, 2 bytes, BIN: server port.
        pub port: u16,
        /// 28, 16 bytes, ASCII: user name.
        pub user: Ascii<16>,
        /// 44, 16 bytes, ASCII: password.
        pub password: Ascii<16>,
        /// 60, 32 bytes, ASCII: file path.
        pub path: Ascii<32>,
        /// 92, 1 byte, BIN.
        pub when: When,
        /// 93, 1 byte, BIN: download time-out, minutes.
        pub timeout_minutes: u8,
    }
}

code! {
    /// "升级状态".
    pub enum UpdateStatus {
        Updated = 0x00,
        /// 0x01 编号错误.
        WrongPile = 0x01,
        /// 0x02 程序与桩型号不符.
        WrongModel = 0x02,
        /// 0x03 下载更新文件超时.
        DownloadTimeout = 0x03,
    }
}

record! {
    /// 0x93 远程更新应答. 8 bytes.
    pub struct UpdateAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub status: UpdateStatus,
    }
}
