//! The platform's YKC commands as the shared command queue keeps them: an
//! action (the frame's name in the codec's catalogue) and a JSON payload,
//! turned into the frame when the queue sends it; the pile's answer frame
//! turned into the command's answer (`status` Accepted or Rejected, as the
//! OCPP ones read, and the answer's fields).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ykc::msg::{self, GunNo, LogicalCardNo, Message, OrderNo, Outcome, PhysicalCardNo, PileNo, When};
use ykc::units::Fen;

pub const REMOTE_START: &str = "RemoteStart";
pub const REMOTE_STOP: &str = "RemoteStop";
pub const REBOOT: &str = "Reboot";
pub const TARIFF_SET: &str = "TariffSet";
pub const WORK_PARAMS: &str = "WorkParams";
pub const UPDATE: &str = "Update";
pub const OFFLINE_CARD_SYNC: &str = "OfflineCardSync";
pub const OFFLINE_CARD_CLEAR: &str = "OfflineCardClear";
pub const BALANCE_UPDATE: &str = "BalanceUpdate";
pub const PARKING_LOCK: &str = "ParkingLockCommand";
pub const READ_REALTIME: &str = "ReadRealtime";
pub const OFFLINE_CARD_QUERY: &str = "OfflineCardQuery";
/// Every command the queue sends a YKC pile.
pub const COMMANDS: &[&str] = &[REMOTE_START, REMOTE_STOP, REBOOT, TARIFF_SET, WORK_PARAMS, UPDATE, OFFLINE_CARD_SYNC, OFFLINE_CARD_CLEAR, BALANCE_UPDATE, PARKING_LOCK, READ_REALTIME, OFFLINE_CARD_QUERY];
/// Cards one sync frame holds (0x44), one clear frame (0x46) and one query (0x48).
pub const CARDS_PER_SYNC: usize = 15;
pub const CARDS_PER_CLEAR: usize = 24;
pub const CARDS_PER_QUERY: usize = 26;

/// 0x34: start charging on a gun for a card, with the order number the
/// platform made for the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteStartCall {
    pub gun: u32,
    /// 32 digits.
    pub order_no: String,
    pub id_tag: String,
    /// 16 digits (zeros when the card number is not decimal).
    pub logical_card: String,
    pub balance_fen: u32,
}

/// 0x36: stop the session on a gun.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteStopCall {
    pub gun: u32,
}

/// 0x92: restart now or once idle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RebootCall {
    /// Restart even while charging (a Hard reset) or only once no gun charges.
    pub now: bool,
}

/// 0x58: a station's tariff as a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TariffSetCall {
    pub tariff_id: String,
    pub tariff_version: i64,
    pub model_id: String,
}

/// 0x52: put the whole pile in or out of service, with its output cap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkParamsCall {
    pub allowed: bool,
    /// % of the rated power, 30-100.
    pub max_power_percent: u8,
}

/// 0x94: fetch and install firmware over FTP (the specification's fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateCall {
    pub dc: bool,
    pub power_kw: u16,
    pub server: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    pub path: String,
    pub timeout_minutes: u8,
}

/// The fields 0x94 sends of an `ftp://user:password@host:port/path`
/// location: each within its field's size (16, 16, 16 and 32 characters).
pub fn update_call(location: &str, dc: bool, power_kw: u32) -> Result<UpdateCall, String> {
    let url = url::Url::parse(location.trim()).map_err(|_| "not a URL".to_string())?;
    if url.scheme() != "ftp" {
        return Err("a YKC pile fetches firmware over FTP: give an ftp:// location".into());
    }
    let server = url.host_str().unwrap_or_default().to_string();
    let (user, password, path) = (url.username().to_string(), url.password().unwrap_or_default().to_string(), url.path().to_string());
    for (what, value, max) in [("host", &server, 16), ("user name", &user, 16), ("password", &password, 16), ("path", &path, 32)] {
        if value.len() > max || !value.bytes().all(|b| (0x20..0x7F).contains(&b)) {
            return Err(format!("the location's {what} must be at most {max} ASCII characters for a YKC pile"));
        }
    }
    Ok(UpdateCall { dc, power_kw: u16::try_from(power_kw).unwrap_or(u16::MAX), server, port: url.port().unwrap_or(21), user, password, path, timeout_minutes: 10 })
}

