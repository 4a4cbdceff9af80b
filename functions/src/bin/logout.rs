//! GET /partnerapi/login/logout
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("logout").await
}
