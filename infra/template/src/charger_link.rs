//! The charger link stack: an API Gateway WebSocket API (`$connect`,
//! `$default` with a two-way route response, `$disconnect`), one Lambda
//! function per route plus the sweeper on an EventBridge schedule (the list
//! is `ocpp::LINK_FUNCTIONS`), each with only the DynamoDB actions and
//! partition keys it uses and a reserved concurrency of its own; the
//! CloudFront Function that lets chargers use `wss://HOST/ocpp/{id}` (API
//! Gateway takes no path after the stage); and, with a charger domain, a
//! distribution of the chargers' own on the operator's name, so chargers
//! keep their address whatever happens to the site's distribution.

use crate::common::{
    alarm, code_uri_in_stack, function_globals, lambda_alarms, log_group, manage_connections_statement, not_empty, policy_document,
    secrets_statement, shared_variables, table_statements, tags_list, tags_map, wire_table_and_secrets, with_functions, ws_endpoint_variable, Metric,
    Rule, Stack, Watch, CHARGER_STAGE,
};
use crate::routes::logical_id;
use crate::yaml::{get_att, if_, list, map, no_value, raw, reference, s, sub, Y};

pub const ID: &str = "ChargerLink";
const AREA: &str = "charger-link";
pub const API: &str = "ChargerWebSocketApi";
pub const PATH_REWRITE: &str = "ChargerPathRewrite";

/// The metric the sweeper publishes: the age in seconds of the oldest
/// remote command still queued. The queue-age alarm watches it.
pub use backoffice::domain::chargers::commands::{QUEUE_AGE_DIMENSION, QUEUE_AGE_METRIC, QUEUE_AGE_NAMESPACE};
/// A command queued this long has been missed: the sweeper pumps anything
/// older than a few seconds, and a call times out long before.
pub const QUEUE_AGE_ALARM_SECONDS: u32 = 300;

// Managed CloudFront policies (fixed IDs, the same in every account).
pub const CACHING_DISABLED: &str = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
// All viewer headers (Authorization and Sec-WebSocket-* included) except
// Host, which API Gateway must see as its own domain, plus CloudFront's
// viewer-location headers.
pub const ALL_VIEWER_EXCEPT_HOST_HEADER: &str = "b689b0a8-53d0-40ab-baf2-68738e2966ac";
/// CloudFront's hosted zone, the target of every alias record to a distribution.
const CLOUDFRONT_ZONE: &str = "Z2FDTNDATAQYW2";

