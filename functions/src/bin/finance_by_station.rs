//! GET /partnerapi/money/byStation
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("finance_by_station").await
}
