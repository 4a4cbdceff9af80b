//! POST /partnerapi/charger/remoteStop
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_remote_stop").await
}
