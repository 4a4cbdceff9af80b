//! The 1.6 dispatch over a stand-in application: each CALLERROR a broken
//! payload earns, each coercion, the StopTransaction that is always
//! confirmed, and the typed answers' JSON.

use std::future::Future;
use std::sync::Mutex;

use async_trait::async_trait;
use serde_json::{json, Value};

use super::*;
use crate::frame::ErrorCode;
use crate::link::{Answer, Connection, Exchange, Known, LinkError, Refusal, TakeOver};
use crate::schema::{parse, Keyword};

/// Records what reached it; answers what a central system would.
#[derive(Default)]
struct Stand {
    got: Mutex<Vec<String>>,
}

impl Stand {
    fn saw(&self, what: String) {
        self.got.lock().unwrap().push(what);
    }
    fn seen(&self) -> Vec<String> {
        self.got.lock().unwrap().clone()
    }
}

#[async_trait]
impl Link for Stand {
    type Charger = ();
    fn now(&self) -> i64 {
        1_800_000_000
    }
    fn identity<'c>(&self, _: &'c ()) -> &'c str {
        "CP1"
    }
    async fn find_charger(&self, _: &str, _: &str) -> Result<(), Refusal> {
        Ok(())
    }
    fn security_profile(&self, _: &()) -> u8 {
        0
    }
    async fn check_password(&self, _: &(), _: Option<&str>, _: &str) -> Result<(), Refusal> {
        Ok(())
    }
    async fn connection_opened(&self, _: &(), _: &Connection) -> Result<(), LinkError> {
        Ok(())
    }
    async fn connection_claimed(&self, _: &(), _: &Connection) -> Result<(), LinkError> {
        Ok(())
    }
    async fn take_over(&self, _: &(), _: &str) -> Result<TakeOver, LinkError> {
        Ok(TakeOver::Unknown)
    }
    async fn close_connection(&self, _: &(), _: &str) {}
    async fn known_connection(&self, _: &str) -> Result<Option<Known<()>>, LinkError> {
        Ok(None)
    }
    async fn seen(&self, _: &(), _: i64) {}
    async fn log(&self, _: &(), _: Exchange) {}
    async fn answered(&self, _: &(), _: &str, _: &str, _: Answer) {}
    async fn after_reply(&self, _: &(), _: &str, _: bool, _: bool) {}
    async fn connection_closed(&self, _: &(), _: &str, _: bool) {}
}

fn accepted() -> IdTagInfo {
    IdTagInfo { status: AuthorizationStatus::Accepted, expiry_date: None, parent_id_tag: None }
}

