//! GET /partnerapi/connector/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("connector_list").await
}
