//! Deterministic demo data: stations in real Chinese cities (real region
//! codes, plausible GPS and addresses), piles, connectors, TOU tariffs and
//! any number of orders with 5-minute meter curves, priced by [`pricing`].
//!
//! Determinism: everything derives from `DemoConfig::seed` and
//! `DemoConfig::end_ts` through a small SplitMix64 generator (no clock, no OS
//! randomness, no float functions beyond + - * /), so the same config always
//! yields byte-identical data on every machine.
//!
//! Size: orders are produced lazily by [`DemoData::orders`] (an iterator) and
//! are random-access via [`DemoData::order`]: order `i` depends only on the
//! seed and `i`, so millions of orders never sit in memory and a seeder can
//! write them in parallel chunks. Orders come in start-time order
//! (non-decreasing) and their numbers sort the same way.
//!
//! Realism limits (benchmark data, not a simulation): connectors are drawn
//! independently per order, so at large sizes two sessions on one connector
//! may overlap; a connector's stored status is not tied to its orders.
//!
//! [`pricing`]: crate::pricing

use crate::orders::CurvePoint;
use crate::pile::{Pile, RegistrationStatus, DEFAULT_SECURITY_PROFILE};
use crate::station::{Station, StationStatus};
use crate::civil::yyyymmdd;
use crate::connector::{Connector, ConnectorStandard, ConnectorStatus, PileType};
use crate::money::{Fen, PricePerKwh};
use crate::orders::{apply_refund, Order, OrderStatus, PaymentMethod, RefundRequest, SessionStart, StopReason};
use crate::pricing::{price_session, MeterSample, PricingOptions, TierLine, CHINA_UTC_OFFSET_SECS};
use crate::region::validate_region;
use crate::tariff::{ParkingRule, Segment, TariffTemplate, Tier, TierPrices, segments_to_slots};
use serde::{Deserialize, Serialize};

/// Demo operator name (all stations belong to one operator).
pub const OPERATOR: &str = "示例新能源充电运营有限公司";
/// Who the demo records say created and last changed them.
pub const DEMO_AUTHOR: &str = "admin";
/// What the demo stations tell drivers about parking.
pub const PARKING_INFO: &str = "充电车辆免费停车2小时，超出按停车场标准收费";
/// Meter curve sampling interval.
pub const CURVE_STEP_SECS: i64 = 300;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoConfig {
    pub seed: u64,
    /// Number of stations; the first 22 are hand-placed real locations,
    /// further ones are extra sites in the same cities.
    pub stations: usize,
    /// Number of orders the iterator yields (may be millions).
    pub orders: u64,
    /// Orders are spread over this many local days ending with `end_ts`.
    pub days: u32,
    /// "Now" of the data set (unix seconds). Pass the real now from a seed
    /// command for fresh-looking data; the default is fixed for tests.
    pub end_ts: i64,
}

impl Default for DemoConfig {
    fn default() -> Self {
        // 2025-06-30 18:00 +08:00
        Self { seed: 20_250_630, stations: 20, orders: 10_000, days: 90, end_ts: 1_751_277_600 }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub id: String,
    pub amount: Fen,
    pub reason: String,
    pub requested_at: i64,
    pub approved_by: String,
}

/// A generated order: the order itself and what the seed writes beside
/// it (tier lines, tariff snapshot, meter curve, approved refunds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoOrder {
    #[serde(flatten)]
    pub order: Order,
    pub lines: Vec<TierLine>,
    /// Tariff snapshot the order is priced with (`None` = the demo's
    /// "missing price" anomaly).
    pub tariff: Option<TariffTemplate>,
    pub refunds: Vec<Refund>,
    pub curve: Vec<CurvePoint>,
}

/// Stations, piles, connectors and tariffs (small, held in memory); orders
/// are generated on demand.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoData {
    pub config: DemoConfig,
    pub tariffs: Vec<TariffTemplate>,
    pub stations: Vec<Station>,
    pub piles: Vec<Pile>,
    pub connectors: Vec<Connector>,
    /// Cumulative connector weights for drawing a connector (DC busier).
    #[serde(skip)]
    connector_weights: Vec<u64>,
}

// ------------------------------------------------------------------ PRNG

/// SplitMix64: tiny, fast, good enough for demo data, fully deterministic.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// Independent stream for (seed, stream, index).
    pub fn derive(seed: u64, stream: u64, index: u64) -> Self {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xA24B_AED4_963E_E407));
        r.0 ^= r.next_u64() ^ index.wrapping_mul(0x9FB2_1C65_1E98_DF25);
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

// ------------------------------------------------------------------ tariffs

fn price(s: &str) -> PricePerKwh {
    PricePerKwh::parse_yuan(s).expect("demo price literal")
}

fn template(id: &str, name: &str, version: i64, segs: &[(&str, &str, Tier)], prices: TierPrices, parking: Option<ParkingRule>) -> TariffTemplate {
    let segments: Vec<Segment> = segs.iter().map(|&(s, e, t)| Segment::new(s, e, t)).collect();
    let slots = segments_to_slots(&segments).expect("demo tariff segments are valid (tested)");
    TariffTemplate { id: id.into(), name: name.into(), version, slots, prices, parking }
}

