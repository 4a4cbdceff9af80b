//! POST /partnerapi/roleManagement/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("role_management_edit").await
}
