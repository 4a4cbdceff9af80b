//! POST /partnerapi/notice/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("notice_edit").await
}
