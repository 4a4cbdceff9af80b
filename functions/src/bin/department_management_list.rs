//! GET /partnerapi/departmentManagement/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("department_management_list").await
}
