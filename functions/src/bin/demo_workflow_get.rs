//! GET /partnerapi/workflow/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("demo_workflow_get").await
}
