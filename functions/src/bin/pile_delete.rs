//! POST /partnerapi/pile/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("pile_delete").await
}
