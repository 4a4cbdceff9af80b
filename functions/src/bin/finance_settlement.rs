//! GET /partnerapi/money/settlement
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("finance_settlement").await
}
