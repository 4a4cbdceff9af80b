//! The system log: every write through the route table is recorded here
//! by the dispatch layer (who, what, target, result, address, time), so no
//! handler can forget it.

use envelope::msg;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{keys, to_item};
use crate::ctx::AppCtx;
use crate::request::ApiRequest;
use crate::routes::Route;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub id: String,
    /// Who did it: the signed-in user, or the account a successful
    /// sign-in proved; `anonymous` otherwise. Never a name a caller merely
    /// typed.
    pub account: String,
    /// For anonymous calls: the account name the request claimed
    /// (unverified: anybody can type any name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_account: Option<String>,
    /// What was done: the route's summary (English, as stored; the list
    /// answers it in the reader's language, see [`in_language`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// The route's function name, which names its summary in each
    /// language (entries written before it was kept have none: their path
    /// names the route).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    pub path: String,
    /// The record acted on, when the request names one.
    pub target: String,
    /// `success` or the failure code and its meaning.
    pub execute_result: String,
    pub code: u16,
    pub ip: String,
    /// RFC 3339 time of the call.
    pub datetime: String,
    pub time: i64,
}

/// What the log needs from the request, taken before the handler consumes it.
pub struct Input {
    path: String,
    ip: String,
    /// The account a public call claims (login, register).
    claimed_account: Option<String>,
    target: String,
}

/// The request fields that name the record acted on, in order of preference.
const TARGET_FIELDS: [&str; 6] = ["id", "orderNo", "username", "name", "code", "title"];

impl Input {
    pub fn capture(req: &ApiRequest) -> Input {
        let body = req.body_value().unwrap_or(Value::Null);
        let field = |name: &str| body.get(name).and_then(scalar_text).filter(|s| !s.is_empty());
        let target = TARGET_FIELDS.iter().find_map(|f| field(f)).unwrap_or_default();
        Input {
            path: req.path.clone(),
            ip: req.client_ip.clone(),
            claimed_account: field("username"),
            target: truncate(&target, 120),
        }
    }
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// The account of a call nobody signed in for.
pub const ANONYMOUS: &str = "anonymous";

/// Records one call. A failure to record is logged, not shown to the user:
/// the user's write has already happened.
///
/// Calls that failed authentication (401 without a signed-in user) are
/// not written one by one: anyone can send them by the thousand, and each
/// entry is a transaction on the log's counters, so a flood would cost
/// writes and, on DynamoDB, conflict with real entries. They are counted
/// in hourly sharded counters instead ([`refused_anonymous`]).
pub async fn record(ctx: &AppCtx, route: &Route, input: Input, account: Option<&str>, code: u16) {
    let now = ctx.now();
    if account.is_none() && code == 401 {
        count_refused_anonymous(ctx, now).await;
        return;
    }
    // A public call that succeeded with a name proved it (sign-in,
    // registration); any other claim stays a claim.
    let proved = account.is_none() && code == envelope::SUCCESS_CODE && route.access == crate::routes::Access::Public;
    let (account, claimed_account) = match (account, input.claimed_account) {
        (Some(a), _) => (truncate(a, 64), None),
        (None, Some(claimed)) if proved => (truncate(&claimed, 64), None),
        (None, claimed) => (ANONYMOUS.to_string(), claimed.map(|c| truncate(&c, 64))),
    };
    // Time-ordered (UUIDv7, monotonic within a process): entries of the same
    // second still list in the order they were written.
    let id = uuid::Uuid::now_v7().simple().to_string();
    // Stored in English; shown in the reader's language by [`in_language`].
    let execute_result = if code == envelope::SUCCESS_CODE {
        msg::status::_200().en
    } else {
        msg::audit::failure(code, envelope::standard_message(code)).en
    };
    let entry = LogEntry {
        id,
        account,
        claimed_account,
        kind: route.summary.to_string(),
        function: Some(route.function.to_string()),
        path: input.path,
        target: input.target,
        execute_result,
        code,
        ip: input.ip,
        datetime: rfc3339(now),
        time: now,
    };
    if let Err(e) = store_entry(ctx, &entry).await {
        tracing::error!(error = %e, function = route.function, "system log entry could not be written");
    }
}

fn rfc3339(t: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(t).ok().and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok()).unwrap_or_default()
}

