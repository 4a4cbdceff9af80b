//! The route stacks: one Lambda function per route of `backoffice::routes()`,
//! each with its own role (only the table actions and key families its
//! route declares), log group, and its route and integration on the HTTP
//! API of the API stack. The routes are split over a few stacks by the
//! first segment of their path, so no stack comes near CloudFormation's
//! 500 resources (six per route after the SAM transform: function, role,
//! log group, integration, route, permission).

use backoffice::routes::{Access, Route};

use crate::common::{
    code_uri_in_stack, function_arn, function_globals, lambda_alarms, log_group, manage_connections_statement, policy_document, secrets_statement,
    shared_variables, table_statements, wire_table_and_secrets, with_functions, ws_endpoint_variable, Stack,
};
use crate::yaml::{map, reference, s, sub, Y};

/// A stack of routes: its logical ID, file name, and the first path
/// segments it serves.
pub struct Group {
    pub id: &'static str,
    pub name: &'static str,
    pub what: &'static str,
    pub segments: &'static [&'static str],
}

/// Every route's first path segment belongs to exactly one group; a route
/// under a new segment makes the generator stop until it is added here.
pub const GROUPS: &[Group] = &[
    Group {
        id: "RoutesAccount",
        name: "routes-account",
        what: "signing in and out, the signed-in user, menus and search",
        segments: &["login", "index", "user", "register", "refreshToken", "publicKey", "expireToken", "socialLogin", "router", "search", "description", "remixIcon", "area", "goods"],
    },
    Group {
        id: "RoutesSettings",
        name: "routes-settings",
        what: "staff, roles, menus, departments, operations settings, the system log, notices and the demo pages",
        segments: &["userManagement", "roleManagement", "menuManagement", "departmentManagement", "operationSettings", "systemLog", "notice", "table", "workflow"],
    },
    Group {
        id: "RoutesCharging",
        name: "routes-charging",
        what: "orders, refunds, finance, stations, piles, connectors, tariffs and charging cards",
        segments: &["order", "money", "station", "pile", "connector", "tariff", "card"],
    },
    Group { id: "RoutesChargers", name: "routes-chargers", what: "the chargers' remote operations, status and message log", segments: &["charger"] },
];

/// The first segment of a route's path (`/order/getList` -> `order`).
pub fn segment(route: &Route) -> &'static str {
    route.path.trim_start_matches('/').split('/').next().unwrap_or_default()
}

/// The group a route's function lives in.
pub fn group_of(route: &Route) -> &'static Group {
    let seg = segment(route);
    GROUPS.iter().find(|g| g.segments.contains(&seg)).unwrap_or_else(|| {
        panic!(
            "route {} {}: its first path segment '{seg}' is in no route stack; add it to one of GROUPS in infra/template/src/routes.rs",
            route.method, route.path
        )
    })
}

/// The CloudFormation logical ID of a route's function: `login_index` ->
/// `LoginIndexFunction`.
pub fn logical_id(function: &str) -> String {
    let pascal: String = function
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect();
    format!("{pascal}Function")
}

/// Whether a route writes to the table. Every write is audited (the
/// dispatch records it in the system log, itself a write) and only reads
/// use GET without an audit, so this is the read/write split for IAM.
pub fn writes(route: &Route) -> bool {
    backoffice::iam::writes_data(route)
}

/// Command routes of the remote operations send to chargers.
pub fn sends_to_chargers(route: &Route) -> bool {
    (route.path.starts_with("/charger/") && writes(route)) || route.path == "/connector/doAction" || CLOSES_CHARGER_CONNECTIONS.contains(&route.path)
}

/// Routes that change a charger's credentials and so close its live
/// connection (DeleteConnection).
const CLOSES_CHARGER_CONNECTIONS: [&str; 2] = ["/pile/setPassword", "/pile/doEdit"];

fn access_text(access: Access) -> String {
    match access {
        Access::Public => "public".into(),
        Access::Session => "session, expired token accepted".into(),
        Access::SignedIn => "signed in".into(),
        Access::Permission(p) => format!("permission {p}"),
    }
}

