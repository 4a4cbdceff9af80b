//! POST /partnerapi/order/refund/approve
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("refund_approve").await
}