/// Writes an entry with the two totals the list shows, together.
async fn store_entry(ctx: &AppCtx, entry: &LogEntry) -> store::Result<()> {
    let key = keys::log_entry(&entry.id);
    let sort = format!("{}#{}", keys::time_sort(entry.time), entry.id);
    let item = to_item(
        entry,
        &[
            (store::PK, key.pk),
            (store::SK, key.sk),
            ("GSI1PK", keys::LOG_INDEX_PK.to_string()),
            ("GSI1SK", sort.clone()),
            ("GSI2PK", keys::log_account_index_pk(&entry.account)),
            ("GSI2SK", sort.clone()),
            ("GSI3PK", keys::log_type_index_pk(&type_of(entry.function.as_deref(), &entry.path))),
            ("GSI3SK", sort),
        ],
    );
    let ops = vec![store::TxOp::Put { item, condition: None }, count_op(ALL_ACCOUNTS), count_op(&entry.account)];
    ctx.store.transact(ops).await
}

/// Records how a charger answered a remote operation (the request itself
/// was recorded when it was made): who asked, what, the charger's answer.
pub async fn record_charger_answer(ctx: &AppCtx, requested_by: &str, action: &str, pile_id: &str, outcome: &str) {
    let now = ctx.now();
    let entry = LogEntry {
        id: uuid::Uuid::now_v7().simple().to_string(),
        account: truncate(requested_by, 64),
        claimed_account: None,
        kind: format!("{CHARGER_ANSWER_PREFIX}{action}"),
        function: None,
        path: format!("/ocpp/{action}"),
        target: truncate(pile_id, 120),
        execute_result: truncate(outcome, 200),
        code: envelope::SUCCESS_CODE,
        ip: "charger".into(),
        datetime: rfc3339(now),
        time: now,
    };
    if let Err(e) = store_entry(ctx, &entry).await {
        tracing::error!(error = %e, "system log entry of a charger's answer could not be written");
    }
}

const CHARGER_ANSWER_PREFIX: &str = "Charger's answer to ";
pub const CHARGER_ANSWERED: &str = "answered: ";

/// An entry as a reader of `lang` sees it: its type from the route's
/// summary in that language (by function name, or by path for entries
/// written before the name was kept) and its result in words of that
/// language. What a charger said stays as the charger said it.
pub fn in_language(mut entry: LogEntry, lang: envelope::Lang) -> LogEntry {
    let route = match &entry.function {
        Some(f) => crate::routes::by_function(f),
        // Audited routes only: a GET and a POST may share a path, and only
        // the audited one writes log entries.
        None => crate::routes::routes().iter().find(|r| r.audited && r.path == entry.path),
    };
    if let Some(route) = route {
        entry.kind = crate::messages::routes::summary(route).get(lang).to_string();
    } else if let Some(action) = entry.kind.strip_prefix(CHARGER_ANSWER_PREFIX) {
        entry.kind = msg::audit::charger_answer(action).get(lang).to_string();
    }
    if entry.path.starts_with("/ocpp/") {
        if let Some(answer) = entry.execute_result.strip_prefix(CHARGER_ANSWERED) {
            entry.execute_result = msg::audit::answered(answer).get(lang).to_string();
        }
    } else if entry.code == envelope::SUCCESS_CODE {
        entry.execute_result = msg::status::_200().get(lang).to_string();
    } else {
        entry.execute_result = msg::audit::failure(entry.code, envelope::standard_message(entry.code)).get(lang).to_string();
    }
    entry
}

const ALL_ACCOUNTS: &str = "*";

/// Shards of the refused-anonymous counter of one hour: a flood spreads
/// over them instead of queueing on one item.
const REFUSED_SHARDS: u32 = 4;

fn refused_key(hour_start: i64, shard: u32) -> store::Key {
    store::Key::new(format!("LOGREFUSED#{hour_start}"), format!("SHARD#{shard}"))
}