/// 0x44: cards the pile may start offline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OfflineCardSyncCall {
    pub id_tags: Vec<String>,
}

/// 0x46: cards the pile must forget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OfflineCardClearCall {
    pub id_tags: Vec<String>,
}

/// 0x42: a card's new balance, for the pile charging it on a gun (the
/// pile stops the session once the amount reaches it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceUpdateCall {
    pub gun: u32,
    pub id_tag: String,
    pub balance_fen: u32,
}

/// 0x62: raise or lower the parking lock in front of a gun.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParkingLockCall {
    pub gun: u32,
    /// Raise (keep the space) or lower (let a car in).
    pub raise: bool,
}

/// 0x12: a gun's real-time data now; the pile answers with 0x13.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadRealtimeCall {
    pub gun: u32,
}

/// 0x48: which of these cards the pile holds for offline starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OfflineCardQueryCall {
    pub id_tags: Vec<String>,
}

/// A card number as YKC's physical card field: 8 bytes, zero bytes first.
pub fn physical_card(id_tag: &str) -> Result<PhysicalCardNo, String> {
    let hex = id_tag.trim();
    if hex.is_empty() || hex.len() > 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("card {hex} is not a YKC card number (1-16 hex digits)"));
    }
    PhysicalCardNo::from_hex(&format!("{hex:0>16}"))
}

/// The card number a YKC physical card field holds: its hex without the
/// leading zero bytes' digits, as cards are registered.
pub fn id_tag(card: &PhysicalCardNo) -> String {
    let hex = card.hex();
    let trimmed = hex.trim_start_matches('0');
    if trimmed.is_empty() { "0".into() } else { trimmed.to_string() }
}

/// The printed number sent beside a card: its digits when decimal, else zeros.
pub fn logical_card(id_tag: &str) -> String {
    let t = id_tag.trim();
    if !t.is_empty() && t.len() <= 16 && t.bytes().all(|b| b.is_ascii_digit()) { format!("{t:0>16}") } else { "0".repeat(16) }
}

fn gun(n: u32) -> Result<GunNo, String> {
    GunNo::from_number(u128::from(n)).map_err(|e| format!("gun {n}: {e}"))
}

