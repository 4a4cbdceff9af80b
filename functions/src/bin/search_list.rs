//! GET /partnerapi/search/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("search_list").await
}
