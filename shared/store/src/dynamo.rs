//! The DynamoDB adapter (aws-sdk-dynamodb): what runs in AWS, and in tests
//! against moto on 127.0.0.1. Conditions and updates become DynamoDB
//! expressions; items map to attribute values through serde_dynamo.

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, ConditionCheck, Delete, GlobalSecondaryIndex, IndexStatus, KeySchemaElement, KeyType,
    KeysAndAttributes, Projection, ProjectionType, Put, PutRequest, ReturnValue, ScalarAttributeType, TransactWriteItem, Update,
    TableStatus, WriteRequest,
};
use aws_sdk_dynamodb::Client;
use serde_json::Value;

use crate::{check_item, cursor, eval, Condition, Index, Item, Key, Page, Query, Result, SortKey, StoreError, Table, TxOp, UpdateAction, MAX_PAGE, PK, SK};

type AttrMap = HashMap<String, AttributeValue>;

/// The AWS SDK configuration of the product's clients (DynamoDB, and the
/// WebSocket API's `@connections` in `backoffice::lambda_outbound`).
/// `region` overrides the environment's; `endpoint` points at an emulator
/// (moto), with `us-east-1` when no region is set and dummy credentials when
/// the environment has none.
///
/// With the feature `aws-default-chain` (the local gateway asks for it) the
/// region and credentials come from the SDK's standard chains: environment,
/// profiles, SSO, web identity, container and instance metadata. Without it
/// (the Lambda build) they come from the environment only, which is where
/// Lambda puts a function's region (`AWS_REGION`) and its role's
/// credentials: the other providers' code, and the STS client they bring,
/// is not linked into the functions.
pub async fn sdk_config(region: Option<&str>, endpoint: Option<&str>) -> aws_config::SdkConfig {
    let http = https_client();
    let env_region = || std::env::var("AWS_REGION").or_else(|_| std::env::var("AWS_DEFAULT_REGION")).ok().filter(|r| !r.is_empty());
    let region = region.map(str::to_owned).or_else(|| endpoint.and(env_region().or_else(|| Some("us-east-1".to_owned()))));
    let emulator_credentials = endpoint.is_some() && std::env::var_os("AWS_ACCESS_KEY_ID").is_none();
    let dummy = || aws_sdk_dynamodb::config::Credentials::new("local", "local", None, None, "emulator");
    #[cfg(feature = "aws-default-chain")]
    {
        let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest()).http_client(http);
        if let Some(region) = region {
            loader = loader.region(aws_config::Region::new(region));
        }
        if let Some(endpoint) = endpoint {
            loader = loader.endpoint_url(endpoint);
        }
        if emulator_credentials {
            loader = loader.credentials_provider(dummy());
        }
        loader.load().await
    }
    #[cfg(not(feature = "aws-default-chain"))]
    {
        use aws_sdk_dynamodb::config::SharedCredentialsProvider;
        let mut config = aws_config::SdkConfig::builder().behavior_version(aws_config::BehaviorVersion::latest()).http_client(http);
        if let Some(region) = region.or_else(env_region) {
            config = config.region(aws_config::Region::new(region));
        }
        if let Some(endpoint) = endpoint {
            config = config.endpoint_url(endpoint);
        }
        let credentials = if emulator_credentials {
            SharedCredentialsProvider::new(dummy())
        } else {
            SharedCredentialsProvider::new(aws_config::environment::EnvironmentVariableCredentialsProvider::new())
        };
        config.credentials_provider(credentials).build()
    }
}

/// The HTTP client of every AWS SDK client of the product: the SDK's own
/// (hyper, connection pool, timeouts) with rustls on ring, the product's one
/// crypto back end. The SDK's default client would bring aws-lc-rs.
pub fn https_client() -> aws_sdk_dynamodb::config::SharedHttpClient {
    use aws_smithy_http_client::tls::{rustls_provider::CryptoMode, Provider};
    aws_smithy_http_client::Builder::new().tls_provider(Provider::Rustls(CryptoMode::Ring)).build_https()
}

/// A DynamoDB table. The client is built once per process (in `main`),
/// so a request never pays for the connection set-up.
#[derive(Clone)]
pub struct DynamoTable {
    client: Client,
    table: String,
}

