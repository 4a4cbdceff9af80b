//! POST /partnerapi/charger/getDiagnostics
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_get_diagnostics").await
}
