//! POST /partnerapi/charger/getCompositeSchedule
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_get_composite_schedule").await
}
