//! GET /partnerapi/roleManagement/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("role_management_list").await
}
