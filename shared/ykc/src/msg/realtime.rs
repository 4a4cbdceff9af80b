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

/// One named state of a bit-field frame that is not 0 (for the message log
/// and the order's stop reason): its English and Chinese names (the
/// specification's words) and its value (two bits: 01 the condition, 10 not
/// trustworthy or too low; one bit: 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Flag {
    pub name: &'static str,
    pub name_zh: &'static str,
    pub value: u8,
}

/// (bit offset, width, English, Chinese) of each named field of a word.
type FlagTable = [(u8, u8, &'static str, &'static str)];

fn flags_of(word: u32, table: &FlagTable) -> Vec<Flag> {
    table
        .iter()
        .filter_map(|(offset, width, name, name_zh)| {
            let value = ((word >> offset) & ((1 << width) - 1)) as u8;
            (value != 0).then_some(Flag { name, name_zh, value })
        })
        .collect()
}

const FAULT_BITS: &FlagTable = &[
    (0, 1, "emergency stop pressed", "急停按钮动作故障"),
    (1, 1, "no rectifier module available", "无可用整流模块"),
    (2, 1, "air outlet over-temperature", "出风口温度过高"),
    (3, 1, "AC surge protector fault", "交流防雷故障"),
    (4, 1, "AC/DC module DC20 link lost", "交直流模块DC20通信中断"),
    (5, 1, "insulation monitor FC08 link lost", "绝缘检测模块FC08通信中断"),
    (6, 1, "meter link lost", "电度表通信中断"),
    (7, 1, "card reader link lost", "读卡器通信中断"),
    (8, 1, "RC10 link lost", "RC10通信中断"),
    (9, 1, "fan speed board fault", "风扇调速板故障"),
    (10, 1, "DC fuse fault", "直流熔断器故障"),
    (11, 1, "HV contactor fault", "高压接触器故障"),
    (12, 1, "door open", "门打开"),
];

