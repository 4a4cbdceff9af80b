//! POST /partnerapi/charger/getConfiguration
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_get_configuration").await
}
