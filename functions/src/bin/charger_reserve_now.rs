//! POST /partnerapi/charger/reserveNow
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_reserve_now").await
}
