//! POST /partnerapi/charger/unlock
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_unlock").await
}
