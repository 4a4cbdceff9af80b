//! POST /partnerapi/workflow/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("demo_workflow_edit").await
}
