//! GET /partnerapi/area/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("area_list").await
}
