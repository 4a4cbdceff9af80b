//! GET /partnerapi/pile/messageLog
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("pile_message_log").await
}
