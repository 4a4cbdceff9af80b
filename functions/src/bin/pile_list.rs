//! GET /partnerapi/pile/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("pile_list").await
}