pub fn stack() -> Stack {
    let mut st = Stack::new(ID, "charger-link", AREA, "EV-charging back-office: the charger link (OCPP-J over an API Gateway WebSocket API, its Lambda functions, the chargers' edge)");
    with_functions(&mut st);
    // No JwtSecretName: the charger link issues and verifies no tokens.
    wire_table_and_secrets(&mut st);
    for p in [
        "ChargerRateLimit",
        "ChargerBurstLimit",
        "ChargerMessageConcurrency",
        "ChargerConnectConcurrency",
        "ChargerDisconnectConcurrency",
        "ChargerAccessLog",
        "ChargerDomainName",
        "ChargerCertificateArn",
        "HostedZoneId",
        "ChargerTlsPolicy",
    ] {
        st.param(p);
    }
    st.with_alarms();
    st.condition("ChargerAccessLogOn", raw("!Equals [!Ref ChargerAccessLog, 'true']"));
    st.condition("HasChargerDomain", not_empty("ChargerDomainName"));
    st.condition("MakeChargerCertificate", raw("!And [!Condition HasChargerDomain, !Equals [!Ref ChargerCertificateArn, '']]"));
    st.condition("WriteChargerRecords", raw("!And [!Condition HasChargerDomain, !Not [!Equals [!Ref HostedZoneId, '']]]"));
    st.globals = Some(function_globals(AREA, shared_variables(false)));

    st.add(API, websocket_api());
    for f in ocpp::LINK_FUNCTIONS {
        let id = logical_id(f.function);
        st.add(&id, function(f));
        let (log_id, log) = log_group(&id, AREA);
        st.add(log_id, log);
        if let Some(key) = f.route_key {
            for (rid, r) in route_resources(f, key) {
                st.add(rid, r);
            }
        }
    }
    st.add("ChargerStage", stage());
    st.add("ChargerAccessLogs", access_log_group());
    st.add("SweeperFailures", sweeper_failures());
    st.add(PATH_REWRITE, path_rewrite());
    st.add("ChargerCertificate", certificate());
    st.add("ChargerDistribution", distribution());
    st.add("ChargerDnsRecords", dns_records());
    let ids: Vec<String> = ocpp::LINK_FUNCTIONS.iter().map(|f| logical_id(f.function)).collect();
    for (id, a) in lambda_alarms(AREA, "Link", &ids) {
        st.add(id, a);
    }
    for (id, a) in websocket_alarms() {
        st.add(id, a);
    }
    for (id, a) in sweeper_alarms() {
        st.add(id, a);
    }

    st.output("ChargerApiId", "The chargers' WebSocket API (the command routes post to its connections)", reference(API));
    st.output(
        "ChargerWebSocketEndpoint",
        "The WebSocket API stage (CloudFront sends /ocpp/{id} here as ?cp={id})",
        sub(&format!("wss://${{{API}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}/{CHARGER_STAGE}")),
    );
    st.output("ChargerPathRewriteArn", "The CloudFront Function rewriting /ocpp/{id} (the site's distribution uses it too)", get_att(&format!("{PATH_REWRITE}.FunctionARN")));
    st.output(
        "ChargerDistributionDomain",
        "Point ChargerDomainName here (a CNAME or alias) when the stack writes no DNS record; empty without a charger domain",
        if_("HasChargerDomain", get_att("ChargerDistribution.DomainName"), s("")),
    );
    st
}

fn websocket_api() -> Y {
    map([
        ("Type", s("AWS::ApiGatewayV2::Api")),
        (
            "Properties",
            map([
                ("Name", sub("${AWS::StackName}-chargers")),
                ("Description", s("The charger link: OCPP-J over WebSocket (chargers connect through CloudFront at /ocpp/{id})")),
                ("ProtocolType", s("WEBSOCKET")),
                // OCPP frames are JSON arrays: nothing selects a route, so every frame goes to $default.
                ("RouteSelectionExpression", s("$request.body.action")),
                ("Tags", tags_map(AREA)),
            ]),
        ),
    ])
}

/// The reserved concurrency of each function: the link's own share of the
/// account's concurrency, so the back-office API cannot starve it, and its
/// ceiling, so it cannot starve the API. The sweeper runs one at a time.
fn reserved_concurrency(function: &str) -> Y {
    match function {
        "ocpp_connect" => reference("ChargerConnectConcurrency"),
        "ocpp_message" => reference("ChargerMessageConcurrency"),
        "ocpp_disconnect" => reference("ChargerDisconnectConcurrency"),
        "ocpp_sweeper" => raw("1"),
        other => panic!("{other}: no reserved concurrency chosen for this charger-link function"),
    }
}

