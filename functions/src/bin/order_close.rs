//! POST /partnerapi/order/close
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("order_close").await
}
