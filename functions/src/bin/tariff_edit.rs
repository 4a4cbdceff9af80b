//! POST /partnerapi/tariff/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("tariff_edit").await
}
