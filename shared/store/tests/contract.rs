//! The store contract: every adapter must give these answers. Each test is
//! generated once per adapter. The DynamoDB run needs a DynamoDB API
//! endpoint (moto on 127.0.0.1, started by scripts/test.sh) in
//! BACKOFFICE_TEST_DYNAMO_ENDPOINT; without it the DynamoDB tests skip,
//! unless BACKOFFICE_REQUIRE_DYNAMO=1 (as in CI), when they fail.

use std::sync::Arc;

use serde_json::{json, Value};
use store::{Condition, Index, Item, Key, Query, SortKey, StoreError, Table, TxOp, UpdateAction};

fn item(v: Value) -> Item {
    v.as_object().expect("an object").clone()
}

/// A fresh, empty table, and what to do when the test is over.
struct Fixture {
    table: Arc<dyn Table>,
    #[allow(dead_code)]
    dynamo: Option<store::dynamo::DynamoTable>,
    /// The directory of a SQLite file, removed afterwards.
    files: Option<std::path::PathBuf>,
}

impl Fixture {
    async fn finish(self) {
        if let Some(d) = self.dynamo {
            let _ = d.delete_table().await;
        }
        if let Some(dir) = self.files {
            drop(self.table);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

async fn sqlite() -> Option<Fixture> {
    Some(Fixture { table: Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap()), dynamo: None, files: None })
}

/// The same adapter on a file, as the gateway runs it: writes committed in
/// groups by the writer thread, reads on their own connections.
async fn sqlite_file() -> Option<Fixture> {
    let dir = std::env::temp_dir().join(format!("store-contract-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    Some(Fixture { table: Arc::new(store::sqlite::SqliteTable::open(&dir.join("contract.sqlite3")).unwrap()), dynamo: None, files: Some(dir) })
}

async fn dynamo() -> Option<Fixture> {
    let Ok(endpoint) = std::env::var("BACKOFFICE_TEST_DYNAMO_ENDPOINT") else {
        assert!(
            std::env::var("BACKOFFICE_REQUIRE_DYNAMO").as_deref() != Ok("1"),
            "BACKOFFICE_REQUIRE_DYNAMO=1 but BACKOFFICE_TEST_DYNAMO_ENDPOINT is not set: start moto (scripts/test.sh does)"
        );
        eprintln!("skipped: set BACKOFFICE_TEST_DYNAMO_ENDPOINT to run the DynamoDB contract");
        return None;
    };
    let name = format!("contract-{}", uuid::Uuid::new_v4().simple());
    let table = store::dynamo::DynamoTable::connect(&name, Some(&endpoint), Some("us-east-1")).await;
    table.create_table_if_missing().await.expect("the test table is created");
    Some(Fixture { table: Arc::new(table.clone()), dynamo: Some(table), files: None })
}

macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite { $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $name() { if let Some(f) = super::sqlite().await { super::$name(&*f.table).await; f.finish().await; } } )* }
        mod on_sqlite_file { $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $name() { if let Some(f) = super::sqlite_file().await { super::$name(&*f.table).await; f.finish().await; } } )* }
        mod on_dynamo { $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $name() { if let Some(f) = super::dynamo().await { super::$name(&*f.table).await; f.finish().await; } } )* }
    };
}

contract!(
    round_trips_every_json_type,
    put_if_absent_refuses_the_second_writer,
    versioned_update_lets_exactly_one_writer_win,
    update_creates_counts_and_removes,
    conditions_compare_like_dynamodb,
    delete_returns_the_old_item_and_honours_conditions,
    sort_key_conditions_select_the_right_items,
    paging_visits_each_item_once_in_both_directions,
    index_queries_page_through_ties,
    transactions_are_all_or_nothing,
    transactions_refuse_invalid_requests,
    batch_get_answers_in_key_order,
    invalid_items_are_refused_and_nothing_is_written,
    cursors_only_work_for_their_own_list,
    strings_sort_by_utf8_bytes,
    concurrent_counter_adds_are_not_lost,
    bulk_puts_write_every_item_and_refuse_bad_batches,
    concurrent_writes_fail_alone_and_are_read_back,
);

