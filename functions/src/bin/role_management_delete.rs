//! POST /partnerapi/roleManagement/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("role_management_delete").await
}