/// The frame a queued command sends, for `pile`; the model of a tariff
/// push and its id are given by the caller (read from the store).
pub fn message(pile: &PileNo, action: &str, payload: &Value, tariff: Option<(msg::TariffModelId, msg::TariffModel)>) -> Result<Message, String> {
    let read = |what: &str| format!("{action}: the payload is not a {what}");
    Ok(match action {
        REMOTE_START => {
            let c: RemoteStartCall = serde_json::from_value(payload.clone()).map_err(|_| read("remote start"))?;
            Message::RemoteStart(msg::RemoteStart {
                order: OrderNo::from_digits(&c.order_no)?,
                pile: *pile,
                gun: gun(c.gun)?,
                logical_card: LogicalCardNo::from_digits(&c.logical_card)?,
                physical_card: physical_card(&c.id_tag)?,
                balance: Fen(c.balance_fen),
            })
        }
        REMOTE_STOP => {
            let c: RemoteStopCall = serde_json::from_value(payload.clone()).map_err(|_| read("remote stop"))?;
            Message::RemoteStop(msg::RemoteStop { pile: *pile, gun: gun(c.gun)? })
        }
        REBOOT => {
            let c: RebootCall = serde_json::from_value(payload.clone()).map_err(|_| read("reboot"))?;
            Message::Reboot(msg::Reboot { pile: *pile, when: if c.now { When::Now } else { When::WhenIdle } })
        }
        TARIFF_SET => {
            let c: TariffSetCall = serde_json::from_value(payload.clone()).map_err(|_| read("tariff push"))?;
            msg::TariffModelId::from_digits(&c.model_id)?;
            let (model, tariff) = tariff.ok_or_else(|| format!("{action}: the station has no tariff"))?;
            Message::TariffSet(msg::TariffSet { pile: *pile, model, tariff })
        }
        WORK_PARAMS => {
            let c: WorkParamsCall = serde_json::from_value(payload.clone()).map_err(|_| read("work parameter setting"))?;
            if !(30..=100).contains(&c.max_power_percent) {
                return Err(format!("{action}: the output cap is 30-100 %"));
            }
            let allowed = if c.allowed { msg::WorkAllowed::Allowed } else { msg::WorkAllowed::Locked };
            Message::WorkParams(msg::WorkParams { pile: *pile, allowed, max_power_percent: c.max_power_percent })
        }
        UPDATE => {
            let c: UpdateCall = serde_json::from_value(payload.clone()).map_err(|_| read("remote update"))?;
            Message::Update(msg::Update {
                pile: *pile,
                model: if c.dc { msg::PileModel::Dc } else { msg::PileModel::Ac },
                power: c.power_kw,
                server: ykc::wire::Ascii::from_text(&c.server)?,
                port: c.port,
                user: ykc::wire::Ascii::from_text(&c.user)?,
                password: ykc::wire::Ascii::from_text(&c.password)?,
                path: ykc::wire::Ascii::from_text(&c.path)?,
                when: When::Now,
                timeout_minutes: c.timeout_minutes,
            })
        }
        OFFLINE_CARD_SYNC => {
            let c: OfflineCardSyncCall = serde_json::from_value(payload.clone()).map_err(|_| read("offline card sync"))?;
            let entries = c
                .id_tags
                .iter()
                .map(|t| Ok(msg::OfflineCard { logical_card: LogicalCardNo::from_digits(&logical_card(t))?, physical_card: physical_card(t)? }))
                .collect::<Result<Vec<_>, String>>()?;
            if entries.is_empty() || entries.len() > CARDS_PER_SYNC {
                return Err(format!("{action}: 1-{CARDS_PER_SYNC} cards a frame"));
            }
            Message::OfflineCardSync(msg::OfflineCardSync { pile: *pile, entries })
        }
        OFFLINE_CARD_CLEAR => {
            let c: OfflineCardClearCall = serde_json::from_value(payload.clone()).map_err(|_| read("offline card clear"))?;
            Message::OfflineCardClear(msg::OfflineCardClear { pile: *pile, entries: physical_cards(action, &c.id_tags, CARDS_PER_CLEAR)? })
        }
        BALANCE_UPDATE => {
            let c: BalanceUpdateCall = serde_json::from_value(payload.clone()).map_err(|_| read("balance update"))?;
            Message::BalanceUpdate(msg::BalanceUpdate { pile: *pile, gun: gun(c.gun)?, physical_card: physical_card(&c.id_tag)?, balance: Fen(c.balance_fen) })
        }
        PARKING_LOCK => {
            let c: ParkingLockCall = serde_json::from_value(payload.clone()).map_err(|_| read("parking lock command"))?;
            // The lock frames number the gun in binary, not BCD.
            let gun = u8::try_from(c.gun).ok().filter(|g| (1..=99).contains(g)).ok_or_else(|| format!("gun {}: 1-99", c.gun))?;
            let action = if c.raise { msg::LockAction::Raise } else { msg::LockAction::Lower };
            Message::ParkingLockCommand(msg::ParkingLockCommand { pile: *pile, gun, action, reserved: ykc::wire::Bin::new([0; 4]) })
        }
        READ_REALTIME => {
            let c: ReadRealtimeCall = serde_json::from_value(payload.clone()).map_err(|_| read("real-time data request"))?;
            Message::ReadRealtime(msg::ReadRealtime { pile: *pile, gun: gun(c.gun)? })
        }
        OFFLINE_CARD_QUERY => {
            let c: OfflineCardQueryCall = serde_json::from_value(payload.clone()).map_err(|_| read("offline card query"))?;
            Message::OfflineCardQuery(msg::OfflineCardQuery { pile: *pile, entries: physical_cards(action, &c.id_tags, CARDS_PER_QUERY)? })
        }
        other => return Err(format!("{other} is not a YKC command")),
    })
}

/// The physical numbers of 1 to `most` cards, as one frame of `action` lists them.
fn physical_cards(action: &str, id_tags: &[String], most: usize) -> Result<Vec<PhysicalCardNo>, String> {
    let entries = id_tags.iter().map(|t| physical_card(t)).collect::<Result<Vec<_>, String>>()?;
    if entries.is_empty() || entries.len() > most {
        return Err(format!("{action}: 1-{most} cards a frame"));
    }
    Ok(entries)
}

