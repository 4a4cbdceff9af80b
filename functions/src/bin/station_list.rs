//! GET /partnerapi/station/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("station_list").await
}