/// Three realistic Chinese TOU templates (shapes after the Guangdong,
/// Shanghai and Beijing commercial TOU schedules; prices typical of 2024).
pub fn demo_tariffs() -> Vec<TariffTemplate> {
    use Tier::*;
    vec![
        template(
            "tt-gd",
            "广东分时电价（深圳/广州/东莞）",
            3,
            &[
                ("00:00", "08:00", Valley),
                ("08:00", "10:00", Flat),
                ("10:00", "11:00", Peak),
                ("11:00", "12:00", Sharp),
                ("12:00", "14:00", Flat),
                ("14:00", "15:00", Peak),
                ("15:00", "17:00", Sharp),
                ("17:00", "19:00", Peak),
                ("19:00", "24:00", Flat),
            ],
            TierPrices::default()
                .with(Sharp, price("1.2836"), price("0.8000"))
                .with(Peak, price("1.0182"), price("0.8000"))
                .with(Flat, price("0.6521"), price("0.6000"))
                .with(Valley, price("0.2980"), price("0.4000")),
            Some(ParkingRule { free_minutes: 240, fen_per_minute: Fen(5), cap_per_session: Some(Fen(2000)) }),
        ),
        template(
            "tt-east",
            "华东分时电价（上海/杭州）",
            2,
            &[
                ("00:00", "06:00", Valley),
                ("06:00", "08:00", Flat),
                ("08:00", "11:00", Peak),
                ("11:00", "18:00", Flat),
                ("18:00", "21:00", Peak),
                ("21:00", "22:00", Flat),
                ("22:00", "24:00", Valley),
            ],
            TierPrices::default()
                .with(Peak, price("1.0653"), price("0.9000"))
                .with(Flat, price("0.6726"), price("0.8000"))
                .with(Valley, price("0.3126"), price("0.6000")),
            None,
        ),
        template(
            "tt-north",
            "华北/中西部分时电价（北京/成都/武汉/西安）",
            1,
            &[
                ("00:00", "07:00", Valley),
                ("07:00", "10:00", Flat),
                ("10:00", "11:00", Peak),
                ("11:00", "13:00", Sharp),
                ("13:00", "15:00", Peak),
                ("15:00", "16:00", Flat),
                ("16:00", "17:00", Sharp),
                ("17:00", "18:00", Flat),
                ("18:00", "21:00", Peak),
                ("21:00", "23:30", Flat),
                ("23:30", "24:00", Valley),
            ],
            TierPrices::default()
                .with(Sharp, price("1.4102"), price("0.8000"))
                .with(Peak, price("1.2008"), price("0.8000"))
                .with(Flat, price("0.7614"), price("0.6000"))
                .with(Valley, price("0.3102"), price("0.4000")),
            Some(ParkingRule { free_minutes: 180, fen_per_minute: Fen(10), cap_per_session: Some(Fen(5000)) }),
        ),
    ]
}

// ------------------------------------------------------------------ places

struct Site {
    name: &'static str,
    province: &'static str,
    city: &'static str,
    district: Option<&'static str>,
    address: &'static str,
    lat: f64,
    lng: f64,
    tariff: &'static str,
    plate: &'static str,
    phone_area: &'static str,
}

// A positional constructor keeps the table below one line per site.
#[allow(clippy::too_many_arguments)]
const fn site(
    name: &'static str,
    province: &'static str,
    city: &'static str,
    district: Option<&'static str>,
    address: &'static str,
    lat: f64,
    lng: f64,
    tariff: &'static str,
    plate: &'static str,
    phone_area: &'static str,
) -> Site {
    Site { name, province, city, district, address, lat, lng, tariff, plate, phone_area }
}

