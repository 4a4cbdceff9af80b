//! POST /partnerapi/charger/clearCache
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_clear_cache").await
}
