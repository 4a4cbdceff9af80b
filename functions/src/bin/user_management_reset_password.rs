//! POST /partnerapi/userManagement/resetPassword
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("user_management_reset_password").await
}
