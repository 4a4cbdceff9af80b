//! POST /partnerapi/menuManagement/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("menu_management_edit").await
}
