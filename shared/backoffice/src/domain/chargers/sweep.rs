//! The sweeper's work on the charger link, run every minute (a tokio timer
//! in the local gateway, an EventBridge schedule on AWS): a connection
//! whose charger stayed silent past the offline window (heartbeat interval
//! x the operations setting) is ended, so a socket that died without a
//! close never shows a charger as connected. Sessions that never end need
//! no write here: they are the stuck orders, found by a key range when read.
//! On the embedded store (no TTL) the local gateway's sweeper also prunes
//! the message log of connected chargers ([`prune_message_logs`]).

use std::collections::HashMap;

use envelope::ApiError;

use super::link::{self, Connection};
use super::outbound::SocketHolder;
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{pile_key, Pile};
use crate::domain::operations;
use crate::domain::{from_item, StoreResultExt};

/// Ends the connections of silent chargers, those whose close another
/// edge asked for ([`link::close`]), and on AWS every connection older
/// than API Gateway's 2-hour limit (its `$disconnect` was lost: the socket
/// is gone whatever the charger does now); returns them, so the transport
/// can close their sockets too. Only connections whose sockets this
/// process's outbound port reaches: on a deployment with both edges, each
/// edge's sweeper looks after its own (a container task's connection has
/// no 2-hour limit, and only its task can close it).
pub async fn end_silent_connections(ctx: &AppCtx) -> Result<Vec<Connection>, ApiError> {
    let now = ctx.now();
    let reap_before_ms = ctx.charger_edge().aws.then(|| (now - link::AWS_MAX_CONNECTION_SECS) * 1000);
    let only = ctx.outbound.get().and_then(|o| o.reaches_only());
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
            if only.is_some_and(|holder| c.holder() != holder) {
                continue;
            }
            // A pile deleted while connected has nothing to keep either.
            let silent = piles.get(&c.pile_id).is_none_or(|p| !crate::domain::assets::piles::is_pile_online(p, now, &ops));
            let past_limit = c.holder() == SocketHolder::ApiGateway && reap_before_ms.is_some_and(|before| c.connected_at_ms < before);
            if silent || past_limit || c.close_requested {
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

/// Deletes message-log entries and device events past the retention of
/// connected chargers, at most `max` in all (the embedded store has no TTL; DynamoDB expires
/// them itself). Bounded so one sweep never holds the store for long: a
/// backlog goes over the next sweeps. Returns how many went.
pub async fn prune_message_logs(ctx: &AppCtx, max: u32) -> Result<usize, ApiError> {
    let mut pruned = 0;
    let mut cursor = None;
    loop {
        let (page, next) = link::connections(ctx, cursor).await?;
        for c in page {
            let left = max.saturating_sub(pruned as u32);
            if left == 0 {
                return Ok(pruned);
            }
            pruned += super::log::prune(ctx, &c.pile_id, left).await?;
            let left = max.saturating_sub(pruned as u32);
            if left > 0 {
                pruned += super::device_model::events::prune(ctx, &c.pile_id, left).await?;
            }
        }
        cursor = next;
        if cursor.is_none() {
            return Ok(pruned);
        }
    }
}
