//! POST /partnerapi/station/doAdd
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("station_add").await
}
