//! Mock data for the template's demo pages (never real records):
//! generated deterministically, so every start shows the same table, goods
//! and icons, and tests can name what they expect. Only the workflow graph
//! is stored, because its page edits and saves it.

use std::sync::OnceLock;

use charging::demo::Rng;
use serde::Serialize;

/// The spec's 50 table items.
pub const TABLE_ITEMS: u64 = 50;
/// How many goods the mall shows.
pub const GOODS_ITEMS: u64 = 40;
/// The random-image helper chooses from 38 images; the SPA
/// ships them as `demo/img-01.svg` .. `demo/img-38.svg`.
pub const DEMO_IMAGES: u64 = 38;
const SEED: u64 = 20_260_101;

/// One row of the demo table: page views 300–5000, percent 80–99, rate 1–5, percentage 0–100.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TableItem {
    pub uuid: String,
    pub id: String,
    pub title: String,
    pub description: String,
    pub status: &'static str,
    pub author: &'static str,
    pub datetime: String,
    pub page_views: u32,
    pub img: String,
    pub switch: bool,
    pub percent: u32,
    pub rate: u32,
    pub percentage: u32,
}

pub const TABLE_STATUSES: [&str; 3] = ["published", "draft", "deleted"];

/// The workflow demo's graph before anyone saved one, an approval flow:
/// its nodes as (id, type, x, y, text); `workflow::default_graph` joins them.
pub const WORKFLOW_NODES: [(&str, &str, f64, f64, &str); 6] = [
    ("start", "start", 100.0, 200.0, "开始"),
    ("apply", "user", 260.0, 200.0, "提交退款申请"),
    ("review", "rect", 440.0, 200.0, "管理员审核"),
    ("notify", "push", 620.0, 120.0, "通知用户"),
    ("export", "download", 620.0, 280.0, "导出对账单"),
    ("end", "end", 800.0, 200.0, "结束"),
];
const AUTHORS: [&str; 10] = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏", "黄强", "周杰", "吴婷"];
const TOPICS: [&str; 10] = ["充电站巡检", "电价调整", "峰谷分时", "桩体维护", "结算对账", "会员活动", "故障处理", "新站上线", "安全培训", "运营周报"];

fn uuid_of(stream: u64, index: u64) -> String {
    let mut rng = Rng::derive(SEED, stream, index);
    let (a, b) = (rng.next_u64(), rng.next_u64());
    format!("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xfff, (b >> 48) | 0x8000, b & 0xffff_ffff_ffff)
}

/// `demo/img-NN.svg` for a random image of the set.
pub fn image(rng: &mut Rng) -> String {
    format!("demo/img-{:02}.svg", rng.range(1, DEMO_IMAGES as i64))
}

/// A `YYYY-MM-DD HH:mm:ss` time some days before 2026-11-01.
fn datetime(rng: &mut Rng) -> String {
    let secs = 1_793_491_200 - rng.range(0, 180 * 86_400);
    let t = time::OffsetDateTime::from_unix_timestamp(secs).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    t.format(format).unwrap_or_default()
}

/// All table items, in id order.
pub fn table_items() -> &'static [TableItem] {
    static ITEMS: OnceLock<Vec<TableItem>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        (1..=TABLE_ITEMS)
            .map(|i| {
                let mut rng = Rng::derive(SEED, 1, i);
                let topic = rng.pick(&TOPICS);
                TableItem {
                    uuid: uuid_of(1, i),
                    id: i.to_string(),
                    title: format!("{topic} #{i}"),
                    description: format!("关于{topic}的第 {i} 条记录"),
                    status: *rng.pick(&TABLE_STATUSES),
                    author: *rng.pick(&AUTHORS),
                    datetime: datetime(&mut rng),
                    page_views: rng.range(300, 5000) as u32,
                    img: image(&mut rng),
                    switch: rng.chance(500),
                    percent: rng.range(80, 99) as u32,
                    rate: rng.range(1, 5) as u32,
                    percentage: rng.range(0, 100) as u32,
                }
            })
            .collect()
    })
}

/// One mall item: image, title, price, labels, company, link and description.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Goods {
    pub uuid: String,
    pub image: String,
    pub title: String,
    /// Yuan, two decimals.
    pub price: f64,
    pub label: Vec<&'static str>,
    pub company: &'static str,
    pub url: String,
    pub description: String,
}

const PRODUCTS: [&str; 8] = ["7kW 交流充电桩", "60kW 直流快充桩", "120kW 双枪直流桩", "便携式充电枪", "充电桩立柱", "智能电表", "充电站遮雨棚", "车位地锁"];
const COMPANIES: [&str; 5] = ["新能源设备有限公司", "绿电科技", "快充电气", "城市能源服务", "星光智能制造"];
const LABELS: [&str; 6] = ["热销", "新品", "包邮", "国标", "质保三年", "可开票"];

/// All goods.
pub fn goods() -> &'static [Goods] {
    static ITEMS: OnceLock<Vec<Goods>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        (1..=GOODS_ITEMS)
            .map(|i| {
                let mut rng = Rng::derive(SEED, 2, i);
                let product = rng.pick(&PRODUCTS);
                let mut label: Vec<&'static str> = Vec::new();
                for _ in 0..rng.range(1, 3) {
                    let l = *rng.pick(&LABELS);
                    if !label.contains(&l) {
                        label.push(l);
                    }
                }
                Goods {
                    uuid: uuid_of(2, i),
                    image: image(&mut rng),
                    title: format!("{product} 型号 {i:02}"),
                    price: rng.range(9_900, 2_999_900) as f64 / 100.0,
                    label,
                    company: *rng.pick(&COMPANIES),
                    url: format!("#/mall/goods?id={i}"),
                    description: format!("{product}，适用于公共与私人充电场景。"),
                }
            })
            .collect()
    })
}

/// The description list the table detail page shows.
pub fn descriptions() -> Vec<(&'static str, &'static str)> {
    vec![
        ("名称", "新能源管理系统"),
        ("版本", "2.0.8"),
        ("技术栈", "Rust (AWS Lambda) + React 19 + Fluent UI"),
        ("数据存储", "DynamoDB（本地为 SQLite）"),
        ("界面语言", "中文 / English"),
        ("说明", "表格、商品与图标数据为演示数据，每次启动相同。"),
    ]
}

/// The remix icon names (from the remixicon package, Apache-2.0).
pub fn remix_icons() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| serde_json::from_str(include_str!("../../data/remix-icons.json")).expect("data/remix-icons.json is a list of names"))
}
