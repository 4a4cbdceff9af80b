//! GET /partnerapi/index/dashboard
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("dashboard").await
}
