//! Every message of the protocol, one Rust type each, with its body's
//! encode and decode.
//!
//! Field names, types, lengths and units follow 《充电桩与云快充服务平台交互协议》
//! V1.6 (2020-10-29, 江苏云快充新能源科技有限公司); each field's doc comment
//! gives its byte offset in the body, its length, the specification's data
//! type and unit. V1.5 (2020-10-15) has the same frames and fields: the
//! revision table of V1.6 lists one change, the parallel-charging frames
//! 0xA1-0xA4 ("增加双枪并充"), which a pile that logged in with 1.5 may not
//! send (they decode as [`MessageError::NotInVersion`]). Where the
//! specification's example frame and its field table disagree, the table
//! (which the example's length field agrees with) is followed; each such
//! place says so.

mod maintenance;
mod operation;
mod parallel;
mod parking;
mod realtime;
mod register;
mod settings;

pub use maintenance::*;
pub use operation::*;
pub use parallel::*;
pub use parking::*;
pub use realtime::*;
pub use register::*;
pub use settings::*;

use crate::frame::Encryption;
use crate::wire::{Bcd, Bin, Field, FieldError, Reader};
use serde::Serialize;

/// The 14-digit pile number ("桩编码", BCD, 7 bytes).
pub type PileNo = Bcd<7>;
/// The gun number ("枪号", BCD, 1 byte): 01, 02, ...
pub type GunNo = Bcd<1>;
/// The 32-digit order number ("交易流水号", BCD, 16 bytes): pile number (7
/// bytes) + gun (1) + yyMMddHHmmss (6) + a sequence (2), made by the
/// platform (by the pile when it charges offline).
pub type OrderNo = Bcd<16>;
/// The tariff model id ("计费模型编号", BCD, 2 bytes): 4 digits.
pub type TariffModelId = Bcd<2>;
/// The card number printed on a card ("逻辑卡号", BCD, 8 bytes).
pub type LogicalCardNo = Bcd<8>;
/// The card number the reader reads ("物理卡号", BIN, 8 bytes, zero bytes first).
pub type PhysicalCardNo = Bin<8>;
/// The parallel-charging number ("并充序号", BCD, 6 bytes: yyMMddHHmmss).
pub type ParallelNo = Bcd<6>;

/// The protocol version a pile declares at login ("通信协议版本", the version × 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Version {
    /// V1.5: login byte `0x0F`.
    V1_5,
    /// V1.6: login byte `0x10`; adds the parallel-charging frames 0xA1-0xA4.
    V1_6,
}

impl Version {
    /// The version of a login's protocol byte, when it is one this codec speaks.
    pub fn from_login_byte(byte: u8) -> Option<Version> {
        match byte {
            0x0F => Some(Version::V1_5),
            0x10 => Some(Version::V1_6),
            _ => None,
        }
    }

    pub fn login_byte(self) -> u8 {
        match self {
            Version::V1_5 => 0x0F,
            Version::V1_6 => 0x10,
        }
    }
}

/// Who sends a frame type: the pile sends odd types, the platform even ones
/// ("充电桩定义的帧类型码为奇数，运营平台定义的帧类型码为偶数").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Direction {
    FromPile,
    FromPlatform,
}

impl Direction {
    pub fn of(frame_type: u8) -> Direction {
        if frame_type % 2 == 1 {
            Direction::FromPile
        } else {
            Direction::FromPlatform
        }
    }
}

/// Why a frame's body is not a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("frame type 0x{0:02X} is not a frame of the protocol")]
    UnknownType(u8),
    #[error("frame type 0x{frame_type:02X} is not in protocol {version:?}")]
    NotInVersion { frame_type: u8, version: Version },
    #[error("the body is encrypted ({0:?}); this codec does not decrypt")]
    Encrypted(Encryption),
    #[error("frame type 0x{frame_type:02X} has a {expected}-byte body, got {got}")]
    WrongLength { frame_type: u8, expected: String, got: usize },
    #[error("frame type 0x{frame_type:02X}: {error}")]
    Field { frame_type: u8, error: FieldError },
}

/// Why a message could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{what}: {count} entries, the specification allows at most {max}")]
    TooManyEntries { what: &'static str, count: usize, max: usize },
}

/// A message body: its bytes, and the rule its length follows.
pub trait Body: Sized {
    /// The body's length rule, for the error that names it.
    fn expected_len() -> String;
    /// Whether a body of `len` bytes may be this message.
    fn accepts_len(len: usize) -> bool;
    fn read_body(r: &mut Reader<'_>) -> Result<Self, FieldError>;
    fn write_body(&self, out: &mut Vec<u8>) -> Result<(), EncodeError>;
}

impl<T: Field> Body for T {
    fn expected_len() -> String {
        T::LEN.to_string()
    }
    fn accepts_len(len: usize) -> bool {
        len == T::LEN
    }
    fn read_body(r: &mut Reader<'_>) -> Result<Self, FieldError> {
        T::read(r, "body")
    }
    fn write_body(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        Field::write(self, out);
        Ok(())
    }
}

/// Declares a fixed-length record: a struct whose fields are read and
/// written in order, and whose length is the sum of theirs.
macro_rules! record {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
        #[cfg_attr(test, derive(proptest_derive::Arbitrary))]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )+
        }