async fn round_trips_every_json_type(t: &dyn Table) {
    let stored = item(json!({
        "PK": "T#1", "SK": "A", "int": 42, "neg": -7, "float": 1.5, "yes": true, "no": false, "nothing": null,
        "text": "中文 ☃ \"quoted\" <b>", "empty": "", "list": [1, "two", [3], {"four": 4}], "map": {"a": {"b": [true]}}
    }));
    t.put(stored.clone(), None).await.unwrap();
    assert_eq!(t.get(&Key::new("T#1", "A")).await.unwrap(), Some(stored));
    assert_eq!(t.get(&Key::new("T#1", "missing")).await.unwrap(), None);
}

async fn put_if_absent_refuses_the_second_writer(t: &dyn Table) {
    let first = item(json!({"PK": "U#1", "SK": "P", "name": "first"}));
    t.put(first.clone(), Some(Condition::item_absent())).await.unwrap();
    let second = item(json!({"PK": "U#1", "SK": "P", "name": "second"}));
    assert_eq!(t.put(second, Some(Condition::item_absent())).await, Err(StoreError::ConditionFailed));
    assert_eq!(t.get(&Key::new("U#1", "P")).await.unwrap(), Some(first), "the loser wrote nothing");
}

async fn versioned_update_lets_exactly_one_writer_win(t: &dyn Table) {
    let key = Key::new("S#1", "S");
    t.put(item(json!({"PK": "S#1", "SK": "S", "version": 1, "name": "old"})), None).await.unwrap();
    let edit = |name: &str| {
        (vec![UpdateAction::Set("name".into(), json!(name)), UpdateAction::Add("version".into(), 1)], Some(Condition::version_is(1)))
    };
    let (a, ca) = edit("alice");
    let won = t.update(&key, a, ca).await.unwrap();
    assert_eq!((won["version"].clone(), won["name"].clone()), (json!(2), json!("alice")));
    let (b, cb) = edit("bob");
    assert_eq!(t.update(&key, b, cb).await, Err(StoreError::ConditionFailed));
    assert_eq!(t.get(&key).await.unwrap().unwrap()["name"], json!("alice"));
}

async fn update_creates_counts_and_removes(t: &dyn Table) {
    let key = Key::new("C#1", "COUNT");
    let created = t.update(&key, vec![UpdateAction::Add("n".into(), 5), UpdateAction::SetIfAbsent("since".into(), json!("t0"))], None).await.unwrap();
    assert_eq!(created, item(json!({"PK": "C#1", "SK": "COUNT", "n": 5, "since": "t0"})));
    let next = t
        .update(&key, vec![UpdateAction::Add("n".into(), -2), UpdateAction::SetIfAbsent("since".into(), json!("t1")), UpdateAction::Set("tag".into(), json!("x"))], None)
        .await
        .unwrap();
    assert_eq!((next["n"].clone(), next["since"].clone(), next["tag"].clone()), (json!(3), json!("t0"), json!("x")));
    let removed = t.update(&key, vec![UpdateAction::Remove("tag".into())], Some(Condition::item_exists())).await.unwrap();
    assert!(!removed.contains_key("tag"));
    assert_eq!(
        t.update(&Key::new("C#2", "COUNT"), vec![UpdateAction::Add("n".into(), 1)], Some(Condition::item_exists())).await,
        Err(StoreError::ConditionFailed),
        "a condition on an absent item fails and creates nothing"
    );
    assert_eq!(t.get(&Key::new("C#2", "COUNT")).await.unwrap(), None);
    assert!(matches!(t.update(&key, vec![UpdateAction::Add("since".into(), 1)], None).await, Err(StoreError::Invalid(_))));
    assert!(matches!(t.update(&key, vec![UpdateAction::Set("SK".into(), json!("other"))], None).await, Err(StoreError::Invalid(_))));
    assert_eq!(t.get(&key).await.unwrap().unwrap()["n"], json!(3), "refused updates changed nothing");
}

