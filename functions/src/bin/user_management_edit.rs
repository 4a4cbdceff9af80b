//! POST /partnerapi/userManagement/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("user_management_edit").await
}
