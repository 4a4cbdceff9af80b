//! The charger link's part of the template: an API Gateway WebSocket API
//! (`$connect`, `$default` with a two-way route response, `$disconnect`),
//! one Lambda function per route plus the sweeper on an EventBridge
//! schedule (the list is `ocpp::LINK_FUNCTIONS`), each with only the
//! DynamoDB actions and partition keys it uses, and the CloudFront pieces that let chargers
//! use `wss://HOST/ocpp/{id}` (API Gateway takes no path after the stage).

use crate::yaml::{get_att, list, map, raw, reference, s, sub, Y};
use crate::{function_environment, logical_id, CODE_URI};

/// The WebSocket API's stage; also the path CloudFront rewrites to.
pub const STAGE: &str = "ocpp";
pub const API: &str = "ChargerWebSocketApi";
pub const PATH_REWRITE: &str = "ChargerPathRewrite";

fn statement(actions: &[&str], resources: Vec<Y>) -> Y {
    map([("Effect", s("Allow")), ("Action", list(actions.iter().map(|a| s(*a)))), ("Resource", list(resources))])
}

fn function(f: &ocpp::LinkFunction) -> Y {
    // The table actions it uses on the key families it touches
    // (backoffice::iam::link_policy); TransactWriteItems is authorised per
    // item by the item actions.
    let policy = backoffice::iam::link_policy(f.function).unwrap_or_else(|| panic!("{} declares no key families in backoffice::iam", f.function));
    let mut statements = crate::table_statements(&policy);
    // The sweeper closes sockets and sends the next queued call after a
    // timeout; $default sends it after an answer; $disconnect sends it to
    // the charger's newer connection when the old one ends.
    let sends = matches!(f.route_key, None | Some("$default") | Some("$disconnect"));
    let mut props = vec![
        ("Description", s(format!("Charger link: {}", f.summary))),
        ("CodeUri", s(CODE_URI)),
        // No JWT secret: the charger link issues and verifies no tokens.
        ("Environment", function_environment(f.function, false, sends)),
    ];
    if sends {
        statements.push(manage_connections_statement());
    }
    statements.push(crate::secrets_statement(false));
    if f.route_key.is_none() {
        props.push(("Timeout", raw("60")));
        props.push((
            "Events",
            map([("EveryMinute", map([("Type", s("Schedule")), ("Properties", map([("Schedule", s("rate(1 minute)")), ("Description", s("Charger link sweeper"))]))]))]),
        ));
    }
    props.push(("Policies", list([crate::policy_document(statements)])));
    map([("Type", s("AWS::Serverless::Function")), ("Properties", map(props))])
}

fn manage_connections_statement() -> Y {
    statement(
        &["execute-api:ManageConnections"],
        vec![sub(&format!("arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{{API}}}/{STAGE}/*/@connections/*"))],
    )
}

/// PostToConnection / DeleteConnection on this API's connections only.
pub fn manage_connections_policy() -> Y {
    crate::policy_document(vec![manage_connections_statement()])
}

