//! POST /partnerapi/card/doEdit
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("card_edit").await
}