/// Real places; codes checked against the region tree by a test.
const SITES: &[Site] = &[
    site("深圳湾科技生态园充电站", "440000", "440300", Some("440305"), "深圳市南山区高新南十道深圳湾科技生态园停车场", 22.5283, 113.9459, "tt-gd", "粤B", "0755"),
    site("福田会展中心充电站", "440000", "440300", Some("440304"), "深圳市福田区福华三路会展中心地下停车场B2", 22.5330, 114.0557, "tt-gd", "粤B", "0755"),
    site("大运中心超充站", "440000", "440300", Some("440307"), "深圳市龙岗区龙翔大道3001号大运中心东侧", 22.6975, 114.2130, "tt-gd", "粤B", "0755"),
    site("宝安中心区充电站", "440000", "440300", Some("440306"), "深圳市宝安区新湖路与创业一路交汇处", 22.5555, 113.8838, "tt-gd", "粤B", "0755"),
    site("天河体育中心充电站", "440000", "440100", Some("440106"), "广州市天河区天河路299号体育中心停车场", 23.1390, 113.3250, "tt-gd", "粤A", "020"),
    site("琶洲会展充电站", "440000", "440100", Some("440105"), "广州市海珠区阅江中路琶洲会展中心A区停车场", 23.0990, 113.3650, "tt-gd", "粤A", "020"),
    site("番禺汉溪充电站", "440000", "440100", Some("440113"), "广州市番禺区汉溪大道东汉溪长隆地铁站旁", 23.0010, 113.3300, "tt-gd", "粤A", "020"),
    site("松山湖科技园充电站", "440000", "441900", None, "东莞市松山湖高新区科技十路", 22.9300, 113.8900, "tt-gd", "粤S", "0769"),
    site("张江科学城充电站", "310000", "310100", Some("310115"), "上海市浦东新区祖冲之路张江科学城停车场", 31.2030, 121.5900, "tt-east", "沪", "021"),
    site("徐家汇充电站", "310000", "310100", Some("310104"), "上海市徐汇区虹桥路1号港汇广场地下停车场", 31.1950, 121.4370, "tt-east", "沪", "021"),
    site("安亭汽车城充电站", "310000", "310100", Some("310114"), "上海市嘉定区安亭镇墨玉南路888号", 31.2900, 121.1670, "tt-east", "沪", "021"),
    site("西溪湿地充电站", "330000", "330100", Some("330106"), "杭州市西湖区天目山路518号西溪湿地东门停车场", 30.2720, 120.0800, "tt-east", "浙A", "0571"),
    site("滨江物联网街充电站", "330000", "330100", Some("330108"), "杭州市滨江区江南大道与物联网街交叉口", 30.2080, 120.2100, "tt-east", "浙A", "0571"),
    site("未来科技城充电站", "330000", "330100", Some("330110"), "杭州市余杭区文一西路1500号", 30.2880, 120.0050, "tt-east", "浙A", "0571"),
    site("望京SOHO充电站", "110000", "110100", Some("110105"), "北京市朝阳区望京街10号望京SOHO地下停车场", 39.9960, 116.4810, "tt-north", "京", "010"),
    site("中关村充电站", "110000", "110100", Some("110108"), "北京市海淀区中关村大街27号停车场", 39.9830, 116.3160, "tt-north", "京", "010"),
    site("亦庄经开区充电站", "110000", "110100", Some("110115"), "北京市大兴区亦庄经济技术开发区荣华中路", 39.7950, 116.5060, "tt-north", "京", "010"),
    site("春熙路充电站", "510000", "510100", Some("510104"), "成都市锦江区红星路三段春熙路地下停车场", 30.6570, 104.0810, "tt-north", "川A", "028"),
    site("高升桥充电站", "510000", "510100", Some("510107"), "成都市武侯区一环路南四段高升桥", 30.6380, 104.0430, "tt-north", "川A", "028"),
    site("双流机场充电站", "510000", "510100", Some("510116"), "成都市双流区双流国际机场T2停车楼", 30.5785, 103.9470, "tt-north", "川A", "028"),
    site("光谷广场充电站", "420000", "420100", Some("420111"), "武汉市洪山区珞喻路光谷广场地下停车场", 30.5050, 114.3990, "tt-north", "鄂A", "027"),
    site("大雁塔充电站", "610000", "610100", Some("610113"), "西安市雁塔区雁塔南路大雁塔北广场停车场", 34.2190, 108.9640, "tt-north", "陕A", "029"),
];

const VENDORS: &[(&str, &str)] = &[
    ("特来电", "TGOOD"),
    ("星星充电", "STAR"),
    ("盛弘股份", "SINX"),
    ("许继电气", "XJ"),
    ("科士达", "KSTAR"),
    ("英飞源", "INFY"),
];

// ------------------------------------------------------------------ generation

