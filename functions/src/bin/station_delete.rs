//! POST /partnerapi/station/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("station_delete").await
}
