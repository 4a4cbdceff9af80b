//! GET /partnerapi/index/userInfo
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("user_info").await
}
