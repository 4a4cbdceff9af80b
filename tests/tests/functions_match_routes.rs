//! The one Lambda bootstrap serves every function the template names:
//! each function's BACKOFFICE_FUNCTION is a route-table function or one of
//! the charger link's, and the bootstrap stays a few lines (logic belongs
//! in shared/).

use std::path::Path;

#[test]
fn the_bootstrap_serves_every_function_and_stays_small() {
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("../functions/src/main.rs");
    let source = std::fs::read_to_string(&main).expect("functions/src/main.rs exists");
    assert!(source.contains("backoffice::lambda::serve(&function)") && source.contains("ocpp_aws::serve(&function)"));
    let code_lines = source.lines().filter(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty()).count();
    assert!(code_lines <= 12, "functions/src/main.rs must stay a few lines; logic belongs in shared/ ({code_lines} lines)");
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("../functions/src/bin").exists(), "one bootstrap, no per-function bins");
    for route in backoffice::routes() {
        assert!(backoffice::routes::by_function(route.function).is_some());
        assert!(!ocpp::LINK_FUNCTIONS.iter().any(|f| f.function == route.function), "{} is both a route and a link function", route.function);
    }
}
