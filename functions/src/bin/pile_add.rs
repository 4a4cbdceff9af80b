//! POST /partnerapi/pile/doAdd
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("pile_add").await
}
