//! POST /partnerapi/tariff/doAdd
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("tariff_add").await
}
