//! template.yaml is what the generator makes of the route table, and (read
//! from the file itself, not from the generator) it has exactly one Lambda
//! function per route with that route's method, path, the shared
//! bootstrap as its code and its own function name in BACKOFFICE_FUNCTION.

use std::collections::BTreeMap;
use std::path::Path;

fn template_file() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(sam_template::TEMPLATE_FILE);
    std::fs::read_to_string(&path).unwrap_or_default()
}

#[test]
fn template_yaml_is_generated_from_the_route_table() {
    let on_disk = template_file();
    let wanted = sam_template::render();
    if on_disk != wanted {
        let first_difference = on_disk
            .lines()
            .zip(wanted.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| on_disk.lines().count().min(wanted.lines().count()));
        panic!(
            "template.yaml is stale (first difference at line {}): run `cargo run -p sam-template` and commit it",
            first_difference + 1
        );
    }
}

/// One `AWS::Serverless::Function` resource as written in the file.
#[derive(Debug, Default, PartialEq)]
struct FunctionResource {
    code_uri: String,
    function: String,
    method: String,
    path: String,
}

/// The function resources of the template by logical ID. A line-based read
/// is enough for the generator's fixed layout: resources are the keys
/// indented two spaces under `Resources:`.
fn function_resources(template: &str) -> Vec<(String, FunctionResource)> {
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
    let value = |lines: &[&str], key: &str| {
        let prefix = format!("{key}: ");
        let found: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix(prefix.as_str())).collect();
        assert!(found.len() <= 1, "{key} appears {} times in one resource", found.len());
        found.first().map(|v| v.trim_matches('\'').to_string()).unwrap_or_default()
    };
    blocks
        .into_iter()
        .filter(|(_, lines)| lines.contains(&"Type: AWS::Serverless::Function"))
        .map(|(id, lines)| {
            let resource = FunctionResource {
                code_uri: value(&lines, "CodeUri"),
                function: value(&lines, "BACKOFFICE_FUNCTION"),
                method: value(&lines, "Method"),
                path: value(&lines, "Path"),
            };
            (id, resource)
        })
        .collect()
}

#[test]
fn every_route_has_exactly_one_function_with_its_method_path_and_code() {
    let template = template_file();
    assert!(!template.is_empty(), "template.yaml is missing: run `cargo run -p sam-template`");
    let in_file = function_resources(&template);
    let mut by_id: BTreeMap<String, FunctionResource> = BTreeMap::new();
    for (id, resource) in in_file {
        assert!(by_id.insert(id.clone(), resource).is_none(), "{id} is defined twice");
    }
    for route in backoffice::routes() {
        let id = sam_template::logical_id(route.function);
        let wanted = FunctionResource {
            code_uri: sam_template::CODE_URI.to_string(),
            function: route.function.to_string(),
            method: route.method.to_string(),
            path: route.full_path(),
        };
        let found = by_id.remove(&id);
        assert_eq!(found.as_ref(), Some(&wanted), "{id} for {} {} in template.yaml", route.method, route.full_path());
        let event_lines = template.lines().filter(|l| l.trim() == format!("Path: {}", route.full_path())).count();
        assert_eq!(event_lines, 1, "{} must be routed exactly once", route.full_path());
    }
    // The charger link's functions: no HTTP event, the same bootstrap.
    for f in ocpp::LINK_FUNCTIONS {
        let id = sam_template::logical_id(f.function);
        let found = by_id.remove(&id).unwrap_or_else(|| panic!("{id} (the charger link's {}) is missing from template.yaml", f.function));
        assert_eq!((found.code_uri.as_str(), found.function.as_str()), (sam_template::CODE_URI, f.function), "{id}");
        if let Some(key) = f.route_key {
            assert!(template.contains(&format!("RouteKey: '{key}'")), "{id}: no WebSocket route {key}");
        }
    }
    assert!(by_id.is_empty(), "functions in template.yaml without a route: {:?}", by_id.keys().collect::<Vec<_>>());
}
