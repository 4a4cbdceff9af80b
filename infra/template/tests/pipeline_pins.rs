//! The deploy pipeline runs with the deploy role: every third-party action
//! is pinned by commit and every tool by version, so a moved tag or a new
//! release cannot change what runs there.

fn pipeline() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/pipeline.yml")).expect("infra/deploy/pipeline.yml")
}

#[test]
fn every_action_is_pinned_by_commit() {
    let text = pipeline();
    let uses: Vec<&str> = text.lines().filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("uses:")).map(str::trim).collect();
    assert!(uses.len() >= 5, "{uses:?}");
    for u in uses {
        let reference = u.split_once('@').map(|(_, r)| r.split_whitespace().next().unwrap_or_default()).unwrap_or_default();
        assert!(reference.len() == 40 && reference.bytes().all(|b| b.is_ascii_hexdigit()), "not pinned by commit: {u}");
    }
}

#[test]
fn every_installed_tool_has_a_version() {
    let text = pipeline();
    for line in text.lines().filter(|l| l.contains("pip install")) {
        let packages = line.split("pip install").nth(1).unwrap_or_default().split_whitespace().filter(|w| !w.starts_with('-'));
        for p in packages {
            assert!(p.contains("=="), "no version for {p} in: {line}");
        }
    }
    for line in text.lines().filter(|l| l.trim_start().starts_with("toolchain:")) {
        assert!(line.chars().any(|c| c.is_ascii_digit()), "the Rust toolchain is a version: {line}");
    }
}
