//! Least privilege on AWS: which items of the single table each Lambda
//! function may touch, and how.
//!
//! Every route (through its handler group, see `routes.rs`) declares the
//! key families it reads and writes. A family is the partition-key values
//! of one kind of record, or of one listing of an index, written as an IAM
//! `StringLike` pattern (`USER#*`, `MENU`). [`policy`] adds what the
//! dispatch itself touches for the route (the caller's user, session, roles
//! and the operations settings when it authenticates; the system log when
//! it is audited) and turns it all into IAM statements with
//! `dynamodb:LeadingKeys` conditions, which the SAM generator
//! (`infra/template`) renders. For a query on an index, DynamoDB compares
//! `dynamodb:LeadingKeys` with the index's partition key (`GSI1PK` ...),
//! so index families get their own statement per index.
//!
//! The test commons record every item each route touches while the handler
//! tests run (`store::recording::TouchRecorder`) and fail when the route's
//! policy would refuse it on AWS.
//!
//! The charger link's functions (`ocpp_*`) declare theirs here too
//! ([`link_policy`]); its tests check them the same way.
//!
//! Password hashes have a partition of their own (`PWD#{name}`,
//! [`families::PASSWORD`]), which only sign-in, registration, the password
//! change and the staff routes that create, delete or reset accounts may
//! touch: every authenticated function reads the caller's user record and
//! sessions (`USER#{name}`), and those hold no hash (records from before
//! the move are moved at the next sign-in or by `gateway backfill`).

use store::recording::Touch;
use store::Index;

use crate::routes::{Access, Route};

/// Where a family's partition key lives: the table's `PK`, or an index's
/// partition key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Table,
    Index(Index),
}

/// The partition-key values of one kind of record, as an IAM `StringLike`
/// pattern (`*` stands for any text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    pub place: Place,
    pub pattern: &'static str,
}

impl Family {
    const fn table(pattern: &'static str) -> Family {
        Family { place: Place::Table, pattern }
    }
    const fn index(index: Index, pattern: &'static str) -> Family {
        Family { place: Place::Index(index), pattern }
    }
    /// Whether a partition-key value belongs to the family (IAM's
    /// `StringLike` with `*`; no pattern here uses `?`).
    pub fn matches(&self, pk: &str) -> bool {
        glob(self.pattern, pk)
    }
}

fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(text) = text.strip_prefix(head) else { return false };
            if rest.is_empty() {
                return true;
            }
            (0..=text.len()).filter(|i| text.is_char_boundary(*i)).any(|i| glob(rest, &text[i..]))
        }
    }
}

/// The key families, one per kind of record or listing; where each key is
/// made is named beside it (a test below checks they match).
pub mod families {
    use super::Family;
    use store::Index::{Gsi1, Gsi2, Gsi3};

    // Shell records (domain::keys, audit, operations, departments, workflow).
    /// Users and their sessions (`keys::user`, `keys::session`).
    pub const USER: Family = Family::table("USER#*");
    /// Password hashes (`keys::password`).
    pub const PASSWORD: Family = Family::table("PWD#*");
    pub const ROLE: Family = Family::table("ROLE#*");
    pub const MENU: Family = Family::table("MENU");
    pub const NOTICE: Family = Family::table("NOTICE");
    pub const THROTTLE: Family = Family::table("THROTTLE#*");
    /// System log entries (`keys::log_entry`).
    pub const LOG: Family = Family::table("LOG#*");
    /// The log's totals (`audit::count_key`).
    pub const LOG_COUNT: Family = Family::table("LOGCOUNT");
    /// Hourly counters of anonymous calls refused (`audit::refused_key`).
    pub const LOG_REFUSED: Family = Family::table("LOGREFUSED#*");
    pub const SOCIAL: Family = Family::table("SOCIAL#*");
    /// Pending social-login authorizations (`keys::oauth_state`).
    pub const OAUTH_STATE: Family = Family::table("OAUTHSTATE#*");
    /// The seed marker (`keys::seed_marker`).
    pub const META: Family = Family::table("META");
    /// The operations settings (`operations::key`).
    pub const SETTINGS: Family = Family::table("SETTINGS");
    /// The workflow demo's diagram (`workflow`).
    pub const WORKFLOW: Family = Family::table("DEMO");
    pub const DEPT: Family = Family::table("DEPT#*");
    pub const USERS_BY_NAME: Family = Family::index(Gsi1, "USERS");
    pub const USERS_BY_EMAIL: Family = Family::index(Gsi2, "EMAIL#*");
    pub const ROLES_BY_NAME: Family = Family::index(Gsi1, "ROLES");
    pub const LOG_BY_TIME: Family = Family::index(Gsi1, "LOG");
    pub const LOG_BY_ACCOUNT: Family = Family::index(Gsi2, "LOG#ACCOUNT#*");
    pub const LOG_BY_TYPE: Family = Family::index(Gsi3, "LOG#TYPE#*");
    pub const DEPTS: Family = Family::index(Gsi1, "DEPTS");

