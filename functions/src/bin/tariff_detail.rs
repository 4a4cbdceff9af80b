//! GET /partnerapi/tariff/getDetail
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("tariff_detail").await
}
