//! GET /partnerapi/money/ledger
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("finance_ledger").await
}