/// `BACKOFFICE_WS_ENDPOINT`: the `@connections` endpoint of the stage.
pub fn ws_endpoint_variable() -> (&'static str, Y) {
    ("BACKOFFICE_WS_ENDPOINT", sub(&format!("https://${{{API}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}/{STAGE}")))
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

/// `/ocpp/{id}` -> `/{stage}?cp={id}` at the edge (CloudFront Functions, JS 2.0).
const REWRITE_JS: &str = "function handler(event) { var r = event.request; var m = r.uri.match(/^\\/ocpp\\/([^\\/]+)\\/?$/); if (!m) { return { statusCode: 404, statusDescription: 'Not Found' }; } r.uri = '/STAGE'; r.querystring = { cp: { value: m[1] } }; return r; }";

pub fn resources() -> Vec<(String, Y)> {
    let mut out = vec![(
        API.to_string(),
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
                ]),
            ),
        ]),
    )];
    for f in ocpp::LINK_FUNCTIONS {
        out.push((logical_id(f.function), function(f)));
        out.push(crate::log_group(&logical_id(f.function)));
        if let Some(key) = f.route_key {
            out.extend(route_resources(f, key));
        }
    }
    out.push((
        "ChargerStage".to_string(),
        map([
            ("Type", s("AWS::ApiGatewayV2::Stage")),
            (
                "Properties",
                map([
                    ("ApiId", reference(API)),
                    ("StageName", s(STAGE)),
                    ("AutoDeploy", raw("true")),
                    ("Description", s("Chargers reach it as wss://SITE/ocpp/{chargePointId} through CloudFront")),
                    // No access log on this stage: a WebSocket API logs
                    // only through API Gateway's account-wide CloudWatch
                    // role, which one stack should not set for a whole
                    // account. The link functions' own log groups (kept
                    // LogRetentionDays) record every connection and message.
                    ("DefaultRouteSettings", map([("ThrottlingBurstLimit", raw("500")), ("ThrottlingRateLimit", raw("1000"))])),
                ]),
            ),
        ]),
    ));
    out.push((
        PATH_REWRITE.to_string(),
        map([
            ("Type", s("AWS::CloudFront::Function")),
            (
                "Properties",
                map([
                    ("Name", sub("${AWS::StackName}-ocpp-path")),
                    ("AutoPublish", raw("true")),
                    ("FunctionConfig", map([("Comment", s("Charger URL /ocpp/{id} to the WebSocket stage with ?cp={id}")), ("Runtime", s("cloudfront-js-2.0"))])),
                    ("FunctionCode", s(REWRITE_JS.replace("STAGE", STAGE))),
                ]),
            ),
        ]),
    ));
    out
}

/// The CloudFront origin of the WebSocket API.
pub fn origin() -> Y {
    map([
        ("Id", s("chargers")),
        ("DomainName", sub(&format!("${{{API}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}"))),
        ("CustomOriginConfig", map([("OriginProtocolPolicy", s("https-only")), ("OriginSSLProtocols", list([s("TLSv1.2")]))])),
        // With it `$connect` believes CloudFront-Viewer-Address: the
        // charger's own address, which the handshake throttle counts by.
        (
            "OriginCustomHeaders",
            list([map([("HeaderName", s(backoffice::client_ip::ORIGIN_VERIFY_HEADER)), ("HeaderValue", sub(crate::ORIGIN_VERIFY_RESOLVE))])]),
        ),
    ])
}

/// `/ocpp/*`: no caching; every viewer header (Authorization,
/// Sec-WebSocket-*) and the query string reach API Gateway.
pub fn behavior(caching_disabled: &str, all_viewer_except_host: &str) -> Y {
    map([
        ("PathPattern", s("/ocpp/*")),
        ("TargetOriginId", s("chargers")),
        ("ViewerProtocolPolicy", s("https-only")),
        ("AllowedMethods", list([s("GET"), s("HEAD")])),
        ("CachedMethods", list([s("GET"), s("HEAD")])),
        ("CachePolicyId", s(caching_disabled)),
        ("OriginRequestPolicyId", s(all_viewer_except_host)),
        ("FunctionAssociations", list([map([("EventType", s("viewer-request")), ("FunctionARN", get_att(&format!("{PATH_REWRITE}.FunctionARN")))])])),
        ("Compress", raw("false")),
    ])
}

pub fn outputs() -> Vec<(&'static str, Y)> {
    vec![
        ("ChargerUrl", map([("Description", s("What chargers are configured with (security profile 2: TLS + Basic auth)")), ("Value", sub("wss://${SiteDistribution.DomainName}/ocpp/{chargePointId}"))])),
        ("ChargerWebSocketEndpoint", map([("Description", s("The WebSocket API stage (CloudFront sends /ocpp/{id} here as ?cp={id})")), ("Value", sub(&format!("wss://${{{API}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}/{STAGE}")))])),
    ]
}
