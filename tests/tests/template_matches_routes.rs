//! The SAM application (template.yaml and its nested stacks in stacks/) is
//! what the generator makes of the route table, and (read from the files
//! themselves, not from the generator) it has exactly one Lambda function
//! per route, with the shared bootstrap as its code, its own function name
//! in BACKOFFICE_FUNCTION, and exactly one HTTP API route with that route's
//! method and path whose integration invokes it.

use std::collections::BTreeMap;
use std::path::Path;

fn repo_file(path: &str) -> Option<String> {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)).ok()
}

#[test]
fn every_generated_file_is_what_the_generator_makes_of_the_route_table() {
    let wanted = sam_template::files();
    assert!(wanted.iter().any(|(p, _)| p == sam_template::TEMPLATE_FILE));
    for (path, text) in &wanted {
        let on_disk = repo_file(path).unwrap_or_else(|| panic!("{path} is missing: run `cargo run -p sam-template` and commit it"));
        if on_disk != *text {
            let first_difference = on_disk
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| on_disk.lines().count().min(text.lines().count()));
            panic!("{path} is stale (first difference at line {}): run `cargo run -p sam-template` and commit it", first_difference + 1);
        }
    }
    // No stack left over from a renamed group: the root would not name it,
    // but a reader (or a test) would take it for part of the application.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(sam_template::STACKS_DIR);
    for entry in std::fs::read_dir(dir).expect("stacks/") {
        let path = format!("{}/{}", sam_template::STACKS_DIR, entry.expect("an entry").file_name().to_string_lossy());
        assert!(wanted.iter().any(|(p, _)| *p == path), "{path} is no longer generated: run `cargo run -p sam-template`, which deletes it");
    }
}

/// The nested stacks the root template names (`Location: stacks/x.yaml`), as on disk.
fn stack_files() -> Vec<(String, String)> {
    let root = repo_file(sam_template::TEMPLATE_FILE).expect("template.yaml: run `cargo run -p sam-template`");
    let locations: Vec<String> =
        root.lines().filter_map(|l| l.trim().strip_prefix("Location: ")).map(|p| p.trim_matches('\'').to_string()).collect();
    assert!(locations.len() >= 4, "the root names {} nested stacks", locations.len());
    locations.into_iter().map(|p| (p.clone(), repo_file(&p).unwrap_or_else(|| panic!("{p}, named in template.yaml, is missing")))).collect()
}

/// The resources of one template by logical ID, each as its lines. A
/// line-based read is enough for the generator's fixed layout: resources
/// are the keys indented two spaces under `Resources:`.
fn resources(template: &str) -> Vec<(String, Vec<&str>)> {
    let mut blocks: Vec<(String, Vec<&str>)> = Vec::new();
    let mut in_resources = false;
    for line in template.lines() {
        if !line.starts_with(' ') && !line.starts_with('#') && !line.is_empty() {
            in_resources = line == "Resources:";
        } else if in_resources {
            match line.strip_prefix("  ") {
                Some(key) if !key.starts_with(' ') => blocks.push((key.trim_end_matches(':').to_string(), Vec::new())),
                _ => blocks.last_mut().expect("a resource line before any resource").1.push(line.trim()),
            }
        }
    }
    blocks
}

fn value(lines: &[&str], key: &str) -> String {
    let prefix = format!("{key}: ");
    let found: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix(prefix.as_str())).collect();
    assert!(found.len() <= 1, "{key} appears {} times in one resource", found.len());
    found.first().map(|v| v.trim_matches('\'').to_string()).unwrap_or_default()
}

/// One `AWS::Serverless::Function` as written in a stack, with the HTTP
/// API routes whose integration invokes it.
#[derive(Debug, Default, PartialEq)]
struct FunctionResource {
    code_uri: String,
    function: String,
    route_keys: Vec<String>,
}

