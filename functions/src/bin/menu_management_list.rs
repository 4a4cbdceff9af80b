//! GET /partnerapi/menuManagement/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("menu_management_list").await
}
