//! The sweeper's work on the charger link, run every minute (a tokio timer
//! in the local gateway, an EventBridge schedule on AWS): a connection
//! whose charger stayed silent past the offline window (heartbeat interval
//! x the operations setting) is ended, so a socket that died without a
//! close never shows a charger as connected. Sessions that never end need
//! no write here: they are the stuck orders, found by a key range when read.

use std::collections::HashMap;

use envelope::ApiError;

use super::link::{self, Connection};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{pile_key, Pile};
use crate::domain::operations;
use crate::domain::{from_item, StoreResultExt};

/// Ends the connections of silent chargers; returns them, so the
/// transport can close their sockets too.
pub async fn end_silent_connections(ctx: &AppCtx) -> Result<Vec<Connection>, ApiError> {
    let now = ctx.now();
    let ops = operations::current(ctx).await?;
    let mut ended = Vec::new();
    let mut cursor = None;
    loop {
        let (page, next) = link::connections(ctx, cursor).await?;
        let keys: Vec<_> = page.iter().map(|c| pile_key(&c.pile_id)).collect();
        let piles: HashMap<String, Pile> = ctx
            .store
            .batch_get(&keys)
            .await
            .api()?
            .into_iter()
            .flatten()
            .map(from_item::<Pile>)
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .map(|p| (p.id.clone(), p))
            .collect();
        for c in page {
            // A pile deleted while connected has nothing to keep either.
            let silent = piles.get(&c.pile_id).is_none_or(|p| !crate::domain::assets::piles::is_pile_online(p, now, &ops));
            if silent {
                link::disconnected(ctx, &c.pile_id, &c.connection_id).await?;
                super::commands::connection_ended(ctx, &c.pile_id, &c.connection_id).await?;
                ended.push(c);
            }
        }
        cursor = next;
        if cursor.is_none() {
            return Ok(ended);
        }
    }
}
