//! The charger link's throttles and reserved concurrency, sized from the
//! cost model's charger day (`bench/src/ocpp_cost.rs`, `DAY`) at the fleet
//! the deployment is built for. The deploy README writes the same
//! arithmetic out; the stack takes the results as parameter defaults.

/// The fleet the defaults are sized for.
pub const FLEET: f64 = 100_000.0;

/// One charger's OCPP messages a day in the cost model: a heartbeat every
/// 300 s (288), two connectors each charging a quarter of the time in
/// one-hour sessions (12 sessions: Authorize, Start and Stop each, four
/// StatusNotifications each), MeterValues every 60 s while charging (720)
/// and one BootNotification.
pub const MESSAGES_PER_CHARGER_DAY: f64 = 288.0 + 720.0 + 3.0 * 12.0 + 4.0 * 12.0 + 1.0;

/// API Gateway's default quota of new WebSocket connections per second
/// (per account and region).
pub const NEW_CONNECTIONS_PER_SECOND: f64 = 500.0;

/// Messages a reconnecting charger sends right away: BootNotification and
/// a StatusNotification for the charger and each of its two connectors.
pub const MESSAGES_PER_RECONNECT: f64 = 4.0;

/// The account's API Gateway burst (token bucket) in a region, shared by
/// every API: a stage's burst cannot usefully be larger.
pub const ACCOUNT_BURST: u32 = 5_000;

/// Time a `$default` invocation is taken to last: the cost model's 3 ms of
/// compute plus 7 ms per DynamoDB call, with about five calls a frame
/// (the connection and the charger read, the work, the log), rounded up.
pub const MESSAGE_SECONDS: f64 = 0.050;

/// A handshake's time: the charger password's hash is checked (argon2, the
/// one costly step) on a 256 MB function's share of a CPU.
pub const CONNECT_SECONDS: f64 = 0.200;

/// `$disconnect`: a read and a conditional write, and a queued call sent
/// to the charger's newer connection.
pub const DISCONNECT_SECONDS: f64 = 0.040;

/// Average messages per second of the fleet.
pub fn average_rate() -> f64 {
    FLEET * MESSAGES_PER_CHARGER_DAY / 86_400.0
}

/// The stage's steady rate: the average plus a whole fleet reconnecting
/// at the new-connection quota after an outage (each reconnect sends its
/// boot and statuses), with half again on top for uneven minutes,
/// rounded up to the next thousand.
pub fn rate_limit() -> u32 {
    let peak = (average_rate() + NEW_CONNECTIONS_PER_SECOND * MESSAGES_PER_RECONNECT) * 1.5;
    ((peak / 1000.0).ceil() * 1000.0) as u32
}

/// The stage's burst: the account's.
pub fn burst_limit() -> u32 {
    ACCOUNT_BURST
}

/// Reserved concurrency = arrivals per second x seconds per invocation
/// (Little's law), rounded up to the next ten.
fn concurrency(per_second: f64, seconds: f64) -> u32 {
    ((per_second * seconds / 10.0).ceil() * 10.0) as u32
}

/// `$default` at the stage's full rate.
pub fn message_concurrency() -> u32 {
    concurrency(rate_limit() as f64, MESSAGE_SECONDS)
}

/// `$connect` at the new-connection quota.
pub fn connect_concurrency() -> u32 {
    concurrency(NEW_CONNECTIONS_PER_SECOND, CONNECT_SECONDS)
}

/// `$disconnect` at the new-connection quota (every reconnect ends an old
/// connection).
pub fn disconnect_concurrency() -> u32 {
    concurrency(NEW_CONNECTIONS_PER_SECOND, DISCONNECT_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fleet_day_gives_the_issues_rate() {
        assert_eq!(MESSAGES_PER_CHARGER_DAY, 1093.0);
        assert_eq!(average_rate().round(), 1265.0);
    }

    #[test]
    fn defaults_cover_the_fleet_with_headroom_inside_the_account_quotas() {
        // (1,265 + 500 x 4) x 1.5 = 4,898 -> 5,000 a second.
        assert_eq!(rate_limit(), 5_000);
        assert!(rate_limit() as f64 >= 3.0 * average_rate(), "at least three times the average");
        assert!(rate_limit() <= 10_000, "within the account's 10,000 requests a second");
        assert_eq!(burst_limit(), 5_000);
        // 5,000 x 0.05 = 250; 500 x 0.2 = 100; 500 x 0.04 = 20.
        assert_eq!((message_concurrency(), connect_concurrency(), disconnect_concurrency()), (250, 100, 20));
        // With the sweeper's 1, the link reserves 371 of the default 1,000:
        // the rest (at least the 100 Lambda keeps unreserved) serves the API.
        let reserved = message_concurrency() + connect_concurrency() + disconnect_concurrency() + 1;
        assert!(reserved <= 1000 - 100 - 500, "{reserved}");
    }
}
