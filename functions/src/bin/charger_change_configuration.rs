//! POST /partnerapi/charger/changeConfiguration
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_change_configuration").await
}
