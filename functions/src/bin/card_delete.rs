//! POST /partnerapi/card/doDelete
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("card_delete").await
}
