//! POST /partnerapi/charger/dataTransfer
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_data_transfer").await
}
