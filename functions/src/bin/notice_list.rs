//! GET /partnerapi/notice/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("notice_list").await
}
