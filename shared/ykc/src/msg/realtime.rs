//! Real-time data and the charging-process frames (specification section
//! 7, "实时数据帧类型码数据定义"). The BMS frames carry GB/T 27930 values as
//! the pile read them from the car; their units are in each field's doc.
//! Offsets are within the body.

use super::{record, GunNo, OrderNo, PileNo};
use crate::units::{KwhE4, YuanE4};
use crate::wire::{code, Ascii, Bin, UInt};

record! {
    /// 0x12 读取实时监测数据: the platform asks for a gun's real-time data. 8 bytes.
    pub struct ReadRealtime {
        /// 0, 7 bytes, BCD.
        pub pile: PileNo,
        /// 7, 1 byte, BCD.
        pub gun: GunNo,
    }
}

code! {
    /// "状态" of a gun in the real-time data.
    pub enum GunState {
        Offline = 0x00,
        Fault = 0x01,
        Idle = 0x02,
        Charging = 0x03,
    }
}

code! {
    /// "枪是否归位": whether the gun is back in its holster.
    pub enum Holstered {
        No = 0x00,
        Yes = 0x01,
        /// 0x02: the pile cannot tell.
        Unknown = 0x02,
    }
}

code! {
    /// A yes/no byte.
    pub enum YesNo {
        No = 0x00,
        Yes = 0x01,
    }
}

record! {
    /// 0x13 上传实时监测数据: every 15 s while charging, every 5 min when
    /// idle, at once on a change of state or plug, and when asked (0x12).
    /// 60 bytes.
    pub struct Realtime {
        /// 0, 16 bytes, BCD: the order (zeros when none).
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte, BIN.
        pub state: GunState,
        /// 25, 1 byte, BIN.
        pub holstered: Holstered,
        /// 26, 1 byte, BIN: a car is plugged in ("是否插枪").
        pub plugged: YesNo,
        /// 27, 2 bytes, BIN: output voltage, 0.1 V (0 when idle).
        pub voltage_dv: u16,
        /// 29, 2 bytes, BIN: output current, 0.1 A (0 when idle).
        pub current_da: u16,
        /// 31, 1 byte, BIN: gun cable temperature, °C + 50 (0 when idle).
        pub gun_temp: u8,
        /// 32, 8 bytes, BIN: the gun cable's code ("枪线编码"), zeros when none.
        pub gun_line_code: Bin<8>,
        /// 40, 1 byte, BIN: state of charge, % (0 when idle and on AC piles).
        pub soc: u8,
        /// 41, 1 byte, BIN: highest battery temperature, °C + 50.
        pub battery_max_temp: u8,
        /// 42, 2 bytes, BIN: minutes charged so far.
        pub charged_minutes: u16,
        /// 44, 2 bytes, BIN: minutes left (0 on AC piles).
        pub remaining_minutes: u16,
        /// 46, 4 bytes, BIN: energy so far, 0.0001 kWh ("充电度数").
        pub energy: KwhE4,
        /// 50, 4 bytes, BIN: energy with the loss ratio added, 0.0001 kWh.
        pub loss_energy: KwhE4,
        /// 54, 4 bytes, BIN: amount so far (electricity + service), 0.0001 yuan.
        pub amount: YuanE4,
        /// 58, 2 bytes, BIN: hardware faults, bit 0 first: emergency stop,
        /// no rectifier module, outlet over-temperature, AC surge protector,
        /// DC20 link, FC08 link, meter link, card reader link, RC10 link,
        /// fan board, DC fuse, HV contactor, door open.
        pub faults: u16,
    }
}

record! {
    /// 0x15 充电握手 (GB/T 27930 handshake: BRM). 73 bytes.
    pub struct Handshake {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 3 bytes, BIN: BMS protocol version (V1.1 is 01 01 00).
        pub bms_protocol_version: Bin<3>,
        /// 27, 1 byte, BIN: battery type (01 lead-acid, 02 NiMH, 03 LFP,
        /// 04 LMO, 05 LCO, 06 NCM, 07 Li-polymer, 08 LTO, FF other).
        pub battery_type: u8,
        /// 28, 2 bytes, BIN: rated capacity, 0.1 Ah.
        pub rated_capacity_dah: u16,
        /// 30, 2 bytes, BIN: rated total voltage, 0.1 V.
        pub rated_voltage_dv: u16,
        /// 32, 4 bytes, ASCII: battery maker.
        pub battery_maker: Ascii<4>,
        /// 36, 4 bytes, BIN: battery pack serial (maker-defined).
        pub pack_serial: Bin<4>,
        /// 40, 1 byte, BIN: pack production year - 1985.
        pub made_year: u8,
        /// 41, 1 byte, BIN: month, 1-12.
        pub made_month: u8,
        /// 42, 1 byte, BIN: day, 1-31.
        pub made_day: u8,
        /// 43, 3 bytes, BIN: charge count.
        pub charge_count: UInt<3>,
        /// 46, 1 byte, BIN: 0 leased, 1 owned by the car.
        pub ownership: u8,
        /// 47, 1 byte, BIN: reserved.
        pub reserved: u8,
        /// 48, 17 bytes: the car's VIN ("BMS 车辆识别码").
        pub vin: Ascii<17>,
        /// 65, 8 bytes, BIN: BMS software version (build date and serial).
        pub bms_software_version: Bin<8>,
    }
}