/// Whether a command can be sent: its frame builds for a pile number.
pub fn check(action: &str, payload: &Value) -> Result<(), String> {
    let pile = PileNo::from_digits(&"0".repeat(14))?;
    let tariff = (action == TARIFF_SET).then(|| {
        let model = msg::TariffModel {
            sharp: zero_rate(),
            peak: zero_rate(),
            flat: zero_rate(),
            valley: zero_rate(),
            loss_ratio: 0,
            slots: msg::HalfHourSlots([msg::RateIndex::Flat; 48]),
        };
        (msg::TariffModelId::from_bytes([0, 1]), model)
    });
    message(&pile, action, payload, tariff).map(|_| ())
}

fn zero_rate() -> msg::Rate {
    msg::Rate { electricity: ykc::units::PriceE5(0), service: ykc::units::PriceE5(0) }
}

/// The frame type that answers a command's frame: the one below it, but
/// for the parking lock's, whose answer (0x63) follows its command (0x62),
/// and the request for real-time data, answered by the data (0x13).
pub fn answer_type(call: u8) -> u8 {
    match call {
        0x62 => 0x63,
        0x12 => 0x13,
        call => call.wrapping_sub(1),
    }
}

fn status(outcome: Outcome) -> &'static str {
    if outcome == Outcome::Succeeded { "Accepted" } else { "Rejected" }
}

/// A pile's answer to a command as the command's answer: `status` and the
/// answer's own fields. None for a frame that answers no command.
pub fn answer(message: &Message) -> Option<Value> {
    let (outcome, why) = match message {
        Message::RemoteStartAnswer(a) => (a.result, Some(json!(a.failure))),
        Message::RemoteStopAnswer(a) => (a.result, Some(json!(a.failure))),
        Message::RebootAnswer(a) => (a.result, None),
        Message::TariffSetAnswer(a) => (a.result, None),
        Message::WorkParamsAnswer(a) => (a.result, None),
        Message::OfflineCardSyncAnswer(a) => (a.saved, Some(json!(a.failure))),
        Message::OfflineCardClearAnswer(a) => {
            let all = a.entries.iter().all(|e| e.cleared == Outcome::Succeeded);
            let mut v = json!({ "status": if all { "Accepted" } else { "Rejected" } });
            v["cards"] = a.entries.iter().map(|e| json!({ "idTag": id_tag(&e.physical_card), "cleared": e.cleared == Outcome::Succeeded })).collect();
            return Some(v);
        }
        Message::BalanceUpdateAnswer(a) => (if a.result == msg::BalanceUpdateResult::Updated { Outcome::Succeeded } else { Outcome::Failed }, Some(json!(a.result))),
        Message::ParkingLockAnswer(a) => (if a.result == msg::LockResult::Done { Outcome::Succeeded } else { Outcome::Failed }, None),
        Message::OfflineCardQueryAnswer(a) => {
            // Answered: the pile said which cards it holds, whatever they are.
            let mut v = json!({ "status": "Accepted" });
            v["cards"] = a.entries.iter().map(|e| json!({ "idTag": id_tag(&e.physical_card), "held": e.present == msg::YesNoByte::Yes })).collect();
            return Some(v);
        }
        Message::Realtime(rt) => return Some(realtime_answer(rt)),
        Message::UpdateAnswer(a) => (if a.status == msg::UpdateStatus::Updated { Outcome::Succeeded } else { Outcome::Failed }, Some(json!(a.status))),
        _ => return None,
    };
    let mut v = json!({ "status": status(outcome) });
    if let (Some(why), Outcome::Failed) = (why, outcome) {
        v["reason"] = why;
    }
    Some(v)
}

