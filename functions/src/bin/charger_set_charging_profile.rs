//! POST /partnerapi/charger/setChargingProfile
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_set_charging_profile").await
}
