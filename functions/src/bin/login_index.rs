//! POST /partnerapi/login/index
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("login_index").await
}
