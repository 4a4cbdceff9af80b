//! POST /partnerapi/pile/setPassword
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("pile_set_password").await
}
