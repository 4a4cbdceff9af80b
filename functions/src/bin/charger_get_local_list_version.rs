//! POST /partnerapi/charger/getLocalListVersion
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_get_local_list_version").await
}
