//! POST /partnerapi/menuManagement/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("menu_management_delete").await
}