    // Orders, refunds, ledger, rollups (domain::orders::keys).
    /// Orders, their details and refund requests.
    pub const ORDER: Family = Family::table("ORDER#*");
    pub const LEDGER: Family = Family::table("LEDGER#*");
    /// Order pointers by payment status, user, plate, flag.
    pub const ORDER_POINTER: Family = Family::table("OIX#*");
    /// Daily, monthly and per-station rollups.
    pub const ROLLUP: Family = Family::table("AGG#*");
    pub const ORDERS_BY_MONTH: Family = Family::index(Gsi1, "ORDM#*");
    pub const ORDERS_BY_STATION: Family = Family::index(Gsi2, "ORDS#*");
    pub const ORDERS_BY_STATUS: Family = Family::index(Gsi3, "ORDT#*");
    pub const REFUNDS_BY_STATUS: Family = Family::index(Gsi1, "RFD#*");
    pub const LEDGER_BY_TIME: Family = Family::index(Gsi1, "LEDGER");

    // Stations, piles, connectors, tariffs (domain::assets).
    pub const STATION: Family = Family::table("STATION#*");
    pub const STATION_CODE: Family = Family::table("STATIONCODE#*");
    /// Piles, their connectors, link records and charger passwords.
    pub const PILE: Family = Family::table("PILE#*");
    pub const PILE_CODE: Family = Family::table("PILECODE#*");
    pub const CONNECTOR_HISTORY: Family = Family::table("CONNHIST#*");
    /// Tariffs and their versions.
    pub const TARIFF: Family = Family::table("TARIFF#*");
    /// The connector list's facet entries and counters (`facets`, list `connector`).
    pub const CONNECTOR_LIST: Family = Family::table("LIST#connector#*");
    pub const CONNECTOR_COUNT: Family = Family::table("COUNT#connector#*");
    /// The station list's facet entries and counters (list `station`).
    pub const STATION_LIST: Family = Family::table("LIST#station#*");
    pub const STATION_COUNT: Family = Family::table("COUNT#station#*");
    pub const PILES_BY_STATION: Family = Family::index(Gsi1, "STATION#*#PILES");
    pub const TARIFFS: Family = Family::index(Gsi1, "TARIFFS");

    // Charging cards (domain::cards), facet list `card`.
    pub const CARD: Family = Family::table("CARD#*");
    pub const CARD_LIST: Family = Family::table("LIST#card#*");
    pub const CARD_COUNT: Family = Family::table("COUNT#card#*");
    /// Prepaid cards by balance (`domain/cards.rs`).
    pub const CARD_BALANCE: Family = Family::table("CARDBAL");
    /// A card's top-ups and the sessions paid from its balance.
    pub const CARD_LEDGER: Family = Family::table("CARDTX#*");