fn function(f: &ocpp::LinkFunction) -> Y {
    // The table actions it uses on the key families it touches
    // (backoffice::iam::link_policy); TransactWriteItems is authorised per
    // item by the item actions.
    let policy = backoffice::iam::link_policy(f.function).unwrap_or_else(|| panic!("{} declares no key families in backoffice::iam", f.function));
    let mut statements = table_statements(&policy);
    // The sweeper closes sockets and sends the next queued call after a
    // timeout; $default sends it after an answer; $disconnect sends it to
    // the charger's newer connection when the old one ends.
    let sends = matches!(f.route_key, None | Some("$default") | Some("$disconnect"));
    let mut variables = vec![("BACKOFFICE_FUNCTION", s(f.function))];
    if sends {
        variables.push(ws_endpoint_variable(API));
        statements.push(manage_connections_statement(API));
    }
    statements.push(secrets_statement(false));
    let mut props = vec![
        ("Description", s(format!("Charger link: {}", f.summary))),
        ("CodeUri", s(code_uri_in_stack())),
        ("Environment", map([("Variables", map(variables))])),
        ("ReservedConcurrentExecutions", reserved_concurrency(f.function)),
    ];
    if f.route_key.is_none() {
        props.push(("Timeout", raw("60")));
        props.push((
            "Events",
            map([("EveryMinute", map([("Type", s("Schedule")), ("Properties", map([("Schedule", s("rate(1 minute)")), ("Description", s("Charger link sweeper"))]))]))]),
        ));
        // A failed sweep is not retried (the next minute's sweep does the
        // work again); it is kept in the failure queue, which alarms. A
        // sweep still waiting after a minute (the previous one holds the
        // single slot) goes there too.
        props.push((
            "EventInvokeConfig",
            map([
                ("MaximumRetryAttempts", raw("0")),
                ("MaximumEventAgeInSeconds", raw("60")),
                ("DestinationConfig", map([("OnFailure", map([("Type", s("SQS")), ("Destination", get_att("SweeperFailures.Arn"))]))])),
            ]),
        ));
    }
    props.push(("Policies", list([policy_document(statements)])));
    map([("Type", s("AWS::Serverless::Function")), ("Properties", map(props))])
}