impl DemoData {
    /// Builds stations, piles, connectors and tariffs (cheap; orders are lazy).
    pub fn generate(config: DemoConfig) -> DemoData {
        let tariffs = demo_tariffs();
        let mut stations = Vec::new();
        let mut piles = Vec::new();
        let mut connectors = Vec::new();
        let mut weights = Vec::new();
        let mut total_weight = 0u64;
        let window_start = config.end_ts - config.days as i64 * 86_400;
        for si in 0..config.stations {
            let mut rng = Rng::derive(config.seed, 1, si as u64);
            let site = &SITES[si % SITES.len()];
            let round = si / SITES.len();
            let (name, lat, lng) = if round == 0 {
                (site.name.to_string(), site.lat, site.lng)
            } else {
                // Extra sites in the same city, a few km away.
                let dlat = (rng.unit() - 0.5) * 0.08;
                let dlng = (rng.unit() - 0.5) * 0.08;
                (format!("{}（{}号站）", site.name.trim_end_matches("充电站").trim_end_matches("超充站"), round + 1), site.lat + dlat, site.lng + dlng)
            };
            let id = format!("st-{:04}", si + 1);
            let station_status = if si == 6 { StationStatus::Suspended } else { StationStatus::Operating };
            let n_piles = rng.range(4, 10) as u32;
            let dc_share = rng.range(30, 90) as u64; // percent of DC piles
            let mut n_connectors = 0i64;
            for pi in 0..n_piles {
                let (vendor, prefix) = *rng.pick(VENDORS);
                let is_dc = rng.below(100) < dc_share;
                let (pile_type, power, n_conn) = if is_dc {
                    (PileType::Dc, *rng.pick(&[60u32, 120, 120, 160, 180]), if rng.chance(800) { 2 } else { 1 })
                } else {
                    (PileType::Ac, 7, 1)
                };
                let pile_id = format!("{id}-p{:02}", pi + 1);
                let offline = station_status == StationStatus::Suspended || rng.chance(40);
                let interval = 30;
                let last_heartbeat = if offline {
                    Some(config.end_ts - rng.range(3600, 3 * 86_400))
                } else {
                    Some(config.end_ts - rng.range(0, interval * 2))
                };
                let pile_code = format!("{prefix}{}{:04}{:02}", if is_dc { "DC" } else { "AC" }, si + 1, pi + 1);
                piles.push(Pile {
                    id: pile_id.clone(),
                    code: pile_code.clone(),
                    station_id: id.clone(),
                    vendor: vendor.into(),
                    model: format!("{prefix}-{}{power}-{n_conn}G", if is_dc { "DC" } else { "AC" }),
                    firmware_version: format!("V{}.{}.{}", rng.range(2, 4), rng.range(0, 9), rng.range(0, 30)),
                    pile_type,
                    rated_power_kw: power,
                    connector_count: n_conn,
                    heartbeat_interval_secs: interval,
                    last_heartbeat,
                    registration_status: RegistrationStatus::Accepted,
                    security_profile: DEFAULT_SECURITY_PROFILE,
                    ocpp_version: Default::default(),
                    password_set_at: None,
                    created_at: window_start,
                    updated_at: window_start,
                    updated_by: DEMO_AUTHOR.into(),
                    version: 1,
                });
                for ci in 0..n_conn {
                    let standard = match (pile_type, site.province, rng.below(100)) {
                        (PileType::Ac, "310000", 0..=29) => ConnectorStandard::Type2,
                        (PileType::Dc, "310000", 0..=14) => ConnectorStandard::Ccs2,
                        (PileType::Dc, _, 0..=1) => ConnectorStandard::Chademo,
                        _ => ConnectorStandard::Gbt2015,
                    };
                    let (status, fault_code) = if offline {
                        (ConnectorStatus::Offline, None)
                    } else {
                        match rng.below(100) {
                            0..=69 => (ConnectorStatus::Available, None),
                            70..=81 => (ConnectorStatus::Charging, None),
                            82..=84 => (ConnectorStatus::Preparing, None),
                            85..=86 => (ConnectorStatus::Finishing, None),
                            87 => (ConnectorStatus::Suspended, None),
                            88 => (ConnectorStatus::Reserved, None),
                            89..=93 => (ConnectorStatus::Unavailable, None),
                            _ => (ConnectorStatus::Faulted, Some(rng.pick(&["E01 急停按下", "E07 绝缘检测失败", "E12 模块过温", "E21 电表通信异常"]).to_string())),
                        }
                    };
                    let cid = format!("{pile_id}-c{}", ci + 1);
                    let weight = if is_dc { 3 } else { 1 };
                    total_weight += weight;
                    weights.push(total_weight);
                    let status_since = config.end_ts - rng.range(60, 36 * 3600);
                    connectors.push(Connector {
                        id: cid.clone(),
                        pile_id: pile_id.clone(),
                        pile_code: pile_code.clone(),
                        station_id: id.clone(),
                        number: ci + 1,
                        pile_type,
                        standard,
                        max_power_kw: power,
                        // No printed QR text: the answers derive it from the pile code and number.
                        qr_code: String::new(),
                        status,
                        fault_code,
                        status_since,
                        reported_at: None,
                        updated_at: status_since,
                        version: 1,
                    });
                    n_connectors += 1;
                }
            }
            // Drawn in this order (hours, phone, creation) so a seed gives the same data as before.
            let opening_hours = if rng.chance(800) { "00:00-24:00".into() } else { "06:00-23:00".into() };
            let service_phone = format!("{}-{}", site.phone_area, rng.range(8000_0000, 8999_9999));
            let created_at = window_start - rng.range(30, 700) * 86_400;
            stations.push(Station {
                id: id.clone(),
                code: format!("ST{:04}", si + 1),
                name,
                operator: OPERATOR.into(),
                province_code: site.province.into(),
                city_code: site.city.into(),
                district_code: site.district.map(Into::into),
                address: site.address.into(),
                lat: (lat * 1e6).round() / 1e6,
                lng: (lng * 1e6).round() / 1e6,
                opening_hours,
                status: station_status,
                service_phone,
                photo_urls: vec![format!("https://img.example-charging.cn/stations/{id}/1.jpg")],
                parking_info: PARKING_INFO.into(),
                tariff_id: site.tariff.into(),
                pile_count: n_piles.into(),
                connector_count: n_connectors,
                created_at,
                created_by: DEMO_AUTHOR.into(),
                updated_at: created_at,
                updated_by: DEMO_AUTHOR.into(),
                version: 1,
            });
        }
        DemoData { config, tariffs, stations, piles, connectors, connector_weights: weights }
    }