async fn count_refused_anonymous(ctx: &AppCtx, now: i64) {
    let shard = rand::random::<u32>() % REFUSED_SHARDS;
    let hour = now - now.rem_euclid(3600);
    let actions = vec![
        store::UpdateAction::Add("count".into(), 1),
        store::UpdateAction::Set(store::TTL_ATTRIBUTE.into(), (hour + 8 * 86_400).into()),
    ];
    if let Err(e) = ctx.store.update(&refused_key(hour, shard), actions, None).await {
        tracing::warn!(error = %e, "the refused-anonymous counter could not be written");
    }
}

/// How many calls failed authentication without a signed-in user in the
/// last `hours` whole hours (this one included), from the sharded counters.
pub async fn refused_anonymous(ctx: &AppCtx, hours: i64) -> Result<i64, envelope::ApiError> {
    use super::StoreResultExt;
    let now = ctx.now();
    let this_hour = now - now.rem_euclid(3600);
    let keys: Vec<store::Key> = (0..hours.clamp(1, 24))
        .flat_map(|h| (0..REFUSED_SHARDS).map(move |s| refused_key(this_hour - h * 3600, s)))
        .collect();
    let items = ctx.store.batch_get(&keys).await.api()?;
    Ok(items.iter().flatten().filter_map(|i| i.get("count").and_then(Value::as_i64)).sum())
}
/// The deepest a numbered page may reach; further back, use the cursor.
pub const MAX_OFFSET: usize = 2000;

fn count_key(account: &str) -> store::Key {
    store::Key::new("LOGCOUNT", format!("ACCOUNT#{}", account.to_lowercase()))
}

fn count_op(account: &str) -> store::TxOp {
    store::TxOp::Update { key: count_key(account), actions: vec![store::UpdateAction::Add("count".into(), 1)], condition: None }
}

/// How many entries the log holds, for one account or all.
pub async fn total(ctx: &AppCtx, account: Option<&str>) -> Result<i64, envelope::ApiError> {
    use super::StoreResultExt;
    let item = ctx.store.get(&count_key(account.unwrap_or(ALL_ACCOUNTS))).await.api()?;
    Ok(item.and_then(|i| i.get("count").and_then(Value::as_i64)).unwrap_or(0))
}

/// The type an entry is filtered by: its route's function name, or
/// [`keys::LOG_TYPE_CHARGER_ANSWER`] for a charger's answer. Entries
/// written before the function was kept have only their path; they are
/// found by account and day, not by type.
fn type_of(function: Option<&str>, path: &str) -> String {
    match function {
        Some(f) => f.to_string(),
        None if path.starts_with("/ocpp/") => keys::LOG_TYPE_CHARGER_ANSWER.to_string(),
        None => format!("path:{path}"),
    }
}

/// One type the log can be filtered by, named in the reader's language.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct LogType {
    /// What to send as `type`.
    pub value: String,
    pub label: String,
}

/// Every type an entry can have: the audited routes (in path order, so
/// an area's actions stand together) and the chargers' answers.
pub fn types(lang: envelope::Lang) -> Vec<LogType> {
    let mut routes: Vec<_> = crate::routes::routes().iter().filter(|r| r.audited).collect();
    routes.sort_by_key(|r| r.path);
    let mut out: Vec<LogType> = routes.into_iter().map(|r| LogType { value: r.function.to_string(), label: crate::messages::routes::summary(r).get(lang).to_string() }).collect();
    out.push(LogType { value: keys::LOG_TYPE_CHARGER_ANSWER.to_string(), label: msg::audit::charger_answer_type().get(lang).to_string() });
    out
}

/// Whether `kind` is a type the log can be filtered by.
pub fn is_type(kind: &str) -> bool {
    kind == keys::LOG_TYPE_CHARGER_ANSWER || crate::routes::by_function(kind).is_some_and(|r| r.audited)
}

