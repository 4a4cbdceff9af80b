//! The one Lambda bootstrap serves every function the template names: each
//! `BACKOFFICE_FUNCTION` written in the stacks of template.yaml (read from
//! the files, not from the generator) is a route-table function or one of the charger
//! link's, never both (`backoffice::routes::endpoint`, which the bootstrap
//! matches on).

use std::collections::BTreeMap;
use std::path::Path;

fn repo_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The root template and its nested stacks (`stacks/*.yaml`), as on disk.
fn template_files() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(sam_template::STACKS_DIR);
    let mut paths: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", sam_template::STACKS_DIR))
        .map(|e| format!("{}/{}", sam_template::STACKS_DIR, e.expect("a directory entry").file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".yaml"))
        .collect();
    paths.sort();
    paths.insert(0, sam_template::TEMPLATE_FILE.to_string());
    paths.iter().map(|p| repo_file(p)).collect()
}

/// Every `BACKOFFICE_FUNCTION: name` line of the templates, with its count.
fn functions_named_in_template() -> BTreeMap<String, usize> {
    let mut named = BTreeMap::new();
    for line in template_files().iter().flat_map(|t| t.lines()) {
        if let Some(name) = line.trim().strip_prefix("BACKOFFICE_FUNCTION: ") {
            *named.entry(name.trim_matches('\'').to_string()).or_insert(0) += 1;
        }
    }
    named
}

#[test]
fn every_function_the_template_names_is_one_endpoint() {
    let named = functions_named_in_template();
    assert!(named.len() > ocpp::LINK_FUNCTIONS.len(), "template.yaml names {} functions", named.len());
    for (name, count) in &named {
        assert_eq!(*count, 1, "{name} is the function of {count} resources");
        // The bootstrap starts what this resolves to, and stops at init on an error.
        if let Err(e) = backoffice::routes::endpoint(name) {
            panic!("template.yaml names {name}: {e}");
        }
    }
    // And the reverse: nothing the bootstrap serves is missing from the template.
    for route in backoffice::routes() {
        assert!(named.contains_key(route.function), "route {} {} has no function in template.yaml", route.method, route.path);
    }
    for f in ocpp::LINK_FUNCTIONS {
        assert!(named.contains_key(f.function), "charger-link function {} is not in template.yaml", f.function);
    }
}

#[test]
fn a_function_name_the_bootstrap_does_not_serve_stops_it_with_its_name() {
    let Err(e) = backoffice::routes::endpoint("order_lisst") else { panic!("a misspelt function name resolved") };
    assert!(e.contains("order_lisst"), "{e}");
    assert!(matches!(backoffice::routes::endpoint("ocpp_message"), Ok(backoffice::routes::Endpoint::ChargerLink(_))));
    let any_route = backoffice::routes()[0].function;
    assert!(matches!(backoffice::routes::endpoint(any_route), Ok(backoffice::routes::Endpoint::Route(_))));
}
