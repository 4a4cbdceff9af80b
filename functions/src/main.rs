//! The one bootstrap of every Lambda function. Each function of the
//! template runs this same binary and says which endpoint it is in
//! `BACKOFFICE_FUNCTION` (its route-table function name, or one of the
//! charger link's); the template gives each function its own IAM policy.
//! One binary builds once and uploads once for all functions.

use backoffice::routes::{endpoint, Endpoint};

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    let function = std::env::var("BACKOFFICE_FUNCTION")
        .map_err(|_| "BACKOFFICE_FUNCTION is not set: the template names each function's endpoint there")?;
    match endpoint(&function)? {
        Endpoint::ChargerLink(_) => ocpp_aws::serve(&function).await,
        Endpoint::Route(_) => backoffice::lambda::serve(&function).await,
    }
}