    // The charger link (domain::chargers).
    pub const RESERVATION: Family = Family::table("RES#*");
    /// The transaction and reservation id counters.
    pub const OCPP_SEQUENCE: Family = Family::table("OCPPSEQ");
    pub const COMMAND: Family = Family::table("CMD#*");
    /// A pile's in-flight command slot.
    pub const COMMAND_SLOT: Family = Family::table("OCPPSLOT#*");
    pub const OCPP_TRANSACTION: Family = Family::table("OCPPTX#*");
    pub const OCPP_OPEN: Family = Family::table("OCPPOPEN#*");
    pub const OCPP_START: Family = Family::table("OCPPSTART#*");
    pub const MESSAGE_LOG: Family = Family::table("OCPPLOG#*");
    pub const CONNECTION: Family = Family::table("OCPPCONN#*");
    /// The handshake's guessing counters (`domain::chargers::guard`).
    pub const OCPP_GUARD: Family = Family::table("OCPPGUARD#*");
    pub const RESERVATIONS_BY_PILE: Family = Family::index(Gsi1, "RESS#*");
    pub const COMMANDS_BY_PILE: Family = Family::index(Gsi1, "CMDS#*");
    pub const COMMAND_QUEUE: Family = Family::index(Gsi2, "CMDQ#*");
    /// Every queued command, for the sweeper (a pump may have missed one).
    pub const QUEUED_COMMANDS: Family = Family::index(Gsi3, "CMDQUEUED");
    pub const SLOTS_BY_DEADLINE: Family = Family::index(Gsi1, "OCPPSLOTS");
    pub const MESSAGE_LOG_BY_ACTION: Family = Family::index(Gsi1, "OCPPLOG#*");
    pub const CONNECTIONS: Family = Family::index(Gsi1, "OCPPCONNS");
    /// A station's power budget and the shares sent to its piles (`budget::pk`).
    pub const POWER_BUDGET: Family = Family::table("POWERBUDGET#*");
    /// A pile's certificates (`certificates::pk`).
    pub const CHARGER_CERTIFICATE: Family = Family::table("CHARGERCERT#*");
    /// A 2.0.1 station's device model (`device_model::pk`).
    pub const DEVICE_MODEL: Family = Family::table("DEVICEMODEL#*");
    /// Security events (`security_events`): a pile's, the fleet's, by type,
    /// a pile's by type.
    pub const SECURITY_EVENT: Family = Family::table("SECEVENT#*");
    pub const SECURITY_EVENTS: Family = Family::index(Gsi1, "SECEVENTS");
    pub const SECURITY_EVENTS_BY_TYPE: Family = Family::index(Gsi2, "SECEVENTS#TYPE#*");
    pub const SECURITY_EVENTS_BY_PILE_TYPE: Family = Family::index(Gsi3, "SECEVENT#*#TYPE#*");
}

/// What a route (or a group of routes) touches besides what the dispatch
/// does for it. Written families are read too (versions are checked,
/// conditions evaluated); only table families can be written. A group's
/// writes apply to its writing routes only (not GET, or audited): its
/// readers get read actions alone.
#[derive(Debug, Clone, Copy)]
pub struct KeyUse {
    pub reads: &'static [Family],
    pub writes: &'static [Family],
    /// The writes apply to a GET route that is not audited too (trading a
    /// refresh token rotates the session).
    pub writes_on_get: bool,
}

impl KeyUse {
    pub const NONE: KeyUse = KeyUse::new(&[], &[]);

    pub const fn new(reads: &'static [Family], writes: &'static [Family]) -> KeyUse {
        KeyUse { reads, writes, writes_on_get: false }
    }

    pub const fn writing_on_get(self) -> KeyUse {
        KeyUse { writes_on_get: true, ..self }
    }
}

/// Whether a route changes data: every write is audited, and only reads
/// use GET without an audit.
pub fn writes_data(route: &Route) -> bool {
    route.audited || !matches!(route.method.as_str(), "GET" | "HEAD")
}

pub const READ_ACTIONS: [&str; 3] = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"];
/// A transaction is authorised per item by these (there is no IAM action
/// for TransactWriteItems itself); ConditionCheckItem for its checks.
pub const WRITE_ACTIONS: [&str; 4] = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"];
/// Session upkeep on every authenticated call: the last-seen time, and
/// ending an idle session.
pub const SESSION_ACTIONS: [&str; 2] = ["dynamodb:UpdateItem", "dynamodb:DeleteItem"];

/// One Allow statement on the table or one index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub sid: String,
    pub actions: Vec<&'static str>,
    pub place: Place,
    /// The `dynamodb:LeadingKeys` patterns (ForAllValues:StringLike).
    pub leading_keys: Vec<&'static str>,
}

/// A function's table permissions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub statements: Vec<Statement>,
}