impl DynamoTable {
    /// Connects with the AWS configuration of [`sdk_config`]. `endpoint`
    /// points at an emulator (moto); then, without credentials in the
    /// environment, dummy ones are used, since an emulator ignores them.
    pub async fn connect(table: &str, endpoint: Option<&str>, region: Option<&str>) -> Self {
        let config = sdk_config(region, endpoint).await;
        Self { client: Client::new(&config), table: table.to_owned() }
    }

    pub fn from_client(client: Client, table: &str) -> Self {
        Self { client, table: table.to_owned() }
    }

    /// Creates the table with its indexes when it does not exist (local
    /// emulators; in AWS the SAM template creates it).
    pub async fn create_table_if_missing(&self) -> Result<()> {
        match self.client.describe_table().table_name(&self.table).send().await {
            Ok(_) => return Ok(()),
            Err(e) if e.code() == Some("ResourceNotFoundException") => {}
            Err(e) => return Err(sdk_err(e)),
        }
        let string_attr = |name: &str| {
            AttributeDefinition::builder().attribute_name(name).attribute_type(ScalarAttributeType::S).build().map_err(build_err)
        };
        let key = |name: &str, kind: KeyType| KeySchemaElement::builder().attribute_name(name).key_type(kind).build().map_err(build_err);
        let mut create = self
            .client
            .create_table()
            .table_name(&self.table)
            .billing_mode(BillingMode::PayPerRequest)
            .attribute_definitions(string_attr(PK)?)
            .attribute_definitions(string_attr(SK)?)
            .key_schema(key(PK, KeyType::Hash)?)
            .key_schema(key(SK, KeyType::Range)?);
        for index in Index::ALL {
            create = create
                .attribute_definitions(string_attr(index.pk_attr())?)
                .attribute_definitions(string_attr(index.sk_attr())?)
                .global_secondary_indexes(
                    GlobalSecondaryIndex::builder()
                        .index_name(index.name())
                        .key_schema(key(index.pk_attr(), KeyType::Hash)?)
                        .key_schema(key(index.sk_attr(), KeyType::Range)?)
                        .projection(Projection::builder().projection_type(ProjectionType::All).build())
                        .build()
                        .map_err(build_err)?,
                );
        }
        match create.send().await {
            Ok(_) => {}
            // Another process created it meanwhile.
            Err(e) if e.code() == Some("ResourceInUseException") => {}
            Err(e) => return Err(sdk_err(e)),
        }
        // A new table (and its indexes) is CREATING for a while; reads and
        // writes before it is ACTIVE fail with "resource not found".
        for _ in 0..600 {
            let table = self.client.describe_table().table_name(&self.table).send().await.map_err(sdk_err)?;
            let table = table.table();
            let active = table.and_then(|t| t.table_status()) == Some(&TableStatus::Active)
                && table.is_none_or(|t| t.global_secondary_indexes().iter().all(|i| i.index_status() == Some(&IndexStatus::Active)));
            if active {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(StoreError::Unavailable(format!("table {} did not become ACTIVE within a minute", self.table)))
    }

    /// Deletes the table (tests).
    pub async fn delete_table(&self) -> Result<()> {
        self.client.delete_table().table_name(&self.table).send().await.map_err(sdk_err)?;
        Ok(())
    }

    /// The names of every table at this endpoint (tests: clearing the
    /// emulator of tables left by earlier test processes).
    pub async fn table_names(&self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = self.client.list_tables().set_exclusive_start_table_name(after).send().await.map_err(sdk_err)?;
            names.extend(page.table_names().iter().cloned());
            match page.last_evaluated_table_name() {
                Some(last) => after = Some(last.to_owned()),
                None => return Ok(names),
            }
        }
    }

    /// The same endpoint and client, another table.
    pub fn other(&self, table: &str) -> Self {
        Self { client: self.client.clone(), table: table.to_owned() }
    }
}

/// How many times a transaction cancelled only by conflicting transactions
/// is sent again before the caller hears of it.
const TRANSACTION_CONFLICT_RETRIES: u32 = 3;

/// Why DynamoDB cancelled a transaction, from its per-operation reason codes.
#[derive(Debug, PartialEq)]
enum Cancellation {
    /// These operations' conditions did not hold.
    ConditionsFailed(Vec<usize>),
    /// Only conflicts with other transactions in flight: retryable.
    Conflict,
    /// Throttling, capacity or an internal error.
    Other,
}

fn classify_cancellation(codes: &[Option<&str>]) -> Cancellation {
    let failed: Vec<usize> = codes.iter().enumerate().filter(|(_, c)| **c == Some("ConditionalCheckFailed")).map(|(i, _)| i).collect();
    if !failed.is_empty() {
        Cancellation::ConditionsFailed(failed)
    } else if codes.contains(&Some("TransactionConflict")) && codes.iter().all(|c| matches!(c, None | Some("None") | Some("TransactionConflict"))) {
        Cancellation::Conflict
    } else {
        Cancellation::Other
    }
}

fn build_err(e: aws_sdk_dynamodb::error::BuildError) -> StoreError {
    StoreError::Invalid(format!("dynamodb request: {e}"))
}

/// Maps an SDK failure: a failed condition and bad requests keep their
/// meaning; everything else is the store being unavailable.
fn sdk_err<E: ProvideErrorMetadata + std::fmt::Debug, R: std::fmt::Debug>(e: SdkError<E, R>) -> StoreError {
    match e.code() {
        Some("ConditionalCheckFailedException") => StoreError::ConditionFailed,
        Some("ValidationException") => StoreError::Invalid(e.message().unwrap_or("invalid request").to_owned()),
        _ => StoreError::Unavailable(format!("dynamodb: {}", e.message().map(str::to_owned).unwrap_or_else(|| format!("{e:?}")))),
    }
}

fn to_attrs(item: &Item) -> Result<AttrMap> {
    serde_dynamo::to_item(item).map_err(|e| StoreError::Invalid(format!("the item cannot be stored: {e}")))
}

fn to_value(value: &Value) -> Result<AttributeValue> {
    serde_dynamo::to_attribute_value(value).map_err(|e| StoreError::Invalid(format!("the value cannot be stored: {e}")))
}

fn from_attrs(attrs: AttrMap) -> Result<Item> {
    serde_dynamo::from_item(attrs).map_err(|e| StoreError::Unavailable(format!("a stored item cannot be read: {e}")))
}

fn key_attrs(key: &Key) -> AttrMap {
    HashMap::from([(PK.to_owned(), AttributeValue::S(key.pk.clone())), (SK.to_owned(), AttributeValue::S(key.sk.clone()))])
}

/// Collects attribute-name and value placeholders for one expression set.
#[derive(Default)]
struct Placeholders {
    names: HashMap<String, String>,
    values: AttrMap,
}

impl Placeholders {
    fn name(&mut self, attr: &str) -> String {
        let next = format!("#n{}", self.names.len());
        // Keyed by placeholder in the request; look up by attribute here.
        if let Some((placeholder, _)) = self.names.iter().find(|(_, a)| a.as_str() == attr) {
            return placeholder.clone();
        }
        self.names.insert(next.clone(), attr.to_owned());
        next
    }

