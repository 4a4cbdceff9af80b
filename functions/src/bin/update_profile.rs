//! POST /partnerapi/user/updateProfile
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("update_profile").await
}
