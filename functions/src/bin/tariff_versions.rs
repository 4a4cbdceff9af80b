//! GET /partnerapi/tariff/getVersions
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("tariff_versions").await
}
