//! GET /partnerapi/charger/command
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_command").await
}
