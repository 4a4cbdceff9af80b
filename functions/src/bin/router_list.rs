//! GET /partnerapi/router/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("router_list").await
}
