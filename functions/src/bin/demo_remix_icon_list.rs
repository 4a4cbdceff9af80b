//! GET /partnerapi/remixIcon/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("demo_remix_icon_list").await
}
