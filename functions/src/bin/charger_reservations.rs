//! GET /partnerapi/charger/reservations
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_reservations").await
}
