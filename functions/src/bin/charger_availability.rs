//! POST /partnerapi/charger/availability
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_availability").await
}