impl Realtime {
    /// The hardware faults set in `faults`.
    pub fn fault_flags(&self) -> Vec<Flag> {
        flags_of(u32::from(self.faults), FAULT_BITS)
    }
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

/// BMS stop (0x1D): reason byte, fault word (bits 8-23), error byte (bits 24-31).
const BMS_STOP: &FlagTable = &[
    (0, 2, "SOC target reached", "达到所需求的SOC目标值"),
    (2, 2, "total voltage set point reached", "达到总电压的设定值"),
    (4, 2, "cell voltage set point reached", "达到单体电压设定值"),
    (6, 2, "charger stopped first", "充电机主动中止"),
    (8, 2, "insulation fault", "绝缘故障"),
    (10, 2, "output connector over-temperature", "输出连接器过温故障"),
    (12, 2, "BMS element or output connector over-temperature", "BMS元件、输出连接器过温"),
    (14, 2, "charging connector fault", "充电连接器故障"),
    (16, 2, "battery pack over-temperature", "电池组温度过高故障"),
    (18, 2, "HV relay fault", "高压继电器故障"),
    (20, 2, "check point 2 voltage fault", "检测点2电压检测故障"),
    (22, 2, "other fault", "其他故障"),
    (24, 2, "current too high", "电流过大"),
    (26, 2, "voltage abnormal", "电压异常"),
];

/// Charger stop (0x21): reason byte, fault word (bits 8-23), error byte (bits 24-31).
const CHARGER_STOP: &FlagTable = &[
    (0, 2, "charger's set condition reached", "达到充电机设定的条件中止"),
    (2, 2, "stopped by hand", "人工中止"),
    (4, 2, "abnormal stop", "异常中止"),
    (6, 2, "BMS stopped first", "BMS主动中止"),
    (8, 2, "charger over-temperature", "充电机过温故障"),
    (10, 2, "charging connector fault", "充电连接器故障"),
    (12, 2, "charger internal over-temperature", "充电机内部过温故障"),
    (14, 2, "energy cannot be delivered", "所需电量不能传送"),
    (16, 2, "charger emergency stop", "充电机急停故障"),
    (18, 2, "other fault", "其他故障"),
    (24, 2, "current mismatch", "电流不匹配"),
    (26, 2, "voltage abnormal", "电压异常"),
];

fn stop_word(reason: u8, fault: u16, error: u8) -> u32 {
    u32::from(reason) | (u32::from(fault) << 8) | (u32::from(error) << 24)
}

impl BmsStop {
    /// Why the BMS stopped: the reasons, faults and errors set.
    pub fn flags(&self) -> Vec<Flag> {
        flags_of(stop_word(self.reason, self.fault, self.error), BMS_STOP)
    }
}

impl ChargerStop {
    /// Why the charger stopped: the reasons, faults and errors set.
    pub fn flags(&self) -> Vec<Flag> {
        flags_of(stop_word(self.reason, self.fault, self.error), CHARGER_STOP)
    }
}

/// Error report (0x1B): bem1..bem4 are bytes 0-3, cem1..cem4 bytes 4-7 of a 64-bit word.
const ERROR_REPORT: &[(u8, u8, &str, &str)] = &[
    (0, 2, "charger identification (0x00) timeout", "接收SPN2560=0x00的充电机辨识报文超时"),
    (2, 2, "charger identification (0xAA) timeout", "接收SPN2560=0xAA的充电机辨识报文超时"),
    (8, 2, "charger time sync and maximum output timeout", "接收充电机的时间同步和充电机最大输出能力报文超时"),
    (10, 2, "charger ready timeout", "接收充电机完成充电准备报文超时"),
    (16, 2, "charger status timeout", "接收充电机充电状态报文超时"),
    (18, 2, "charger stop timeout", "接收充电机中止充电报文超时"),
    (24, 2, "charger statistics timeout", "接收充电机充电统计报文超时"),
    (26, 6, "BMS other", "BMS其他"),
    (32, 2, "BMS and vehicle identification timeout", "接收BMS和车辆的辨识报文超时"),
    (40, 2, "battery parameters timeout", "接收电池充电参数报文超时"),
    (42, 2, "BMS ready timeout", "接收BMS完成充电准备报文超时"),
    (48, 2, "battery status timeout", "接收电池充电总状态报文超时"),
    (50, 2, "battery demand timeout", "接收电池充电要求报文超时"),
    (52, 2, "BMS stop timeout", "接收BMS中止充电报文超时"),
    (56, 2, "BMS statistics timeout", "接收BMS充电统计报文超时"),
    (58, 6, "charger other", "充电机其他"),
];

impl ErrorReport {
    /// The timeouts (and "other" codes) set.
    pub fn flags(&self) -> Vec<Flag> {
        let word = u64::from_le_bytes([
            self.bem1, self.bem2, self.bem3, self.bem4, self.cem1, self.cem2, self.cem3, self.cem4,
        ]);
        ERROR_REPORT
            .iter()
            .filter_map(|(offset, width, name, name_zh)| {
                let value = ((word >> offset) & ((1 << width) - 1)) as u8;
                (value != 0).then_some(Flag { name, name_zh, value })
            })
            .collect()
    }
}

/// BMS information (0x25), the status word.
const BMS_STATUS: &FlagTable = &[
    (0, 2, "cell voltage too high (01) or too low (10)", "BMS单体动力蓄电池电压过高/过低"),
    (2, 2, "SOC too high (01) or too low (10)", "BMS整车动力蓄电池荷电状态SOC过高/过低"),
    (4, 2, "charging over-current", "BMS动力蓄电池充电过电流"),
    (6, 2, "battery over-temperature", "BMS动力蓄电池温度过高"),
    (8, 2, "insulation", "BMS动力蓄电池绝缘状态"),
    (10, 2, "output connector", "BMS动力蓄电池组输出连接器连接状态"),
    (12, 2, "charging allowed (01) / forbidden (00)", "充电禁止"),
];

impl BmsInfo {
    /// The states set in `status` ("charging allowed" shows when it is 01).
    pub fn flags(&self) -> Vec<Flag> {
        flags_of(u32::from(self.status), BMS_STATUS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_the_bits_the_specification_names() {
        let stop = BmsStop {
            order: OrderNo::default(),
            pile: PileNo::default(),
            gun: GunNo::default(),
            reason: 0b01,
            fault: 0b10 << 2,
            error: 0b01 << 2,
        };
        let names: Vec<_> = stop.flags().iter().map(|f| (f.name, f.value)).collect();
        assert_eq!(
            names,
            [("SOC target reached", 1), ("output connector over-temperature", 2), ("voltage abnormal", 1)]
        );
        let charger = ChargerStop { order: stop.order, pile: stop.pile, gun: stop.gun, reason: 0b0100, fault: 0, error: 0 };
        assert_eq!(charger.flags()[0].name_zh, "人工中止");
        let report = ErrorReport {
            order: stop.order,
            pile: stop.pile,
            gun: stop.gun,
            bem1: 0,
            bem2: 0,
            bem3: 0,
            bem4: 0b1111_1100,
            cem1: 0,
            cem2: 0,
            cem3: 0b01_0000,
            cem4: 0,
        };
        let names: Vec<_> = report.flags().iter().map(|f| (f.name, f.value)).collect();
        assert_eq!(names, [("BMS other", 0b11_1111), ("BMS stop timeout", 1)]);
    }

    #[test]
    fn hardware_faults_count_from_bit_one_low_to_high() {
        let mut r = Realtime {
            order: OrderNo::default(),
            pile: PileNo::default(),
            gun: GunNo::default(),
            state: GunState::Fault,
            holstered: Holstered::Yes,
            plugged: YesNo::No,
            voltage_dv: 0,
            current_da: 0,
            gun_temp: 0,
            gun_line_code: Bin::default(),
            soc: 0,
            battery_max_temp: 0,
            charged_minutes: 0,
            remaining_minutes: 0,
            energy: KwhE4(0),
            loss_energy: KwhE4(0),
            amount: YuanE4(0),
            faults: 0,
        };
        assert!(r.fault_flags().is_empty());
        r.faults = 0b1_0000_0000_0001;
        let names: Vec<_> = r.fault_flags().iter().map(|f| f.name_zh).collect();
        assert_eq!(names, ["急停按钮动作故障", "门打开"]);
    }
}
