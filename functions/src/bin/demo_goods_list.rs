//! GET /partnerapi/goods/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("demo_goods_list").await
}
