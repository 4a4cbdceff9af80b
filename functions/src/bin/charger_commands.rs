//! GET /partnerapi/charger/commands
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_commands").await
}
