//! The data stack: the single DynamoDB table (its indexes from
//! `store::Index::ALL`), kept when the stack goes and protected from
//! deletion, its daily AWS Backup plan, and its throttle and error alarms.

use store::Index;

use crate::common::{alarm, tags_list, tags_map, trusted_service, Metric, Rule, Stack, Watch};
use crate::yaml::{list, map, raw, reference, s, sub, sub_with, Y};

pub const ID: &str = "Data";
const AREA: &str = "data";

/// The table's name, whichever way it came (made here or kept from before).
fn table_name() -> Y {
    raw("!If [MakeTable, !Ref Table, !Ref ExistingTableName]")
}

pub fn stack() -> Stack {
    let mut st = Stack::new(ID, "data", AREA, "EV-charging back-office: the DynamoDB table, its backups and alarms");
    st.param("ExistingTableName");
    st.param("BackupRetentionDays");
    st.with_alarms();
    st.condition("MakeTable", raw("!Equals [!Ref ExistingTableName, '']"));
    st.add("Table", table());
    st.add("BackupVault", backup_vault());
    st.add("BackupRole", backup_role());
    st.add("BackupPlan", backup_plan());
    st.add("BackupSelection", backup_selection());
    st.add("TableThrottleAlarm", throttle_alarm());
    st.add("TableSystemErrorAlarm", system_error_alarm());
    st.output("TableName", "The DynamoDB table", table_name());
    st.output(
        "TableArn",
        "The table's ARN (the functions' policies are limited to it)",
        sub_with("arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${Name}", vec![("Name", table_name())]),
    );
    st
}

fn key_schema(pk: &str, sk: &str) -> Y {
    list([
        map([("AttributeName", s(pk)), ("KeyType", s("HASH"))]),
        map([("AttributeName", s(sk)), ("KeyType", s("RANGE"))]),
    ])
}

/// The attribute the table expires items by (epoch seconds): the one the
/// writers set (sessions, counters, the charger message log).
pub const TTL_ATTRIBUTE: &str = store::TTL_ATTRIBUTE;

fn table() -> Y {
    let mut key_attrs = vec![store::PK, store::SK];
    for index in Index::ALL {
        key_attrs.extend([index.pk_attr(), index.sk_attr()]);
    }
    let attributes = key_attrs.into_iter().map(|a| map([("AttributeName", s(a)), ("AttributeType", s("S"))]));
    let indexes = Index::ALL.into_iter().map(|index| {
        map([
            ("IndexName", s(index.name())),
            ("KeySchema", key_schema(index.pk_attr(), index.sk_attr())),
            ("Projection", map([("ProjectionType", s("ALL"))])),
        ])
    });
    map([
        ("Type", s("AWS::DynamoDB::Table")),
        ("Condition", s("MakeTable")),
        // The data outlives the stack: deleting or replacing it keeps the table.
        ("DeletionPolicy", s("Retain")),
        ("UpdateReplacePolicy", s("Retain")),
        (
            "Properties",
            map([
                ("BillingMode", s("PAY_PER_REQUEST")),
                ("AttributeDefinitions", list(attributes)),
                ("KeySchema", key_schema(store::PK, store::SK)),
                ("GlobalSecondaryIndexes", list(indexes)),
                // Sessions, counters and the charger message log carry an
                // epoch-seconds `ttl` so DynamoDB drops them once they are long dead.
                ("TimeToLiveSpecification", map([("AttributeName", s(TTL_ATTRIBUTE)), ("Enabled", raw("true"))])),
                ("PointInTimeRecoverySpecification", map([("PointInTimeRecoveryEnabled", raw("true"))])),
                ("SSESpecification", map([("SSEEnabled", raw("true"))])),
                // Nobody deletes it by accident, in the console or the API:
                // turning this off is a deliberate update first.
                ("DeletionProtectionEnabled", raw("true")),
                ("Tags", tags_list(AREA)),
            ]),
        ),
    ])
}

/// Backups outlive the stack like the table: a vault holding recovery
/// points cannot be deleted anyway.
fn backup_vault() -> Y {
    map([
        ("Type", s("AWS::Backup::BackupVault")),
        ("DeletionPolicy", s("Retain")),
        ("UpdateReplacePolicy", s("Retain")),
        (
            "Properties",
            map([
                // Unique per account and region, at most 50 characters:
                // the stack's own id (a UUID) rather than its long name.
                ("BackupVaultName", raw("!Join ['-', ['backoffice', !Select [2, !Split ['/', !Ref 'AWS::StackId']]]]")),
                ("BackupVaultTags", tags_map(AREA)),
            ]),
        ),
    ])
}

