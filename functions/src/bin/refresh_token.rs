//! GET /partnerapi/refreshToken
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("refresh_token").await
}
