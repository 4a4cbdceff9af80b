//! POST /partnerapi/connector/doAction
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("connector_action").await
}
