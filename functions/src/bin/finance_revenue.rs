//! GET /partnerapi/money/revenue
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("finance_revenue").await
}
