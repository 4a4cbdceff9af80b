//! The charger link on AWS: ocpp_message (see shared/ocpp-aws).
#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    ocpp_aws::serve("ocpp_message").await
}