record! {
    /// 0x17 参数配置 (GB/T 27930 parameter setup: BCP, CML). 45 bytes.
    pub struct ParameterSetup {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 2 bytes, BIN: highest allowed cell voltage, 0.01 V.
        pub cell_max_voltage_cv: u16,
        /// 26, 2 bytes, BIN: highest allowed current, 0.1 A, offset -400 A.
        pub max_current_da: u16,
        /// 28, 2 bytes, BIN: nominal energy, 0.1 kWh.
        pub nominal_energy_dkwh: u16,
        /// 30, 2 bytes, BIN: highest allowed total voltage, 0.1 V.
        pub max_voltage_dv: u16,
        /// 32, 1 byte, BIN: highest allowed temperature, °C + 50.
        pub max_temp: u8,
        /// 33, 2 bytes, BIN: state of charge, 0.1 %.
        pub soc_permille: u16,
        /// 35, 2 bytes, BIN: present battery voltage (the table gives no unit; 0.1 V as the others).
        pub battery_voltage_dv: u16,
        /// 37, 2 bytes, BIN: pile's highest output voltage, 0.1 V.
        pub pile_max_voltage_dv: u16,
        /// 39, 2 bytes, BIN: pile's lowest output voltage, 0.1 V.
        pub pile_min_voltage_dv: u16,
        /// 41, 2 bytes, BIN: pile's highest output current, 0.1 A, offset -400 A.
        pub pile_max_current_da: u16,
        /// 43, 2 bytes, BIN: pile's lowest output current, 0.1 A, offset -400 A.
        pub pile_min_current_da: u16,
    }
}

record! {
    /// 0x19 充电结束 (GB/T 27930 end of charge: BSD, CSD). 39 bytes.
    pub struct ChargeEnd {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte, BIN: state of charge at the stop, %.
        pub soc: u8,
        /// 25, 2 bytes, BIN: lowest cell voltage, 0.01 V.
        pub cell_min_voltage_cv: u16,
        /// 27, 2 bytes, BIN: highest cell voltage, 0.01 V.
        pub cell_max_voltage_cv: u16,
        /// 29, 1 byte, BIN: lowest battery temperature, °C + 50.
        pub min_temp: u8,
        /// 30, 1 byte, BIN: highest battery temperature, °C + 50.
        pub max_temp: u8,
        /// 31, 2 bytes, BIN: minutes charged.
        pub charged_minutes: u16,
        /// 33, 2 bytes, BIN: energy delivered, 0.1 kWh.
        pub output_energy_dkwh: u16,
        /// 35, 4 bytes, BIN: charger number.
        pub charger_no: u32,
    }
}

/// A two-bit state of the GB/T 27930 frames: 00 normal, 01 the fault
/// (timeout, too high, ...), 10 not trustworthy / too low, 11 unused.
pub fn two_bits(byte: u8, pair: u8) -> u8 {
    (byte >> (2 * pair)) & 0b11
}

record! {
    /// 0x1B 错误报文 (GB/T 27930 BEM and CEM: message timeouts). 32 bytes.
    /// The eight bytes of flags are two-bit fields, the first named field in
    /// the lowest bits of its byte (read them with [`two_bits`]):
    /// - `bem1`: charger identification 0x00 timeout (pair 0), 0xAA timeout (1)
    /// - `bem2`: charger time sync / maximum output timeout (0), charger ready timeout (1)
    /// - `bem3`: charger status timeout (0), charger stop timeout (1)
    /// - `bem4`: charger statistics timeout (0), the upper six bits "BMS other"
    /// - `cem1`: BMS and vehicle identification timeout (0)
    /// - `cem2`: battery parameters timeout (0), BMS ready timeout (1)
    /// - `cem3`: battery status timeout (0), battery demand timeout (1), BMS stop timeout (2)
    /// - `cem4`: BMS statistics timeout (0), the upper six bits "charger other"
    pub struct ErrorReport {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte.
        pub bem1: u8,
        /// 25, 1 byte.
        pub bem2: u8,
        /// 26, 1 byte.
        pub bem3: u8,
        /// 27, 1 byte.
        pub bem4: u8,
        /// 28, 1 byte.
        pub cem1: u8,
        /// 29, 1 byte.
        pub cem2: u8,
        /// 30, 1 byte.
        pub cem3: u8,
        /// 31, 1 byte.
        pub cem4: u8,
    }
}