    /// All `config.orders` orders, lazily, in start-time order.
    pub fn orders(&self) -> OrderIter<'_> {
        OrderIter { data: self, next: 0, end: self.config.orders }
    }

    /// Orders `from..to` (clamped), e.g. for parallel seeding in chunks.
    pub fn orders_range(&self, from: u64, to: u64) -> OrderIter<'_> {
        let end = to.min(self.config.orders);
        OrderIter { data: self, next: from.min(end), end }
    }

    fn tariff(&self, id: &str) -> &TariffTemplate {
        self.tariffs.iter().find(|t| t.id == id).expect("station tariff exists")
    }

    /// Start time of order `index`: a monotonic map of `index` over the
    /// local days of the window, shaped by a time-of-day demand profile
    /// (night valley charging and a lunchtime bump).
    fn start_ts(&self, index: u64, rng: &mut Rng) -> i64 {
        const PROFILE: [u64; 24] = [6, 5, 4, 3, 3, 3, 4, 5, 6, 6, 5, 6, 8, 7, 5, 5, 5, 5, 6, 6, 7, 8, 8, 7];
        let cfg = &self.config;
        let n = cfg.orders.max(1) as f64;
        let u = (index as f64 + rng.unit()) / n; // [0, 1), non-decreasing in index
        let off = CHINA_UTC_OFFSET_SECS as i64;
        let end_local = cfg.end_ts + off;
        let last_day = end_local.div_euclid(86_400);
        let days = cfg.days.max(1) as i64;
        let first_day = last_day - days + 1;
        // Demand weight of the hours before `secs` into a day (the CDF of the profile).
        let weight_before = |secs: f64| -> f64 {
            let h = (secs / 3600.0).clamp(0.0, 24.0);
            let whole = h.floor() as usize;
            let done: u64 = PROFILE[..whole.min(24)].iter().sum();
            done as f64 + PROFILE.get(whole).map_or(0.0, |w| *w as f64 * (h - whole as f64))
        };
        // Today counts only up to "now" (10 minutes of margin), at the same
        // density as any other day: the day's share is cut, not squeezed
        // into the hours elapsed, so the number of sessions still running
        // at "now" does not depend on the hour the data set is made.
        let day_weight = weight_before(86_400.0);
        let today_weight = weight_before((end_local.rem_euclid(86_400) - 600).max(0) as f64);
        let total = (days - 1) as f64 * day_weight + today_weight;
        let target = u * total;
        let day = ((target / day_weight).floor() as i64).clamp(0, days - 1);
        let rem = (target - day as f64 * day_weight).max(0.0);
        // Inverse of the CDF within the day.
        let mut acc = 0.0;
        let mut tod = 0.0;
        for (h, &w) in PROFILE.iter().enumerate() {
            if acc + w as f64 > rem {
                tod = (h as f64 + (rem - acc) / w as f64) * 3600.0;
                break;
            }
            acc += w as f64;
        }
        (first_day + day) * 86_400 + tod as i64 - off
    }

    /// Order number `index` (0-based), generated from the seed and `index` only.
    pub fn order(&self, index: u64) -> DemoOrder {
        let cfg = &self.config;
        let mut rng = Rng::derive(cfg.seed, 2, index);
        let start_ts = self.start_ts(index, &mut rng);
        // Connector: DC connectors are drawn three times as often.
        let total = *self.connector_weights.last().expect("at least one connector");
        let w = rng.below(total) + 1;
        let ci = self.connector_weights.partition_point(|&c| c < w);
        let conn = &self.connectors[ci];
        let station_idx = self.stations.iter().position(|s| s.id == conn.station_id).expect("station");
        let station = &self.stations[station_idx];
        let site = &SITES[station_idx % SITES.len()];
        let tariff = self.tariff(&station.tariff_id).clone();
        let is_dc = conn.max_power_kw > 7;

        // Vehicle and session plan.
        let capacity_kwh = rng.range(45, 100) as f64;
        let vehicle_kw = if is_dc { rng.range(60, 160) as f64 } else { rng.range(60, 70) as f64 / 10.0 };
        let soc_start = rng.range(8, 55) as f64;
        // Most DC users stop at a preset SoC (80-95 %), AC users usually charge full.
        let soc_target = if is_dc && rng.chance(600) { rng.range(80, 95) as f64 } else { 100.0 };
        let max_secs = if is_dc { rng.range(20, 100) * 60 } else { rng.range(60, 720) * 60 };
        let max_kw = (conn.max_power_kw as f64).min(vehicle_kw);

        // Anomaly / outcome roll.
        let roll = rng.below(1000);
        let kind = match roll {
            0..=2 => Kind::Stuck,
            3..=7 => Kind::ZeroEnergy,
            8 => Kind::NegativeMeter,
            9 => Kind::MissingPrice,
            10..=19 => Kind::Cancelled,
            20..=39 => Kind::AbnormalStop,
            _ => Kind::Normal,
        };

        // Meter curve, 5-minute samples.
        let mut curve = vec![CurvePoint { ts: start_ts, power_w: 0, energy_wh: 0, soc: soc_start as u8 }];
        let mut soc = soc_start;
        let mut energy = 0.0f64;
        let mut t = start_ts;
        let deliver = !matches!(kind, Kind::ZeroEnergy | Kind::Cancelled);
        let horizon = match kind {
            Kind::Stuck => rng.range(3, 8) * CURVE_STEP_SECS, // charger went silent early
            Kind::Cancelled => rng.range(1, 3) * 60,
            Kind::ZeroEnergy => rng.range(2, 15) * 60,
            Kind::AbnormalStop => max_secs * rng.range(10, 80) / 100,
            _ => max_secs,
        };
        let mut hit_target = false;
        let mut truncated_at_now = false;
        while t - start_ts < horizon {
            let step = CURVE_STEP_SECS.min(horizon - (t - start_ts));
            if t + step > cfg.end_ts {
                truncated_at_now = true;
                break;
            }
            let kw = if deliver {
                // Constant power to 80 %, then a linear taper to 10 % of max.
                let taper = if soc < 80.0 { 1.0 } else { (1.0 - (soc - 80.0) / 20.0 * 0.9).max(0.1) };
                let jitter = 0.95 + rng.unit() * 0.05;
                max_kw * taper * jitter
            } else {
                0.0
            };
            let wh = kw * 1000.0 * step as f64 / 3600.0;
            energy += wh;
            soc = (soc + wh / 1000.0 / capacity_kwh * 100.0).min(100.0);
            t += step;
            curve.push(CurvePoint { ts: t, power_w: (kw * 1000.0) as i64, energy_wh: energy as i64, soc: soc as u8 });
            if soc >= soc_target {
                hit_target = true;
                break;
            }
        }
        let energy_wh = curve.last().map(|p| p.energy_wh).unwrap_or(0);
        let meter_start_wh = rng.range(100_000, 80_000_000);

        let user_no = rng.below((cfg.orders / 15).clamp(500, 2_000_000));
        let plate = format!("{}{}{}{:05}", site.plate, if site.plate.chars().count() == 1 { "A" } else { "" }, rng.pick(&["D", "F", "D", "D"]), user_no % 100_000);
        let mut order = Order::started(SessionStart {
            order_no: format!("CD{}{:010}", yyyymmdd(start_ts, CHINA_UTC_OFFSET_SECS), index),
            station_id: station.id.clone(),
            pile_id: conn.pile_id.clone(),
            connector_id: conn.id.clone(),
            user_id: format!("U{:08}", user_no),
            plate,
            start_ts,
            meter_start_wh,
            soc_start: soc_start as u8,
            payment_method: None,
        });
        // A session still running at "now" shows what it has delivered so far.
        order.energy_wh = energy_wh;
        let mut demo = DemoOrder { order, lines: Vec::new(), tariff: Some(tariff), refunds: Vec::new(), curve };
        // Sessions still running at "now", and stuck ones, stay open.
        if kind == Kind::Stuck || (truncated_at_now && kind != Kind::Stuck) {
            return demo;
        }
        let stop_ts = demo.curve.last().map(|p| p.ts).unwrap_or(start_ts);
        demo.order.stop_ts = Some(stop_ts);
        demo.order.soc_end = demo.curve.last().map(|p| p.soc);
        demo.order.meter_stop_wh = Some(meter_start_wh + energy_wh);
        let idle_min = if rng.chance(100) { rng.range(30, 300) } else { rng.range(0, 20) };
        let occupancy = (((stop_ts - start_ts) + 59) / 60 + idle_min).min(u32::MAX as i64) as u32;
        demo.order.occupancy_minutes = occupancy;
        let (status, reason) = match kind {
            Kind::ZeroEnergy => (OrderStatus::Finished, *rng.pick(&[StopReason::Unplugged, StopReason::VehicleFault, StopReason::UserApp])),
            Kind::Cancelled => (OrderStatus::Cancelled, *rng.pick(&[StopReason::UserApp, StopReason::Other])),
            Kind::AbnormalStop => (
                OrderStatus::Abnormal,
                *rng.pick(&[StopReason::ChargerFault, StopReason::PowerLoss, StopReason::CommunicationLost, StopReason::EmergencyStop]),
            ),
            Kind::NegativeMeter => (OrderStatus::Abnormal, StopReason::ChargerFault),
            _ if hit_target => (OrderStatus::Finished, StopReason::Full),
            _ => (
                OrderStatus::Finished,
                *rng.pick(&[StopReason::UserApp, StopReason::UserApp, StopReason::UserCard, StopReason::LimitReached, StopReason::InsufficientBalance]),
            ),
        };
        demo.order.status = status;
        demo.order.stop_reason = Some(reason);
        match kind {
            Kind::NegativeMeter => {
                // The meter was replaced/reset mid-session: unpriceable.
                demo.order.meter_stop_wh = Some(meter_start_wh - rng.range(1_000, 500_000));
                return demo;
            }
            Kind::MissingPrice => {
                demo.tariff = None;
                return demo;
            }
            Kind::Cancelled => return demo,
            _ => {}
        }
        let samples: Vec<MeterSample> = demo.curve.iter().map(|p| MeterSample::new(p.ts, meter_start_wh + p.energy_wh)).collect();
        let discount = if rng.chance(100) { Fen(rng.range(1, 10) * 100) } else { Fen::ZERO };
        let opts = PricingOptions { occupancy_minutes: occupancy, discount, ..Default::default() };
        let priced = price_session(demo.tariff.as_ref().expect("snapshot"), &samples, &opts).expect("demo sessions price cleanly");
        demo.lines = demo.order.apply_priced(priced);
        // Payment: most paid; a few left unpaid (arrears).
        if demo.order.amount_fen.is_positive() && !rng.chance(30) {
            demo.order.paid_fen = demo.order.amount_fen;
            demo.order.payment_method = Some(*rng.pick(&[
                PaymentMethod::Wechat,
                PaymentMethod::Wechat,
                PaymentMethod::Wechat,
                PaymentMethod::Alipay,
                PaymentMethod::Alipay,
                PaymentMethod::Balance,
                PaymentMethod::Card,
                PaymentMethod::Unionpay,
            ]));
            // Refunds: ~3 % of paid orders, abnormal ones more often.
            let refund_chance = if status == OrderStatus::Abnormal { 300 } else { 30 };
            if rng.chance(refund_chance) {
                let mut money = demo.order.money();
                let n = if rng.chance(200) { 2 } else { 1 };
                for k in 0..n {
                    let refundable = money.refundable().0;
                    if refundable <= 0 {
                        break;
                    }
                    let amount = if rng.chance(300) { refundable } else { (refundable * rng.range(10, 50) / 100).max(1) };
                    let reason = rng.pick(&["充电桩故障导致充电中断", "电量计费异常，用户投诉", "占位费争议", "活动优惠补退", "重复扣款"]).to_string();
                    let req = RefundRequest { amount: Fen(amount), reason: reason.clone() };
                    money = apply_refund(&money, &req).expect("demo refund is within refundable");
                    demo.refunds.push(Refund {
                        id: format!("RF{}{:02}", &demo.order.order_no[2..], k + 1),
                        amount: Fen(amount),
                        reason,
                        requested_at: (stop_ts + rng.range(600, 3 * 86_400)).min(cfg.end_ts),
                        approved_by: "admin".into(),
                    });
                }
                demo.order.refunded_fen = money.refunded;
            }
        }
        demo.order.payment_status = demo.order.money().payment_status();
        demo
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Normal,
    Stuck,
    ZeroEnergy,
    NegativeMeter,
    MissingPrice,
    Cancelled,
    AbnormalStop,
}