#[async_trait]
impl CentralSystem for Stand {
    const ANSWERED: &'static [Action] = &[
        Action::Authorize,
        Action::BootNotification,
        Action::DataTransfer,
        Action::DiagnosticsStatusNotification,
        Action::FirmwareStatusNotification,
        Action::Heartbeat,
        Action::MeterValues,
        Action::StartTransaction,
        Action::StatusNotification,
        Action::StopTransaction,
    ];
    async fn authorize(&self, _: &(), req: AuthorizeRequest) -> Result<AuthorizeResponse, CallError> {
        self.saw(format!("authorize {}", req.id_tag));
        Ok(AuthorizeResponse { id_tag_info: accepted() })
    }
    async fn boot_notification(&self, _: &(), req: BootNotificationRequest) -> Result<BootNotificationResponse, CallError> {
        self.saw(format!("boot {}", req.charge_point_vendor));
        Ok(BootNotificationResponse { status: RegistrationStatus::Accepted, current_time: DateTime::from_unix(self.now()), interval: 300 })
    }
    async fn data_transfer(&self, _: &(), _: DataTransferRequest) -> Result<DataTransferResponse, CallError> {
        Ok(DataTransferResponse { status: DataTransferStatus::UnknownVendorId, data: None })
    }
    async fn diagnostics_status_notification(&self, _: &(), _: DiagnosticsStatusNotificationRequest) -> Result<DiagnosticsStatusNotificationResponse, CallError> {
        Ok(DiagnosticsStatusNotificationResponse {})
    }
    async fn firmware_status_notification(&self, _: &(), _: FirmwareStatusNotificationRequest) -> Result<FirmwareStatusNotificationResponse, CallError> {
        Ok(FirmwareStatusNotificationResponse {})
    }
    async fn heartbeat(&self, _: &(), _: HeartbeatRequest) -> Result<HeartbeatResponse, CallError> {
        Ok(HeartbeatResponse { current_time: DateTime::from_unix(self.now()) })
    }
    async fn meter_values(&self, _: &(), req: MeterValuesRequest) -> Result<MeterValuesResponse, CallError> {
        let units: Vec<String> = meter_samples(&req.meter_value).iter().flat_map(|s| s.values.iter().map(|v| format!("{}{}", v.value, v.unit))).collect();
        self.saw(format!("meter {}", units.join(",")));
        Ok(MeterValuesResponse {})
    }
    async fn start_transaction(&self, _: &(), req: StartTransactionRequest) -> Result<StartTransactionResponse, CallError> {
        self.saw(format!("start {} {} {} {}", req.connector_id, req.id_tag, req.timestamp.as_str(), req.timestamp.unix()));
        Ok(StartTransactionResponse { id_tag_info: accepted(), transaction_id: 7 })
    }
    async fn status_notification(&self, _: &(), req: StatusNotificationRequest) -> Result<StatusNotificationResponse, CallError> {
        self.saw(format!("status {} {:?} {}", req.connector_id, req.status, req.error_code));
        Ok(StatusNotificationResponse {})
    }
    async fn stop_transaction(&self, _: &(), req: StopTransactionRequest, replaced: &[Violation]) -> Result<StopTransactionResponse, CallError> {
        let fields: Vec<String> = replaced.iter().map(|v| v.field()).collect();
        let samples = req.transaction_data.as_deref().map(|d| d.len()).unwrap_or(0);
        self.saw(format!("stop {} {} {} {:?} samples {samples} replaced [{}]", req.transaction_id, req.meter_stop, req.timestamp.unix(), req.reason.map(|r| r.to_string()), fields.join(", ")));
        Ok(StopTransactionResponse { id_tag_info: None })
    }
}

fn run<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().build().expect("a runtime").block_on(f)
}

fn call(app: &Stand, action: &str, payload: Value) -> Result<Value, CallError> {
    run(handle(app, &(), action, &payload)).result
}

/// The code and description of a refused CALL.
fn refused(action: &str, payload: Value) -> (ErrorCode, String) {
    let e = call(&Stand::default(), action, payload.clone()).expect_err(&format!("{action} {payload} is refused"));
    (e.code, e.description)
}

#[test]
fn each_keyword_of_the_schema_earns_its_callerror_naming_the_field() {
    let start = json!({"connectorId": 1, "idTag": "CARD1", "meterStart": 0, "timestamp": "2025-03-10T08:00:00Z"});
    let with = |k: &str, v: Value| {
        let mut p = start.clone();
        p[k] = v;
        p
    };
    let without = |k: &str| {
        let mut p = start.clone();
        p.as_object_mut().unwrap().remove(k);
        p
    };
    for (action, payload, code, words) in [
        ("Heartbeat", json!({"extra": 1}), ErrorCode::FormationViolation, "extra is not a field of this message"),
        ("StartTransaction", with("vendorField", json!("x")), ErrorCode::FormationViolation, "vendorField is not a field"),
        ("StartTransaction", without("idTag"), ErrorCode::OccurenceConstraintViolation, "idTag is required"),
        ("StartTransaction", with("idTag", json!("T".repeat(21))), ErrorCode::TypeConstraintViolation, "idTag is at most 20 characters (CiString20Type); got 21"),
        ("StartTransaction", with("idTag", json!(["x"])), ErrorCode::TypeConstraintViolation, "idTag must be a string (got an array)"),
        ("StartTransaction", with("connectorId", json!("one")), ErrorCode::TypeConstraintViolation, "connectorId must be an integer (got a string)"),
        ("StartTransaction", with("meterStart", json!(1.5)), ErrorCode::TypeConstraintViolation, "meterStart must be an integer"),
        ("StartTransaction", with("timestamp", json!("yesterday")), ErrorCode::TypeConstraintViolation, "timestamp must be a dateTime"),
        ("StatusNotification", json!({"connectorId": 1, "errorCode": "NoError", "status": "S".repeat(51)}), ErrorCode::PropertyConstraintViolation, "status is not a value of its enumeration"),
        ("StatusNotification", json!({"connectorId": 1, "errorCode": "NoError"}), ErrorCode::OccurenceConstraintViolation, "status is required"),
        (
            "MeterValues",
            json!({"connectorId": 1, "meterValue": [{"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": "1"}, {"unit": "Wh"}]}]}),
            ErrorCode::OccurenceConstraintViolation,
            "meterValue[0].sampledValue[1].value is required",
        ),
        (
            "MeterValues",
            json!({"connectorId": 1, "meterValue": [{"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": "1", "unit": "W".repeat(60)}]}]}),
            ErrorCode::PropertyConstraintViolation,
            "meterValue[0].sampledValue[0].unit is not a value",
        ),
        ("BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "M".repeat(21)}), ErrorCode::TypeConstraintViolation, "chargePointModel is at most 20 characters"),
        ("DataTransfer", json!({"vendorId": "v", "data": {"any": "object"}}), ErrorCode::TypeConstraintViolation, "data must be a string (got an object)"),
        ("Authorize", json!([]), ErrorCode::TypeConstraintViolation, "the payload must be an object"),
        ("NoSuchAction", json!({}), ErrorCode::NotImplemented, "unknown action NoSuchAction"),
        ("Reset", json!({"type": "Hard"}), ErrorCode::NotSupported, "Reset is sent by the central system"),
        ("SecurityEventNotification", json!({"type": "x", "timestamp": "2025-03-10T08:00:00Z"}), ErrorCode::NotSupported, "SecurityEventNotification is not supported"),
    ] {
        let (got, description) = refused(action, payload.clone());
        assert_eq!(got, code, "{action} {payload}: {description}");
        assert!(description.starts_with(words), "{action} {payload}: {description:?} does not start with {words:?}");
    }
}