async fn conditions_compare_like_dynamodb(t: &dyn Table) {
    t.put(item(json!({"PK": "K", "SK": "1", "n": 2, "s": "m", "flag": true})), None).await.unwrap();
    let key = Key::new("K", "1");
    let holds = |c: Condition| async move { t.update(&Key::new("K", "1"), vec![UpdateAction::Add("hits".into(), 1)], Some(c)).await.is_ok() };
    assert!(holds(Condition::Eq("n".into(), json!(2))).await);
    assert!(holds(Condition::Eq("n".into(), json!(2.0))).await, "numbers compare by value");
    assert!(!holds(Condition::Eq("n".into(), json!("2"))).await, "a string never equals a number");
    assert!(holds(Condition::Ne("missing".into(), json!(1))).await, "<> holds on a missing attribute");
    assert!(!holds(Condition::Eq("missing".into(), json!(1))).await);
    assert!(holds(Condition::Lt("n".into(), json!(10))).await);
    assert!(holds(Condition::Ge("n".into(), json!(2))).await);
    assert!(!holds(Condition::Gt("n".into(), json!(2))).await);
    assert!(holds(Condition::Gt("s".into(), json!("a"))).await);
    assert!(!holds(Condition::Lt("missing".into(), json!(1))).await);
    assert!(holds(Condition::Eq("flag".into(), json!(true))).await);
    assert!(holds(Condition::And(vec![Condition::Exists("n".into()), Condition::NotExists("zzz".into())])).await);
    assert!(!holds(Condition::And(vec![Condition::Exists("n".into()), Condition::Exists("zzz".into())])).await);
    assert!(holds(Condition::Or(vec![Condition::Exists("zzz".into()), Condition::Eq("s".into(), json!("m"))])).await);
    assert!(holds(Condition::And(vec![])).await, "an empty AND always holds");
    assert!(!holds(Condition::Or(vec![])).await, "an empty OR never holds");
    assert_eq!(t.get(&key).await.unwrap().unwrap()["hits"], json!(10));
}

async fn delete_returns_the_old_item_and_honours_conditions(t: &dyn Table) {
    let stored = item(json!({"PK": "D", "SK": "1", "version": 3}));
    t.put(stored.clone(), None).await.unwrap();
    let key = Key::new("D", "1");
    assert_eq!(t.delete(&key, Some(Condition::version_is(2))).await, Err(StoreError::ConditionFailed));
    assert!(t.get(&key).await.unwrap().is_some());
    assert_eq!(t.delete(&key, Some(Condition::version_is(3))).await.unwrap(), Some(stored));
    assert_eq!(t.get(&key).await.unwrap(), None);
    assert_eq!(t.delete(&key, None).await.unwrap(), None, "deleting an absent item is not an error");
    assert_eq!(t.delete(&key, Some(Condition::item_exists())).await, Err(StoreError::ConditionFailed));
}

async fn seed_partition(t: &dyn Table, pk: &str, sks: &[&str]) {
    let ops = sks.iter().map(|sk| TxOp::Put { item: item(json!({"PK": pk, "SK": sk})), condition: None }).collect();
    t.transact(ops).await.unwrap();
}

async fn sks(t: &dyn Table, q: Query) -> Vec<String> {
    let page = t.query(q).await.unwrap();
    page.items.iter().map(|i| i["SK"].as_str().unwrap().to_owned()).collect()
}

async fn sort_key_conditions_select_the_right_items(t: &dyn Table) {
    seed_partition(t, "Q", &["a#1", "a#2", "ab", "b#1", "b#2", "c"]).await;
    seed_partition(t, "Other", &["a#1"]).await;
    let q = || Query::partition("Q");
    assert_eq!(sks(t, q()).await, ["a#1", "a#2", "ab", "b#1", "b#2", "c"]);
    assert_eq!(sks(t, q().sort_key(SortKey::Eq("ab".into()))).await, ["ab"]);
    assert_eq!(sks(t, q().sort_key(SortKey::BeginsWith("a#".into()))).await, ["a#1", "a#2"]);
    assert_eq!(sks(t, q().sort_key(SortKey::Between("a#2".into(), "b#1".into()))).await, ["a#2", "ab", "b#1"]);
    assert_eq!(sks(t, q().sort_key(SortKey::Lt("ab".into()))).await, ["a#1", "a#2"]);
    assert_eq!(sks(t, q().sort_key(SortKey::Le("ab".into()))).await, ["a#1", "a#2", "ab"]);
    assert_eq!(sks(t, q().sort_key(SortKey::Gt("b#2".into()))).await, ["c"]);
    assert_eq!(sks(t, q().sort_key(SortKey::Ge("b#2".into()))).await, ["b#2", "c"]);
    assert_eq!(sks(t, q().sort_key(SortKey::BeginsWith("b".into())).backward()).await, ["b#2", "b#1"]);
    assert_eq!(sks(t, Query::partition("Nobody")).await, Vec::<String>::new());
}

