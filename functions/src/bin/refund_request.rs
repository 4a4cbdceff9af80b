//! POST /partnerapi/order/refund/request
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("refund_request").await
}
