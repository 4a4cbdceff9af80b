//! SAM local's files. The template (`infra/sam-local/template.yaml`): every
//! function of every stack, as deployed (same logical ID, code, variables),
//! the route functions with an `HttpApi` event of their route. SAM local
//! cannot serve the deployed application itself: its API reader takes
//! every `AWS::ApiGatewayV2::Route` for an HTTP route (a WebSocket route
//! key such as `$connect` stops it), and it mounts no route whose API is
//! in another stack. The env-vars file (`--env-vars
//! infra/sam-local/env.json`): for every function, each variable the
//! template declares for it, with the value it takes on a developer's
//! machine (DynamoDB Local or moto on the host, a development JWT secret,
//! no Secrets Manager, no WebSocket API). SAM local only sets variables
//! the template declares, which is why the two local-only ones are
//! declared (empty) in the deployed stacks too.

use std::collections::BTreeMap;

use crate::common::{Stack, CODE_URI};
use crate::yaml::{list, map, raw, s, Y};

/// Where the env-vars file is written, relative to the workspace root.
pub const ENV_FILE: &str = "infra/sam-local/env.json";

/// Where SAM local's template is written, relative to the workspace root.
pub const TEMPLATE_FILE: &str = "infra/sam-local/template.yaml";

/// The table the local functions use (the gateway creates it when it
/// seeds DynamoDB Local in development mode).
pub const LOCAL_TABLE: &str = "backoffice";

/// DynamoDB Local (or moto) on the developer's machine, as a Lambda
/// container sees it.
pub const LOCAL_DYNAMO_ENDPOINT: &str = "http://host.docker.internal:8000";

/// The JWT secret of the local functions and of the gateway that seeds
/// their table (tokens one function issues, the others accept). For a
/// developer's machine only: never a deployed stack's.
pub const LOCAL_JWT_SECRET: &str = "sam-local-development-secret-not-for-any-deployment";

/// SAM local has no WebSocket API: a command to a charger finds no socket
/// and ends as "charger offline" (chargers use the local gateway).
pub const LOCAL_WS_ENDPOINT: &str = "http://127.0.0.1:9/no-websocket-api-in-sam-local";

/// The local value of a variable the template declares.
pub fn local_value(name: &str, template_value: &Y) -> String {
    match name {
        "BACKOFFICE_FUNCTION" | "BACKOFFICE_ENV" | "BACKOFFICE_STORE" => match template_value {
            Y::Str(v) => v.clone(),
            other => panic!("{name} is not a plain value in the template: {other:?}"),
        },
        "BACKOFFICE_TABLE" => LOCAL_TABLE.into(),
        "BACKOFFICE_DYNAMO_ENDPOINT" => LOCAL_DYNAMO_ENDPOINT.into(),
        "BACKOFFICE_JWT_SECRET" => LOCAL_JWT_SECRET.into(),
        // No Secrets Manager extension locally: the ids are emptied (read
        // as unset), so the functions take the values above, and with no
        // origin secret every /partnerapi call is accepted (no CloudFront).
        "BACKOFFICE_JWT_SECRET_ID" | "BACKOFFICE_ORIGIN_VERIFY_SECRET_ID" => String::new(),
        "BACKOFFICE_WS_ENDPOINT" => LOCAL_WS_ENDPOINT.into(),
        other => panic!("{other}: the template declares it, but sam_local.rs gives it no local value"),
    }
}

fn entries(y: &Y) -> &[(String, Y)] {
    match y {
        Y::Map(e) => e,
        _ => &[],
    }
}

fn get<'a>(y: &'a Y, key: &str) -> Option<&'a Y> {
    entries(y).iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// A function's variables as SAM sees them: the stack's Globals, then its own.
pub fn function_variables(stack: &Stack, function: &Y) -> Vec<(String, Y)> {
    let variables = |y: Option<&Y>| -> Vec<(String, Y)> {
        y.and_then(|e| get(e, "Environment")).and_then(|e| get(e, "Variables")).map(|v| entries(v).to_vec()).unwrap_or_default()
    };
    let mut out = variables(stack.globals.as_ref().and_then(|g| get(g, "Function")));
    for (k, v) in variables(get(function, "Properties")) {
        out.retain(|(n, _)| *n != k);
        out.push((k, v));
    }
    out
}

