//! POST /partnerapi/order/refund/approval/reject
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("refund_reject").await
}
