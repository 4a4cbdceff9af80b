//! The one Lambda bootstrap serves every function the template names: each
//! `BACKOFFICE_FUNCTION` written in the stacks of template.yaml (read from
//! the files, not from the generator) is a route-table function or one of the charger
//! link's, never both, and the bootstrap stays a few lines (logic belongs
//! in shared/).

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
fn every_function_the_template_names_is_served_by_the_bootstrap() {
    let named = functions_named_in_template();
    let link: Vec<&str> = ocpp::LINK_FUNCTIONS.iter().map(|f| f.function).collect();
    assert!(named.len() > link.len(), "template.yaml names {} functions", named.len());
    for (name, count) in &named {
        assert_eq!(*count, 1, "{name} is the function of {count} resources");
        let route = backoffice::routes::by_function(name);
        let is_link = link.contains(&name.as_str());
        assert!(route.is_some() || is_link, "template.yaml names {name}, which the bootstrap does not serve (no route, no charger-link function)");
        assert!(!(route.is_some() && is_link), "{name} is both a route and a charger-link function");
    }
    // And the reverse: nothing the bootstrap serves is missing from the template.
    for route in backoffice::routes() {
        assert!(named.contains_key(route.function), "route {} {} has no function in template.yaml", route.method, route.path);
    }
    for f in &link {
        assert!(named.contains_key(*f), "charger-link function {f} is not in template.yaml");
    }
}

#[test]
fn the_bootstrap_stays_a_few_lines() {
    let source = repo_file("functions/src/main.rs");
    assert!(source.contains("backoffice::lambda::serve(&function)") && source.contains("ocpp_aws::serve(&function)"));
    let code_lines = source.lines().filter(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty()).count();
    assert!(code_lines <= 12, "functions/src/main.rs must stay a few lines; logic belongs in shared/ ({code_lines} lines)");
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("../functions/src/bin").exists(), "one bootstrap, no per-function bins");
}
