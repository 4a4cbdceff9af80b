//! POST /partnerapi/charger/clearChargingProfile
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_clear_charging_profile").await
}