async fn all_pages(t: &dyn Table, q: Query) -> (Vec<String>, usize) {
    let mut seen = Vec::new();
    let mut pages = 0;
    let mut cursor = None;
    loop {
        let page = t.query(q.clone().after(cursor)).await.unwrap();
        pages += 1;
        assert!(!page.items.is_empty() || pages == 1, "no empty page after the first");
        seen.extend(page.items.iter().map(|i| i["SK"].as_str().unwrap().to_owned()));
        cursor = page.cursor;
        if cursor.is_none() {
            return (seen, pages);
        }
    }
}

async fn paging_visits_each_item_once_in_both_directions(t: &dyn Table) {
    let names: Vec<String> = (0..23).map(|i| format!("{i:03}")).collect();
    seed_partition(t, "P", &names.iter().map(String::as_str).collect::<Vec<_>>()).await;
    let (forward, pages) = all_pages(t, Query::partition("P").limit(5)).await;
    assert_eq!((forward.clone(), pages), (names.clone(), 5));
    let (backward, _) = all_pages(t, Query::partition("P").limit(5).backward()).await;
    assert_eq!(backward, names.iter().rev().cloned().collect::<Vec<_>>());
    let (exact, pages) = all_pages(t, Query::partition("P").limit(23)).await;
    assert_eq!((exact.len(), pages), (23, 1), "a page that ends the list has no cursor");
    let (ranged, _) = all_pages(t, Query::partition("P").sort_key(SortKey::Between("005".into(), "014".into())).limit(4)).await;
    assert_eq!(ranged, names[5..15].to_vec());
}