impl Policy {
    /// Whether the policy allows the access.
    pub fn allows(&self, touch: &Touch) -> bool {
        self.statements.iter().any(|s| {
            let place_ok = match s.place {
                Place::Table => touch.index.is_none(),
                Place::Index(i) => touch.index == Some(i.name()),
            };
            place_ok && s.actions.contains(&touch.action) && s.leading_keys.iter().any(|p| glob(p, &touch.pk))
        })
    }

    /// Whether any statement grants a write action.
    pub fn writes(&self) -> bool {
        self.statements.iter().any(|s| s.actions.iter().any(|a| !READ_ACTIONS.contains(a)))
    }
}

/// What the dispatch touches for an authenticated route: the caller's
/// user record and session (read together, the session's last-seen time
/// written, an idle session ended), the roles behind the permissions and
/// the operations settings (the idle timeout).
const AUTHENTICATION_READS: &[Family] = &[families::USER, families::ROLES_BY_NAME, families::SETTINGS];
/// What the dispatch writes for an audited route: the log entry, its
/// totals, and the hourly counter of anonymous calls refused.
const AUDIT_WRITES: &[Family] = &[families::LOG, families::LOG_COUNT, families::LOG_REFUSED];

fn authenticates(route: &Route) -> bool {
    route.access != Access::Public
}

fn push_unique(list: &mut Vec<&'static str>, pattern: &'static str) {
    if !list.contains(&pattern) {
        list.push(pattern);
    }
}

/// The route's table permissions: its declared families plus what the
/// dispatch touches for it.
pub fn policy(route: &Route) -> Policy {
    let may_write = writes_data(route) || route.keys.writes_on_get;
    build(route.keys, may_write, authenticates(route), route.audited, &WRITE_ACTIONS)
}