record! {
    /// 0x1D 充电阶段BMS中止 (GB/T 27930 BST). 28 bytes.
    pub struct BmsStop {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte, BIN, two-bit fields from the lowest: SOC target
        /// reached, total voltage reached, cell voltage reached, charger stopped.
        pub reason: u8,
        /// 25, 2 bytes, BIN, two-bit fields from the lowest: insulation,
        /// connector over-temperature, BMS element over-temperature,
        /// connector fault, battery over-temperature, HV relay, check point 2
        /// voltage, other.
        pub fault: u16,
        /// 27, 1 byte, BIN, two-bit fields: over-current, voltage abnormal.
        pub error: u8,
    }
}

record! {
    /// 0x21 充电阶段充电机中止 (GB/T 27930 CST). 28 bytes.
    pub struct ChargerStop {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte, BIN, two-bit fields from the lowest: charger's
        /// condition reached, stopped by hand, abnormal stop, BMS stopped.
        pub reason: u8,
        /// 25, 2 bytes, BIN, two-bit fields from the lowest: charger
        /// over-temperature, connector fault, internal over-temperature,
        /// energy cannot be delivered, emergency stop, other.
        pub fault: u16,
        /// 27, 1 byte, BIN, two-bit fields: current mismatch, voltage abnormal.
        pub error: u8,
    }
}

record! {
    /// 0x23 充电过程BMS需求与充电机输出 (GB/T 27930 BCL, BCS, CCS): every 15 s. 44 bytes.
    pub struct BmsDemand {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 2 bytes, BIN: voltage demand, 0.1 V.
        pub demand_voltage_dv: u16,
        /// 26, 2 bytes, BIN: current demand, 0.1 A, offset -400 A.
        pub demand_current_da: u16,
        /// 28, 1 byte, BIN: 0x01 constant voltage, 0x02 constant current.
        pub mode: u8,
        /// 29, 2 bytes, BIN: measured voltage, 0.1 V.
        pub measured_voltage_dv: u16,
        /// 31, 2 bytes, BIN: measured current, 0.1 A, offset -400 A.
        pub measured_current_da: u16,
        /// 33, 2 bytes, BIN: bits 0-11 highest cell voltage (0.01 V), bits 12-15 its group.
        pub max_cell: u16,
        /// 35, 1 byte, BIN: state of charge, %.
        pub soc: u8,
        /// 36, 2 bytes, BIN: estimated minutes left.
        pub remaining_minutes: u16,
        /// 38, 2 bytes, BIN: pile output voltage, 0.1 V.
        pub output_voltage_dv: u16,
        /// 40, 2 bytes, BIN: pile output current, 0.1 A, offset -400 A.
        pub output_current_da: u16,
        /// 42, 2 bytes, BIN: minutes charged.
        pub charged_minutes: u16,
    }
}

record! {
    /// 0x25 充电过程BMS信息 (GB/T 27930 BSM): every 15 s. 31 bytes.
    pub struct BmsInfo {
        /// 0, 16 bytes, BCD.
        pub order: OrderNo,
        /// 16, 7 bytes, BCD.
        pub pile: PileNo,
        /// 23, 1 byte, BCD.
        pub gun: GunNo,
        /// 24, 1 byte, BIN: number of the highest-voltage cell, offset 1.
        pub max_cell_no: u8,
        /// 25, 1 byte, BIN: highest battery temperature, °C + 50.
        pub max_temp: u8,
        /// 26, 1 byte, BIN: its probe, offset 1.
        pub max_temp_probe: u8,
        /// 27, 1 byte, BIN: lowest battery temperature, °C + 50.
        pub min_temp: u8,
        /// 28, 1 byte, BIN: its probe, offset 1.
        pub min_temp_probe: u8,
        /// 29, 2 bytes, BIN, two-bit fields from the lowest: cell voltage
        /// (01 high, 10 low), SOC (01 high, 10 low), over-current,
        /// over-temperature, insulation, output connector, charging allowed
        /// (00 forbidden, 01 allowed), reserved.
        pub status: u16,
    }
}
