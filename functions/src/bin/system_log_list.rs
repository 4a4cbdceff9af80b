//! GET /partnerapi/systemLog/getList
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("system_log_list").await
}