        impl $crate::wire::Field for $name {
            const LEN: usize = 0 $( + <$ty as $crate::wire::Field>::LEN )+;
            fn read(
                r: &mut $crate::wire::Reader<'_>,
                _field: &'static str,
            ) -> Result<Self, $crate::wire::FieldError> {
                Ok($name {
                    $( $field: <$ty as $crate::wire::Field>::read(r, stringify!($field))?, )+
                })
            }
            fn write(&self, out: &mut Vec<u8>) {
                $( $crate::wire::Field::write(&self.$field, out); )+
            }
        }
    };
}
pub(crate) use record;

fn decode_body<T: Body>(frame_type: u8, body: &[u8]) -> Result<T, MessageError> {
    if !T::accepts_len(body.len()) {
        return Err(MessageError::WrongLength { frame_type, expected: T::expected_len(), got: body.len() });
    }
    T::read_body(&mut Reader::new(body)).map_err(|error| MessageError::Field { frame_type, error })
}

/// Declares the message catalogue: each variant with its frame type, the
/// first version that has it, its English and Chinese names, and whether it
/// carries the pile number as its first field.
macro_rules! catalogue {
    ( $( $variant:ident = $code:literal, $since:ident, $en:literal, $zh:literal, $pile:tt; )+ ) => {
        /// One decoded message. Serialized (for the message log) as
        /// `{"message": "Login", "fields": {...}}`.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[cfg_attr(test, derive(proptest_derive::Arbitrary))]
        #[serde(tag = "message", content = "fields")]
        pub enum Message {
            $( #[doc = concat!("`", stringify!($code), "` ", $zh, " (", $en, ")")] $variant($variant), )+
        }

        impl Message {
            pub fn frame_type(&self) -> u8 {
                match self {
                    $( Message::$variant(_) => $code, )+
                }
            }

            /// The message's name in the catalogue (`Login`, `Realtime`, ...).
            pub fn name(&self) -> &'static str {
                match self {
                    $( Message::$variant(_) => stringify!($variant), )+
                }
            }

            /// The body's message, for a pile that speaks `version`.
            pub fn decode(frame_type: u8, body: &[u8], version: Version) -> Result<Message, MessageError> {
                match frame_type {
                    $( $code => {
                        if version < Version::$since {
                            return Err(MessageError::NotInVersion { frame_type, version });
                        }
                        Ok(Message::$variant(decode_body(frame_type, body)?))
                    } )+
                    other => Err(MessageError::UnknownType(other)),
                }
            }

            pub fn encode_body(&self) -> Result<Vec<u8>, EncodeError> {
                let mut out = Vec::new();
                match self {
                    $( Message::$variant(m) => Body::write_body(m, &mut out)?, )+
                }
                Ok(out)
            }

            /// The pile number the message carries, when it has one.
            pub fn pile(&self) -> Option<&PileNo> {
                match self {
                    $( Message::$variant(m) => catalogue!(@pile m $pile), )+
                }
            }
        }

        /// The frame type's names (English, Chinese), for any type of the protocol.
        pub fn frame_type_name(frame_type: u8) -> Option<(&'static str, &'static str)> {
            match frame_type {
                $( $code => Some(($en, $zh)), )+
                _ => None,
            }
        }

        /// The catalogue's name of a frame type (`Login` for 0x01), for any type of the protocol.
        pub fn frame_type_message_name(frame_type: u8) -> Option<&'static str> {
            match frame_type {
                $( $code => Some(stringify!($variant)), )+
                _ => None,
            }
        }

        /// Every frame type of the protocol, with the first version that has it.
        pub const FRAME_TYPES: &[(u8, Version)] = &[ $( ($code, Version::$since), )+ ];
    };
    (@pile $m:ident pile) => { Some(&$m.pile) };
    (@pile $m:ident none) => {{ let _ = $m; None }};
}

