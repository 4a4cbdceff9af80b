//! POST /partnerapi/charger/updateFirmware
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_update_firmware").await
}