/// What each function of the charger link (`ocpp::LINK_FUNCTIONS`, the
/// WebSocket API's handlers in `shared/ocpp-aws`) touches, and the write
/// actions it uses; None for another name.
fn link_use(function: &str) -> Option<(KeyUse, &'static [&'static str])> {
    use families::*;
    Some(match function {
        // Admit (pile by code, the pile's password, the guessing counters;
        // a good handshake rehashes an old hash and remembers the address),
        // record the connection on the pile's link record, prune the log.
        "ocpp_connect" => (
            KeyUse::new(&[PILE_CODE, SETTINGS], &[PILE, CONNECTION, MESSAGE_LOG, OCPP_GUARD]),
            &["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
        ),
        // Every charger message (its connection looked up by id): boot and
        // status on the pile and its connectors (their list and history),
        // cards, sessions as orders (transactions, pointers, rollups, the
        // tariff in force), prepaid cards' wallets (a session's hold and
        // payment, the balance index, the card's ledger), the message
        // log, answers to remote operations (the command, the pile's slot
        // and queue, reservations, the system log entry); the connection's
        // first message is recorded on its record (the queue then goes to
        // it). The operations settings are read through a cache, so tests
        // see them only now and then. A boot shares the station's power
        // budget again (the station's piles and links, the shares sent).
        "ocpp_message" => (
            KeyUse::new(
                &[PILE_CODE, SETTINGS, STATION, TARIFF, COMMAND_QUEUE, PILES_BY_STATION],
                &[
                    PILE, CONNECTION, MESSAGE_LOG, CONNECTOR_LIST, CONNECTOR_COUNT, CONNECTOR_HISTORY, ORDER, ORDER_POINTER, ROLLUP, OCPP_TRANSACTION, OCPP_OPEN, OCPP_START,
                    OCPP_SEQUENCE, COMMAND, COMMAND_SLOT, RESERVATION, LOG, LOG_COUNT, CARD, CARD_BALANCE, CARD_LEDGER, POWER_BUDGET,
                    CHARGER_CERTIFICATE, SECURITY_EVENT, DEVICE_MODEL,
                ],
            ),
            &["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"],
        ),
        // End the connection if it is still the pile's current one; end the
        // call in flight on it (the command, the slot, the reservation it
        // made, the log entries) and hold or pump the queue.
        "ocpp_disconnect" => (
            KeyUse::new(&[COMMAND_QUEUE], &[PILE, CONNECTION, COMMAND, COMMAND_SLOT, RESERVATION, MESSAGE_LOG, LOG, LOG_COUNT]),
            &["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
        ),
        // Time out calls past their deadline (the command, the slot, the
        // next queued call, the log entries), pump queues a pump missed,
        // end silent connections.
        "ocpp_sweeper" => (
            KeyUse::new(
                &[SETTINGS, CONNECTIONS, SLOTS_BY_DEADLINE, COMMAND_QUEUE, QUEUED_COMMANDS],
                &[PILE, CONNECTION, COMMAND, COMMAND_SLOT, RESERVATION, MESSAGE_LOG, LOG, LOG_COUNT],
            ),
            &["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
        ),
        _ => return None,
    })
}

/// The table permissions of a charger-link function (None for a name that
/// is not one).
pub fn link_policy(function: &str) -> Option<Policy> {
    link_use(function).map(|(keys, write_actions)| build(&keys, true, false, false, write_actions))
}

/// `may_write`: whether the declared writes apply (else they are read only).
fn build(keys: &KeyUse, may_write: bool, authenticates: bool, audited: bool, write_actions: &[&'static str]) -> Policy {
    let mut reads: Vec<Family> = keys.reads.iter().chain(keys.writes).copied().collect();
    let mut writes: Vec<Family> = if may_write { keys.writes.to_vec() } else { Vec::new() };
    if authenticates {
        reads.extend(AUTHENTICATION_READS);
    }
    if audited {
        reads.extend(AUDIT_WRITES);
        writes.extend(AUDIT_WRITES);
    }
    let table = |families: &[Family]| {
        let mut out = Vec::new();
        for f in families.iter().filter(|f| f.place == Place::Table) {
            push_unique(&mut out, f.pattern);
        }
        out
    };
    let mut statements = Vec::new();
    let table_reads = table(&reads);
    if !table_reads.is_empty() {
        statements.push(Statement { sid: "ReadItems".into(), actions: READ_ACTIONS.to_vec(), place: Place::Table, leading_keys: table_reads });
    }
    let table_writes = table(&writes);
    let writes_users = table_writes.contains(&families::USER.pattern);
    if !table_writes.is_empty() {
        statements.push(Statement { sid: "WriteItems".into(), actions: write_actions.to_vec(), place: Place::Table, leading_keys: table_writes });
    }
    if authenticates && !writes_users {
        statements.push(Statement { sid: "KeepSession".into(), actions: SESSION_ACTIONS.to_vec(), place: Place::Table, leading_keys: vec![families::USER.pattern] });
    }
    for index in Index::ALL {
        let mut patterns = Vec::new();
        for f in reads.iter().filter(|f| f.place == Place::Index(index)) {
            push_unique(&mut patterns, f.pattern);
        }
        if !patterns.is_empty() {
            statements.push(Statement { sid: format!("Query{}", index.name()), actions: vec!["dynamodb:Query"], place: Place::Index(index), leading_keys: patterns });
        }
    }
    Policy { statements }
}

#[cfg(test)]
mod tests {
    use super::families::*;
    use super::*;
    use crate::domain::{keys, orders::keys as order_keys};

    #[test]
    fn glob_is_iam_string_like_with_stars() {
        assert!(glob("USER#*", "USER#admin"));
        assert!(glob("USER#*", "USER#"));
        assert!(!glob("USER#*", "USERS"));
        assert!(glob("MENU", "MENU") && !glob("MENU", "MENUS"));
        assert!(glob("STATION#*#PILES", "STATION#s1#PILES"));
        assert!(!glob("STATION#*#PILES", "STATION#s1"));
        assert!(glob("LIST#card#*", "LIST#card#active") && !glob("LIST#card#*", "LIST#connector#x"));
    }

    /// Each family matches the keys its records are made with, and no
    /// other family of the same place does (so a declaration names one
    /// kind of record, not a neighbour's by accident).
    #[test]
    fn families_match_the_keys_they_name() {
        use crate::domain::assets::{piles, stations, tariffs};
        let cases: Vec<(Family, String)> = vec![
            (USER, keys::user("Admin").pk),
            (USER, keys::session("admin", "s1").pk),
            (PASSWORD, keys::password("Admin").pk),
            (ROLE, keys::role("Admin").pk),
            (MENU, keys::menu_tree().pk),
            (NOTICE, keys::NOTICE_PK.into()),
            (THROTTLE, keys::throttle("ip", "127.0.0.1").pk),
            (LOG, keys::log_entry("x").pk),
            (SOCIAL, keys::social_link("gh", "1").pk),
            (USER, keys::user_social("admin", "gh").pk),
            (OAUTH_STATE, keys::oauth_state("ab12").pk),
            (META, keys::seed_marker().pk),
            (USERS_BY_NAME, keys::USERS_INDEX_PK.into()),
            (USERS_BY_EMAIL, keys::user_email_index_pk("a@b.c")),
            (ROLES_BY_NAME, keys::ROLES_INDEX_PK.into()),
            (LOG_BY_TIME, keys::LOG_INDEX_PK.into()),
            (LOG_BY_ACCOUNT, keys::log_account_index_pk("admin")),
            (LOG_BY_TYPE, keys::log_type_index_pk("logout")),
            (ORDER, order_keys::order("CP1").pk),
            (ORDER, order_keys::refund("CP1", "r").pk),
            (LEDGER, order_keys::ledger("r").pk),
            (ORDER_POINTER, order_keys::by_user("u")),
            (ORDER_POINTER, order_keys::by_plate("p")),
            (ORDER_POINTER, order_keys::flagged("202601")),
            (ROLLUP, order_keys::day_rollup(order_keys::Dim::All)),
            (ROLLUP, order_keys::STATIONS_ROLLUP_PK.into()),
            (ORDERS_BY_MONTH, order_keys::by_month("202601")),
            (ORDERS_BY_STATION, order_keys::by_station("s", "202601")),
            (REFUNDS_BY_STATUS, order_keys::refunds_by_status("pending")),
            (LEDGER_BY_TIME, order_keys::LEDGER_INDEX_PK.into()),
            (STATION, stations::key("s1").pk),
            (STATION_CODE, format!("STATIONCODE#{}", "AB")),
            (PILE, piles::pile_key("p1").pk),
            (PILE, piles::connector_key("p1", 1).pk),
            (PILE_CODE, piles::pile_code_key("ab").pk),
            (PILES_BY_STATION, piles::station_piles_pk("s1")),
            (TARIFF, tariffs::current_key("t1").pk),
            (TARIFFS, tariffs::INDEX_PK.into()),
            (CARD, crate::domain::cards::key("abc").pk),
            (OCPP_GUARD, "OCPPGUARD#ADDRESS#203.0.113.9".into()),
            (CARD_BALANCE, "CARDBAL".into()),
            (CARD_LEDGER, "CARDTX#ABC".into()),
            (POWER_BUDGET, crate::domain::chargers::budget::key("s1").pk),
            (CHARGER_CERTIFICATE, crate::domain::chargers::certificates::pk("p1")),
            (DEVICE_MODEL, crate::domain::chargers::device_model::pk("p1")),
            (SECURITY_EVENT, "SECEVENT#p1".into()),
            (SECURITY_EVENTS, crate::domain::chargers::security_events::FLEET_PK.into()),
            (SECURITY_EVENTS_BY_TYPE, "SECEVENTS#TYPE#TamperDetectionActivated".into()),
            (SECURITY_EVENTS_BY_PILE_TYPE, "SECEVENT#p1#TYPE#TamperDetectionActivated".into()),
        ];
        let all = [
            USER, PASSWORD, ROLE, MENU, NOTICE, THROTTLE, LOG, LOG_COUNT, LOG_REFUSED, SOCIAL, OAUTH_STATE, META, SETTINGS, WORKFLOW, DEPT, USERS_BY_NAME, USERS_BY_EMAIL, ROLES_BY_NAME,
            LOG_BY_TIME, LOG_BY_ACCOUNT, LOG_BY_TYPE, DEPTS, ORDER, LEDGER, ORDER_POINTER, ROLLUP, ORDERS_BY_MONTH, ORDERS_BY_STATION, ORDERS_BY_STATUS, REFUNDS_BY_STATUS,
            LEDGER_BY_TIME, STATION, STATION_CODE, PILE, PILE_CODE, CONNECTOR_HISTORY, TARIFF, CONNECTOR_LIST, CONNECTOR_COUNT, STATION_LIST, STATION_COUNT, PILES_BY_STATION, TARIFFS, CARD,
            CARD_LIST, CARD_COUNT, CARD_BALANCE, CARD_LEDGER, RESERVATION, OCPP_SEQUENCE, COMMAND, COMMAND_SLOT, OCPP_TRANSACTION, OCPP_OPEN, OCPP_START, MESSAGE_LOG, CONNECTION,
            OCPP_GUARD, RESERVATIONS_BY_PILE, COMMANDS_BY_PILE, COMMAND_QUEUE, QUEUED_COMMANDS, SLOTS_BY_DEADLINE, MESSAGE_LOG_BY_ACTION, CONNECTIONS, POWER_BUDGET,
            CHARGER_CERTIFICATE, SECURITY_EVENT, SECURITY_EVENTS, SECURITY_EVENTS_BY_TYPE, SECURITY_EVENTS_BY_PILE_TYPE, DEVICE_MODEL,
        ];
        for (family, pk) in cases {
            assert!(family.matches(&pk), "{} does not match {pk}", family.pattern);
            for other in all.iter().filter(|o| o.place == family.place && o.pattern != family.pattern) {
                assert!(!other.matches(&pk), "{pk} matches both {} and {}", family.pattern, other.pattern);
            }
        }
    }

    #[test]
    fn readers_get_no_write_but_their_session_upkeep() {
        let by = |f: &str| crate::routes::by_function(f).unwrap();
        // Every reading route (GET, not audited) but the token refresh.
        let readers: Vec<_> = crate::routes::routes().iter().filter(|r| !writes_data(r) && r.function != "refresh_token").collect();
        assert!(readers.len() > 30, "{}", readers.len());
        for route in readers {
            for s in &policy(route).statements {
                if s.actions.iter().any(|a| !READ_ACTIONS.contains(a)) {
                    assert_eq!((s.actions.as_slice(), s.leading_keys.as_slice()), (&SESSION_ACTIONS[..], &["USER#*"][..]), "{}: {s:?}", route.function);
                }
            }
        }
        assert!(policy(by("refresh_token")).allows(&Touch { action: "dynamodb:UpdateItem", index: None, pk: "USER#admin".into() }));
        let public_key = policy(by("public_key"));
        assert!(!public_key.writes(), "{public_key:?}");
        let login = policy(by("login_index"));
        for family in [LOG, LOG_COUNT, THROTTLE, USER] {
            assert!(login.allows(&Touch { action: "dynamodb:PutItem", index: None, pk: family.pattern.trim_end_matches('*').into() }), "{}", family.pattern);
        }
        assert!(!login.allows(&Touch { action: "dynamodb:PutItem", index: None, pk: "ORDER#1".into() }));
    }

    /// The hashes' partition is for the routes that check or set a
    /// password, and for nothing else (every other function reads user
    /// records, never a hash).
    #[test]
    fn only_the_password_routes_reach_the_hashes() {
        let reach: Vec<&str> = crate::routes::routes()
            .iter()
            .filter(|r| ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem"].iter().any(|a| policy(r).allows(&Touch { action: a, index: None, pk: "PWD#admin".into() })))
            .map(|r| r.function)
            .collect();
        assert_eq!(reach, ["login_index", "register", "change_password", "user_management_edit", "user_management_delete", "user_management_reset_password"]);
        for f in ["ocpp_connect", "ocpp_message", "ocpp_disconnect", "ocpp_sweeper"] {
            assert!(!link_policy(f).unwrap().allows(&Touch { action: "dynamodb:GetItem", index: None, pk: "PWD#admin".into() }), "{f}");
        }
    }

    #[test]
    fn every_charger_link_function_has_a_policy() {
        for f in ["ocpp_connect", "ocpp_message", "ocpp_disconnect", "ocpp_sweeper"] {
            let p = link_policy(f).unwrap();
            assert!(!p.allows(&Touch { action: "dynamodb:GetItem", index: None, pk: "USER#admin".into() }), "{f} cannot read user records");
        }
        assert!(link_policy("login_index").is_none());
    }

    #[test]
    fn every_route_declares_what_it_touches() {
        for route in crate::routes::routes() {
            let keys = route.keys;
            for f in keys.writes {
                assert_eq!(f.place, Place::Table, "{}: an index is written through its table items, not declared as written", route.function);
            }
            let p = policy(route);
            // Every statement names its keys: no statement without a condition.
            assert!(p.statements.iter().all(|s| !s.leading_keys.is_empty()), "{}", route.function);
        }
    }
}