#[test]
fn what_real_chargers_get_wrong_is_read_as_meant() {
    let app = Stand::default();
    assert!(call(&app, "Authorize", json!({"idTag": 12345})).is_ok(), "an idTag sent as a number");
    assert!(call(&app, "StatusNotification", json!({"connectorId": "1", "status": "Available", "errorCode": "NoError", "timestamp": "2026-11-24T10:00:00.123456Z"})).is_ok(), "connectorId as a string, fractions of a second");
    assert!(call(&app, "StatusNotification", json!({"connectorId": 2.0, "status": "SomethingNew", "errorCode": "noerror", "info": null})).is_ok(), "an unlisted value, another letter case, a whole float, a null");
    assert!(call(&app, "StartTransaction", json!({"connectorId": 1, "idTag": "C", "meterStart": "100", "timestamp": "2025-03-10T08:00:00"})).is_ok(), "a number as a string, a time without an offset");
    assert!(call(&app, "MeterValues", json!({"connectorId": 1, "meterValue": [{"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": "1.5", "unit": "kwh"}, {"value": 7}]}]})).is_ok());
    assert_eq!(
        app.seen(),
        vec![
            "authorize 12345",
            "status 1 Available NoError",
            "status 2 Unlisted(\"SomethingNew\") NoError",
            "start 1 C 2025-03-10T08:00:00 1741593600",
            "meter 1.5kWh,7Wh",
        ],
        "the handler gets the values as meant, the timestamp's text as sent"
    );
}

#[test]
fn a_stop_transaction_is_always_confirmed_and_says_what_was_replaced() {
    let app = Stand::default();
    let sample = |v: Value| json!({"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": v}]});
    for payload in [
        json!({"transactionId": 5, "meterStop": 10, "timestamp": "2025-03-10T09:00:00Z", "reason": "Local"}),
        json!({"transactionId": 5, "meterStop": 10, "timestamp": "yesterday", "idTag": "T".repeat(21), "reason": "R".repeat(5000)}),
        json!({"transactionId": "x", "meterStop": [1], "extra": true}),
        json!({"transactionId": 5, "meterStop": 10, "timestamp": "2025-03-10T09:00:00Z", "transactionData": [sample(json!("1")), sample(json!(["bad"])), sample(json!("3"))]}),
        json!({"transactionId": 5, "meterStop": 10, "timestamp": "2025-03-10T09:00:00Z", "transactionData": (0..20).map(|_| sample(json!(null))).collect::<Vec<_>>()}),
        json!({"transactionId": 5, "meterStop": 10, "timestamp": "2025-03-10T09:00:00Z", "transactionData": "not a list"}),
    ] {
        assert!(call(&app, "StopTransaction", payload.clone()).is_ok(), "{payload}");
    }
    assert_eq!(
        app.seen(),
        vec![
            "stop 5 10 1741597200 Some(\"Local\") samples 0 replaced []",
            "stop 5 10 0 Some(\"Other\") samples 0 replaced [idTag, timestamp, reason]",
            "stop 0 0 0 None samples 0 replaced [extra, meterStop, timestamp, transactionId]",
            "stop 5 10 1741597200 None samples 2 replaced [transactionData[1].sampledValue[0].value]",
            &format!("stop 5 10 1741597200 None samples 0 replaced [{}]", vec!["transactionData[0].sampledValue[0].value"; 9].join(", ")),
            "stop 5 10 1741597200 None samples 0 replaced [transactionData]",
        ]
    );
}

