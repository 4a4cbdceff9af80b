//! POST /partnerapi/socialLogin
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("social_login").await
}
