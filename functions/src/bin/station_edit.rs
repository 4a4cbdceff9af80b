//! POST /partnerapi/station/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("station_edit").await
}
