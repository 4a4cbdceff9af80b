//! POST /partnerapi/charger/trigger
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_trigger").await
}
