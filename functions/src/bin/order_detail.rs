//! GET /partnerapi/order/detail
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("order_detail").await
}
