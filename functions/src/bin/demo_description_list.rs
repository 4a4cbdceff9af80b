//! GET /partnerapi/description/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("demo_description_list").await
}
