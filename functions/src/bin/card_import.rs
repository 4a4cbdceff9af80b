//! POST /partnerapi/card/import
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("card_import").await
}
