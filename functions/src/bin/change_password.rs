//! POST /partnerapi/user/changePassword
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("change_password").await
}
