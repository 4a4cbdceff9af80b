//! POST /partnerapi/userManagement/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("user_management_delete").await
}
