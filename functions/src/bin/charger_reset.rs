//! POST /partnerapi/charger/reset
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_reset").await
}
