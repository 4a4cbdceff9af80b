//! GET /partnerapi/order/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("order_list").await
}
