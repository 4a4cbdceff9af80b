//! Parking locks (specification section 10, "车位锁通信协议定义"). The gun
//! number is BIN here, not BCD as elsewhere. Offsets are within the body.

use super::{record, PileNo};
use crate::wire::{code, Bin};

code! {
    /// "车位锁状态".
    pub enum LockPosition {
        /// 0x00: between positions ("未到位").
        Moving = 0x00,
        /// 0x55: raised ("升锁到位").
        Raised = 0x55,
        /// 0xFF: lowered ("降锁到位").
        Lowered = 0xFF,
    }
}

code! {
    /// "车位状态".
    pub enum SpaceState {
        Empty = 0x00,
        Occupied = 0xFF,
    }
}

code! {
    /// "报警状态".
    pub enum LockAlarm {
        Normal = 0x00,
        /// 0xFF: the arm was forced while standing by ("待机状态摇臂破坏").
        ArmForced = 0xFF,
        /// 0x55: the arm did not reach its position ("摇臂升降异常").
        ArmStuck = 0x55,
    }
}

record! {
    /// 0x61 地锁数据上送: at once on a change or alarm, else every 5 min.
    /// 16 bytes. (The example omits the lock position; its length byte, 0x14,
    /// counts it, as the table does.)
    pub struct ParkingLockStatus {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub gun: u8,
        /// 8, 1 byte, BIN.
        pub position: LockPosition,
        /// 9, 1 byte, BIN.
        pub space: SpaceState,
        /// 10, 1 byte, BIN: the lock's battery, %.
        pub battery_percent: u8,
        /// 11, 1 byte, BIN.
        pub alarm: LockAlarm,
        /// 12, 4 bytes: reserved, zeros.
        pub reserved: Bin<4>,
    }
}

code! {
    /// "升/降地锁".
    pub enum LockAction {
        Raise = 0x55,
        Lower = 0xFF,
    }
}

record! {
    /// 0x62 遥控地锁升锁与降锁命令. 13 bytes. (The example's length byte,
    /// 0x0D, leaves out the 4 reserved bytes its own text and table show;
    /// the table is followed.)
    pub struct ParkingLockCommand {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub gun: u8,
        /// 8, 1 byte.
        pub action: LockAction,
        /// 9, 4 bytes: reserved, zeros.
        pub reserved: Bin<4>,
    }
}

code! {
    /// "地锁控制返回标志".
    pub enum LockResult {
        Failed = 0x00,
        Done = 0x01,
    }
}

record! {
    /// 0x63 充电桩返回数据: the lock's answer to 0x62. 13 bytes. (Same
    /// length disagreement as 0x62; the table is followed.)
    pub struct ParkingLockAnswer {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BIN.
        pub gun: u8,
        /// 8, 1 byte, BIN.
        pub result: LockResult,
        /// 9, 4 bytes: reserved, zeros.
        pub reserved: Bin<4>,
    }
}
