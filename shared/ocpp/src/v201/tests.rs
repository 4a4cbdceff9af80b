//! The 2.0.1 readers: meter values with their defaults and multipliers,
//! and the CALLERROR a broken TransactionEvent earns.

use serde_json::json;

use super::*;
use crate::frame::ErrorCode;
use crate::read;
use crate::schema::Mode;

#[test]
fn sampled_values_take_the_specified_defaults_and_multipliers() {
    let req: MeterValuesRequest = read(&json!({"evseId": 1, "meterValue": [{"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [
        {"value": 1200},
        {"value": 1.5, "measurand": "Energy.Active.Import.Register", "unitOfMeasure": {"unit": "Wh", "multiplier": 3}, "context": "Transaction.Begin"},
        {"value": 7.2, "measurand": "Power.Active.Import", "unitOfMeasure": {"unit": "kW"}, "phase": "L1"}
    ]}]}))
    .expect("a MeterValues");
    let samples = meter_samples(&req.meter_value);
    let s = &samples[0].values;
    assert_eq!((s[0].value, s[0].measurand, s[0].unit, s[0].context), (1200.0, "Energy.Active.Import.Register", "Wh", "Sample.Periodic"));
    assert_eq!((s[1].value, s[1].context), (1500.0, "Transaction.Begin"));
    assert_eq!((s[2].measurand, s[2].unit, s[2].phase), ("Power.Active.Import", "kW", Some("L1")));
    assert_eq!(samples[0].timestamp.unix(), 1_741_593_600);
}

#[test]
fn a_transaction_event_that_breaks_its_schema_names_the_field() {
    let e = read::<TransactionEventRequest>(&json!({"eventType": "Started", "timestamp": "2025-03-10T08:00:00Z", "triggerReason": "Authorized", "seqNo": 0})).unwrap_err();
    assert_eq!(e.code, ErrorCode::OccurenceConstraintViolation);
    assert!(e.description.contains("transactionInfo"), "{}", e.description);
    // A value the schema does not list is kept for the application to judge
    // (the documented coercion), and refused where we are strict.
    let begun = json!({"eventType": "Begun", "timestamp": "2025-03-10T08:00:00Z", "triggerReason": "Authorized", "seqNo": 0, "transactionInfo": {"transactionId": "t1"}});
    assert_eq!(read::<TransactionEventRequest>(&begun).expect("kept").event_type, TransactionEventEnum::Unlisted("Begun".into()));
    let strict = crate::schema::parse::<TransactionEventRequest>(&begun, Mode::Strict).unwrap_err();
    assert_eq!(strict.field(), "eventType");
    assert_eq!(ErrorCode::OccurenceConstraintViolation.spelled(crate::Version::V201), "OccurrenceConstraintViolation");
}
