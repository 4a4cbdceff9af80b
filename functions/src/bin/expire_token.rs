//! GET /partnerapi/expireToken
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("expire_token").await
}
