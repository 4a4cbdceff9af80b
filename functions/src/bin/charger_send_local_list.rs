//! POST /partnerapi/charger/sendLocalList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_send_local_list").await
}
