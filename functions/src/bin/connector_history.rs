//! GET /partnerapi/connector/getHistory
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("connector_history").await
}
