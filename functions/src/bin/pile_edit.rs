//! POST /partnerapi/pile/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("pile_edit").await
}
