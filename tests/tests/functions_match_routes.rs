//! Every route-table function has its Lambda bin in functions/src/bin and
//! every bin serves a route (or is one of the charger link's functions);
//! each bin names its own function.

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn one_lambda_bin_per_route_and_no_strays() {
    let bin_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../functions/src/bin");
    let mut bins = BTreeSet::new();
    for entry in std::fs::read_dir(&bin_dir).expect("functions/src/bin exists") {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        assert!(
            source.contains(&format!("backoffice::lambda::serve(\"{name}\")")) || source.contains(&format!("ocpp_aws::serve(\"{name}\")")),
            "{} must serve its own function \"{name}\"",
            path.display()
        );
        assert!(source.lines().count() <= 8, "{} must stay a few lines; logic belongs in shared/", path.display());
        bins.insert(name);
    }
    // The route table's functions and the charger link's.
    let routes: BTreeSet<String> =
        backoffice::routes().iter().map(|r| r.function.to_string()).chain(ocpp::LINK_FUNCTIONS.iter().map(|f| f.function.to_string())).collect();
    let missing: Vec<_> = routes.difference(&bins).collect();
    let stray: Vec<_> = bins.difference(&routes).collect();
    assert!(missing.is_empty(), "routes without a Lambda bin (add functions/src/bin/<name>.rs): {missing:?}");
    assert!(stray.is_empty(), "Lambda bins without a route (remove them or add the route): {stray:?}");
}