pub fn stacks() -> Vec<Stack> {
    let routes = backoffice::routes();
    // Every route has a group before anything is written.
    for r in routes.iter() {
        group_of(r);
    }
    GROUPS
        .iter()
        .map(|g| {
            let mine: Vec<&Route> = routes.iter().filter(|r| std::ptr::eq(group_of(r), g)).collect();
            stack(g, &mine)
        })
        .collect()
}

fn stack(group: &Group, routes: &[&Route]) -> Stack {
    let area = group.name;
    let mut st = Stack::new(group.id, group.name, area, format!("EV-charging back-office: /partnerapi functions for {}", group.what));
    with_functions(&mut st);
    st.param("JwtSecretName");
    wire_table_and_secrets(&mut st);
    st.wire("HttpApiId", "The HTTP API the routes attach to (the API stack's output)", (crate::api::ID, "HttpApiId"));
    if routes.iter().any(|r| sends_to_chargers(r)) {
        st.wire("ChargerApiId", "The chargers' WebSocket API (the charger link stack's output)", (crate::charger_link::ID, "ChargerApiId"));
    }
    st.with_alarms();
    st.globals = Some(function_globals(area, shared_variables(true)));
    for route in routes {
        let id = logical_id(route.function);
        let base = id.trim_end_matches("Function").to_string();
        st.add(&id, function(route));
        let (log_id, log) = log_group(&id, area);
        st.add(log_id, log);
        st.add(format!("{base}Integration"), integration(&id));
        st.add(format!("{base}Route"), route_resource(route, &base));
        st.add(format!("{base}Permission"), permission(route, &id));
    }
    let ids: Vec<String> = routes.iter().map(|r| logical_id(r.function)).collect();
    let prefix = group.id.trim_start_matches("Routes");
    for (id, alarm) in lambda_alarms(area, prefix, &ids) {
        st.add(id, alarm);
    }
    st
}

fn function(route: &Route) -> Y {
    let description = format!("{} {}: {} ({})", route.method, route.full_path(), route.summary, access_text(route.access));
    let mut statements = table_statements(&backoffice::iam::policy(route));
    statements.push(secrets_statement(true));
    if sends_to_chargers(route) {
        // Remote operations post the call on the charger's socket.
        statements.push(manage_connections_statement("ChargerApiId"));
    }
    let mut variables = vec![("BACKOFFICE_FUNCTION", s(route.function))];
    if sends_to_chargers(route) {
        variables.push(ws_endpoint_variable("ChargerApiId"));
    }
    map([
        ("Type", s("AWS::Serverless::Function")),
        (
            "Properties",
            map([
                ("Description", s(description)),
                ("CodeUri", s(code_uri_in_stack())),
                ("Environment", map([("Variables", map(variables))])),
                ("Policies", crate::yaml::list([policy_document(statements)])),
            ]),
        ),
    ])
}

fn integration(function_id: &str) -> Y {
    map([
        ("Type", s("AWS::ApiGatewayV2::Integration")),
        (
            "Properties",
            map([
                ("ApiId", reference("HttpApiId")),
                ("IntegrationType", s("AWS_PROXY")),
                ("IntegrationUri", function_arn(function_id)),
                // The HTTP API event the functions read (lambda_http's v2).
                ("PayloadFormatVersion", s("2.0")),
            ]),
        ),
    ])
}

fn route_resource(route: &Route, base: &str) -> Y {
    map([
        ("Type", s("AWS::ApiGatewayV2::Route")),
        (
            "Properties",
            map([
                ("ApiId", reference("HttpApiId")),
                ("RouteKey", s(format!("{} {}", route.method, route.full_path()))),
                ("Target", sub(&format!("integrations/${{{base}Integration}}"))),
            ]),
        ),
    ])
}

/// API Gateway may invoke the function for this route only.
fn permission(route: &Route, function_id: &str) -> Y {
    map([
        ("Type", s("AWS::Lambda::Permission")),
        (
            "Properties",
            map([
                ("Action", s("lambda:InvokeFunction")),
                ("FunctionName", reference(function_id)),
                ("Principal", s("apigateway.amazonaws.com")),
                (
                    "SourceArn",
                    sub(&format!("arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{HttpApiId}}/*/{}{}", route.method, route.full_path())),
                ),
            ]),
        ),
    ])
}