/// What a page of the log is filtered by.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogFilter {
    /// Accounts whose name starts with this, lower-cased (the log keeps
    /// account keys lower-cased, so the match ignores case).
    pub account_prefix: Option<String>,
    /// One type ([`types`]).
    pub kind: Option<String>,
    /// Local days (China time, like the order list), both inclusive.
    pub from_day: Option<i64>,
    pub to_day: Option<i64>,
}

impl LogFilter {
    /// Whether the log's counters give the total of this filter (they
    /// count per account, not per type or day).
    fn counted(&self) -> bool {
        self.kind.is_none() && self.from_day.is_none() && self.to_day.is_none()
    }
}

/// One page of the log.
pub struct LogPage {
    pub entries: Vec<LogEntry>,
    /// Where the next page starts, when more may follow.
    pub cursor: Option<String>,
    /// The entries matching, when counters cover the filter.
    pub total: Option<i64>,
    pub items_read: usize,
}

/// A prefix matching more accounts than this is filtered in memory over
/// the whole log instead of merging the accounts' own lists.
const MAX_MERGED_ACCOUNTS: usize = 10;
/// Items read at most per page when rows are filtered in memory.
const READ_BUDGET: usize = 2000;

/// The accounts (lower-cased) with entries whose name starts with
/// `prefix`, with their counts, from the log's per-account counters (one
/// query); `complete` is false when more than one page of them matched.
async fn accounts_with_prefix(ctx: &AppCtx, prefix: &str) -> Result<(Vec<(String, i64)>, bool), envelope::ApiError> {
    use super::StoreResultExt;
    let q = store::Query::partition("LOGCOUNT").sort_key(store::SortKey::BeginsWith(format!("ACCOUNT#{prefix}")));
    let page = ctx.store.query(q).await.api()?;
    let accounts = page
        .items
        .iter()
        .filter_map(|i| {
            let name = i.get(store::SK)?.as_str()?.strip_prefix("ACCOUNT#")?;
            (name != ALL_ACCOUNTS).then(|| (name.to_string(), i.get("count").and_then(Value::as_i64).unwrap_or(0)))
        })
        .collect();
    Ok((accounts, page.cursor.is_none()))
}

fn encode_position(sk: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sk)
}

fn decode_position(cursor: &str) -> Result<String, envelope::ApiError> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor.trim())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|s| super::merged::valid_position(s))
        .ok_or_else(|| {
            envelope::ApiError::bad_request(msg::audit::bad_cursor())
        })
}

