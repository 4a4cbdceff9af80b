//! POST /partnerapi/departmentManagement/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("department_management_edit").await
}
