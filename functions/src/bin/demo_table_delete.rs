//! POST /partnerapi/table/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("demo_table_delete").await
}