/// One page of the log, newest first. Each filter has its own index:
/// type (GSI3), account (GSI2, one list per account: the accounts a
/// prefix matches are merged), neither (GSI1); the day range is a range
/// of the sort key on any of them. With a type, an account prefix is
/// checked on the rows read; so is a prefix matching more than
/// [`MAX_MERGED_ACCOUNTS`] accounts. Those pages read at most
/// [`READ_BUDGET`] items and may come back short with a cursor.
/// `cursor` continues where the previous page ended; without it, `skip`
/// entries are passed over (numbered pages, bounded by [`MAX_OFFSET`]).
pub async fn page(ctx: &AppCtx, filter: &LogFilter, skip: usize, size: usize, cursor: Option<&str>) -> Result<LogPage, envelope::ApiError> {
    use super::merged::{walk, Source, Walk};
    let after = cursor.map(decode_position).transpose()?;
    let accounts = match &filter.account_prefix {
        Some(prefix) => Some(accounts_with_prefix(ctx, prefix).await?),
        None => None,
    };
    if accounts.as_ref().is_some_and(|(found, complete)| found.is_empty() && *complete) {
        return Ok(LogPage { entries: vec![], cursor: None, total: Some(0), items_read: 0 });
    }
    let prefix = filter.account_prefix.clone();
    let account_matches = move |item: &store::Item| {
        let account = item.get("account").and_then(Value::as_str).unwrap_or_default().to_lowercase();
        prefix.as_deref().is_none_or(|p| account.starts_with(p))
    };
    let whole_log = Source { index: Some(store::Index::Gsi1), pk: keys::LOG_INDEX_PK.to_string() };
    let (sources, filtered) = match (&filter.kind, &accounts) {
        (Some(kind), _) => (vec![Source { index: Some(store::Index::Gsi3), pk: keys::log_type_index_pk(kind) }], filter.account_prefix.is_some()),
        (None, Some((found, true))) if found.len() <= MAX_MERGED_ACCOUNTS => {
            (found.iter().map(|(name, _)| Source { index: Some(store::Index::Gsi2), pk: keys::log_account_index_pk(name) }).collect(), false)
        }
        (None, Some(_)) => (vec![whole_log], true),
        (None, None) => (vec![whole_log], false),
    };
    let keep: &(dyn Fn(&store::Item) -> bool + Sync) = &account_matches;
    let walked = walk(
        ctx,
        Walk {
            sources,
            lo: filter.from_day.map(|d| keys::time_sort(super::orders::keys::day_start(d))),
            hi: filter.to_day.map(|d| format!("{}#~", keys::time_sort(super::orders::keys::day_start(d + 1) - 1))),
            descending: true,
            after,
            size: skip + size,
            budget: if filtered { READ_BUDGET + skip } else { usize::MAX },
            keep: filtered.then_some(keep),
            min_chunk: 100,
        },
    )
    .await?;
    let entries = walked.items.into_iter().skip(skip).map(super::from_item).collect::<Result<Vec<LogEntry>, _>>()?;
    let total = match (&accounts, filter.counted()) {
        (_, false) | (Some((_, false)), _) => None,
        (None, true) => Some(total(ctx, None).await?),
        (Some((found, true)), true) => Some(found.iter().map(|(_, n)| n).sum()),
    };
    Ok(LogPage { entries, cursor: walked.next.as_deref().map(encode_position), total, items_read: walked.items_read })
}

#[cfg(test)]
mod tests {
    use super::*;
    use envelope::Lang;

    fn entry(kind: &str, path: &str, result: &str, code: u16) -> LogEntry {
        LogEntry {
            id: "1".into(),
            account: "admin".into(),
            claimed_account: None,
            kind: kind.into(),
            function: None,
            path: path.into(),
            target: String::new(),
            execute_result: result.into(),
            code,
            ip: String::new(),
            datetime: String::new(),
            time: 0,
        }
    }

    #[test]
    fn what_is_stored_is_the_english_of_the_catalogue() {
        assert_eq!(msg::audit::charger_answer("Reset").en, format!("{CHARGER_ANSWER_PREFIX}Reset"));
        assert_eq!(msg::audit::answered("Rejected").en, format!("{CHARGER_ANSWERED}Rejected"));
    }

    #[test]
    fn a_chargers_answer_is_named_in_the_readers_language_and_keeps_its_words() {
        let answer = entry("Charger's answer to Reset", "/ocpp/Reset", "answered: Rejected", 200);
        let zh = in_language(answer.clone(), Lang::Zh);
        assert_eq!((zh.kind.as_str(), zh.execute_result.as_str()), ("充电桩对 Reset 的应答", "已应答：Rejected"));
        let en = in_language(answer.clone(), Lang::En);
        assert_eq!((en.kind, en.execute_result), (answer.kind, answer.execute_result));
        let timeout = in_language(entry("Charger's answer to Reset", "/ocpp/Reset", "Timeout", 200), Lang::Zh);
        assert_eq!(timeout.execute_result, "Timeout", "the command's state, as recorded");
    }

    #[test]
    fn a_route_entry_is_named_by_its_function_or_else_its_path() {
        let mut e = entry("Publish a notice (HTML is sanitised)", "/notice/doEdit", "failure 409: conflict", 409);
        let zh = in_language(e.clone(), Lang::Zh);
        assert_eq!(zh.kind, crate::messages::routes::summary(crate::routes::by_function("notice_edit").unwrap()).zh);
        assert!(zh.execute_result.starts_with("失败 409："), "{}", zh.execute_result);
        e.function = Some("logout".into());
        assert_eq!(in_language(e, Lang::En).kind, crate::routes::by_function("logout").unwrap().summary);
    }
}
