//! POST /partnerapi/connector/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("connector_edit").await
}