#[test]
fn typed_answers_have_the_wire_json_of_the_specification() {
    let app = Stand::default();
    assert_eq!(call(&app, "Heartbeat", json!({})).unwrap(), json!({"currentTime": "2027-01-15T08:00:00Z"}));
    assert_eq!(call(&app, "Authorize", json!({"idTag": "A"})).unwrap(), json!({"idTagInfo": {"status": "Accepted"}}), "no nulls for what is absent");
    assert_eq!(call(&app, "StopTransaction", json!({"transactionId": 1, "meterStop": 1, "timestamp": "2025-03-10T09:00:00Z"})).unwrap(), json!({}));
    let booted = run(handle(&app, &(), "BootNotification", &json!({"chargePointVendor": "ACME", "chargePointModel": "X"})));
    assert!(booted.booted && booted.result.is_ok());
    assert!(!run(handle(&app, &(), "BootNotification", &json!({"chargePointVendor": "ACME"}))).booted, "a refused boot is no boot");
}

#[test]
fn what_the_server_sends_reads_back_strictly() {
    let profile = ChargingProfile {
        charging_profile_id: 9000,
        transaction_id: None,
        stack_level: 1,
        charging_profile_purpose: ChargingProfilePurposeType::ChargePointMaxProfile,
        charging_profile_kind: ChargingProfileKindType::Absolute,
        recurrency_kind: None,
        valid_from: None,
        valid_to: None,
        charging_schedule: ChargingSchedule {
            duration: None,
            start_schedule: Some(DateTime::from_unix(1_741_593_600)),
            charging_rate_unit: ChargingRateUnitType::W,
            charging_schedule_period: vec![ChargingSchedulePeriod { start_period: 0, limit: 11000.5, number_phases: None }],
            min_charging_rate: None,
        },
    };
    let request = SetChargingProfileRequest { connector_id: 0, cs_charging_profiles: profile };
    let wire = serde_json::to_value(&request).unwrap();
    assert_eq!(wire["csChargingProfiles"]["chargingSchedule"]["chargingSchedulePeriod"], json!([{"startPeriod": 0, "limit": 11000.5}]));
    assert_eq!(parse::<SetChargingProfileRequest>(&wire, Mode::Strict), Ok(request));
    let mut off_step = wire.clone();
    off_step["csChargingProfiles"]["chargingSchedule"]["chargingSchedulePeriod"][0]["limit"] = json!(1.25);
    let e = parse::<SetChargingProfileRequest>(&off_step, Mode::Strict).unwrap_err();
    assert_eq!((e.keyword, e.field().as_str()), (Keyword::MultipleOf, "csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit"));
    assert_eq!(e.error_code(), ErrorCode::PropertyConstraintViolation);
    let unlisted = parse::<ResetRequest>(&json!({"type": "Warm"}), Mode::Strict).unwrap_err();
    assert_eq!(unlisted.keyword, Keyword::Enum, "strict: only the listed values");
}

#[test]
fn every_action_has_a_sender_and_its_types() {
    let charger: Vec<&str> = Action::ALL.iter().filter(|a| a.sender() == Sender::Charger).map(|a| a.name()).collect();
    assert_eq!(charger.len(), 13);
    assert!(charger.contains(&"StopTransaction") && charger.contains(&"SecurityEventNotification"));
    assert_eq!(Action::DataTransfer.sender(), Sender::Either);
    assert_eq!(Action::from_name("Reset"), Some(Action::Reset));
    assert_eq!(<ResetRequest as Request>::ACTION, Action::Reset);
    for a in Action::ALL {
        assert_eq!(Action::from_name(a.name()), Some(*a));
    }
}
