//! POST /partnerapi/card/doAdd
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("card_add").await
}
