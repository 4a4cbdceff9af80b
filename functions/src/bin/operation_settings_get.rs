//! GET /partnerapi/operationSettings/get
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("operation_settings_get").await
}
