//! POST /partnerapi/charger/cancelReservation
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    backoffice::lambda::serve("charger_cancel_reservation").await
}
