//! GET /partnerapi/card/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("card_list").await
}
