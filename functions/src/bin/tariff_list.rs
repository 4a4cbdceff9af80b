//! GET /partnerapi/tariff/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("tariff_list").await
}