    fn value(&mut self, value: &Value) -> Result<String> {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), to_value(value)?);
        Ok(placeholder)
    }

    fn condition(&mut self, condition: &Condition) -> Result<String> {
        let mut compare = |a: &str, op: &str, v: &Value| -> Result<String> { Ok(format!("{} {op} {}", self.name(a), self.value(v)?)) };
        Ok(match condition {
            Condition::Eq(a, v) => compare(a, "=", v)?,
            Condition::Ne(a, v) => compare(a, "<>", v)?,
            Condition::Lt(a, v) => compare(a, "<", v)?,
            Condition::Le(a, v) => compare(a, "<=", v)?,
            Condition::Gt(a, v) => compare(a, ">", v)?,
            Condition::Ge(a, v) => compare(a, ">=", v)?,
            Condition::Exists(a) => format!("attribute_exists({})", self.name(a)),
            Condition::NotExists(a) => format!("attribute_not_exists({})", self.name(a)),
            // DynamoDB has no literal true/false: an empty AND always holds,
            // an empty OR never does.
            Condition::And(all) if all.is_empty() => {
                let pk = self.name(PK);
                format!("(attribute_exists({pk}) OR attribute_not_exists({pk}))")
            }
            Condition::Or(any) if any.is_empty() => {
                let pk = self.name(PK);
                format!("(attribute_exists({pk}) AND attribute_not_exists({pk}))")
            }
            Condition::And(all) => self.joined(all, " AND ")?,
            Condition::Or(any) => self.joined(any, " OR ")?,
        })
    }

    fn joined(&mut self, parts: &[Condition], op: &str) -> Result<String> {
        let rendered = parts.iter().map(|c| self.condition(c).map(|s| format!("({s})"))).collect::<Result<Vec<_>>>()?;
        Ok(rendered.join(op))
    }

    fn update(&mut self, actions: &[UpdateAction]) -> Result<String> {
        let (mut set, mut add, mut remove) = (Vec::new(), Vec::new(), Vec::new());
        for action in actions {
            match action {
                UpdateAction::Set(a, v) => set.push(format!("{} = {}", self.name(a), self.value(v)?)),
                UpdateAction::SetIfAbsent(a, v) => {
                    let n = self.name(a);
                    set.push(format!("{n} = if_not_exists({n}, {})", self.value(v)?));
                }
                UpdateAction::Add(a, n) => add.push(format!("{} {}", self.name(a), self.value(&Value::from(*n))?)),
                UpdateAction::Remove(a) => remove.push(self.name(a)),
            }
        }
        let clauses = [("SET", set), ("ADD", add), ("REMOVE", remove)];
        Ok(clauses
            .into_iter()
            .filter(|(_, parts)| !parts.is_empty())
            .map(|(verb, parts)| format!("{verb} {}", parts.join(", ")))
            .collect::<Vec<_>>()
            .join(" "))
    }

    fn names(&self) -> Option<HashMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    fn values(&self) -> Option<AttrMap> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }
}

