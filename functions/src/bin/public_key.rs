//! GET /partnerapi/publicKey
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("public_key").await
}