/// The functions of every nested stack by logical ID (unique across them:
/// SAM local's env-vars file is keyed by it).
fn function_resources() -> BTreeMap<String, FunctionResource> {
    let mut out: BTreeMap<String, FunctionResource> = BTreeMap::new();
    for (file, text) in stack_files() {
        let blocks = resources(&text);
        // A resource's own Type is its first line (events and destinations have one too).
        let kind = |lines: &[&str]| lines.first().and_then(|l| l.strip_prefix("Type: ")).unwrap_or_default().to_string();
        // Integration id -> the function it invokes.
        let integrations: BTreeMap<&str, String> = blocks
            .iter()
            .filter(|(_, l)| kind(l) == "AWS::ApiGatewayV2::Integration")
            .map(|(id, l)| {
                // `!GetAtt F.Arn`, or F's ARN inside a `!Sub` invocation URI.
                let uri = value(l, "IntegrationUri");
                let function = match uri.strip_prefix("!GetAtt ") {
                    Some(att) => att.trim_end_matches(".Arn").to_string(),
                    None => uri.split("${").find_map(|rest| rest.split_once(".Arn}")).map(|(f, _)| f.to_string()).unwrap_or_default(),
                };
                (id.as_str(), function)
            })
            .collect();
        let mut here: BTreeMap<String, FunctionResource> = BTreeMap::new();
        for (id, lines) in blocks.iter().filter(|(_, l)| kind(l) == "AWS::Serverless::Function") {
            let resource = FunctionResource { code_uri: value(lines, "CodeUri"), function: value(lines, "BACKOFFICE_FUNCTION"), route_keys: Vec::new() };
            assert!(here.insert(id.clone(), resource).is_none(), "{id} is defined twice in {file}");
        }
        for (id, lines) in blocks.iter().filter(|(_, l)| kind(l) == "AWS::ApiGatewayV2::Route") {
            let target = value(lines, "Target");
            let target = target.trim_start_matches("!Sub ").trim_matches('\'');
            let Some(integration) = target.strip_prefix("integrations/${").and_then(|t| t.strip_suffix('}')) else { continue };
            // The charger link's routes name their integration the same way.
            if let Some(function) = integrations.get(integration) {
                if let Some(f) = here.get_mut(function) {
                    f.route_keys.push(value(lines, "RouteKey"));
                } else {
                    panic!("{file}: route {id} invokes {function}, which is not a function of that stack");
                }
            }
        }
        for (id, resource) in here {
            assert!(!out.contains_key(&id), "{id} is a function of two stacks");
            out.insert(id, resource);
        }
    }
    out
}

#[test]
fn every_route_has_exactly_one_function_with_its_method_path_and_code() {
    let mut by_id = function_resources();
    let code_uri = format!("../{}", sam_template::CODE_URI);
    for route in backoffice::routes() {
        let id = sam_template::logical_id(route.function);
        let wanted = FunctionResource {
            code_uri: code_uri.clone(),
            function: route.function.to_string(),
            route_keys: vec![format!("{} {}", route.method, route.full_path())],
        };
        let found = by_id.remove(&id);
        assert_eq!(found.as_ref(), Some(&wanted), "{id} for {} {} in the route stacks", route.method, route.full_path());
    }
    // The charger link's functions: the same bootstrap; the route ones on
    // their WebSocket route, the sweeper on none.
    for f in ocpp::LINK_FUNCTIONS {
        let id = sam_template::logical_id(f.function);
        let found = by_id.remove(&id).unwrap_or_else(|| panic!("{id} (the charger link's {}) is missing from the stacks", f.function));
        assert_eq!((found.code_uri.as_str(), found.function.as_str()), (code_uri.as_str(), f.function), "{id}");
        let wanted: Vec<String> = f.route_key.iter().map(|k| k.to_string()).collect();
        assert_eq!(found.route_keys, wanted, "{id}: its WebSocket route");
    }
    assert!(by_id.is_empty(), "functions in the stacks without a route: {:?}", by_id.keys().collect::<Vec<_>>());
}

/// SAM local's env-vars file (read from disk) covers every function of the
/// stacks, each with its own BACKOFFICE_FUNCTION, the local table and
/// DynamoDB endpoint, and no variable the template does not declare.
#[test]
fn the_sam_local_env_file_covers_every_function() {
    let text = repo_file("infra/sam-local/env.json").expect("infra/sam-local/env.json: run `cargo run -p sam-template`");
    let env: BTreeMap<String, BTreeMap<String, String>> = serde_json::from_str(&text).expect("a map of maps of strings");
    let functions = function_resources();
    assert_eq!(env.keys().collect::<Vec<_>>(), functions.keys().collect::<Vec<_>>(), "env.json's functions are the stacks' functions");
    let declared: Vec<String> = stack_files()
        .iter()
        .flat_map(|(_, t)| t.lines().filter_map(|l| l.trim().split_once(": ").map(|(k, _)| k.to_string())).filter(|k| k.starts_with("BACKOFFICE_")).collect::<Vec<_>>())
        .collect();
    for (id, vars) in &env {
        assert_eq!(vars.get("BACKOFFICE_FUNCTION"), Some(&functions[id].function), "{id}");
        assert!(vars.get("BACKOFFICE_DYNAMO_ENDPOINT").is_some_and(|v| !v.is_empty()), "{id}: the local DynamoDB");
        assert!(vars.get("BACKOFFICE_TABLE").is_some_and(|v| !v.is_empty()), "{id}: the local table");
        for name in vars.keys() {
            // SAM local sets only what the template declares.
            assert!(declared.contains(name), "{id}: {name} is not declared in the stacks, so SAM local would not set it");
        }
    }
}
