//! kill -9 of the gateway in the middle of a burst of writes loses no
//! acknowledged write and leaves no half-written record.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::*;
use serde_json::Value;
use store::{Query, Table};

#[tokio::test]
async fn kill_9_during_writes_loses_no_acknowledged_write() {
    let dir = fresh_data_dir("crash");
    let mut gw = Gateway::start(dir.clone(), &[]).await;
    let client = reqwest::Client::new();
    let token = Arc::new(login(&client, &gw.base, "editor", EDITOR_PW).await);
    let acknowledged = Arc::new(tokio::sync::Mutex::new(HashSet::new()));
    let mut writers = Vec::new();
    for w in 0..4 {
        let (client, base, token, acknowledged) = (client.clone(), gw.base.clone(), token.clone(), acknowledged.clone());
        writers.push(tokio::spawn(async move {
            for i in 0..10_000 {
                let text = format!("burst {w}-{i}");
                let sent = client
                    .post(format!("{base}/notice/doEdit"))
                    .bearer_auth(token.as_str())
                    .json(&serde_json::json!({"notice": text}))
                    .send()
                    .await;
                let Ok(resp) = sent else { return };
                let Ok(body) = resp.json::<Value>().await else { return };
                if body["code"] == 200 {
                    acknowledged.lock().await.insert(body["data"]["id"].as_str().unwrap().to_string());
                }
            }
        }));
    }
    // Let the burst run, then kill the process without warning.
    while acknowledged.lock().await.len() < 60 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    gw.kill();
    for w in writers {
        let _ = w.await;
    }
    let acknowledged = acknowledged.lock().await.clone();

    let table = store::sqlite::SqliteTable::open(&dir.join("backoffice.sqlite3")).expect("database reopens after kill -9");
    let mut stored = HashSet::new();
    let mut cursor = None;
    loop {
        let page = table.query(Query::partition("NOTICE").after(cursor)).await.unwrap();
        for item in &page.items {
            for field in ["id", "type", "notice", "createdAt"] {
                assert!(item.contains_key(field), "half-written notice without {field}: {item:?}");
            }
            stored.insert(item["id"].as_str().unwrap().to_string());
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    let lost: Vec<_> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "{} acknowledged writes lost: {lost:?}", lost.len());
    drop(table);

    // And the product starts again on the same data.
    let gw = Gateway::start(dir, &[]).await;
    login(&client, &gw.base, "editor", EDITOR_PW).await;
}