fn pascal(route_key: &str) -> String {
    let name = route_key.trim_start_matches('$');
    let mut c = name.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// Integration, route (and the `$default` route response) and the
/// permission for API Gateway to invoke the function.
fn route_resources(f: &ocpp::LinkFunction, route_key: &str) -> Vec<(String, Y)> {
    let name = pascal(route_key);
    let fn_id = logical_id(f.function);
    let integration = map([
        ("Type", s("AWS::ApiGatewayV2::Integration")),
        (
            "Properties",
            map([
                ("ApiId", reference(API)),
                ("IntegrationType", s("AWS_PROXY")),
                ("IntegrationUri", sub(&format!("arn:${{AWS::Partition}}:apigateway:${{AWS::Region}}:lambda:path/2015-03-31/functions/${{{fn_id}.Arn}}/invocations"))),
            ]),
        ),
    ]);
    let mut route_props = vec![
        ("ApiId", reference(API)),
        ("RouteKey", s(route_key)),
        ("AuthorizationType", s("NONE")),
        ("Target", sub(&format!("integrations/${{Charger{name}Integration}}"))),
    ];
    if route_key == "$default" {
        // Two-way: the function's return value is sent back on the socket.
        route_props.push(("RouteResponseSelectionExpression", s("$default")));
    }
    let mut out = vec![
        (format!("Charger{name}Integration"), integration),
        (format!("Charger{name}Route"), map([("Type", s("AWS::ApiGatewayV2::Route")), ("Properties", map(route_props))])),
        (
            format!("Charger{name}Permission"),
            map([
                ("Type", s("AWS::Lambda::Permission")),
                (
                    "Properties",
                    map([
                        ("Action", s("lambda:InvokeFunction")),
                        ("FunctionName", reference(&fn_id)),
                        ("Principal", s("apigateway.amazonaws.com")),
                        ("SourceArn", sub(&format!("arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{{API}}}/*"))),
                    ]),
                ),
            ]),
        ),
    ];
    if route_key == "$default" {
        out.push((
            format!("Charger{name}RouteResponse"),
            map([
                ("Type", s("AWS::ApiGatewayV2::RouteResponse")),
                ("Properties", map([("ApiId", reference(API)), ("RouteId", reference(&format!("Charger{name}Route"))), ("RouteResponseKey", s("$default"))])),
            ]),
        ));
    }
    out
}

/// One JSON line per connection event and message (opt-in).
const ACCESS_LOG_FORMAT: &str = r#"{"requestId":"$context.requestId","time":"$context.requestTime","connectionId":"$context.connectionId","eventType":"$context.eventType","route":"$context.routeKey","status":"$context.status","sourceIp":"$context.identity.sourceIp","latencyMs":"$context.integrationLatency","error":"$context.error.message","integrationError":"$context.integrationErrorMessage"}"#;

fn stage() -> Y {
    map([
        ("Type", s("AWS::ApiGatewayV2::Stage")),
        (
            "Properties",
            map([
                ("ApiId", reference(API)),
                ("StageName", s(CHARGER_STAGE)),
                ("AutoDeploy", raw("true")),
                ("Description", s("Chargers reach it as wss://HOST/ocpp/{chargePointId} through CloudFront")),
                // Sized from the cost model's fleet (infra/deploy/README.md).
                (
                    "DefaultRouteSettings",
                    map([("ThrottlingBurstLimit", reference("ChargerBurstLimit")), ("ThrottlingRateLimit", reference("ChargerRateLimit"))]),
                ),
                // A WebSocket stage logs only through API Gateway's
                // account-wide CloudWatch role, which one stack should not
                // set for a whole account: opt-in. The link functions' own
                // log groups record every connection and message anyway.
                (
                    "AccessLogSettings",
                    if_(
                        "ChargerAccessLogOn",
                        map([("DestinationArn", get_att("ChargerAccessLogs.Arn")), ("Format", s(ACCESS_LOG_FORMAT))]),
                        no_value(),
                    ),
                ),
                ("Tags", tags_map(AREA)),
            ]),
        ),
    ])
}

fn access_log_group() -> Y {
    map([
        ("Type", s("AWS::Logs::LogGroup")),
        ("Condition", s("ChargerAccessLogOn")),
        (
            "Properties",
            map([
                ("LogGroupName", sub("/aws/apigateway/${AWS::StackName}-chargers-access")),
                ("RetentionInDays", reference("LogRetentionDays")),
                ("Tags", tags_list(AREA)),
            ]),
        ),
    ])
}

/// Where a failed sweep lands (two weeks, encrypted).
fn sweeper_failures() -> Y {
    map([
        ("Type", s("AWS::SQS::Queue")),
        (
            "Properties",
            map([("MessageRetentionPeriod", raw("1209600")), ("SqsManagedSseEnabled", raw("true")), ("Tags", tags_list(AREA))]),
        ),
    ])
}

/// `/ocpp/{id}` -> `/{stage}?cp={id}` at the edge (CloudFront Functions, JS 2.0).
const REWRITE_JS: &str = "function handler(event) { var r = event.request; var m = r.uri.match(/^\\/ocpp\\/([^\\/]+)\\/?$/); if (!m) { return { statusCode: 404, statusDescription: 'Not Found' }; } r.uri = '/STAGE'; r.querystring = { cp: { value: m[1] } }; return r; }";

/// The rewrite's code, as deployed.
pub fn rewrite_js() -> String {
    REWRITE_JS.replace("STAGE", CHARGER_STAGE)
}

fn path_rewrite() -> Y {
    map([
        ("Type", s("AWS::CloudFront::Function")),
        (
            "Properties",
            map([
                ("Name", sub("${AWS::StackName}-ocpp-path")),
                ("AutoPublish", raw("true")),
                ("FunctionConfig", map([("Comment", s("Charger URL /ocpp/{id} to the WebSocket stage with ?cp={id}")), ("Runtime", s("cloudfront-js-2.0"))])),
                ("FunctionCode", s(rewrite_js())),
            ]),
        ),
    ])
}

/// The CloudFront origin of the WebSocket API (`api`: how the template
/// names the API's id: the resource here, a parameter in the site's stack).
pub fn origin(api: &str) -> Y {
    map([
        ("Id", s("chargers")),
        ("DomainName", sub(&format!("${{{api}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}"))),
        ("CustomOriginConfig", map([("OriginProtocolPolicy", s("https-only")), ("OriginSSLProtocols", list([s("TLSv1.2")]))])),
        // With it `$connect` believes CloudFront-Viewer-Address: the
        // charger's own address, which the handshake throttle counts by.
        (
            "OriginCustomHeaders",
            list([map([("HeaderName", s(backoffice::client_ip::ORIGIN_VERIFY_HEADER)), ("HeaderValue", sub(crate::web_edge::ORIGIN_VERIFY_RESOLVE))])]),
        ),
    ])
}

/// `/ocpp/*` (or everything, on the chargers' own distribution): no
/// caching; every viewer header (Authorization, Sec-WebSocket-*) and the
/// query string reach API Gateway; the rewrite runs first.
pub fn behavior(path_pattern: Option<&str>, rewrite_arn: Y) -> Y {
    let mut m = Vec::new();
    if let Some(p) = path_pattern {
        m.push(("PathPattern", s(p)));
    }
    m.extend([
        ("TargetOriginId", s("chargers")),
        ("ViewerProtocolPolicy", s("https-only")),
        ("AllowedMethods", list([s("GET"), s("HEAD")])),
        ("CachedMethods", list([s("GET"), s("HEAD")])),
        ("CachePolicyId", s(CACHING_DISABLED)),
        ("OriginRequestPolicyId", s(ALL_VIEWER_EXCEPT_HOST_HEADER)),
        ("FunctionAssociations", list([map([("EventType", s("viewer-request")), ("FunctionARN", rewrite_arn)])])),
        ("Compress", raw("false")),
    ]);
    map(m)
}

/// The charger domain's certificate, when none is given: DNS-validated in
/// the hosted zone (CloudFront needs it in us-east-1: a rule of the root
/// template asks for ChargerCertificateArn elsewhere).
fn certificate() -> Y {
    map([
        ("Type", s("AWS::CertificateManager::Certificate")),
        ("Condition", s("MakeChargerCertificate")),
        (
            "Properties",
            map([
                ("DomainName", reference("ChargerDomainName")),
                ("ValidationMethod", s("DNS")),
                ("DomainValidationOptions", list([map([("DomainName", reference("ChargerDomainName")), ("HostedZoneId", reference("HostedZoneId"))])])),
                ("Tags", tags_list(AREA)),
            ]),
        ),
    ])
}

/// The chargers' own distribution on the operator's name, TLS 1.2 or newer.
fn distribution() -> Y {
    map([
        ("Type", s("AWS::CloudFront::Distribution")),
        ("Condition", s("HasChargerDomain")),
        (
            "Properties",
            map([
                (
                    "DistributionConfig",
                    map([
                        ("Enabled", raw("true")),
                        ("Comment", sub("${AWS::StackName} chargers (wss://${ChargerDomainName}/ocpp/{id})")),
                        ("Aliases", list([reference("ChargerDomainName")])),
                        ("HttpVersion", s("http1.1")),
                        ("IPV6Enabled", raw("true")),
                        ("PriceClass", s("PriceClass_100")),
                        ("Origins", list([origin(API)])),
                        // Anything but /ocpp/{id} gets the rewrite's 404.
                        ("DefaultCacheBehavior", behavior(None, get_att(&format!("{PATH_REWRITE}.FunctionARN")))),
                        (
                            "ViewerCertificate",
                            map([
                                ("AcmCertificateArn", raw("!If [MakeChargerCertificate, !Ref ChargerCertificate, !Ref ChargerCertificateArn]")),
                                ("SslSupportMethod", s("sni-only")),
                                ("MinimumProtocolVersion", reference("ChargerTlsPolicy")),
                            ]),
                        ),
                    ]),
                ),
                ("Tags", tags_list(AREA)),
            ]),
        ),
    ])
}

fn dns_records() -> Y {
    let record = |kind: &str| {
        map([
            ("Name", reference("ChargerDomainName")),
            ("Type", s(kind)),
            ("AliasTarget", map([("DNSName", get_att("ChargerDistribution.DomainName")), ("HostedZoneId", s(CLOUDFRONT_ZONE))])),
        ])
    };
    map([
        ("Type", s("AWS::Route53::RecordSetGroup")),
        ("Condition", s("WriteChargerRecords")),
        ("Properties", map([("HostedZoneId", reference("HostedZoneId")), ("RecordSets", list([record("A"), record("AAAA")]))])),
    ])
}

fn ws_dims() -> Vec<(&'static str, Y)> {
    vec![("ApiId", reference(API)), ("Stage", s(CHARGER_STAGE))]
}

fn websocket_alarms() -> Vec<(String, Y)> {
    let ws = |name| Metric::new("AWS/ApiGateway", name, "Sum", ws_dims());
    vec![
        (
            "ChargerClientErrorAlarm".into(),
            alarm(
                AREA,
                "charger-link: over 5% of connection attempts and messages refused with 4xx for 15 minutes (wrong passwords, unknown chargers, throttling)".into(),
                Watch::Math {
                    expression: "IF(FILL(m1, 0) + FILL(m2, 0) > 0, 100 * FILL(m0, 0) / (FILL(m1, 0) + FILL(m2, 0)), 0)".into(),
                    label: "4xx, % of connects and messages".into(),
                    metrics: vec![ws("ClientError"), ws("ConnectCount"), ws("MessageCount")],
                },
                Rule { comparison: "GreaterThanThreshold", threshold: 5.0, period: 300, periods: 3, datapoints: 3, missing: "notBreaching" },
            ),
        ),
        (
            "ChargerExecutionErrorAlarm".into(),
            alarm(
                AREA,
                "charger-link: the WebSocket API failed requests itself (5xx)".into(),
                Watch::Metric(ws("ExecutionError")),
                Rule::at_least_in_5_minutes(1.0),
            ),
        ),
        (
            "ChargerIntegrationErrorAlarm".into(),
            alarm(
                AREA,
                "charger-link: a charger-link function failed or timed out behind the WebSocket API".into(),
                Watch::Metric(ws("IntegrationError")),
                Rule::at_least_in_5_minutes(1.0),
            ),
        ),
    ]
}

fn sweeper_alarms() -> Vec<(String, Y)> {
    let sweeper = logical_id("ocpp_sweeper");
    vec![
        (
            "SweeperNotRunningAlarm".into(),
            alarm(
                AREA,
                "charger-link: the sweeper ran fewer than 3 times in 5 minutes (its schedule runs it every minute)".into(),
                Watch::Metric(Metric::new("AWS/Lambda", "Invocations", "Sum", vec![("FunctionName", reference(&sweeper))])),
                Rule { comparison: "LessThanThreshold", threshold: 3.0, period: 300, periods: 1, datapoints: 1, missing: "breaching" },
            ),
        ),
        (
            "SweeperFailureAlarm".into(),
            alarm(
                AREA,
                "charger-link: a sweep failed or could not start; it is kept in the SweeperFailures queue".into(),
                Watch::Metric(Metric::new("AWS/SQS", "ApproximateNumberOfMessagesVisible", "Maximum", vec![("QueueName", get_att("SweeperFailures.QueueName"))])),
                Rule::at_least_in_5_minutes(1.0),
            ),
        ),
        (
            "CommandQueueAgeAlarm".into(),
            alarm(
                AREA,
                format!("charger-link: a remote command has waited in the queue over {QUEUE_AGE_ALARM_SECONDS} s (the sweeper publishes {QUEUE_AGE_NAMESPACE} {QUEUE_AGE_METRIC})"),
                Watch::Metric(Metric::new(QUEUE_AGE_NAMESPACE, QUEUE_AGE_METRIC, "Maximum", vec![(QUEUE_AGE_DIMENSION, reference("TableName"))])),
                Rule {
                    comparison: "GreaterThanThreshold",
                    threshold: QUEUE_AGE_ALARM_SECONDS as f64,
                    period: 60,
                    periods: 3,
                    datapoints: 3,
                    missing: "notBreaching",
                },
            ),
        ),
    ]
}