catalogue! {
    Login = 0x01, V1_5, "pile login", "充电桩登录认证", pile;
    LoginAnswer = 0x02, V1_5, "login answer", "登录认证应答", pile;
    Heartbeat = 0x03, V1_5, "heartbeat", "充电桩心跳包", pile;
    HeartbeatAnswer = 0x04, V1_5, "heartbeat answer", "心跳包应答", pile;
    TariffCheck = 0x05, V1_5, "tariff model check", "计费模型验证请求", pile;
    TariffCheckAnswer = 0x06, V1_5, "tariff model check answer", "计费模型验证请求应答", pile;
    TariffRequest = 0x09, V1_5, "tariff model request", "充电桩计费模型请求", pile;
    TariffAnswer = 0x0A, V1_5, "tariff model answer", "计费模型请求应答", pile;
    ReadRealtime = 0x12, V1_5, "read real-time data", "读取实时监测数据", pile;
    Realtime = 0x13, V1_5, "real-time data", "上传实时监测数据", pile;
    Handshake = 0x15, V1_5, "charging handshake", "充电握手", pile;
    ParameterSetup = 0x17, V1_5, "parameter setup", "参数配置", pile;
    ChargeEnd = 0x19, V1_5, "charge end", "充电结束", pile;
    ErrorReport = 0x1B, V1_5, "error report", "错误报文", pile;
    BmsStop = 0x1D, V1_5, "BMS stop", "充电阶段BMS中止", pile;
    ChargerStop = 0x21, V1_5, "charger stop", "充电阶段充电机中止", pile;
    BmsDemand = 0x23, V1_5, "BMS demand and charger output", "充电过程BMS需求与充电机输出", pile;
    BmsInfo = 0x25, V1_5, "BMS information", "充电过程BMS信息", pile;
    StartRequest = 0x31, V1_5, "pile start request", "充电桩主动申请启动充电", pile;
    StartAnswer = 0x32, V1_5, "start confirmation", "运营平台确认启动充电", pile;
    RemoteStartAnswer = 0x33, V1_5, "remote start answer", "远程启动充电命令回复", pile;
    RemoteStart = 0x34, V1_5, "remote start", "运营平台远程控制启机", pile;
    RemoteStopAnswer = 0x35, V1_5, "remote stop answer", "远程停机命令回复", pile;
    RemoteStop = 0x36, V1_5, "remote stop", "运营平台远程停机", pile;
    TransactionRecord = 0x3B, V1_5, "transaction record", "交易记录", pile;
    TransactionConfirm = 0x40, V1_5, "transaction record confirmation", "交易记录确认", none;
    BalanceUpdateAnswer = 0x41, V1_5, "balance update answer", "余额更新应答", pile;
    BalanceUpdate = 0x42, V1_5, "balance update", "远程账户余额更新", pile;
    OfflineCardSyncAnswer = 0x43, V1_5, "offline card sync answer", "离线卡数据同步应答", pile;
    OfflineCardSync = 0x44, V1_5, "offline card sync", "离线卡数据同步", pile;
    OfflineCardClearAnswer = 0x45, V1_5, "offline card clear answer", "离线卡数据清除应答", pile;
    OfflineCardClear = 0x46, V1_5, "offline card clear", "离线卡数据清除", pile;
    OfflineCardQueryAnswer = 0x47, V1_5, "offline card query answer", "离线卡数据查询应答", pile;
    OfflineCardQuery = 0x48, V1_5, "offline card query", "离线卡数据查询", pile;
    WorkParamsAnswer = 0x51, V1_5, "work parameters answer", "充电桩工作参数设置应答", pile;
    WorkParams = 0x52, V1_5, "work parameters", "充电桩工作参数设置", pile;
    TimeSyncAnswer = 0x55, V1_5, "time sync answer", "对时设置应答", pile;
    TimeSync = 0x56, V1_5, "time sync", "对时设置", pile;
    TariffSetAnswer = 0x57, V1_5, "tariff model set answer", "计费模型应答", pile;
    TariffSet = 0x58, V1_5, "tariff model set", "计费模型设置", pile;
    ParkingLockStatus = 0x61, V1_5, "parking lock status", "地锁数据上送", pile;
    ParkingLockCommand = 0x62, V1_5, "parking lock raise/lower", "遥控地锁升锁与降锁命令", pile;
    ParkingLockAnswer = 0x63, V1_5, "parking lock answer", "充电桩返回数据(地锁)", pile;
    RebootAnswer = 0x91, V1_5, "remote reboot answer", "远程重启应答", pile;
    Reboot = 0x92, V1_5, "remote reboot", "远程重启", pile;
    UpdateAnswer = 0x93, V1_5, "remote update answer", "远程更新应答", pile;
    Update = 0x94, V1_5, "remote update", "远程更新", pile;
    ParallelStartRequest = 0xA1, V1_6, "pile parallel start request", "充电桩主动申请并充充电", pile;
    ParallelStartAnswer = 0xA2, V1_6, "parallel start confirmation", "运营平台确认并充启动充电", pile;
    ParallelRemoteStartAnswer = 0xA3, V1_6, "parallel remote start answer", "远程并充启机命令回复", pile;
    ParallelRemoteStart = 0xA4, V1_6, "parallel remote start", "运营平台远程控制并充启机", pile;
}

impl Message {
    pub fn direction(&self) -> Direction {
        Direction::of(self.frame_type())
    }
}

/// Refuses to write a list of more entries than the specification allows.
pub(crate) fn check_count(what: &'static str, count: usize, max: usize) -> Result<(), EncodeError> {
    if count > max {
        return Err(EncodeError::TooManyEntries { what, count, max });
    }
    Ok(())
}
