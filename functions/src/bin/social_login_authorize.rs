//! GET /partnerapi/socialLogin/authorize
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("social_login_authorize").await
}