async fn index_queries_page_through_ties(t: &dyn Table) {
    // Five items share one index sort key: paging must not lose or repeat any.
    let mut ops = Vec::new();
    for i in 0..12 {
        let day = if i < 5 { "2026-01-01".to_string() } else { format!("2026-01-{:02}", i) };
        ops.push(TxOp::Put { item: item(json!({"PK": format!("O#{i:02}"), "SK": "O", "GSI1PK": "ORDERS", "GSI1SK": day})), condition: None });
    }
    ops.push(TxOp::Put { item: item(json!({"PK": "O#99", "SK": "O", "GSI1PK": "ORDERS"})), condition: None });
    ops.push(TxOp::Put { item: item(json!({"PK": "O#98", "SK": "O", "GSI2PK": "ORDERS", "GSI2SK": "x"})), condition: None });
    t.transact(ops).await.unwrap();
    let mut pks = Vec::new();
    let mut cursor = None;
    loop {
        let page = t.query(Query::index(Index::Gsi1, "ORDERS").limit(3).after(cursor)).await.unwrap();
        pks.extend(page.items.iter().map(|i| i["PK"].as_str().unwrap().to_owned()));
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    pks.sort();
    let expected: Vec<String> = (0..12).map(|i| format!("O#{i:02}")).collect();
    assert_eq!(pks, expected, "each indexed item once; items without the index sort key are not in it");
    let newest = t.query(Query::index(Index::Gsi1, "ORDERS").backward().limit(1)).await.unwrap();
    assert_eq!(newest.items[0]["GSI1SK"], json!("2026-01-11"));
    let january_first = t.query(Query::index(Index::Gsi1, "ORDERS").sort_key(SortKey::Eq("2026-01-01".into()))).await.unwrap();
    assert_eq!(january_first.items.len(), 5);
}

async fn transactions_are_all_or_nothing(t: &dyn Table) {
    t.put(item(json!({"PK": "A", "SK": "1", "balance": 10, "version": 1})), None).await.unwrap();
    t.put(item(json!({"PK": "B", "SK": "1", "balance": 0})), None).await.unwrap();
    let transfer = |amount: i64, version: i64| {
        vec![
            TxOp::Update {
                key: Key::new("A", "1"),
                actions: vec![UpdateAction::Add("balance".into(), -amount), UpdateAction::Add("version".into(), 1)],
                condition: Some(Condition::And(vec![Condition::version_is(version), Condition::Ge("balance".into(), json!(amount))])),
            },
            TxOp::Update { key: Key::new("B", "1"), actions: vec![UpdateAction::Add("balance".into(), amount)], condition: None },
            TxOp::Put { item: item(json!({"PK": "LEDGER", "SK": format!("v{version}"), "amount": amount})), condition: Some(Condition::item_absent()) },
        ]
    };
    t.transact(transfer(4, 1)).await.unwrap();
    assert_eq!(t.transact(transfer(4, 1)).await, Err(StoreError::TransactionCanceled { failed: vec![0, 2] }));
    assert_eq!(t.transact(transfer(40, 2)).await, Err(StoreError::TransactionCanceled { failed: vec![0] }));
    assert_eq!(t.get(&Key::new("A", "1")).await.unwrap().unwrap()["balance"], json!(6));
    assert_eq!(t.get(&Key::new("B", "1")).await.unwrap().unwrap()["balance"], json!(4));
    assert_eq!(t.query(Query::partition("LEDGER")).await.unwrap().items.len(), 1, "a cancelled transaction wrote nothing");
    let check_fails = vec![
        TxOp::Check { key: Key::new("B", "1"), condition: Condition::Eq("balance".into(), json!(999)) },
        TxOp::Delete { key: Key::new("A", "1"), condition: None },
    ];
    assert_eq!(t.transact(check_fails).await, Err(StoreError::TransactionCanceled { failed: vec![0] }));
    assert!(t.get(&Key::new("A", "1")).await.unwrap().is_some());
}

async fn transactions_refuse_invalid_requests(t: &dyn Table) {
    let put = |sk: &str| TxOp::Put { item: item(json!({"PK": "X", "SK": sk})), condition: None };
    assert!(matches!(t.transact(vec![]).await, Err(StoreError::Invalid(_))));
    assert!(matches!(t.transact(vec![put("1"), put("1")]).await, Err(StoreError::Invalid(_))));
    let too_many = (0..101).map(|i| put(&i.to_string())).collect();
    assert!(matches!(t.transact(too_many).await, Err(StoreError::Invalid(_))));
    assert!(t.query(Query::partition("X")).await.unwrap().items.is_empty());
}

async fn batch_get_answers_in_key_order(t: &dyn Table) {
    seed_partition(t, "G", &["1", "2", "3"]).await;
    let keys = [Key::new("G", "3"), Key::new("G", "missing"), Key::new("G", "1"), Key::new("G", "3")];
    let found = t.batch_get(&keys).await.unwrap();
    let sks: Vec<Option<&str>> = found.iter().map(|i| i.as_ref().map(|i| i["SK"].as_str().unwrap())).collect();
    assert_eq!(sks, [Some("3"), None, Some("1"), Some("3")]);
    let many: Vec<Key> = (0..150).map(|i| Key::new("G", i.to_string())).collect();
    assert_eq!(t.batch_get(&many).await.unwrap().iter().flatten().count(), 3, "more than one request's worth of keys");
}

async fn invalid_items_are_refused_and_nothing_is_written(t: &dyn Table) {
    for bad in [
        json!({"SK": "1"}),
        json!({"PK": "I", "SK": ""}),
        json!({"PK": 5, "SK": "1"}),
        json!({"PK": "I", "SK": "1", "GSI1PK": 7, "GSI1SK": "x"}),
        json!({"PK": "I", "SK": "1", "big": "x".repeat(store::MAX_ITEM_BYTES + 1)}),
    ] {
        let result = t.put(item(bad.clone()), None).await;
        assert!(matches!(result, Err(StoreError::Invalid(_))), "{bad:.80}: {result:?}");
    }
    assert!(t.query(Query::partition("I")).await.unwrap().items.is_empty());
}

async fn cursors_only_work_for_their_own_list(t: &dyn Table) {
    seed_partition(t, "M", &["1", "2", "3"]).await;
    seed_partition(t, "N", &["1", "2", "3"]).await;
    let page = t.query(Query::partition("M").limit(1)).await.unwrap();
    let cursor = page.cursor.expect("more follow");
    assert!(matches!(t.query(Query::partition("N").after(Some(cursor.clone()))).await, Err(StoreError::Invalid(_))));
    assert!(matches!(t.query(Query::partition("M").after(Some("not-a-cursor".into()))).await, Err(StoreError::Invalid(_))));
    assert_eq!(sks(t, Query::partition("M").after(Some(cursor))).await, ["2", "3"]);
}

async fn strings_sort_by_utf8_bytes(t: &dyn Table) {
    seed_partition(t, "U", &["中", "b", "é", "B", "a", "~"]).await;
    assert_eq!(sks(t, Query::partition("U")).await, ["B", "a", "b", "~", "é", "中"]);
}

async fn concurrent_counter_adds_are_not_lost(t: &dyn Table) {
    let key = Key::new("CTR", "1");
    let adds = (0..20).map(|_| t.update(&key, vec![UpdateAction::Add("n".into(), 1)], None));
    for result in futures::future::join_all(adds).await {
        result.unwrap();
    }
    assert_eq!(t.get(&key).await.unwrap().unwrap()["n"], json!(20));
}

/// Many writes at once (on SQLite they share one commit): the ones whose
/// condition fails change nothing and take no other write with them, and
/// each answered write is read back at once.
async fn concurrent_writes_fail_alone_and_are_read_back(t: &dyn Table) {
    for i in 0..40 {
        t.put(item(json!({"PK": "MANY", "SK": format!("{i:03}"), "n": "old"})), None).await.unwrap();
    }
    let writes = (0..80).map(|i| async move {
        // Even i: a key that exists already, so "only if absent" fails.
        let sk = if i % 2 == 0 { format!("{:03}", i / 2) } else { format!("new{i:03}") };
        let result = t.put(item(json!({"PK": "MANY", "SK": sk.clone(), "n": "new"})), Some(Condition::item_absent())).await;
        let read = t.get(&Key::new("MANY", sk)).await.unwrap().expect("the item is there");
        (i, result, read)
    });
    for (i, result, read) in futures::future::join_all(writes).await {
        if i % 2 == 0 {
            assert!(matches!(result, Err(StoreError::ConditionFailed)), "write {i}: {result:?}");
            assert_eq!(read["n"], json!("old"), "write {i} changed nothing");
        } else {
            result.unwrap();
            assert_eq!(read["n"], json!("new"), "write {i} is read back");
        }
    }
    let (all, _) = all_pages(t, Query::partition("MANY")).await;
    assert_eq!(all.len(), 80);
}

async fn bulk_puts_write_every_item_and_refuse_bad_batches(t: &dyn Table) {
    // More items than one BatchWriteItem (25) and one transaction (100) hold.
    let items: Vec<Item> = (0..130).map(|i| item(json!({"PK": "BULK", "SK": format!("{i:03}"), "n": i, "GSI1PK": "B", "GSI1SK": format!("{i:03}")}))).collect();
    t.put_many(items).await.unwrap();
    let (all, _) = all_pages(t, Query::partition("BULK").limit(50)).await;
    assert_eq!(all.len(), 130);
    assert_eq!(t.get(&Key::new("BULK", "129")).await.unwrap().unwrap()["n"], json!(129));
    assert_eq!(t.query(Query::index(Index::Gsi1, "B").limit(5)).await.unwrap().items.len(), 5, "index entries are written too");
    // A key twice, or an invalid item: refused before anything is written.
    let twice = vec![item(json!({"PK": "BULK2", "SK": "1"})), item(json!({"PK": "BULK2", "SK": "1"}))];
    assert!(matches!(t.put_many(twice).await, Err(StoreError::Invalid(_))));
    let invalid = vec![item(json!({"PK": "BULK2", "SK": "2"})), item(json!({"PK": "BULK2", "SK": ""}))];
    assert!(matches!(t.put_many(invalid).await, Err(StoreError::Invalid(_))));
    assert!(t.query(Query::partition("BULK2")).await.unwrap().items.is_empty());
}