/// One operation's expressions: (condition, update).
fn expressions(condition: Option<&Condition>, actions: Option<&[UpdateAction]>) -> Result<(Placeholders, Option<String>, Option<String>)> {
    let mut p = Placeholders::default();
    let update = actions.map(|a| p.update(a)).transpose()?;
    let condition = condition.map(|c| p.condition(c)).transpose()?;
    Ok((p, condition, update))
}

#[async_trait]
impl Table for DynamoTable {
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()> {
        check_item(&item)?;
        let (p, condition, _) = expressions(condition.as_ref(), None)?;
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(to_attrs(&item)?))
            .set_condition_expression(condition)
            .set_expression_attribute_names(p.names())
            .set_expression_attribute_values(p.values())
            .send()
            .await
            .map_err(sdk_err)?;
        Ok(())
    }

    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key_attrs(key)))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_err)?;
        out.item.map(from_attrs).transpose()
    }

    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        let mut unique: Vec<Key> = keys.to_vec();
        unique.sort();
        unique.dedup();
        let mut found: HashMap<Key, Item> = HashMap::new();
        // BatchGetItem takes at most 100 keys and may hand some back as
        // unprocessed under load: ask again for those, backing off.
        for chunk in unique.chunks(100) {
            let mut pending = KeysAndAttributes::builder()
                .set_keys(Some(chunk.iter().map(key_attrs).collect()))
                .consistent_read(true)
                .build()
                .map_err(build_err)?;
            for attempt in 0u32.. {
                let out = self
                    .client
                    .batch_get_item()
                    .request_items(&self.table, pending.clone())
                    .send()
                    .await
                    .map_err(sdk_err)?;
                for attrs in out.responses.unwrap_or_default().remove(&self.table).unwrap_or_default() {
                    let item = from_attrs(attrs)?;
                    if let Some(key) = Key::of(&item) {
                        found.insert(key, item);
                    }
                }
                match out.unprocessed_keys.unwrap_or_default().remove(&self.table) {
                    Some(rest) if !rest.keys.is_empty() => {
                        if attempt >= 8 {
                            return Err(StoreError::Unavailable("dynamodb kept keys unprocessed; try again".into()));
                        }
                        tokio::time::sleep(Duration::from_millis(20 << attempt)).await;
                        pending = rest;
                    }
                    _ => break,
                }
            }
        }
        Ok(keys.iter().map(|k| found.get(k).cloned()).collect())
    }

    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        let (p, condition, _) = expressions(condition.as_ref(), None)?;
        let out = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key_attrs(key)))
            .set_condition_expression(condition)
            .set_expression_attribute_names(p.names())
            .set_expression_attribute_values(p.values())
            .return_values(ReturnValue::AllOld)
            .send()
            .await
            .map_err(sdk_err)?;
        out.attributes.filter(|a| !a.is_empty()).map(from_attrs).transpose()
    }

    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        eval::check_actions(&actions)?;
        let (p, condition, update) = expressions(condition.as_ref(), Some(&actions))?;
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key_attrs(key)))
            .set_update_expression(update)
            .set_condition_expression(condition)
            .set_expression_attribute_names(p.names())
            .set_expression_attribute_values(p.values())
            .return_values(ReturnValue::AllNew)
            .send()
            .await
            .map_err(sdk_err)?;
        from_attrs(out.attributes.unwrap_or_default())
    }

    async fn query(&self, query: Query) -> Result<Page> {
        let mut p = Placeholders::default();
        let (pk_attr, sk_attr) = query.index.map_or((PK, SK), |i| (i.pk_attr(), i.sk_attr()));
        let mut key_condition = format!("{} = {}", p.name(pk_attr), p.value(&Value::from(query.pk.clone()))?);
        if let Some(sk) = &query.sk {
            let n = p.name(sk_attr);
            let mut v = |s: &String| p.value(&Value::from(s.clone()));
            let clause = match sk {
                SortKey::Eq(s) => format!("{n} = {}", v(s)?),
                SortKey::Lt(s) => format!("{n} < {}", v(s)?),
                SortKey::Le(s) => format!("{n} <= {}", v(s)?),
                SortKey::Gt(s) => format!("{n} > {}", v(s)?),
                SortKey::Ge(s) => format!("{n} >= {}", v(s)?),
                SortKey::BeginsWith(s) => format!("begins_with({n}, {})", v(s)?),
                SortKey::Between(a, b) => format!("{n} BETWEEN {} AND {}", v(a)?, v(b)?),
            };
            key_condition.push_str(&format!(" AND {clause}"));
        }
        let start = match &query.cursor {
            Some(text) => Some(
                cursor::decode(&query, text)?
                    .into_iter()
                    .map(|(k, v)| (k, AttributeValue::S(v.as_str().unwrap_or_default().to_owned())))
                    .collect::<AttrMap>(),
            ),
            None => None,
        };
        let limit = query.limit.unwrap_or(MAX_PAGE).clamp(1, MAX_PAGE);
        // One item more than the page says whether another page follows,
        // so a caller never gets a last, empty page (as on SQLite).
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .set_index_name(query.index.map(|i| i.name().to_owned()))
            .key_condition_expression(key_condition)
            .set_expression_attribute_names(p.names())
            .set_expression_attribute_values(p.values())
            .set_exclusive_start_key(start)
            .scan_index_forward(query.forward)
            .limit(limit as i32 + 1)
            .send()
            .await
            .map_err(sdk_err)?;
        let mut items = out.items.unwrap_or_default().into_iter().map(from_attrs).collect::<Result<Vec<_>>>()?;
        let cursor = if items.len() > limit as usize {
            items.truncate(limit as usize);
            items.last().map(|last| cursor::encode(query.index, last))
        } else {
            // A short page with a LastEvaluatedKey: DynamoDB stopped at its
            // 1 MB page size, and more may follow.
            match out.last_evaluated_key {
                Some(_) if items.is_empty() => None,
                Some(_) => items.last().map(|last| cursor::encode(query.index, last)),
                None => None,
            }
        };
        Ok(Page { items, cursor })
    }

    async fn put_many(&self, items: Vec<Item>) -> Result<()> {
        crate::validate_put_many(&items)?;
        // BatchWriteItem takes at most 25 items and may hand some back as
        // unprocessed under load: send those again, backing off.
        for chunk in items.chunks(25) {
            let mut pending = chunk
                .iter()
                .map(|item| Ok(WriteRequest::builder().put_request(PutRequest::builder().set_item(Some(to_attrs(item)?)).build().map_err(build_err)?).build()))
                .collect::<Result<Vec<_>>>()?;
            for attempt in 0u32.. {
                let out = self
                    .client
                    .batch_write_item()
                    .request_items(&self.table, pending)
                    .send()
                    .await
                    .map_err(sdk_err)?;
                match out.unprocessed_items.unwrap_or_default().remove(&self.table) {
                    Some(rest) if !rest.is_empty() => {
                        if attempt >= 8 {
                            return Err(StoreError::Unavailable("dynamodb kept items unprocessed; try again".into()));
                        }
                        tokio::time::sleep(Duration::from_millis(20 << attempt)).await;
                        pending = rest;
                    }
                    _ => break,
                }
            }
        }
        Ok(())
    }

    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        crate::validate_transaction(&ops)?;
        let mut items = Vec::with_capacity(ops.len());
        for op in &ops {
            let (p, condition, update) = match op {
                TxOp::Update { actions, condition, .. } => {
                    eval::check_actions(actions)?;
                    expressions(condition.as_ref(), Some(actions))?
                }
                _ => expressions(op.condition(), None)?,
            };
            let item = match op {
                TxOp::Put { item, .. } => TransactWriteItem::builder().put(
                    Put::builder()
                        .table_name(&self.table)
                        .set_item(Some(to_attrs(item)?))
                        .set_condition_expression(condition)
                        .set_expression_attribute_names(p.names())
                        .set_expression_attribute_values(p.values())
                        .build()
                        .map_err(build_err)?,
                ),
                TxOp::Update { key, .. } => TransactWriteItem::builder().update(
                    Update::builder()
                        .table_name(&self.table)
                        .set_key(Some(key_attrs(key)))
                        .set_update_expression(update)
                        .set_condition_expression(condition)
                        .set_expression_attribute_names(p.names())
                        .set_expression_attribute_values(p.values())
                        .build()
                        .map_err(build_err)?,
                ),
                TxOp::Delete { key, .. } => TransactWriteItem::builder().delete(
                    Delete::builder()
                        .table_name(&self.table)
                        .set_key(Some(key_attrs(key)))
                        .set_condition_expression(condition)
                        .set_expression_attribute_names(p.names())
                        .set_expression_attribute_values(p.values())
                        .build()
                        .map_err(build_err)?,
                ),
                TxOp::Check { key, .. } => TransactWriteItem::builder().condition_check(
                    ConditionCheck::builder()
                        .table_name(&self.table)
                        .set_key(Some(key_attrs(key)))
                        .set_condition_expression(condition)
                        .set_expression_attribute_names(p.names())
                        .set_expression_attribute_values(p.values())
                        .build()
                        .map_err(build_err)?,
                ),
            };
            items.push(item.build());
        }
        // DynamoDB cancels a transaction that meets another one in flight on
        // the same item (`TransactionConflict`) and the SDK does not retry
        // that. Nothing was written, and the conditions are evaluated
        // afresh, so sending the same transaction again is safe.
        let mut attempt = 0;
        loop {
            let cancelled = match self.client.transact_write_items().set_transact_items(Some(items.clone())).send().await {
                Ok(_) => return Ok(()),
                Err(e) => match e.into_service_error() {
                    TransactWriteItemsError::TransactionCanceledException(cancel) => {
                        let codes: Vec<Option<&str>> = cancel.cancellation_reasons().iter().map(|r| r.code()).collect();
                        classify_cancellation(&codes)
                    }
                    other if other.code() == Some("ValidationException") => {
                        return Err(StoreError::Invalid(other.message().unwrap_or("invalid transaction").to_owned()));
                    }
                    other => return Err(StoreError::Unavailable(format!("dynamodb: {}", other.message().unwrap_or("transaction failed")))),
                },
            };
            match cancelled {
                Cancellation::ConditionsFailed(failed) => return Err(StoreError::TransactionCanceled { failed }),
                Cancellation::Conflict if attempt < TRANSACTION_CONFLICT_RETRIES => {
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(20 * attempt as u64)).await;
                }
                // Still racing after the retries: a concurrent write won,
                // which callers answer like a failed version check (409).
                Cancellation::Conflict => return Err(StoreError::TransactionCanceled { failed: Vec::new() }),
                Cancellation::Other => return Err(StoreError::Unavailable("dynamodb cancelled the transaction (throughput or a system error); try again".into())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{classify_cancellation, Cancellation};

    #[test]
    fn a_failed_condition_is_reported_with_its_positions() {
        let codes = [Some("None"), Some("ConditionalCheckFailed"), Some("TransactionConflict")];
        assert_eq!(classify_cancellation(&codes), Cancellation::ConditionsFailed(vec![1]));
    }

    #[test]
    fn only_conflicts_with_other_transactions_are_retryable() {
        assert_eq!(classify_cancellation(&[Some("None"), Some("TransactionConflict")]), Cancellation::Conflict);
        assert_eq!(classify_cancellation(&[None, Some("TransactionConflict")]), Cancellation::Conflict);
        assert_eq!(classify_cancellation(&[Some("TransactionConflict"), Some("ProvisionedThroughputExceeded")]), Cancellation::Other);
        assert_eq!(classify_cancellation(&[Some("ThrottlingError")]), Cancellation::Other);
        assert_eq!(classify_cancellation(&[Some("None")]), Cancellation::Other);
    }
}
