//! POST /partnerapi/departmentManagement/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("department_management_delete").await
}