/// The real-time data a pile sent on request, in the product's units.
fn realtime_answer(rt: &msg::Realtime) -> Value {
    json!({
        "status": "Accepted",
        "gun": rt.gun.value().unwrap_or(0),
        "state": rt.state,
        "plugged": rt.plugged == msg::YesNo::Yes,
        "voltageV": f64::from(rt.voltage_dv) / 10.0,
        "currentA": f64::from(rt.current_da) / 10.0,
        "soc": rt.soc,
        "chargedMinutes": rt.charged_minutes,
        "remainingMinutes": rt.remaining_minutes,
        // 0.0001 kWh is 0.1 Wh; 0.0001 yuan rounds to the fen.
        "energyWh": rt.energy.0 / 10,
        "amountFen": rt.amount.to_fen().0,
        "faults": rt.faults,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_number_goes_as_eight_bytes_and_comes_back_as_registered() {
        let card = physical_card("D14B0A54").unwrap();
        assert_eq!(card.hex(), "00000000D14B0A54");
        assert_eq!(id_tag(&card), "D14B0A54");
        assert!(physical_card("not-a-card").is_err());
        assert_eq!(logical_card("12345"), "0000000000012345");
        assert_eq!(logical_card("D14B0A54"), "0000000000000000");
    }

    #[test]
    fn each_command_builds_its_frame_and_a_bad_payload_is_refused() {
        let start = json!({"gun": 1, "orderNo": "3".repeat(32), "idTag": "D14B0A54", "logicalCard": "0".repeat(16), "balanceFen": 10_000});
        assert!(check(REMOTE_START, &start).is_ok());
        assert!(check(REMOTE_STOP, &json!({"gun": 2})).is_ok());
        assert!(check(REBOOT, &json!({"now": true})).is_ok());
        assert!(check(TARIFF_SET, &json!({"tariffId": "t", "tariffVersion": 3, "modelId": "1203"})).is_ok());
        assert!(check(WORK_PARAMS, &json!({"allowed": false, "maxPowerPercent": 100})).is_ok());
        assert!(check(WORK_PARAMS, &json!({"allowed": true, "maxPowerPercent": 20})).is_err());
        let update = update_call("ftp://fw:secret@10.0.0.5:2121/pile/v2.bin", true, 120).unwrap();
        assert_eq!((update.server.as_str(), update.port, update.user.as_str(), update.path.as_str()), ("10.0.0.5", 2121, "fw", "/pile/v2.bin"));
        assert!(check(UPDATE, &serde_json::to_value(update).unwrap()).is_ok());
        assert!(update_call("https://example.com/fw.bin", true, 120).is_err());
        assert!(update_call(&format!("ftp://host/{}", "p".repeat(40)), true, 120).is_err());
        assert!(check(OFFLINE_CARD_SYNC, &json!({"idTags": ["D14B0A54", "12345"]})).is_ok());
        assert!(check(OFFLINE_CARD_SYNC, &json!({"idTags": vec!["AB"; 16]})).is_err());
        assert!(check(OFFLINE_CARD_CLEAR, &json!({"idTags": ["D14B0A54"]})).is_ok());
        assert!(check(REMOTE_START, &json!({"gun": 1})).is_err());
        assert!(check(REMOTE_STOP, &json!({"gun": 100})).is_err());
        assert!(check("Reset", &json!({})).is_err());
        assert!(check(BALANCE_UPDATE, &json!({"gun": 1, "idTag": "D14B0A54", "balanceFen": 5_000})).is_ok());
        assert!(check(BALANCE_UPDATE, &json!({"gun": 1, "idTag": "not a card", "balanceFen": 5_000})).is_err());
        assert!(check(PARKING_LOCK, &json!({"gun": 2, "raise": true})).is_ok());
        assert!(check(PARKING_LOCK, &json!({"gun": 0, "raise": false})).is_err());
        assert_eq!(answer_type(0x34), 0x33);
        assert_eq!(answer_type(0x42), 0x41);
        assert_eq!(answer_type(0x62), 0x63);
        assert_eq!(answer_type(0x12), 0x13);
        assert!(check(READ_REALTIME, &json!({"gun": 1})).is_ok());
        assert!(check(READ_REALTIME, &json!({"gun": 100})).is_err());
        assert!(check(OFFLINE_CARD_QUERY, &json!({"idTags": ["D14B0A54"]})).is_ok());
        assert!(check(OFFLINE_CARD_QUERY, &json!({"idTags": []})).is_err());
        assert!(check(OFFLINE_CARD_QUERY, &json!({"idTags": vec!["AB"; 27]})).is_err());
    }
}
