//! The charger link on AWS: ocpp_disconnect (see shared/ocpp-aws).
#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    ocpp_aws::serve("ocpp_disconnect").await
}