fn backup_role() -> Y {
    map([
        ("Type", s("AWS::IAM::Role")),
        (
            "Properties",
            map([
                ("Description", sub("${AWS::StackName}: AWS Backup backs up and restores the table")),
                ("AssumeRolePolicyDocument", trusted_service("backup.amazonaws.com")),
                (
                    "ManagedPolicyArns",
                    list([
                        sub("arn:${AWS::Partition}:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup"),
                        sub("arn:${AWS::Partition}:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForRestores"),
                    ]),
                ),
                ("Tags", tags_list(AREA)),
            ]),
        ),
    ])
}

fn backup_plan() -> Y {
    map([
        ("Type", s("AWS::Backup::BackupPlan")),
        (
            "Properties",
            map([
                (
                    "BackupPlan",
                    map([
                        ("BackupPlanName", sub("${AWS::StackName}-table")),
                        (
                            "BackupPlanRule",
                            list([map([
                                ("RuleName", s("daily")),
                                ("TargetBackupVault", reference("BackupVault")),
                                // 03:00 UTC, outside China's and Europe's working day.
                                ("ScheduleExpression", s("cron(0 3 * * ? *)")),
                                ("StartWindowMinutes", raw("60")),
                                ("CompletionWindowMinutes", raw("360")),
                                ("Lifecycle", map([("DeleteAfterDays", reference("BackupRetentionDays"))])),
                                ("RecoveryPointTags", tags_map(AREA)),
                            ])]),
                        ),
                    ]),
                ),
                ("BackupPlanTags", tags_map(AREA)),
            ]),
        ),
    ])
}

fn backup_selection() -> Y {
    map([
        ("Type", s("AWS::Backup::BackupSelection")),
        (
            "Properties",
            map([
                ("BackupPlanId", reference("BackupPlan")),
                (
                    "BackupSelection",
                    map([
                        ("SelectionName", s("table")),
                        ("IamRoleArn", crate::yaml::get_att("BackupRole.Arn")),
                        (
                            "Resources",
                            list([sub_with(
                                "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${Name}",
                                vec![("Name", table_name())],
                            )]),
                        ),
                    ]),
                ),
            ]),
        ),
    ])
}

fn table_dimension() -> Vec<(&'static str, Y)> {
    vec![("TableName", table_name())]
}

/// Read and write throttle events of the table and of each index (an
/// index that cannot keep up throttles the table's writes).
fn throttle_alarm() -> Y {
    let mut metrics = Vec::new();
    for name in ["ReadThrottleEvents", "WriteThrottleEvents"] {
        metrics.push(Metric::new("AWS/DynamoDB", name, "Sum", table_dimension()));
    }
    for index in Index::ALL {
        for name in ["ReadThrottleEvents", "WriteThrottleEvents"] {
            let mut dims = table_dimension();
            dims.push(("GlobalSecondaryIndexName", s(index.name())));
            metrics.push(Metric::new("AWS/DynamoDB", name, "Sum", dims));
        }
    }
    alarm(
        AREA,
        "data: DynamoDB throttled reads or writes of the table or an index (on-demand still throttles past twice the previous peak or a hot partition)".into(),
        Watch::Math { expression: "SUM(METRICS())".into(), label: "throttle events".into(), metrics },
        Rule::at_least_in_5_minutes(1.0),
    )
}

/// The operations the store adapter uses; DynamoDB reports its own
/// errors (HTTP 500) per operation only.
pub const OPERATIONS: [&str; 8] =
    ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "BatchGetItem", "BatchWriteItem", "TransactWriteItems"];

fn system_error_alarm() -> Y {
    let metrics = OPERATIONS
        .iter()
        .map(|op| {
            let mut dims = table_dimension();
            dims.push(("Operation", s(*op)));
            Metric::new("AWS/DynamoDB", "SystemErrors", "Sum", dims)
        })
        .collect();
    alarm(
        AREA,
        "data: DynamoDB answered requests on the table with its own errors (HTTP 500)".into(),
        Watch::Math { expression: "SUM(METRICS())".into(), label: "system errors".into(), metrics },
        Rule::at_least_in_5_minutes(1.0),
    )
}