/// Lazy order iterator (see [`DemoData::orders`]).
pub struct OrderIter<'a> {
    data: &'a DemoData,
    next: u64,
    end: u64,
}

impl Iterator for OrderIter<'_> {
    type Item = DemoOrder;

    fn next(&mut self) -> Option<DemoOrder> {
        if self.next >= self.end {
            return None;
        }
        let o = self.data.order(self.next);
        self.next += 1;
        Some(o)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<DemoOrder> {
        self.next = self.next.saturating_add(n as u64).min(self.end);
        self.next()
    }
}

impl ExactSizeIterator for OrderIter<'_> {}

/// Checks a station's region codes (used by tests and handy for seeders).
pub fn station_region_ok(s: &Station) -> bool {
    validate_region(&s.province_code, &s.city_code, s.district_code.as_deref()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connector::is_online;
    use crate::orders::{detect_anomalies, Anomaly, AnomalyThresholds, OrderFacts, PaymentStatus};
    use crate::region::lookup;

    fn small() -> DemoConfig {
        DemoConfig { orders: 4000, ..DemoConfig::default() }
    }

    #[test]
    fn tariffs_are_valid() {
        for t in demo_tariffs() {
            assert_eq!(t.validate(), Ok(()), "{}", t.id);
        }
    }

    #[test]
    fn stations_are_real_places() {
        let d = DemoData::generate(DemoConfig { stations: 30, ..small() });
        assert_eq!(d.stations.len(), 30);
        for s in &d.stations {
            assert!(station_region_ok(s), "{} {:?}", s.name, s.district_code);
            let path = lookup(s.district_code.as_deref().unwrap_or(&s.city_code)).unwrap();
            // The address names the city (or, for municipalities, the province).
            let city = path.city.filter(|c| *c != "市辖区").unwrap_or(path.province);
            assert!(s.address.starts_with(city), "{} vs {}", s.address, city);
            if let Some(d) = path.district {
                assert!(s.address.contains(d), "{} vs {d}", s.address);
            }
            assert!((18.0..54.0).contains(&s.lat) && (73.0..136.0).contains(&s.lng));
            assert!(d.tariffs.iter().any(|t| t.id == s.tariff_id));
            let piles = d.piles.iter().filter(|p| p.station_id == s.id).count() as i64;
            let conns = d.connectors.iter().filter(|c| c.station_id == s.id).count() as i64;
            assert_eq!((piles, conns), (s.pile_count, s.connector_count));
        }
        assert_eq!(d.stations[7].city_code, "441900");
        assert_eq!(d.stations[7].district_code, None);
        // Mixed pile types and some offline piles.
        assert!(d.piles.iter().any(|p| p.pile_type == PileType::Ac));
        assert!(d.piles.iter().any(|p| p.pile_type == PileType::Dc));
        let now = d.config.end_ts;
        let offline = d.piles.iter().filter(|p| !is_online(p.last_heartbeat, now, 3 * p.heartbeat_interval_secs)).count();
        assert!(offline > 0 && offline < d.piles.len() / 2, "{offline}");
        let json = serde_json::to_value(&d.stations[0]).unwrap();
        assert_eq!(json["provinceCode"], "440000");
        assert_eq!(json["districtCode"], "440305");
    }

    #[test]
    fn deterministic_and_random_access() {
        let a = DemoData::generate(small());
        let b = DemoData::generate(small());
        assert_eq!(a, b);
        let orders_a: Vec<DemoOrder> = a.orders().take(300).collect();
        let orders_b: Vec<DemoOrder> = b.orders().take(300).collect();
        assert_eq!(orders_a, orders_b);
        assert_eq!(a.order(123), orders_a[123]);
        assert_eq!(a.orders().nth(200).unwrap(), orders_a[200]);
        assert_eq!(a.orders_range(250, 260).next().unwrap(), orders_a[250]);
        assert_eq!(a.orders().len(), 4000);
        let other = DemoData::generate(DemoConfig { seed: 7, ..small() });
        assert_ne!(other.order(5), a.order(5));
    }

    #[test]
    fn orders_are_consistent() {
        let d = DemoData::generate(small());
        let cfg = d.config;
        let th = AnomalyThresholds::default();
        let window_start = cfg.end_ts - cfg.days as i64 * 86_400 - 86_400;
        let mut prev_start = i64::MIN;
        let mut prev_no = String::new();
        let mut seen = std::collections::HashMap::<&str, usize>::new();
        for o in d.orders() {
            assert!(o.order.start_ts >= prev_start, "orders sorted by start");
            assert!(o.order.order_no > prev_no);
            prev_start = o.order.start_ts;
            prev_no = o.order.order_no.clone();
            assert!(o.order.start_ts >= window_start && o.order.start_ts < cfg.end_ts, "{}", o.order.order_no);
            assert!(o.curve.iter().all(|p| p.ts <= cfg.end_ts));
            assert!(o.curve.windows(2).all(|w| w[1].ts > w[0].ts && w[1].energy_wh >= w[0].energy_wh));
            // Money adds up.
            let lines_e = o.lines.iter().map(|l| l.electricity_fen.0).sum::<i64>();
            let lines_s = o.lines.iter().map(|l| l.service_fen.0).sum::<i64>();
            assert_eq!((lines_e, lines_s), (o.order.electricity_fen.0, o.order.service_fen.0));
            assert_eq!(o.order.electricity_fen.0 + o.order.service_fen.0 + o.order.parking_fen.0 - o.order.discount_fen.0, o.order.amount_fen.0);
            assert!(o.order.paid_fen <= o.order.amount_fen && o.order.refunded_fen <= o.order.paid_fen);
            assert_eq!(o.refunds.iter().map(|r| r.amount.0).sum::<i64>(), o.order.refunded_fen.0);
            assert_eq!(o.order.payment_status, o.order.money().payment_status());
            if !o.lines.is_empty() {
                assert_eq!(o.lines.iter().map(|l| l.energy_wh).sum::<i64>(), o.order.energy_wh);
            }
            let facts = OrderFacts {
                status: o.order.status,
                start_ts: o.order.start_ts,
                stop_ts: o.order.stop_ts,
                meter_start_wh: Some(o.order.meter_start_wh),
                meter_stop_wh: o.order.meter_stop_wh,
                worst_sample_delta_wh: None,
                has_price_snapshot: o.tariff.is_some(),
            };
            let anomalies = detect_anomalies(&facts, cfg.end_ts, &th);
            let key = match anomalies.first() {
                None => "ok",
                Some(Anomaly::NeverStopped { .. }) => "stuck",
                Some(Anomaly::ZeroEnergy) => "zero",
                Some(Anomaly::NegativeMeter { .. }) => "negative",
                Some(Anomaly::MissingPriceSnapshot) => "noPrice",
                Some(_) => "other",
            };
            *seen.entry(key).or_default() += 1;
            *seen.entry(match o.order.status {
                OrderStatus::Charging => "charging",
                OrderStatus::Finished => "finished",
                OrderStatus::Abnormal => "abnormal",
                OrderStatus::Cancelled => "cancelled",
            })
            .or_default() += 1;
            if !o.refunds.is_empty() {
                *seen.entry("refunded").or_default() += 1;
            }
            if o.order.payment_status == PaymentStatus::Unpaid && o.order.amount_fen.is_positive() {
                *seen.entry("arrears").or_default() += 1;
            }
        }
        for key in ["ok", "stuck", "zero", "negative", "noPrice", "finished", "abnormal", "cancelled", "refunded", "arrears"] {
            assert!(seen.get(key).copied().unwrap_or(0) > 0, "no {key} orders: {seen:?}");
        }
        assert!(seen["ok"] > 3500, "{seen:?}");
        assert_eq!(seen.get("other"), None, "{seen:?}");
    }

    #[test]
    fn sessions_open_at_now_do_not_depend_on_the_hour() {
        // The same data set made at 02:30 and at 14:30 China time: the last
        // hour holds about an hour's share of orders either way (today's
        // share was once squeezed into the hours elapsed, so a data set made
        // just after midnight had a whole day of sessions still running).
        let at = |end_ts: i64| {
            let d = DemoData::generate(DemoConfig { orders: 7_000, days: 7, end_ts, ..DemoConfig::default() });
            let last_hour = d.orders().filter(|o| o.order.start_ts > end_ts - 3600).count();
            let open = d.orders().filter(|o| o.order.stop_ts.is_none()).count();
            let today_start = end_ts - (end_ts + CHINA_UTC_OFFSET_SECS as i64).rem_euclid(86_400);
            assert!(d.orders().all(|o| o.order.start_ts <= end_ts - 600));
            (last_hour, open, d.orders().filter(|o| o.order.start_ts >= today_start).count())
        };
        let night = at(1_751_221_800); // 2025-06-30 02:30 +08:00
        let day = at(1_751_265_000); // 2025-06-30 14:30 +08:00
        let per_hour = 7_000 / (7 * 24);
        assert!(night.0 <= 2 * per_hour && day.0 <= 2 * per_hour, "last hour: night {night:?}, day {day:?}, ~{per_hour}/h");
        assert!(night.1 <= 2 * per_hour, "open at 02:30: {night:?}");
        // Today's share grows with the hours elapsed.
        assert!(night.2 * 3 < day.2, "today so far: night {night:?}, day {day:?}");
    }

    #[test]
    fn recent_orders_are_still_charging() {
        let d = DemoData::generate(DemoConfig { orders: 20_000, days: 30, ..DemoConfig::default() });
        let last: Vec<DemoOrder> = d.orders_range(19_950, 20_000).collect();
        assert!(last.iter().any(|o| o.order.status == OrderStatus::Charging && o.order.stop_ts.is_none()));
        let o = d.order(10_000);
        let v = serde_json::to_value(&o).unwrap();
        assert!(v["orderNo"].as_str().unwrap().starts_with("CD2025"));
        assert!(v["curve"][0].get("powerW").is_some());
        let back: DemoOrder = serde_json::from_value(v).unwrap();
        assert_eq!(back, o);
    }
}

#[cfg(test)]
mod bench {
    use super::*;

    /// `cargo test -p charging --release -- --ignored --nocapture million`
    #[test]
    #[ignore]
    fn million_orders_stream_in_constant_memory() {
        let d = DemoData::generate(DemoConfig { orders: 1_000_000, days: 180, ..DemoConfig::default() });
        let t = std::time::Instant::now();
        let (mut n, mut energy, mut amount) = (0u64, 0i64, 0i64);
        for o in d.orders() {
            n += 1;
            energy += o.order.energy_wh;
            amount += o.order.amount_fen.0;
        }
        eprintln!("{n} orders, {} kWh, {} yuan in {:?}", energy / 1000, Fen(amount), t.elapsed());
        assert_eq!(n, 1_000_000);
    }
}