/// The functions of a stack: (logical ID, resource).
pub fn functions(stack: &Stack) -> impl Iterator<Item = (&String, &Y)> {
    stack.resources.iter().filter(|(_, r)| matches!(get(r, "Type"), Some(Y::Str(t)) if t == "AWS::Serverless::Function")).map(|(id, r)| (id, r))
}

pub fn env_file(stacks: &[Stack]) -> String {
    let mut file: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for stack in stacks {
        for (id, f) in functions(stack) {
            let values = function_variables(stack, f).iter().map(|(k, v)| (k.clone(), local_value(k, v))).collect();
            assert!(file.insert(id.clone(), values).is_none(), "{id} is a function of two stacks");
        }
    }
    let mut text = serde_json::to_string_pretty(&file).expect("plain strings");
    text.push('\n');
    text
}

/// SAM local's template: each function with its variables in full (its
/// stack's Globals and its own), its description and code; no policies,
/// reserved concurrency or schedule (SAM local runs none of them).
pub fn template(stacks: &[Stack]) -> String {
    let mut resources: Vec<(String, Y)> = Vec::new();
    for stack in stacks {
        for (id, f) in functions(stack) {
            let props = get(f, "Properties").expect("a function's Properties");
            // Declared here, valued in env.json (the deployed values name
            // resources SAM local does not have).
            let variables =
                function_variables(stack, f).into_iter().map(|(k, v)| if k == "BACKOFFICE_FUNCTION" { (k, v) } else { (k, s("")) }).collect();
            let mut p = vec![
                ("Description", get(props, "Description").cloned().unwrap_or_else(|| s(""))),
                // Relative to this file's directory.
                ("CodeUri", s(format!("../../{CODE_URI}"))),
                ("Environment", map([("Variables", Y::Map(variables))])),
            ];
            if let Some(timeout) = get(props, "Timeout") {
                p.push(("Timeout", timeout.clone()));
            }
            let function = match get(props, "Environment").and_then(|e| get(e, "Variables")).and_then(|v| get(v, "BACKOFFICE_FUNCTION")) {
                Some(Y::Str(name)) => name.clone(),
                other => panic!("{id}: BACKOFFICE_FUNCTION is {other:?}"),
            };
            if let Some(route) = backoffice::routes::by_function(&function) {
                p.push((
                    "Events",
                    map([(
                        "Route",
                        map([
                            ("Type", s("HttpApi")),
                            ("Properties", map([("Method", s(route.method.to_string())), ("Path", s(route.full_path()))])),
                        ]),
                    )]),
                ));
            }
            resources.push((id.clone(), map([("Type", s("AWS::Serverless::Function")), ("Properties", map(p))])));
        }
    }
    let doc = map([
        ("AWSTemplateFormatVersion", s("2010-09-09")),
        ("Transform", s("AWS::Serverless-2016-10-31")),
        (
            "Description",
            s("EV-charging back-office for SAM local only (sam local start-api / invoke): every function of the deployed stacks, the routes on one HTTP API; never deployed"),
        ),
        (
            "Parameters",
            map([(
                "Architecture",
                map([("Type", s("String")), ("Default", s("x86_64")), ("AllowedValues", list([s("arm64"), s("x86_64")])), ("Description", s("What the bootstrap was built for (a developer's machine: usually x86_64)"))]),
            )]),
        ),
        (
            "Globals",
            map([(
                "Function",
                map([
                    ("Runtime", s("provided.al2023")),
                    ("Architectures", list([raw("!Ref Architecture")])),
                    ("Handler", s("bootstrap")),
                    ("MemorySize", raw("256")),
                    ("Timeout", raw("10")),
                ]),
            )]),
        ),
        ("Resources", Y::Map(resources)),
    ]);
    format!(
        "# Generated by `cargo run -p sam-template` (infra/template/src/sam_local.rs) for\n\
         # `sam local start-api` and `sam local invoke` (see README, \"SAM local\").\n\
         # Do not edit: a test fails when this file and the generator disagree.\n{}",
        doc.render()
    )
}
