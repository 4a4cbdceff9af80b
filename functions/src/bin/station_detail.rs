//! GET /partnerapi/station/getDetail
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("station_detail").await
}
