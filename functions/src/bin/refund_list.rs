//! GET /partnerapi/order/refund/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("refund_list").await
}
